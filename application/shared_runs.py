"""Runs in the database, so that every app process shows every run (issue #24, point 1).

The process that runs a turn or an analysis holds its lease and mirrors it into ``runs`` /
``run_events`` (``store.repositories.runs``) as it goes: the start, each engine event, a
heartbeat that renews the lease, and the outcome. A page served by another process finds
the run there and follows it (``RemoteRun``): the events so far, then the new ones through a
change stream, then the outcome, rebuilt from its document. The mirror writes on a thread
of its own: a database that is slow or away never slows the run (the local run journal and
the outbox are the spill), it only leaves the other processes a run they see as running
until its lease expires, when the first of them to look reports it cut, once.

What goes into the outcome document is what a page shows: the status, the saved flag, the
answer or the plan, and an error as the user reads it (its kind and both languages).
"""

from __future__ import annotations

import logging
import os
import queue
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any
from uuid import uuid4

from pydantic import TypeAdapter, ValidationError

from application.chat import Accepted, TurnEnded, TurnStarted
from application.inventories import PlanEnded
from engine import AekoImprovementPlan, AekoSession, EngineEvent
from engine.actions.model import PlanActions
from engine.dto import AekoMessageResponse, AekoUsage
from engine.errors import AekoBudgetExceededError, AekoDeadlineError, AekoError, LocalizedError
from engine.texts import Both, Texts
from store.repositories.inventories import InventoryRecord
from store.repositories.runs import LEASE, QUEUED, RUNNING, RunRepository

if TYPE_CHECKING:
    from application.runs import Run

log = logging.getLogger(__name__)


# This process among all those on the database: a pid alone means nothing across containers.
def new_holder() -> str:
    return f"{socket.gethostname()}/{os.getpid()}/{uuid4().hex[:8]}"


HOLDER = new_holder()
RENEW_EVERY_S = LEASE.total_seconds() / 3
FOLLOW_WAIT_S = 0.5
MAX_BATCH = 200  # events a mirror writes in one round trip at most
# A queued run no worker claimed in this long is run by the process of the page following it
# (a worker not started, crashed, or all of them busy): an answer late, never none.
QUEUE_PATIENCE = timedelta(seconds=20)
_EVENTS: TypeAdapter[EngineEvent] = TypeAdapter(EngineEvent)
_TEXTS = Texts(
    "application.shared_runs",
    {
        "cut": {
            "pt": "A execução foi interrompida: o processo que a rodava parou.",
            "en": "The run was cut: the process running it stopped.",
        },
    },
)


class Mirror:
    """One local run's document and events in the database, written on their own thread."""

    def __init__(
        self,
        repository: RunRepository,
        run_id: str,
        *,
        create: dict[str, Any] | None = None,
        holder: str = HOLDER,
    ) -> None:
        """``create``: the run's document, to store first (``start_document``); None when it
        exists (a worker claimed it as ``holder``)."""
        self._repository = repository
        self._holder = holder
        self._run_id = run_id
        self._queue: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._seq = 0
        # Set when the lease was lost (the run taken for cut, or by another worker): its
        # holder must stop, not run it beside whoever has it now.
        self.lost = threading.Event()
        if create is not None:
            self._queue.put(("create", create))
        self._thread = threading.Thread(
            target=self._work, name=f"aeko-mirror-{run_id[:8]}", daemon=True
        )
        self._thread.start()

    def event(self, event: EngineEvent) -> None:
        self._queue.put(("event", (self._seq, event.model_dump(mode="json"))))
        self._seq += 1

    def end(self, outcome: TurnEnded | PlanEnded | None, error: BaseException | None) -> None:
        status = "failed" if outcome is None or outcome.status == "failed" else "ended"
        self._queue.put(("end", (status, outcome_document(outcome, error))))

    def join(self, timeout_s: float | None = None) -> None:
        self._thread.join(timeout_s)

    def _work(self) -> None:
        repository, run_id = self._repository, self._run_id
        renewed = time.monotonic()
        ended = False
        while not ended:
            try:
                ops = [self._queue.get(timeout=RENEW_EVERY_S)]
            except queue.Empty:
                ops = []
            # Whatever queued meanwhile goes in the same round trip: an agent emits its events
            # in bursts, and one insert per event let the queue (and the followers) fall
            # seconds behind under load (bench/runs_shared.py).
            while ops and len(ops) < MAX_BATCH:
                try:
                    ops.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            if time.monotonic() - renewed >= RENEW_EVERY_S:
                renewed = time.monotonic()
                try:
                    if not repository.renew(run_id, self._holder):
                        self.lost.set()
                except Exception as error:  # away for now: the lease may yet lapse
                    log.warning("run mirror: %s", error)
            events: list[tuple[int, dict[str, Any]]] = []
            for op, payload in ops:
                if op == "event":
                    events.append(payload)
                    continue
                if events:  # in order: a run's events before its end
                    _quietly(repository.add_events, run_id, events)
                    events = []
                if op == "create":
                    _quietly(repository.create, payload, self._holder)
                elif op == "end":
                    self._end(*payload)
                    ended = True
            if events:
                # A batch the database did not take is lost to the other processes' view
                # only: the run goes on, this process's followers have every event, and the
                # next batch is tried again.
                _quietly(repository.add_events, run_id, events)

    def _end(self, status: str, outcome: dict[str, Any]) -> None:
        repository, run_id = self._repository, self._run_id
        if not _quietly(repository.end, run_id, self._holder, status, outcome):
            # A plan the server would not take whole: the status still ends the run for the
            # other processes (the plan itself is in the plan collection).
            brief = {"status": outcome["status"], "saved": outcome["saved"]}
            _quietly(repository.end, run_id, self._holder, status, brief)


def _quietly(write: Callable[..., object], *args: Any) -> bool:
    try:
        result = write(*args)
    except Exception as error:  # the run goes on whatever the database does
        log.warning("run mirror: %s", error)
        return False
    return result is not False


def request_of(accepted: Accepted) -> dict[str, Any]:
    """What a worker needs to run an accepted turn, as the run document keeps it."""
    started, budget = accepted.started, accepted.budget
    return {
        "question": started.question,
        "session": started.session.model_dump(mode="json", by_alias=True),
        "attachment": accepted.attachment,
        "budget": None if budget is None else {
            "max_model_calls": budget.max_model_calls,
            "max_tokens": budget.max_tokens,
            "max_cost_usd": budget.max_cost_usd,
            "deadline_s": budget.deadline_s,
        },
    }  # fmt: skip


def start_document(run: Run) -> dict[str, Any]:
    started = run.started
    return {
        "_id": run.id,
        "kind": run.kind,
        "subject": run.subject,
        "title": run.title,
        "started_at": run.started_at,
        # Only what names the inventory again: the upload itself is stored with it.
        "reopen": {key: value for key, value in run.reopen.items() if key != "data"},
        "started": None
        if started is None
        else {
            "session": started.session.model_dump(mode="json", by_alias=True),
            "question": started.question,
            "attached": started.attached,
            "attachment_problem": _error_document(started.attachment_problem),
        },
    }


def outcome_document(
    outcome: TurnEnded | PlanEnded | None, error: BaseException | None
) -> dict[str, Any]:
    if outcome is None:
        return {"status": "failed", "saved": False, "error": _error_document(error)}
    document: dict[str, Any] = {
        "status": outcome.status,
        "saved": outcome.saved,
        "error": _error_document(outcome.error),
    }
    if isinstance(outcome, TurnEnded):
        document |= {
            "session": outcome.session.model_dump(mode="json", by_alias=True),
            "response": outcome.response.model_dump(mode="json") if outcome.response else None,
            "reasons": outcome.reasons,
            "turn_index": outcome.turn_index,
        }
    else:
        plan = outcome.plan
        document |= {
            "plan": plan.model_dump(mode="json", by_alias=True) if plan else None,
            "record": asdict(outcome.record) if outcome.record else None,
            # Beside the plan document, not in it (``AekoImprovementPlan``): a page of another
            # process shows the computed actions and the cost as the holder's page would.
            "usage": plan.usage.model_dump(mode="json") if plan else None,
            "actions": plan.actions.model_dump(mode="json") if plan and plan.actions else None,
        }
    return document


def _error_document(error: BaseException | None) -> dict[str, Any] | None:
    if error is None:
        return None
    document: dict[str, Any] = {"type": type(error).__name__}
    message = getattr(error, "message", None)
    if callable(message):
        document |= asdict(Both(str(message("pt")), str(message("en"))))
    else:
        document |= asdict(Both(str(error), str(error)))
    if isinstance(error, AekoBudgetExceededError):
        document |= {"agent": error.agent, "limit": error.limit, "allowed": error.allowed,
                     "used": error.used}  # fmt: skip
    return document


class RemoteError(AekoError, LocalizedError):
    """An error a run held by another process ended with, as its user was to read it."""

    def __init__(self, document: dict[str, Any]) -> None:
        LocalizedError.__init__(self, Both(document.get("pt", ""), document.get("en", "")))
        self.kind = document.get("type", "")


def error_from(document: dict[str, Any] | None) -> Exception | None:
    if not document:
        return None
    if "limit" in document:
        kind = (
            AekoDeadlineError
            if document["type"] == "AekoDeadlineError"
            else (AekoBudgetExceededError)
        )
        return kind(document["agent"], document["limit"], document["allowed"], document["used"],
                    None)  # fmt: skip
    return RemoteError(document)


def turn_started(run_id: str, started: dict[str, Any] | None) -> TurnStarted | None:
    if not started:
        return None
    problem = started.get("attachment_problem")
    return TurnStarted(
        session=AekoSession.model_validate(started["session"]),
        run_id=run_id,
        question=started["question"],
        attached=started.get("attached"),
        attachment_problem=LocalizedError(Both(problem["pt"], problem["en"])) if problem else None,
    )


def outcome_from(document: dict[str, Any]) -> TurnEnded | PlanEnded:
    """How a run held by another process ended, as a page here shows it."""
    run_id, kind = document["_id"], document["kind"]
    outcome = document.get("outcome") or {}
    status = outcome.get("status", "failed")
    error = error_from(outcome.get("error"))
    if document["status"] == "interrupted":
        status = "failed"
        error = LocalizedError(_TEXTS.both("cut"))
    if kind == "chat":
        started = document.get("started") or {}
        session = outcome.get("session") or started.get("session")
        response = outcome.get("response")
        return TurnEnded(
            status=status,
            session=AekoSession.model_validate(session),
            run_id=run_id,
            response=AekoMessageResponse.model_validate(response) if response else None,
            error=error,  # type: ignore[arg-type]
            saved=bool(outcome.get("saved", True)),
            reasons=outcome.get("reasons", ""),
            turn_index=outcome.get("turn_index"),
        )
    plan, record = outcome.get("plan"), outcome.get("record")
    return PlanEnded(
        status=status,
        run_id=run_id,
        record=InventoryRecord(**record) if record else None,
        plan=_plan_of(outcome) if plan else None,
        error=error,
        saved=bool(outcome.get("saved", True)),
    )


def _plan_of(outcome: dict[str, Any]) -> AekoImprovementPlan:
    plan = AekoImprovementPlan.model_validate(outcome["plan"])
    if outcome.get("usage"):
        plan._usage = AekoUsage.model_validate(outcome["usage"])
    if outcome.get("actions"):
        plan._actions = PlanActions.model_validate(outcome["actions"])
    return plan


def _waited(document: dict[str, Any]) -> timedelta:
    """How long a queued run has waited for a worker."""
    queued = document.get("queued_at") or document["started_at"]
    queued = queued if queued.tzinfo is not None else queued.replace(tzinfo=UTC)
    return datetime.now(UTC) - queued


def _lease_lapsed(document: dict[str, Any]) -> bool:
    if document["status"] != RUNNING:
        return False
    until = document["lease_until"]
    until = until if until.tzinfo is not None else until.replace(tzinfo=UTC)
    return until < datetime.now(UTC)


def events_of(raw: list[dict[str, Any]]) -> list[tuple[int, EngineEvent]]:
    parsed = []
    for document in raw:
        seq = document.pop("_seq")
        try:
            parsed.append((seq, _EVENTS.validate_python(document)))
        except ValidationError:  # an event of another version: the rest still shows
            log.warning("run event %s of another shape skipped", seq)
    return parsed


def follow_remote(
    repository: RunRepository,
    run_id: str,
    heartbeat: Callable[[], None] | None = None,
    on_cut: Callable[[dict[str, Any]], None] | None = None,
    on_stalled: Callable[[dict[str, Any]], None] | None = None,
) -> Iterator[EngineEvent | TurnEnded | PlanEnded]:
    """A run another process holds: its events so far, the rest as they come (by change
    stream, or by reading again where the server has none), then its outcome. A run whose
    holder let its lease expire is taken for cut here (``on_cut`` records it, once) and
    ends as such. A run still queued after ``QUEUE_PATIENCE`` (no worker is running, or all
    are busy) is handed to ``on_stalled``, once: the page's process runs it itself."""
    shown = -1
    stalled_told = False
    stream = repository.watch(run_id)
    try:
        while True:
            document = repository.get(run_id)
            if document is not None and _lease_lapsed(document):
                for taken in repository.take_expired(run_id):
                    if on_cut is not None:
                        on_cut(taken)
                document = repository.get(run_id)
            if (
                on_stalled is not None
                and not stalled_told
                and document is not None
                and document["status"] == QUEUED
                and _waited(document) > QUEUE_PATIENCE
            ):
                stalled_told = True
                on_stalled(document)
            ended = document is None or document["status"] not in (RUNNING, QUEUED)
            raw = repository.events(run_id, shown)
            for seq, event in events_of(raw):
                shown = max(shown, seq)
                yield event
            if ended:
                break
            if stream is not None:
                if not any(True for _ in stream.next_batch()) and heartbeat is not None:
                    heartbeat()  # the batch only says news came; they are read in order above
            else:
                time.sleep(FOLLOW_WAIT_S)
                if heartbeat is not None:
                    heartbeat()
    finally:
        if stream is not None:
            stream.close()
    if document is not None:
        yield outcome_from(document)
