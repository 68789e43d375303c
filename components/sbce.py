"""Each installation against the SBCE's thresholds (Lei 15.042/2024), on the inventory page
and with the plan."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import streamlit as st

from application.safe_text import csv_safe_frame, sanitize
from components.i18n import language, number, t
from engine.actions.model import Installation
from engine.inventory.notice import Reading

_ICON = {"below": "🟢", "monitoring": "🟡", "allowances": "🔴"}


def reading_notice(reading: Reading | None) -> None:
    """The notice of an inventory that is not reconciled, naming its sheets (sanitized: they
    are the workbook's); nothing for a reconciled one."""
    notice = reading.notice(language()) if reading is not None else ""
    if notice:
        st.warning(sanitize(notice), icon=":material/warning:")


def sbce_readiness(installations: Sequence[Installation], reading: Reading | None = None) -> None:
    """Each installation's Scope 1 against the thresholds; an inventory that is not
    reconciled (``reading``) is said to be so first, since the thresholds read its figures."""
    reading_notice(reading)
    if not installations:
        st.caption(t("sbce_none"))
        return
    rows = [
        {
            t("sbce_facility"): sanitize(item.facility),
            t("sbce_scope1"): number(item.scope1_tco2e),
            t("sbce_status"): f"{_ICON[item.status]} {t('sbce_' + item.status)}",
            t("sbce_near"): t("sbce_near_" + item.near) if item.near else "",
        }
        for item in installations
    ]
    st.dataframe(csv_safe_frame(pd.DataFrame(rows)), hide_index=True, width="stretch")
    flagged = [item for item in installations if item.near]
    for item in flagged:
        st.warning(
            t("sbce_near_warning", facility=sanitize(item.facility),
              threshold=t("sbce_threshold_" + str(item.near))),
            icon=":material/warning:",
        )  # fmt: skip
    st.caption(t("sbce_rule"))
