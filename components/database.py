"""The database for the whole app: opened once per process, its status in the sidebar."""

from __future__ import annotations

from typing import TYPE_CHECKING

import streamlit as st

from components.i18n import TEXTS, language, t, tn
from store.config import StoreConfig, describe_target
from store.embedded import start_in_background
from store.errors import StoreError

if TYPE_CHECKING:
    from components.context import AppContext
    from store import Store


def begin_opening(config: StoreConfig) -> None:
    """Start the embedded server in the background (once per process), so that it comes up
    while the first page draws; ``open_store`` then waits for it. A remote database has
    nothing to start."""
    if config.embedded:
        start_in_background(config.data_dir)


# Drawn before any session has a language (the cache is the process's): said in both.
@st.cache_resource(show_spinner=f"{TEXTS('db_starting', 'pt')} / {TEXTS('db_starting', 'en')}")
def _connect(config: StoreConfig) -> Store:
    from store import connect  # the client, its repositories and the engine's DTOs

    return connect(config)


_RESTARTS_SEEN = "aeko_db_restarts_seen"


def open_store(config: StoreConfig) -> Store | None:
    """The store, or None after telling the user what is wrong and how to fix it. An
    embedded server whose process is gone is started again here, at every rerun."""
    try:
        store = _connect(config)
        store.supervise()
        return store
    except StoreError as error:
        st.error(error.message(language()), icon=":material/database_off:")
        return None


def database_where(config: StoreConfig) -> str:
    """Where the database is (the data folder, or the hosts without credentials): what
    whoever runs the app needs, on the settings page."""
    if config.embedded:
        return t("db_embedded", where=config.data_dir)
    return t("db_remote", where=describe_target(config.uri))


def database_status(config: StoreConfig, store: Store | None, context: AppContext) -> None:
    """Whether the database answers, in the sidebar; where it is, on the settings page."""
    with st.sidebar:
        outbox = context.outbox
        if store is not None and (store.ping() or _recovered(store)):
            outbox.resume()
            # Every user's kept writes, this app's or a previous one's (replay at startup).
            flushed = outbox.flush(store) if outbox.journal.pending() else 0
            st.caption(":material/database: " + t("db_up"))
            if flushed:
                st.toast(t("set_saved"))
        else:
            st.caption(":material/database_off: " + t("db_down_short"))
        _restarted(store)
        if outbox.queued:
            st.warning(tn("pending_writes", len(outbox.queued)), icon=":material/sync:")


def _recovered(store: Store) -> bool:
    """The rerun's ping just failed: an embedded server that is alive but hung is killed and
    started again here, before the page's reads wait on it. True when it answers now."""
    try:
        return store.supervise(after_failure=True) and store.ping()
    except StoreError:  # it could not be started again: the page says the database is down
        return False


def _restarted(store: Store | None) -> None:
    """Say once per browser session that the embedded server was started again."""
    restarts = store.restarts if store is not None else 0
    seen = st.session_state.setdefault(_RESTARTS_SEEN, restarts)
    if restarts > seen:
        st.session_state[_RESTARTS_SEEN] = restarts
        st.toast(t("db_restarted"), icon=":material/restart_alt:")
        st.caption(":material/restart_alt: " + t("db_restarted"))
