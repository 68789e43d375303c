"""The grounding check on drafts as a capable model writes them (issue #22, point 4): correct
arithmetic over the inventory must pass, invented figures must be caught, in the chat and in
the improvement plan, PT and EN.

The corpus and the hand-worked figures are in tests/grounding_drafts.py. Each flow is measured
twice: against ``engine.grounding.unbacked`` with the texts the run reads (the digest, the
question or report context, a calculator result), and end to end through the public API with
scripted models. A correct draft is lost when anything of it is left unverified (or the answer
is empty); an invented figure is caught when it is listed as unverified. The counts are printed
(``-s``) and recorded in docs/quality.md.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest
from langchain_core.messages import AIMessage

from engine import Aeko, AekoInventoryAnalyzer, AekoMessenger, AekoSession
from engine.agents.catalog import (
    COORDINATOR,
    GREEN_GASES_ANALYST,
    GUARDRAIL,
    INVENTORY_ANALYST,
    ORCHESTRATOR,
    POLLUTANTS_ANALYST,
    ROUTER,
)
from engine.arithmetic import calculate
from engine.grounding import Backing, unbacked
from engine.inventory import load_markdown_inventory
from engine.models.scripted import ScriptedChatModel
from tests import grounding_drafts as gd

MAX_LOST = 1  # correct drafts the check may throw away, per flow
MIN_CAUGHT = 18  # invented figures it must catch, per flow
TO_ANALYST = "Dados do inventário.\nNext agent: Analista de Poluentes"


@pytest.fixture(scope="module")
def inventory():
    return load_markdown_inventory(gd.MARKDOWN)


def test_the_engine_reads_the_small_inventory_as_the_rows_were_written(inventory):
    assert inventory.total_tco2e == pytest.approx(12_400.0)
    assert gd.TOTAL == 12_400.0 and gd.SCOPE_1 == 10_970.0 and gd.SCOPE_2 == 1_430.0
    assert gd.CAMPINAS_S1 == 9_430.5 and gd.RECIFE_S1 == 1_539.5 and gd.BOILERS == 9_572.5
    by_scope = inventory.totals_by("scope")
    assert {str(s): t for s, t in zip(by_scope["scope"], by_scope["tco2e"], strict=True)} == (
        pytest.approx({"1": gd.SCOPE_1, "2": gd.SCOPE_2})
    )


def test_the_corpus_is_as_large_and_as_bilingual_as_the_issue_asks():
    for correct, invented in (
        (gd.CHAT_CORRECT, gd.CHAT_INVENTED),
        (gd.PLAN_CORRECT, gd.PLAN_INVENTED),
    ):
        assert len(correct) >= 20 and len(invented) >= 20
        assert {c.lang for c in correct} == {c.lang for c in invented} == {"pt", "en"}
        assert all(c.invented is None for c in correct)
        for case in invented:
            text = case.draft if isinstance(case, gd.ChatDraft) else case.problem
            assert case.invented and case.invented in text, case


# --- counting ----------------------------------------------------------------------------


Case = gd.ChatDraft | gd.PlanDraft


def _score(
    correct: Sequence[Case],
    invented: Sequence[Case],
    unverified_of: Callable[[Case], list[str] | None],
) -> tuple[list[str], list[str]]:
    """The lost correct drafts and the missed invented ones, each with what the check said.
    ``unverified_of`` returns None for an answer thrown away (nothing shown)."""
    lost, missed = [], []
    for case in correct:
        flagged = unverified_of(case)
        if flagged is None or flagged:
            lost.append(f"{case.lang} {case.why}: flagged {flagged}")
    for case in invented:
        flagged = unverified_of(case)
        if flagged is not None and case.invented not in flagged:
            missed.append(f"{case.lang} {case.why}: {case.invented!r} passed, flagged {flagged}")
    return lost, missed


def _assert_counts(
    flow: str,
    correct: Sequence[Case],
    invented: Sequence[Case],
    lost: list[str],
    missed: list[str],
) -> None:
    caught = len(invented) - len(missed)
    report = (
        f"{flow}: {len(lost)}/{len(correct)} correct drafts lost (false rejections), "
        f"{len(missed)}/{len(invented)} invented figures passed (false acceptances), "
        f"{caught} caught"
    )
    lines = [report, *(f"  lost: {x}" for x in lost), *(f"  missed: {x}" for x in missed)]
    print("\n" + "\n".join(lines))
    assert len(lost) <= MAX_LOST and caught >= MIN_CAUGHT, "\n".join(lines)


# --- the check itself, on the texts the run reads ----------------------------------------


def _calculator(expression: str | None) -> list[Backing]:
    return [Backing(calculate.invoke({"expressao": expression}))] if expression else []


def test_chat_drafts_against_the_check(inventory):
    digest = inventory.digest()

    def flagged(case: gd.ChatDraft) -> list[str]:
        read = [Backing(case.question), *_calculator(case.calculation), Backing(digest)]
        return unbacked(case.draft, read)

    lost, missed = _score(gd.CHAT_CORRECT, gd.CHAT_INVENTED, flagged)
    _assert_counts("chat, unbacked()", gd.CHAT_CORRECT, gd.CHAT_INVENTED, lost, missed)


def test_plan_drafts_against_the_check(inventory):
    from engine.actions import build_plan_actions
    from engine.actions.brief import actions_brief

    # What a plan's coordinator reads (engine.graph.context.plan_backing): the computed
    # actions, the digest, the inventory as sent (this small one goes as its Markdown), the
    # report context.
    digest = inventory.digest()
    actions = actions_brief(build_plan_actions(inventory))

    def flagged(case: gd.PlanDraft) -> list[str]:
        read = [
            *_calculator(case.calculation),
            Backing(actions),
            Backing(digest),
            Backing(gd.MARKDOWN),
            Backing(case.context),
        ]
        return unbacked(case.problem, read)

    lost, missed = _score(gd.PLAN_CORRECT, gd.PLAN_INVENTED, flagged)
    _assert_counts("plan, unbacked()", gd.PLAN_CORRECT, gd.PLAN_INVENTED, lost, missed)


# --- end to end, through the public API ----------------------------------------------------


def _calculator_call(expression: str) -> AIMessage:
    return AIMessage(
        content="",
        tool_calls=[{"name": "calcular", "args": {"expressao": expression}, "id": "calc-1"}],
    )


def _chat(user, inventory, case: gd.ChatDraft) -> list[str] | None:
    """The orchestrator writes the same draft at every retry and the guardrail's model
    approves it: whatever is left unverified is the grounding check's alone."""
    analyst: list[object] = ["Dados lidos.\nNext agent: Orquestrador"]
    if case.calculation:
        analyst = [_calculator_call(case.calculation), "Conta feita.\nNext agent: Orquestrador"]
    fast = ScriptedChatModel(
        model_name="fake-fast",
        script={
            ROUTER: [TO_ANALYST],
            ORCHESTRATOR: [f"{case.draft}\nNext agent: Guardrail de Saída"],
            GUARDRAIL: ["Aprovado."],
        },
    )
    slow = ScriptedChatModel(model_name="fake-slow", script={POLLUTANTS_ANALYST: analyst})
    Aeko.config(fast_model=fast, slow_model=slow)
    response = AekoMessenger(user).send_message(case.question, AekoSession(), inventory=inventory)
    if not response.message.output:
        return None
    return list(response.unverified)


def test_chat_answers_end_to_end(user, inventory):
    lost, missed = _score(
        gd.CHAT_CORRECT, gd.CHAT_INVENTED, lambda case: _chat(user, inventory, case)
    )
    _assert_counts("chat, end to end", gd.CHAT_CORRECT, gd.CHAT_INVENTED, lost, missed)


def _plan_text(problem: str) -> str:
    return (
        f"## Problema definido\n{problem}\n\n"
        "## Método\nSubstituir o gás natural das caldeiras por biometano e o diesel da frota "
        "por biodiesel, começando por Campinas.\n\n"
        "## Raciocínio\nAs caldeiras são a maior fonte do inventário; trocar o combustível "
        "ataca o escopo 1 onde ele se concentra.\nNext agent: Nenhum"
    )


def _plan(inventory, case: gd.PlanDraft) -> list[str]:
    """The coordinator writes the same plan when asked to rewrite it: whatever stays listed
    is the grounding check's alone."""
    coordinator: list[object] = [_plan_text(case.problem)]
    if case.calculation:
        coordinator = [_calculator_call(case.calculation), *coordinator]
    slow = ScriptedChatModel(
        model_name="fake-slow",
        script={
            INVENTORY_ANALYST: ["Inventário lido.\nNext agent: Analista de Poluentes"],
            POLLUTANTS_ANALYST: ["Caldeiras dominam o escopo 1.\nNext agent: Orquestrador"],
            GREEN_GASES_ANALYST: ["Biometano e biodiesel.\nNext agent: FAQ"],
            COORDINATOR: coordinator,
        },
    )
    Aeko.config(fast_model=ScriptedChatModel(model_name="fake-fast"), slow_model=slow)
    analyzer = AekoInventoryAnalyzer()
    if case.context:
        analyzer.set_context(case.context)
    plan = analyzer.analyze(inventory, id_external_inventory=1)
    assert plan.defined_problem and plan.method and plan.reasoning  # a plan always comes back
    return list(plan.unverified_numbers)


def test_plans_end_to_end(inventory):
    lost, missed = _score(gd.PLAN_CORRECT, gd.PLAN_INVENTED, lambda case: _plan(inventory, case))
    _assert_counts("plan, end to end", gd.PLAN_CORRECT, gd.PLAN_INVENTED, lost, missed)
