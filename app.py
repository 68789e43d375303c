"""Aeko Studio: the Streamlit entry point. Pages live in pages/, reusable pieces in components/."""

import os

import streamlit as st

from components.context import set_context
from components.database import database_status, open_store
from components.engine_setup import configure_engine, engine_status
from components.i18n import t
from settings import load_settings


def _secrets() -> dict:
    try:
        return dict(st.secrets)
    except Exception:  # no secrets.toml: the environment and the defaults apply
        return {}


st.set_page_config(page_title="Aeko Studio", page_icon=":material/eco:", layout="wide")
settings = load_settings(_secrets(), os.environ)
store = open_store(settings.store)
engine = configure_engine(settings)
context = set_context(settings, store, engine)
with st.sidebar:
    st.markdown("### Aeko Studio")
database_status(settings.store, store, context)
engine_status(engine)

navigation = st.navigation(
    [
        st.Page("pages/chat.py", title=t("nav_chat"), icon=":material/forum:", default=True),
        st.Page("pages/inventory.py", title=t("nav_inventory"), icon=":material/table_chart:"),
        st.Page("pages/history.py", title=t("nav_history"), icon=":material/history:"),
        st.Page("pages/settings.py", title=t("nav_settings"), icon=":material/settings:"),
    ]
)
navigation.run()
