"""One query over the canonical table: filter, then group and sum t CO2e, or list the largest
rows. The inventory tool renders it for a model; the offline analyst answers from the same
result, so the figures an answer cites are exactly those the tool returned."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import pandas as pd

from engine.inventory import fields as F
from engine.protocol import fold

if TYPE_CHECKING:
    from engine.inventory.inventory import Inventory

Field = Literal["scope", "gas", "category", "facility", "source", "fuel", "year"]
FILTERS: tuple[Field, ...] = ("scope", "gas", "category", "facility", "source", "fuel", "year")
# What the inventory tool returns beside the rows (``engine.inventory.facts``): every
# data-quality finding, the mass of each gas, the total under the other GWP sets, each
# installation by scope, and each sheet's status with the evidence for its units.
View = Literal["findings", "gases", "gwp_sets", "facility_scope", "sheets"]
VIEWS: tuple[View, ...] = ("findings", "gases", "gwp_sets", "facility_scope", "sheets")
NOT_GIVEN = "(não informado)"
MAX_TOP = 50


@dataclass(frozen=True)
class QueryResult:
    rows: pd.DataFrame  # the filtered canonical rows
    total: float  # their t CO2e
    year: str | None  # the headline year the rows were limited to; None for every year
    groups: list[tuple[str, float]] | None  # (value, t CO2e), largest first, with group_by
    top: pd.DataFrame | None  # the largest rows, without group_by


def query(
    inventory: Inventory,
    *,
    group_by: Field | None = None,
    top_n: int = 10,
    filters: dict[str, str | None] | None = None,
) -> QueryResult:
    """Rows whose field contains each filter's text (accent- and case-insensitive).

    A multi-year workbook answers for its headline year unless a year is asked for or the
    grouping is by year: summing every year's rows would be a total no report contains.
    """
    filters = {k: v for k, v in (filters or {}).items() if v is not None and k in FILTERS}
    table, year = select(inventory, filters, every_year=group_by == "year")
    top_n = max(1, min(int(top_n), MAX_TOP))
    total = float(table[F.EMISSIONS_TCO2E].sum())
    groups = top = None
    if group_by:
        sums = table.groupby(table[group_by].fillna(NOT_GIVEN))[F.EMISSIONS_TCO2E].sum()
        ordered = sums.sort_values(ascending=False).head(top_n)
        groups = [(str(value), float(t)) for value, t in ordered.items()]
    else:
        top = table.nlargest(top_n, F.EMISSIONS_TCO2E)
    return QueryResult(rows=table, total=total, year=year, groups=groups, top=top)


def select(
    inventory: Inventory, filters: dict[str, str | None] | None = None, *, every_year: bool = False
) -> tuple[pd.DataFrame, str | None]:
    """The rows whose field contains each filter's text, and the headline year they were
    limited to (None when every year's rows are in: a year asked for, or ``every_year``)."""
    filters = {k: v for k, v in (filters or {}).items() if v is not None and k in FILTERS}
    every_year = every_year or "year" in filters
    table = inventory.table if every_year else inventory.current
    for field_name, wanted in filters.items():
        if field_name not in table:
            continue
        needle = fold(str(wanted))
        if field_name == "scope":  # "Escopo 1", "scope 1" and "1" ask for the same rows
            needle = next((c for c in needle if c.isdigit()), needle)
        table = table[table[field_name].map(lambda v, n=needle: n in fold(str(v or "")))]
    year = None if every_year or inventory.year is None else str(inventory.year)
    return table, year
