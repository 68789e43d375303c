"""Aeko Studio: the Streamlit entry point. Pages live in pages/, reusable pieces in components/."""

import streamlit as st

from components.auth import require_sign_in
from components.i18n import t
from components.startup import start
from settings import secrets_problem

if problem := secrets_problem(st.get_option("secrets.files")):  # broken: say so, never run on
    st.error(
        "O arquivo de segredos não pôde ser lido; corrija-o e recarregue a página. / "
        f"The secrets file could not be read; fix it and reload the page.\n\n`{problem}`",
        icon=":material/key_off:",
    )
    st.stop()
require_sign_in()  # with [auth] in the secrets, nobody goes past here without signing in
# Draws only the shell: the page's first context.current() waits for the database and the
# engine, so the chat page shows its input before them.
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
