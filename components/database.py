"""The database for the whole app: opened once per process, its status in the sidebar."""

from __future__ import annotations

from typing import TYPE_CHECKING

import streamlit as st

from components.i18n import language, t
from store import Store, StoreConfig, StoreError, connect, describe_target

if TYPE_CHECKING:
    from components.context import AppContext


@st.cache_resource(show_spinner="Iniciando o banco de dados… / Starting the database…")
def _connect(config: StoreConfig) -> Store:
    return connect(config)


def open_store(config: StoreConfig) -> Store | None:
    """The store, or None after telling the user what is wrong and how to fix it."""
    try:
        return _connect(config)
    except StoreError as error:
        st.error(error.message(language()), icon=":material/database_off:")
        return None


def database_status(config: StoreConfig, store: Store | None, context: AppContext) -> None:
    with st.sidebar:
        if config.embedded:
            where = t("db_embedded", where=config.data_dir)
        else:
            where = t("db_remote", where=describe_target(config.uri))
        if store is not None and store.ping():
            flushed = context.outbox.flush(store) if context.outbox.queued else 0
            st.caption(f":material/database: {where}")
            if flushed:
                st.toast(t("set_saved"))
        else:
            st.caption(":material/database_off: " + t("db_down", where=where))
        if context.outbox.queued:
            st.warning(t("pending_writes", n=len(context.outbox.queued)), icon=":material/sync:")
