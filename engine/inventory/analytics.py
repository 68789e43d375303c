"""Aggregates over the canonical table: totals, Pareto, year over year, quality checks."""

from __future__ import annotations

import pandas as pd

from engine.inventory import fields as F
from engine.inventory.findings import Finding, rows_text
from engine.inventory.gwp import BIOGENIC_CO2

GROUPABLE = (F.SCOPE, F.GAS, F.CATEGORY, F.FACILITY, F.SOURCE, F.FUEL, F.YEAR)
UNKNOWN = "(não informado)"


def totals_by(table: pd.DataFrame, field: str) -> pd.DataFrame:
    """Columns: the field's value, ``tco2e``, ``share`` (of the total, 0..1); largest first."""
    if field not in GROUPABLE:
        raise ValueError(f"cannot group by {field!r}; use one of {', '.join(GROUPABLE)}")
    values = (
        table[field].fillna(UNKNOWN) if field in table else pd.Series(UNKNOWN, index=table.index)
    )
    counted = table[F.REPORTING] == F.IN_INVENTORY if F.REPORTING in table else None
    if counted is not None and not counted.all():  # memo rows are not a share of the total
        table, values = table[counted], values[counted]
    grouped = table[F.EMISSIONS_TCO2E].groupby(values).sum(min_count=1).fillna(0.0)
    total = grouped.sum()
    result = grouped.sort_values(ascending=False).rename("tco2e").reset_index()
    result.columns = [field, "tco2e"]
    result["share"] = result["tco2e"] / total if total else 0.0
    return result


def with_gwp_set(frame: pd.DataFrame, gwp_set: str) -> pd.DataFrame:
    """Every total carries the GWP set it was computed with."""
    frame.attrs["gwp_set"] = gwp_set
    return frame


def pareto(table: pd.DataFrame, top: int | None = None) -> pd.DataFrame:
    """Sources (with facility, fuel and gas) by t CO2e, with cumulative share."""
    keys = [F.SOURCE, F.FACILITY, F.FUEL, F.GAS]
    if F.REPORTING in table:
        table = table[table[F.REPORTING] == F.IN_INVENTORY]
    frame = table[keys].fillna(UNKNOWN)
    grouped = table[F.EMISSIONS_TCO2E].groupby([frame[k] for k in keys]).sum(min_count=1)
    grouped = grouped.dropna().sort_values(ascending=False)
    total = grouped.sum()
    result = grouped.rename("tco2e").reset_index()
    result["share"] = result["tco2e"] / total if total else 0.0
    result["cumulative_share"] = result["share"].cumsum()
    return result.head(top) if top else result


def year_over_year(table: pd.DataFrame) -> pd.DataFrame:
    """t CO2e per year and the change from the year before; empty with fewer than 2 years."""
    years = table[F.YEAR].dropna()
    if years.nunique() < 2:
        return pd.DataFrame(columns=["year", "tco2e", "change", "change_pct"])
    rows = table.loc[years.index]
    grouped = rows.groupby(rows[F.YEAR].astype(str))[F.EMISSIONS_TCO2E].sum().sort_index()
    result = grouped.rename("tco2e").reset_index().rename(columns={F.YEAR: "year"})
    result["change"] = result["tco2e"].diff()
    result["change_pct"] = result["tco2e"].pct_change()
    return result


def quality_findings(table: pd.DataFrame) -> list[Finding]:
    findings: list[Finding] = []
    for sheet, rows in table.groupby("sheet", sort=False):
        findings.extend(_sheet_findings(str(sheet), rows))
    return findings


def _sheet_findings(sheet: str, rows: pd.DataFrame) -> list[Finding]:
    found = []
    emissions = rows[F.EMISSIONS_TCO2E]
    counted = rows[F.REPORTING] == F.IN_INVENTORY if F.REPORTING in rows else True
    non_positive = _rows(rows[(emissions <= 0) & counted])
    if non_positive:
        found.append(Finding(
            "non_positive_emissions",
            f"Emissões negativas ou zeradas nas linhas {rows_text(non_positive)}.",
            f"Negative or zero emissions in rows {rows_text(non_positive)}.",
            sheet, non_positive,
        ))  # fmt: skip
    no_gwp = rows[
        (rows["basis"] == "computed") & rows["gwp"].isna() & (rows[F.GAS] != BIOGENIC_CO2)
    ]
    if len(no_gwp):
        gases = ", ".join(sorted({str(g) for g in no_gwp[F.GAS].fillna("?")}))
        found.append(Finding(
            "gas_without_gwp",
            f"Gases sem GWP conhecido (fora do total): {gases}; linhas {rows_text(_rows(no_gwp))}.",
            f"Gases without a known GWP (left out of the total): {gases}; rows "
            f"{rows_text(_rows(no_gwp))}.",
            sheet, _rows(no_gwp),
        ))  # fmt: skip
    unknown_scope = _rows(rows[rows[F.SCOPE].isna()])
    if unknown_scope:
        found.append(Finding(
            "unknown_scope",
            f"Escopo desconhecido nas linhas {rows_text(unknown_scope)}.",
            f"Unknown scope in rows {rows_text(unknown_scope)}.",
            sheet, unknown_scope,
        ))  # fmt: skip
    missing_unit = (
        _rows(rows[rows[F.QUANTITY].notna() & rows[F.UNIT].isna()]) if F.UNIT in rows else ()
    )
    if missing_unit and rows[F.UNIT].notna().any():
        found.append(Finding(
            "missing_unit",
            f"Quantidade sem unidade de medida nas linhas {rows_text(missing_unit)}.",
            f"Quantity without a unit in rows {rows_text(missing_unit)}.",
            sheet, missing_unit,
        ))  # fmt: skip
    duplicated = _rows(rows[rows.drop(columns=["row"]).duplicated(keep="first")])
    if duplicated:
        found.append(Finding(
            "duplicated_rows",
            f"Linhas repetidas (contadas como estão): {rows_text(duplicated)}.",
            f"Duplicated rows (counted as they are): {rows_text(duplicated)}.",
            sheet, duplicated,
        ))  # fmt: skip
    return found


def _rows(frame: pd.DataFrame) -> tuple[int, ...]:
    return tuple(sorted({int(r) for r in frame["row"]}))
