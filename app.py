"""Aeko Studio: the Streamlit entry point. Pages live in pages/, reusable pieces in components/."""

import streamlit as st

from components.i18n import t
from components.startup import start

start()
navigation = st.navigation(
    [
        st.Page("pages/chat.py", title=t("nav_chat"), icon=":material/forum:", default=True),
        st.Page("pages/inventory.py", title=t("nav_inventory"), icon=":material/table_chart:"),
        st.Page("pages/calculator.py", title=t("nav_calculator"), icon=":material/calculate:"),
        st.Page("pages/history.py", title=t("nav_history"), icon=":material/history:"),
        st.Page("pages/settings.py", title=t("nav_settings"), icon=":material/settings:"),
    ]
)
navigation.run()
