"""The inventory rows an action acts on, as the rules read them: each row's identity (a key
stable across loads of the same file, so a saved plan finds its rows again), which rows the
totals count, and the inventory's year and factor library.
"""

from __future__ import annotations

from datetime import date

import pandas as pd

from engine.actions.model import RowRef
from engine.emissions import FactorLibrary, default_library, parse_period
from engine.emissions.periods import Period
from engine.inventory import Inventory
from engine.inventory import fields as F

COMBUSTION_GASES = frozenset({"CO2", "CH4", "N2O"})


def row_key(sheet: object, row: object, gas: object, source: object, facility: object) -> str:
    """One inventory row, as the plan names it: stable across loads of the same file."""
    parts = (sheet, row_number(row), gas, source, facility)
    return "|".join("" if missing(p) else str(p) for p in parts)


def row_keys(rows: pd.DataFrame) -> list[str]:
    return [
        row_key(*values)
        for values in zip(
            column(rows, "sheet"),
            column(rows, "row"),
            column(rows, F.GAS),
            column(rows, F.SOURCE),
            column(rows, F.FACILITY),
            strict=True,
        )
    ]


def ref_key(ref: RowRef) -> str:
    return row_key(ref.sheet, ref.row, ref.gas, ref.source, ref.facility)


def rows_of(inventory: Inventory, refs: tuple[RowRef, ...]) -> pd.DataFrame:
    """The headline year's rows an action names."""
    current = inventory.current
    wanted = {ref_key(ref) for ref in refs}
    return current[[key in wanted for key in row_keys(current)]]


def column(rows: pd.DataFrame, name: str) -> pd.Series:
    if name in rows:
        return rows[name]
    return pd.Series([None] * len(rows), index=rows.index, dtype=object)


def missing(value: object) -> bool:
    if value is None:
        return True
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):
        return False


def row_number(value: object) -> int | None:
    if missing(value):
        return None
    try:
        return int(float(str(value)))
    except ValueError:
        return None


def as_text(value: object) -> str:
    return "" if missing(value) else str(value)


def numbers(rows: pd.DataFrame, name: str) -> pd.Series:
    return pd.to_numeric(column(rows, name), errors="coerce").fillna(0.0).astype(float)


def in_totals(rows: pd.DataFrame) -> pd.DataFrame:
    """Rows counted in the inventory's totals, emitting something: biogenic CO2, Montreal
    gases and market-based Scope 2 are memo items (``reporting``), never cut by an action."""
    keep = numbers(rows, F.EMISSIONS_TCO2E) > 0
    if F.REPORTING in rows:
        keep &= column(rows, F.REPORTING).fillna(F.IN_INVENTORY) == F.IN_INVENTORY
    return rows[keep]


def is_combustion_gas(gas: object) -> bool:
    """A row of a fuel or an activity (CO2, CH4, N2O or no gas named), not a leaked gas."""
    return missing(gas) or str(gas) in COMBUSTION_GASES


def combustion_in_totals(rows: pd.DataFrame) -> pd.DataFrame:
    """The rows of a fuel or an activity the totals count: what a share of an activity cuts."""
    counted = in_totals(rows)
    return counted[[is_combustion_gas(g) for g in column(counted, F.GAS)]]


def location_based(rows: pd.DataFrame) -> pd.DataFrame:
    """The rows without market-based Scope 2: a memo beside the total, never cut with it."""
    if F.SCOPE2_METHOD in rows:
        return rows[column(rows, F.SCOPE2_METHOD).fillna("location") != F.MARKET]
    return rows


def refs(rows: pd.DataFrame, tco2e: pd.Series | None = None) -> tuple[RowRef, ...]:
    figures = numbers(rows, F.EMISSIONS_TCO2E) if tco2e is None else tco2e
    return tuple(
        RowRef(
            sheet=as_text(sheet),
            row=row_number(row),
            source=as_text(source),
            facility=as_text(facility),
            gas=as_text(gas),
            tco2e=float(value),
        )
        for sheet, row, source, facility, gas, value in zip(
            column(rows, "sheet"),
            column(rows, "row"),
            column(rows, F.SOURCE),
            column(rows, F.FACILITY),
            column(rows, F.GAS),
            figures,
            strict=True,
        )
    )


def has_scope(rows: pd.DataFrame) -> bool:
    """Whether the inventory gives any of the rows a scope (a pasted table may give none)."""
    return bool({str(s) for s in column(rows, F.SCOPE)} & {"1", "2", "3"})


def main_scope(rows: pd.DataFrame) -> int:
    """The scope of the rows (the planner hands a rule one scope at a time)."""
    scopes = [str(s) for s in column(rows, F.SCOPE) if not missing(s)]
    found = max(set(scopes), key=scopes.count) if scopes else "1"
    return int(found) if found in ("1", "2", "3") else 1


def main_unit(rows: pd.DataFrame) -> str:
    units = [u for u in column(rows, F.UNIT) if not missing(u) and str(u).strip()]
    return str(max(set(units), key=units.count)) if units else ""


def year_of(inventory: Inventory) -> int:
    try:
        return int(str(inventory.year))
    except ValueError:
        return date.today().year


def period_of(inventory: Inventory) -> Period:
    return parse_period(year_of(inventory))


def library_of(inventory: Inventory) -> FactorLibrary:
    return inventory.factors if inventory.factors is not None else default_library()
