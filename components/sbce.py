"""Each installation against the SBCE's thresholds (Lei 15.042/2024), on the inventory page
and in the plan card's SBCE tab (whose card says the reading above its tabs, so the tab
does not say it again)."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import streamlit as st

from application.safe_text import csv_safe_frame, sanitize
from components.i18n import language, t
from components.tables import localized
from engine.actions.model import Installation
from engine.inventory.notice import Reading

# A symbol every system font has (emoji are empty boxes in Debian's Chromium), beside the
# obligation in words: the fuller the circle, the more the law asks.
_ICON = {"below": "○", "monitoring": "◐", "allowances": "●"}


def reading_notice(reading: Reading | None) -> None:
    """The notice of an inventory that is not reconciled, naming its sheets (sanitized: they
    are the workbook's); nothing for a reconciled one."""
    notice = reading.notice(language()) if reading is not None else ""
    if notice:
        st.warning(sanitize(notice), icon=":material/warning:")


def sbce_readiness(installations: Sequence[Installation], reading: Reading | None = None) -> None:
    """Each installation's Scope 1 against the thresholds; an inventory that is not
    reconciled (``reading``, when given) is said to be so first, since the thresholds read
    its figures."""
    reading_notice(reading)
    if not installations:
        st.caption(t("sbce_none"))
        return
    rows = [
        {
            t("sbce_facility"): sanitize(item.facility),
            t("sbce_scope1"): item.scope1_tco2e,  # a number: the column sorts as numbers
            t("sbce_status"): f"{_ICON[item.status]} {t('sbce_' + item.status)}",
            t("sbce_near"): t("sbce_near_" + item.near) if item.near else "",
        }
        for item in installations
    ]
    frame = pd.DataFrame(rows).astype({t("sbce_scope1"): float})
    st.dataframe(
        localized(csv_safe_frame(frame), {t("sbce_scope1"): 1}), hide_index=True, width="stretch"
    )
    flagged = [item for item in installations if item.near]
    for item in flagged:
        st.warning(
            t("sbce_near_warning", facility=sanitize(item.facility),
              threshold=t("sbce_threshold_" + str(item.near))),
            icon=":material/warning:",
        )  # fmt: skip
    st.caption(t("sbce_rule"))
