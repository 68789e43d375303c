"""Chat: the conversation, the live agent trail, the verdict, and nothing ever lost."""

import streamlit as st

from components.i18n import t

RETRY = "aeko_retry_question"

# The input first, before the use cases' and the engine's modules load and before the
# database answers (on a cold start that is seconds): a question typed meanwhile reruns the
# page, which asks it once the store is there. In the main area it is pinned to the bottom
# wherever it is drawn.
st.title(t("chat_title"))
st.caption(t("chat_caption"))
question = st.chat_input(t("chat_placeholder"), submit_mode="disable", max_chars=4000)

# ruff: noqa: E402 (the imports below wait until the input is on the page)
from contextlib import suppress
from datetime import datetime

from pydantic import ValidationError
from streamlit.delta_generator import DeltaGenerator

from application import chat, runs
from application.chat import TurnEnded
from application.runs import Run
from application.safe_text import sanitize
from application.workspace import DailyCapReachedError
from components.attachment_picker import attachment_picker
from components.budget import explain_budget_error, explain_model_error, spent_text
from components.context import current, require_workspace
from components.follow import TabGone, heartbeat, tab_connected
from components.i18n import language, tn
from components.sessions_sidebar import open_session, open_session_id, sessions_sidebar
from components.sources import sources_block
from components.trail import cost_text, model_display_name, run_with_trail, verdict_badge
from engine import AekoSession
from engine.errors import LocalizedError
from store import SessionDocument, StoreError
from store.errors import NotFoundError

context = current()
if question and (context.store is None or context.user is None):
    # Kept for the first rerun in which the database answers, rather than lost with the page.
    st.session_state[RETRY] = question
workspace = require_workspace(context)

session_id = open_session_id()
session: AekoSession | None = None
document: SessionDocument | None = None  # the session, read once for the whole rerun
try:
    sessions_sidebar(workspace, session_id)
    if session_id:
        document = chat.open_document(workspace, session_id)
        session = document.session
except NotFoundError:
    st.info(t("session_not_found"), icon=":material/search_off:")
    open_session(None)
    session_id = None
except ValidationError:  # a document another program wrote in a shape we cannot read
    st.error(t("session_unreadable"), icon=":material/error:")
    open_session(None)
    st.stop()
except StoreError as error:
    # The conversation cannot be read now, but it stays open: a question asked meanwhile is
    # answered and journalled into it, and written when the database answers again.
    st.warning(f"{error.message(language())} {t('db_away_chat')}", icon=":material/sync:")
    if session_id and context.user is not None:
        session = AekoSession(_id=session_id, id_user=context.user.id)


def _render_answer(text: str) -> None:
    st.markdown(sanitize(text))


# The conversation's runs and cost, in the sidebar: drawn with the history, and drawn again
# once a run on this page ends (the history was read before it).
_cost_line: list[DeltaGenerator] = []


def _session_cost(cost) -> None:  # the store's UsageTotals
    if not _cost_line:
        _cost_line.append(st.sidebar.empty())
    text = tn("session_cost", cost.runs, cost=spent_text(cost, language()))
    _cost_line[0].caption(":material/payments: " + text)


def _history(session: AekoSession, live: list[Run]) -> None:
    shown = chat.transcript(workspace, session, document, live={run.id for run in live})
    _session_cost(shown.cost)
    for index, item in enumerate(shown.turns):
        turn = item.turn
        with st.chat_message("user"):
            st.markdown(sanitize(turn.input))
        with st.chat_message("assistant"):
            _render_answer(turn.output)
            if item.truncated:
                st.warning(t("answer_truncated"), icon=":material/content_cut:")
            sources_block(item.sources)
            caption = cost_text(turn.input_tokens, turn.output_tokens, item.cost_usd)
            st.caption(f"{model_display_name(turn.llm)} · {caption}")
            _feedback(session.id, index, turn.submitted_at, item.feedback)
    for waiting in shown.waiting:  # answers waiting for the database
        with st.chat_message("user"):
            st.markdown(sanitize(waiting.input))
        with st.chat_message("assistant"):
            _render_answer(waiting.output)
            st.caption(t("saved_later"))
    if shown.rejected:
        with st.expander(t("rejected_list", n=len(shown.rejected)), icon=":material/gpp_bad:"):
            for turn in shown.rejected:
                st.markdown(f"- {sanitize(turn.input)}")
    for pending in shown.pending:
        st.info(t("interrupted", question=sanitize(pending.input)), icon=":material/pending:")
        if st.button(t("ask_again"), key=f"retry-{pending.run_id}"):
            st.session_state[RETRY] = pending.input
            st.rerun()


def _feedback(session_id: str, index: int, submitted_at: datetime, stored: int | None) -> None:
    """Thumbs on an answer; the same widget key on the turn just answered and in history."""
    score = st.feedback("thumbs", key=f"feedback-{session_id}-{index}", default=stored)
    if score is not None and score != stored:
        chat.record_feedback(workspace, session_id, submitted_at, score)


def _ask(question: str, session: AekoSession | None, attachment: str | None) -> None:
    lang = language()
    try:
        run = runs.ask(workspace, question, session, attachment=attachment)
    except DailyCapReachedError as error:
        st.error(error.message(lang), icon=":material/savings:")
        return
    except StoreError as error:
        st.error(error.message(lang), icon=":material/database_off:")
        return
    open_session(run.subject)
    _follow(run)


def _follow(run: Run) -> None:
    """The turn as it goes, from what it did so far (this page may have been reloaded mid
    run), then how it ended. The run is the application's: leaving the page leaves it."""
    with st.chat_message("user"):
        st.markdown(sanitize(run.title))
    with st.chat_message("assistant"):
        started = run.started
        if started is not None and started.attachment_problem is not None:
            message = started.attachment_problem.message(language())
            st.warning(t("attach_problem", message=message), icon=":material/link_off:")
        try:
            ended = run_with_trail(run.follow(heartbeat=heartbeat()))
        except TabGone:  # the run goes on; the next tab on this conversation shows it
            return
        assert isinstance(ended, TurnEnded)
        _show_outcome(ended)
        _ended.append(ended.session)
    if tab_connected():
        run.deliver()


_ended: list[AekoSession] = []  # the conversations of the runs this page followed to their end


def _show_outcome(ended: TurnEnded) -> None:
    response = ended.response
    if ended.status == "budget_exceeded":
        st.error(explain_budget_error(ended.error, language()), icon=":material/savings:")
        return
    if ended.status == "model_unavailable":
        message = explain_model_error(ended.error, language()) if ended.error else ""
        st.error(sanitize(message) or t("model_unavailable"), icon=":material/cloud_off:")
        return
    if ended.status == "failed" or response is None:
        error = ended.error
        said = error.message(language()) if isinstance(error, LocalizedError) else str(error)
        st.error(t("engine_error", message=sanitize(said)), icon=":material/error:")
        return
    if ended.status == "answered":
        # The answer streamed below the trail was taken away: this is its one showing.
        _render_answer(response.message.output)
        if response.truncated:
            st.warning(t("answer_truncated"), icon=":material/content_cut:")
        if response.unverified:
            numbers = ", ".join(response.unverified)
            st.warning(sanitize(t("answer_unverified", numbers=numbers)), icon=":material/help:")
        sources_block(response.sources)
        verdict_badge(response)
        usage = response.usage
        st.caption(cost_text(usage.input_tokens, usage.output_tokens, usage.cost_usd))
    else:
        verdict_badge(response)
        st.error(t("rejected_turn"), icon=":material/gpp_bad:")
    if not ended.saved:
        st.warning(t("saved_later"), icon=":material/sync:")
    elif ended.turn_index is not None:
        _feedback(ended.session.id, ended.turn_index, response.message.submitted_at, None)


attachment = attachment_picker(workspace, session.id if session else None)
question = (question or st.session_state.pop(RETRY, None) or "").strip()
# Turns of this conversation still going, or ended while no page showed them: a turn cut by
# an app that stopped is left to the conversation's own "interrupted" notice.
# Another process may hold only a turn this conversation has pending: none, no query.
pending_ids = [turn.run_id for turn in document.pending] if document is not None else []
live = runs.shown_to(workspace, "chat", session.id, among=pending_ids) if session else []
for run in [run for run in live if run.interrupted]:
    run.deliver()
live = [run for run in live if not run.interrupted]
if session is not None and document is not None:
    _history(session, live)
elif not question and not live:
    st.info(t("chat_empty"), icon=":material/lightbulb:")
for run in live:
    _follow(run)
if question:
    _ask(question, session, attachment)
if _ended:  # what the runs just ended spent, counted with the others
    with suppress(StoreError):  # the database went away meanwhile: the line read before stays
        _session_cost(chat.transcript(workspace, _ended[-1]).cost)
