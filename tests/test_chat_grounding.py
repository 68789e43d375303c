"""A conversation that reads the user's inventory, cites its sources and has every number of a
reviewed answer checked against what the run read, whatever the reviewing model says."""

import pytest
from langchain_core.messages import AIMessage

from engine import Aeko, AekoMessenger, AekoSession, GuardrailVerdict, ToolReturned
from engine.agents.catalog import GUARDRAIL, ORCHESTRATOR, POLLUTANTS_ANALYST, ROUTER
from engine.constants import GUARD_RAIL_MAX_RETRIES
from engine.graph.context import ATTACHMENT
from engine.inventory import load_inventory
from engine.models.scripted import ScriptedChatModel
from engine.offline import OfflineAnalyst
from tests import inventory_fixtures as fx

TO_ANALYST = "Dados do inventário.\nNext agent: Analista de Poluentes"


@pytest.fixture
def inventory():
    data, _ = fx.ghg_program_workbook()
    return load_inventory(data, filename="frota.xlsx")


def scripted(fast_script, slow_script):
    fast = ScriptedChatModel(model_name="fake-fast", script=fast_script)
    slow = ScriptedChatModel(model_name="fake-slow", script=slow_script)
    Aeko.config(fast_model=fast, slow_model=slow)
    return fast, slow


def _scope_1_total(inventory) -> float:
    totals = inventory.totals_by("scope")
    return float(totals[totals["scope"].astype(str) == "1"]["tco2e"].iloc[0])


def test_the_agents_read_the_attached_inventory_and_its_tool(user, inventory):
    query = AIMessage(
        content="",
        tool_calls=[{"name": "consultar_inventario", "args": {"group_by": "scope"}, "id": "q1"}],
    )
    _fast, slow = scripted(
        {
            ROUTER: [TO_ANALYST],
            ORCHESTRATOR: [lambda m: _echo_tool(m) + "\nNext agent: Guardrail de Saída"],
            GUARDRAIL: ["Aprovado."],
        },
        {POLLUTANTS_ANALYST: [query, lambda m: _echo_tool(m) + "\nNext agent: Orquestrador"]},
    )
    events = list(
        AekoMessenger(user).stream(
            "Quanto emitimos por escopo?", AekoSession(), inventory=inventory
        )
    )
    response = events[-1].result
    analyst_prompt = slow.calls_for(POLLUTANTS_ANALYST)[0].messages[-1].text
    assert ATTACHMENT in analyst_prompt and "frota.xlsx" in analyst_prompt
    returned = [e for e in events if isinstance(e, ToolReturned)]
    assert returned and returned[0].sources[0].kind == "inventory"
    assert response.approved
    assert {s.kind for s in response.sources} == {"inventory"}
    assert any("group_by=scope" in s.label for s in response.sources)


def _echo_tool(messages) -> str:
    """An analyst that repeats the first line the tool returned, as a careful model would."""
    for message in reversed(messages):
        if message.type == "tool":
            return message.text.splitlines()[0]
    for message in reversed(messages):  # the orchestrator reads the analyst's finding
        if "Pollutants" in message.text or "Análises" in message.text:
            line = next(ln for ln in message.text.splitlines() if "linhas; total" in ln)
            return line.split(": ", 1)[-1]
    return "sem dados"


def test_an_approved_draft_with_an_unsourced_number_goes_back(user, inventory):
    scope_1 = _scope_1_total(inventory)
    _fast, _slow = scripted(
        {
            ROUTER: [TO_ANALYST],
            ORCHESTRATOR: [
                "O escopo 1 soma 9.999,9 t CO2e.\nNext agent: Guardrail de Saída",
                f"O escopo 1 soma {scope_1:,.1f} t CO2e.".replace(",", "X")
                .replace(".", ",")
                .replace("X", ".")
                + "\nNext agent: Guardrail de Saída",
            ],
            GUARDRAIL: ["Aprovado."],
        },
        {POLLUTANTS_ANALYST: ["Escopo 1 somado.\nNext agent: Orquestrador"]},
    )
    events = list(AekoMessenger(user).stream("E o escopo 1?", AekoSession(), inventory=inventory))
    verdicts = [e for e in events if isinstance(e, GuardrailVerdict)]
    assert [v.approved for v in verdicts] == [False, True]
    assert "9.999,9" in verdicts[0].reasons
    response = events[-1].result
    assert response.guardrail_retries == 1
    # the digest backs the total, so the attached inventory is the answer's source
    assert [s.label for s in response.sources] == ["frota.xlsx"]


def test_with_nothing_attached_the_same_number_has_no_source(user):
    scripted(
        {
            ROUTER: [TO_ANALYST],
            ORCHESTRATOR: ["O escopo 1 soma 1.234,5 t CO2e.\nNext agent: Guardrail de Saída"],
            GUARDRAIL: ["Aprovado."],
        },
        {POLLUTANTS_ANALYST: ["Escopo 1: 1.234,5 t CO2e.\nNext agent: Orquestrador"]},
    )
    response = AekoMessenger(user).send_message("E o escopo 1?", AekoSession())
    # Sent back every time; after the last retry the reviewer's approval stands and the
    # answer is shown, the figure no source backs marked where it stands.
    assert response.guardrail_retries == GUARD_RAIL_MAX_RETRIES
    assert response.unverified == ["1.234,5"]
    assert response.message.output == "O escopo 1 soma 1.234,5 (não verificado) t CO2e."
    assert response.approved and response.sources == []


def test_a_rejection_by_the_reviewer_still_ends_with_no_answer(user):
    scripted(
        {
            ROUTER: [TO_ANALYST],
            ORCHESTRATOR: ["O escopo 1 soma 1.234,5 t CO2e.\nNext agent: Guardrail de Saída"],
            GUARDRAIL: ["Reprovado: a resposta não responde à pergunta."],
        },
        {POLLUTANTS_ANALYST: ["Escopo 1: 1.234,5 t CO2e.\nNext agent: Orquestrador"]},
    )
    response = AekoMessenger(user).send_message("E o escopo 1?", AekoSession())
    assert not response.approved and response.message.output == ""
    assert response.unverified == []


def test_an_english_answer_is_marked_in_english(user):
    scripted(
        {
            ROUTER: [TO_ANALYST],
            ORCHESTRATOR: ["Scope 1 adds up to 1,234.5 t CO2e.\nNext agent: Guardrail de Saída"],
            GUARDRAIL: ["Aprovado."],
        },
        {POLLUTANTS_ANALYST: ["Scope 1: 1,234.5 t.\nNext agent: Orquestrador"]},
    )
    response = AekoMessenger(user).send_message("What about our scope 1?", AekoSession())
    assert response.message.output == "Scope 1 adds up to 1,234.5 (unverified) t CO2e."


def test_offline_answers_about_my_data_come_from_the_attached_inventory(user, inventory):
    model = OfflineAnalyst()
    Aeko.config(fast_model=model, slow_model=model)
    session = AekoSession()
    response = AekoMessenger(user).send_message(
        "What were our scope 1 emissions last year?", session, inventory=inventory
    )
    scope_1 = _scope_1_total(inventory)
    assert response.approved, response
    assert f"{scope_1:,.1f} t CO2e" in response.message.output
    assert "Scope 1" in response.message.output
    assert any(s.kind == "inventory" for s in response.sources)

    none = AekoMessenger(user).send_message(
        "What were our scope 1 emissions last year?", AekoSession()
    )
    assert "No inventory is attached" in none.message.output
    assert none.sources == []
