"""Aggregates over the canonical table: totals, Pareto, year over year, quality checks, and the
facts beside them (gas masses, other GWP sets, installations by scope)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from engine.gases.gwp import (
    BIOGENIC_CO2,
    DEFAULT_CH4_ORIGIN,
    Ch4Origin,
    gwp,
    is_montreal,
    split_blend,
)
from engine.inventory import fields as F
from engine.inventory.findings import Finding, rows_text
from engine.inventory.frames import map_unique
from engine.texts import Texts

# A quality finding's words, by its code.
_TEXTS = Texts(
    "engine.inventory.analytics",
    {
        "non_positive_emissions": {
            "pt": "Emissões negativas ou zeradas nas linhas {rows}.",
            "en": "Negative or zero emissions in rows {rows}.",
        },
        "gas_without_gwp": {
            "pt": "Gases sem GWP conhecido (fora do total): {names}; linhas {rows}.",
            "en": "Gases without a known GWP (left out of the total): {names}; rows {rows}.",
        },
        "unknown_scope": {
            "pt": "Escopo desconhecido nas linhas {rows}.",
            "en": "Unknown scope in rows {rows}.",
        },
        "missing_unit": {
            "pt": "Quantidade sem unidade de medida nas linhas {rows}.",
            "en": "Quantity without a unit in rows {rows}.",
        },
        "duplicated_rows": {
            "pt": "Linhas repetidas (contadas como estão): {rows}.",
            "en": "Duplicated rows (counted as they are): {rows}.",
        },
    },
)

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
    """Per sheet, in the order the sheets first appear: the checks' masks are computed once
    over the whole table (per sheet they cost about 20 ms a sheet in pandas overhead)."""
    codes, sheets = pd.factorize(table["sheet"], sort=False)  # NaN: -1, left out as groupby does
    if not len(table):
        return []
    emissions = table[F.EMISSIONS_TCO2E]
    counted = table[F.REPORTING] == F.IN_INVENTORY if F.REPORTING in table else True
    no_gwp = (table["basis"] == "computed") & table["gwp"].isna() & (table[F.GAS] != BIOGENIC_CO2)
    masks = {
        "non_positive": ((emissions <= 0) & counted).to_numpy(bool),
        "no_gwp": no_gwp.to_numpy(bool),
        "unknown_scope": table[F.SCOPE].isna().to_numpy(bool),
        # The sheet column is in the comparison, so a row repeats only within its sheet.
        "duplicated": table.drop(columns=["row"]).duplicated(keep="first").to_numpy(bool),
    }
    if F.UNIT in table:
        unit_given = table[F.UNIT].notna()
        masks["missing_unit"] = (table[F.QUANTITY].notna() & ~unit_given).to_numpy(bool)
        masks["unit_given"] = unit_given.to_numpy(bool)
    row_numbers = table["row"].to_numpy()
    gases = table[F.GAS]
    order = np.argsort(codes, kind="stable")
    bounds = np.searchsorted(codes[order], np.arange(len(sheets) + 1))
    findings: list[Finding] = []
    for code, sheet in enumerate(sheets):
        where = order[bounds[code] : bounds[code + 1]]
        found = {name: where[mask[where]] for name, mask in masks.items()}
        findings.extend(_sheet_findings(str(sheet), found, row_numbers, gases))
    return findings


def _sheet_findings(
    sheet: str, found: dict[str, np.ndarray], row_numbers: np.ndarray, gases: pd.Series
) -> list[Finding]:
    """``found``: per check, the positions of the sheet's rows it flags."""

    def rows(name: str) -> tuple[int, ...]:
        return tuple(sorted({int(r) for r in row_numbers[found[name]]}))

    result = []

    def flag(code: str, flagged: tuple[int, ...], **values: object) -> None:
        said = _TEXTS.both(code, rows=rows_text(flagged), **values)
        result.append(Finding(code, said.pt, said.en, sheet, flagged))

    non_positive = rows("non_positive")
    if non_positive:
        flag("non_positive_emissions", non_positive)
    if len(found["no_gwp"]):
        names = ", ".join(sorted({str(g) for g in gases.iloc[found["no_gwp"]].fillna("?")}))
        flag("gas_without_gwp", rows("no_gwp"), names=names)
    unknown_scope = rows("unknown_scope")
    if unknown_scope:
        flag("unknown_scope", unknown_scope)
    missing_unit = rows("missing_unit") if "missing_unit" in found else ()
    if missing_unit and len(found["unit_given"]):
        flag("missing_unit", missing_unit)
    duplicated = rows("duplicated")
    if duplicated:
        flag("duplicated_rows", duplicated)
    return result


# --- facts the agents read beside the totals: masses, other GWP sets, installations ----------

SCOPE2_LOCATION, SCOPE2_MARKET = "2", "2m"  # facility_scope's columns for Scope 2's methods


def _scope(value: object) -> str:
    """'1', 1.0 and '1.0' are Scope 1; anything else is an unknown scope."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return UNKNOWN
    text = str(value).strip()
    text = text[:-2] if text.endswith(".0") else text
    return text if text in ("1", "2", "3") else UNKNOWN


def gas_masses(table: pd.DataFrame) -> pd.DataFrame:
    """Per gas of the rows in the total: t of gas, t CO2e, how many rows give a mass.

    Columns: ``gas``, ``t_gas`` (NaN when no row gives one), ``mass_rows``, ``rows``,
    ``tco2e``, ``share``; largest t CO2e first. A row reported only in CO2e has no mass: its
    gas counts its rows but not its tonnes.
    """
    counted = _counted(table)
    gases = counted[F.GAS].fillna(UNKNOWN) if F.GAS in counted else UNKNOWN
    mass = counted.get(F.EMISSIONS_T_GAS, np.nan)
    frame = pd.DataFrame({"gas": gases, "t_gas": mass, "tco2e": counted[F.EMISSIONS_TCO2E]})
    grouped = frame.groupby("gas", sort=False).agg(
        t_gas=("t_gas", lambda s: s.sum(min_count=1)),
        mass_rows=("t_gas", "count"),
        rows=("tco2e", "size"),
        tco2e=("tco2e", lambda s: s.sum(min_count=1)),
    )
    grouped["tco2e"] = grouped["tco2e"].fillna(0.0)
    total = grouped["tco2e"].sum()
    result = grouped.sort_values("tco2e", ascending=False, kind="stable").reset_index()
    result["share"] = result["tco2e"] / total if total else 0.0
    return result


def memo_gases(table: pd.DataFrame) -> pd.DataFrame:
    """What stays beside the total, per kind and gas: Montreal Protocol gases (and the
    Montreal part of a blend counted in the total) and market-based Scope 2. Biogenic CO2 is
    one figure (``Inventory.biogenic_co2_t``). Columns: ``reporting``, ``gas``, ``t_gas``,
    ``memo_tco2e``; a blend's Montreal part has no mass of its own (NaN)."""
    columns = ["reporting", "gas", "t_gas", "memo_tco2e"]
    if F.REPORTING not in table:
        return pd.DataFrame(columns=columns)
    kind = table[F.REPORTING]
    apart = kind.isin((F.MONTREAL, F.SCOPE2_MARKET))
    blend = (kind == F.IN_INVENTORY) & (table[F.MEMO_TCO2E] > 0)
    frames = [
        pd.DataFrame({
            "reporting": kind[apart], "gas": table.loc[apart, F.GAS].fillna(UNKNOWN),
            "t_gas": table.loc[apart, F.EMISSIONS_T_GAS],
            "memo_tco2e": table.loc[apart, F.MEMO_TCO2E],
        }),
        pd.DataFrame({
            "reporting": F.MONTREAL, "gas": table.loc[blend, F.GAS].fillna(UNKNOWN),
            "t_gas": np.nan, "memo_tco2e": table.loc[blend, F.MEMO_TCO2E],
        }),
    ]  # fmt: skip
    frame = pd.concat([f for f in frames if len(f)]) if apart.any() or blend.any() else None
    if frame is None:
        return pd.DataFrame(columns=columns)
    grouped = frame.groupby(["reporting", "gas"], sort=False).agg(
        t_gas=("t_gas", lambda s: s.sum(min_count=1)), memo_tco2e=("memo_tco2e", "sum")
    )
    return grouped.sort_values("memo_tco2e", ascending=False, kind="stable").reset_index()


@dataclass(frozen=True)
class SetTotal:
    """The total of the same rows under one GWP set: the masses times that set's GWPs."""

    gwp_set: str
    total_tco2e: float
    by_scope: dict[str, float]  # '1', '2' (location-based), '3', UNKNOWN
    montreal_tco2e: float  # beside the total
    scope2_market_tco2e: float | None  # beside Scope 2, never added
    recomputed_rows: int  # rows whose mass was multiplied by this set's GWP
    fixed_rows: int  # rows the workbook gave in t CO2e only: the same under every set
    without_gwp: tuple[str, ...]  # gases this set has no GWP for: outside its total
    rescaled_rows: int = 0  # rows in t CO2e of one named gas: × this set's GWP / the stated


def total_under(
    table: pd.DataFrame,
    gwp_set: str,
    ch4_origin: Ch4Origin = DEFAULT_CH4_ORIGIN,
    stated: str | None = None,
) -> SetTotal:
    """``table``'s total as if computed with ``gwp_set``: each gas mass times its GWP, the
    Montreal part of a blend and market-based Scope 2 beside it, biogenic CO2 outside.

    A row the workbook gives only in t CO2e of one named gas ("SF6: 28,2 t CO2e") was
    weighed with the ``stated`` set (the inventory's): its mass is that figure over the
    stated GWP, so under another set it is the figure times the GWP ratio. Under the stated
    set itself, and for rows with no gas or a family of gases, the figure stays as given."""
    kind = table[F.REPORTING] if F.REPORTING in table else pd.Series(F.IN_INVENTORY, table.index)
    gas = table[F.GAS] if F.GAS in table else pd.Series(None, index=table.index, dtype=object)
    mass = table[F.EMISSIONS_T_GAS]
    by_mass = (
        table["basis"].isin(("computed", "activity"))
        & mass.notna()
        & gas.notna()
        & (gas != BIOGENIC_CO2)
        & (kind != F.BIOGENIC)
    )
    factor = pd.to_numeric(
        map_unique(gas, lambda g: gwp(g, gwp_set, ch4_origin) if isinstance(g, str) else None),
        errors="coerce",
    )
    montreal_part = pd.to_numeric(
        map_unique(gas, lambda g: _montreal_part(g, gwp_set) if isinstance(g, str) else 0.0),
        errors="coerce",
    ).fillna(0.0)
    full = mass * factor
    ours = (full * (1 - montreal_part)).where(kind == F.IN_INVENTORY, 0.0)
    in_total = ours.where(by_mass, table[F.EMISSIONS_TCO2E])
    rescaled = pd.Series(False, index=table.index)
    if stated is not None and stated != gwp_set:
        given = pd.to_numeric(
            map_unique(gas, lambda g: gwp(g, stated, ch4_origin) if isinstance(g, str) else None),
            errors="coerce",
        )
        rescaled = (
            ~by_mass
            & (kind == F.IN_INVENTORY)
            & gas.notna()
            & ~gas.isin(("CO2", BIOGENIC_CO2))
            & (montreal_part == 0)
            & table[F.EMISSIONS_TCO2E].notna()
            & factor.notna()
            & (given > 0)
        )
        in_total = in_total.where(~rescaled, table[F.EMISSIONS_TCO2E] * factor / given)
    memo = table[F.MEMO_TCO2E] if F.MEMO_TCO2E in table else pd.Series(0.0, index=table.index)
    montreal_memo = (full * montreal_part).where(by_mass, memo)
    market_memo = full.where(by_mass, memo)
    missing = by_mass & factor.isna()
    scopes = map_unique(table[F.SCOPE], _scope) if F.SCOPE in table else UNKNOWN
    counted = kind == F.IN_INVENTORY
    by_scope = in_total[counted].groupby(pd.Series(scopes, index=table.index)[counted]).sum()
    montreal = montreal_memo[(kind == F.MONTREAL) | (counted & (montreal_part > 0))].sum()
    market_rows = kind == F.SCOPE2_MARKET
    return SetTotal(
        gwp_set=gwp_set,
        total_tco2e=float(in_total[counted].sum()),
        by_scope={str(k): float(v) for k, v in by_scope.items()},
        montreal_tco2e=float(montreal),
        scope2_market_tco2e=float(market_memo[market_rows].sum()) if market_rows.any() else None,
        recomputed_rows=int((by_mass & counted).sum()),
        fixed_rows=int((~by_mass & ~rescaled & counted & (gas != BIOGENIC_CO2)).sum()),
        without_gwp=tuple(sorted({str(g) for g in gas[missing]})),
        rescaled_rows=int((rescaled & counted).sum()),
    )


def _montreal_part(gas: str, gwp_set: str) -> float:
    """The share of a gas's CO2e that comes from Montreal Protocol substances in a set."""
    parts = [(part, share, gwp(part, gwp_set) or 0.0) for part, share in split_blend(gas)]
    total = sum(share * value for _, share, value in parts)
    if not total:
        return 1.0 if is_montreal(gas) else 0.0
    return sum(share * value for part, share, value in parts if is_montreal(part)) / total


def facility_scope(table: pd.DataFrame) -> pd.DataFrame:
    """t CO2e per installation and scope: the unit the SBCE applies to (Scope 1 of each
    installation, never the company's sum). Columns: ``facility``, '1', '2' (location-based,
    in the total), '2m' (market-based, beside it, never added), '3', UNKNOWN (a scope not
    given), ``total`` (the scopes in the inventory's total); largest total first."""
    kind = table[F.REPORTING] if F.REPORTING in table else pd.Series(F.IN_INVENTORY, table.index)
    rows = table[kind.isin((F.IN_INVENTORY, F.SCOPE2_MARKET))]
    market = kind[rows.index] == F.SCOPE2_MARKET
    facility = rows[F.FACILITY].fillna(UNKNOWN) if F.FACILITY in rows else UNKNOWN
    scope = pd.Series(map_unique(rows[F.SCOPE], _scope) if F.SCOPE in rows else UNKNOWN,
                      index=rows.index).where(~market, SCOPE2_MARKET)  # fmt: skip
    memo = rows.get(F.MEMO_TCO2E, 0.0)
    value = rows[F.EMISSIONS_TCO2E].where(~market, memo).fillna(0.0)
    frame = pd.DataFrame({"facility": facility, "scope": scope, "t": value})
    pivot = frame.pivot_table(index="facility", columns="scope", values="t", aggfunc="sum")
    for column in ("1", SCOPE2_LOCATION, SCOPE2_MARKET, "3", UNKNOWN):
        if column not in pivot:
            pivot[column] = np.nan
    pivot = pivot[["1", SCOPE2_LOCATION, SCOPE2_MARKET, "3", UNKNOWN]]
    pivot["total"] = pivot[["1", SCOPE2_LOCATION, "3", UNKNOWN]].sum(axis=1, min_count=1)
    pivot["total"] = pivot["total"].fillna(0.0)
    result = pivot.sort_values("total", ascending=False, kind="stable").reset_index()
    result.columns.name = None
    return result


def _counted(table: pd.DataFrame) -> pd.DataFrame:
    if F.REPORTING in table:
        return table[table[F.REPORTING] == F.IN_INVENTORY]
    return table
