"""Chat use cases: ask a question, read a conversation back, rate an answer.

``ask`` keeps the promise that no turn is lost: the question is stored as pending before the
engine runs, and the answer, the rejection or the spent usage is written after it, through
the outbox when the database is away.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Collection, Iterator
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Literal
from uuid import uuid4

from bson import ObjectId
from pydantic import ValidationError

from application import attachments
from application.outbox import Write
from application.workspace import RunSpending, Workspace
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
    MalformedAgentOutputError,
    RunBudget,
    RunFinished,
)
from engine.dto import utc_now
from engine.errors import LocalizedError
from store import StoreError, StoreUnavailableError
from store.repositories import PendingTurn, RejectedTurn, UsageTotals
from store.repositories.sessions import SessionDocument

if TYPE_CHECKING:
    from langgraph.checkpoint.base import BaseCheckpointSaver

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


@dataclass(frozen=True)
class Accepted:
    """A turn accepted (``accept``), not yet run: what ``run_accepted`` runs it with."""

    started: TurnStarted
    budget: RunBudget | None
    attached: attachments.Attached | None
    attachment: str | None  # the saved inventory's id, for a worker to open it again


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
    accepted = accept(workspace, question, session, attachment=attachment)
    try:
        yield accepted.started
    except BaseException:  # closed before it ran: what it reserved is given back
        workspace.release(accepted.started.run_id)
        raise
    yield from run_accepted(workspace, accepted)


def accept(
    workspace: Workspace,
    question: str,
    session: AekoSession | None,
    *,
    attachment: str | None = None,
    opens_attachment: bool = True,
) -> Accepted:
    """The turn accepted: today's allowance reserved, its conversation (created if new)
    holding the question as pending. Raises as ``ask`` does, having given back what it
    reserved. ``opens_attachment=False``: whoever runs it opens the inventory (a worker)."""
    run_id = uuid4().hex
    budget = workspace.run_budget(run_id)
    sessions = workspace.store.sessions(workspace.user.id)
    try:
        if session is None:
            try:
                session = sessions.create(name=question[:SESSION_NAME_CHARS])
            except StoreUnavailableError:  # its id is chosen here; the outbox creates it later
                session = _new_session_offline(workspace, question[:SESSION_NAME_CHARS])
            if attachment:
                with suppress(StoreError):
                    attachments.attach(workspace, session.id, attachment)
        with suppress(StoreError):  # the answer still reaches the database later, via the outbox
            sessions.begin_turn(session.id, run_id, question)
        attached, problem = (
            open_attachment(workspace, attachment) if opens_attachment else (None, None)
        )
        name = attached.record.filename if attached else None
        started = TurnStarted(session, run_id, question, attached=name, attachment_problem=problem)
    except BaseException:  # the turn never started: what it reserved is given back
        workspace.release(run_id)
        raise
    return Accepted(started, budget, attached, attachment)


def run_accepted(
    workspace: Workspace,
    accepted: Accepted,
    *,
    checkpointer: BaseCheckpointSaver | None = None,
) -> Iterator[TurnItem]:
    """The engine's events of an accepted turn, then ``TurnEnded``. Its usage is recorded
    once, whatever ends it: an outcome, or the finally for an exception or an interruption
    (Streamlit's rerun/stop, a closed stream). ``checkpointer``: the turn is durable on its
    run id, and run again it resumes after its last finished agent (a worker's take-over)."""
    started = accepted.started
    spending = RunSpending(workspace, started.run_id, "chat", session_id=started.session.id)
    failure: BaseException | None = None
    try:
        yield from _run_turn(
            workspace, started.question, started.session, budget=accepted.budget,
            attached=accepted.attached, spending=spending, checkpointer=checkpointer,
        )  # fmt: skip
    except BaseException as error:
        failure = error
        raise
    finally:
        spending.close(failure)


def _run_turn(
    workspace: Workspace,
    question: str,
    session: AekoSession,
    *,
    budget: RunBudget | None,
    attached: attachments.Attached | None,
    spending: RunSpending,
    checkpointer: BaseCheckpointSaver | None = None,
) -> Iterator[TurnItem]:
    """``ask`` once the turn started: the engine's events, then how the turn ended, its
    usage recorded through ``spending`` on every outcome."""
    store, user, run_id = workspace.store, workspace.user, spending.run_id
    sessions = store.sessions(user.id)
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
            checkpointer=checkpointer,
        ):
            spending.observe(event)
            if isinstance(event, GuardrailVerdict):
                verdicts.append(event)
            elif isinstance(event, RunFinished):
                response = event.result  # type: ignore[assignment]
            yield event
    except AekoBudgetExceededError as error:  # a deadline too (AekoDeadlineError)
        told = workspace.day_ran_out(run_id, error) or error
        spending.record("budget_exceeded", error.usage)
        yield TurnEnded("budget_exceeded", session, run_id, error=told)
        return
    except AekoModelError as error:
        spending.model_error(error)
        spending.record("model_unavailable", error.usage)
        yield TurnEnded("model_unavailable", session, run_id, error=error)
        return
    except MalformedAgentOutputError as error:
        spending.record("malformed", error.usage)
        yield TurnEnded("failed", session, run_id, error=error)
        return
    except AekoError as error:
        spending.record("failed", getattr(error, "usage", None))
        yield TurnEnded("failed", session, run_id, error=error)
        return
    if response is None:
        spending.record("failed")
        yield TurnEnded("failed", session, run_id, error=AekoError("the run gave no answer"))
        return
    reasons = verdicts[-1].reasons if verdicts else ""
    changed_summary = response.summary if response.summary != summary else None
    ended = _persist(workspace, TurnStarted(session, run_id, question), response,
                     changed_summary=changed_summary, reasons=reasons)  # fmt: skip
    spending.recorded_elsewhere(ended.status, response.usage)  # _persist wrote the usage
    yield ended


def _new_session_offline(workspace: Workspace, name: str) -> AekoSession:
    """A conversation started while the database does not answer: created here, with an
    ObjectId chosen here, and journalled in the outbox (ahead of its turn) to be stored."""
    stamp = utc_now()
    session = AekoSession(
        _id=str(ObjectId()),
        id_user=str(workspace.user.id),
        name=name,
        created_at=stamp,
        updated_at=stamp,
    )
    workspace.outbox.keep(Write.new_session(workspace.user.id, session))
    return session


def open_attachment(
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
    return open_document(workspace, session_id).session


def open_document(workspace: Workspace, session_id: str) -> SessionDocument:
    """The conversation and all that is kept beside it, in one read; the attachment picker
    of this rerun takes the attachment from it instead of reading the document again.
    Raises ``NotFoundError`` for a conversation that is not this user's."""
    document = workspace.store.sessions(workspace.user.id).read(session_id)
    attachments.remember(workspace, session_id, document.attached_inventory)
    return document


def transcript(
    workspace: Workspace,
    session: AekoSession,
    document: SessionDocument | None = None,
    *,
    live: Collection[str] = (),
) -> Transcript:
    """``session`` as the chat page shows it. ``document``, when the page read it already
    (``open_document``), spares the read; the session's cost is read again only when the
    conversation changed (``_session_cost``). The runs ``live`` (by run id) are left out:
    the page shows them as they go, with their trail, and how they ended."""
    if document is None:
        document = workspace.store.sessions(workspace.user.id).read(session.id)
    meta = document.turn_meta
    turns = [
        ShownTurn(
            turn,
            meta.get(turn.submitted_at, {}).get("cost_usd"),
            meta.get(turn.submitted_at, {}).get("feedback"),
            _sources(meta.get(turn.submitted_at, {}).get("sources")),
            truncated=bool(meta.get(turn.submitted_at, {}).get("truncated")),
        )
        for turn in session.messages
        if meta.get(turn.submitted_at, {}).get("run_id") not in live
    ]
    waiting = [
        queued.args["message"]
        for queued in workspace.outbox.queued
        if queued.kind == "complete_turn"
        and queued.args["session_id"] == session.id
        and queued.args["run_id"] not in live
    ]
    return Transcript(
        session=session,
        turns=turns,
        cost=_session_cost(workspace, document),
        waiting=waiting,
        rejected=[turn for turn in document.rejected if turn.run_id not in live],
        pending=[turn for turn in document.pending if turn.run_id not in live],
    )


_COSTS_KEPT = 256  # conversations whose cost is remembered per process
_costs: OrderedDict[tuple, UsageTotals] = OrderedDict()
_costs_lock = threading.Lock()


def _session_cost(workspace: Workspace, document: SessionDocument) -> UsageTotals:
    """The conversation's usage totals, remembered while the conversation stays as it was.

    Every run of a conversation changes its document (a pending question, then a turn or a
    rejection), so the totals are read again after each run and not on the reruns between
    them. While writes wait in the outbox the totals are read every time."""
    session = document.session
    usage = workspace.store.usage(workspace.user.id)
    if workspace.outbox.queued:
        return usage.totals(session_id=session.id)
    key = (
        str(workspace.user.id),
        session.id,
        session.updated_at,
        len(session.messages),
        len(document.turn_meta),
        tuple(p.run_id for p in document.pending),
        len(document.rejected),
    )
    with _costs_lock:
        if key in _costs:
            _costs.move_to_end(key)
            return _costs[key]
    totals = usage.totals(session_id=session.id)
    with _costs_lock:
        _costs[key] = totals
        while len(_costs) > _COSTS_KEPT:
            _costs.popitem(last=False)
    return totals


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
