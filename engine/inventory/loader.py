"""``load_inventory``: a file (path, bytes or upload) in, an ``Inventory`` out."""

from __future__ import annotations

import re
from os import PathLike
from pathlib import Path
from typing import IO

import pandas as pd

from engine.inventory.analytics import quality_findings
from engine.inventory.canonical import canonicalize, map_columns, table_convention
from engine.inventory.errors import (
    FileTooLargeError,
    NoEmissionsColumnError,
    NoTableFoundError,
)
from engine.inventory.findings import Finding
from engine.inventory.gwp import (
    DEFAULT_CH4_ORIGIN,
    DEFAULT_GWP_SET,
    Ch4Origin,
    GwpSet,
    check_ch4_origin,
    check_gwp_set,
)
from engine.inventory.inventory import Inventory
from engine.inventory.layout import reshape_time_columns
from engine.inventory.reader import Limits, RawSheet, read_sheets, sheet_names
from engine.inventory.table import find_table
from engine.inventory.units import to_numbers
from engine.inventory.views import SheetData, resolve_views

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
) -> Inventory:
    """Read every sheet (or ``sheets``), find each table, map it, compute t CO2e and
    reconcile every sheet with its own totals (``Inventory.reconciliation``).

    ``ch4_origin`` ("general", "fossil", "non_fossil") picks AR6's methane GWP.
    Raises an ``InventoryError`` subclass with a Portuguese and an English message.
    """
    chosen_set = check_gwp_set(gwp_set)
    origin = check_ch4_origin(ch4_origin)
    limits = Limits(max_bytes=max_bytes, max_rows=max_rows)
    data, name = _read_source(source, filename, limits)
    raw_sheets = read_sheets(data, name, sheets=sheets, limits=limits)
    return _build(raw_sheets, name, chosen_set, origin, column_overrides or {})


def list_sheets(
    source: Source, *, filename: str | None = None, max_bytes: int = Limits.max_bytes
) -> list[str]:
    """The sheets a user may pick from, after the same checks ``load_inventory`` makes."""
    limits = Limits(max_bytes=max_bytes)
    data, name = _read_source(source, filename, limits)
    return sheet_names(data, name, limits=limits)


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
        check_gwp_set(gwp_set),
        check_ch4_origin(ch4_origin),
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


def _build(
    raw_sheets: list[RawSheet],
    name: str,
    gwp_set: GwpSet,
    ch4_origin: Ch4Origin,
    overrides: Overrides,
) -> Inventory:
    mappings, findings, skipped = {}, [], {}
    sheets: list[SheetData] = []
    columns_seen: list[str] = []
    totals = []
    for raw in raw_sheets:
        found = find_table(raw)
        if found is None:
            skipped[raw.name] = "nenhuma tabela encontrada"
            continue
        columns_seen.extend(c for c in found.columns if c not in columns_seen)
        sheet_overrides = _overrides_for(overrides, raw.name)
        original_mapping = map_columns(found, sheet_overrides)
        reshaped = reshape_time_columns(found, _parser_for(found))
        mapping = original_mapping if reshaped is found else map_columns(reshaped, sheet_overrides)
        result = canonicalize(
            reshaped, mapping, gwp_set, ch4_origin,
            original=found, original_mapping=original_mapping,
        )  # fmt: skip
        mappings[raw.name] = result.mapping
        if result.table is None:
            skipped[raw.name] = "nenhuma coluna de emissões"
            continue
        sheets.append(SheetData(raw.name, found.title, result.table, result.check))
        findings.extend(result.findings)
        if len(found.totals):
            totals.append(found.totals.assign(sheet=raw.name))
    if not sheets:
        if not columns_seen:
            raise NoTableFoundError(name or "o arquivo")
        raise NoEmissionsColumnError(columns_seen[:30])
    resolved = resolve_views(sheets, gwp_set, ch4_origin)
    skipped.update(resolved.skipped)
    kept = resolved.kept
    table = pd.concat([s.table for s in kept], ignore_index=True, sort=False)
    checks = [s.check for s in kept if s.check is not None] + resolved.checks
    findings = [f for f in findings if f.sheet not in resolved.skipped]
    findings.extend(resolved.findings)
    findings.extend(quality_findings(table))
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
    )


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


def _skipped_findings(skipped: dict[str, str]) -> list[Finding]:
    reasons_en = {"nenhuma tabela encontrada": "no table found",
                  "nenhuma coluna de emissões": "no emissions column"}  # fmt: skip
    return [
        Finding(
            "sheet_skipped",
            f"Aba ignorada: {reason}.",
            f"Sheet skipped: {reasons_en[reason]}.",
            sheet,
        )
        for sheet, reason in skipped.items()
    ]
