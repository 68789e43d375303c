"""How an inventory's totals stand against the workbook they came from, on the page.

What was read per sheet (status in words, the emission columns' unit and where it came
from, rows counted, computed and stated t CO2e), the headline status (reconciled,
unverified, an ambiguous unit, or a conflict with both numbers), the per-sheet table and the
order of the mapping table (the conflicting sheets first). Sheet names, column names and the
engine's sentences are spreadsheet-derived: they go through ``sanitize``, never HTML.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from application.safe_text import csv_safe_frame, sanitize
from components.i18n import TEXTS, number, t
from components.tables import localized, numeric
from engine.inventory import Inventory
from engine.inventory.reconcile import SheetCheck

_ICONS = {
    "reconciled": ":material/check_circle:",
    "unverified": ":material/help:",
    "ambiguous": ":material/straighten:",
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
    if inventory.status == "ambiguous":
        sheets = ", ".join(dict.fromkeys(check.sheet for check in inventory.ambiguous))
        return t("status_ambiguous", sheets=sanitize(sheets))
    return t("status_reconciled" if inventory.status == "reconciled" else "status_unverified")


def show_status(inventory: Inventory) -> None:
    """Green, grey or red under the headline total; a conflict lists its sheets."""
    text = status_text(inventory)
    icon = _ICONS.get(inventory.status, _ICONS["unverified"])
    if inventory.status == "reconciled":
        st.success(text, icon=icon)
    elif inventory.status == "ambiguous":  # never green: the unit is the user's to choose
        st.warning(text, icon=icon)
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


def status_label(status: str) -> str:
    """A sheet's status as a symbol and a word ("✓ Conferido"), never a symbol alone."""
    return t(f"rec_{status}") if f"rec_{status}" in TEXTS else t("rec_unverified")


def _emission_units(check: SheetCheck, lang: str) -> tuple[str, str]:
    """The units of a sheet's emission columns and where each came from, each said once.
    Activity quantities (no factor to tonnes) are the factor library's business, not here."""
    read = [unit for unit in check.units if unit.factor is not None]
    units = ", ".join(dict.fromkeys(unit.unit for unit in read))
    where = "; ".join(dict.fromkeys(unit.where(lang) for unit in read if unit.where(lang)))
    return units or DASH, where or DASH


def read_table(inventory: Inventory, lang: str) -> pd.DataFrame:
    """What was read, one row per sheet: status in words, the emission columns' unit and
    where it came from, the rows counted, computed and stated t CO2e."""
    columns = [t("col_sheet"), t("col_status"), t("col_unit"), t("col_unit_where"),
               t("col_rows_read"), t("col_computed"), t("col_stated")]  # fmt: skip
    rows = []
    for check in inventory.reconciliation:
        unit, where = _emission_units(check, lang)
        rows.append(
            dict(zip(columns, [sanitize(check.sheet), status_label(check.status),
                               sanitize(unit), sanitize(where), check.rows,
                               check.computed_tco2e, check.stated_tco2e],
                     strict=True))
        )  # fmt: skip
    return _numbers(pd.DataFrame(rows, columns=columns), _READ_DECIMALS)


# The numeric columns of the tables here and their decimals: numbers, so they sort as such,
# shown in the language's notation (``components.tables.localized``).
_READ_DECIMALS = {"col_rows_read": 0, "col_computed": 1, "col_stated": 1}
_TABLE_DECIMALS = {"col_stated": 1, "col_computed": 1}


def _numbers(frame: pd.DataFrame, decimals: dict[str, int]) -> pd.DataFrame:
    for key in decimals:
        frame[t(key)] = numeric(frame[t(key)])
    return frame


def _places(decimals: dict[str, int]) -> dict[str, int]:
    return {t(key): places for key, places in decimals.items()}


def show_read(inventory: Inventory, lang: str) -> None:
    if not inventory.reconciliation:
        st.caption(t("inv_no_reconciliation"))
        return
    st.dataframe(
        localized(csv_safe_frame(read_table(inventory, lang)), _places(_READ_DECIMALS)),
        hide_index=True,
        width="stretch",
        column_config={t("col_unit_where"): st.column_config.TextColumn(width="large")},
    )


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
    """One row per sheet: status (a symbol and a word), stated and computed t CO2e, the
    sentence."""
    frame = pd.DataFrame(
        [
            {
                t("col_sheet"): sanitize(check.sheet),
                t("col_status"): status_label(check.status),
                t("col_stated"): check.stated_tco2e,
                t("col_computed"): check.computed_tco2e,
                t("col_detail"): sanitize(check.message(lang)),
            }
            for check in inventory.reconciliation
        ],
        columns=[t("col_sheet"), t("col_status"), t("col_stated"), t("col_computed"),
                 t("col_detail")],
    )  # fmt: skip
    return _numbers(frame, _TABLE_DECIMALS)


def show_table(inventory: Inventory, lang: str) -> None:
    if not inventory.reconciliation:
        st.write(t("inv_no_reconciliation"))
        return
    st.dataframe(
        localized(csv_safe_frame(table(inventory, lang)), _places(_TABLE_DECIMALS)),
        hide_index=True,
        column_config={
            t("col_stated"): st.column_config.NumberColumn(width="small"),
            t("col_computed"): st.column_config.NumberColumn(width="small"),
            t("col_detail"): st.column_config.TextColumn(width="large"),
        },
    )
