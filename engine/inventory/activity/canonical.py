"""The canonical rows an activity table's estimates become: one per table row, year and gas,
with ``basis = "activity"`` and the sources of the factors each used (``factor_ref``);
``factors_used`` lists those factors once per sheet.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from engine.emissions import Estimate, FactorUse
from engine.emissions.batch import GAS_PREFIX, MONTREAL_PREFIX
from engine.gases.gwp import BIOGENIC_CO2
from engine.inventory import fields as F
from engine.inventory.activity.compute import ActivityRows

ACTIVITY = "activity"  # canonical column: the library's activity id
FACTOR_REF = "factor_ref"  # canonical column: the sources of the factors used
BASIS_ACTIVITY = "activity"


def mark_activities(table: pd.DataFrame, rows: ActivityRows) -> None:
    """The activity each of the workbook's own rows was checked as, beside its emissions."""
    by_row = pd.Series(rows.requests["activity"].to_numpy(), index=rows.requests["row"])
    by_row = by_row[~by_row.index.duplicated()]
    table[ACTIVITY] = by_row.reindex(table["row"].to_numpy()).to_numpy()


def canonical_rows(rows: ActivityRows, base: pd.DataFrame) -> pd.DataFrame:
    """Canonical rows of the computed quantities: one per table row, year and gas.

    ``base`` holds the table's descriptive fields per body row (index = body row). Months
    are added up into their year, as the ingestion does for emissions across the columns.
    Texts are carried as codes and made once per distinct value: a 100k-row sheet has a
    few dozen distinct activities, units and sources.
    """
    if rows.result is None or rows.requests.empty:
        return base.iloc[:0].assign(**{F.GAS: None, F.EMISSIONS_T_GAS: np.nan,
                                       F.EMISSIONS_TCO2E: np.nan, "basis": BASIS_ACTIVITY,
                                       ACTIVITY: None, FACTOR_REF: None})  # fmt: skip
    requests, result = rows.requests, rows.result
    groups = result["group"].to_numpy()
    gases = gas_columns(result, rows.estimates)
    names = [gas for gas, _, _ in gases]
    frame = pd.DataFrame(
        {gas: np.where(np.isin(groups, applies), result[column].to_numpy(dtype=float), np.nan)
         for gas, column, applies in gases},
        index=requests.index,
    )  # fmt: skip
    frame["_idx"] = requests["_idx"].to_numpy()
    frame["_year"] = requests["year"].astype(object).where(requests["year"].notna(), "")
    frame[F.QUANTITY] = requests["quantity"].to_numpy()
    frame[F.UNIT] = requests["unit"].to_numpy()
    frame[ACTIVITY] = requests["activity"].to_numpy()
    frame["_group"] = groups
    texts: list[str] = []  # every factor_ref text, once
    if requests["_idx"].is_unique:  # one quantity per row: a source text per group and gas
        refs = {gas: _ref_codes(rows.estimates, gas, texts, groups) for gas in names}
    else:  # months across the columns: one row per year, every month's sources
        frame, refs = _by_year(frame, ["_idx", "_year"], names, rows.estimates, texts)
    positions = [np.flatnonzero(frame[gas].notna().to_numpy()) for gas in names]
    at = np.concatenate(positions)
    if not len(at):
        empty = ActivityRows(requests.iloc[:0], None, {}, rows.unresolved, [], [])
        return canonical_rows(empty, base)
    canonical = base.take(base.index.get_indexer(frame["_idx"].to_numpy()[at]))
    gas_codes = np.concatenate([np.full(len(p), i) for i, p in enumerate(positions)])
    canonical[F.GAS] = _texts(names, gas_codes)
    canonical[F.EMISSIONS_T_GAS] = np.concatenate(
        [frame[gas].to_numpy(dtype=float)[p] for gas, p in zip(names, positions, strict=True)]
    )
    canonical[F.EMISSIONS_TCO2E] = np.nan
    canonical[F.QUANTITY] = frame[F.QUANTITY].to_numpy(dtype=float)[at]
    for column in (F.UNIT, F.YEAR, ACTIVITY):
        source = frame["_year"].replace("", None) if column == F.YEAR else frame[column]
        codes, values = pd.factorize(source)
        canonical[column] = _texts(list(values), codes[at])
    activity_codes, activity_ids = codes[at], list(values)  # ACTIVITY came last
    ref_codes = np.concatenate([refs[gas][p] for gas, p in zip(names, positions, strict=True)])
    # Long texts (document titles), a handful of them: a category, not one string per row.
    canonical[FACTOR_REF] = pd.Categorical.from_codes(ref_codes, categories=pd.Index(texts))
    canonical["basis"] = BASIS_ACTIVITY
    _describe(canonical, rows.estimates, activity_codes, activity_ids)
    return canonical


def _texts(values: list, codes: np.ndarray):
    """A text column by codes (-1 = missing): one take, no Python string per row."""
    return pd.array([str(v) for v in values] or [""], dtype="str").take(
        np.asarray(codes, dtype=np.int64), allow_fill=True
    )


def _code_of(text: str, texts: list[str], index: dict[str, int]) -> int:
    if text not in index:
        index[text] = len(texts)
        texts.append(text)
    return index[text]


def _ref_codes(estimates: dict[int, Estimate], gas: str, texts: list[str], groups) -> np.ndarray:
    """Per row, the code of the sources of the factors its group used for ``gas``."""
    index = {t: i for i, t in enumerate(texts)}
    lookup = np.full(max(estimates, default=0) + 2, -1, dtype=np.int64)
    for group, text in _refs_by_group(estimates, gas).items():
        lookup[group] = _code_of(text, texts, index)
    return lookup[np.asarray(groups, dtype=np.int64)]


def gas_columns(result: pd.DataFrame, estimates: dict[int, Estimate]):
    """(canonical gas, result column, groups it applies to): the batch table fills 0 for an
    activity without that gas, and 0 is no emission of it."""
    found = []
    for column in result.columns:
        if column.startswith(GAS_PREFIX):
            gas = column[len(GAS_PREFIX) :]
            applies = [g for g, e in estimates.items() if gas in e.gases_t]
        elif column.startswith(MONTREAL_PREFIX):
            gas = column[len(MONTREAL_PREFIX) :]
            applies = [g for g, e in estimates.items() if gas in e.montreal_t]
        else:
            continue
        found.append((gas, column, applies))
    bio = [g for g, e in estimates.items() if e.biogenic_co2_t]
    if bio:
        found.append((BIOGENIC_CO2, "biogenic_co2_t", bio))
    return found


def _library_gas(gas: str) -> str:
    return "CO2_biogenic" if gas == BIOGENIC_CO2 else gas


def factor_uses(estimate: Estimate, gas: str) -> list[FactorUse]:
    """The factors that made one gas of an estimate: its own, and the shared properties
    (density, NCV, blend share) the chain passed through."""
    wanted = _library_gas(gas)
    return [use for use in estimate.factors if use.gas in (wanted, "-")]


def _refs_by_group(estimates: dict[int, Estimate], gas: str) -> dict[int, str]:
    return {
        group: "; ".join(dict.fromkeys(use.source for use in factor_uses(estimate, gas)))
        for group, estimate in estimates.items()
    }


def _by_year(frame, keys: list[str], gases: list[str], estimates, texts: list[str]):
    """Months of a row added into its year; the sources of every month's factors kept."""
    grouped = frame.groupby(keys, sort=False)
    summed = grouped[[*gases, F.QUANTITY]].sum(min_count=1)
    for gas in gases:  # a gas no month of the row has stays missing, not 0
        summed.loc[grouped[gas].count() == 0, gas] = np.nan
    first = grouped[[F.UNIT, ACTIVITY]].first()
    units = grouped[F.UNIT].nunique()
    first.loc[units > 1, [F.UNIT]] = None  # months in different units: no one quantity
    summed.loc[units > 1, F.QUANTITY] = np.nan
    # The groups a row's months used, as one signature: rows sharing it share their sources.
    distinct = frame[[*keys, "_group"]].drop_duplicates().sort_values("_group")
    signature = distinct.groupby(keys, sort=False)["_group"].agg(tuple).reindex(summed.index)
    codes, signatures = pd.factorize(signature)
    index = {t: i for i, t in enumerate(texts)}
    refs = {}
    for gas in gases:
        by_group = _refs_by_group(estimates, gas)
        per_signature = [
            _code_of(_join_sources([by_group.get(g, "") for g in sig]), texts, index)
            for sig in signatures
        ]
        refs[gas] = np.asarray(per_signature, dtype=np.int64)[codes]
    return pd.concat([summed, first], axis=1).reset_index(), refs


def _join_sources(texts: list[str]) -> str:
    return "; ".join(dict.fromkeys(s for t in texts if t for s in t.split("; ") if s))


def _describe(
    canonical: pd.DataFrame, estimates: dict[int, Estimate], codes: np.ndarray, ids: list[str]
) -> None:
    """Scope, category and Scope 2 method as the library files the activity; the sheet's
    own category and labels where it gives them. ``codes`` index ``ids``, row by row."""
    infos = {e.activity: e for e in estimates.values()}

    def per_row(value) -> pd.Series:
        texts = [value(infos[a]) for a in ids]
        return pd.Series(_texts([t or "" for t in texts], codes), index=canonical.index)

    canonical[F.SCOPE] = per_row(lambda e: str(e.scope)).to_numpy()
    for column, value in (
        (F.CATEGORY, lambda e: e.category),
        (F.FUEL, lambda e: e.name["pt"]),
        (F.SOURCE, lambda e: e.name["pt"]),
    ):
        own = canonical[column]
        missing = own.isna().to_numpy()
        if missing.all():
            canonical[column] = per_row(value).to_numpy()
        elif missing.any():
            canonical[column] = own.where(~missing, per_row(value))
    methods = [infos[a].scope2_method for a in ids]
    if any(methods):
        located = np.array([m is not None for m in methods])[codes]
        method = per_row(lambda e: e.scope2_method)
        canonical[F.SCOPE2_METHOD] = method.where(located, canonical[F.SCOPE2_METHOD])


# --- the factors used -------------------------------------------------------------------------


FACTOR_COLUMNS = (
    "sheet", "purpose", ACTIVITY, "key", "gas", "role", "value", "unit", "source", "url",
    "validity", "user", "rows", "role_en", "source_pt",
)  # fmt: skip


def factors_used(rows: ActivityRows, sheet: str, purpose: str) -> pd.DataFrame:
    """Each factor the sheet's computation used, once, with how many rows used it:
    ``purpose`` is 'computed' (the rows' emissions) or 'checked' (against the workbook's)."""
    if rows.result is None or rows.requests.empty:
        return pd.DataFrame(columns=list(FACTOR_COLUMNS))
    counts = rows.result["group"].value_counts()
    records: dict[tuple, dict] = {}
    for group, estimate in rows.estimates.items():
        used = int(counts.get(group, 0))
        if not used:
            continue
        for use in estimate.factors:
            key = (estimate.activity, use.key, use.gas, use.role, use.value, use.period, use.user)
            record = records.setdefault(key, {
                "sheet": sheet, "purpose": purpose, ACTIVITY: estimate.activity,
                "key": use.key, "gas": use.gas, "role": use.role, "value": use.value,
                "unit": use.unit, "source": use.source, "url": use.url,
                "validity": use.period, "user": use.user, "rows": 0,
                "role_en": use.role_en, "source_pt": use.source_in("pt"),
            })  # fmt: skip
            record["rows"] += used
    return pd.DataFrame(list(records.values()), columns=list(FACTOR_COLUMNS))
