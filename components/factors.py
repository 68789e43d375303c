"""The emission factors an estimate or an inventory used: value, unit, source, period, owner."""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd
import streamlit as st

from application.safe_text import csv_safe_frame, sanitize
from components.i18n import language, t
from engine.emissions import FactorUse


def factors_table(factors: Iterable[FactorUse]) -> None:
    """One row per distinct factor; the user's own factors are marked as such."""
    lang = language()
    rows = {}
    for use in factors:
        key = (use.key, use.gas, use.value, use.unit, use.period, use.user)
        rows[key] = {
            t("fac_role"): use.label(lang),
            t("fac_value"): use.value,
            t("fac_unit"): use.unit,
            t("fac_source"): sanitize(use.source),
            t("fac_period"): use.period or "—",
            t("fac_owner"): t("fac_user") if use.user else t("fac_library"),
        }
    if not rows:
        st.caption(t("fac_none"))
        return
    st.dataframe(csv_safe_frame(pd.DataFrame(rows.values())), hide_index=True)


def inventory_factors(used: pd.DataFrame) -> None:
    """The factors an inventory's activity rows were computed or checked with, per sheet."""
    if used.empty:
        st.caption(t("fac_none"))
        return
    shown = pd.DataFrame(
        {
            t("col_sheet"): used["sheet"].map(sanitize),
            t("calc_activity"): used["activity"],
            t("fac_role"): used["role"],
            t("fac_value"): used["value"],
            t("fac_unit"): used["unit"],
            t("fac_source"): used["source"].map(sanitize),
            t("fac_period"): used["validity"].replace("", "—"),
            t("fac_owner"): used["user"].map(lambda mine: t("fac_user" if mine else "fac_library")),
            t("inv_rows"): used["rows"],
        }
    )
    st.dataframe(csv_safe_frame(shown), hide_index=True)
