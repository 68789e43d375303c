"""Rows computed outside the workbook (the calculator's), joined to an ingested inventory.

They come in as an inventory of their own, read by the same loader from a small activity
table, so their emissions, memo items and factors follow every rule the workbook's do; here
they only move in under a sheet name of their own, so nothing of the workbook is changed
and the reconciliation of its sheets still speaks of the workbook alone.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import replace

import pandas as pd

from engine.inventory.inventory import Inventory

ADDED_SHEET = "Calculadora"
_HEADER = ("Fonte", "Quantidade", "Unidade", "Período")


def added_rows_table(rows: Sequence[Mapping[str, object]], names: Mapping[str, str]) -> bytes:
    """The rows as the activity table the loader reads: source (the activity's name),
    quantity, unit and period. ``names`` maps activity ids to names the library knows."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(_HEADER)
    for row in rows:
        activity = str(row["activity"])
        writer.writerow(
            [names.get(activity, activity), row["quantity"], row["unit"], row["period"]]
        )
    return out.getvalue().encode()


def with_added(main: Inventory, added: Inventory, sheet: str = ADDED_SHEET) -> Inventory:
    """``main`` with ``added``'s rows, findings, checks and factors under ``sheet``."""
    if main.gwp_set != added.gwp_set:
        raise ValueError("added rows must be computed with the inventory's GWP set")
    table = added.table.assign(sheet=sheet)
    factors = added.factors_used.assign(sheet=sheet) if len(added.factors_used) else None
    return replace(
        main,
        table=pd.concat([main.table, table], ignore_index=True),
        mapping={**main.mapping, sheet: next(iter(added.mapping.values()), {})},
        findings=[*main.findings, *(replace(f, sheet=sheet) for f in added.findings)],
        sheets=[*main.sheets, sheet],
        reconciliation=[
            *main.reconciliation,
            *(replace(check, sheet=sheet) for check in added.reconciliation),
        ],
        factors_used=(
            pd.concat([main.factors_used, factors], ignore_index=True)
            if factors is not None
            else main.factors_used
        ),
    )
