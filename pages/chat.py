"""Chat: the conversation, the live agent trail, the verdict, and nothing ever lost."""

from contextlib import suppress
from uuid import uuid4

import streamlit as st
from pydantic import ValidationError

from application.safe_text import sanitize
from components.budget import explain_budget_error, run_budget
from components.context import current, require_database
from components.i18n import language, t
from components.sessions_sidebar import open_session, open_session_id, sessions_sidebar
from components.trail import cost_text, model_label, run_with_trail, verdict_badge
from engine import (
    AekoBudgetExceededError,
    AekoError,
    AekoMessenger,
    AekoModelError,
    AekoSession,
    GuardrailVerdict,
)
from store import StoreError
from store.errors import NotFoundError
from store.outbox import Write

RETRY = "aeko_retry_question"

context = current()
st.title(t("chat_title"))
st.caption(t("chat_caption"))
require_database(context)

user = context.user
sessions = context.store.sessions(user.id)
session_id = open_session_id()
session: AekoSession | None = None
try:
    sessions_sidebar(sessions, session_id)
    if session_id:
        session = sessions.get(session_id)
except NotFoundError:
    open_session(None)
    session_id = None
except ValidationError:  # a document another program wrote in a shape we cannot read
    st.error(t("session_unreadable"), icon=":material/error:")
    open_session(None)
    st.stop()
except StoreError as error:
    st.error(error.message(language()))
    st.stop()


def _render_answer(text: str) -> None:
    st.markdown(sanitize(text))


def _history(session: AekoSession) -> None:
    meta = sessions.turn_meta(session.id)
    totals = context.store.usage(user.id).totals(session_id=session.id)
    with st.sidebar:
        st.caption(
            ":material/payments: " + t("session_cost", runs=totals.runs, cost=totals.cost_usd)
        )
    for index, turn in enumerate(session.messages):
        with st.chat_message("user"):
            st.markdown(sanitize(turn.input))
        with st.chat_message("assistant"):
            _render_answer(turn.output)
            info = meta.get(turn.submitted_at, {})
            caption = cost_text(turn.input_tokens, turn.output_tokens, info.get("cost_usd"))
            st.caption(f"{model_label(turn.llm)} · {caption}")
            _feedback(session.id, index, turn.submitted_at, info.get("feedback"))
    for queued in context.outbox.queued:  # answers waiting for the database
        if queued.kind == "complete_turn" and queued.args["session_id"] == session.id:
            with st.chat_message("user"):
                st.markdown(sanitize(queued.args["message"].input))
            with st.chat_message("assistant"):
                _render_answer(queued.args["message"].output)
                st.caption(t("saved_later"))
    rejected = sessions.rejected_turns(session.id)
    if rejected:
        with st.expander(t("rejected_list", n=len(rejected)), icon=":material/gpp_bad:"):
            for turn in rejected:
                st.markdown(f"- {sanitize(turn.input)}")
    for pending in sessions.pending_turns(session.id):
        st.info(t("interrupted", question=sanitize(pending.input)), icon=":material/pending:")
        if st.button(t("ask_again"), key=f"retry-{pending.run_id}"):
            st.session_state[RETRY] = pending.input
            st.rerun()


def _feedback(session_id: str, index: int, submitted_at, stored: int | None) -> None:
    """Thumbs on an answer; the same widget key on the turn just answered and in history."""
    score = st.feedback("thumbs", key=f"feedback-{session_id}-{index}", default=stored)
    if score is not None and score != stored:
        with suppress(StoreError):
            sessions.set_feedback(session_id, submitted_at, score)


def _recording(events, seen: list):
    for event in events:
        seen.append(event)
        yield event


def _ask(question: str, session: AekoSession | None) -> None:
    budget = run_budget(context)
    if session is None:
        session = sessions.create(name=question[:60])
        open_session(session.id)
    run_id = uuid4().hex
    # If the database went away, the answer still reaches it later through the outbox.
    with suppress(StoreError):
        sessions.begin_turn(session.id, run_id, question)
    with st.chat_message("user"):
        st.markdown(sanitize(question))
    with st.chat_message("assistant"):
        try:
            memories = context.store.memories(user.id).active()
        except StoreError:
            memories = []
        seen: list = []
        summary = sessions.summary(session.id)
        messenger = AekoMessenger(user, memories)
        try:
            events = messenger.stream(
                question, session, summary=summary, budget=budget, run_id=run_id
            )
            response = run_with_trail(_recording(events, seen))
        except AekoBudgetExceededError as error:
            st.error(explain_budget_error(error, language()), icon=":material/savings:")
            context.outbox.submit(
                context.store,
                Write.usage(
                    user.id,
                    run_id,
                    "chat",
                    error.usage,
                    outcome="budget_exceeded",
                    session_id=session.id,
                ),
            )
            return
        except AekoModelError:
            st.error(t("model_unavailable"), icon=":material/cloud_off:")
            return
        except AekoError as error:
            st.error(t("engine_error", message=str(error)), icon=":material/error:")
            return
        outcome = "answered" if response.message.output else "rejected"
        context.outbox.submit(
            context.store,
            Write.usage(
                user.id, run_id, "chat", response.usage, outcome=outcome, session_id=session.id
            ),
        )
        if response.summary and response.summary != summary:
            context.outbox.submit(
                context.store, Write.summary(user.id, session.id, response.summary)
            )
        if response.message.output:
            _render_answer(response.message.output)
            verdict_badge(response)
            usage = response.usage
            st.caption(cost_text(usage.input_tokens, usage.output_tokens, usage.cost_usd))
            meta = {
                "approved": response.approved,
                "reviewed": response.reviewed,
                "guardrail_retries": response.guardrail_retries,
                "agents": response.agents_called,
                "cost_usd": usage.cost_usd,
            }
            write = Write.turn(user.id, session.id, run_id, response.message, meta)
            feedback_at = (len(session.messages) - 1, response.message.submitted_at)
        else:
            verdict_badge(response)
            st.error(t("rejected_turn"), icon=":material/gpp_bad:")
            verdicts = [e for e in seen if isinstance(e, GuardrailVerdict)]
            write = Write.rejection(
                user.id,
                session.id,
                run_id,
                question,
                reasons=verdicts[-1].reasons if verdicts else "",
                guardrail_retries=response.guardrail_retries,
            )
        if not context.outbox.submit(context.store, write):
            st.warning(t("saved_later"), icon=":material/sync:")
        elif response.message.output:
            _feedback(session.id, *feedback_at, None)


question = st.chat_input(t("chat_placeholder"), submit_mode="disable", max_chars=4000)
question = (question or st.session_state.pop(RETRY, None) or "").strip()
if session is not None:
    _history(session)
elif not question:
    st.info(t("chat_empty"), icon=":material/lightbulb:")
if question:
    _ask(question, session)
