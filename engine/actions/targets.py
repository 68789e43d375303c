"""Reduction targets and the schedule that puts a plan's actions on the target's path.

A target is an absolute cut, reached along a straight line from the base year to the target
year, on the figure it covers (``covered_tco2e``): Scopes 1 + 2, as the SBTi's near-term
targets are set (its 4.2%/yr linear rate for 1.5 °C applies to Scopes 1 and 2; Scope 3 is
handled apart, with its own target when it is large). Scope 2 is location-based unless the
user chooses a market-based target; the two methods are never summed. Rows the inventory
gives no scope count in the target (they are in its total, and not known to be Scope 3).
The schedule puts each action in place in the first year that line needs it, never before
its lead time allows, cheapest per tonne first: every deadline points at a path year. An
action counts on the path by what it changes in the covered figure (``target_cut``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

import pandas as pd

from engine.actions.model import Action, PathPoint, Scope2Method, Target
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
    base_year: int,
    base_tco2e: float,
    target_year: int,
    rate: float = SBTI_RATE,
    *,
    scope2_method: Scope2Method = "location",
) -> Target:
    """An absolute target cutting ``rate`` % of the base year's Scopes 1 + 2 each year
    (``base_tco2e``: that figure, Scope 2 by ``scope2_method``); Scope 3 is not in it."""
    if target_year <= base_year:
        raise ValueError(f"the target year ({target_year}) must follow the base year ({base_year})")
    # Rounded: 4.2 × 6 is 25.200000000000003 in binary, and the percent is shown.
    percent = round(rate * (target_year - base_year), 9)
    if percent > 100:
        raise ValueError(
            f"{rate}% a year for {target_year - base_year} years is more than 100% of the base"
        )
    return Target(
        base_year=base_year,
        base_tco2e=base_tco2e,
        percent=percent,
        year=target_year,
        scope2_method=scope2_method,
    )


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


def covered_tco2e(
    rows: pd.DataFrame, scope2_method: Scope2Method = "location", include_scope3: bool = False
) -> float:
    """t CO2e of ``rows`` a target covers: Scope 1, Scope 2 by ``scope2_method`` and the rows
    with no scope, plus Scope 3 when it is included. Memo items (biogenic CO2, Montreal
    gases) add nothing, as in the inventory's total. Market-based Scope 2 is the rows'
    market-based figure; with none reported it is the location-based one (with no
    contractual instruments, the Brazilian GHG Protocol Program's purchase-choice figure is
    the grid average)."""
    if rows.empty:
        return 0.0
    tco2e = pd.to_numeric(rows[F.EMISSIONS_TCO2E], errors="coerce").fillna(0.0)
    scopes = rows[F.SCOPE].astype(str) if F.SCOPE in rows else pd.Series("", index=rows.index)
    scopes = scopes.where(scopes.isin(("1", "2", "3")), "")
    kept = ["1", ""] + (["3"] if include_scope3 else [])
    figure = float(tco2e[scopes.isin(kept)].sum())
    location = float(tco2e[scopes == "2"].sum())
    market_rows = rows[F.REPORTING] == F.SCOPE2_MARKET if F.REPORTING in rows else None
    if scope2_method == "market" and market_rows is not None and market_rows.any():
        memo = pd.to_numeric(rows.loc[market_rows, F.MEMO_TCO2E], errors="coerce")
        return figure + float(memo.fillna(0.0).sum())
    return figure + location


def target_tco2e(inventory: Inventory, target: Target) -> float:
    """The headline year's emissions on ``target``'s coverage."""
    return covered_tco2e(inventory.current, target.scope2_method, target.include_scope3)


def inventory_target(
    inventory: Inventory,
    base_year: int,
    percent: float,
    year: int,
    *,
    scope2_method: Scope2Method = "location",
    include_scope3: bool = False,
) -> Target:
    """A target whose base is the inventory's own figure on its coverage: the base year's
    when the workbook reports it, else the headline year's (and the base year becomes that
    one, so the target says what it was measured on)."""
    covered = history(inventory, scope2_method=scope2_method, include_scope3=include_scope3)
    if base_year in covered:
        base, base_year_used = covered[base_year], base_year
    else:
        headline = inventory_year(inventory)
        base_year_used = headline if headline is not None else base_year
        base = covered_tco2e(inventory.current, scope2_method, include_scope3)
    return Target(
        base_year=base_year_used,
        base_tco2e=base,
        percent=percent,
        year=year,
        scope2_method=scope2_method,
        include_scope3=include_scope3,
    )


def history(
    inventory: Inventory,
    previous: Sequence[Inventory] = (),
    *,
    target: Target | None = None,
    scope2_method: Scope2Method | None = None,
    include_scope3: bool | None = None,
) -> dict[int, float]:
    """t CO2e each year reported, as the inventory counts them (memo items apart): its total,
    or, for a ``target`` (or a coverage given by ``scope2_method``/``include_scope3``), the
    figure that target covers (``covered_tco2e``).

    Rows with no year belong to every year, as in ``Inventory.current``, so the latest
    year's figure is the inventory's headline figure. ``previous`` inventories add their own
    headline years; the inventory's own years win where both report one.
    """
    method = scope2_method or (target.scope2_method if target is not None else None)
    scope3 = (
        include_scope3
        if include_scope3 is not None
        else (target.include_scope3 if target is not None else False)
    )

    def figure(rows: pd.DataFrame) -> float:
        if method is None:
            return float(rows[F.EMISSIONS_TCO2E].sum())
        return covered_tco2e(rows, method, scope3)

    found: dict[int, float] = {}
    for earlier in previous:
        year = _year(earlier.year)
        if year is not None:
            found[year] = figure(earlier.current)
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
        found[year] = figure(table[undated | (as_text == text)])
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
    """Whether the action lowers the inventory total. A market-based instrument changes
    market-based Scope 2 only; the total carries location-based Scope 2."""
    return action.scope2_method != "market"


def target_cut(action: Action, target: Target, *, low: bool = False) -> float | None:
    """What ``action`` takes off the figure ``target`` covers, a year (mid reduction, or the
    low one); None when it changes nothing there:

    - a Scope 3 action, unless the target includes Scope 3;
    - a Scope 2 action of the other method: a market instrument on a location-based target;
      a location-based one (efficiency, solar) on a market-based target, whose market-based
      cut is not computed (conservative, as in the what-if).

    A modal shift of own trucks takes its whole Scope 1 fall off a Scopes 1 + 2 target: the
    carrier's emissions it adds are Scope 3, outside that target. An electrification's new
    MWh stay in Scope 2 by either method, so its net cut counts."""
    if action.scope == 3 and not target.include_scope3:
        return None
    if action.scope == 2:
        method = "market" if action.scope2_method == "market" else "location"
        if method != target.scope2_method:
            return None
    cut = action.reduction_low_tco2e if low else action.reduction_mid_tco2e
    if not target.include_scope3:
        carrier = (
            action.scope3_added_low_tco2e
            if low
            else (action.scope3_added_low_tco2e + action.scope3_added_high_tco2e) / 2
        )
        cut += carrier
    return cut


def counts_on_target(action: Action, target: Target) -> bool:
    return target_cut(action, target) is not None


def schedule(
    actions: Sequence[Action],
    target: Target,
    inventory: Inventory,
    start_year: int | None = None,
    *,
    previous: Sequence[Inventory] = (),
) -> Schedule:
    """Deadlines for ``actions`` and the expected path to ``target``.

    Expected emissions each year are the latest inventory's figure on the target's coverage
    (``target_tco2e``: Scopes 1 + 2 by its Scope 2 method) minus what the actions in place by
    then take off it (``target_cut``). In cost order (``cost_order``), each action's
    deadline is the first year, no earlier than ``start_year + lead_time_years``, that the
    actions before it leave above the path; ``needed_year`` is the first year of that stretch
    above the path, earlier than the deadline when the lead time is what holds the action
    back. An action no such year needs, one that cannot be in place by the target year, or
    one that changes nothing the target covers (Scope 3, the other Scope 2 method) gets no
    deadline and is not counted on the path.
    """
    baseline = target_tco2e(inventory, target)
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
        return _expected(target, baseline, placed, year) - allowed[year] > _TOLERANCE_T

    for candidate in cost_order(actions):
        action = candidate.model_copy(update={"deadline": None, "needed_year": None})
        if not counts_on_target(action, target):
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

    reported = history(inventory, previous, target=target)
    path = _path(target, baseline, latest_year, reported, placed)
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
        mid = _expected(target, baseline, placed, year)
        low = _expected(target, baseline, placed, year, low=True)
        points.append(PathPoint(year=year, allowed_tco2e=allowed, expected_tco2e=mid,
                                expected_low_tco2e=low, actual_tco2e=actual))  # fmt: skip
    return points


def _expected(
    target: Target, baseline: float, placed: Iterable[Action], year: int, low: bool = False
) -> float:
    """The latest covered figure minus the cuts in place by ``year`` (mid, or low)."""
    cut = sum(
        target_cut(a, target, low=low) or 0.0
        for a in placed
        if a.deadline is not None and a.deadline <= year
    )
    return max(baseline - cut, 0.0)  # overlapping cuts cannot take a year below zero
