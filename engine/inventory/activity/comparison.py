"""The workbook's own emissions against ours: a table that carries its own emissions as well
as activity data keeps them as the headline; ours are computed beside them and compared per
row (``activity`` evidence of the sheet's ``SheetCheck``). A difference beyond 2% is a
finding that names the factors used; a figure whose implied factor falls outside the
activity's physical band (``plausibility``) is a finding on the sheet's column.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from engine.emissions import FactorUse
from engine.emissions.units import conversion_factor
from engine.gases.gwp import BIOGENIC_CO2, Ch4Origin, GwpSet, gwp
from engine.inventory import fields as F
from engine.inventory.activity import findings as texts
from engine.inventory.activity.canonical import factor_uses, gas_columns
from engine.inventory.activity.compute import ActivityRows
from engine.inventory.activity.matching import activity_names, by_id
from engine.inventory.findings import Finding
from engine.inventory.plausibility import band_for, judge
from engine.inventory.reconcile import Evidence, differ
from engine.texts import Both, Texts

_TEXTS = Texts(
    "engine.inventory.activity.comparison",
    {
        "activity": {
            "pt": "As emissões da planilha conferem com o cálculo pelos dados de atividade "
            "(biblioteca de fatores, tolerância de 2%) em {agreeing} de {total} linhas.",
            "en": "The workbook's emissions match the computation from activity data (factor "
            "library, 2% tolerance) in {agreeing} of {total} rows.",
        },
    },
)

TOLERANCE = 0.02  # ours against the workbook's, per row: beyond this a factor differs
_ABSOLUTE_T = 0.01  # a workbook rounds each cell; below this no difference is meaningful
_MAX_ROW_FINDINGS = 20  # per sheet: the rest are counted in one more finding


def _agrees(ours: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    scale = np.maximum(np.abs(ours), np.abs(theirs))
    return np.abs(ours - theirs) <= np.maximum(_ABSOLUTE_T, TOLERANCE * scale)


def _in_scope(frame: pd.DataFrame) -> pd.Series:
    """t CO2e per (row, gas) outside the biogenic memo: Montreal gases count at their CO2e,
    as a workbook states them."""
    rows = frame[frame[F.REPORTING] != F.BIOGENIC]
    value = rows[F.EMISSIONS_TCO2E].fillna(0.0) + rows[F.MEMO_TCO2E].fillna(0.0)
    return value.groupby([rows["row"], rows[F.GAS].fillna("")]).sum()


def _our_figures(
    rows: ActivityRows, gwp_set: GwpSet, ch4_origin: Ch4Origin
) -> tuple[pd.Series, pd.Series]:
    """Our t CO2e per (row, gas), Montreal gases included at their CO2e as a workbook
    states them, and our biogenic CO2 per row: straight from the batch's columns."""
    result, estimates = rows.result, rows.estimates
    if result is None or rows.requests.empty:
        return pd.Series(dtype=float), pd.Series(dtype=float)
    sheet_rows = rows.requests["row"].to_numpy()
    groups = result["group"].to_numpy()
    parts, biogenic = [], pd.Series(dtype=float)
    for gas, column, applies in gas_columns(result, estimates):
        mask = np.isin(groups, applies)
        values = result[column].to_numpy(dtype=float)[mask]
        if gas == BIOGENIC_CO2:
            biogenic = pd.Series(values).groupby(sheet_rows[mask]).sum()
            continue
        weight = gwp(gas, gwp_set, ch4_origin)
        parts.append(
            pd.DataFrame(
                {
                    "row": sheet_rows[mask],
                    F.GAS: gas,
                    "t": values * (np.nan if weight is None else weight),
                }
            )
        )
    if not parts:
        return pd.Series(dtype=float), biogenic
    long = pd.concat(parts, ignore_index=True)
    return long.groupby(["row", F.GAS])["t"].sum(), biogenic


def compare(
    rows: ActivityRows, theirs: pd.DataFrame, sheet: str, gwp_set: GwpSet, ch4_origin: Ch4Origin
) -> tuple[Evidence | None, list[Finding]]:
    """Per row, our t CO2e against the workbook's, over the gases it reports; biogenic CO2
    apart. Market-based Scope 2 rows are not compared (ours is location-based)."""
    our_gas, our_bio = _our_figures(rows, gwp_set, ch4_origin)
    if our_gas.empty or theirs.empty:
        return None, []
    their_gas = _in_scope(theirs)
    # Gases both sides name (a per-gas workbook): only those are compared. A workbook with
    # one CO2e figure per row (no gas) is compared with all of ours.
    common = their_gas.index.intersection(our_gas.index)
    common = common[common.get_level_values(1) != ""]
    common_rows = common.get_level_values(0)
    theirs_common = their_gas.loc[common].groupby(common_rows).sum()
    ours_common = our_gas.loc[common].groupby(common_rows).sum()
    theirs_total = their_gas.groupby(level=0).sum()
    ours_total = our_gas.groupby(level=0).sum()
    market = set(theirs.loc[theirs[F.REPORTING] == F.SCOPE2_MARKET, "row"])
    compared = ours_total.index.intersection(theirs_total.index)
    compared = compared[~compared.isin(list(market))] if market else compared
    if not len(compared):
        return None, []
    has_common = compared.isin(theirs_common.index)
    ours_v = np.where(has_common, ours_common.reindex(compared).to_numpy(),
                      ours_total.reindex(compared).to_numpy())  # fmt: skip
    theirs_v = np.where(has_common, theirs_common.reindex(compared).to_numpy(),
                        theirs_total.reindex(compared).to_numpy())  # fmt: skip
    biogenic = theirs[F.REPORTING] == F.BIOGENIC
    their_bio = theirs.loc[biogenic, F.BIOGENIC_CO2].groupby(theirs.loc[biogenic, "row"]).sum()
    bio_t = their_bio.reindex(compared).to_numpy(dtype=float)
    bio_o = our_bio.reindex(compared).fillna(0.0).to_numpy(dtype=float)
    hits = _agrees(ours_v, theirs_v) & (np.isnan(bio_t) | _agrees(bio_o, bio_t))
    row_numbers = [int(r) for r in compared]
    bad = [r for r, ok in zip(row_numbers, hits, strict=True) if not ok]
    findings = []
    position = {r: i for i, r in enumerate(row_numbers)}
    for row in bad[:_MAX_ROW_FINDINGS]:
        i = position[row]
        numbers = (ours_v[i], theirs_v[i], bio_o[i], bio_t[i])
        findings.append(_difference(rows, row, numbers, their_gas, our_gas, sheet))
    if len(bad) > _MAX_ROW_FINDINGS:
        findings.append(texts.more_rows_differ(tuple(bad[_MAX_ROW_FINDINGS:]), sheet))
    agreeing, total = int(hits.sum()), len(row_numbers)
    said = _TEXTS.both("activity", agreeing=agreeing, total=total) + (differ(bad) if bad else "")
    findings.extend(_implausible(rows, their_gas, compared, sheet))
    # Kind 'activity': the workbook against the factor library, never the workbook against
    # itself; a difference is a finding on the factors, not a conflict of the sheet's reading.
    return Evidence("activity", total, agreeing, said.pt, said.en, tuple(bad)), findings


def _row_quantities(rows: ActivityRows) -> pd.DataFrame:
    """Per sheet row: its activity, its unit (None when months differ in unit) and the
    quantity of all its months (computed once per table: every differing row asks)."""
    if rows.quantities is None:
        rows.quantities = _quantities_of(rows)
    return rows.quantities


def _quantities_of(rows: ActivityRows) -> pd.DataFrame:
    requests = rows.requests
    grouped = requests.groupby("row", sort=False)
    frame = grouped.agg(activity=("activity", "first"), unit=("unit", "first"),
                        quantity=("quantity", "sum"))  # fmt: skip
    frame.loc[grouped["unit"].nunique() > 1, "unit"] = None
    return frame


def _stated_basis(their_gas: pd.Series, row: int) -> tuple[str, float]:
    """What a row's implied factor is judged on: the workbook's fossil CO2 when it gives one,
    else all its CO2e (a refrigerant's, a single-figure row's)."""
    if (row, "CO2") in their_gas.index:
        return "CO2", float(their_gas.loc[(row, "CO2")])
    return "", float(their_gas.loc[row].sum())


_TRACE_GASES = frozenset({"CH4", "N2O"})


def _stated_bases(their_gas: pd.Series, rows: pd.Index) -> tuple[np.ndarray, np.ndarray]:
    """``_stated_basis`` for many rows at once: one pass over the series, not two lookups a
    row (100,000 rows took 28 s that way)."""
    frame = their_gas.rename("value").reset_index()
    frame.columns = ["row", "gas", "value"]
    co2 = frame[frame["gas"] == "CO2"].groupby("row")["value"].sum()
    # A row of a long table that holds only a fuel's CH4 or N2O says nothing of its CO2:
    # judged against the CO2 band, 37,000 L of diesel would "imply" 0.02 kg/L.
    # (one vectorised "any gas outside CH4/N2O" per row: a Python lambda per group took 5 s
    # on 100,000 rows)
    trace = ~(~frame["gas"].isin(_TRACE_GASES)).groupby(frame["row"]).any()
    frame = frame[~frame["row"].map(trace).fillna(False).astype(bool)]
    everything = frame.groupby("row")["value"].sum()
    has_co2 = rows.isin(co2.index)
    gas = np.where(has_co2, "CO2", "")
    stated = np.where(
        has_co2,
        co2.reindex(rows).to_numpy(dtype=float),
        everything.reindex(rows).to_numpy(dtype=float),
    )
    return gas, stated


def _implausible(
    rows: ActivityRows, their_gas: pd.Series, compared: pd.Index, sheet: str
) -> list[Finding]:
    """Per activity and unit, the factor the workbook's figures imply against the physical
    band (``plausibility``): 1 t of CO2 per litre is a misread unit whatever the row checks
    say. The finding names the sheet, the column and the implied factor."""
    quantities = _row_quantities(rows).reindex(compared).dropna(subset=["unit", "activity"])
    if quantities.empty:
        return []
    gas, stated = _stated_bases(their_gas, quantities.index)
    quantities["gas"] = gas
    quantities["stated"] = stated
    quantities = quantities[quantities["stated"].notna()]
    findings = []
    for (activity, unit, gas), group in quantities.groupby(["activity", "unit", "gas"]):
        judged = judge(str(activity), str(unit), group["quantity"], group["stated"],
                       gas="" if gas else "CO2e")  # fmt: skip
        if judged is None or judged.plausible:
            continue
        column = rows.emission_columns.get(str(gas)) or ", ".join(
            c for g, c in rows.emission_columns.items() if g or not gas
        )
        name = activity_names(by_id().get(str(activity)), str(activity))
        listed = tuple(int(r) for r in group.index)
        findings.append(texts.implausible(sheet, column, name, judged, listed))
    return findings


def _factor_comparison(rows: ActivityRows, row: int, their_gas, our_gas, estimate) -> Both:
    """'A planilha usa 2,07 kg CO2/m³ para Gás natural; a biblioteca, 1,89.' per language,
    or empty texts when the row's months differ in unit."""
    quantities = _row_quantities(rows)
    unit, quantity = quantities.at[row, "unit"], float(quantities.at[row, "quantity"])
    gas, theirs = _stated_basis(their_gas, row)
    mine = our_gas.loc[row]
    stated_gases = [g for g in their_gas.loc[row].index if g in mine.index]
    # the same gases on both sides: a long table's CH4 row against our CH4, not our CO2e
    if gas:
        ours = float(mine.get("CO2", np.nan))
    else:  # their one CO2e figure against all of ours, their CH4 row against our CH4
        ours = float(mine.reindex(stated_gases).sum() if stated_gases else mine.sum())
    if unit is None or not quantity or not np.isfinite(ours):
        return Both("", "")
    band = band_for(estimate.activity, str(unit))
    shown_unit, mass, per = str(unit), "kg", 1.0
    if band is not None:
        shown_unit, mass = band.unit, band.mass
        per = conversion_factor(str(unit), "m**3" if band.unit == "m³" else band.unit)
    scale = 1000.0 if mass == "kg" else 1.0
    theirs_f, ours_f = theirs * scale / (quantity * per), ours * scale / (quantity * per)
    label = f"{mass} {gas or 'CO2e'}/{shown_unit}"
    return texts.implied_factors(theirs_f, ours_f, label, estimate.name)


def _difference(rows, row, numbers, their_gas, our_gas, sheet) -> Finding:  # noqa: PLR0917
    """The finding of a row beyond the tolerance (``findings.factor_differs``): the gases
    that differ, biogenic CO2 among them, and the factors that made them."""
    _, _, bio_o, bio_t = numbers
    request = rows.requests[rows.requests["row"] == row].iloc[0]
    group = int(rows.result.loc[request.name, "group"])
    estimate = rows.estimates[group]
    quantity = float(rows.requests.loc[rows.requests["row"] == row, "quantity"].sum())
    gases = _differing_gases(row, their_gas, our_gas)
    if not np.isnan(bio_t) and not _agrees(np.array([bio_o]), np.array([bio_t]))[0]:
        gases.append(BIOGENIC_CO2)
    uses: list[FactorUse] = []
    for gas in gases:
        uses.extend(u for u in factor_uses(estimate, gas) if u not in uses)
    implied = _factor_comparison(rows, row, their_gas, our_gas, estimate)
    return texts.factor_differs(
        row, estimate.name, quantity, request["unit"], numbers, gases, uses, implied, sheet
    )


def _differing_gases(row, their_gas, our_gas) -> list[str]:
    """The gases whose figures differ by more than the tolerance; with no gas split in the
    workbook, the gas that weighs most in ours."""
    theirs = their_gas.loc[row] if row in their_gas.index.get_level_values(0) else None
    mine = our_gas.loc[row]
    order = {"CO2": 0, "CH4": 1, "N2O": 2}
    common = sorted((g for g in mine.index if theirs is not None and g in theirs.index),
                    key=lambda g: (order.get(g, 3), g))  # fmt: skip
    if common:
        differ = [
            g for g in common
            if not _agrees(np.array([mine[g]]), np.array([theirs[g]]))[0]
        ]  # fmt: skip
        if differ:
            return differ
    return [str(mine.abs().idxmax())] if len(mine) else []
