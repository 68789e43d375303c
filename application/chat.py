"""Chat use cases: ask a question, read a conversation back, rate an answer.

``ask`` keeps the promise that no turn is lost: the question is stored as pending before the
engine runs, and the answer, the rejection or the spent usage is written after it, through
the outbox when the database is away.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal
from uuid import uuid4

from pydantic import ValidationError

from application import attachments
from application.outbox import Write
from application.workspace import Workspace
from engine import (
    AekoBudgetExceededError,
    AekoConversationSummary,
    AekoError,
    AekoMessage,
    AekoMessageResponse,
    AekoMessenger,
    AekoModelError,
    AekoSession,
    AekoSource,
    EngineEvent,
    GuardrailVerdict,
    RunFinished,
)
from engine.errors import LocalizedError
from store import StoreError
from store.repositories import PendingTurn, RejectedTurn, UsageTotals

SESSION_NAME_CHARS = 60


@dataclass(frozen=True)
class TurnStarted:
    """The question is accepted: its conversation (new or not) and the run's id."""

    session: AekoSession
    run_id: str
    question: str
    attached: str | None = None  # the file name of the inventory the agents read
    # Set when the attached inventory could not be opened: the turn runs without it.
    attachment_problem: LocalizedError | None = None


TurnStatus = Literal["answered", "rejected", "budget_exceeded", "model_unavailable", "failed"]


@dataclass(frozen=True)
class TurnEnded:
    """How the turn ended, and whether its result reached the database already."""

    status: TurnStatus
    session: AekoSession
    run_id: str
    response: AekoMessageResponse | None = None
    error: AekoError | None = None
    saved: bool = True  # False: waiting in the outbox for the database
    reasons: str = ""  # rejected: the guardrail's last reasons
    turn_index: int | None = None  # answered: the turn's position in the session


TurnItem = TurnStarted | EngineEvent | TurnEnded


def ask(
    workspace: Workspace,
    question: str,
    session: AekoSession | None,
    *,
    attachment: str | None = None,
) -> Iterator[TurnItem]:
    """Run one chat turn: ``TurnStarted``, then the engine's events as they happen, then
    ``TurnEnded``. ``attachment`` is the id of the saved inventory the conversation reads
    (a new conversation remembers it from its first turn).

    Before anything is spent, raises ``DailyCapReachedError`` when today's allowance is
    gone, and ``StoreError`` when a new conversation cannot be created.
    """
    budget = workspace.run_budget()
    store, user = workspace.store, workspace.user
    sessions = store.sessions(user.id)
    if session is None:
        session = sessions.create(name=question[:SESSION_NAME_CHARS])
        if attachment:
            with suppress(StoreError):
                attachments.attach(workspace, session.id, attachment)
    run_id = uuid4().hex
    with suppress(StoreError):  # the answer still reaches the database later, via the outbox
        sessions.begin_turn(session.id, run_id, question)
    attached, problem = _open_attachment(workspace, attachment)
    name = attached.record.filename if attached else None
    yield TurnStarted(session, run_id, question, attached=name, attachment_problem=problem)

    try:
        memories = store.memories(user.id).active()
    except StoreError:
        memories = []
    try:
        summary = sessions.summary(session.id)
    except StoreError:
        summary = None
    verdicts: list[GuardrailVerdict] = []
    response: AekoMessageResponse | None = None
    try:
        for event in AekoMessenger(user, memories).stream(
            question,
            session,
            summary=summary,
            budget=budget,
            run_id=run_id,
            inventory=attached.inventory if attached else None,
            plan=attached.plan if attached else None,
        ):
            if isinstance(event, GuardrailVerdict):
                verdicts.append(event)
            elif isinstance(event, RunFinished):
                response = event.result  # type: ignore[assignment]
            yield event
    except AekoBudgetExceededError as error:
        usage = Write.usage(
            user.id, run_id, "chat", error.usage, outcome="budget_exceeded", session_id=session.id
        )
        workspace.outbox.submit(store, usage)
        yield TurnEnded("budget_exceeded", session, run_id, error=error)
        return
    except AekoModelError as error:
        yield TurnEnded("model_unavailable", session, run_id, error=error)
        return
    except AekoError as error:
        yield TurnEnded("failed", session, run_id, error=error)
        return
    if response is None:
        yield TurnEnded("failed", session, run_id, error=AekoError("the run gave no answer"))
        return
    reasons = verdicts[-1].reasons if verdicts else ""
    changed_summary = response.summary if response.summary != summary else None
    yield _persist(workspace, TurnStarted(session, run_id, question), response,
                   changed_summary=changed_summary, reasons=reasons)  # fmt: skip


def _open_attachment(
    workspace: Workspace, inventory_id: str | None
) -> tuple[attachments.Attached | None, LocalizedError | None]:
    """The attached inventory, open; or why it could not be (the turn goes on without it)."""
    if not inventory_id:
        return None, None
    try:
        return attachments.open_attached(workspace, inventory_id), None
    except LocalizedError as error:  # the database, or a stored file that no longer reads
        return None, error


def _persist(
    workspace: Workspace,
    turn: TurnStarted,
    response: AekoMessageResponse,
    *,
    changed_summary: AekoConversationSummary | None,
    reasons: str,
) -> TurnEnded:
    store, outbox, user_id = workspace.store, workspace.outbox, workspace.user.id
    session, run_id = turn.session, turn.run_id
    answered = bool(response.message.output)
    usage = Write.usage(
        user_id,
        run_id,
        "chat",
        response.usage,
        outcome="answered" if answered else "rejected",
        session_id=session.id,
    )
    outbox.submit(store, usage)
    if changed_summary:
        outbox.submit(store, Write.summary(user_id, session.id, changed_summary))
    if answered:
        meta = {
            "approved": response.approved,
            "reviewed": response.reviewed,
            "guardrail_retries": response.guardrail_retries,
            "agents": response.agents_called,
            "cost_usd": response.usage.cost_usd,
            "truncated": response.truncated,
            "sources": [source.model_dump() for source in response.sources],
        }
        write = Write.turn(user_id, session.id, run_id, response.message, meta)
        saved = outbox.submit(store, write)
        # The engine appended the answered turn to ``session``: it is the last one.
        index = len(session.messages) - 1
        return TurnEnded("answered", session, run_id, response, saved=saved, turn_index=index)
    rejection = Write.rejection(
        user_id,
        session.id,
        run_id,
        turn.question,
        reasons=reasons,
        guardrail_retries=response.guardrail_retries,
    )
    saved = outbox.submit(store, rejection)
    return TurnEnded("rejected", session, run_id, response, saved=saved, reasons=reasons)


@dataclass(frozen=True)
class ShownTurn:
    turn: AekoMessage
    cost_usd: float | None
    feedback: int | None  # the user's thumbs: 1 up, 0 down
    sources: tuple[AekoSource, ...] = ()  # what the answer stood on
    truncated: bool = False  # cut at the token cap: shown flagged, as when it was answered


@dataclass(frozen=True)
class Transcript:
    """A conversation as the chat page shows it, with what was kept beside its turns."""

    session: AekoSession
    turns: list[ShownTurn]
    cost: UsageTotals
    waiting: list[AekoMessage] = field(default_factory=list)  # answered, in the outbox
    rejected: list[RejectedTurn] = field(default_factory=list)
    pending: list[PendingTurn] = field(default_factory=list)  # asked, never answered


def open_conversation(workspace: Workspace, session_id: str) -> AekoSession:
    """Raises ``NotFoundError`` for a conversation that is not this user's."""
    return workspace.store.sessions(workspace.user.id).get(session_id)


def transcript(workspace: Workspace, session: AekoSession) -> Transcript:
    store, user_id = workspace.store, workspace.user.id
    sessions = store.sessions(user_id)
    meta = sessions.turn_meta(session.id)
    turns = [
        ShownTurn(
            turn,
            meta.get(turn.submitted_at, {}).get("cost_usd"),
            meta.get(turn.submitted_at, {}).get("feedback"),
            _sources(meta.get(turn.submitted_at, {}).get("sources")),
            truncated=bool(meta.get(turn.submitted_at, {}).get("truncated")),
        )
        for turn in session.messages
    ]
    waiting = [
        queued.args["message"]
        for queued in workspace.outbox.queued
        if queued.kind == "complete_turn" and queued.args["session_id"] == session.id
    ]
    return Transcript(
        session=session,
        turns=turns,
        cost=store.usage(user_id).totals(session_id=session.id),
        waiting=waiting,
        rejected=sessions.rejected_turns(session.id),
        pending=sessions.pending_turns(session.id),
    )


def _sources(stored: object) -> tuple[AekoSource, ...]:
    """Sources as kept beside a turn; an entry another version wrote differently is skipped
    rather than losing the conversation."""
    if not isinstance(stored, list):
        return ()
    kept = []
    for item in stored:
        with suppress(ValidationError):
            kept.append(AekoSource.model_validate(item))
    return tuple(kept)


def record_feedback(
    workspace: Workspace, session_id: str, submitted_at: datetime, score: int | None
) -> bool:
    """The user's thumbs on an answer. False when the database could not take it."""
    try:
        return workspace.store.sessions(workspace.user.id).set_feedback(
            session_id, submitted_at, score
        )
    except StoreError:
        return False
