"""This inventory against one saved earlier (``Inventory.compare``), by scope and category."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from application import attachments
from application.safe_text import csv_safe_frame, sanitize
from application.workspace import Workspace
from components import charts
from components.i18n import language, t
from components.tables import localized, numeric
from engine.errors import LocalizedError
from engine.inventory import Inventory


def compare_with_saved(workspace: Workspace, inventory: Inventory, digest: str) -> None:
    try:
        saved = attachments.choices(workspace)
    except LocalizedError:
        return
    if not saved:
        return
    with st.expander(t("cmp_title"), icon=":material/compare_arrows:"):
        labels = {"": t("cmp_none")} | {
            r.id: f"{sanitize(r.filename)} · nº {r.number} · {r.uploaded_at:%d/%m/%Y}"
            for r in saved
        }
        chosen = st.selectbox(
            t("cmp_with"), list(labels), format_func=labels.__getitem__, key=f"cmp-{digest}"
        )
        if not chosen:
            return
        try:
            previous = attachments.open_attached(workspace, chosen).inventory
        except LocalizedError as error:
            st.error(error.message(language()), icon=":material/error:")
            return
        if previous.gwp_set != inventory.gwp_set:
            st.warning(
                t("cmp_gwp", now=inventory.gwp_set, before=previous.gwp_set),
                icon=":material/warning:",
            )
        for field in ("scope", "category"):
            st.dataframe(
                localized(csv_safe_frame(_table(inventory.compare(previous, field), field)),
                          {t("cmp_before"): 1, t("cmp_now"): 1, t("cmp_change"): 1,
                           t("cmp_change_pct"): 1}),
                hide_index=True,
            )  # fmt: skip


def _table(frame: pd.DataFrame, field: str) -> pd.DataFrame:
    """Numbers kept numbers (they sort as such; ``localized`` shows them in the language)."""
    lang = language()
    label = charts.scope_label if field == "scope" else charts.value_label
    return pd.DataFrame(
        {
            t(f"cmp_{field}"): [sanitize(str(label(v, lang))) for v in frame[field]],
            t("cmp_before"): numeric(frame["previous_tco2e"]).to_numpy(),
            t("cmp_now"): numeric(frame["tco2e"]).to_numpy(),
            t("cmp_change"): numeric(frame["change"]).to_numpy(),
            t("cmp_change_pct"): (100 * numeric(frame["change_pct"])).to_numpy(),
        }
    )
