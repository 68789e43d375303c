"""Runs that outlive the page: a chat turn or an inventory analysis runs in a worker thread
the application layer owns, not on the Streamlit script thread.

A widget click, a rerun, a reload or a closed tab ends the *script* that shows a run, never
the run: what the user paid for goes on, is saved by its use case, and the next page that
opens the conversation or the inventory follows it (``Run.follow``: what happened so far,
then the rest as it comes) or shows how it ended, once.

Each run also lives in the database while it goes (``application.shared_runs``): any app
process behind the same load balancer finds it there, follows it live and shows how it
ended, once; a run whose process stopped renewing its lease is reported cut by the first
process that looks. The runs of this process stay in its memory as well, which is what
makes following one here immediate.

Each run's items are also written, as they come, to a journal of its own in the data
folder (``runs/<id>.jsonl``): a start line, the engine's events, an end line. It is the
spill for a database that is away: a run whose journal has no end line, and which the
database does not know as running elsewhere, was cut by the app stopping; the next app says
so instead of pretending it never happened (its question, for a chat turn, is kept pending
by the store).
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import logging
import os
import threading
import time
import weakref
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Literal
from uuid import uuid4

from pydantic import ValidationError

from application import chat, inventories
from application.analysis_request import READING_KEYS, AnalysisRequest
from application.chat import TurnEnded, TurnStarted
from application.inventories import FactorFile, PlanEnded
from application.outbox import Journal, Write
from application.planning import PlanInputs
from application.shared_runs import (
    Mirror,
    follow_remote,
    outcome_from,
    request_of,
    start_document,
    turn_started,
)
from application.workspace import Workspace, model_call
from engine import AekoImprovementPlan, AekoSession, AgentFinished, EngineEvent
from engine.dto import AekoUsage
from engine.errors import LocalizedError
from engine.inventory import Inventory
from engine.texts import Lang, lang_of
from store import Store, StoreError
from store.embedded import process_alive
from store.repositories.runs import QUEUED, RUNNING, RunRepository

log = logging.getLogger(__name__)

RunKind = Literal["chat", "inventory"]

RUNS_FOLDER = "runs"
WAIT_S = 0.5  # how long a follower waits for news before it checks in with its page
KEEP_FINISHED = timedelta(hours=6)  # a finished run nobody came back for is forgotten then
_MAX_KEPT = 500  # finished runs remembered per data folder at most


@dataclass(eq=False)
class Run:
    """One run as pages see it: who started it, about what, what it yielded so far, and
    how it ended. ``subject`` is the conversation's id (chat) or the upload's SHA-256
    (inventory); ``reopen`` holds what a page needs to show the inventory again."""

    id: str
    user_id: str
    kind: RunKind
    subject: str
    title: str  # the question, or the file's name
    started_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    started: TurnStarted | None = None  # chat: the accepted turn
    reopen: dict[str, Any] = field(default_factory=dict)
    interrupted: bool = False  # read back from the journal of an app that stopped
    outcome: TurnEnded | PlanEnded | None = None
    error: BaseException | None = None
    finished_at: datetime | None = None
    delivered: bool = False  # a page showed how it ended
    _items: list[object] = field(default_factory=list, repr=False)
    _changed: threading.Condition = field(default_factory=threading.Condition, repr=False)
    # Where the run lives for the other app processes, when a database is at hand.
    _repository: RunRepository | None = field(default=None, repr=False)
    _mirror: Mirror | None = field(default=None, repr=False)

    @property
    def done(self) -> bool:
        return self.finished_at is not None

    def follow(self, heartbeat: Callable[[], None] | None = None) -> Iterator[object]:
        """Everything the run yielded so far, then the rest as it comes, then its outcome
        (or its error, raised). ``heartbeat`` is called while nothing new comes, so the
        page's script can notice a rerun request and leave; the run goes on regardless."""
        shown = 0
        while True:
            with self._changed:
                if shown >= len(self._items) and not self.done:
                    self._changed.wait(WAIT_S)
                news = self._items[shown:]
                shown += len(news)
                ended = self.done and shown >= len(self._items)
            yield from news
            if ended:
                break
            if not news and heartbeat is not None:
                heartbeat()
        if self.error is not None:
            raise self.error
        if self.outcome is not None:
            yield self.outcome

    def wait(self, timeout_s: float | None = None) -> bool:
        """Block until the run ends (tests, benchmarks); True when it did."""
        deadline = None if timeout_s is None else time.monotonic() + timeout_s
        with self._changed:
            while not self.done:
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return False
                self._changed.wait(left)
        return True

    def deliver(self) -> None:
        """A page showed how the run ended: a page opened later, by any process, does not
        show it again."""
        self.delivered = True
        if self._repository is not None:
            with contextlib.suppress(StoreError):  # shown once more at worst, never lost
                self._repository.deliver(self.id)

    def _add(self, item: object) -> None:
        with self._changed:
            self._items.append(item)
            self._changed.notify_all()

    def _end(self, outcome: TurnEnded | PlanEnded | None, error: BaseException | None) -> None:
        with self._changed:
            self.outcome, self.error = outcome, error
            self.finished_at = datetime.now(UTC)
            self._changed.notify_all()


@dataclass(eq=False)
class RemoteRun(Run):
    """A run another app process holds, followed through the database."""

    # Records a run found cut while followed (its usage so far, once).
    _on_cut: Callable[[dict[str, Any]], None] | None = field(default=None, repr=False)
    # Runs a queued run no worker claimed in time, here (worker mode).
    _on_stalled: Callable[[dict[str, Any]], None] | None = field(default=None, repr=False)

    def follow(self, heartbeat: Callable[[], None] | None = None) -> Iterator[object]:
        assert self._repository is not None
        for item in follow_remote(
            self._repository, self.id, heartbeat, self._on_cut, self._on_stalled
        ):
            if isinstance(item, TurnEnded | PlanEnded):
                self.outcome, self.finished_at = item, datetime.now(UTC)
            yield item

    def wait(self, timeout_s: float | None = None) -> bool:
        assert self._repository is not None
        deadline = None if timeout_s is None else time.monotonic() + timeout_s
        while (document := self._repository.get(self.id)) and document["status"] in (
            RUNNING,
            QUEUED,
        ):
            if deadline is not None and time.monotonic() >= deadline:
                return False
            time.sleep(WAIT_S)
        return True


def remote_run(
    repository: RunRepository,
    document: dict[str, Any],
    on_cut: Callable[[dict[str, Any]], None] | None = None,
) -> RemoteRun:
    run = RemoteRun(
        id=document["_id"],
        user_id=str(document["id_user"]),
        kind=document["kind"],
        subject=document["subject"],
        title=document.get("title", ""),
        started_at=_aware(document["started_at"]),
        started=turn_started(document["_id"], document.get("started")),
        reopen=dict(document.get("reopen") or {}),
        interrupted=document["status"] == "interrupted",
        _repository=repository,
        _on_cut=on_cut,
    )
    if document["status"] not in (RUNNING, QUEUED):
        run.finished_at = _aware(document.get("ended_at") or document["started_at"])
        if not run.interrupted:  # a cut run is named, not followed: it has no outcome
            run.outcome = outcome_from(document)
            _keep_upload_stored(run, run.outcome)
    return run


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


class Runs:
    """The runs of one data folder in this process: started here, or cut by an app that
    stopped (read back from their journals). Safe across threads."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self.store: Store | None = None  # set by ``runs_of``: where runs are shared
        self._runs: dict[str, Run] = {}
        self._lock = threading.Lock()
        # What the cut runs had spent, by run id: recorded once a store is at hand.
        self.unrecorded: dict[str, AekoUsage] = {}
        if folder is not None:
            folder.mkdir(parents=True, exist_ok=True)
            for run, spent in _read_cut_runs(folder):
                self._runs[run.id] = run
                self.unrecorded[run.id] = spent

    def record_cut_spending(self, workspace: Workspace) -> None:
        """Record what the runs cut by an app that stopped had spent (from their journals'
        finished agents), as "interrupted", through the outbox: the daily cap counts it.
        Idempotent by run id, like every usage write."""
        with self._lock:
            unrecorded, self.unrecorded = self.unrecorded, {}
        for run_id, spent in unrecorded.items():
            run = self._runs.get(run_id)
            if run is None:
                continue
            if _held_elsewhere(workspace.store, run_id):
                with self._lock:  # another process runs it: not ours to call cut
                    self._runs.pop(run_id, None)
                continue
            if not spent.calls:
                continue
            write = Write.usage(
                run.user_id,
                run_id,
                run.kind,
                spent,
                outcome="interrupted",
                session_id=run.subject if run.kind == "chat" else None,
            )
            workspace.outbox.submit(workspace.store, write)

    def shown_to(
        self,
        user_id: str,
        kind: RunKind,
        subject: str | None = None,
        *,
        among: Collection[str] | None = None,
        on_cut: Callable[[dict[str, Any]], None] | None = None,
    ) -> list[Run]:
        """The runs a page of this user shows, oldest first: those still going, and those
        that ended without a page showing how; this process's, and those other processes
        hold or held (from the database, when it answers). ``among``: the only run ids
        another process may hold (a conversation's pending turns), so that a page with
        none asks the database nothing."""
        self._forget_old()
        with self._lock:
            runs = list(self._runs.values())
        mine = [
            run
            for run in runs
            if run.user_id == str(user_id)
            and run.kind == kind
            and (subject is None or run.subject == subject)
            and not (run.done and run.delivered)
        ]
        known = {run.id for run in runs}
        if self.store is not None:
            repository = self.store.runs(user_id)
            try:
                mine = [run for run in mine if not _delivered_elsewhere(repository, run)]
                if among is None:
                    documents = repository.shown(kind, subject)
                else:
                    unknown = sorted(set(among) - known)
                    documents = repository.shown_of(unknown) if unknown else []
            except StoreError:
                documents = []
            mine += [
                remote_run(repository, doc, on_cut) for doc in documents if doc["_id"] not in known
            ]
        return sorted(mine, key=lambda run: run.started_at)

    def get(self, run_id: str) -> Run | None:
        with self._lock:
            return self._runs.get(run_id)

    def known(self) -> list[Run]:
        """Every run this process knows (its own, and cut ones read from journals)."""
        with self._lock:
            return list(self._runs.values())

    def start(self, run: Run, items: Iterator[object]) -> Run:
        """Drain ``items`` (a use case's stream) in a worker thread into ``run``."""
        with self._lock:
            self._runs[run.id] = run
        if self.store is not None:
            run._repository = self.store.runs(run.user_id)
            run._mirror = Mirror(run._repository, run.id, create=start_document(run))
        journal = _RunJournal(self.folder, run)
        context = contextvars.copy_context()  # what the page's thread had set, the run keeps
        worker = threading.Thread(
            target=context.run,
            args=(_drain, run, items, journal),
            name=f"aeko-run-{run.kind}-{run.id[:8]}",
            daemon=True,  # the journal, not the thread, is what survives the process
        )
        worker.start()
        return run

    def _forget_old(self) -> None:
        now = datetime.now(UTC)
        with self._lock:
            finished = [run for run in self._runs.values() if run.done]
            for run in finished:
                seen_long_ago = run.delivered and now - run.finished_at > timedelta(minutes=5)
                if seen_long_ago or now - run.finished_at > KEEP_FINISHED:
                    self._forget(run)
            finished = sorted((r for r in self._runs.values() if r.done), key=_finished_at)
            for run in finished[: max(0, len(finished) - _MAX_KEPT)]:
                self._forget(run)

    def _forget(self, run: Run) -> None:
        del self._runs[run.id]
        if self.folder is not None:
            with contextlib.suppress(FileNotFoundError):
                (self.folder / f"{run.id}.jsonl").unlink()


def _finished_at(run: Run) -> datetime:
    return run.finished_at or run.started_at


def _drain(run: Run, items: Iterator[object], journal: _RunJournal) -> None:
    outcome: TurnEnded | PlanEnded | None = None
    error: BaseException | None = None
    try:
        for item in items:
            if isinstance(item, TurnEnded | PlanEnded):
                outcome = item
                continue
            run._add(item)
            journal.event(item)
            if run._mirror is not None and isinstance(item, EngineEvent):
                run._mirror.event(item)
    except LocalizedError as failure:  # said to the user in their words: not a bug
        error = failure
    except Exception as failure:  # the use cases turn their errors into outcomes; not this
        log.exception("run %s (%s) failed", run.id, run.kind)
        error = failure
    finally:
        journal.end(outcome, error)
        if run._mirror is not None:
            run._mirror.end(outcome, error)
        _keep_upload_stored(run, outcome)
        run._end(outcome, error)


def _keep_upload_stored(run: Run, outcome: TurnEnded | PlanEnded | None) -> None:
    """An analysis that saved its upload lets go of the file: a page reopens it from the
    database (``inventories.original``), so a run remembered for hours holds no upload."""
    if isinstance(outcome, PlanEnded) and outcome.record is not None:
        run.reopen.pop("data", None)
        run.reopen["inventory_id"] = outcome.record.id


_REGISTRIES: weakref.WeakKeyDictionary[Journal, Runs] = weakref.WeakKeyDictionary()
_REGISTRIES_LOCK = threading.Lock()


def runs_of(workspace: Workspace) -> Runs:
    """The runs of the workspace's data folder: the folder of its outbox journal (or, with
    an in-memory journal, runs kept in memory only)."""
    journal = workspace.outbox.journal
    with _REGISTRIES_LOCK:
        runs = _REGISTRIES.get(journal)
        if runs is None:
            folder = journal.path.parent / RUNS_FOLDER if journal.path is not None else None
            runs = _REGISTRIES[journal] = Runs(folder)
    runs.store = workspace.store
    if runs.unrecorded:
        runs.record_cut_spending(workspace)
    return runs


def shown_to(
    workspace: Workspace,
    kind: RunKind,
    subject: str | None = None,
    *,
    among: Collection[str] | None = None,
) -> list[Run]:
    """See ``Runs.shown_to``; runs whose holder died are reported cut first, once."""
    registry = runs_of(workspace)
    if among is None or set(among) - {run.id for run in registry.known()}:
        record_cut_runs(workspace, registry)
    shown = registry.shown_to(
        workspace.user.id,
        kind,
        subject,
        among=among,
        on_cut=lambda document: _record_cut(workspace, document),
    )
    for run in shown:
        # A queued run found after a reload: this page runs it when no worker does, as the
        # page that enqueued it would have.
        if isinstance(run, RemoteRun) and run._on_stalled is None and not run.done:
            run._on_stalled = lambda stalled: _run_here(workspace, stalled["_id"])
    return shown


def record_cut_runs(workspace: Workspace, registry: Runs) -> int:
    """Report cut, once, this user's runs whose holder stopped renewing its lease, and
    record what their finished agents had spent (from their events in the database) as
    "interrupted" usage. Returns how many this call took."""
    repository = workspace.store.runs(workspace.user.id)
    try:
        taken = repository.take_expired()
    except StoreError:
        return 0
    for document in taken:
        local = registry.get(document["_id"])
        if local is not None and not local.done:
            continue  # ours and going: only its mirror lost the database for a while
        _record_cut(workspace, document)
    return len(taken)


def _record_cut(workspace: Workspace, document: dict[str, Any]) -> None:
    """What a run found cut had spent, from its finished agents' events, as "interrupted"
    usage (idempotent by run id; the run's own usage, if it comes after all, wins)."""
    repository = workspace.store.runs(workspace.user.id)
    try:
        events = repository.events(document["_id"])
    except StoreError:
        return
    spent = _spent([{"op": "event", "event": event} for event in events])
    if not spent.calls:
        return
    write = Write.usage(
        str(document["id_user"]),
        document["_id"],
        document["kind"],
        spent,
        outcome="interrupted",
        session_id=document["subject"] if document["kind"] == "chat" else None,
    )
    workspace.outbox.submit(workspace.store, write)


def _delivered_elsewhere(repository: RunRepository, run: Run) -> bool:
    """A run of this process whose end a page of another process showed already."""
    if not run.done or run.interrupted:
        return False
    document = repository.get(run.id)
    if document is not None and document.get("delivered"):
        run.delivered = True
    return run.delivered


def _held_elsewhere(store: Store, run_id: str) -> bool:
    """Whether the database knows ``run_id`` as running under a live lease."""
    try:
        document = store.runs(None).get(run_id)
    except StoreError:
        return False
    if document is None or document["status"] != RUNNING:
        return False
    return _aware(document["lease_until"]) > datetime.now(UTC)


def ask(
    workspace: Workspace,
    question: str,
    session: AekoSession | None,
    *,
    attachment: str | None = None,
) -> Run:
    """Start a chat turn in a worker: ``chat.ask``'s turn is accepted here (so its errors
    before anything is spent, ``DailyCapReachedError`` and ``StoreError``, are raised to the
    caller), and the rest runs on its own."""
    if workspace.runs_in_worker:
        return _enqueue_ask(workspace, question, session, attachment)
    turn = chat.ask(workspace, question, session, attachment=attachment)
    started = next(turn)
    assert isinstance(started, TurnStarted)
    return runs_of(workspace).start(_chat_run(workspace, started), turn)


def _chat_run(workspace: Workspace, started: TurnStarted) -> Run:
    """The run of a turn just accepted: its conversation is what a page finds it by."""
    return Run(
        id=started.run_id,
        user_id=str(workspace.user.id),
        kind="chat",
        subject=started.session.id,
        title=started.question,
        started=started,
    )


def _enqueue_ask(
    workspace: Workspace, question: str, session: AekoSession | None, attachment: str | None
) -> Run:
    """Accept the turn here and leave it to a worker (``application.worker``); the page
    follows it through the database. With the database away no worker could see it: it runs
    here, as without workers, its writes kept by the outbox."""
    accepted = chat.accept(workspace, question, session, attachment=attachment,
                           opens_attachment=False)  # fmt: skip
    started = accepted.started
    run = _chat_run(workspace, started)
    repository = workspace.store.runs(run.user_id)
    document = {**start_document(run), "request": request_of(accepted)}
    try:
        repository.enqueue(document)
    except StoreError:
        attached, problem = chat.open_attachment(workspace, attachment)
        here = replace(accepted, attached=attached,
                       started=replace(started, attachment_problem=problem))  # fmt: skip
        run.started = here.started
        return runs_of(workspace).start(run, chat.run_accepted(workspace, here))
    queued = {**document, "id_user": workspace.user.id, "status": QUEUED, "delivered": False}
    run = remote_run(repository, queued, on_cut=lambda taken: _record_cut(workspace, taken))
    run._on_stalled = lambda stalled: _run_here(workspace, stalled["_id"])
    return run


def _run_here(workspace: Workspace, run_id: str) -> None:
    """A queued run no worker took: this process claims it, as a worker would (the lease,
    the checkpointer, the mirror), so the page that follows it gets its answer."""
    from application.worker import Worker  # LangGraph's MongoDB saver: only when needed

    journal = workspace.outbox.journal.path
    folder = journal.parent if journal is not None else Path(".")
    here = Worker(workspace.store, folder, workspace.daily_cost_cap_usd)
    if here.claim_one(run_id):
        log.info("run %s: no worker claimed it; run by the page's process", run_id)


def analyse(
    workspace: Workspace,
    name: str,
    data: bytes,
    inventory: Inventory,
    *,
    digest: str,
    previous: AekoImprovementPlan | None = None,
    factors: FactorFile | None = None,
    planning: PlanInputs | None = None,
    reopen: dict[str, Any] | None = None,
    units: dict[str, str] | None = None,
    language: str = "pt",
) -> Run:
    """Start an inventory analysis in a worker (``inventories.analyse``). ``digest`` (the
    upload's SHA-256) is what a page finds it by; ``reopen`` what it needs to show the
    inventory again after a reload, and how it was read (``AnalysisRequest.of``);
    ``units`` the units the user chose for ambiguous sheets, stored with the upload;
    ``language`` the user's (the interface's), that the plan is written in.
    ``DailyCapReachedError`` comes out of ``follow``."""
    lang = lang_of(language)
    run = Run(
        id=uuid4().hex,
        user_id=str(workspace.user.id),
        kind="inventory",
        subject=digest,
        title=name,
        reopen=dict(reopen or {}),
    )
    if workspace.runs_in_worker:
        queued = _enqueue_analysis(workspace, run, data, inventory, previous=previous,
                                   factors=factors, planning=planning, units=units,
                                   language=lang)  # fmt: skip
        if queued is not None:
            return queued
    items = inventories.analyse(
        workspace, name, data, inventory, previous=previous, factors=factors,
        planning=planning, run_id=run.id, units=units, language=lang,
    )  # fmt: skip
    return runs_of(workspace).start(run, items)


def _enqueue_analysis(
    workspace: Workspace,
    run: Run,
    data: bytes,
    inventory: Inventory,
    *,
    previous: AekoImprovementPlan | None,
    factors: FactorFile | None,
    planning: PlanInputs | None,
    units: dict[str, str] | None,
    language: Lang = "pt",
) -> RemoteRun | None:
    """Store the upload (GridFS: the worker reads it from there, no process keeps it in
    memory) and leave the analysis to a worker with how the page read it. None when the
    database is away or a measure file is too large to travel: it runs here."""
    if not run.reopen.keys() >= READING_KEYS:  # how it was read unknown: read here
        return None
    try:
        record = inventories.save_upload(
            workspace, run.title, data, inventory, factors=factors, units=units
        )
    except StoreError:
        return None
    request = AnalysisRequest.of(record.id, run.reopen, planning, previous, language)
    if request is None:
        return None
    run.reopen.pop("data", None)
    run.reopen["inventory_id"] = record.id
    repository = workspace.store.runs(run.user_id)
    document = {**start_document(run), "request": request.document()}
    try:
        repository.enqueue(document)
    except StoreError:
        return None
    queued = {**document, "id_user": workspace.user.id, "status": QUEUED, "delivered": False}
    remote = remote_run(repository, queued, on_cut=lambda taken: _record_cut(workspace, taken))
    remote._on_stalled = lambda stalled: _run_here(workspace, stalled["_id"])
    return remote


class _RunJournal:
    """A run's items on disk as they come: ``start``, ``event`` lines, ``end``. The start
    and the end are fsync'd; the events in between are flushed (a crash may lose the last
    few, never the fact that the run started)."""

    def __init__(self, folder: Path | None, run: Run) -> None:
        self.path = folder / f"{run.id}.jsonl" if folder is not None else None
        self._lock = threading.Lock()
        self._write(
            {
                "op": "start",
                "id": run.id,
                "user_id": run.user_id,
                "kind": run.kind,
                "subject": run.subject,
                "title": run.title,
                "started_at": run.started_at.isoformat(),
                "pid": os.getpid(),
            },
            sync=True,
        )

    def event(self, item: object) -> None:
        if isinstance(item, EngineEvent):
            self._write({"op": "event", "event": item.model_dump(mode="json")})

    def end(self, outcome: TurnEnded | PlanEnded | None, error: BaseException | None) -> None:
        status = outcome.status if outcome is not None else "failed"
        saved = outcome.saved if outcome is not None else False
        error_type = type(error).__name__ if error is not None else None
        record = {"op": "end", "status": status, "saved": saved, "error": error_type}
        self._write(record, sync=True)

    def _write(self, record: dict[str, Any], *, sync: bool = False) -> None:
        if self.path is None:
            return
        line = json.dumps(record, ensure_ascii=False, separators=(",", ":"), default=str)
        try:
            with self._lock, self.path.open("a", encoding="utf-8") as handle:
                handle.write(line + "\n")
                handle.flush()
                if sync:
                    os.fsync(handle.fileno())
        except OSError as error:  # a full disk must not stop a paid run
            log.warning("run journal %s: %s", self.path, error)


def _read_cut_runs(folder: Path) -> list[tuple[Run, AekoUsage]]:
    """The runs an app that stopped left without an end line, as ended ``interrupted``, with
    what their finished agents had spent; journals of runs that ended are removed (their
    results are in the database, or in the outbox journal on their way there)."""
    cut = []
    for path in sorted(folder.glob("*.jsonl")):
        try:
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
            records = [json.loads(line) for line in lines if line.strip()]
        except (OSError, ValueError):
            records = []
        if not records or records[0].get("op") != "start":
            continue
        start = records[0]
        if any(record.get("op") == "end" for record in records):
            with contextlib.suppress(OSError):
                path.unlink()
            continue
        pid = start.get("pid")
        if pid != os.getpid() and isinstance(pid, int) and process_alive(pid):
            continue  # another app process on this folder is running it
        run = Run(
            id=str(start["id"]),
            user_id=str(start["user_id"]),
            kind=start["kind"],
            subject=str(start["subject"]),
            title=str(start.get("title", "")),
            started_at=datetime.fromisoformat(start["started_at"]),
            interrupted=True,
        )
        run.finished_at = datetime.now(UTC)  # learnt now: kept as long as a finished run
        cut.append((run, _spent(records)))
    return cut


def _spent(records: list[dict[str, Any]]) -> AekoUsage:
    calls = []
    for record in records:
        event = record.get("event") if record.get("op") == "event" else None
        if isinstance(event, dict) and event.get("kind") == "agent_finished":
            with contextlib.suppress(ValidationError):
                calls.append(model_call(AgentFinished.model_validate(event)))
    return AekoUsage(calls=calls)
