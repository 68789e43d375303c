"""One query over the canonical table: filter, then group and sum t CO2e, or list the largest
rows. The inventory tool renders it for a model; the offline analyst answers from the same
result, so the figures an answer cites are exactly those the tool returned."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import numpy as np
import pandas as pd

from engine.inventory import fields as F
from engine.protocol import fold

if TYPE_CHECKING:
    from engine.inventory.inventory import Inventory

Field = Literal["scope", "gas", "category", "facility", "source", "fuel", "year"]
FILTERS: tuple[Field, ...] = ("scope", "gas", "category", "facility", "source", "fuel", "year")
# A filter on a row's attribute the schema has no field for: its data quality ("estimado",
# "medido"), read from the workbook's own column (kept beside the canonical ones).
QUALITY = "quality"
ROW_FILTERS: tuple[str, ...] = (*FILTERS, QUALITY)
# How a row is named in a ranking: its source, else what else it says of itself.
LABEL = "label"
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
    filters = {k: v for k, v in (filters or {}).items() if v is not None and k in ROW_FILTERS}
    table, year = select(inventory, filters, every_year=group_by == "year")
    top_n = max(1, min(int(top_n), MAX_TOP))
    total = float(table[F.EMISSIONS_TCO2E].sum())
    groups = top = None
    if group_by:
        # By source, a row without one goes by its label: Scope 2 and Scope 3 rows of sheets
        # with no source column are never one "(não informado)" item ranked as a source.
        key = table[LABEL] if group_by == "source" else table[group_by].fillna(NOT_GIVEN)
        sums = table.groupby(key)[F.EMISSIONS_TCO2E].sum()
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
    filters = {k: v for k, v in (filters or {}).items() if v is not None and k in ROW_FILTERS}
    every_year = every_year or "year" in filters
    table = inventory.table if every_year else inventory.current
    table = table.assign(**{LABEL: row_labels(table)})
    for field_name, wanted in filters.items():
        if field_name == QUALITY:
            table = table[quality_mask(table, str(wanted))]
            continue
        if field_name not in table:
            continue
        needle = fold(str(wanted))
        if field_name == "scope":  # "Escopo 1", "scope 1" and "1" ask for the same rows
            needle = next((c for c in needle if c.isdigit()), needle)
        if field_name == F.CATEGORY:
            table = table[table[field_name].map(lambda v, n=needle: in_category(v, n))]
            continue
        table = table[table[field_name].map(lambda v, n=needle: n in fold(str(v or "")))]
    year = None if every_year or inventory.year is None else str(inventory.year)
    return table, year


def in_category(label: object, needle: str) -> bool:
    """Whether a row's category label is the one asked: by its text, or by the GHG Protocol
    category the label names, so "Emissões fugitivas" finds a workbook's "Fugitive
    emissions" rows (and the other way round): the category is the same in either language."""
    text = fold(str(label or ""))
    if needle in text:
        return True
    named = F.category_of(label)
    return named is not None and fold(named[1]) == needle


# --- what a row says of itself beyond the schema -----------------------------------------------

# Columns the schema has no field for that describe the row ("Descrição", "Item", "Detalhe").
_DESCRIPTION = re.compile(r"^(?:descri|detalh|especifica|item\b|nome\b|name\b|detail|label)")
# Columns that say how a figure was obtained ("Qualidade do dado", "Tipo de dado", "Estimado?").
_QUALITY_HEADER = re.compile(
    r"qualidade|quality|tipo d[eo] dados?|data type|natureza do dado|origem do dado|"
    r"\bestimad|\bestimat|\bmedid|\bmeasured|confiabilidade|data source type"
)
_ESTIMATED = re.compile(r"\bestim|\bproxy\b|\bassumid|\bassumed|\bpresumid")
_NOT_ESTIMATED = re.compile(r"\b(?:nao|not|no|sem)\s+estim")
# 1.0 read as a number folds to "1 0".
_YES = frozenset({"sim", "s", "yes", "y", "x", "true", "verdadeiro", "1", "1 0"})
_OWN_COLUMNS = frozenset((*F.FIELDS, F.REPORTING, F.MEMO_TCO2E, "sheet", "row", "gwp", "basis",
                          LABEL))  # fmt: skip


def _text(table: pd.DataFrame, column: str | None) -> pd.Series:
    """A column's non-empty text, NaN elsewhere."""
    if column is None or column not in table:
        return pd.Series(np.nan, index=table.index, dtype=object)
    values = table[column]
    text = values.map(lambda v: " ".join(v.split()) if isinstance(v, str) else None)
    return text.where(text.fillna("").str.len() > 0)


def _extra(table: pd.DataFrame, pattern: re.Pattern[str]) -> list[str]:
    return [
        str(c) for c in table.columns
        if c not in _OWN_COLUMNS and pattern.search(F.words(str(c)))
    ]  # fmt: skip


def row_labels(table: pd.DataFrame) -> pd.Series:
    """Each row by the best name it has: its source; else its description, fuel, category
    or sheet, with its installation, so rows of different sheets or installations that name
    no source stay apart."""
    source = _text(table, F.SOURCE)
    name = source.copy()
    descriptions = [
        c for c in _extra(table, _DESCRIPTION) if not pd.api.types.is_numeric_dtype(table[c])
    ]
    for column in [*descriptions, F.FUEL, F.CATEGORY, "sheet"]:
        name = name.fillna(_text(table, column))
    name = name.fillna(NOT_GIVEN)
    facility = _text(table, F.FACILITY)
    placed = source.isna() & facility.notna()
    return name.where(~placed, name + " (" + facility.fillna("") + ")")


def quality_columns(table: pd.DataFrame) -> list[str]:
    """The workbook's columns that say whether a row was measured or estimated."""
    return _extra(table, _QUALITY_HEADER)


def quality_mask(table: pd.DataFrame, wanted: str) -> pd.Series:
    """Rows whose data-quality column says ``wanted``; "estimado"/"estimated" also finds a
    yes in a column named for it ("Estimado?": "Sim")."""
    needle = F.words(wanted)
    estimated = _ESTIMATED.search(needle) is not None
    mask = pd.Series(False, index=table.index)
    for column in quality_columns(table):
        values = table[column].map(lambda v: F.words(str(v)) if _present(v) else "")
        if estimated:
            says = values.map(lambda v: bool(_ESTIMATED.search(v)) and not _NOT_ESTIMATED.search(v))
            if _ESTIMATED.search(F.words(column)):  # the header asks; a yes answers
                says |= values.map(lambda v: v in _YES)
            mask |= says.astype(bool)
        else:
            mask |= values.map(lambda v, n=needle: bool(n) and n in v).astype(bool)
    return mask


def _present(value: object) -> bool:
    return value is not None and not (isinstance(value, float) and np.isnan(value))
