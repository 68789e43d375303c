"""Time across the columns: years (1990 … 2020) become a ``year`` field; months are summed
into their year. The values then read as one emissions column named from its context (the
sheet's gas and unit), so the ordinary mapping applies to them."""

from __future__ import annotations

import re
from dataclasses import replace

import numpy as np
import pandas as pd

from engine.inventory.activity import months_hold_quantities
from engine.inventory.fields import (
    EMISSION_FIELDS,
    HEADER_JOIN,
    YEAR,
    base_field,
    gas_in_header,
    match_header,
    month_of_header,
    words,
    year_in_text,
    year_of_header,
)
from engine.inventory.reconcile import UnitEvidence
from engine.inventory.table import SheetTable
from engine.inventory.unit_evidence import context_evidence, header_evidence
from engine.inventory.units import UNIT_NAMES, typed_numbers

YEAR_COLUMN = "Ano"
_MIN_TIME_COLUMNS = 2


def reshape_time_columns(table: SheetTable, parser_for) -> SheetTable:
    """Melt year columns (or month columns, summed per year) into rows with a year field.

    ``parser_for(columns)`` gives the number parser for those columns (their convention).
    """
    years = {c: y for c in table.columns if (y := year_of_header(c))}
    months = {c: m for c in table.columns if c not in years and (m := month_of_header(c))}
    # Months of litres, m³ or MWh are activity data (``engine.inventory.activity``): summed
    # as emissions they would count the litres as tonnes.
    if (
        len(months) >= _MIN_TIME_COLUMNS
        and len(months) > len(years)
        and not months_hold_quantities(table, list(months))
    ):
        numbers_parser = parser_for(list(months))
        context_year = _context_year(table)
        by_year: dict[str, list[str]] = {}
        for column, (_, year) in months.items():
            by_year.setdefault(year or context_year or "", []).append(column)
        summed = pd.DataFrame(
            {
                year: pd.concat([numbers_parser(table.body[c]) for c in columns], axis=1).sum(
                    axis=1, min_count=1
                )
                for year, columns in by_year.items()
            },
            index=table.body.index,
        )
        totals = _summed_totals(table, by_year, numbers_parser)
        return _melt(table, list(months), summed, totals, next(iter(months)), "months")
    if len(years) >= _MIN_TIME_COLUMNS or (years and not _emission_columns(table, years)):
        values = _year_values(table.body, years, parser_for)
        totals = _year_values(table.totals, years, parser_for)
        return _melt(table, list(years), values, totals, next(iter(years)), "years")
    return table


def _year_values(frame: pd.DataFrame, years: dict[str, str], parser_for) -> pd.DataFrame:
    """Each year column's numbers, under its year. Typed numbers (the usual workbook) are
    converted in one block; text goes through the columns' shared convention."""
    column_of = {year: column for column, year in years.items()}  # a repeated year: the last
    block = typed_numbers(frame, list(column_of.values()))
    if block is not None:
        return pd.DataFrame(block, index=frame.index, columns=list(column_of))
    parse = parser_for(list(years))
    return pd.DataFrame({years[c]: parse(frame[c]) for c in years}, index=frame.index)


def _emission_columns(table: SheetTable, besides: dict[str, str]) -> bool:
    """Whether the table has emission columns other than its year columns."""
    for column in table.columns:
        if column in besides:
            continue
        match = match_header(column)
        if match and base_field(match.field) in EMISSION_FIELDS and not _holds_text(table, column):
            return True
    return False


def _holds_text(table: SheetTable, column: str) -> bool:
    """A column of labels ('1.A Energia') under a header that names the values' metric and
    unit ('CO₂e (GWP AR5) (Gg)', a national inventory's A6): no emission column itself."""
    values = table.body[column].dropna().head(200)
    return bool(len(values)) and bool(values.map(lambda v: isinstance(v, str)).mean() > 0.8)


def _context_year(table: SheetTable) -> str | None:
    return year_in_text(f"{table.sheet} {table.title}")


def _summed_totals(table: SheetTable, by_year: dict[str, list[str]], parse) -> pd.DataFrame:
    return pd.DataFrame(
        {
            year: pd.concat([parse(table.totals[c]) for c in columns], axis=1).sum(
                axis=1, min_count=1
            )
            for year, columns in by_year.items()
        },
        index=table.totals.index,
    )


def _long(frame: pd.DataFrame, keep: list[str], values: pd.DataFrame, name: str, add_year):
    """One row per (time column, row) that holds a value: every row of the first time column,
    in sheet order, then every row of the next. Picked with one take, not a frame per year
    copied and concatenated (that was 7 s of a 17-sheet, 31-year workbook)."""
    if values.shape[1] == 0:
        extra = {YEAR_COLUMN: None} if add_year else {}
        return frame[keep].iloc[:0].assign(**extra, **{name: None, "__row": 0})
    present = values.notna().to_numpy()
    time_index, rows = np.nonzero(present.T)  # year-major order, rows ascending in each
    long = frame[keep].iloc[rows].reset_index(drop=True)
    if add_year:
        labels = [year or None for year in values.columns]
        # The dtype a column of each label would have: str, or object once one is missing.
        years = pd.Series(labels, dtype=object if None in labels else None)
        long[YEAR_COLUMN] = years.take(time_index).reset_index(drop=True)
    long[name] = _picked(values, present, rows, time_index)
    long["__row"] = frame.index.to_numpy()[rows]
    return long


def _picked(values: pd.DataFrame, present, rows, time_index) -> pd.Series:
    """The values at (rows, time_index), in that order, with the dtype a concatenation of
    the columns would have."""
    dtypes = set(values.dtypes)
    dtype = dtypes.pop() if len(dtypes) == 1 else None
    if isinstance(dtype, np.dtype):
        return pd.Series(values.to_numpy()[rows, time_index], dtype=dtype)
    parts = [values.iloc[:, i][present[:, i]] for i in range(values.shape[1])]
    return pd.concat(parts, ignore_index=True)


def _melt(table, time_columns, values, totals, sample: str, layout: str) -> SheetTable:  # noqa: PLR0917
    """One row per original row and year; the original sheet row is kept for every finding."""
    keep = [c for c in table.columns if c not in time_columns]
    name, unit = _value_name(table, sample, keep)
    while name in keep:
        name += " (valores)"
    # Months of one year beside the row's own year column: that column says the year.
    own_year = next((c for c in keep if (m := match_header(c)) and m.field == YEAR), None)
    add_year = not (own_year and values.shape[1] == 1)
    body_frame, totals_frame = table.body, table.totals
    if add_year and YEAR_COLUMN in keep:  # the time columns say the year, not that column
        renamed = {YEAR_COLUMN: f"{YEAR_COLUMN} (original)"}
        keep = [renamed.get(c, c) for c in keep]
        body_frame = body_frame.rename(columns=renamed)
        totals_frame = totals_frame.rename(columns=renamed)
    body = _long(body_frame, keep, values, name, add_year)
    rows = body.pop("__row").astype("int64")
    melted_totals = _long(totals_frame, keep, totals, name, add_year)
    melted_totals.index = melted_totals.pop("__row").astype("int64").to_numpy()
    columns = [*keep, YEAR_COLUMN, name] if add_year else [*keep, name]
    return SheetTable(
        sheet=table.sheet,
        header_rows=table.header_rows,
        columns=columns,
        body=body[columns],
        totals=melted_totals[columns],
        title=table.title,
        notes=table.notes,
        error_cells=table.error_cells,
        decimal_comma=False,  # the values are numbers already
        sheet_rows=rows,
        context=table.context,
        time_layout=layout,
        lineage=table.lineage,  # by sheet row: the melted rows keep their coded ancestors
        unit_sources={name: replace(unit, column=name)} if unit is not None else {},
    )


def _value_name(
    table: SheetTable, sample: str, labels: list[str]
) -> tuple[str, UnitEvidence | None]:
    """'Emissões CH4 (Gg)' from the sheet's name, title and the time columns' header group,
    with the evidence of its unit: the time columns' header group ('Emissões (Gg) / 2020'),
    the label column's header ('CO₂e (GWP AR5)' over '(Gg)'), a title or note, the sheet."""
    context = " ".join([table.sheet, table.title, sample, *table.context, *labels])
    folded = words(context)
    gas = gas_in_header(words(table.sheet)) or gas_in_header(folded)
    co2e = bool(re.search(r"co2 ?eq?\b|equivalente|equivalent", folded))
    unit = header_evidence(table, sample) if HEADER_JOIN in sample else None
    unit = unit or context_evidence(table, sample, labels)
    token = UNIT_NAMES.get(unit.factor) if unit is not None and unit.factor else None
    label = "Emissões"
    if gas and not co2e:
        label += f" {gas}"
    if co2e:
        label += f" ({token or ''} CO2e)".replace("( ", "(")
    elif token:
        label += f" ({token})"
    return label, unit
