"""Global warming potentials (100-year) from the IPCC assessment reports.

Values come from the ``globalwarmingpotentials`` package; refrigerant blends are computed
from their components' mass fractions (data/blends.csv). CO2 is 1 by definition.
"""

from __future__ import annotations

import csv
import re
from functools import cache
from importlib import resources
from typing import Literal

import globalwarmingpotentials

from engine.inventory.errors import UnknownGwpSetError
from engine.protocol import fold

GwpSet = Literal["AR4", "AR5", "AR6"]
GWP_SETS: tuple[GwpSet, ...] = ("AR4", "AR5", "AR6")
DEFAULT_GWP_SET: GwpSet = "AR5"  # the set Brazil's GHG Protocol Program uses
BIOGENIC_CO2 = "CO2 biogênico"

_SUBSCRIPTS = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")
_BIOGENIC = re.compile(r"biogen")


def _data_rows(name: str) -> list[dict[str, str]]:
    with (
        resources.files("engine.inventory")
        .joinpath("data")
        .joinpath(name)
        .open(encoding="utf-8") as f
    ):
        return list(csv.DictReader(f))


def _compact(text: str) -> str:
    return re.sub(r"[^0-9a-z]", "", fold(text.translate(_SUBSCRIPTS)))


@cache
def _species_table() -> dict[str, dict[GwpSet, float]]:
    frame = globalwarmingpotentials.as_frame()
    table: dict[str, dict[GwpSet, float]] = {"CO2": dict.fromkeys(GWP_SETS, 1.0)}
    for species, row in frame.iterrows():
        values = {
            s: float(row[f"{s}GWP100"]) for s in GWP_SETS if row[f"{s}GWP100"] == row[f"{s}GWP100"]
        }
        table[str(species)] = values
    return table


@cache
def _blends() -> dict[str, list[tuple[str, float]]]:
    blends: dict[str, list[tuple[str, float]]] = {}
    for row in _data_rows("blends.csv"):
        blends.setdefault(row["blend"], []).append((row["component"], float(row["mass_fraction"])))
    return blends


@cache
def _lookup() -> dict[str, str]:
    """Compact spelling -> canonical gas name (a species of the table, or a blend)."""
    lookup = {_compact(species): species for species in _species_table()}
    for row in _data_rows("gas_aliases.csv"):
        lookup[_compact(row["alias"])] = row["species"]
    for blend in _blends():
        lookup[_compact(blend)] = blend
    return lookup


def canonical_gas(name: object) -> str | None:
    """'CO₂', 'Dióxido de carbono', 'HFC-134a', 'R-410A' -> 'CO2', 'CO2', 'HFC134a', 'R-410A'."""
    if not isinstance(name, str) or not name.strip():
        return None
    if _BIOGENIC.search(fold(name)):
        return BIOGENIC_CO2
    return _lookup().get(_compact(name))


def gwp(gas: str, gwp_set: GwpSet) -> float | None:
    """The 100-year GWP of a canonical gas name in a set, or None when the set has none."""
    if gas in _blends():
        parts = [(gwp(component, gwp_set), share) for component, share in _blends()[gas]]
        if any(value is None for value, _ in parts):
            return None
        return sum(value * share for value, share in parts if value is not None)
    return _species_table().get(gas, {}).get(gwp_set)


def check_gwp_set(gwp_set: str) -> GwpSet:
    normalized = gwp_set.upper().strip()
    if normalized not in GWP_SETS:
        raise UnknownGwpSetError(gwp_set)
    return normalized  # type: ignore[return-value]


def gas_tokens() -> list[str]:
    """Every compact gas spelling, longest first: to spot a gas named in a column header."""
    return sorted(_lookup(), key=len, reverse=True)
