"""What every page needs, set up once per rerun by app.py: settings, store, engine, user."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from application.outbox import Outbox, journal_for
from application.workspace import Workspace
from components.engine_setup import EngineStatus
from engine import AekoUser
from settings import Settings
from store import Store, StoreError

_CONTEXT = "aeko_context"
_USER = "aeko_user"


@dataclass(frozen=True)
class AppContext:
    settings: Settings
    store: Store | None
    engine: EngineStatus
    user: AekoUser | None  # None while the database is away

    @property
    def outbox(self) -> Outbox:
        """Writes that could not reach the database: this user's share of the data folder's
        journal, one per app process, which outlives the tab and the app."""
        journal = journal_for(self.settings.store.data_dir)
        return Outbox(journal, self.user.id if self.user is not None else None)


def set_context(settings: Settings, store: Store | None, engine: EngineStatus) -> AppContext:
    user = _user(settings, store)
    context = AppContext(settings, store, engine, user)
    st.session_state[_CONTEXT] = context
    return context


def current() -> AppContext:
    if _CONTEXT not in st.session_state:  # a page served before app.py ran (see startup)
        _through_app_py()
        from components.startup import start

        return start()
    return st.session_state[_CONTEXT]


def _through_app_py() -> None:
    """A fresh server whose first request is a page's URL ("/inventory") runs that page the
    way Streamlit runs a ``pages/`` folder, before ``app.py`` ever called ``st.navigation``:
    the sidebar then lists the files ("app", "calculator"...) for that whole session. Say
    that this app navigates with ``st.navigation`` and run again, through ``app.py``, on the
    same page (Streamlit's own flag, set so by ``st.navigation`` itself on its first run)."""
    try:
        from streamlit.runtime.pages_manager import PagesManager
    except ImportError:  # a Streamlit without it: the page still works, with file names
        return
    if getattr(PagesManager, "uses_pages_directory", None):
        PagesManager.uses_pages_directory = False
        st.rerun()


def _user(settings: Settings, store: Store | None) -> AekoUser | None:
    """The signed-in identity's user with sign-in on (a visitor without one gets the sign-in
    page and the run stops here, whichever page ran first); else the local mode's user."""
    who = None
    if settings.auth_enabled:
        from components.auth import require_identity

        who = require_identity()
        if st.session_state.get(_USER + "_identity") != (who.issuer, who.subject):
            st.session_state.pop(_USER, None)  # never another identity's user
    if store is None:
        return st.session_state.get(_USER)
    try:
        if who is not None:
            user = store.users.get_or_create_by_identity(who.issuer, who.subject, email=who.email)
        else:
            user = store.users.get_or_create(settings.user_external_id)
    except StoreError:
        return st.session_state.get(_USER)
    st.session_state[_USER] = user
    st.session_state[_USER + "_identity"] = (who.issuer, who.subject) if who else None
    return user


def require_workspace(context: AppContext) -> Workspace:
    """The user's workspace for the use cases; or the page stops with a clear word when the
    database is away, since nothing could be saved."""
    if context.store is None or context.user is None:
        from components.i18n import t

        st.warning(t("no_database", message=""), icon=":material/database_off:")
        st.stop()
    return Workspace(
        context.store,
        context.user,
        context.outbox,
        context.settings.daily_cost_cap_usd,
        runs_in_worker=context.settings.runs_in_worker,
    )
