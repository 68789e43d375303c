"""History: past conversations and plans — search, open, export, delete (with confirmation);
each plan with its actions' totals, and two plans compared side by side.

Kept fast with many plans: the totals come from one query for all of them; a plan's actions,
charts and tables are drawn only while its expander is open; an export is built only when
its button is clicked."""

import streamlit as st

from application import history
from application.exports import conversation_markdown
from application.safe_text import sanitize
from components.context import current, require_workspace
from components.i18n import language, t
from components.plan_card import compare_view, plan_card, plan_downloads, totals_line
from components.sessions_sidebar import SESSION_PARAM
from store import StoreError

context = current()
st.title(t("hist_title"))
workspace = require_workspace(context)
query = st.text_input(t("hist_search"), key="history-search")

try:
    sessions_tab, plans_tab = st.tabs([t("hist_sessions"), t("hist_plans")])
    with sessions_tab:
        found = history.find_conversations(workspace, query)
        for session in found:
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
                        conversation_markdown(session, lang=language()),
                        file_name=f"conversa-{session.id}.md",
                        mime="text/markdown",
                        key=f"export-{session.id}",
                    )
                with delete_col, st.popover(t("delete"), icon=":material/delete:"):
                    st.write(t("confirm_delete"))
                    if st.button(t("delete"), key=f"delete-{session.id}", type="primary"):
                        history.delete_conversation(workspace, session.id)
                        st.rerun()
        if not found:
            st.info(t("hist_empty"))

    with plans_tab:
        entries = history.plans_with_actions(workspace, query)
        labels = {
            str(entry.plan.id): f"{t('plan_title', number=entry.plan.id_external_inventory)}"
            f" · {entry.plan.updated_at:%d/%m/%Y %H:%M}"
            for entry in entries
        }
        if len(entries) > 1:
            compare = st.expander(
                t("pc_compare"), icon=":material/compare:", key="history-compare",
                on_change="rerun",
            )  # fmt: skip
            if compare.open:
                with compare:
                    compare_view(entries, labels)
        for entry in entries:
            plan = entry.plan
            title = t("plan_title", number=plan.id_external_inventory)
            box = st.expander(
                f"{labels[str(plan.id)]} · {totals_line(entry.totals)}",
                key=f"plan-open-{plan.id}",
                on_change="rerun",
            )
            with box:
                # Closed, the card is its three texts; the actions are drawn once it opens.
                plan_card(plan, entry.actions if box.open else None, key=str(plan.id))
                plan_downloads(
                    plan, title=title, key=plan.id, actions=entry.actions, on_demand=True
                )
                with st.popover(t("delete"), icon=":material/delete:"):
                    st.write(t("confirm_delete"))
                    if st.button(t("delete"), key=f"delete-plan-{plan.id}", type="primary"):
                        history.delete_plan(workspace, plan.id)
                        st.rerun()
        if not entries:
            st.info(t("hist_empty"))
except StoreError as error:
    st.error(error.message(language()), icon=":material/database_off:")
