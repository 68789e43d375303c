"""What every run of the app sets up before a page draws: settings (read here, once per
run), the store, the engine, the user and the sidebar's status lines.

app.py calls ``start`` before ``st.navigation``. It draws only what costs nothing (the page
config, the sidebar's title), starts connecting to the database in the background, and
leaves the rest to the page's first ``context.current()``: waiting for the database, the
engine, the user, and the sidebar's status lines. So the chat page draws its input while the
embedded database starts and the engine's modules load. This module imports
``components.context``; that module never imports this one.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable

import streamlit as st

from components.auth import account_sidebar
from components.context import AppContext, defer, set_context
from components.database import begin_opening, database_status, open_store
from components.i18n import language
from settings import Settings, load_settings


def _secrets() -> dict:
    try:
        return dict(st.secrets)
    except Exception:  # no secrets.toml: the environment and the defaults apply
        return {}


# The project's own loggers; Streamlit configures its own.
_LOGGERS = ("engine", "application", "store", "components", "settings")


class _Redact(logging.Filter):
    """Scrubs the configured secrets from every record, whatever a message quotes."""

    def __init__(self, secrets: Iterable[str | None]) -> None:
        super().__init__()
        self.secrets = tuple(s for s in secrets if s)

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        for secret in self.secrets:
            message = message.replace(secret, "[redacted]")
        record.msg, record.args = message, None
        return True


def configure_logging(*, debug: bool, secrets: Iterable[str | None] = ()) -> None:
    """Stdlib logging for the project's loggers, once per process (a rerun only updates the
    level and the secrets): INFO, or DEBUG with ``AEKO_DEBUG``, the providers' own error
    messages included. Keys are never logged: they are scrubbed from every record."""
    level = logging.DEBUG if debug else logging.INFO
    handler = next(
        (h for h in logging.getLogger("engine").handlers if getattr(h, "_aeko", False)), None
    )
    if handler is None:
        handler = logging.StreamHandler()
        handler._aeko = True  # type: ignore[attr-defined]
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        for name in _LOGGERS:
            logger = logging.getLogger(name)
            logger.addHandler(handler)
            logger.propagate = False
    for existing in list(handler.filters):
        handler.removeFilter(existing)
    handler.addFilter(_Redact(secrets))
    for name in _LOGGERS:
        logging.getLogger(name).setLevel(level)


def start() -> Settings:
    """The run's settings; the page's first ``context.current()`` finishes the setup."""
    st.set_page_config(page_title="Aeko Studio", page_icon=":material/eco:", layout="wide")
    settings = load_settings(_secrets(), os.environ)
    configure_logging(
        debug=settings.debug,
        secrets=[settings.gemini_api_key, settings.mongodb_uri, *settings.provider_keys.values()],
    )
    begin_opening(settings.store)
    with st.sidebar:
        st.markdown("### Aeko Studio")
    shown_in = language()
    defer(lambda: _finish(settings, shown_in))
    return settings


def _finish(settings: Settings, shown_in: str) -> AppContext:
    """The store (waited for), the engine and the user; their lines in the sidebar, below
    its title (nothing else draws there before a page's first ``current()``)."""
    from components.engine_setup import configure_engine, engine_status  # loads the engine

    store = open_store(settings.store)
    engine = configure_engine(settings)
    context = set_context(settings, store, engine)
    database_status(settings.store, store, context)
    engine_status(engine)
    account_sidebar(settings)
    if language() != shown_in:
        # The user's profile keeps another language than the one the page began in (a new
        # browser session): one language at a time, so the page is drawn again in it.
        st.rerun()
    return context
