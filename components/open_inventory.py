"""The inventory open in this browser tab: its upload, the user's own factor file, and the
rows added from the calculator. Kept in the session so every page sees the same one."""

from __future__ import annotations

from typing import Any

import streamlit as st

UPLOAD = "aeko_inventory_upload"  # (file name, bytes): the upload survives reruns
FACTORS = "aeko_inventory_factors"  # (file name, bytes): the user's factor CSV, or absent
ADDED = "aeko_inventory_added"  # [{activity, quantity, unit, period}]: calculator rows
YEAR = "aeko_inventory_year"  # the open inventory's headline year: the calculator's default
COSTS = "aeko_measure_costs"  # (file name, bytes): cost quotes per measure, or absent
CATALOGUE = "aeko_measure_catalogue"  # (file name, bytes): the user's own catalogue, or absent


def upload() -> tuple[str, bytes] | None:
    return st.session_state.get(UPLOAD)


def own_factors() -> tuple[str, bytes] | None:
    return st.session_state.get(FACTORS)


def added_rows() -> list[dict[str, Any]]:
    return list(st.session_state.get(ADDED, []))


def add_row(row: dict[str, Any]) -> int:
    """Keep a calculator row for the open inventory; returns how many there are."""
    rows = [*added_rows(), row]
    st.session_state[ADDED] = rows
    return len(rows)


def measure_files() -> tuple[tuple[str, bytes] | None, tuple[str, bytes] | None]:
    """The user's measure catalogue and cost quotes for the next plan, if given."""
    return st.session_state.get(CATALOGUE), st.session_state.get(COSTS)


def clear_added() -> None:
    st.session_state.pop(ADDED, None)


def set_year(year: str | None) -> None:
    st.session_state[YEAR] = year


def year() -> str | None:
    """The open inventory's headline year, so rows added to it land in the same year."""
    return st.session_state.get(YEAR) if upload() is not None else None
