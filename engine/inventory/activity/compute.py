"""The computation: every quantity of an activity table with its activity, unit and period,
estimated by ``engine.emissions.estimate_rows`` (one estimate per distinct activity, unit and
period, times the quantities). Rows that cannot be counted (no known activity, no period, no
factor) are kept with the reason for the findings, except a unit that cannot be converted in a
table with no emissions of its own: the user's to fix, raised. The estimates become canonical
rows in ``canonical``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime

import numpy as np
import pandas as pd

from engine.emissions import (
    Estimate,
    FactorLibrary,
    UnitError,
    estimate_rows,
    leaked_by_mass_balance,
)
from engine.emissions.batch import GAS_PREFIX, MONTREAL_PREFIX
from engine.emissions.errors import PeriodError
from engine.emissions.periods import parse_period
from engine.gases.gwp import GwpSet
from engine.inventory import fields as F
from engine.inventory.activity.detect import ActivityPlan, dimension_of
from engine.inventory.activity.matching import activity_names, by_id, info_of, resolve
from engine.inventory.errors import ActivityUnitError
from engine.inventory.fields import month_of_header
from engine.inventory.frames import map_unique
from engine.inventory.table import SheetTable
from engine.texts import Texts

_TEXTS = Texts(
    "engine.inventory.activity.compute",
    {
        "recovered_exceeds": {
            "pt": "a quantidade recolhida ('{recovered}') é maior que a recarregada "
            "('{recharged}'); confira os registros.",
            "en": "the recovered amount ('{recovered}') exceeds the recharged ('{recharged}'); "
            "check the records.",
        },
    },
)


@dataclass
class ActivityRows:
    """One table's activity data and what the library made of it."""

    requests: pd.DataFrame  # one row per quantity: _idx, row, activity, quantity, unit, period
    result: pd.DataFrame | None  # estimate_rows' table, aligned with ``requests``
    estimates: dict[int, Estimate]
    unresolved: pd.DataFrame  # rows naming no known activity: row, text, why
    missing_period: list[int]  # sheet rows with a quantity but no date, month or year
    failures: list[tuple[tuple[int, ...], str, str]]  # (sheet rows, pt, en): no factor
    emission_columns: dict[str, str] = field(default_factory=dict)  # gas ('' CO2e) -> column
    assumed_unit: str | None = None  # the quantities' unit, stated nowhere
    # per sheet row: activity, unit, quantity (``_row_quantities``), summed once
    quantities: pd.DataFrame | None = field(default=None, repr=False, compare=False)

    @property
    def found_any(self) -> bool:
        """Whether any row named an activity the library knows."""
        return bool(len(self.requests) or self.missing_period or self.failures)


def _row_keys(
    body: pd.DataFrame, columns: tuple[str | None, ...]
) -> tuple[np.ndarray, list[tuple[str, ...]]]:
    """Each row's code and the distinct (fuel, gas, source, category) texts, read once per
    distinct combination: a sheet repeats them over thousands of rows."""
    if not len(body):
        return np.zeros(0, dtype=np.int64), []
    frame = pd.DataFrame(
        {str(i): body[c].astype(object) if c else "" for i, c in enumerate(columns)},
        index=body.index,
    )
    codes, first = _distinct(frame)
    values = [frame[c].to_numpy(dtype=object)[first] for c in frame.columns]
    keys = [tuple(_cell_text(v) for v in parts) for parts in zip(*values, strict=True)]
    return codes, keys


def _distinct(frame: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Each row's code among the distinct combinations of its values (missing values one
    value of their own), in order of appearance, and the position of each code's first row."""
    codes = frame.groupby(list(frame.columns), dropna=False, sort=False).ngroup().to_numpy()
    first = pd.Series(np.arange(len(frame))).groupby(codes).first().to_numpy()
    return codes, first


def _cell_text(value: object) -> str:
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def collect_rows(
    table: SheetTable,
    plan: ActivityPlan,
    parse: Callable[[pd.Series], pd.Series],
    *,
    gwp_set: GwpSet,
    factors: FactorLibrary | None,
    strict: bool,
) -> ActivityRows:
    """Every quantity of the table with its activity, unit and period, computed.

    ``strict`` (a table with no emissions of its own): a unit that cannot be converted is an
    ``ActivityUnitError`` naming the sheet, the row and the unit. Otherwise that row is only
    left unchecked.
    """
    body = table.body
    rows = table.rows()
    codes, keys = _row_keys(body, (plan.fuel, plan.gas, plan.source, plan.category))
    context_category = (F.category_of(table.sheet) or F.category_of(table.title) or (None, None))[1]
    resolutions = [resolve(key, plan.context, context_category) for key in keys]
    ids = np.array([r.info.id if r.info else None for r in resolutions], dtype=object)
    activity = pd.Series(ids[codes], index=body.index)
    row_units = (
        map_unique(body[plan.unit_column], _cell_text).replace("", None)
        if plan.unit_column
        else pd.Series(None, index=body.index, dtype=object)
    )
    row_periods = _row_periods(body, plan)
    parts = []
    leak_failures: list[tuple[tuple[int, ...], str, str]] = []
    for column in plan.quantity_columns:
        month, year = plan.time_columns.get(column, (None, None))
        quantity = parse(body[column])
        if plan.recovered:
            quantity, negative = _leaked(quantity, parse(body[plan.recovered]))
            if negative.any():
                leak_failures.append(_recovery_failure(rows[negative.to_numpy()], plan))
        stated = plan.column_units.get(column) or plan.context_unit or plan.default_unit
        unit = row_units.fillna(stated)
        if plan.time_columns:
            year = year or row_periods["year"].where(row_periods["year"].notna(), None)
            period = _month_label(year, month) if month else year
        else:
            period = row_periods["period"]
            year = row_periods["year"]
        parts.append(pd.DataFrame({
            "_idx": body.index, "row": rows.to_numpy(), "activity": activity,
            "quantity": quantity, "unit": unit, "period": period, "year": year,
        }, index=body.index))  # fmt: skip
    requests = pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]
    requests = requests.reset_index(drop=True)
    has_quantity = requests["quantity"].notna()
    if plan.time_columns:
        has_quantity &= requests["quantity"] != 0  # an empty month consumed nothing
    named = requests["activity"].notna()
    unresolved = _unresolved(requests[has_quantity & ~named], resolutions, codes, body)
    dated = requests["period"].notna()
    missing_period = sorted({int(r) for r in requests.loc[has_quantity & named & ~dated, "row"]})
    if strict:
        _check_units(requests[has_quantity & named], table.sheet)
    todo = requests[has_quantity & named & dated & requests["unit"].notna()].copy()
    result, estimates, failures = None, {}, []
    if len(todo):
        result, estimates, errors = _estimate(todo, gwp_set, factors)
        failed = result["error"].notna()
        if failed.any():
            failures = _failures(todo[failed], result[failed], errors, table.sheet, strict)
            todo, result = todo[~failed], result[~failed]
    requests = todo
    failures = leak_failures + failures
    return ActivityRows(
        requests, result, estimates, unresolved, missing_period, failures,
        emission_columns=dict(plan.emission_columns),
        assumed_unit=plan.default_unit,
    )  # fmt: skip


def _leaked(recharged: pd.Series, recovered: pd.Series) -> tuple[pd.Series, pd.Series]:
    """kg leaked per row by the library's mass balance (recharged − recovered; a blank
    recovery is none), and the rows that recovered more than they recharged: a data error
    the user fixes, never a negative emission."""
    values, negative = [], []
    for put_in, taken_out in zip(
        recharged.to_numpy(dtype=float), recovered.fillna(0.0).to_numpy(dtype=float), strict=True
    ):
        if np.isnan(put_in):
            values.append(np.nan)
            negative.append(False)
            continue
        try:
            values.append(leaked_by_mass_balance(put_in, taken_out))
            negative.append(False)
        except ValueError:
            values.append(np.nan)
            negative.append(True)
    return (pd.Series(values, index=recharged.index, dtype=float),
            pd.Series(negative, index=recharged.index, dtype=bool))  # fmt: skip


def _recovery_failure(rows: pd.Series, plan: ActivityPlan) -> tuple[tuple[int, ...], str, str]:
    listed = tuple(sorted(int(r) for r in rows))
    column = plan.quantity or ""
    said = _TEXTS.both("recovered_exceeds", recovered=plan.recovered, recharged=column)
    return listed, said.pt, said.en


def _estimate(todo: pd.DataFrame, gwp_set: GwpSet, factors: FactorLibrary | None):
    """``estimate_rows`` over the distinct (activity, unit, period) of the rows, for a
    quantity of 1, then every row's figures by one multiplication: a sheet repeats its
    fuels, units and months over thousands of rows."""
    keys = todo[["activity", "unit", "period"]].astype(object)
    codes, first = _distinct(keys)
    distinct = keys.iloc[first].assign(quantity=1.0, row=todo["row"].to_numpy()[first])
    batch = estimate_rows(distinct.reset_index(drop=True), gwp_set=gwp_set, factors=factors,
                          errors="collect")  # fmt: skip
    unit_rows = batch.table.iloc[codes].reset_index(drop=True)
    quantity = todo["quantity"].to_numpy(dtype=float)
    scaled = [
        c
        for c in unit_rows.columns
        if c.startswith((GAS_PREFIX, MONTREAL_PREFIX)) or c in ("tco2e", "biogenic_co2_t")
    ]
    result = unit_rows.copy()
    for column in scaled:
        result[column] = unit_rows[column].to_numpy(dtype=float) * quantity
    result.index = todo.index
    return result, batch.estimates, batch.errors


def _month_label(year, month: int):
    if isinstance(year, pd.Series):
        return year.map(lambda y: f"{y}-{month:02d}" if isinstance(y, str) and y else None)
    return f"{year}-{month:02d}" if year else None


def _row_periods(body: pd.DataFrame, plan: ActivityPlan) -> pd.DataFrame:
    """Each row's period ('2024', '2024-03', '2024-03-15') and year, from a date or month
    column, a year column, or the sheet's name, title or file name."""
    year = pd.Series(plan.context_year, index=body.index, dtype=object)
    if plan.year_column:
        own = map_unique(body[plan.year_column], _year_text)
        year = own.where(own.notna(), year)
    period = year.copy()
    if plan.date_column:
        dates = map_unique(body[plan.date_column], _date_label)
        labels = map_unique(dates, lambda d: d if isinstance(d, str) else None)
        months = map_unique(dates, lambda d: d if isinstance(d, int) else None)
        month_only = months.notna() & year.notna()
        period = labels.where(labels.notna(), period)
        if month_only.any():
            pairs = zip(year[month_only], months[month_only], strict=True)
            period[month_only] = [f"{y}-{int(m):02d}" for y, m in pairs]
        from_date = map_unique(labels, lambda d: d[:4] if isinstance(d, str) else None)
        year = from_date.where(from_date.notna(), year)
    return pd.DataFrame({"period": period, "year": year}, index=body.index)


def _year_text(value: object) -> str | None:
    if F.is_year(value):
        return str(int(float(value))) if not isinstance(value, str) else value.strip()
    if isinstance(value, str):
        return F.year_in_text(value)
    if isinstance(value, datetime | date):
        return f"{value.year:04d}"
    return None


def _date_label(value: object) -> str | int | None:
    """A date cell as a period label ('2024-03-15', '2024-03'); a month name alone as its
    number (the year comes from elsewhere); None when it is no date."""
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return None
    if isinstance(value, pd.Timestamp | datetime | date):
        return parse_period(value.date() if isinstance(value, datetime) else value).label
    text = str(value).strip()
    try:
        return parse_period(text).label
    except PeriodError:
        pass
    month = month_of_header(text)
    if month is None:
        return None
    number_, year = month
    return f"{year}-{number_:02d}" if year else number_


def _unresolved(rows: pd.DataFrame, resolutions, codes, body: pd.DataFrame) -> pd.DataFrame:
    if rows.empty:
        return pd.DataFrame(columns=["row", "text", "why_pt", "why_en"])
    positions = body.index.get_indexer(rows["_idx"].to_numpy())
    picked = [resolutions[c] for c in codes[positions]]
    return pd.DataFrame({
        "row": rows["row"].to_numpy(),
        "text": [r.text for r in picked],
        "why_pt": [r.why_pt for r in picked],
        "why_en": [r.why_en for r in picked],
    }).drop_duplicates("row")  # fmt: skip


def _check_units(rows: pd.DataFrame, sheet: str) -> None:
    """Every (activity, unit) pair is checked once; the first row of a bad one is named."""
    if rows.empty:
        return
    missing = rows["unit"].isna()
    if missing.any():
        first = rows[missing].sort_values("row").iloc[0]
        names = activity_names(by_id().get(first["activity"]), first["activity"])
        raise ActivityUnitError(sheet, int(first["row"]), "", *names)
    pairs = rows.drop_duplicates(["activity", "unit"])
    for activity, unit in zip(pairs["activity"], pairs["unit"], strict=True):
        info = info_of(activity)
        if info is None or dimension_of(unit) in info.units:
            continue
        bad = rows[(rows["activity"] == activity) & (rows["unit"] == unit)]
        raise ActivityUnitError(
            sheet, int(bad["row"].min()), str(unit), info.name["pt"], info.name["en"],
            "/".join(info.units),
        )  # fmt: skip


def _failures(
    todo, result, errors, sheet: str, strict: bool
) -> list[tuple[tuple[int, ...], str, str]]:
    """Rows the library could not compute, by reason. A unit error in an activity-only table
    is the user's to fix (raised, naming its first row); no factor for the period is a
    finding, the rows not counted."""
    by_message = {error.message("pt"): error for error in errors.values()}
    failed = []
    for message, rows in todo["row"].groupby(result["error"].to_numpy(), sort=False):
        error = by_message.get(message)
        first = rows.index[rows.argmin()]
        if strict and isinstance(error, UnitError):
            activity, unit = todo.at[first, "activity"], todo.at[first, "unit"]
            info = info_of(activity)
            names = activity_names(info, activity)
            raise ActivityUnitError(sheet, int(rows.min()), str(unit), *names,
                                    "/".join(info.units) if info else None)  # fmt: skip
        en = error.message("en") if error is not None else message
        failed.append((tuple(sorted(int(r) for r in rows.unique())), str(message), en))
    return failed
