"""GWPs of the refrigerants a measure moves to, where the inventory's GWP table has none.

``engine.gases.gwp`` knows the gases inventories report (HFCs, SF6, the HCFCs and their
blends); the low-GWP options a plan proposes (HFOs, hydrocarbons, CO2 as R-744 and the HFO
blends) are not there. ``data/refrigerants.csv`` gives those: a species with its value per
IPCC set, or a blend by mass fraction of components found in either table. A gas the
inventory's table knows is always taken from it, so an inventory and its plan agree.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from engine.gases.gwp import canonical_gas, gwp
from engine.protocol import fold


@dataclass(frozen=True)
class _Entry:
    gas: str
    values: dict[str, float]  # GWP set -> value (a species)
    parts: tuple[tuple[str, float], ...]  # (component, mass fraction) (a blend)
    source: str


def _compact(text: str) -> str:
    return re.sub(r"[^0-9a-z]", "", fold(text))


@cache
def _table() -> tuple[dict[str, _Entry], dict[str, str]]:
    path = resources.files("engine.measures").joinpath("data").joinpath("refrigerants.csv")
    entries: dict[str, _Entry] = {}
    names: dict[str, str] = {}
    with path.open(encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle):
            gas = row["gas"]
            known = entries.get(gas)
            parts = known.parts if known else ()
            if row["component"]:
                parts = (*parts, (row["component"], float(row["mass_fraction"])))
            values = {s: float(row[s]) for s in ("AR4", "AR5", "AR6") if row[s]}
            entries[gas] = _Entry(
                gas, values or (known.values if known else {}), parts,
                known.source if known else row["source"],
            )  # fmt: skip
            for alias in (gas, *row["aliases"].split("|")):
                if alias.strip():
                    names[_compact(alias)] = gas
    return entries, names


def refrigerant_name(text: str) -> str | None:
    """The canonical name of a gas either table knows ('r1234ze' -> 'R-1234ze(E)',
    'R-134a' -> 'HFC134a'), or None."""
    names = _table()[1]
    return names.get(_compact(text)) or canonical_gas(text)


def substitute_gwp(text: str, gwp_set: str) -> float | None:
    """The 100-year GWP of a gas or blend in ``gwp_set``, from the inventory's table first,
    then from this one; None when neither has it."""
    entries, names = _table()
    gas = names.get(_compact(text))
    if gas is None:
        canonical = canonical_gas(text)
        return None if canonical is None else gwp(canonical, gwp_set)
    entry = entries[gas]
    if entry.parts:
        values = [(substitute_gwp(part, gwp_set), share) for part, share in entry.parts]
        if any(value is None for value, _ in values):
            return None
        return sum(value * share for value, share in values if value is not None)
    return entry.values.get(gwp_set)


def gwp_source(text: str) -> str:
    """Where this table's value for a gas comes from ('' for the inventory's own gases)."""
    entries, names = _table()
    gas = names.get(_compact(text))
    return entries[gas].source if gas else ""
