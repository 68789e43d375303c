"""A run read to its end (``send_message``, ``analyze``) tells the same events as one streamed
live, in the same order, without a pool of threads for its one-agent steps; a run that fails
midway still tells what it did before failing (the run log is where those events go)."""

import json
import threading

import pytest

from engine import (
    Aeko,
    AekoInventoryAnalyzer,
    AekoMessenger,
    AekoSession,
    AekoUser,
    AekoUserMemory,
)
from engine.agents.catalog import (
    COORDINATOR,
    FAQ,
    GREEN_GASES_ANALYST,
    GUARDRAIL,
    INVENTORY_ANALYST,
    ORCHESTRATOR,
    POLLUTANTS_ANALYST,
    ROUTER,
)
from engine.budget import RunBudget
from engine.errors import AekoBudgetExceededError
from engine.events import RunFinished
from engine.models.scripted import ScriptedChatModel

USER = AekoUser(id_external_user=7, role="Analista ESG", usecase="Frota")
MEMORIES = [AekoUserMemory(field="idioma", description="português")]
QUESTION = "Quais gases mais pesam no escopo 1?"
ANSWER = "O CO2 da queima de diesel pesa mais no escopo 1."
SPECIALISTS = {
    ROUTER: ["Poluentes.\nNext agent: Analista de Poluentes"],
    POLLUTANTS_ANALYST: [ANSWER + "\nNext agent: Analista de Gases Verdes"],
    GREEN_GASES_ANALYST: [ANSWER + "\nNext agent: Orquestrador"],
    ORCHESTRATOR: [ANSWER + "\nNext agent: Guardrail de Saída"],
    GUARDRAIL: ["Aprovado."],
}
PLAN = (
    "## Problema definido\nO diesel pesa mais.\n\n## Método\nTrocar parte do diesel.\n\n"
    "## Raciocínio\nÉ a maior fonte.\nNext agent: Nenhum"
)
# The inventory flow's two analysts run side by side: a step of two agents.
INVENTORY_FLOW = {
    INVENTORY_ANALYST: ["O diesel domina.\nNext agent: Analista de Poluentes"],
    POLLUTANTS_ANALYST: ["CO2 do diesel.\nNext agent: Coordenador de Melhoria Contínua"],
    GREEN_GASES_ANALYST: ["Biodiesel.\nNext agent: Coordenador de Melhoria Contínua"],
    COORDINATOR: [PLAN],
}
INVENTORY = "| Fonte | Escopo | Gás | t CO2e |\n|---|---|---|---|\n| Diesel | 1 | CO2 | 120 |\n"


def _logged(path) -> list[tuple]:
    """The run log's events: kind, agent and attempt, in the order written."""
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return [(r["kind"], r.get("agent"), r.get("attempt")) for r in lines]


def _configure(tmp_path, name: str, script: dict, **settings) -> tuple[ScriptedChatModel, object]:
    model = ScriptedChatModel(model_name="gemini-2.5-flash", script=script)
    log = tmp_path / f"{name}.jsonl"
    Aeko.config(fast_model=model, slow_model=model, run_log=log, **settings)
    return model, log


def _by_agent(events: list[tuple]) -> dict:
    """Each agent's own events in order: agents that run side by side interleave by time."""
    mine: dict = {}
    for kind, agent, attempt in events:
        mine.setdefault(agent, []).append((kind, attempt))
    return mine


def test_a_chat_turn_sent_tells_the_events_a_streamed_turn_shows(tmp_path):
    _, live_log = _configure(tmp_path, "live", SPECIALISTS)
    streamed = list(AekoMessenger(USER, MEMORIES).stream(QUESTION, AekoSession()))
    assert isinstance(streamed[-1], RunFinished)
    _, sent_log = _configure(tmp_path, "sent", SPECIALISTS)
    response = AekoMessenger(USER, MEMORIES).send_message(QUESTION, AekoSession())
    assert response.approved and response.message.output.startswith("O CO2")
    live, sent = _logged(live_log), _logged(sent_log)
    assert sent == live
    agents = [agent for kind, agent, _ in sent if kind == "agent_started"]
    assert agents == [ROUTER, POLLUTANTS_ANALYST, GREEN_GASES_ANALYST, ORCHESTRATOR, GUARDRAIL]


def test_a_sent_turns_agents_run_in_the_callers_thread(tmp_path):
    threads: set[int] = set()

    def answer(messages):
        threads.add(threading.get_ident())
        return ANSWER + "\nNext agent: Nenhum"

    script = {ROUTER: ["Conceitual.\nNext agent: FAQ"], FAQ: [answer]}
    _configure(tmp_path, "faq", script)
    AekoMessenger(USER).send_message("O que é escopo 1?", AekoSession())
    assert threads == {threading.get_ident()}
    # Streamed live, the same agent answers from a thread of the run's pool: its events must
    # reach a reader while it runs.
    threads.clear()
    _configure(tmp_path, "faq-live", script)
    list(AekoMessenger(USER).stream("O que é escopo 1?", AekoSession()))
    assert threads and threading.get_ident() not in threads


def test_an_analysis_read_to_its_end_tells_each_agents_events_as_streamed(tmp_path):
    _, live_log = _configure(tmp_path, "live", INVENTORY_FLOW)
    streamed = list(AekoInventoryAnalyzer().stream(INVENTORY, id_external_inventory=3))
    assert isinstance(streamed[-1], RunFinished)
    _, sent_log = _configure(tmp_path, "sent", INVENTORY_FLOW)
    plan = AekoInventoryAnalyzer().analyze(INVENTORY, id_external_inventory=3)
    assert "diesel" in plan.defined_problem.lower()
    live, sent = _logged(live_log), _logged(sent_log)
    assert sorted(sent) == sorted(live)
    assert _by_agent(sent) == _by_agent(live)
    started = [agent for kind, agent, _ in sent if kind == "agent_started"]
    assert started[0] == INVENTORY_ANALYST and started[-1] == COORDINATOR
    assert set(started[1:3]) == {POLLUTANTS_ANALYST, GREEN_GASES_ANALYST}


def test_a_sent_turn_that_breaks_its_budget_logs_what_it_did_first(tmp_path):
    budget = RunBudget(max_model_calls=2)  # the router and the first analyst, no more
    _, live_log = _configure(tmp_path, "live", SPECIALISTS)
    with pytest.raises(AekoBudgetExceededError):
        list(AekoMessenger(USER).stream(QUESTION, AekoSession(), budget=budget))
    _, sent_log = _configure(tmp_path, "sent", SPECIALISTS)
    with pytest.raises(AekoBudgetExceededError):
        AekoMessenger(USER).send_message(QUESTION, AekoSession(), budget=budget)
    live, sent = _logged(live_log), _logged(sent_log)
    assert sent == live
    kinds = [kind for kind, _, _ in sent]
    assert kinds[-1] == "run_failed"
    finished = [agent for kind, agent, _ in sent if kind == "agent_finished"]
    assert finished == [ROUTER, POLLUTANTS_ANALYST]
