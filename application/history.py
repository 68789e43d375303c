"""History use cases: the user's conversations and plans, listed, searched, renamed, deleted;
plans with their computed actions' totals, and two plans compared.

Search is accent- and case-insensitive (as ``fold``), over a conversation's name and turns and
over a plan's three sections; it runs in the database (``store.text_search``), and the lists
come a page at a time, so a long history opens and answers a keystroke as fast as a short one.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from contextlib import suppress
from dataclasses import asdict, dataclass
from typing import Any, Generic, TypeVar

from application.workspace import Workspace
from engine import AekoImprovementPlan, AekoSession
from engine.actions.model import PlanActions
from engine.actions.targets import counts_on_total
from store import StoreError
from store.repositories import SessionSummary

HISTORY_LIMIT = 200
PAGE_SIZE = 20
T = TypeVar("T")


@dataclass(frozen=True)
class Page(Generic[T]):
    """One page of a list, newest first; ``number`` counts from 0."""

    items: list[T]
    number: int
    has_more: bool  # an older page follows


def recent_conversations(workspace: Workspace, limit: int = 30) -> list[SessionSummary]:
    return workspace.store.sessions(workspace.user.id).list(limit=limit)


def find_conversations(
    workspace: Workspace, query: str = "", limit: int = HISTORY_LIMIT, skip: int = 0
) -> list[AekoSession]:
    sessions = workspace.store.sessions(workspace.user.id)
    return sessions.search(query, skip=skip, limit=limit)


def find_plans(
    workspace: Workspace, query: str = "", limit: int = HISTORY_LIMIT, skip: int = 0
) -> list[AekoImprovementPlan]:
    return workspace.store.plans(workspace.user.id).search(query, skip=skip, limit=limit)


def conversations_page(
    workspace: Workspace, query: str = "", number: int = 0, size: int = PAGE_SIZE
) -> Page[AekoSession]:
    """Page ``number`` of the conversations matching ``query``: one query."""
    found = find_conversations(workspace, query, limit=size + 1, skip=number * size)
    return Page(found[:size], number, len(found) > size)


def plans_page(
    workspace: Workspace, query: str = "", number: int = 0, size: int = PAGE_SIZE
) -> Page[PlanEntry]:
    """Page ``number`` of the plans matching ``query``, each with its totals, kept beside the
    plan: one query. The entries' ``actions`` are left out (None) — ``with_actions`` reads
    them for the entries that need them (an open plan, a comparison). A plan is saved with
    its totals (``stored_totals``); one saved by an older version, without them, has its
    actions read once, and its totals kept for next time."""
    plans = workspace.store.plans(workspace.user.id)
    found = plans.search_with_totals(query, skip=number * size, limit=size + 1)
    kept = {plan.id: _totals_from(totals) for plan, totals in found[:size] if totals}
    unknown = [plan for plan, _ in found[:size] if kept.get(plan.id) is None]
    computed = {entry.plan.id: entry for entry in _with_actions(workspace, unknown)}
    entries = [
        PlanEntry(plan, None, kept.get(plan.id) or computed[plan.id].totals)
        for plan, _ in found[:size]
    ]
    new = {e.plan.id: asdict(e.totals) for e in computed.values() if e.plan.id and e.totals}
    with suppress(StoreError):  # only a shortcut: the next page computes them again
        plans.keep_totals(new)
    return Page(entries, number, len(found) > size)


def with_actions(workspace: Workspace, entries: list[PlanEntry]) -> list[PlanEntry]:
    """``entries`` with their computed actions (kept per process; one query for the rest)."""
    return _with_actions(workspace, [entry.plan for entry in entries])


def stored_totals(actions: PlanActions) -> dict[str, Any]:
    """``plan_totals`` as the plan document keeps them (``Write.plan``'s ``totals``): computed
    when the plan is saved, so History's first listing reads them instead of the plan's
    actions (any read of ``plan_actions`` is slow on the embedded server)."""
    return asdict(plan_totals(actions))


def _totals_from(kept: dict) -> PlanTotals | None:
    try:
        return PlanTotals(**kept)
    except TypeError:  # kept by another version: shown without totals until recomputed
        return None


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
    return _with_actions(workspace, find_plans(workspace, query, limit))


# A plan's computed actions never change once saved (``plan_actions`` stores them once per
# run; scenarios live apart), and reading them is the slow part of a History rerun on the
# embedded server (about 0.5 s per query over 200 stored plans, whatever the filter): so
# they are kept per process, by plan id, and only the plans not seen yet are read.
_ACTIONS_KEPT = 100  # five pages
_actions: OrderedDict[tuple[str, str], PlanActions] = OrderedDict()
_actions_lock = threading.Lock()
# A plan found without actions is asked again after a while: its actions may still come
# (they are saved after the plan, through the outbox when the database was away).
_NO_ACTIONS_S = 60.0
_no_actions: OrderedDict[tuple[str, str], float] = OrderedDict()


def _with_actions(workspace: Workspace, plans: list[AekoImprovementPlan]) -> list[PlanEntry]:
    user = str(workspace.user.id)
    known: dict[str, PlanActions] = {}
    recently = time.monotonic() - _NO_ACTIONS_S
    with _actions_lock:
        for plan in plans:
            if plan.id and (user, plan.id) in _actions:
                _actions.move_to_end((user, plan.id))
                known[plan.id] = _actions[(user, plan.id)]
        without = {p.id for p in plans if _no_actions.get((user, str(p.id)), 0.0) > recently}
    missing = [p.id for p in plans if p.id and p.id not in known and p.id not in without]
    found = workspace.store.plan_actions(workspace.user.id).for_plans(missing) if missing else {}
    with _actions_lock:
        for plan_id, actions in found.items():
            _actions[(user, plan_id)] = actions
        for plan_id in set(missing) - set(found):
            _no_actions[(user, plan_id)] = time.monotonic()
        while len(_actions) > _ACTIONS_KEPT:
            _actions.popitem(last=False)
        while len(_no_actions) > 10 * _ACTIONS_KEPT:
            _no_actions.popitem(last=False)
    known.update(found)
    entries = []
    for plan in plans:
        actions = known.get(plan.id) if plan.id else None
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


def rename_conversation(workspace: Workspace, session_id: str, name: str) -> bool:
    name = " ".join(name.split())[:80]
    return bool(name) and workspace.store.sessions(workspace.user.id).rename(session_id, name)


def delete_conversation(workspace: Workspace, session_id: str) -> bool:
    return workspace.store.sessions(workspace.user.id).delete(session_id)


def delete_plan(workspace: Workspace, plan_id: str) -> bool:
    return workspace.store.plans(workspace.user.id).delete(plan_id)
