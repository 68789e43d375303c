"""What every run of the app sets up before a page draws: settings (read here, once per
run), the store, the engine, the user and the sidebar's status lines.

app.py calls it before ``st.navigation``. A page can also run first: Streamlit serves the
``pages/`` folder by itself until some session has called ``st.navigation`` (a fresh server
that a tab reconnects to at /inventory), so ``context.current()`` calls it then too.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable

import streamlit as st

from components.context import AppContext, set_context
from components.database import database_status, open_store
from components.engine_setup import configure_engine, engine_status
from settings import load_settings


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


def start() -> AppContext:
    st.set_page_config(page_title="Aeko Studio", page_icon=":material/eco:", layout="wide")
    settings = load_settings(_secrets(), os.environ)
    configure_logging(
        debug=settings.debug,
        secrets=[settings.gemini_api_key, settings.mongodb_uri, *settings.provider_keys.values()],
    )
    store = open_store(settings.store)
    engine = configure_engine(settings)
    context = set_context(settings, store, engine)
    with st.sidebar:
        st.markdown("### Aeko Studio")
    database_status(settings.store, store, context)
    engine_status(engine)
    return context
