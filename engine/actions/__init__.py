"""A plan's actions, computed: which measures act on which inventory rows, what each cuts,
when each is needed to keep to a target, and each installation's SBCE standing.

The texts (``engine.actions.render``) are imported on their own: they pull Babel, and only a
plan needs them.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Mapping
from typing import TYPE_CHECKING

from engine.actions.model import (
    Action,
    Installation,
    PathPoint,
    PlanActions,
    RowRef,
    Target,
)
from engine.actions.sbce import readiness
from engine.actions.targets import (
    Schedule,
    covered_tco2e,
    default_start_year,
    history,
    inventory_target,
    inventory_year,
    linear_path,
    sbti_target,
    schedule,
    target_tco2e,
)
from engine.inventory import Inventory

if TYPE_CHECKING:
    from engine.measures.catalogue import Catalogue, Costs


def build_plan_actions(
    inventory: Inventory,
    *,
    target: Target | None = None,
    catalogue: Catalogue | None = None,
    costs: Mapping[str, Costs] | None = None,
    start_year: int | None = None,
) -> PlanActions:
    """The planner's actions for ``inventory``, scheduled against ``target`` when one is
    given, with each installation's SBCE standing."""
    if target is None and catalogue is None and costs is None and start_year is None:
        return _DEFAULT_PLANS.get(inventory)
    return _build(inventory, target=target, catalogue=catalogue, costs=costs,
                  start_year=start_year)  # fmt: skip


def _build(
    inventory: Inventory,
    *,
    target: Target | None,
    catalogue: Catalogue | None,
    costs: Mapping[str, Costs] | None,
    start_year: int | None,
) -> PlanActions:
    # Imported here: the planner is its own module, and loading this package must not
    # need it (the model and the texts are read without it).
    from engine.actions.planner import propose

    chosen, alternatives = propose(inventory, catalogue=catalogue, costs=costs)
    year = inventory_year(inventory)
    plan = PlanActions(
        actions=list(chosen),
        alternatives=list(alternatives),
        installations=readiness(inventory),
        gwp_set=str(inventory.gwp_set),
        inventory_tco2e=inventory.total_tco2e,
        inventory_year=year,
    )
    if target is None:
        return plan
    start = start_year if start_year is not None else default_start_year(target, year)
    scheduled = schedule(chosen, target, inventory, start)
    return plan.model_copy(
        update={
            "actions": scheduled.actions,
            "target": target,
            "path": scheduled.path,
            "meets_target": scheduled.meets_target,
            "shortfall_tco2e": scheduled.shortfall_tco2e,
            "start_year": start,
            "target_baseline_tco2e": target_tco2e(inventory, target),
        }
    )


__all__ = [
    "Action",
    "Installation",
    "PathPoint",
    "PlanActions",
    "RowRef",
    "Schedule",
    "Target",
    "build_plan_actions",
    "covered_tco2e",
    "history",
    "inventory_target",
    "linear_path",
    "readiness",
    "sbti_target",
    "schedule",
    "target_tco2e",
]


class _DefaultPlans:
    """The default actions of the last few inventories, by identity: one chat question about
    a plan asks for them twice (the tool, then the offline analyst), and each costs the
    planner's whole pass over the table. An ``Inventory`` does not change once loaded; a
    copy is handed out, so a caller's changes stay its own."""

    _KEPT = 8

    def __init__(self) -> None:
        self._plans: OrderedDict[int, tuple[weakref.ref[Inventory], PlanActions]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, inventory: Inventory) -> PlanActions:
        key = id(inventory)
        with self._lock:
            kept = self._plans.get(key)
            if kept is not None and kept[0]() is inventory:
                self._plans.move_to_end(key)
                return kept[1].model_copy(deep=True)
        plan = _build(inventory, target=None, catalogue=None, costs=None, start_year=None)
        with self._lock:
            self._plans[key] = (weakref.ref(inventory), plan)
            while len(self._plans) > self._KEPT:
                self._plans.popitem(last=False)
        return plan.model_copy(deep=True)


_DEFAULT_PLANS = _DefaultPlans()
