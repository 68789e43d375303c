"""How an inventory's totals stand against the workbook they came from, on the page.

The headline status (reconciled, unverified or a conflict with both numbers), the per-sheet
table and the order of the mapping table (the conflicting sheets first). Sheet names and the
engine's sentences are spreadsheet-derived: they go through ``sanitize``, never HTML.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from application.safe_text import csv_safe_frame, sanitize
from components.i18n import number, t
from engine.inventory import Inventory

_ICONS = {
    "reconciled": ":material/check_circle:",
    "unverified": ":material/help:",
    "conflict": ":material/error:",
}
DASH = "—"


def _amount(value: float | None) -> str:
    return DASH if value is None else number(value)


def conflict_totals(inventory: Inventory) -> tuple[float | None, float]:
    """What the conflicting sheets' own totals say, and what their rows sum to."""
    stated = [c.stated_tco2e for c in inventory.conflicts if c.stated_tco2e is not None]
    computed = sum(c.computed_tco2e for c in inventory.conflicts)
    return (sum(stated) if stated else None), computed


def status_text(inventory: Inventory) -> str:
    """The one-line status of the headline total, in the interface language."""
    if inventory.status == "conflict":
        stated, computed = conflict_totals(inventory)
        return t("status_conflict", stated=_amount(stated), computed=_amount(computed))
    return t("status_reconciled" if inventory.status == "reconciled" else "status_unverified")


def show_status(inventory: Inventory) -> None:
    """Green, grey or red under the headline total; a conflict lists its sheets."""
    text = status_text(inventory)
    icon = _ICONS.get(inventory.status, _ICONS["unverified"])
    if inventory.status == "reconciled":
        st.success(text, icon=icon)
    elif inventory.status == "conflict":
        lines = [
            "- "
            + t(
                "status_conflict_sheet",
                sheet=sanitize(check.sheet),
                stated=_amount(check.stated_tco2e),
                computed=_amount(check.computed_tco2e),
            )
            for check in inventory.conflicts
        ]
        st.error("\n".join([text, "", *lines, "", t("status_conflict_fix")]), icon=icon)
    else:
        st.info(text, icon=icon)


def conflicting_sheets(inventory: Inventory) -> list[str]:
    return list(dict.fromkeys(check.sheet for check in inventory.conflicts))


def conflicts_first(mapping: dict[str, dict], inventory: Inventory) -> list[str]:
    """The mapping's sheets, the conflicting ones first (in the workbook's order otherwise)."""
    conflicting = [s for s in conflicting_sheets(inventory) if s in mapping]
    return [*conflicting, *(s for s in mapping if s not in conflicting)]


def show_conflicts_in_mapping(inventory: Inventory, lang: str) -> None:
    for check in inventory.conflicts:
        st.error(
            t(
                "inv_mapping_conflict_sheet",
                sheet=sanitize(check.sheet),
                message=sanitize(check.message(lang)),
            ),
            icon=_ICONS["conflict"],
        )


def table(inventory: Inventory, lang: str) -> pd.DataFrame:
    """One row per sheet: status (a text symbol), stated and computed t CO2e, the sentence."""
    return pd.DataFrame(
        [
            {
                t("col_sheet"): sanitize(check.sheet),
                t("col_status"): t(f"rec_{check.status}"),
                t("col_stated"): _amount(check.stated_tco2e),
                t("col_computed"): _amount(check.computed_tco2e),
                t("col_detail"): sanitize(check.message(lang)),
            }
            for check in inventory.reconciliation
        ],
        columns=[t("col_sheet"), t("col_status"), t("col_stated"), t("col_computed"),
                 t("col_detail")],
    )  # fmt: skip


def show_table(inventory: Inventory, lang: str) -> None:
    if not inventory.reconciliation:
        st.write(t("inv_no_reconciliation"))
        return
    st.dataframe(
        csv_safe_frame(table(inventory, lang)),
        hide_index=True,
        column_config={
            t("col_stated"): st.column_config.TextColumn(width="small"),
            t("col_computed"): st.column_config.TextColumn(width="small"),
            t("col_detail"): st.column_config.TextColumn(width="large"),
        },
    )
