"""A well-formed plan is never thrown away over its numbers (issue #22): a figure nothing the
run read supports is named in one rewrite, and then listed on the plan; a calculator result
is read like any tool result. The inventory's figures are written here by hand."""

import pytest
from langchain_core.messages import AIMessage

from engine import (
    Aeko,
    AekoInventoryAnalyzer,
    MalformedAgentOutputError,
    PlanRewriteRequested,
    RunFinished,
    ToolCalled,
    ToolReturned,
)
from engine.agents.catalog import (
    COORDINATOR,
    GREEN_GASES_ANALYST,
    INVENTORY_ANALYST,
    POLLUTANTS_ANALYST,
)
from engine.arithmetic import ExpressionError, evaluate
from engine.models.scripted import ScriptedChatModel

# Three rows: Scope 1 is 8,120.5 + 1,310.0 = 9,430.5 t; the total 12,400.0 t.
INVENTORY = (
    "| Fonte | Escopo | Gás | t CO2e |\n|---|---|---|---|\n"
    "| Caldeiras a gás natural | 1 | CO2 | 8120.5 |\n"
    "| Frota a diesel | 1 | CO2 | 1310.0 |\n"
    "| Eletricidade comprada | 2 | CO2 | 2969.5 |"
)


def plan(problem: str, method: str = "Trocar o gás natural das caldeiras por biometano.") -> str:
    return (
        f"## Problema definido\n{problem}\n\n## Método\n{method}\n\n"
        "## Raciocínio\nO CO2 do biometano é biogênico e fica fora do escopo 1.\n"
        "Next agent: Nenhum"
    )


def configure(coordinator):
    slow = ScriptedChatModel(
        model_name="fake-slow",
        script={
            INVENTORY_ANALYST: ["Inventário lido.\nNext agent: Analista de Poluentes"],
            POLLUTANTS_ANALYST: ["CO2 domina.\nNext agent: Orquestrador"],
            GREEN_GASES_ANALYST: ["Biometano nas caldeiras.\nNext agent: FAQ"],
            COORDINATOR: coordinator,
        },
    )
    Aeko.config(fast_model=ScriptedChatModel(model_name="fake-fast"), slow_model=slow)
    return slow


def test_a_share_of_a_scope_is_one_step_of_arithmetic_and_needs_no_rewrite():
    # 8,120.5 / 9,430.5 = 86.1 %: the plan, with the share it should have said.
    slow = configure([plan("As caldeiras a gás natural concentram 86% do escopo 1.")])
    result = AekoInventoryAnalyzer().analyze(INVENTORY, id_external_inventory=1)
    assert result.unverified_numbers == []
    assert len(slow.calls_for(COORDINATOR)) == 1


def test_a_plan_with_a_figure_nothing_supports_comes_back_after_one_rewrite_with_it_listed():
    # 70 % is no share, sum or difference of the rows: the five paid calls, no plan.
    slow = configure([plan("As caldeiras a gás natural concentram 70% do escopo 1.")])
    events = list(AekoInventoryAnalyzer().stream(INVENTORY, id_external_inventory=7))
    rewrites = [e for e in events if isinstance(e, PlanRewriteRequested)]
    assert [r.unbacked for r in rewrites] == [("70",)]
    assert len(slow.calls_for(COORDINATOR)) == 2
    assert "70" in slow.calls_for(COORDINATOR)[1].messages[-1].text  # the rewrite names it
    result = events[-1].result
    assert isinstance(events[-1], RunFinished)
    assert result.defined_problem.startswith("As caldeiras a gás natural concentram 70%")
    assert result.unverified_numbers == ["70"]


def test_a_rewrite_that_drops_the_figure_leaves_nothing_listed():
    configure(
        [
            plan("As caldeiras concentram 70% do escopo 1."),
            plan("As caldeiras concentram 86% do escopo 1."),
        ]
    )
    result = AekoInventoryAnalyzer().analyze(INVENTORY, id_external_inventory=1)
    assert result.unverified_numbers == []


def test_missing_sections_still_raise():
    configure(["Só prosa, 70% do escopo 1."])
    with pytest.raises(MalformedAgentOutputError) as caught:
        AekoInventoryAnalyzer().analyze(INVENTORY, id_external_inventory=1)
    assert caught.value.missing == ("defined_problem", "method", "reasoning")


def test_a_figure_of_several_steps_is_backed_by_the_coordinators_calculator():
    # Scope 1 after a 30 % cut of the boilers: 9,430.5 − 0.3 × 8,120.5 = 6,994.35 t (two steps).
    call = AIMessage(
        content="",
        tool_calls=[
            {"name": "calcular", "args": {"expressao": "9430.5 - 0.3 * 8120.5"}, "id": "c1"}
        ],
    )
    text = plan("Cortar 30% do gás das caldeiras deixa o escopo 1 em 6.994,4 t CO2e.")
    slow = configure([call, text])
    events = list(AekoInventoryAnalyzer().stream(INVENTORY, id_external_inventory=1))
    called = [e for e in events if isinstance(e, ToolCalled) and e.tool == "calcular"]
    returned = [e for e in events if isinstance(e, ToolReturned) and e.agent == COORDINATOR]
    assert called and called[0].agent == COORDINATOR  # on the trail
    assert "6994.35" in returned[0].output
    assert events[-1].result.unverified_numbers == []
    assert len(slow.calls_for(COORDINATOR)) == 2  # the tool round-trip, no rewrite


def test_without_the_calculator_the_same_two_step_figure_is_listed():
    configure([plan("Cortar 30% do gás das caldeiras deixa o escopo 1 em 6.994,4 t CO2e.")])
    result = AekoInventoryAnalyzer().analyze(INVENTORY, id_external_inventory=1)
    assert result.unverified_numbers == ["6.994,4"]


@pytest.mark.parametrize(
    ("expression", "value"),
    [
        ("(8120.5 + 1310) / 12400 * 100", (8120.5 + 1310) / 12400 * 100),
        ("round(2969.5 / 12400 * 100, 1)", 23.9),
        ("sum(8120.5, 1310, 2969.5)", 12400.0),
        ("2 ** 10 - -3", 1027.0),
        ("12400 × 0,58".replace(",", "."), 7192.0),
    ],
)
def test_the_calculator_computes(expression, value):
    assert evaluate(expression) == pytest.approx(value)


@pytest.mark.parametrize(
    "expression",
    ["8.120,5 + 1.310", "__import__('os').system('true')", "10 ** 400", "1 / 0", "x + 1", ""],
)
def test_the_calculator_refuses_what_it_cannot_compute_safely(expression):
    with pytest.raises(ExpressionError):
        evaluate(expression)
