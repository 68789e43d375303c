"""Aeko Studio: the Streamlit entry point. Pages live in pages/, reusable pieces in components/."""

import streamlit as st

st.set_page_config(page_title="Aeko Studio", page_icon=":material/eco:", layout="wide")

navigation = st.navigation(
    [st.Page("pages/overview.py", title="Engine", icon=":material/hub:", default=True)]
)
navigation.run()
