"""History: past conversations and plans — search, open, export, delete (with confirmation)."""

import streamlit as st

from application.safe_text import sanitize
from components.context import current, require_database
from components.i18n import language, t
from components.plan_card import plan_card, plan_downloads
from components.sessions_sidebar import SESSION_PARAM
from engine import AekoSession
from engine.protocol import fold
from store import StoreError

context = current()
st.title(t("hist_title"))
require_database(context)

user = context.user
query = fold(st.text_input(t("hist_search"), key="history-search"))


def session_markdown(session: AekoSession) -> str:
    lines = [f"# {session.name}", ""]
    for turn in session.messages:
        lines += [
            f"**{t('chat_title')} – {turn.submitted_at:%d/%m/%Y %H:%M}**",
            "",
            f"> {turn.input}",
            "",
            sanitize(turn.output),
            "",
        ]
    return "\n".join(lines)


try:
    sessions_tab, plans_tab = st.tabs([t("hist_sessions"), t("hist_plans")])
    with sessions_tab:
        repository = context.store.sessions(user.id)
        shown = 0
        for session in repository.list_full(limit=200):
            text = fold(
                " ".join([session.name, *(m.input + " " + m.output for m in session.messages)])
            )
            if query and query not in text:
                continue
            shown += 1
            with st.container(border=True):
                st.markdown(f"**{sanitize(session.name) or '—'}**")
                stamp = f"{session.updated_at:%d/%m/%Y %H:%M}" if session.updated_at else ""
                st.caption(f"{t('hist_turns', n=len(session.messages))} · {stamp}")
                open_col, export_col, delete_col = st.columns(3)
                with open_col:
                    st.page_link(
                        "pages/chat.py",
                        label=t("hist_open"),
                        icon=":material/open_in_new:",
                        query_params={SESSION_PARAM: session.id},
                    )
                with export_col:
                    st.download_button(
                        t("hist_export"),
                        session_markdown(session),
                        file_name=f"conversa-{session.id}.md",
                        mime="text/markdown",
                        key=f"export-{session.id}",
                    )
                with delete_col, st.popover(t("delete"), icon=":material/delete:"):
                    st.write(t("confirm_delete"))
                    if st.button(t("delete"), key=f"delete-{session.id}", type="primary"):
                        repository.delete(session.id)
                        st.rerun()
        if not shown:
            st.info(t("hist_empty"))

    with plans_tab:
        plans = context.store.plans(user.id)
        shown = 0
        for plan in plans.list(limit=200):
            text = fold(" ".join([plan.defined_problem, plan.method, plan.reasoning]))
            if query and query not in text:
                continue
            shown += 1
            title = t("plan_title", number=plan.id_external_inventory)
            with st.expander(f"{title} · {plan.updated_at:%d/%m/%Y %H:%M}"):
                plan_card(plan)
                plan_downloads(plan, title=title, key=plan.id)
                with st.popover(t("delete"), icon=":material/delete:"):
                    st.write(t("confirm_delete"))
                    if st.button(t("delete"), key=f"delete-plan-{plan.id}", type="primary"):
                        plans.delete(plan.id)
                        st.rerun()
        if not shown:
            st.info(t("hist_empty"))
except StoreError as error:
    st.error(error.message(language()), icon=":material/database_off:")
