"""What every page needs, set up once per rerun by app.py: settings, store, engine, user."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from application.outbox import Outbox
from application.workspace import Workspace
from components.engine_setup import EngineStatus
from engine import AekoUser
from settings import Settings
from store import Store, StoreError

_CONTEXT = "aeko_context"
_OUTBOX = "aeko_outbox"
_USER = "aeko_user"


@dataclass(frozen=True)
class AppContext:
    settings: Settings
    store: Store | None
    engine: EngineStatus
    user: AekoUser | None  # None while the database is away

    @property
    def outbox(self) -> Outbox:
        """Writes that could not reach the database, kept in this browser session."""
        if _OUTBOX not in st.session_state:
            st.session_state[_OUTBOX] = Outbox()
        return st.session_state[_OUTBOX]


def set_context(settings: Settings, store: Store | None, engine: EngineStatus) -> AppContext:
    user = _user(settings, store)
    context = AppContext(settings, store, engine, user)
    st.session_state[_CONTEXT] = context
    return context


def current() -> AppContext:
    if _CONTEXT not in st.session_state:  # a page served before app.py ran (see startup)
        from components.startup import start

        return start()
    return st.session_state[_CONTEXT]


def _user(settings: Settings, store: Store | None) -> AekoUser | None:
    if store is None:
        return st.session_state.get(_USER)
    try:
        user = store.users.get_or_create(settings.user_external_id)
    except StoreError:
        return st.session_state.get(_USER)
    st.session_state[_USER] = user
    return user


def require_workspace(context: AppContext) -> Workspace:
    """The user's workspace for the use cases; or the page stops with a clear word when the
    database is away, since nothing could be saved."""
    if context.store is None or context.user is None:
        from components.i18n import t

        st.warning(t("no_database", message=""), icon=":material/database_off:")
        st.stop()
    return Workspace(
        context.store, context.user, context.outbox, context.settings.daily_cost_cap_usd
    )
