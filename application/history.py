"""History use cases: the user's conversations and plans, listed, searched, renamed, deleted;
plans with their computed actions' totals, and two plans compared.

Search is accent- and case-insensitive (``fold``), over a conversation's name and turns and
over a plan's three sections.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from application.workspace import Workspace
from engine import AekoImprovementPlan, AekoSession
from engine.actions.model import PlanActions
from engine.actions.targets import counts_on_total
from engine.protocol import fold
from store.repositories import SessionSummary

HISTORY_LIMIT = 200
T = TypeVar("T")


def recent_conversations(workspace: Workspace, limit: int = 30) -> list[SessionSummary]:
    return workspace.store.sessions(workspace.user.id).list(limit=limit)


def find_conversations(
    workspace: Workspace, query: str = "", limit: int = HISTORY_LIMIT
) -> list[AekoSession]:
    found = workspace.store.sessions(workspace.user.id).list_full(limit=limit)
    return _matching(found, query, _conversation_text)


def find_plans(
    workspace: Workspace, query: str = "", limit: int = HISTORY_LIMIT
) -> list[AekoImprovementPlan]:
    found = workspace.store.plans(workspace.user.id).list(limit=limit)
    return _matching(found, query, _plan_text)


@dataclass(frozen=True)
class PlanTotals:
    """What a plan's actions add up to. Reductions per year, low–high: ``low``/``high`` cut
    the inventory total; ``market_*`` cut market-based Scope 2 only (apart from the total).
    ``cost_per_t_brl`` is the mean R$/t CO2e of the actions with a known cost, weighted by
    their mid reductions (None when no action has one); ``unknown_cost`` actions are left
    out of it, never priced at zero."""

    actions: int
    low_tco2e: float
    high_tco2e: float
    market_low_tco2e: float
    market_high_tco2e: float
    cost_per_t_brl: float | None
    known_cost: int
    unknown_cost: int
    meets_target: bool | None

    @property
    def mid_tco2e(self) -> float:
        return (self.low_tco2e + self.high_tco2e) / 2


@dataclass(frozen=True)
class PlanEntry:
    """A saved plan with its computed actions and their totals (None: saved without)."""

    plan: AekoImprovementPlan
    actions: PlanActions | None = None
    totals: PlanTotals | None = None


@dataclass(frozen=True)
class PlanComparison:
    """Plan B against plan A: B's totals minus A's (positive: B cuts or costs more)."""

    first: PlanEntry
    second: PlanEntry
    low_tco2e: float  # difference of the low totals
    high_tco2e: float
    mid_tco2e: float
    cost_per_t_brl: float | None  # None unless both plans have a weighted cost


def plan_totals(actions: PlanActions) -> PlanTotals:
    on_total = [a for a in actions.actions if counts_on_total(a)]
    market = [a for a in actions.actions if not counts_on_total(a)]
    priced = [a for a in actions.actions if a.cost_per_t_brl is not None]
    weight = sum(a.reduction_mid_tco2e for a in priced)
    cost = (
        sum(a.cost_per_t_brl * a.reduction_mid_tco2e for a in priced) / weight  # type: ignore[operator]
        if weight > 0
        else None
    )
    return PlanTotals(
        actions=len(actions.actions),
        low_tco2e=sum(a.reduction_low_tco2e for a in on_total),
        high_tco2e=sum(a.reduction_high_tco2e for a in on_total),
        market_low_tco2e=sum(a.reduction_low_tco2e for a in market),
        market_high_tco2e=sum(a.reduction_high_tco2e for a in market),
        cost_per_t_brl=cost,
        known_cost=len(priced),
        unknown_cost=len(actions.actions) - len(priced),
        meets_target=actions.meets_target if actions.target is not None else None,
    )


def plans_with_actions(
    workspace: Workspace, query: str = "", limit: int = HISTORY_LIMIT
) -> list[PlanEntry]:
    """The plans ``find_plans`` returns, each with its actions: one query for all of them."""
    plans = find_plans(workspace, query, limit)
    ids = [plan.id for plan in plans if plan.id]
    found = workspace.store.plan_actions(workspace.user.id).for_plans(ids) if ids else {}
    entries = []
    for plan in plans:
        actions = found.get(plan.id) if plan.id else None
        totals = plan_totals(actions) if actions is not None else None
        entries.append(PlanEntry(plan, actions, totals))
    return entries


def compare_plans(first: PlanEntry, second: PlanEntry) -> PlanComparison | None:
    """``second`` against ``first``; None unless both have computed actions."""
    a, b = first.totals, second.totals
    if a is None or b is None:
        return None
    cost = (
        b.cost_per_t_brl - a.cost_per_t_brl
        if a.cost_per_t_brl is not None and b.cost_per_t_brl is not None
        else None
    )
    return PlanComparison(
        first,
        second,
        low_tco2e=b.low_tco2e - a.low_tco2e,
        high_tco2e=b.high_tco2e - a.high_tco2e,
        mid_tco2e=b.mid_tco2e - a.mid_tco2e,
        cost_per_t_brl=cost,
    )


def _matching(found: list[T], query: str, text_of: Callable[[T], str]) -> list[T]:
    wanted = fold(query)
    return [item for item in found if wanted in text_of(item)] if wanted else found


def rename_conversation(workspace: Workspace, session_id: str, name: str) -> bool:
    name = " ".join(name.split())[:80]
    return bool(name) and workspace.store.sessions(workspace.user.id).rename(session_id, name)


def delete_conversation(workspace: Workspace, session_id: str) -> bool:
    return workspace.store.sessions(workspace.user.id).delete(session_id)


def delete_plan(workspace: Workspace, plan_id: str) -> bool:
    return workspace.store.plans(workspace.user.id).delete(plan_id)


def _conversation_text(session: AekoSession) -> str:
    turns = (f"{turn.input} {turn.output}" for turn in session.messages)
    return fold(" ".join([session.name, *turns]))


def _plan_text(plan: AekoImprovementPlan) -> str:
    return fold(" ".join([plan.defined_problem, plan.method, plan.reasoning]))
