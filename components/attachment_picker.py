"""Which saved inventory the conversation reads: the latest by default for a new one, the
remembered choice for an open one."""

from __future__ import annotations

import streamlit as st

from application import attachments
from application.workspace import Workspace
from components.i18n import language, number, t
from store import StoreError
from store.repositories.inventories import InventoryRecord

INVENTORY_PAGE = "pages/inventory.py"
_NEW_CHOICE = "aeko_new_conversation_inventory"
_NONE = ""  # the option "no inventory": a string, so the widget's value survives reruns


def attachment_picker(workspace: Workspace, session_id: str | None) -> str | None:
    """Draw the picker; return the id of the inventory the next turn reads, or None."""
    try:
        records = attachments.choices(workspace)
        current = (
            attachments.attached_id(workspace, session_id)
            if session_id
            else st.session_state.get(_NEW_CHOICE, records[0].id if records else None)
        )
    except StoreError as error:
        st.caption(f":material/database_off: {error.message(language())}")
        return None
    if not records:
        st.caption(f":material/info: {t('attach_empty')}")
        st.page_link(INVENTORY_PAGE, label=t("nav_inventory"), icon=":material/table_chart:")
        return None
    labels = {_NONE: t("attach_none")} | {r.id: _label(r) for r in records}
    options = list(labels)
    chosen = st.selectbox(
        t("attach_label"),
        options,
        index=options.index(current) if current in labels else 0,
        format_func=labels.__getitem__,
        help=t("attach_help"),
        key=f"attach-{session_id or 'new'}",
    )
    if (chosen or None) != current:
        if session_id:
            try:
                attachments.attach(workspace, session_id, chosen or None)
            except StoreError as error:
                st.warning(error.message(language()), icon=":material/database_off:")
        else:
            st.session_state[_NEW_CHOICE] = chosen or None
    return chosen or None


def _label(record: InventoryRecord) -> str:
    total = record.summary.get("total_tco2e")
    return t(
        "attach_option",
        name=record.filename,
        number=record.number,
        total=number(total) if total is not None else "—",
        date=record.uploaded_at.strftime("%d/%m/%Y" if language() == "pt" else "%Y-%m-%d"),
    )
