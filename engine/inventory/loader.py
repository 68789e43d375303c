"""``load_inventory``: a file (path, bytes or upload) in, an ``Inventory`` out."""

from __future__ import annotations

import re
from os import PathLike
from pathlib import Path
from typing import IO

import pandas as pd

from engine.inventory.analytics import quality_findings
from engine.inventory.canonical import canonicalize, map_columns
from engine.inventory.errors import (
    FileTooLargeError,
    NoEmissionsColumnError,
    NoTableFoundError,
)
from engine.inventory.findings import Finding
from engine.inventory.gwp import DEFAULT_GWP_SET, check_gwp_set
from engine.inventory.inventory import Inventory
from engine.inventory.reader import Limits, RawSheet, read_sheets, sheet_names
from engine.inventory.table import find_table

Source = str | PathLike[str] | bytes | bytearray | IO[bytes]
Overrides = dict[str, str | None] | dict[str, dict[str, str | None]]


def load_inventory(
    source: Source,
    *,
    filename: str | None = None,
    sheets: list[str] | None = None,
    gwp_set: str = DEFAULT_GWP_SET,
    column_overrides: Overrides | None = None,
    max_bytes: int = Limits.max_bytes,
    max_rows: int = Limits.max_rows,
) -> Inventory:
    """Read every sheet (or ``sheets``), find each table, map it and compute t CO2e.

    Raises an ``InventoryError`` subclass with a Portuguese and an English message.
    """
    chosen_set = check_gwp_set(gwp_set)
    limits = Limits(max_bytes=max_bytes, max_rows=max_rows)
    data, name = _read_source(source, filename, limits)
    raw_sheets = read_sheets(data, name, sheets=sheets, limits=limits)
    return _build(raw_sheets, name, chosen_set, column_overrides or {})


def list_sheets(
    source: Source, *, filename: str | None = None, max_bytes: int = Limits.max_bytes
) -> list[str]:
    """The sheets a user may pick from, after the same checks ``load_inventory`` makes."""
    limits = Limits(max_bytes=max_bytes)
    data, name = _read_source(source, filename, limits)
    return sheet_names(data, name, limits=limits)


def load_markdown_inventory(text: str, *, gwp_set: str = DEFAULT_GWP_SET) -> Inventory:
    """An inventory given as a Markdown table (the reference contract's input)."""
    rows = [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in text.splitlines()
        if line.strip().startswith("|") and not re.fullmatch(r"\s*\|[\s:|\-]+\|?\s*", line)
    ]
    return _build([RawSheet("Markdown", rows)], "inventário (Markdown)", check_gwp_set(gwp_set), {})


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


def _build(raw_sheets: list[RawSheet], name: str, gwp_set, overrides: Overrides) -> Inventory:
    tables, mappings, findings, skipped = [], {}, [], {}
    columns_seen: list[str] = []
    totals = []
    for raw in raw_sheets:
        found = find_table(raw)
        if found is None:
            skipped[raw.name] = "nenhuma tabela encontrada"
            continue
        columns_seen.extend(c for c in found.columns if c not in columns_seen)
        mapping = map_columns(found, _overrides_for(overrides, raw.name))
        result = canonicalize(found, mapping, gwp_set)
        mappings[raw.name] = result.mapping
        if result.table is None:
            skipped[raw.name] = "nenhuma coluna de emissões"
            continue
        tables.append(result.table)
        findings.extend(result.findings)
        if len(found.totals):
            totals.append(found.totals.assign(sheet=raw.name))
    if not tables:
        if not columns_seen:
            raise NoTableFoundError(name or "o arquivo")
        raise NoEmissionsColumnError(columns_seen[:30])
    table = pd.concat(tables, ignore_index=True, sort=False)
    findings.extend(quality_findings(table))
    findings.extend(_skipped_findings(skipped))
    return Inventory(
        table=table,
        mapping=mappings,
        gwp_set=gwp_set,
        findings=findings,
        source_name=name,
        sheets=[t["sheet"].iloc[0] for t in tables if len(t)],
        skipped_sheets=skipped,
        reported_totals=pd.concat(totals, sort=False) if totals else pd.DataFrame(),
    )


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
