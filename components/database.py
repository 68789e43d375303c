"""The database for the whole app: opened once per process, its status in the sidebar."""

from __future__ import annotations

import streamlit as st

from store import Store, StoreConfig, StoreError, connect, describe_target


@st.cache_resource(show_spinner="Iniciando o banco de dados…")
def _connect(config: StoreConfig) -> Store:
    return connect(config)


def open_store(config: StoreConfig) -> Store | None:
    """The store, or None after telling the user what is wrong and how to fix it."""
    try:
        return _connect(config)
    except StoreError as error:
        st.error(error.message("pt"), icon=":material/database_off:")
        st.caption(error.message("en"))
        return None


def database_status(config: StoreConfig, store: Store | None) -> None:
    where = f"embutido, em `{config.data_dir}`" if config.embedded else describe_target(config.uri)
    with st.sidebar:
        if store is not None and store.ping():
            st.caption(f":material/database: Banco de dados: {where}")
        else:
            st.caption(f":material/database_off: Banco de dados indisponível: {where}")
