import threading

import pytest

from engine import (
    MAX_MODEL_CALLS,
    PLAN_FORMAT_MAX_RETRIES,
    Aeko,
    AekoImprovementPlan,
    AekoInventoryAnalyzer,
    MalformedAgentOutputError,
    PlanRewriteRequested,
    RunFinished,
)
from engine.agents.catalog import (
    COORDINATOR,
    GREEN_GASES_ANALYST,
    INVENTORY_ANALYST,
    POLLUTANTS_ANALYST,
)
from engine.models.scripted import ScriptedChatModel

INVENTORY = "| Fonte | Gás | t CO2e |\n|---|---|---|\n| Caldeira | CO2 | 1240 |"
PLAN = (
    "## Problema definido\nA caldeira a diesel emite 1.240 t CO2e.\n\n"
    "## Método\nSubstituir parte do diesel por HVO.\n\n"
    "## Raciocínio\nO HVO retira o CO2 fóssil da parte substituída.\nNext agent: Nenhum"
)


def configure(coordinator_replies, *, inventory_analyst="Inventário lido.\nNext agent: "
              "Analista de Poluentes", pollutants=None, green=None):  # fmt: skip
    slow = ScriptedChatModel(
        model_name="fake-slow",
        script={
            INVENTORY_ANALYST: [inventory_analyst],
            POLLUTANTS_ANALYST: [pollutants or "CO2 domina: 100%.\nNext agent: Orquestrador"],
            GREEN_GASES_ANALYST: [green or "HVO no lugar do diesel.\nNext agent: FAQ"],
            COORDINATOR: coordinator_replies,
        },
    )
    fast = ScriptedChatModel(model_name="fake-fast")
    Aeko.config(fast_model=fast, slow_model=slow)
    return fast, slow


def test_a_well_formed_plan_costs_one_coordinator_call():
    fast, slow = configure([PLAN])
    plan = AekoInventoryAnalyzer().analyze(INVENTORY, id_external_inventory=502)
    assert isinstance(plan, AekoImprovementPlan)
    assert plan.id is None and plan.id_external_inventory == 502
    assert plan.defined_problem == "A caldeira a diesel emite 1.240 t CO2e."
    assert plan.method == "Substituir parte do diesel por HVO."
    assert plan.reasoning == "O HVO retira o CO2 fóssil da parte substituída."
    assert len(slow.calls_for(COORDINATOR)) == 1
    assert fast.calls == []  # confined to the report analysts: no router, no guardrail


def test_flow_enters_at_the_inventory_analyst_and_ends_at_the_coordinator():
    configure([PLAN])
    plan = AekoInventoryAnalyzer().analyze(INVENTORY, id_external_inventory=1)
    assert plan.agents_called[0] == INVENTORY_ANALYST
    assert set(plan.agents_called[1:3]) == {POLLUTANTS_ANALYST, GREEN_GASES_ANALYST}
    assert plan.agents_called[3:] == [COORDINATOR]


def test_plan_usage_is_reported_beside_the_document_not_in_it():
    configure([PLAN])
    plan = AekoInventoryAnalyzer().analyze(INVENTORY, id_external_inventory=1)
    assert set(plan.model_dump(by_alias=True)) == {
        "_id",
        "id_external_inventory",
        "defined_problem",
        "method",
        "reasoning",
        "unverified_numbers",  # an addition to the reference contract: shown marked
        "updated_at",
    }
    assert [call.agent for call in plan.usage.calls][-1] == COORDINATOR
    assert len(plan.usage.calls) == 4
    assert plan.usage.input_tokens > 0 and plan.usage.models == ["fake-slow"]


def test_pollutant_and_green_gas_analysts_run_in_parallel():
    both_running = threading.Barrier(2, timeout=30)

    def meet(text):
        def reply(messages):
            both_running.wait()  # raises BrokenBarrierError if the other never runs alongside
            return text

        return reply

    configure(
        [PLAN],
        pollutants=meet("CO2 domina.\nNext agent: Coordenador de Melhoria Contínua"),
        green=meet("HVO.\nNext agent: Coordenador de Melhoria Contínua"),
    )
    plan = AekoInventoryAnalyzer().analyze(INVENTORY, id_external_inventory=1)
    assert plan.method.startswith("Substituir")


def test_coordinator_consolidates_both_analysts_without_their_markers():
    _, slow = configure([PLAN])
    AekoInventoryAnalyzer().analyze(INVENTORY, id_external_inventory=1)
    prompt = slow.calls_for(COORDINATOR)[0].messages[-1].text
    assert "CO2 domina: 100%." in prompt and "HVO no lugar do diesel." in prompt
    assert "Inventário lido." in prompt
    assert INVENTORY in prompt
    assert "Next agent" not in prompt


def test_previous_report_context_reaches_the_agents():
    _, slow = configure([PLAN])
    analyzer = AekoInventoryAnalyzer()
    analyzer.set_context("Relatório 2025: 12.400 t CO2e.")
    analyzer.analyze(INVENTORY, id_external_inventory=1)
    for call in slow.calls:
        assert "Relatório 2025: 12.400 t CO2e." in call.messages[-1].text


def test_missing_section_sends_only_the_coordinator_back_with_headings_and_request():
    broken = "## Problema definido\nDiesel.\n\n## Raciocínio\nPorque sim."
    _, slow = configure([broken, PLAN])
    events = list(AekoInventoryAnalyzer().stream(INVENTORY, id_external_inventory=7))
    rewrite = [e for e in events if isinstance(e, PlanRewriteRequested)]
    assert [(e.missing, e.headings, e.rewrite) for e in rewrite] == [
        (("method",), ("## Método",), 1)
    ]
    for analyst in (INVENTORY_ANALYST, POLLUTANTS_ANALYST, GREEN_GASES_ANALYST):
        assert len(slow.calls_for(analyst)) == 1
    second = slow.calls_for(COORDINATOR)[1].messages[-1].text
    assert "`## Método`" in second
    assert INVENTORY in second  # the original request is attached
    assert broken in second
    result = events[-1]
    assert isinstance(result, RunFinished) and result.result.method.startswith("Substituir")


def test_plan_that_never_comes_raises_naming_the_missing_fields():
    _, slow = configure(["Sem títulos, só prosa."])
    with pytest.raises(MalformedAgentOutputError) as caught:
        AekoInventoryAnalyzer().analyze(INVENTORY, id_external_inventory=1)
    assert caught.value.missing == ("defined_problem", "method", "reasoning")
    assert caught.value.attempts == PLAN_FORMAT_MAX_RETRIES + 1
    assert len(slow.calls_for(COORDINATOR)) == PLAN_FORMAT_MAX_RETRIES + 1
    assert len(slow.calls) == MAX_MODEL_CALLS["inventory"]


def test_model_has_no_say_in_identifiers_or_timestamps():
    # No digits: a figure no source holds would be sent back before the identifiers matter.
    sneaky = PLAN.replace("## Raciocínio", "_id: abc\nupdated_at: ontem\n\n## Raciocínio")
    configure([sneaky])
    plan = AekoInventoryAnalyzer().analyze(INVENTORY, id_external_inventory=9)
    assert plan.id is None and plan.id_external_inventory == 9
    assert plan.updated_at.year >= 2026


def test_inventory_flow_uses_the_report_token_cap_and_chat_the_chat_cap(monkeypatch):
    import engine.runtime
    from engine.models import factory

    caps = {}

    def recording(settings, max_tokens):
        chains = factory.build_tier_chains(settings, max_tokens)
        caps[max_tokens] = {tier: chain[0].max_output_tokens for tier, chain in chains.items()}
        return chains

    monkeypatch.setattr(engine.runtime, "build_tier_chains", recording)
    Aeko.config("test-key", max_tokens=111, report_max_tokens=2222)
    engine.runtime.RUNTIME.graph("chat")
    engine.runtime.RUNTIME.graph("inventory")
    assert caps == {111: {"fast": 111, "slow": 111}, 2222: {"fast": 2222, "slow": 2222}}
