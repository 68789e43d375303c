"""What every run of the app sets up before a page draws: settings (read here, once per
run), the store, the engine, the user and the sidebar's status lines.

app.py calls it before ``st.navigation``. A page can also run first: Streamlit serves the
``pages/`` folder by itself until some session has called ``st.navigation`` (a fresh server
that a tab reconnects to at /inventory), so ``context.current()`` calls it then too.
"""

from __future__ import annotations

import os

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


def start() -> AppContext:
    st.set_page_config(page_title="Aeko Studio", page_icon=":material/eco:", layout="wide")
    settings = load_settings(_secrets(), os.environ)
    store = open_store(settings.store)
    engine = configure_engine(settings)
    context = set_context(settings, store, engine)
    with st.sidebar:
        st.markdown("### Aeko Studio")
    database_status(settings.store, store, context)
    engine_status(engine)
    return context
