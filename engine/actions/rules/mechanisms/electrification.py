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
from engine.actions.rules.text import short_names, span, tonnes, tonnes_range
from engine.emissions import EmissionsError, estimate, parse_period
from engine.emissions.units import conversion_factor
from engine.formatting import number
from engine.inventory import Inventory
from engine.measures.catalogue import Alternative

MWH_PER_TJ = 1_000_000 / 3_600  # 277.78: 1 TJ = 10^6 MJ, 1 MWh = 3,600 MJ
_GRID_KEY = "electricity@grid"


def efficiency_ratio(substitute: str) -> float:
    """An electrification's substitute: the ratio of the electricity's energy to the fuel's
    it replaces, written with either decimal mark."""
    return float(substitute.replace(",", "."))


@dataclass(frozen=True)
class GridFactor:
    t_per_mwh: float
    text: dict[str, str]  # pt / en: the factor and where it comes from


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
            {
                "pt": f"fator médio do SIN de {year} ({source})",
                "en": f"SIN average factor for {year} ({source})",
            },
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
            {
                "pt": f"média dos fatores mensais do SIN de {year}, ponderada pelos dias (MCTI)",
                "en": f"days-weighted mean of the SIN monthly factors for {year} (MCTI)",
            },
        )
    annual = [
        f
        for f in library.candidates(_GRID_KEY, "CO2")
        if f.valid_from and f.valid_to and (f.valid_to - f.valid_from).days >= 364
    ]
    if not annual:
        raise RuleError(
            "A biblioteca não tem fator do SIN para calcular a eletricidade nova.",
            "The library has no SIN factor to compute the new electricity with.",
        )
    latest = max(annual, key=lambda f: f.valid_from or date.min)
    assert latest.valid_from is not None
    return GridFactor(
        latest.value * conversion_factor(latest.unit, "t/MWh"),
        {
            "pt": f"fator médio do SIN de {latest.valid_from.year}, o último anual disponível "
            f"({latest.source})",
            "en": f"SIN average factor for {latest.valid_from.year}, the latest annual one "
            f"({latest.source})",
        },
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
    basis = {
        "pt": f"t CO2e das linhas ({tonnes(baseline, 'pt')}) × parcela eletrificada "
        f"{span((low_share, high_share), 'pt')} − eletricidade nova: {tonnes(energy, 'pt')} TJ × "
        f"{number(MWH_PER_TJ, 2, 'pt')} MWh/TJ × razão de eficiência {number(ratio, 2, 'pt')} "
        f"× parcela = {tonnes_range(mwh * low_share, mwh * high_share, 'pt')} MWh × "
        f"{number(grid.t_per_mwh, 4, 'pt')} t CO2/MWh ({grid.text['pt']}, por localização) = "
        f"{tonnes_range(max(low, 0), max(high, 0), 'pt')} t CO2e/ano. O escopo 1 cai "
        f"{tonnes_range(gross_low, gross_high, 'pt')} t e o escopo 2 sobe "
        f"{tonnes_range(added_low, added_high, 'pt')} t.",
        "en": f"The rows' t CO2e ({tonnes(baseline, 'en')}) × share electrified "
        f"{span((low_share, high_share), 'en')} − new electricity: {tonnes(energy, 'en')} TJ × "
        f"{number(MWH_PER_TJ, 2, 'en')} MWh/TJ × efficiency ratio {number(ratio, 2, 'en')} × "
        f"share = {tonnes_range(mwh * low_share, mwh * high_share, 'en')} MWh × "
        f"{number(grid.t_per_mwh, 4, 'en')} t CO2/MWh ({grid.text['en']}, location-based) = "
        f"{tonnes_range(max(low, 0), max(high, 0), 'en')} t CO2e/yr. Scope 1 falls by "
        f"{tonnes_range(gross_low, gross_high, 'en')} t and Scope 2 rises by "
        f"{tonnes_range(added_low, added_high, 'en')} t.",
    }
    if clipped:
        basis["pt"] += (
            " A rede emitiria mais do que o combustível evitado: a redução é limitada a 0."
        )
        basis["en"] += (
            " The grid would emit more than the fuel avoided: the reduction is clipped at 0."
        )
    kpi = {
        "pt": f"% do consumo de {fuel['pt']} substituído por eletricidade (MWh elétricos "
        "adicionais por ano)",
        "en": f"% of {fuel['en']} consumption replaced by electricity (additional MWh of "
        "electricity a year)",
    }
    return Cut(
        share=(low_share, high_share),
        rows=chosen,
        baseline=baseline,
        low=low,
        high=high,
        basis=basis,
        kpi=kpi,
        grid_low=grid_low,
        grid_high=grid_high,
    )
