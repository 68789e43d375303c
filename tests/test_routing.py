import pytest
from langgraph.graph import END

from engine.agents.catalog import (
    COORDINATOR,
    FAQ,
    GREEN_GASES_ANALYST,
    GUARDRAIL,
    ORCHESTRATOR,
    POLLUTANTS_ANALYST,
    ROUTER,
)
from engine.graph.routing import NO_AGENT, next_node, resolve_name


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("FAQ", FAQ),
        ("faq.", FAQ),
        ("Nenhum.", NO_AGENT),
        ("nenhum - fim do fluxo", NO_AGENT),
        ("**Analista de Poluentes**", POLLUTANTS_ANALYST),
        ("analista de gases verdes!", GREEN_GASES_ANALYST),
        ("Guardrail de Saida", GUARDRAIL),
        ("Analista de Inventarios", "Análista de inventários"),
        ("Coordenador de Melhoria Continua (para o plano)", COORDINATOR),
        ("Orquestrador, que consolida", ORCHESTRATOR),
        ("Analista Financeiro", None),
        (None, None),
    ],
)
def test_names_resolve_despite_slips(raw, expected):
    assert resolve_name(raw) == expected


def test_invalid_or_missing_successor_takes_the_default_route():
    assert next_node("chat", ROUTER, "Guardrail de Saída") == FAQ
    assert next_node("chat", ROUTER, None) == FAQ
    assert next_node("chat", ROUTER, "Nenhum") == FAQ
    assert next_node("chat", POLLUTANTS_ANALYST, "Analista de Poluentes") == ORCHESTRATOR
    assert next_node("chat", POLLUTANTS_ANALYST, "Roteador") == ORCHESTRATOR


def test_a_specialist_runs_once_per_attempt():
    ran = frozenset({POLLUTANTS_ANALYST, GREEN_GASES_ANALYST})
    assert next_node("chat", GREEN_GASES_ANALYST, POLLUTANTS_ANALYST, ran_this_attempt=ran) == (
        ORCHESTRATOR
    )
    assert next_node("chat", GREEN_GASES_ANALYST, POLLUTANTS_ANALYST) == POLLUTANTS_ANALYST


def test_router_reaches_orchestrator_only_with_findings_to_consolidate():
    assert next_node("chat", ROUTER, ORCHESTRATOR) == FAQ
    assert next_node("chat", ROUTER, ORCHESTRATOR, has_findings=True) == ORCHESTRATOR


def test_answering_agents_end_the_run():
    assert next_node("chat", FAQ, "Orquestrador") == END
    assert next_node("inventory", COORDINATOR, "Orquestrador") == END


def test_inventory_flow_is_confined_to_the_report_analysts():
    for analyst in (POLLUTANTS_ANALYST, GREEN_GASES_ANALYST):
        for wanted in (ORCHESTRATOR, GUARDRAIL, ROUTER, FAQ, analyst, None):
            assert next_node("inventory", analyst, wanted) == COORDINATOR
