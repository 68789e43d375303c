"""Fuels: the energy each source burnt, read back from the CO2 its rows report through the
library's factor per TJ (IPCC 2006 v. 2 ch. 1 table 1.4), with its fossil and biogenic parts
apart. A fuel switch and an electrification compute on these sources.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from engine.actions.rules.rows import (
    as_text,
    column,
    in_totals,
    is_combustion_gas,
    library_of,
    numbers,
    period_of,
)
from engine.actions.rules.text import short
from engine.emissions import FactorLibrary, find_activity
from engine.emissions.activities import ActivityInfo
from engine.emissions.periods import Period
from engine.emissions.units import conversion_factor
from engine.gases.gwp import BIOGENIC_CO2 as BIOGENIC_GAS
from engine.gases.gwp import gwp
from engine.inventory import Inventory
from engine.inventory import fields as F


def fuel_activity(rows: pd.DataFrame) -> ActivityInfo | None:
    """The fuel burnt by a source: its activity id, else its fuel's or source's name."""
    for name in ("activity", F.FUEL, F.SOURCE):
        for value in column(rows, name):
            text = as_text(value)
            for candidate in (text, short(text)):
                info = find_activity(candidate) if candidate else None
                if info is not None and info.fuel and info.method.endswith("combustion"):
                    return info
    return None


def factor_per_tj(
    library: FactorLibrary, fuel: str, use: str | None, gas: str, period: Period
) -> float:
    """t of ``gas`` per TJ of ``fuel`` (IPCC 2006 v. 2 ch. 1 table 1.4 in the library);
    CO2 per TJ is the fuel's carbon, the same in every use, so any use stands in. 0: none."""
    keys = [f"{fuel}@{use}"] if use else []
    keys += sorted(k for k in library.factor_keys() if k.startswith(f"{fuel}@"))
    for key in keys:
        factor = library.lookup(key, gas, period)
        if factor is not None:
            return factor.value * conversion_factor(factor.unit, "t/TJ")
    return 0.0


@dataclass(frozen=True)
class Source:
    """One source of a fuel, its gases on several canonical rows."""

    rows: pd.DataFrame
    info: ActivityInfo | None
    tco2e: float  # all gases, in the totals
    fossil_co2: float  # t
    biogenic_co2: float  # t, already reported apart
    fossil_factor: float  # t CO2 per TJ of the fuel (0: unknown)
    bio_factor: float  # t CO2 per TJ of the blend's bio part or the biofuel itself

    @property
    def fossil_tj(self) -> float:
        return self.fossil_co2 / self.fossil_factor if self.fossil_factor else 0.0

    @property
    def energy_tj(self) -> float:
        """All the fuel burnt: the fossil part and any bio part (diesel B, gasoline C)."""
        bio = self.biogenic_co2 / self.bio_factor if self.bio_factor else 0.0
        return self.fossil_tj + bio

    @property
    def known(self) -> bool:
        return self.fossil_factor > 0 or (self.bio_factor > 0 and self.fossil_co2 == 0)


def fuel_sources(inventory: Inventory, rows: pd.DataFrame) -> list[Source]:
    """The fuel sources among ``rows`` (combustion rows in the totals), each with its
    energy read back from its CO2 through the library's factor per TJ."""
    library = library_of(inventory)
    period = period_of(inventory)
    # A source's biogenic CO2 may sit on its own row ("CO2 biogênico"): kept for the energy.
    burnt = rows[[is_combustion_gas(g) or g == BIOGENIC_GAS for g in column(rows, F.GAS)]]
    memo = numbers(burnt, F.BIOGENIC_CO2)
    counted = in_totals(burnt)
    found: list[Source] = []
    # A source's gases may sit on one spreadsheet row each (a long table): the source is
    # its sheet, name, facility and fuel, so its CH4 and N2O rows stay with its CO2.
    by = [c for c in ("sheet", F.SOURCE, F.FACILITY, F.FUEL) if c in burnt]
    groups = burnt.groupby(by, dropna=False, sort=False) if by else [((), burnt)]
    for _, group in groups:
        mine = counted.loc[counted.index.intersection(group.index)]
        if mine.empty:
            continue
        info = fuel_activity(group)
        fossil_factor = bio_factor = 0.0
        if info is not None and info.fuel:
            fossil_factor = factor_per_tj(library, info.fuel, info.use, "CO2", period)
            bio_fuel = info.bio_fuel or (None if fossil_factor else info.fuel)
            if bio_fuel:
                bio_factor = factor_per_tj(library, bio_fuel, info.use, "CO2_biogenic", period)
        gases = column(mine, F.GAS)
        tco2e = numbers(mine, F.EMISSIONS_TCO2E)
        fossil = float(tco2e[gases == "CO2"].sum())
        unsplit = float(tco2e[gases.isna()].sum())
        if unsplit and info is not None:
            fossil += unsplit * _co2_share(inventory, library, info, period)
        found.append(
            Source(
                rows=mine,
                info=info,
                tco2e=float(tco2e.sum()),
                fossil_co2=fossil,
                biogenic_co2=float(memo.loc[group.index].sum()),
                fossil_factor=fossil_factor,
                bio_factor=bio_factor,
            )
        )
    return found


def _co2_share(
    inventory: Inventory, library: FactorLibrary, info: ActivityInfo, period: Period
) -> float:
    """The CO2 part of a row that gives only t CO2e: the fuel's CO2 per TJ over its CO2e per
    TJ, so CH4 and N2O stay uncredited even when the table does not split them."""
    assert info.fuel is not None
    co2 = factor_per_tj(library, info.fuel, info.use, "CO2", period)
    others = sum(
        factor_per_tj(library, info.fuel, info.use, gas, period)
        * (gwp(gas, inventory.gwp_set) or 0)
        for gas in ("CH4", "N2O")
    )
    return co2 / (co2 + others) if co2 else 0.0
