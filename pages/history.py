"""History: past conversations and plans — search, open, export, delete (with confirmation);
each plan with its actions' totals, and two plans compared side by side.

Kept fast with many plans: the lists come a page at a time (``history.PAGE_SIZE``), searched
in the database; a plan's totals are kept beside it, so a page is one query; a plan's
actions are read and drawn only while its expander is open (or two plans are compared); an
export is built only when its button is clicked (deferred download)."""

from functools import partial

import streamlit as st

from application import history, inventories, scenarios
from application.exports import conversation_markdown
from application.safe_text import sanitize
from components.context import current, require_workspace
from components.i18n import language, t
from components.plan_card import compare_view, plan_card, plan_downloads, totals_line
from components.sessions_sidebar import SESSION_PARAM
from components.what_if import what_if
from engine.errors import LocalizedError
from store import StoreError

context = current()
st.title(t("hist_title"))
workspace = require_workspace(context)
_PAGES = {"sessions": "history-page-sessions", "plans": "history-page-plans"}


def _first_pages() -> None:
    """A new search starts both lists over at their first page."""
    for key in _PAGES.values():
        st.session_state[key] = 0


def _page_number(which: str) -> int:
    return int(st.session_state.get(_PAGES[which], 0))


def _turn_to(which: str, number: int) -> None:
    st.session_state[_PAGES[which]] = number


def _pager(which: str, page: history.Page) -> None:
    """Newer / page number / Older, when the list has more than one page. The buttons turn
    the page in their callback, so a click costs one rerun, not two."""
    if page.number == 0 and not page.has_more:
        return
    newer, number, older = st.columns([1, 1, 1], vertical_alignment="center")
    with newer:
        st.button(
            t("hist_newer"), key=f"{which}-newer", icon=":material/chevron_left:",
            disabled=page.number == 0, on_click=_turn_to, args=(which, page.number - 1),
        )  # fmt: skip
    with number:
        st.caption(t("hist_page", n=page.number + 1))
    with older:
        st.button(
            t("hist_older"), key=f"{which}-older", icon=":material/chevron_right:",
            disabled=not page.has_more, on_click=_turn_to, args=(which, page.number + 1),
        )  # fmt: skip


def _explore(plan, actions) -> None:
    """The what-if of a saved plan, on its inventory as it was analysed, with its scenarios."""
    if not st.toggle(t("whatif_title"), key=f"explore-{plan.id}"):
        return
    try:
        inventory, run_id = scenarios.plan_basis(workspace, plan)
    except LocalizedError as error:
        st.warning(error.message(language()), icon=":material/info:")
        return
    what_if(workspace, inventory, actions, run_id)


query = st.text_input(t("hist_search"), key="history-search", on_change=_first_pages)

try:
    sessions_tab, plans_tab = st.tabs([t("hist_sessions"), t("hist_plans")])
    with sessions_tab:
        sessions_page = history.conversations_page(workspace, query, _page_number("sessions"))
        found = sessions_page.items
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
                        partial(conversation_markdown, session, lang=language()),  # on click
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
        _pager("sessions", sessions_page)

    with plans_tab:
        plans_page = history.plans_page(workspace, query, _page_number("plans"))
        entries = plans_page.items
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
                    compare_view(history.with_actions(workspace, entries), labels)
        for entry in entries:
            plan = entry.plan
            title = t("plan_title", number=plan.id_external_inventory)
            box = st.expander(
                f"{labels[str(plan.id)]} · {totals_line(entry.totals)}",
                key=f"plan-open-{plan.id}",
                on_change="rerun",
            )
            with box:
                # Closed, the card is its three texts; the actions are read and drawn, and
                # the exports can be prepared with them, once it opens.
                actions = history.with_actions(workspace, [entry])[0].actions if box.open else None
                # How its inventory stood when analysed: a plan of an unproven one says so.
                reading = inventories.reading_of(workspace, plan) if box.open else None
                plan_card(
                    plan, actions, key=str(plan.id), reading=reading,
                    what_if=partial(_explore, plan, actions),
                )  # fmt: skip
                plan_downloads(
                    plan, title=title, key=plan.id, actions=actions, on_demand=True,
                    reading=reading,
                )  # fmt: skip
                with st.popover(t("delete"), icon=":material/delete:"):
                    st.write(t("confirm_delete"))
                    if st.button(t("delete"), key=f"delete-plan-{plan.id}", type="primary"):
                        history.delete_plan(workspace, plan.id)
                        st.rerun()
        if not entries:
            st.info(t("hist_empty"))
        _pager("plans", plans_page)
except StoreError as error:
    st.error(error.message(language()), icon=":material/database_off:")
