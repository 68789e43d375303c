"""From a found table to canonical rows: one row per source and gas, with t CO2e.

Per-gas mass columns ("CO2 (t)", "CH4 (kg)") are melted into rows and converted with the
selected GWP set; a reported CO2e column is used as is where no gas mass exists, and is
otherwise kept to cross-check the computed value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from engine.inventory import fields as F
from engine.inventory.findings import Finding, rows_text
from engine.inventory.gwp import BIOGENIC_CO2, GwpSet, canonical_gas, gwp
from engine.inventory.table import SheetTable
from engine.inventory.units import decimal_votes, mass_factor, to_numbers

CANONICAL_COLUMNS: tuple[str, ...] = (
    "sheet", "row", F.SCOPE, F.CATEGORY, F.SOURCE, F.FACILITY, F.FUEL, F.QUANTITY, F.UNIT,
    F.GAS, F.EMISSIONS_T_GAS, F.EMISSIONS_TCO2E, F.BIOGENIC_CO2, F.YEAR, "gwp", "basis",
)  # fmt: skip
_DESCRIPTIVE = (F.SCOPE, F.CATEGORY, F.SOURCE, F.FACILITY, F.FUEL, F.UNIT, F.GAS, F.YEAR)
_FORMULA_LIKE = re.compile(r"^[=+\-@\t\r]")
_RELATIVE_TOLERANCE = 0.005


@dataclass
class SheetResult:
    table: pd.DataFrame | None  # canonical rows; None when the sheet holds no emissions
    mapping: dict[str, str | None]
    findings: list[Finding]


def map_columns(table: SheetTable, overrides: dict[str, str | None]) -> dict[str, str | None]:
    """Original column -> canonical field. Each plain field goes to its best column only."""
    mapping: dict[str, str | None] = {}
    priority: dict[str, int] = {}
    for column in table.columns:
        match = F.match_header(column)
        mapping[column] = overrides.get(column, match.field if match else None)
        priority[column] = 10_000 if column in overrides else (match.priority if match else 0)
    if F.UNIT not in mapping.values():  # a facility column that holds units is the unit column
        for column, mapped in mapping.items():
            if mapped == F.FACILITY and column not in overrides and _holds_units(table, column):
                mapping[column] = F.UNIT
    holders: dict[str, str] = {}
    for column, mapped in mapping.items():
        if mapped is None or ":" in mapped:
            continue
        holder = holders.get(mapped)
        loser = column if holder is not None and priority[holder] >= priority[column] else holder
        if loser is not None:
            mapping[loser] = None
        if loser != column:
            holders[mapped] = column
    if F.EMISSIONS_TCO2E in holders:  # gas columns with no mass unit beside a CO2e total
        for column, mapped in mapping.items():
            gas = F.mapped_gas(mapped) if F.base_field(mapped) == F.EMISSIONS_T_GAS else None
            if gas and mass_factor(column) is None and column not in overrides:
                mapping[column] = f"{F.EMISSIONS_TCO2E}:{gas}"
    return mapping


_UNIT_WORDS = frozenset({"l", "litros", "m3", "m³", "kwh", "mwh", "gj", "km", "un", "unid"})


def _holds_units(table: SheetTable, column: str) -> bool:
    values = table.body[column].dropna().astype(str).str.strip().head(200)
    if values.empty:
        return False
    units = values.map(lambda v: mass_factor(v) is not None or v.lower() in _UNIT_WORDS)
    return bool(units.mean() > 0.8)


@dataclass(frozen=True)
class _Roles:
    """What each mapped column is for."""

    by_field: dict[str, str]
    gas_mass: dict[str, str]  # column -> gas: tonnes (or kg...) of that gas
    gas_co2e: dict[str, str]  # column -> gas: that gas's emissions already in CO2e
    total: str | None  # a CO2e column for the row
    mass: str | None  # a mass column whose gas is in the gas column (long format)

    @classmethod
    def of(cls, mapping: dict[str, str | None]) -> _Roles:
        def gas_columns(field_name: str) -> dict[str, str]:
            return {
                c: F.mapped_gas(m) or ""
                for c, m in mapping.items()
                if m and m.startswith(f"{field_name}:")
            }

        by_field = {m: c for c, m in mapping.items() if m and ":" not in m}
        return cls(
            by_field,
            gas_columns(F.EMISSIONS_T_GAS),
            gas_columns(F.EMISSIONS_TCO2E),
            by_field.get(F.EMISSIONS_TCO2E),
            by_field.get(F.EMISSIONS_T_GAS),
        )

    @property
    def has_emissions(self) -> bool:
        return bool(self.gas_mass or self.gas_co2e or self.total or self.mass)

    def numeric(self) -> list[str]:
        columns = [*self.gas_mass, *self.gas_co2e, self.total, self.mass]
        columns += [self.by_field.get(F.BIOGENIC_CO2), self.by_field.get(F.QUANTITY)]
        return [c for c in columns if c]

    def used(self) -> set[str | None]:
        descriptive = (*_DESCRIPTIVE, F.QUANTITY, F.BIOGENIC_CO2, F.EMISSIONS_UNIT)
        return {self.by_field.get(name) for name in descriptive} | set(self.numeric())


def canonicalize(table: SheetTable, mapping: dict[str, str | None], gwp_set: GwpSet) -> SheetResult:
    roles = _Roles.of(mapping)
    if not roles.has_emissions:
        return SheetResult(None, mapping, [])
    findings: list[Finding] = []
    comma = _table_convention(table.body, roles.numeric(), table.decimal_comma)
    numbers = {c: to_numbers(table.body[c], decimal_comma=comma) for c in roles.numeric()}
    base = _base_rows(table, roles, numbers, findings)
    canonical = _emission_rows(table, roles, numbers, base, findings)
    canonical = _with_co2e(canonical, gwp_set, findings, table.sheet)
    if roles.total and (roles.gas_mass or roles.gas_co2e):
        reported = numbers[roles.total] * (mass_factor(roles.total) or 1.0)
        _check_row_totals(canonical, reported, findings, table.sheet)
    _check_totals_rows(table, [*roles.gas_mass, *roles.gas_co2e, roles.total], comma, findings)
    _report_gaps(table, base, canonical, findings)
    extra_columns = [c for c in mapping if c not in roles.used()]
    extra = table.body[extra_columns].apply(lambda column: map_unique(column, _text))
    extra = extra.rename(columns=lambda c: f"{c} (original)" if c in canonical.columns else c)
    canonical = canonical.join(extra)
    ordered = [c for c in CANONICAL_COLUMNS if c in canonical]
    ordered += [c for c in canonical.columns if c not in CANONICAL_COLUMNS]
    return SheetResult(canonical[ordered].reset_index(drop=True), mapping, findings)


def _base_rows(
    table: SheetTable, roles: _Roles, numbers: dict[str, pd.Series], findings: list[Finding]
) -> pd.DataFrame:
    """One row per data row: everything but the emissions."""
    base = pd.DataFrame(index=table.body.index)
    base["sheet"] = table.sheet
    base["row"] = table.body.index.to_numpy()
    for name in _DESCRIPTIVE:
        column = roles.by_field.get(name)
        base[name] = map_unique(table.body[column], _text) if column else None
    quantity = roles.by_field.get(F.QUANTITY)
    base[F.QUANTITY] = numbers[quantity] if quantity else np.nan
    biogenic = roles.by_field.get(F.BIOGENIC_CO2)
    base[F.BIOGENIC_CO2] = (
        numbers[biogenic] * (mass_factor(biogenic) or 1.0) if biogenic else np.nan
    )
    _fill_context(base, table)
    return base


def _emission_rows(
    table: SheetTable,
    roles: _Roles,
    numbers: dict[str, pd.Series],
    base: pd.DataFrame,
    findings: list[Finding],
) -> pd.DataFrame:
    """Melt the emission columns into one row per data row and gas."""
    unit_rows = _row_units(table.body, roles.by_field.get(F.EMISSIONS_UNIT))
    parts: list[pd.DataFrame] = []

    def add(values: pd.Series, gas: object, basis: str, *, co2e: pd.Series | None = None):
        present = values.notna() if co2e is None else co2e.notna() | values.notna()
        part = base.assign(**{F.GAS: gas, F.EMISSIONS_T_GAS: values}, basis=basis)
        part[F.EMISSIONS_TCO2E] = np.nan if co2e is None else co2e
        parts.append(part[present])

    for column, gas in roles.gas_mass.items():
        add(numbers[column] * _factor(column, unit_rows, findings, table.sheet), gas, "computed")
    for column, gas in roles.gas_co2e.items():
        co2e = numbers[column] * (mass_factor(column) or 1.0)
        add(pd.Series(np.nan, index=base.index), gas, "reported", co2e=co2e)
    total = numbers[roles.total] * (mass_factor(roles.total) or 1.0) if roles.total else None
    gases = map_unique(base[F.GAS], lambda v: canonical_gas(v) or v)
    if not parts and roles.mass:
        mass = numbers[roles.mass] * _factor(roles.mass, unit_rows, findings, table.sheet)
        add(mass, gases, "computed", co2e=total)
    elif not parts and total is not None:
        add(pd.Series(np.nan, index=base.index), gases, "reported", co2e=total)

    canonical = pd.concat(parts)
    # A source's biogenic CO2 is one figure, whatever number of gas rows it was melted into.
    canonical.loc[canonical.index.duplicated(keep="first"), F.BIOGENIC_CO2] = np.nan
    only_biogenic = base.index.difference(canonical.index)
    only_biogenic = only_biogenic[base.loc[only_biogenic, F.BIOGENIC_CO2].notna()]
    if len(only_biogenic):
        rows = base.loc[only_biogenic].assign(
            **{F.GAS: BIOGENIC_CO2, F.EMISSIONS_T_GAS: np.nan, F.EMISSIONS_TCO2E: 0.0},
            basis="reported",
        )
        canonical = pd.concat([canonical, rows])
    return canonical


def _with_co2e(
    canonical: pd.DataFrame, gwp_set: GwpSet, findings: list[Finding], sheet: str
) -> pd.DataFrame:
    """t CO2e = t of gas x GWP where a gas mass is known; a reported figure stays otherwise."""
    computed = (canonical["basis"] == "computed") & canonical[F.EMISSIONS_T_GAS].notna()
    factors = map_unique(
        canonical[F.GAS], lambda g: gwp(g, gwp_set) if isinstance(g, str) else None
    )
    canonical["gwp"] = pd.to_numeric(factors, errors="coerce").where(computed)
    reported = canonical[F.EMISSIONS_TCO2E].copy()
    ours = canonical[F.EMISSIONS_T_GAS] * canonical["gwp"]
    usable = computed & ours.notna()
    canonical[F.EMISSIONS_TCO2E] = ours.where(usable, reported)
    canonical.loc[~usable & reported.notna(), "basis"] = "reported"
    _check_reported(canonical[usable & reported.notna()], reported, findings, sheet)
    biogenic = canonical[F.GAS] == BIOGENIC_CO2
    if biogenic.any():  # biogenic CO2 is reported apart, never in the total
        mass = canonical.loc[biogenic, F.EMISSIONS_T_GAS]
        canonical.loc[biogenic, F.BIOGENIC_CO2] = mass.fillna(
            canonical.loc[biogenic, F.BIOGENIC_CO2]
        )
        canonical.loc[biogenic, F.EMISSIONS_TCO2E] = 0.0
    return canonical


def map_unique(values: pd.Series, func) -> pd.Series:
    """``values.map(func)``, calling ``func`` once per distinct value: inventories repeat."""
    distinct = pd.unique(values.dropna())
    return values.map(dict(zip(distinct, map(func, distinct), strict=True)))


def _text(value: object) -> object:
    """Cells kept as text. A leading =, +, -, @ stays literal text, never a formula."""
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return None
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip() if not isinstance(value, str) else value.strip()


def _fill_context(base: pd.DataFrame, table: SheetTable) -> None:
    """Scope, category and year from the sheet's name or title when no column gives them."""
    context = F.category_of(table.sheet) or F.category_of(table.title)
    if base[F.CATEGORY].isna().all() and context:
        base[F.CATEGORY] = context[1]
    scope = map_unique(base[F.SCOPE], F.parse_scope).astype(object)
    from_category = map_unique(base[F.CATEGORY], lambda c: (F.category_of(c) or (None,))[0])
    from_category = from_category.astype(object)
    scope = scope.fillna(from_category)
    if context:
        scope = scope.fillna(context[0])
    sheet_scope = F.parse_scope(re.sub(r"^.*?(escopo|scope)", r"\1", F.words(table.sheet)))
    if sheet_scope:
        scope = scope.fillna(sheet_scope)
    base[F.SCOPE] = scope
    if base[F.YEAR].isna().all():
        year = re.search(r"\b(19|20)\d{2}\b", f"{table.sheet} {table.title}")
        if year:
            base[F.YEAR] = year.group(0)
    else:
        base[F.YEAR] = map_unique(base[F.YEAR], lambda y: str(y)[:4] if y else None)


def _row_units(body: pd.DataFrame, column: str | None) -> pd.Series | None:
    if not column:
        return None
    return body[column].map(mass_factor)


def _factor(column: str, unit_rows: pd.Series | None, findings: list[Finding], sheet: str):
    header = mass_factor(column)
    if header is not None:
        return header
    if unit_rows is not None and unit_rows.notna().any():
        return unit_rows.fillna(1.0)
    findings.append(Finding(
        "unit_assumed",
        f"A coluna '{column}' não diz a unidade de massa: considerada em toneladas (t).",
        f"Column '{column}' does not state its mass unit: read as tonnes (t).",
        sheet,
    ))  # fmt: skip
    return 1.0


def _differs(a: float, b: float) -> bool:
    return abs(a - b) > max(0.01, _RELATIVE_TOLERANCE * max(abs(a), abs(b)))


def _check_reported(
    rows: pd.DataFrame, reported: pd.Series, findings: list[Finding], sheet: str
) -> None:
    bad = sorted({
        int(row)
        for row, ours, theirs in zip(
            rows["row"], rows[F.EMISSIONS_TCO2E], reported.loc[rows.index], strict=True
        )
        if _differs(float(ours), float(theirs))
    })  # fmt: skip
    if bad:
        findings.append(Finding(
            "reported_co2e_differs",
            f"O t CO2e informado difere do calculado nas linhas {rows_text(bad)} "
            "(outro conjunto de GWP ou fator?).",
            f"Reported t CO2e differs from the computed value in rows {rows_text(bad)} "
            "(another GWP set or factor?).",
            sheet, tuple(bad),
        ))  # fmt: skip


def _report_gaps(
    table: SheetTable, base: pd.DataFrame, canonical: pd.DataFrame, findings: list[Finding]
) -> None:
    empty = sorted(int(r) for r in base.index.difference(canonical.index))
    if empty:
        findings.append(Finding(
            "rows_without_emissions",
            f"Linhas sem valor de emissão (não contadas): {rows_text(empty)}.",
            f"Rows without an emissions value (not counted): {rows_text(empty)}.",
            table.sheet, tuple(empty),
        ))  # fmt: skip
    if table.error_cells:
        rows = tuple(sorted({r for r, _ in table.error_cells}))
        cells = ", ".join(f"{c} (linha {r})" for r, c in table.error_cells[:6])
        cells_en = ", ".join(f"{c} (row {r})" for r, c in table.error_cells[:6])
        findings.append(Finding(
            "error_cells",
            f"Células com erro (#N/A, #VALOR!...) tratadas como vazias: {cells}.",
            f"Error cells (#N/A, #VALUE!...) treated as missing: {cells_en}.",
            table.sheet, rows,
        ))  # fmt: skip


def _check_row_totals(
    canonical: pd.DataFrame, reported: pd.Series, findings: list[Finding], sheet: str
) -> None:
    ours = canonical.groupby("row")[F.EMISSIONS_TCO2E].sum(min_count=1)
    theirs = reported.dropna()
    theirs.index = theirs.index.astype(int)
    common = ours.index.intersection(theirs.index)
    bad = [int(r) for r in common if _differs(float(ours[r]), float(theirs[r]))]
    if bad:
        findings.append(Finding(
            "row_total_differs",
            f"O total de CO2e da linha difere da soma dos gases nas linhas {rows_text(bad)}.",
            f"The row's CO2e total differs from the sum of its gases in rows {rows_text(bad)}.",
            sheet, tuple(bad),
        ))  # fmt: skip


def _check_totals_rows(
    table: SheetTable, columns: list[str | None], comma: bool, findings: list[Finding]
) -> None:
    """A sheet's own total rows against the sum of its data rows: they are never counted."""
    for row, values in table.totals.iterrows():
        for column in filter(None, columns):
            stated = to_numbers(pd.Series([values[column]], dtype=object), decimal_comma=comma)
            if np.isnan(stated.iloc[0]):
                continue
            stated_value = float(stated.iloc[0])
            summed = float(to_numbers(table.body[column], decimal_comma=comma).sum())
            if _differs(stated_value, summed):
                findings.append(Finding(
                    "total_row_differs",
                    f"A linha de total {row} diz {stated_value:,.2f} em '{column}', mas as "
                    f"linhas somam {summed:,.2f}. O total da planilha não foi usado.",
                    f"Total row {row} states {stated_value:,.2f} in '{column}', but the rows "
                    f"add up to {summed:,.2f}. The sheet's total was not used.",
                    table.sheet, (int(row),),
                ))  # fmt: skip


def _table_convention(body: pd.DataFrame, columns: list[str], hint: bool | None) -> bool:
    """Decimal comma or point for the whole table, from every number written as text."""
    brazilian = english = 0
    for column in columns:
        b, e = decimal_votes(body[column])
        brazilian, english = brazilian + b, english + e
    if brazilian != english:
        return brazilian > english
    return True if hint is None else hint  # Brazil first: 1.234 is a thousand and more
