"""Conversations in the sidebar: pick, start, rename, delete. The open one is in the URL."""

from __future__ import annotations

import streamlit as st

from application import history
from application.safe_text import sanitize
from application.workspace import Workspace
from components.i18n import t
from store import StoreError

SESSION_PARAM = "session"


def open_session_id() -> str | None:
    return st.query_params.get(SESSION_PARAM)


def open_session(session_id: str | None) -> None:
    if session_id:
        st.query_params[SESSION_PARAM] = session_id
    elif SESSION_PARAM in st.query_params:
        del st.query_params[SESSION_PARAM]


def sessions_sidebar(workspace: Workspace, current: str | None) -> None:
    with st.sidebar:
        st.markdown(f"**{t('sessions')}**")
        if st.button(t("new_session"), icon=":material/add_comment:", width="stretch"):
            open_session(None)
            st.rerun()
        for summary in _recent(workspace):
            selected = summary.id == current
            label = sanitize(summary.name) or "—"
            if st.button(
                label,
                key=f"open-{summary.id}",
                width="stretch",
                type="primary" if selected else "tertiary",
            ):
                open_session(summary.id)
                st.rerun()
        if current:
            with st.popover(t("rename"), icon=":material/edit:", width="stretch"):
                name = st.text_input(t("name"), key="rename-session")
                if st.button(t("save"), key="rename-save") and name.strip():
                    history.rename_conversation(workspace, current, name)
                    st.rerun()
            with st.popover(t("delete"), icon=":material/delete:", width="stretch"):
                st.write(t("confirm_delete"))
                if st.button(t("delete"), key="delete-session", type="primary"):
                    history.delete_conversation(workspace, current)
                    open_session(None)
                    st.rerun()


def _recent(workspace: Workspace) -> list:
    """The recent conversations; none, with a word, when the database does not answer: the
    page (the open conversation, the chat input) goes on without the list."""
    try:
        return list(history.recent_conversations(workspace))
    except StoreError:
        st.caption(":material/database_off: " + t("sessions_unavailable"))
        return []
