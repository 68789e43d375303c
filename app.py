"""Aeko Studio: the Streamlit entry point. Pages live in pages/, reusable pieces in components/."""

import os

import streamlit as st

from components.database import database_status, open_store
from components.engine_setup import configure_engine, engine_status
from settings import load_settings


def _secrets() -> dict:
    try:
        return dict(st.secrets)
    except Exception:  # no secrets.toml: the environment and the defaults apply
        return {}


st.set_page_config(page_title="Aeko Studio", page_icon=":material/eco:", layout="wide")
settings = load_settings(_secrets(), os.environ)
store = open_store(settings.store)
database_status(settings.store, store)
engine_status(configure_engine(settings.gemini_api_key))

navigation = st.navigation(
    [st.Page("pages/overview.py", title="Engine", icon=":material/hub:", default=True)]
)
navigation.run()
