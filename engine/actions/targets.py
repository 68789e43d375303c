"""Reduction targets and the schedule that puts a plan's actions on the target's path.

A target is an absolute cut on the inventory's total (Scope 1 + location-based Scope 2 +
Scope 3 as reported), reached along a straight line from the base year to the target year.
The schedule puts each action in place in the first year that line needs it, never before
its lead time allows, cheapest per tonne first: every deadline points at a path year.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

import pandas as pd

from engine.actions.model import Action, PathPoint, Target
from engine.inventory import Inventory
from engine.inventory import fields as F

SBTI_RATE = 4.2  # % of base-year emissions a year: SBTi's minimum absolute rate for 1.5 °C
# Float sums of tonnes are not exact: a gap smaller than this is no gap.
_TOLERANCE_T = 1e-6


class Schedule(NamedTuple):
    actions: list[Action]  # deadline and needed_year set; in the order they were considered
    path: list[PathPoint]
    meets_target: bool
    shortfall_tco2e: float  # in the target year, with the mid reductions; 0 when met


def sbti_target(
    base_year: int, base_tco2e: float, target_year: int, rate: float = SBTI_RATE
) -> Target:
    """An absolute target cutting ``rate`` % of the base year's emissions each year."""
    if target_year <= base_year:
        raise ValueError(f"the target year ({target_year}) must follow the base year ({base_year})")
    # Rounded: 4.2 × 6 is 25.200000000000003 in binary, and the percent is shown.
    percent = round(rate * (target_year - base_year), 9)
    if percent > 100:
        raise ValueError(
            f"{rate}% a year for {target_year - base_year} years is more than 100% of the base"
        )
    return Target(base_year=base_year, base_tco2e=base_tco2e, percent=percent, year=target_year)


def allowed_tco2e(target: Target, year: int) -> float:
    """What ``year`` may emit on the straight line from the base year to the target year.

    Before the base year nothing is cut yet; after the target year the target holds.
    """
    span = target.year - target.base_year
    done = 1.0 if span <= 0 else min(max((year - target.base_year) / span, 0.0), 1.0)
    return target.base_tco2e * (1 - target.percent / 100 * done)


def linear_path(target: Target, years: Iterable[int]) -> dict[int, float]:
    """Allowed t CO2e per year, falling linearly from the base year to the target year."""
    return {year: allowed_tco2e(target, year) for year in years}


def history(inventory: Inventory, previous: Sequence[Inventory] = ()) -> dict[int, float]:
    """t CO2e each year reported, as the inventory counts them (memo items apart).

    Rows with no year belong to every year, as in ``Inventory.current``, so the latest
    year's figure is the inventory's headline total. ``previous`` inventories add their own
    headline years; the inventory's own years win where both report one.
    """
    found: dict[int, float] = {}
    for earlier in previous:
        year = _year(earlier.year)
        if year is not None:
            found[year] = earlier.total_tco2e
    table = inventory.table
    if F.YEAR not in table or not inventory.years:
        return found
    years = table[F.YEAR]
    undated = years.isna()
    as_text = years.map(lambda value: None if pd.isna(value) else str(value))
    for text in inventory.years:
        year = _year(text)
        if year is None:
            continue
        rows = table[undated | (as_text == text)]
        found[year] = float(rows[F.EMISSIONS_TCO2E].sum())
    return found


def inventory_year(inventory: Inventory) -> int | None:
    return _year(inventory.year)


def _year(text: object) -> int | None:
    try:
        year = int(float(str(text)))
    except (TypeError, ValueError):
        return None
    return year if 1900 <= year <= 2200 else None


def cost_order(actions: Iterable[Action]) -> list[Action]:
    """Cheapest per tonne first (a saving is cheapest of all); unknown cost last; then the
    larger cut first, so the fewest actions close a gap."""
    return sorted(
        actions,
        key=lambda a: (
            a.cost_per_t_brl is None,
            a.cost_per_t_brl or 0.0,
            -a.reduction_mid_tco2e,
            a.id,
        ),
    )


def counts_on_total(action: Action) -> bool:
    """Whether the action lowers the inventory total a target is measured on. A market-based
    instrument changes market-based Scope 2 only; the total carries location-based Scope 2."""
    return action.scope2_method != "market"


def schedule(
    actions: Sequence[Action],
    target: Target,
    inventory: Inventory,
    start_year: int | None = None,
    *,
    previous: Sequence[Inventory] = (),
) -> Schedule:
    """Deadlines for ``actions`` and the expected path to ``target``.

    Expected emissions each year are the latest inventory total minus the reductions in
    place by then. In cost order (``cost_order``), each action's deadline is the first year,
    no earlier than ``start_year + lead_time_years``, that the actions before it leave above
    the path; ``needed_year`` is the first year of that stretch above the path, earlier than
    the deadline when the lead time is what holds the action back. An action no such year
    needs, one that cannot be in place by the target year, or a market-based instrument
    (see ``counts_on_total``) gets no deadline and is not counted on the path.
    """
    baseline = inventory.total_tco2e
    latest_year = inventory_year(inventory)
    if target.year <= target.base_year:
        raise ValueError(f"the target year ({target.year}) must follow its base year")
    if latest_year is not None and target.year <= latest_year:
        raise ValueError(
            f"the target year ({target.year}) must come after the inventory's ({latest_year})"
        )
    if start_year is None:
        start_year = default_start_year(target, latest_year)
    allowed = linear_path(target, range(start_year, target.year + 1))

    placed: list[Action] = []  # with a deadline: counted on the path from then on
    others: list[Action] = []

    def above(year: int) -> bool:
        return _expected(baseline, placed, year) - allowed[year] > _TOLERANCE_T

    for candidate in cost_order(actions):
        action = candidate.model_copy(update={"deadline": None, "needed_year": None})
        if not counts_on_total(action):
            others.append(action)
            continue
        ready = start_year + action.lead_time_years
        deadline = next((y for y in allowed if y >= ready and above(y)), None)
        if deadline is not None:
            # The basis: the first year of the run of years above the path that the deadline
            # ends; earlier than the deadline when the lead time kept it from those years.
            needed = deadline
            while needed - 1 in allowed and above(needed - 1):
                needed -= 1
        elif ready > target.year:  # too late for the target: say when it was needed
            needed = next((y for y in allowed if above(y)), None)
        else:
            needed = None  # the actions before it keep every year it could help on the path
        action = action.model_copy(update={"deadline": deadline, "needed_year": needed})
        (placed if deadline is not None else others).append(action)

    path = _path(target, baseline, latest_year, history(inventory, previous), placed)
    final = path[-1]
    shortfall = max(final.expected_tco2e - final.allowed_tco2e, 0.0)
    meets = shortfall <= _TOLERANCE_T
    return Schedule(placed + others, path, meets, 0.0 if meets else shortfall)


def default_start_year(target: Target, latest_year: int | None) -> int:
    """Work starts the year after the inventory (or after the base year, if later)."""
    return max(latest_year if latest_year is not None else target.base_year, target.base_year) + 1


def _path(
    target: Target,
    baseline: float,
    latest_year: int | None,
    reported: dict[int, float],
    placed: Sequence[Action],
) -> list[PathPoint]:
    first = target.base_year if latest_year is None else min(target.base_year, latest_year)
    points = []
    for year in range(first, target.year + 1):
        actual = reported.get(year)
        allowed = allowed_tco2e(target, year)
        if latest_year is not None and year < latest_year:
            # The past: what was reported, nothing to expect. A year with no report is left
            # out, except the base year, whose emissions the target states.
            if actual is None and year != target.base_year:
                continue
            past = actual if actual is not None else target.base_tco2e
            points.append(PathPoint(year=year, allowed_tco2e=allowed, expected_tco2e=past,
                                    expected_low_tco2e=past, actual_tco2e=actual))  # fmt: skip
            continue
        mid = _expected(baseline, placed, year)
        low = _expected(baseline, placed, year, low=True)
        points.append(PathPoint(year=year, allowed_tco2e=allowed, expected_tco2e=mid,
                                expected_low_tco2e=low, actual_tco2e=actual))  # fmt: skip
    return points


def _expected(baseline: float, placed: Iterable[Action], year: int, low: bool = False) -> float:
    """The latest total minus the cuts in place by ``year`` (mid, or low)."""
    cut = sum(
        a.reduction_low_tco2e if low else a.reduction_mid_tco2e
        for a in placed
        if a.deadline is not None and a.deadline <= year
    )
    return max(baseline - cut, 0.0)  # overlapping cuts cannot take a year below zero
