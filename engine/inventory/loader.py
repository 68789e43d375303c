"""``load_inventory``: a file (path, bytes or upload) in, an ``Inventory`` out."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from os import PathLike
from pathlib import Path
from typing import IO

import pandas as pd

from engine.emissions import FactorLibrary, default_library
from engine.gases.gwp import (
    DEFAULT_CH4_ORIGIN,
    DEFAULT_GWP_SET,
    Ch4Origin,
    GwpSet,
    check_ch4_origin,
    check_gwp_set,
)
from engine.inventory import activity as A
from engine.inventory.analytics import quality_findings
from engine.inventory.canonical import (
    SheetResult,
    canonicalize,
    canonicalize_activity,
    map_columns,
    table_convention,
    with_activity_check,
)
from engine.inventory.errors import (
    ActivityNotComputedError,
    FileTooLargeError,
    NoEmissionsColumnError,
    NoTableFoundError,
)
from engine.inventory.findings import Finding
from engine.inventory.inventory import Inventory
from engine.inventory.layout import reshape_time_columns
from engine.inventory.plausibility import inventory_kind, magnitude_message
from engine.inventory.reader import Limits, RawSheet, read_sheets, sheet_names
from engine.inventory.reconcile import Evidence, SheetCheck
from engine.inventory.table import HEADER_SEARCH_ROWS, SheetTable, find_table, stacked_parts
from engine.inventory.units import UNIT_FACTORS, to_numbers
from engine.inventory.views import SheetData, resolve_views
from engine.texts import Texts

_TEXTS = Texts(
    "engine.inventory.loader",
    {
        "the_file": {"pt": "o arquivo", "en": "the file"},
        "skip.no_table": {"pt": "nenhuma tabela encontrada", "en": "no table found"},
        "skip.no_emissions_column": {
            "pt": "nenhuma coluna de emissões",
            "en": "no emissions column",
        },
        "skip.not_computed": {
            "pt": "dados de atividade não calculados",
            "en": "activity data not computed",
        },
        "sheet_skipped": {"pt": "Aba ignorada: {reason}.", "en": "Sheet skipped: {reason}."},
    },
)

Source = str | PathLike[str] | bytes | bytearray | IO[bytes]
Overrides = dict[str, str | None] | dict[str, dict[str, str | None]]


def load_inventory(
    source: Source,
    *,
    filename: str | None = None,
    sheets: list[str] | None = None,
    gwp_set: str = DEFAULT_GWP_SET,
    ch4_origin: str = DEFAULT_CH4_ORIGIN,
    column_overrides: Overrides | None = None,
    max_bytes: int = Limits.max_bytes,
    max_rows: int = Limits.max_rows,
    factors: FactorLibrary | None = None,
    units: dict[str, str] | None = None,
) -> Inventory:
    """Read every sheet (or ``sheets``), find each table, map it, compute t CO2e and
    reconcile every sheet with its own totals (``Inventory.reconciliation``).

    ``ch4_origin`` ("general", "fossil", "non_fossil") picks AR6's methane GWP. Tables of
    activity data (liters, m³, MWh, kg of refrigerant...) are computed with the factor
    library; ``factors`` are the user's own (``engine.emissions.read_factor_csv``), laid over
    the default library (a library that already holds the defaults is used as is).
    ``units`` maps a sheet to the unit ("t", "kg", "Gg", "Mt") the user chose for its emission
    columns whose unit the file states nowhere (an ``ambiguous`` sheet).
    Raises an ``InventoryError`` subclass with a Portuguese and an English message.
    """
    chosen_set = check_gwp_set(gwp_set)
    origin = check_ch4_origin(ch4_origin)
    limits = Limits(max_bytes=max_bytes, max_rows=max_rows)
    data, name = _read_source(source, filename, limits)
    raw_sheets = read_sheets(data, name, sheets=sheets, limits=limits)
    choices = _Choices(chosen_set, origin, _library(factors), _check_units(units or {}))
    return _build(raw_sheets, name, choices, column_overrides or {})


def _library(factors: FactorLibrary | None) -> FactorLibrary | None:
    """The library the activity sheets are computed with: None is the default one."""
    if factors is None or not len(factors):
        return None
    if all(f.user for f in factors):  # a user's file alone: over the defaults
        return default_library().overlay(factors)
    return factors


def list_sheets(
    source: Source, *, filename: str | None = None, max_bytes: int = Limits.max_bytes
) -> list[str]:
    """The sheets a user may pick from, after the same checks ``load_inventory`` makes."""
    limits = Limits(max_bytes=max_bytes)
    data, name = _read_source(source, filename, limits)
    return sheet_names(data, name, limits=limits)


def table_sheets(
    source: Source, *, filename: str | None = None, max_bytes: int = Limits.max_bytes
) -> list[str]:
    """The sheets in which a table is found, in the workbook's order: those a reading takes
    by default. A cover or an instructions sheet of prose holds none. Only the rows a header
    is looked for in are read."""
    limits = Limits(max_bytes=max_bytes)
    data, name = _read_source(source, filename, limits)
    if len(names := sheet_names(data, name, limits=limits)) < 2:  # nothing to leave out
        return names
    heads = read_sheets(data, name, sheets=None, limits=limits, head=HEADER_SEARCH_ROWS)
    return [raw.name for raw in heads if find_table(raw) is not None]


def load_markdown_inventory(
    text: str, *, gwp_set: str = DEFAULT_GWP_SET, ch4_origin: str = DEFAULT_CH4_ORIGIN
) -> Inventory:
    """An inventory given as a Markdown table (the reference contract's input)."""
    rows = [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in text.splitlines()
        if line.strip().startswith("|") and not re.fullmatch(r"\s*\|[\s:|\-]+\|?\s*", line)
    ]
    return _build(
        [RawSheet("Markdown", rows)],
        "inventário (Markdown)",
        _Choices(check_gwp_set(gwp_set), check_ch4_origin(ch4_origin)),
        {},
    )


def _read_source(source: Source, filename: str | None, limits: Limits) -> tuple[bytes, str]:
    if isinstance(source, bytes | bytearray):
        return bytes(source), filename or ""
    if isinstance(source, str | PathLike):
        path = Path(source)
        size = path.stat().st_size
        if size > limits.max_bytes:
            raise FileTooLargeError(size, limits.max_bytes)
        return path.read_bytes(), filename or path.name
    data = source.read(limits.max_bytes + 1)
    if len(data) > limits.max_bytes:
        raise FileTooLargeError(len(data), limits.max_bytes)
    return data, filename or Path(str(getattr(source, "name", "") or "")).name


@dataclass(frozen=True)
class _Choices:
    """What the user chose for the whole inventory."""

    gwp_set: GwpSet
    ch4_origin: Ch4Origin
    factors: FactorLibrary | None = None  # None: the default factor library
    units: dict[str, str] = field(default_factory=dict)  # sheet -> the unit the user chose


def _check_units(units: dict[str, str]) -> dict[str, str]:
    unknown = {unit for unit in units.values() if unit not in UNIT_FACTORS}
    if unknown:
        raise ValueError(f"unknown units {sorted(unknown)}; use one of {sorted(UNIT_FACTORS)}")
    return dict(units)


@dataclass
class _Read:
    """One sheet read: its canonical rows, or why its activity data was not computed."""

    result: SheetResult | None
    factors_used: pd.DataFrame | None = None
    not_computed: list[Finding] = field(default_factory=list)


def _read_sheet(
    found: SheetTable, overrides: dict[str, str | None], file_name: str, choices: _Choices
) -> _Read:
    """A table of emissions, of activity data (computed with the factor library), or of
    both (theirs kept, checked row by row against ours)."""
    original_mapping = map_columns(found, overrides)
    user_unit = choices.units.get(found.sheet)
    plan = A.plan_activity(found, original_mapping, file_name, user_unit)
    rows = None
    if plan is not None:
        columns = [c for c in (*plan.quantity_columns, plan.total_column) if c]
        parse = _parser_for(found)(columns)
        rows = A.collect_rows(
            found, plan, parse, gwp_set=choices.gwp_set, factors=choices.factors,
            strict=not plan.mixed,
        )  # fmt: skip
        if not plan.mixed and not rows.found_any:
            plan = rows = None  # quantities of nothing the library knows: read as before
    if plan is not None and rows is not None and not plan.mixed:
        if not len(rows.requests):  # known activities, none computed (no year, no factor)
            return _Read(None, not_computed=A.row_findings(rows, found.sheet))
        result = canonicalize_activity(
            found, original_mapping, plan, rows, choices.gwp_set, choices.ch4_origin, parse,
            user_unit=user_unit,
        )  # fmt: skip
        return _Read(result, A.factors_used(rows, found.sheet, "computed"))
    reshaped = reshape_time_columns(found, _parser_for(found))
    mapping = original_mapping if reshaped is found else map_columns(reshaped, overrides)
    check = None
    if rows is not None and reshaped is found:  # their emissions, checked by ours
        check = with_activity_check(rows, found.sheet, choices.gwp_set, choices.ch4_origin)
    result = canonicalize(
        reshaped, mapping, choices.gwp_set, choices.ch4_origin,
        original=found, original_mapping=original_mapping, check=check,
        user_unit=user_unit,
        activity=rows.requests if rows is not None and reshaped is found else None,
    )  # fmt: skip
    if check is None or rows is None or result.table is None or not len(rows.requests):
        return _Read(result)
    A.mark_activities(result.table, rows)
    return _Read(result, A.factors_used(rows, found.sheet, "checked"))


def _build(
    raw_sheets: list[RawSheet], name: str, choices: _Choices, overrides: Overrides
) -> Inventory:
    gwp_set, ch4_origin = choices.gwp_set, choices.ch4_origin
    mappings, findings, skipped = {}, [], {}
    used: list[pd.DataFrame] = []
    incomplete: dict[str, list[Finding]] = {}
    sheets: list[SheetData] = []
    columns_seen: list[str] = []
    totals = []
    parts = [
        (raw, found, number)
        for whole in raw_sheets
        for number, (raw, found) in enumerate(stacked_parts(whole))
    ]
    for raw, found, number in parts:
        if found is None:
            if not number:  # a table stacked under another that reads as none is no sheet
                skipped[raw.name] = _NO_TABLE
            continue
        columns_seen.extend(c for c in found.columns if c not in columns_seen)
        read = _read_sheet(found, _overrides_for(overrides, raw.name), name, choices)
        if read.result is None:
            incomplete[raw.name] = read.not_computed  # said why, not counted
            skipped[raw.name] = _NOT_COMPUTED
            continue
        result = read.result
        if read.factors_used is not None:
            used.append(read.factors_used)
        mappings[raw.name] = result.mapping
        if result.table is None:
            skipped[raw.name] = _NO_EMISSIONS
            continue
        sheets.append(SheetData(raw.name, found.title, result.table, result.check))
        findings.extend(result.findings)
        if len(found.totals):
            totals.append(found.totals.assign(sheet=raw.name))
    if not sheets:
        if not columns_seen:
            raise NoTableFoundError(name or _TEXTS.both("the_file"))  # type: ignore[arg-type]
        if incomplete:
            reasons = [f for found in incomplete.values() for f in found][:3]
            raise ActivityNotComputedError(
                columns_seen[:30], [f.message_pt for f in reasons], [f.message_en for f in reasons]
            )
        raise NoEmissionsColumnError(columns_seen[:30])
    for found in incomplete.values():
        findings.extend(found)
    resolved = resolve_views(sheets, gwp_set, ch4_origin)
    skipped.update(resolved.skipped)
    kept = resolved.kept
    table = pd.concat([s.table for s in kept], ignore_index=True, sort=False)
    checks = [s.check for s in kept if s.check is not None] + resolved.checks
    findings = [f for f in findings if f.sheet not in resolved.skipped]
    findings.extend(resolved.findings)
    findings.extend(quality_findings(table))
    findings.extend(_magnitude_findings(checks, table))
    checks = _implausible_is_conflict(checks, findings)
    checks = _without_idle_checks(checks, table)
    findings.extend(_skipped_findings({k: v for k, v in skipped.items()
                                       if k not in resolved.skipped}))  # fmt: skip
    return Inventory(
        table=table,
        mapping=mappings,
        gwp_set=gwp_set,
        findings=findings,
        source_name=name,
        sheets=[s.name for s in kept if len(s.table)],
        skipped_sheets=skipped,
        reported_totals=pd.concat(totals, sort=False) if totals else pd.DataFrame(),
        ch4_origin=ch4_origin,
        reconciliation=checks,
        factors_used=_factors_used(used, {s.name for s in kept}),
        factors=choices.factors,
    )


def _without_idle_checks(checks: list[SheetCheck], table: pd.DataFrame) -> list[SheetCheck]:
    """An unverified sheet that adds nothing to the totals (a GWP reference table, a memo
    table of Montreal gases under the data) has no figure of the inventory to prove: it
    does not make the inventory's totals unproven."""
    if "reporting" not in table:
        return checks
    counted = set(table.loc[table["reporting"] == "inventory", "sheet"].astype(str))
    return [c for c in checks if c.status != "unverified" or c.sheet in counted]


_IMPLAUSIBLE = ("implausible_magnitude", "activity_implausible")


def _implausible_is_conflict(checks: list[SheetCheck], findings: list[Finding]):
    """A reading that is physically impossible (1 t of CO2 per litre of diesel, a city above
    any city) is wrong whatever its row checks say: its sheet is in conflict, and says why."""
    wrong: dict[str, list[Finding]] = {}
    for finding in findings:
        if finding.code in _IMPLAUSIBLE:
            wrong.setdefault(finding.sheet, []).append(finding)
    result = []
    for check in checks:
        said = wrong.get(check.sheet)
        if not said or check.status == "conflict":
            result.append(check)
            continue
        pt = " ".join(f.message_pt for f in said)
        en = " ".join(f.message_en for f in said)
        result.append(replace(
            check, status="conflict", message_pt=f"{pt} {check.message_pt}",
            message_en=f"{en} {check.message_en}",
            evidence=(*check.evidence, Evidence("plausibility", len(said), 0, pt, en)),
        ))  # fmt: skip
    return result


def _magnitude_findings(checks: list[SheetCheck], table: pd.DataFrame) -> list[Finding]:
    """Sheets that emit more in their headline year than any inventory of their kind can."""
    years = table["year"].dropna().nunique() if "year" in table else 0
    kind = inventory_kind(table, years)
    found = []
    for check in checks:
        said = magnitude_message(check.sheet, check.computed_tco2e, kind)
        if said is not None:
            found.append(Finding("implausible_magnitude", said[0], said[1], check.sheet))
    return found


def _factors_used(frames: list[pd.DataFrame], kept: set[str]) -> pd.DataFrame:
    frames = [f[f["sheet"].isin(kept)] for f in frames if len(f)]
    if not frames:
        return pd.DataFrame(columns=list(A.FACTOR_COLUMNS))
    return pd.concat(frames, ignore_index=True)


def _parser_for(found):
    """Numbers of the time columns, read with the convention those columns share."""

    def parser(columns: list[str]):
        comma = table_convention(found.body, columns, found.decimal_comma)
        return lambda values: to_numbers(values, decimal_comma=comma)

    return parser


def _overrides_for(overrides: Overrides, sheet: str) -> dict[str, str | None]:
    if any(isinstance(value, dict) for value in overrides.values()):
        return dict(overrides.get(sheet) or {})  # type: ignore[arg-type]
    return dict(overrides)  # type: ignore[arg-type]


# Why a sheet was left out, as ``Inventory.skipped_sheets`` keeps it (in Portuguese), and the
# key its finding says it with.
_SKIPPED = ("skip.no_table", "skip.no_emissions_column", "skip.not_computed")
_REASON_KEYS = {_TEXTS(key, "pt"): key for key in _SKIPPED}
_NO_TABLE, _NO_EMISSIONS, _NOT_COMPUTED = (_TEXTS(key, "pt") for key in _SKIPPED)


def _skipped_findings(skipped: dict[str, str]) -> list[Finding]:
    """A data sheet left out says why; a sheet with no table at all (a cover, instructions:
    prose) is left out silently, listed in ``skipped_sheets`` only: nothing to correct."""
    said = {sheet: _TEXTS.both("sheet_skipped", reason=_TEXTS.both(_REASON_KEYS[reason]))
            for sheet, reason in skipped.items() if reason != _NO_TABLE}  # fmt: skip
    return [Finding("sheet_skipped", s.pt, s.en, sheet) for sheet, s in said.items()]
