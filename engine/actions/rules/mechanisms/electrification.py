"""electrification: the rows' t CO2e × share − the location-based emissions of the new MWh
(energy × 277.78 MWh/TJ × efficiency ratio × the SIN factor of the inventory's year), never
below 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import pandas as pd

from engine.actions.rules.cut import Cut, share_range
from engine.actions.rules.errors import RuleError
from engine.actions.rules.fuels import fuel_sources
from engine.actions.rules.rows import library_of, year_of
from engine.actions.rules.text import in_both, of, short_names, span, tonnes, tonnes_range
from engine.actions.rules.texts import RULE_TEXTS, as_dict
from engine.emissions import EmissionsError, estimate, parse_period
from engine.emissions.units import conversion_factor
from engine.formatting import number
from engine.inventory import Inventory
from engine.measures.catalogue import Alternative
from engine.texts import Both

MWH_PER_TJ = 1_000_000 / 3_600  # 277.78: 1 TJ = 10^6 MJ, 1 MWh = 3,600 MJ
_GRID_KEY = "electricity@grid"


def efficiency_ratio(substitute: str) -> float:
    """An electrification's substitute: the ratio of the electricity's energy to the fuel's
    it replaces, written with either decimal mark."""
    return float(substitute.replace(",", "."))


@dataclass(frozen=True)
class GridFactor:
    t_per_mwh: float
    text: Both  # the factor and where it comes from


def grid_factor(inventory: Inventory) -> GridFactor:
    """The SIN average factor (location-based) of the inventory's year: the annual factor,
    else the days-weighted mean of the monthly ones, else the latest annual factor."""
    library = library_of(inventory)
    year = year_of(inventory)
    try:
        found = estimate("energia elétrica", 1, "MWh", date_or_year=year, factors=library)
        source = found.factors[0].source if found.factors else ""
        return GridFactor(
            found.tco2e,
            RULE_TEXTS.both("grid.annual", year=year, source=source),
        )
    except EmissionsError:
        pass
    period = parse_period(year)
    pieces = library.pieces(_GRID_KEY, "CO2", period)
    if pieces:
        days = sum(d for _, d in pieces)
        value = sum(f.value * conversion_factor(f.unit, "t/MWh") * d for f, d in pieces) / days
        return GridFactor(
            value,
            RULE_TEXTS.both("grid.monthly", year=year),
        )
    annual = [
        f
        for f in library.candidates(_GRID_KEY, "CO2")
        if f.valid_from and f.valid_to and (f.valid_to - f.valid_from).days >= 364
    ]
    if not annual:
        raise RuleError(RULE_TEXTS.both("no_grid_factor"))
    latest = max(annual, key=lambda f: f.valid_from or date.min)
    assert latest.valid_from is not None
    return GridFactor(
        latest.value * conversion_factor(latest.unit, "t/MWh"),
        RULE_TEXTS.both("grid.latest", year=latest.valid_from.year, source=latest.source),
    )


def electrification(
    measure: Alternative, inventory: Inventory, rows: pd.DataFrame, *, share: float | None = None
) -> Cut | None:
    ratio = efficiency_ratio(measure.substitute)
    # The new MWh need the energy burnt, which needs the fuel's factor per TJ.
    sources = [s for s in fuel_sources(inventory, rows) if s.known and s.energy_tj > 0]
    if not sources:
        return None
    low_share, high_share = share_range(measure, share)
    baseline = sum(s.tco2e for s in sources)
    energy = sum(s.energy_tj for s in sources)
    grid = grid_factor(inventory)
    mwh = energy * MWH_PER_TJ * ratio
    added_low, added_high = (mwh * s * grid.t_per_mwh for s in (low_share, high_share))
    gross_low, gross_high = baseline * low_share, baseline * high_share
    low, high = gross_low - added_low, gross_high - added_high
    clipped = low < 0 or high < 0
    # A clipped action counts as no cut: a what-if shows Scope 2 rising by no more than
    # Scope 1 falls, so it nets to the 0 the action states (the basis gives both figures).
    grid_low, grid_high = min(added_low, gross_low), min(added_high, gross_high)
    chosen = pd.concat([s.rows for s in sources])
    fuel = short_names(measure.source)
    basis = RULE_TEXTS.both(
        "electrification.basis",
        baseline=in_both(tonnes, baseline),
        share=in_both(span, (low_share, high_share)),
        energy=in_both(tonnes, energy),
        mwh_per_tj=in_both(number, MWH_PER_TJ, 2),
        ratio=in_both(number, ratio, 2),
        mwh=in_both(tonnes_range, mwh * low_share, mwh * high_share),
        grid=in_both(number, grid.t_per_mwh, 4),
        grid_text=grid.text,
        net=in_both(tonnes_range, max(low, 0), max(high, 0)),
        gross=in_both(tonnes_range, gross_low, gross_high),
        added=in_both(tonnes_range, added_low, added_high),
    )
    if clipped:
        basis += RULE_TEXTS.both("electrification.clipped")
    kpi = RULE_TEXTS.both("electrification.kpi", fuel=of(fuel))
    return Cut(
        share=(low_share, high_share),
        rows=chosen,
        baseline=baseline,
        low=low,
        high=high,
        basis=as_dict(basis),
        kpi=as_dict(kpi),
        grid_low=grid_low,
        grid_high=grid_high,
    )
