"""What every page needs, set up once per rerun by app.py: settings, store, engine, user.

app.py's ``startup.start`` draws the shell at once and leaves the slow part (waiting for the
database, the engine, the user) to ``current()``, which a page calls when it needs them: so
the chat page draws its input before any of that. This module imports none of the heavy
layers at module level (the store, the engine, the use cases), and never imports
``components.startup``: startup hands it the rest of the setup as a function instead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import streamlit as st

from settings import Settings

if TYPE_CHECKING:
    from application.outbox import Outbox
    from application.workspace import Workspace
    from components.engine_setup import EngineStatus
    from engine import AekoUser
    from store import Store

_CONTEXT = "aeko_context"
_USER = "aeko_user"
_PENDING = "aeko_context_pending"  # this run's setup, left by startup for current() to finish


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
        from application.outbox import Outbox, journal_for

        journal = journal_for(self.settings.store.data_dir)
        return Outbox(journal, self.user.id if self.user is not None else None)


def defer(finish: Callable[[], AppContext]) -> None:
    """Leave the rest of this run's setup to the first ``current()`` of the run."""
    st.session_state[_PENDING] = finish


def set_context(settings: Settings, store: Store | None, engine: EngineStatus) -> AppContext:
    user = _user(settings, store)
    context = AppContext(settings, store, engine, user)
    st.session_state[_CONTEXT] = context
    return context


def current() -> AppContext:
    """This run's context: finished here on the run's first call (it waits for the database),
    then the same one. A fragment's rerun, which does not run app.py, keeps the last one."""
    # A fragment's rerun may not draw outside the fragment (the setup draws in the sidebar).
    finish = None if _fragment_rerun() else st.session_state.pop(_PENDING, None)
    if finish is not None:
        return finish()
    if _CONTEXT not in st.session_state:  # a page served before app.py ran
        _through_app_py()
        raise RuntimeError("app.py sets up the context: run the app with `streamlit run app.py`")
    return st.session_state[_CONTEXT]


def _fragment_rerun() -> bool:
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    return bool(ctx is not None and ctx.fragment_ids_this_run)


def _through_app_py() -> None:
    """A fresh server whose first request is a page's URL ("/inventory") runs that page the
    way Streamlit runs a ``pages/`` folder, before ``app.py`` ever called ``st.navigation``:
    the sidebar then lists the files ("app", "calculator"...) for that whole session, and
    nothing set up the context. Say that this app navigates with ``st.navigation`` and run
    again, through ``app.py``, on the same page (Streamlit's own flag, set so by
    ``st.navigation`` itself on its first run)."""
    try:
        from streamlit.runtime.pages_manager import PagesManager
    except ImportError:  # a Streamlit without it: current() says how to run the app
        return
    if getattr(PagesManager, "uses_pages_directory", None):
        PagesManager.uses_pages_directory = False
        st.rerun()


def _user(settings: Settings, store: Store | None) -> AekoUser | None:
    """The signed-in identity's user with sign-in on (a visitor without one gets the sign-in
    page and the run stops here, whichever page ran first); else the local mode's user."""
    from store import StoreError

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
    from application.workspace import Workspace

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
