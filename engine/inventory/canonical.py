"""From a found table to canonical rows: one row per source and gas, with t CO2e.

Per-gas mass columns ("CO2 (t)", "CH4 (kg)") are melted into rows and converted with the
selected GWP set; a reported CO2e column is used as is where no gas mass exists, and is
otherwise kept to cross-check the computed value.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np
import pandas as pd

from engine.gases.gwp import (
    BIOGENIC_CO2,
    DEFAULT_CH4_ORIGIN,
    Ch4Origin,
    GwpSet,
    canonical_gas,
    gwp,
    is_montreal,
    montreal_share,
    split_blend,
)
from engine.inventory import activity as A
from engine.inventory import fields as F
from engine.inventory import unit_evidence as UE
from engine.inventory.findings import Finding, rows_text
from engine.inventory.frames import map_unique
from engine.inventory.layout import month_of_header
from engine.inventory.plausibility import sheet_scale
from engine.inventory.reconcile import (
    Evidence,
    Part,
    Reading,
    SheetCheck,
    UnitEvidence,
    agrees,
    choose_reading,
    describe_reading,
    differ,
    sheet_check,
    subtotal_evidence,
    total_row_evidence,
)
from engine.inventory.table import SheetTable
from engine.inventory.units import UNIT_FACTORS, decimal_votes, mass_factor, to_numbers
from engine.texts import Both, Texts

_TEXTS = Texts(
    "engine.inventory.canonical",
    {
        "months_total": {
            "pt": "A coluna '{column}' confere com a soma dos meses em {agreeing} "
            "de {compared} linhas.",
            "en": "Column '{column}' equals the sum of the months in {agreeing} of "
            "{compared} rows.",
        },
        "computed": {
            "pt": "Emissões calculadas a partir de {n} quantidades de dados de atividade com a "
            "biblioteca de fatores{users}.",
            "en": "Emissions computed from {n} activity-data quantities with the factor "
            "library{users}.",
        },
        "users_factors": {"pt": " (com fatores do usuário)", "en": " (with the user's factors)"},
        "summary_rows": {
            "pt": "Linhas de resumo {rows} conferem com a soma dos setores codificados ({sums}): "
            "conferidas, não somadas.",
            "en": "Summary rows {rows} equal the sum of the coded sectors ({sums}): checked, "
            "not added.",
        },
        "own_grid": {
            "pt": "Linhas {rows}: a empresa opera a rede, então as perdas de T&D são do seu "
            "Escopo 2 (GHG Protocol, Corporate Standard, cap. 4), não do Escopo 3.",
            "en": "Rows {rows}: the company operates the grid, so its T&D losses are its "
            "Scope 2 (GHG Protocol Corporate Standard, ch. 4), not Scope 3.",
        },
        "not_scope_2": {
            "pt": "Linhas {rows} estavam no Escopo 2: perdas de T&D da rede são Escopo 3 "
            "(categoria 3) e perdas de refrigerante são emissões fugitivas (Escopo 1).",
            "en": "Rows {rows} were filed under Scope 2: grid T&D losses are Scope 3 "
            "(category 3) and refrigerant losses are fugitive emissions (Scope 1).",
        },
        "rows_without_emissions": {
            "pt": "Linhas sem valor de emissão (não contadas): {rows}.",
            "en": "Rows without an emissions value (not counted): {rows}.",
        },
        # Where the unit of a quantity column was read.
        "unit_in.header": {"pt": "no cabeçalho da coluna", "en": "in the column's header"},
        "unit_in.unit_column": {
            "pt": "na coluna de unidade '{column}'",
            "en": "in the unit column '{column}'",
        },
        "unit_in.title": {"pt": "no título acima da tabela", "en": "in the title above the table"},
        "error_cell": {"pt": "{cell} (linha {row})", "en": "{cell} (row {row})"},
        "error_cells": {
            "pt": "Células com erro (#N/A, #VALOR!...) tratadas como vazias: {cells}.",
            "en": "Error cells (#N/A, #VALUE!...) treated as missing: {cells}.",
        },
    },
)


def _pair(text: Both) -> tuple[str, str]:
    """A text as the (pt, en) pair unit evidence carries."""
    return text.pt, text.en


def _finding(code: str, text: Both, sheet: str, rows: tuple[int, ...]) -> Finding:
    return Finding(code, text.pt, text.en, sheet, rows)


CANONICAL_COLUMNS: tuple[str, ...] = (
    "sheet", "row", F.SCOPE, F.CATEGORY, F.SOURCE, F.FACILITY, F.FUEL, F.QUANTITY, F.UNIT,
    F.GAS, F.EMISSIONS_T_GAS, F.EMISSIONS_TCO2E, F.BIOGENIC_CO2, F.YEAR, F.SCOPE2_METHOD,
    F.REPORTING, F.MEMO_TCO2E, "gwp", "basis",
)  # fmt: skip
_DESCRIPTIVE = (
    F.SCOPE, F.CATEGORY, F.SOURCE, F.FACILITY, F.FUEL, F.UNIT, F.GAS, F.YEAR, F.SCOPE2_METHOD,
    F.CODE,
)  # fmt: skip
_FORMULA_LIKE = re.compile(r"^[=+\-@\t\r]")
_RELATIVE_TOLERANCE = 0.005


# Another reading of a sheet's rows (its activity data) checked against the canonical rows.
RowCheck = Callable[[pd.DataFrame], tuple[Evidence | None, list[Finding]]]


@dataclass
class SheetResult:
    table: pd.DataFrame | None  # canonical rows; None when the sheet holds no emissions
    mapping: dict[str, str | None]
    findings: list[Finding]
    check: SheetCheck | None = None


def map_columns(table: SheetTable, overrides: dict[str, str | None]) -> dict[str, str | None]:
    """Original column -> canonical field. Each plain field goes to its best column only."""
    mapping: dict[str, str | None] = {}
    priority: dict[str, int] = {}
    for column in table.columns:
        match = F.match_header(column)
        mapping[column] = overrides.get(column, match.field if match else None)
        priority[column] = 10_000 if column in overrides else (match.priority if match else 0)
        if mapping[column] == F.EMISSIONS_TCO2E and re.search(r"\btotal", F.words(column)):
            priority[column] += 50  # of several CO2e columns, the one that says total is it
    months = [c for c in table.columns if month_of_header(c) and c not in overrides]
    if len(months) >= 2:  # months across the columns are time, read by layout or activity
        for column in months:  # ('Consumo (L) / jan' is January, not the quantity)
            mapping[column] = None
    for column, mapped in mapping.items():  # a caption over labels is not an emission column
        emission = F.base_field(mapped) in F.EMISSION_FIELDS and column not in overrides
        if emission and _holds_labels(table, column):
            mapping[column] = None if F.SOURCE in mapping.values() else F.SOURCE
    if F.UNIT not in mapping.values():  # a facility column that holds units is the unit column
        for column, mapped in mapping.items():
            if mapped == F.FACILITY and column not in overrides and _holds_units(table, column):
                mapping[column] = F.UNIT
    if F.EMISSIONS_UNIT not in mapping.values():  # an unnamed column of mass units beside
        for column, mapped in mapping.items():  # the emissions says their unit
            if mapped is None and column not in overrides and _holds_masses(table, column):
                mapping[column] = F.EMISSIONS_UNIT
                break
    if F.QUANTITY not in mapping.values() and F.EMISSIONS_UNIT not in mapping.values():
        for column, mapped in mapping.items():  # no quantity: a unit column of masses is the
            if mapped == F.UNIT and column not in overrides and _holds_masses(table, column):
                mapping[column] = F.EMISSIONS_UNIT  # emissions' unit
    by_method = [
        c for c, m in mapping.items()
        if m == F.EMISSIONS_TCO2E and c not in overrides and F.scope2_method_of(c)
    ]  # fmt: skip
    if len({F.scope2_method_of(c) for c in by_method}) > 1:
        for column in by_method:  # Scope 2 by both methods side by side: neither is a total
            mapping[column] = f"{F.EMISSIONS_TCO2E}:{_label(column)}"
    holders: dict[str, str] = {}
    for column, mapped in mapping.items():
        if mapped is None or ":" in mapped:
            continue
        holder = holders.get(mapped)
        loser = column if holder is not None and priority[holder] >= priority[column] else holder
        if loser is not None:
            # a second CO2e column is part of the breakdown the total column checks
            part = mapped == F.EMISSIONS_TCO2E and loser not in overrides
            mapping[loser] = f"{F.EMISSIONS_TCO2E}:{_label(loser)}" if part else None
        if loser != column:
            holders[mapped] = column
    if F.EMISSIONS_TCO2E in holders:  # gas columns with no mass unit beside a CO2e total
        for column, mapped in mapping.items():
            gas = F.mapped_gas(mapped) if F.base_field(mapped) == F.EMISSIONS_T_GAS else None
            if gas and mass_factor(column) is None and column not in overrides:
                mapping[column] = f"{F.EMISSIONS_TCO2E}:{gas}"
    return mapping


_NUMERIC_KINDS = ("floating", "integer", "mixed-integer-float", "decimal", "empty")
_UNIT_WORDS = frozenset({"l", "litros", "m3", "m³", "kwh", "mwh", "gj", "km", "un", "unid"})


def _holds_labels(table: SheetTable, column: str) -> bool:
    # the first 200 cells that are not blank, read in Python: a Series of them per emission
    # column and sheet cost more than the reading
    values = []
    for value in table.body[column].to_numpy(dtype=object):
        if not pd.isna(value):
            values.append(value)
            if len(values) == 200:
                break
    if not values:
        return False
    words = sum(isinstance(v, str) and any(ch.isalpha() for ch in v) for v in values)
    return words / len(values) > 0.8


def _holds_masses(table: SheetTable, column: str) -> bool:
    head = table.body[column].to_numpy(dtype=object)[:200]
    if pd.api.types.infer_dtype(head, skipna=True) in _NUMERIC_KINDS:
        return False  # numbers are no units (and a year column has hundreds of them)
    values = table.body[column].dropna().astype(str).str.strip().head(200)
    return bool(len(values)) and bool(values.map(lambda v: mass_factor(v) is not None).all())


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


def canonicalize(
    table: SheetTable,
    mapping: dict[str, str | None],
    gwp_set: GwpSet,
    ch4_origin: Ch4Origin = DEFAULT_CH4_ORIGIN,
    *,
    original: SheetTable | None = None,
    original_mapping: dict[str, str | None] | None = None,
    check: RowCheck | None = None,
    user_unit: str | None = None,
    activity: pd.DataFrame | None = None,
) -> SheetResult:
    """Canonical rows of one sheet, read the way its own totals agree with (``reconcile``).

    ``original`` is the sheet before time columns were melted: its total rows and coded
    subtotals are checked column by column, as the workbook wrote them. ``check`` compares
    the canonical rows with another reading of the sheet (its activity data) and gives one
    more piece of the sheet's evidence, with its findings.
    """
    roles = _Roles.of(mapping)
    if not roles.has_emissions:
        return SheetResult(None, mapping, [])
    findings: list[Finding] = []
    comma = table_convention(table.body, roles.numeric(), table.decimal_comma)
    numbers = {c: to_numbers(table.body[c], decimal_comma=comma) for c in roles.numeric()}
    units = _UnitReader(table, roles, user_unit)
    if activity is not None:
        units.prove_by_plausibility(numbers, activity)
    biogenic_column = roles.by_field.get(F.BIOGENIC_CO2)
    biogenic_factor = units.factor_of(biogenic_column) if biogenic_column else None
    base = _base_rows(table, roles, numbers, findings, biogenic_factor=biogenic_factor)
    parts = _parts(table, roles, numbers, base, units)
    total = numbers[roles.total] if roles.total else None
    total_factor = units.factor_of(roles.total) if roles.total else None
    biogenic = base[F.BIOGENIC_CO2] if roles.by_field.get(F.BIOGENIC_CO2) else None
    reading = choose_reading(
        parts, total, total_factor, biogenic, table.rows(), gwp_set, ch4_origin
    )
    unit_evidence = units.settle(parts, reading)
    canonical = _emission_rows(table, roles, numbers, base, parts, reading)
    canonical = _named_gases(canonical)
    canonical = _with_co2e(canonical, gwp_set, ch4_origin)
    canonical = _reporting(canonical, table, gwp_set)
    _report_gaps(table, base, canonical, findings)
    extra: list[Evidence] = []
    if check is not None:
        evidence, more = check(canonical)
        extra = [evidence] if evidence is not None else []
        findings.extend(more)
    sheet = _sheet_check(
        table, original or table, original_mapping or mapping, roles, parts, reading, total,
        canonical, gwp_set, comma, findings, extra, unit_evidence,
    )  # fmt: skip
    extra = _extra_columns(table, mapping, roles, canonical, comma)
    if extra.shape[1]:  # joining no columns copies the rows for nothing
        canonical = canonical.join(extra)
    ordered = [c for c in CANONICAL_COLUMNS if c in canonical]
    ordered += [c for c in canonical.columns if c not in CANONICAL_COLUMNS]
    result = canonical[ordered]  # a new frame: its index is set, not reset (one copy less)
    result.index = pd.RangeIndex(len(result))
    return SheetResult(result, mapping, findings, sheet)


# --- activity data ----------------------------------------------------------------------------


def canonicalize_activity(  # noqa: PLR0917 - the sheet, its reading and the inventory's choices
    table: SheetTable,
    mapping: dict[str, str | None],
    plan: A.ActivityPlan,
    rows: A.ActivityRows,
    gwp_set: GwpSet,
    ch4_origin: Ch4Origin,
    parse,
    *,
    user_unit: str | None = None,
) -> SheetResult:
    """Canonical rows of a sheet of activity data only: every emission computed by the
    factor library, ``basis = "activity"``. Its check is the sheet's own total rows and
    row totals over the quantities."""
    findings: list[Finding] = []
    mapping = {c: F.UNIT if c == plan.unit_column else m for c, m in mapping.items()}
    canonical = activity_canonical(table, mapping, rows, gwp_set, ch4_origin, findings)
    findings.extend(A.row_findings(rows, table.sheet))
    time = set(plan.time_columns) | {plan.date_column, plan.total_column}
    kept = {c: m for c, m in mapping.items() if c not in time}
    comma = table.decimal_comma is not False
    canonical = canonical.join(_extra_columns(table, kept, _Roles.of(kept), canonical, comma))
    ordered = [c for c in (*CANONICAL_COLUMNS, A.ACTIVITY, A.FACTOR_REF) if c in canonical]
    ordered += [c for c in canonical.columns if c not in ordered]
    check = _activity_check(table, plan, rows, canonical, parse, findings, user_unit)
    return SheetResult(canonical[ordered].reset_index(drop=True), mapping, findings, check)


def activity_canonical(  # noqa: PLR0917
    table: SheetTable,
    mapping: dict[str, str | None],
    rows: A.ActivityRows,
    gwp_set: GwpSet,
    ch4_origin: Ch4Origin,
    findings: list[Finding],
) -> pd.DataFrame:
    """The computed rows, with t CO2e and memo items as every other sheet's."""
    roles = _Roles.of(mapping)
    quantity = roles.by_field.get(F.QUANTITY)
    comma = table.decimal_comma is not False
    numbers = {quantity: to_numbers(table.body[quantity], decimal_comma=comma)} if quantity else {}
    base = _base_rows(table, _Roles.of({c: m for c, m in mapping.items()
                                        if m != F.BIOGENIC_CO2}), numbers, findings)  # fmt: skip
    canonical = A.canonical_rows(rows, base)
    canonical = _with_co2e(canonical, gwp_set, ch4_origin)
    return _reporting(canonical, table, gwp_set)


def _activity_check(  # noqa: PLR0917
    table: SheetTable,
    plan: A.ActivityPlan,
    rows: A.ActivityRows,
    canonical: pd.DataFrame,
    parse,
    findings: list[Finding],
    user_unit: str | None = None,
) -> SheetCheck:
    """The sheet's own checks over its quantities: total rows (when every row is in one
    unit, or they add nothing meaningful) and a row total beside the months."""
    evidence: list[Evidence] = []
    columns = [c for c in plan.quantity_columns if c]
    if plan.total_column:
        columns.append(plan.total_column)
    units = rows.requests["unit"].dropna().unique() if len(rows.requests) else []
    if len(units) <= 1:
        rows_check, _ = total_row_evidence(table.body, table.totals, columns, parse)
        if rows_check is not None:
            evidence.append(rows_check)
    if plan.time_columns and plan.total_column:
        months = pd.concat([parse(table.body[c]) for c in plan.time_columns], axis=1)
        summed = months.sum(axis=1, min_count=1)
        stated = parse(table.body[plan.total_column])
        both = summed.notna() & stated.notna()
        if both.any():
            hits = agrees(summed[both].to_numpy(), stated[both].to_numpy())
            bad = tuple(int(r) for r in table.rows()[both][~hits])
            compared, agreeing = int(both.sum()), int(hits.sum())
            said = _TEXTS.both("months_total", column=plan.total_column, agreeing=agreeing,
                               compared=compared) + (differ(bad) if bad else "")  # fmt: skip
            evidence.append(Evidence("row_totals", compared, agreeing, said.pt, said.en, bad))
    _conflict_findings(table.sheet, evidence, findings)
    latest = _latest_year(canonical)
    counted = canonical if latest is None else canonical[canonical[F.YEAR].astype(str) == latest]
    computed = float(counted[F.EMISSIONS_TCO2E].sum())
    n = len(rows.requests)
    users = sum(1 for e in rows.estimates.values() for u in e.factors if u.user)
    notes = _TEXTS.both("computed", n=n, users=_TEXTS.both("users_factors") if users else "")
    units = _quantity_units(table, plan, rows, user_unit)
    check = sheet_check(
        table.sheet, evidence, computed, None, notes=notes, units=units,
        rows=int(canonical["row"].nunique()) if len(canonical) else 0,
    )  # fmt: skip
    if plan.default_unit and not user_unit:  # a mass of gas stated nowhere: kg or t
        check = replace(check, unit_choices=("kg", "t"))
    return check


def _quantity_units(
    table: SheetTable, plan: A.ActivityPlan, rows: A.ActivityRows, user_unit: str | None
) -> list[UnitEvidence]:
    """Where the unit of each quantity column was read: its header, the unit column, the text
    above the table, the user, or nowhere (a recharge weighed in kg is then an assumption)."""
    found = []
    columns = [c for c in (*plan.quantity_columns, plan.total_column) if c]
    for column in columns[:1] if plan.time_columns else columns:
        said = plan.column_units.get(column)
        if said:
            where = _pair(_TEXTS.both("unit_in.header"))
            found.append(UE.quantity_evidence(column, said, "header", said, where))
        elif plan.unit_column:
            units = sorted({str(u) for u in rows.requests["unit"].dropna()})
            where = _pair(_TEXTS.both("unit_in.unit_column", column=plan.unit_column))
            found.append(UE.quantity_evidence(column, ", ".join(units), "unit_column",
                                              plan.unit_column, where))  # fmt: skip
        elif plan.context_unit:
            where = _pair(_TEXTS.both("unit_in.title"))
            found.append(UE.quantity_evidence(column, plan.context_unit, "title",
                                              plan.context_unit, where))  # fmt: skip
        elif user_unit:
            found.append(UE.user_evidence(column, user_unit, quantity=True))
        elif plan.default_unit:
            found.append(UE.missing_evidence(column, plan.default_unit))
    return found


def with_activity_check(
    rows: A.ActivityRows, sheet: str, gwp_set: GwpSet, ch4_origin: Ch4Origin
) -> RowCheck:
    """The check a sheet with both activity data and emissions gets: ours against theirs."""

    def check(theirs: pd.DataFrame) -> tuple[Evidence | None, list[Finding]]:
        return A.compare(rows, theirs, sheet, gwp_set, ch4_origin)

    return check


# Words every emission column's header may carry: they say nothing about which column a unit
# column belongs to ("Total Emission Units" belongs to "Total Emissions", not "CO2 Emissions").
_GENERIC_WORDS = frozenset(
    "emission emissions emissao emissoes unit units unidade unidades de do da of the in em "
    "value values valor valores t co2e tco2e kg".split()
)


def _distinct_words(header: str) -> set[str]:
    return {w.rstrip("s") for w in F.words(header).split()} - _GENERIC_WORDS


class _UnitReader:
    """Each emission column's unit and its evidence (``unit_evidence``), and which columns a
    unit column speaks for."""

    def __init__(self, table: SheetTable, roles: _Roles, user_unit: str | None) -> None:
        self.table = table
        self.roles = roles
        self.user_unit = user_unit
        self.unit_column = roles.by_field.get(F.EMISSIONS_UNIT)
        self.unit_rows = _row_units(table.body, self.unit_column)
        descriptive = [roles.by_field.get(f) for f in (F.SOURCE, F.CATEGORY, F.CODE, F.FACILITY)]
        numeric = set(roles.numeric())
        self.labels = [c for c in [*descriptive, *table.columns[:3]] if c and c not in numeric]
        self.evidence: dict[str, UnitEvidence] = {}

    def _unit_column_applies(self, column: str) -> bool:
        if self.unit_rows is None or not self.unit_rows.notna().any():
            return False
        named = _distinct_words(self.unit_column or "")
        emission = [c for c in self.roles.numeric() if c != self.roles.by_field.get(F.QUANTITY)]
        speaks_for = [c for c in emission if named & _distinct_words(c)]
        return column in speaks_for if speaks_for else True

    def evidence_of(self, column: str) -> UnitEvidence | None:
        if column in self.evidence:
            return self.evidence[column]
        found = UE.header_evidence(self.table, column)
        if found is None and self._unit_column_applies(column):
            assert self.unit_rows is not None and self.unit_column is not None
            texts = self.table.body[self.unit_column]
            found = UE.unit_column_evidence(column, self.unit_column, self.unit_rows, texts)
        if found is None:
            found = UE.context_evidence(self.table, column, self.labels)
        if found is None and self.user_unit in UNIT_FACTORS:
            found = UE.user_evidence(column, self.user_unit)
        if found is not None:
            self.evidence[column] = found
        return found

    def prove_by_plausibility(self, numbers: dict[str, pd.Series], activity: pd.DataFrame):
        """Columns whose unit no text states, beside quantities of activity data: the unit
        under which the factor they imply is physical (1,000 L of diesel emit about 2.7 t of
        CO2, never 2,700), when the CO2 (or the row's CO2e) is among them."""
        roles = self.roles
        co2 = [c for c, gas in roles.gas_mass.items() if gas == "CO2"]
        candidates = [*co2, *(c for c, gas in roles.gas_co2e.items() if gas == "CO2")]
        if roles.total:
            candidates.append(roles.total)
        unproven = [c for c in self._emission_columns() if self.evidence_of(c) is None]
        judged = next((c for c in candidates if c in unproven), None)
        if judged is None:
            return
        stated = pd.Series(numbers[judged].to_numpy(), index=self.table.rows().to_numpy())
        scale = sheet_scale(activity, stated)
        if scale is None:
            return
        for column in unproven:
            self.evidence[column] = UE.plausibility_evidence(column, scale, judged)

    def _emission_columns(self) -> list[str]:
        roles = self.roles
        columns = [*roles.gas_mass, *roles.gas_co2e, roles.total, roles.mass]
        return [c for c in [*columns, roles.by_field.get(F.BIOGENIC_CO2)] if c]

    def factor_of(self, column: str) -> float | pd.Series | None:
        """To tonnes, as the evidence says; None when nothing states the unit."""
        found = self.evidence_of(column)
        if found is None:
            return None
        if found.source == "unit_column" and found.factor is None:
            assert self.unit_rows is not None
            return self.unit_rows.fillna(1.0)  # a unit per row; a blank one reads as t
        return found.factor

    def settle(self, parts: list[Part], reading: Reading) -> list[UnitEvidence]:
        """Every emission column's evidence once the reading is chosen: a column no text
        states is fixed by the checks when a proven column anchors them, else it is
        unproven ('default': the sheet is ambiguous)."""
        columns = [p.column for p in parts]
        columns += [c for c in (self.roles.total, self.roles.by_field.get(F.BIOGENIC_CO2)) if c]
        columns = [c for c in columns if self.table.body[c].notna().any()]  # an empty one
        anchors = [c for c in columns if self.evidence_of(c) is not None]  # needs no unit
        settled = []
        for column in columns:
            found = self.evidence_of(column)
            if found is None:
                factor = (
                    reading.total_factor
                    if column == self.roles.total
                    else reading.factors.get(column)
                )
                if anchors and reading.unit_checked and isinstance(factor, float):
                    found = UE.derived_evidence(column, factor, anchors)
                else:
                    found = UE.missing_evidence(column)
            settled.append(found)
        return settled


def _parts(table, roles, numbers, base, units: _UnitReader) -> list[Part]:
    """The emission columns of the sheet, with what the file says of each one's unit."""
    parts = []
    for column, gas in roles.gas_mass.items():
        factor = units.factor_of(column)
        ambiguous = roles.total is not None and factor is None
        parts.append(Part(column, numbers[column], _own_gases(gas, base), False, factor, ambiguous))
    for column, gas in roles.gas_co2e.items():
        factor = units.factor_of(column)
        says = F.says_co2e(F.words(column))
        parts.append(Part(column, numbers[column], gas or column, True, factor, not says))
    if not parts and roles.mass:
        gases = map_unique(base[F.GAS], lambda v: canonical_gas(v) or v)
        parts.append(
            Part(roles.mass, numbers[roles.mass], gases, False, units.factor_of(roles.mass))
        )
    return parts


def _sheet_check(  # noqa: PLR0917 - the sheet's whole reading, in the order it was made
    table: SheetTable,
    original: SheetTable,
    original_mapping: dict[str, str | None],
    roles: _Roles,
    parts: list[Part],
    reading: Reading,
    total: pd.Series | None,
    canonical: pd.DataFrame,
    gwp_set: str,
    comma: bool,
    findings: list[Finding],
    extra: list[Evidence],
    units: list[UnitEvidence],
) -> SheetCheck:
    evidence = [reading.evidence] if reading.evidence is not None else []
    checked = _checked_columns(original, original_mapping)

    def parse(values: pd.Series) -> pd.Series:
        return to_numbers(values.astype(object), decimal_comma=comma)

    memo_rows: frozenset[int] = frozenset()
    if len(original.totals):
        memo_rows = _memo_rows(canonical)
    rows_check, stated_last = total_row_evidence(
        original.body, original.totals, checked, parse, memo_rows
    )
    if rows_check is not None:
        evidence.append(rows_check)
    subtotals = subtotal_evidence(
        original.body, original.parent_frame, original.children, checked, parse, typed=True
    )
    if subtotals is not None:
        evidence.append(subtotals)
    if original.summaries:
        evidence.append(_summary_evidence(original.summaries))
    latest = _latest_year(canonical)
    rows = canonical if latest is None else canonical[map_unique(canonical[F.YEAR], str) == latest]
    market = rows[F.REPORTING] == F.SCOPE2_MARKET  # a market-based sheet: its own figure
    computed = float(rows[F.EMISSIONS_TCO2E].sum() + rows.loc[market, F.MEMO_TCO2E].sum())
    stated = None
    if table.time_layout:  # the total row of the headline year's column
        stated = _stated_for_year(
            stated_last, latest, roles=roles, parts=parts, reading=reading, gwp_set=gwp_set
        )
    elif roles.total and roles.total in stated_last:
        stated = stated_last[roles.total] * (reading.total_factor or 1.0)
    elif total is not None and parts:
        stated = float(total.sum()) * (reading.total_factor or 1.0)
    elif stated_last and parts:
        stated = _stated_from_total_rows(stated_last, parts, reading, gwp_set)
    _conflict_findings(table.sheet, evidence, findings)
    evidence.extend(extra)  # its own findings name the rows and the factors already
    return sheet_check(
        table.sheet, evidence, computed, stated, units=units,
        notes=describe_reading(reading, parts, gwp_set), rows=int(canonical["row"].nunique()),
        source_gwp_set=_other_set(reading, gwp_set),
    )  # fmt: skip


def _other_set(reading: Reading, gwp_set: str) -> str | None:
    """The set the workbook's totals were proven to use, when it is not the reading's: an
    answer can then give the workbook's own figure beside the recomputed one."""
    used = reading.source_gwp_set
    return used if used and used != gwp_set and reading.unit_checked else None


def _memo_rows(canonical: pd.DataFrame) -> frozenset[int]:
    """The sheet rows every canonical row of which is a memo item (none counts)."""
    memo = (canonical[F.REPORTING] != F.IN_INVENTORY).to_numpy(dtype=bool)
    rows = canonical["row"].to_numpy()
    if rows.dtype.kind not in "iu":  # a group-by drops missing rows: left to it
        grouped = pd.Series(memo, index=canonical.index).groupby(canonical["row"]).all()
        return frozenset(int(r) for r in grouped.index[grouped.to_numpy(dtype=bool)])
    if not memo.any():
        return frozenset()
    return frozenset(rows[memo].tolist()) - frozenset(rows[~memo].tolist())


def _summary_evidence(summaries: dict[int, tuple[str, ...]]) -> Evidence:
    """Summary rows above a coded table, found equal to sums of its top-level codes."""
    rows = rows_text(sorted(summaries))
    sums = "; ".join(" + ".join(codes) for codes in summaries.values())
    n = len(summaries)
    said = _TEXTS.both("summary_rows", rows=rows, sums=sums)
    return Evidence("subtotals", n, n, said.pt, said.en)


def _latest_year(canonical: pd.DataFrame) -> str | None:
    if F.YEAR not in canonical:
        return None
    years = {str(y) for y in pd.unique(canonical[F.YEAR].dropna())}  # distinct, not per row
    return max(years) if len(years) > 1 else None


def _stated_for_year(stated_last, latest, *, roles, parts, reading, gwp_set):
    """A wide sheet's total row, in the column of the headline year, as t CO2e."""
    columns = [c for c in stated_last if latest is None or F.year_of_header(c) == latest]
    if len(columns) != 1:
        return None
    value = stated_last[columns[0]]
    if roles.total:
        return value * (reading.total_factor or 1.0)
    if len(parts) == 1 and isinstance(parts[0].gas, str):
        factor = reading.factors.get(parts[0].column, 1.0)
        weight = gwp(parts[0].gas, gwp_set)
        if isinstance(factor, float) and weight is not None:
            return value * factor * weight
    return None


def _checked_columns(original: SheetTable, mapping: dict[str, str | None]) -> list[str]:
    """The emission columns as the workbook wrote them, time columns included."""
    emission = [
        c for c, m in mapping.items()
        if F.base_field(m) in (F.EMISSIONS_T_GAS, F.EMISSIONS_TCO2E, F.BIOGENIC_CO2)
    ]  # fmt: skip
    time = [c for c in original.columns if F.year_of_header(c) or month_of_header(c)]
    return [c for c in [*emission, *time] if c in original.body]


def _stated_from_total_rows(stated, parts, reading: Reading, gwp_set: str) -> float | None:
    value = 0.0
    for part in parts:
        if part.column not in stated or isinstance(part.gas, pd.Series):
            return None
        factor = reading.factors.get(part.column, 1.0)
        if not isinstance(factor, float):
            return None
        weight = 1.0 if reading.co2e.get(part.column) else (gwp(part.gas, gwp_set) or np.nan)
        value += stated[part.column] * factor * weight
    return None if np.isnan(value) else value


def _conflict_findings(sheet: str, evidence: list[Evidence], findings: list[Finding]) -> None:
    codes = {"row_totals": "row_total_differs", "total_rows": "total_row_differs",
             "subtotals": "subtotal_differs"}  # fmt: skip
    for item in evidence:
        if item.agreeing < item.compared:
            findings.append(Finding(codes[item.kind], item.pt, item.en, sheet, item.bad_rows))


def _extra_columns(table, mapping, roles, canonical, comma) -> pd.DataFrame:
    """Columns the schema does not know, kept: numbers as numbers ('Carga nominal (kg)')."""
    columns = [c for c in mapping if c not in roles.used()]
    extra = pd.DataFrame(index=table.body.index)
    for column in columns:
        values = table.body[column]
        sample = values.dropna().head(200)
        if len(sample) and to_numbers(sample, decimal_comma=comma).notna().mean() >= 0.9:
            parsed = to_numbers(values, decimal_comma=comma)
            if parsed[values.notna()].notna().mean() >= 0.9:
                extra[column] = parsed
                continue
        extra[column] = map_unique(values, _text)
    return extra.rename(columns=lambda c: f"{c} (original)" if c in canonical.columns else c)


def _base_rows(
    table: SheetTable,
    roles: _Roles,
    numbers: dict[str, pd.Series],
    findings: list[Finding],
    *,
    biogenic_factor: float | pd.Series | None = None,
) -> pd.DataFrame:
    """One row per data row: everything but the emissions."""
    # One frame from all its columns (a column set at a time was 14 insertions a sheet).
    columns: dict[str, object] = {"sheet": table.sheet, "row": table.rows().to_numpy()}
    for name in _DESCRIPTIVE:
        column = roles.by_field.get(name)
        columns[name] = map_unique(table.body[column], _text) if column else None
    quantity = roles.by_field.get(F.QUANTITY)
    columns[F.QUANTITY] = numbers[quantity] if quantity else np.nan
    biogenic = roles.by_field.get(F.BIOGENIC_CO2)
    factor = biogenic_factor if biogenic_factor is not None else mass_factor(biogenic or "")
    columns[F.BIOGENIC_CO2] = (
        numbers[biogenic] * (1.0 if factor is None else factor) if biogenic else np.nan
    )
    base = pd.DataFrame(columns, index=table.body.index)
    _fill_context(base, table)
    if _operates_the_grid(table):
        _losses_of_own_grid(base, table.sheet, findings)
    else:
        _reclassify_losses(base, table.sheet, findings)
    return base


_NOT_SCOPE_2 = {"Atividades relacionadas a combustível e energia", "Emissões fugitivas"}
# A company that owns or operates transmission or distribution lines (GHG Protocol Corporate
# Standard, ch. 4, Scope 2: "reported in scope 2 by the company that owns or controls the T&D
# operation"): its workbook says what it is in a title, a sheet's name or a note.
_GRID_OPERATOR = re.compile(
    r"distribuidora de (?:energia|eletricidade)|transmissora|concessionaria de (?:energia|"
    r"distribuicao|transmissao)|operador(?:a)? (?:da|de) (?:rede|sistema)|\bgrid operator|"
    r"(?:transmission|distribution) (?:system )?operator|electric utility|power utility|"
    r"rede (?:propria|da empresa)|own (?:grid|network)"
)
_T_AND_D = re.compile(
    r"perdas (?:na |de |da )?(?:transmissao|distribuicao|rede)|perdas t d|t d losses|"
    r"transmission and distribution losses|grid losses|line losses|perdas tecnicas"
)
OWN_GRID_LOSSES = "Perdas de T&D da rede própria"


def _operates_the_grid(table: SheetTable) -> bool:
    text = F.words(" ".join([table.sheet, table.title, *table.context]))
    return bool(_GRID_OPERATOR.search(text))


def _losses_of_own_grid(base: pd.DataFrame, sheet: str, findings: list[Finding]) -> None:
    """A grid operator's T&D losses are its own Scope 2, never Scope 3 category 3."""
    named = base[F.CATEGORY].fillna(base[F.SOURCE]) if F.SOURCE in base else base[F.CATEGORY]
    text = pd.concat([named, base[F.SOURCE]], axis=1).astype(str).agg(" ".join, axis=1)
    losses = map_unique(text, lambda v: bool(_T_AND_D.search(F.words(v)))).astype(bool)
    if not losses.any():
        return
    moved = losses & (base[F.SCOPE] != "2")
    base.loc[losses, F.SCOPE] = "2"
    base.loc[losses, F.CATEGORY] = OWN_GRID_LOSSES
    if not moved.any():
        return
    rows = tuple(sorted({int(r) for r in base.loc[moved, "row"]}))
    text = _TEXTS.both("own_grid", rows=rows_text(rows))
    findings.append(_finding("scope_reclassified", text, sheet, rows))


def _reclassify_losses(base: pd.DataFrame, sheet: str, findings: list[Finding]) -> None:
    """Grid T&D losses of an energy user are Scope 3 cat. 3; refrigerant losses are Scope 1
    fugitives. A workbook that files either under Scope 2 is corrected, and told so."""
    scope2 = base[F.SCOPE] == "2"
    if not scope2.any():  # nothing filed under Scope 2: nothing to correct
        return
    named = base[F.CATEGORY].fillna(base[F.SOURCE]) if F.SOURCE in base else base[F.CATEGORY]
    category = map_unique(named, F.category_of)
    misfiled = map_unique(named, lambda v: _not_scope_2(F.category_of(v)))
    wrong = scope2 & misfiled.fillna(False).astype(bool)
    if not wrong.any():
        return
    base.loc[wrong, F.SCOPE] = category[wrong].map(lambda c: c[0])
    rows = tuple(sorted({int(r) for r in base.loc[wrong, "row"]}))
    text = _TEXTS.both("not_scope_2", rows=rows_text(rows))
    findings.append(_finding("scope_reclassified", text, sheet, rows))


def _not_scope_2(category: tuple[str, str] | None) -> bool:
    return isinstance(category, tuple) and category[1] in _NOT_SCOPE_2


def _emission_rows(  # noqa: PLR0917
    table: SheetTable,
    roles: _Roles,
    numbers: dict[str, pd.Series],
    base: pd.DataFrame,
    parts: list[Part],
    reading: Reading,
) -> pd.DataFrame:
    """Melt the emission columns into one row per data row and gas, as the reading says."""
    canonical = _melted_parts(base, parts, reading)
    if canonical is not None:
        return _with_only_biogenic(canonical, base)
    frames: list[pd.DataFrame] = []
    for part in parts:
        factor = reading.factors.get(part.column, 1.0)
        values = part.values * factor
        co2e = reading.co2e.get(part.column, part.co2e)
        method = F.scope2_method_of(part.column)
        gas = part.gas
        if co2e and gas in (part.column, _label(part.column)):
            # a CO2e column that names no gas keeps its name ('Other GHGs'), unless what it
            # names is a Scope 2 method ('Emissões – escolha de compra (t CO2e)')
            gas = None if method else _label(part.column)
        frame = base.assign(**{F.GAS: gas})
        frame[F.EMISSIONS_T_GAS] = np.nan if co2e else values
        frame[F.EMISSIONS_TCO2E] = values if co2e else np.nan
        frame["basis"] = "reported" if co2e else "computed"
        if method:
            frame[F.SCOPE2_METHOD] = method
        frames.append(frame[values.notna()])
    total = numbers[roles.total] * (reading.total_factor or 1.0) if roles.total else None
    if not frames and total is not None:
        gases = map_unique(base[F.GAS], lambda v: canonical_gas(v) or v)
        frame = base.assign(**{F.GAS: gases, F.EMISSIONS_T_GAS: np.nan}, basis="reported")
        frame[F.EMISSIONS_TCO2E] = total
        frames.append(frame[total.notna()])
    elif len(parts) == 1 and isinstance(parts[0].gas, pd.Series) and total is not None:
        frames[0]["reported_tco2e"] = total.loc[frames[0].index]  # long format: kept to check
    canonical = pd.concat(frames) if frames else base.iloc[:0].assign(basis=None)
    return _with_only_biogenic(canonical, base)


def _with_only_biogenic(canonical: pd.DataFrame, base: pd.DataFrame) -> pd.DataFrame:
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


def _melted_parts(base: pd.DataFrame, parts: list[Part], reading: Reading) -> pd.DataFrame | None:
    """What ``_emission_rows`` concatenates from a frame per part (each gas column), built
    with one take of the base rows: the same rows, order, values and dtypes, without copying
    the base once per part. None when a part's gas is a column (long format) or its values
    are not floats on the base's rows: the frame per part then."""
    if not parts:
        return None
    picked, gases, co2e_flags, methods, values_of = [], [], [], [], []
    for part in parts:
        if not isinstance(part.gas, str):
            return None
        values = part.values * reading.factors.get(part.column, 1.0)
        if values.dtype != np.float64 or not values.index.equals(base.index):
            return None
        co2e = reading.co2e.get(part.column, part.co2e)
        method = F.scope2_method_of(part.column)
        gas: str | None = part.gas
        if co2e and gas in (part.column, _label(part.column)):
            gas = None if method else _label(part.column)
        numbers = values.to_numpy()
        picked.append(np.flatnonzero(~np.isnan(numbers)))
        values_of.append(numbers)
        gases.append(gas)
        co2e_flags.append(bool(co2e))
        methods.append(method)
    positions = np.concatenate(picked)
    if not len(positions):  # the dtypes of empty parts: left to the concatenation
        return None
    counts = [len(p) for p in picked]
    canonical = base.take(positions)
    gas_cells = np.repeat(np.array(gases, dtype=object), counts)
    # a frame per part: a str column where its gas is text, an object one where it is None;
    # the concatenation is str only when every part's is
    text_gases = all(isinstance(g, str) for g in gases)
    canonical[F.GAS] = pd.Series(
        gas_cells, index=canonical.index, dtype=None if text_gases else object
    )
    if any(methods):
        canonical[F.SCOPE2_METHOD] = _part_methods(base, methods, picked, canonical.index)
    mass = [
        np.full(len(p), np.nan) if c else v[p]
        for p, c, v in zip(picked, co2e_flags, values_of, strict=True)
    ]
    co2e_values = [
        v[p] if c else np.full(len(p), np.nan)
        for p, c, v in zip(picked, co2e_flags, values_of, strict=True)
    ]
    canonical[F.EMISSIONS_T_GAS] = np.concatenate(mass)
    canonical[F.EMISSIONS_TCO2E] = np.concatenate(co2e_values)
    basis = np.repeat(
        np.array(["reported" if c else "computed" for c in co2e_flags], dtype=object), counts
    )
    canonical["basis"] = pd.Series(basis, index=canonical.index, dtype=None)
    return canonical


def _part_methods(base: pd.DataFrame, methods: list[str | None], picked, index) -> pd.Series:
    """The Scope 2 method column of the melted parts: the part's method where its column
    names one (a str column), the row's own elsewhere; object when those dtypes differ."""
    own = base[F.SCOPE2_METHOD]
    text = pd.Series(["x"]).dtype  # the dtype pandas gives a column of one text
    dtypes = {text if m else own.dtype for m in methods}
    cells = np.concatenate(
        [
            np.full(len(p), m, dtype=object) if m else own.to_numpy(dtype=object)[p]
            for m, p in zip(methods, picked, strict=True)
        ]
    )
    dtype = dtypes.pop() if len(dtypes) == 1 else object
    return pd.Series(cells, index=index, dtype=dtype)


def _label(column: str) -> str:
    """A CO2e column that names no gas ('Other GHGs (metric tons CO2e)') keeps its name."""
    return re.sub(r"\s*\([^)]*\)\s*$", "", column.rsplit(F.HEADER_JOIN, 1)[-1]).strip() or column


def _named_gases(canonical: pd.DataFrame) -> pd.DataFrame:
    """A row's own gas where its column only names a family: under "HFCs e SF6 (tCO2e)" the
    row whose fuel/gas cell says "R-404A" is R-404A and the one that says "SF6" is SF6. A
    family has no GWP of its own; the row's cell names a gas that has one, so a question on
    refrigerants (not SF6) or a total under another GWP set reads the right gas."""
    if F.FUEL not in canonical or F.GAS not in canonical or canonical.empty:
        return canonical
    family = map_unique(canonical[F.GAS], _is_family).astype(bool).to_numpy()
    if not family.any():
        return canonical
    # By position: after the melt, a row's gases share its index label.
    named = map_unique(canonical[F.FUEL], _gas_with_gwp).to_numpy(dtype=object)
    found = family & pd.notna(named)
    if found.any():
        gases = canonical[F.GAS].to_numpy(dtype=object, copy=True)
        gases[found] = named[found]
        canonical[F.GAS] = gases
    return canonical


def _own_gases(gas: str | None, base: pd.DataFrame) -> str | pd.Series | None:
    """A family column's gas row by row, as ``_named_gases`` reads it: the row total is
    checked with the GWP of the gas each row names (a "HFC / SF6 (t)" column holds R-410A in
    one row and SF6 in another), not with a family that has none."""
    if not _is_family(gas) or F.FUEL not in base:
        return gas
    named = map_unique(base[F.FUEL], _gas_with_gwp)
    if named.isna().all():
        return gas
    return named.where(named.notna(), gas)


def _is_family(gas: object) -> bool:
    """A gas label no GWP set gives a value for ("HFCs", "PFCs", "Gases F")."""
    return (
        isinstance(gas, str)
        and gas != BIOGENIC_CO2
        and all(gwp(gas, s) is None for s in ("AR4", "AR5", "AR6"))
    )


def _gas_with_gwp(cell: object) -> str | None:
    """The gas a fuel/gas cell names when it is one with a GWP (a refrigerant, SF6), else
    None: a fuel ("Gás natural") is no gas of its own."""
    gas = canonical_gas(cell)
    if gas is None or gas in ("CO2", "CH4", "N2O", BIOGENIC_CO2):
        return None
    return gas if any(gwp(gas, s) is not None for s in ("AR4", "AR5", "AR6")) else None


def _with_co2e(canonical: pd.DataFrame, gwp_set: GwpSet, ch4_origin: Ch4Origin) -> pd.DataFrame:
    """t CO2e = t of gas x GWP where a gas mass is known; a reported CO2e figure is kept as is
    (never multiplied again)."""
    # Masses the workbook gave per gas, and masses computed from its activity data.
    computed = (
        canonical["basis"].isin(("computed", "activity")) & canonical[F.EMISSIONS_T_GAS].notna()
    )
    factors = map_unique(
        canonical[F.GAS], lambda g: gwp(g, gwp_set, ch4_origin) if isinstance(g, str) else None
    )
    canonical["gwp"] = pd.to_numeric(factors, errors="coerce").where(computed)
    ours = canonical[F.EMISSIONS_T_GAS] * canonical["gwp"]
    canonical[F.EMISSIONS_TCO2E] = ours.where(computed, canonical[F.EMISSIONS_TCO2E])
    return canonical


def _reporting(canonical: pd.DataFrame, table: SheetTable, gwp_set: str) -> pd.DataFrame:
    """What each row counts for: the inventory, or a memo item beside it.

    Biogenic CO2, Montreal Protocol gases (their share of a blend) and market-based Scope 2
    are reported apart: ``emissions_tco2e`` is 0 on those rows and ``memo_tco2e`` holds them.
    """
    canonical[F.REPORTING] = F.IN_INVENTORY
    canonical[F.MEMO_TCO2E] = 0.0
    biogenic = canonical[F.GAS] == BIOGENIC_CO2
    if biogenic.any():
        mass = canonical.loc[biogenic, F.EMISSIONS_T_GAS]
        canonical.loc[biogenic, F.BIOGENIC_CO2] = mass.fillna(
            canonical.loc[biogenic, F.BIOGENIC_CO2]
        )
        canonical.loc[biogenic, F.MEMO_TCO2E] = canonical.loc[biogenic, F.BIOGENIC_CO2]
        canonical.loc[biogenic, F.EMISSIONS_TCO2E] = 0.0
        canonical.loc[biogenic, F.REPORTING] = F.BIOGENIC
    share = map_unique(canonical[F.GAS], lambda g: montreal_share(g) if isinstance(g, str) else 0)
    share = pd.to_numeric(share, errors="coerce").fillna(0.0)
    montreal = share > 0
    if montreal.any():
        co2e = canonical.loc[montreal, F.EMISSIONS_TCO2E]
        weight = map_unique(
            canonical.loc[montreal, F.GAS], lambda g: _montreal_co2e_share(g, gwp_set)
        )
        memo = co2e * pd.to_numeric(weight, errors="coerce").fillna(1.0)
        canonical.loc[montreal, F.MEMO_TCO2E] = memo
        canonical.loc[montreal, F.EMISSIONS_TCO2E] = co2e - memo
        pure = montreal & (share >= 1.0)
        canonical.loc[pure, F.REPORTING] = F.MONTREAL
    scope2 = canonical[F.SCOPE] == "2"
    method = _scope2_methods(canonical, table, scope2)
    canonical[F.SCOPE2_METHOD] = method
    market = scope2 & (method == F.MARKET) if scope2.any() else scope2
    if market.any():
        canonical.loc[market, F.MEMO_TCO2E] = canonical.loc[market, F.EMISSIONS_TCO2E]
        canonical.loc[market, F.EMISSIONS_TCO2E] = 0.0
        canonical.loc[market, F.REPORTING] = F.SCOPE2_MARKET
    return canonical


def _montreal_co2e_share(gas: str, gwp_set: str) -> float:
    """The part of a blend's CO2e that comes from its Montreal components."""
    parts = [(part, share, gwp(part, gwp_set)) for part, share in split_blend(gas)]
    total = sum(share * (value or 0.0) for _, share, value in parts)
    if not total:
        return 1.0 if montreal_share(gas) >= 1.0 else 0.0
    return sum(share * (value or 0.0) for p, share, value in parts if is_montreal(p)) / total


def _scope2_methods(canonical: pd.DataFrame, table: SheetTable, scope2: pd.Series) -> pd.Series:
    """Location or market for Scope 2 rows: from a method column, the labels, or the sheet."""
    if not scope2.any():  # only Scope 2 rows carry a method: nothing to look for
        nothing = np.full(len(canonical), None, dtype=object)
        return pd.Series(nothing, index=canonical.index, dtype=object)
    method = pd.Series(None, index=canonical.index, dtype=object)
    if F.SCOPE2_METHOD in canonical:
        method = map_unique(canonical[F.SCOPE2_METHOD], F.scope2_method_of).astype(object)
    for column in (F.CATEGORY, F.SOURCE):
        if column in canonical and method.isna().any():
            method = method.fillna(map_unique(canonical[column], F.scope2_method_of))
    sheet = F.scope2_method_of(table.sheet) or F.scope2_method_of(table.title)
    if sheet:
        method = method.fillna(sheet)
    return method.where(scope2, None).where(~scope2 | method.notna(), F.LOCATION)


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
    if table.lineage:  # coded rows: the subtotals above say the scope and category
        # once per sheet row, not per melted row (a row per year: 31 times the work)
        rows = base["row"]
        scope = scope.fillna(rows.map(_per_row(table.lineage, _scope_of_lineage)))
        if base[F.CATEGORY].isna().any():
            base[F.CATEGORY] = base[F.CATEGORY].fillna(
                rows.map(_per_row(table.lineage, _category_of_lineage))
            )
            scope = scope.fillna(
                map_unique(base[F.CATEGORY], lambda c: (F.category_of(c) or (None,))[0])
            )
    if base[F.GAS].isna().all():  # a sheet per gas: 'CO2', 'HFC-134a', 'Emissões de CH4'
        gas = canonical_gas(table.sheet) or F.gas_in_header(F.words(table.title))
        if gas and gas != BIOGENIC_CO2:
            base[F.GAS] = gas
    if base[F.CODE].notna().any():
        scope = scope.fillna(map_unique(base[F.CODE], F.gpc_scope).astype(object))
    if context:
        scope = scope.fillna(context[0])
    sheet_scope = F.parse_scope(re.sub(r"^.*?(escopo|scope)", r"\1", F.words(table.sheet)))
    if sheet_scope:
        scope = scope.fillna(sheet_scope)
    base[F.SCOPE] = scope
    if base[F.YEAR].isna().all():
        year = F.year_in_text(f"{table.sheet} {table.title}")
        if year:
            base[F.YEAR] = year
    else:
        base[F.YEAR] = map_unique(base[F.YEAR], lambda y: str(y)[:4] if y else None)


def _per_row(lineage: dict[int, list[str]], func) -> pd.Series:
    """``func`` of each row's lineage, by sheet row (a row without one maps to NaN)."""
    return pd.Series({row: func(tuple(labels)) for row, labels in lineage.items()}, dtype=object)


@lru_cache(maxsize=16_384)  # lineages repeat across the sheets of a workbook (one per year)
def _scope_of_lineage(labels: tuple[str, ...]) -> str | None:
    return next((found for label in labels if (found := F.parse_scope(label))), None)


@lru_cache(maxsize=16_384)
def _category_of_lineage(labels: tuple[str, ...]) -> str | None:
    for label in labels:
        known = F.category_of(label)
        if known:
            return known[1]
    return next((label for label in labels if not F.parse_scope(label)), None)


def _row_units(body: pd.DataFrame, column: str | None) -> pd.Series | None:
    if not column:
        return None
    return body[column].map(mass_factor)


def _report_gaps(
    table: SheetTable, base: pd.DataFrame, canonical: pd.DataFrame, findings: list[Finding]
) -> None:
    empty = sorted({int(r) for r in base.loc[base.index.difference(canonical.index), "row"]})
    if empty:
        text = _TEXTS.both("rows_without_emissions", rows=rows_text(empty))
        findings.append(_finding("rows_without_emissions", text, table.sheet, tuple(empty)))
    if table.error_cells:
        rows = tuple(sorted({r for r, _ in table.error_cells}))
        cells = Both.join(", ", [_TEXTS.both("error_cell", cell=c, row=r)
                                 for r, c in table.error_cells[:6]])  # fmt: skip
        text = _TEXTS.both("error_cells", cells=cells)
        findings.append(_finding("error_cells", text, table.sheet, rows))


def table_convention(body: pd.DataFrame, columns: list[str], hint: bool | None) -> bool:
    """Decimal comma or point for the whole table, from every number written as text."""
    brazilian = english = 0
    for column in columns:
        b, e = decimal_votes(body[column])
        brazilian, english = brazilian + b, english + e
    if brazilian != english:
        return brazilian > english
    return True if hint is None else hint  # Brazil first: 1.234 is a thousand and more
