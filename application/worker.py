"""Runs apart from pages (issue #24, point 5): a worker process claims queued runs by lease.

A page process in worker mode (``AEKO_RUNS=worker``) accepts a chat turn (today's allowance
reserved, the question pending in its conversation) and enqueues it in ``runs`` with what a
worker needs to run it (``request``); any page, in any process, follows it through the
database (``application.shared_runs``). A worker (``python worker.py``, started beside the
app by ``./dev.sh app``, its own process in deployment) claims the oldest queued run in one
conditional update, runs it under a lease its mirror renews, and writes its events and
outcome as the page's own runs do.

The turn runs on LangGraph's checkpointer (``application.checkpoints``): a worker that dies
mid-run leaves a lease that lapses; the first process to notice puts the run back in the
queue (``RunRepository.take_expired``) and the next worker resumes it from its last finished
agent instead of paying for those again. A run tried ``MAX_ATTEMPTS`` times is reported cut.
Shutdown (SIGTERM, ``stop``) is graceful: no new claims; runs still going after the grace
period are handed back to the queue, to be resumed by another worker.

Analyses are enqueued the same way: the page stores the upload in GridFS first and the run
document carries how the page read it (``application.analysis_request``: sheets, GWP set,
methane origin, column overrides, units, rows added from the calculator, the target, the
measure files, the plan it builds on); the worker reads the upload again from the database,
so no process keeps it in memory while the analysis runs.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from application import chat, inventories
from application.analysis_request import AnalysisRequest, prepare
from application.chat import Accepted, TurnEnded, TurnStarted
from application.checkpoints import forget, saver_for
from application.inventories import PlanEnded
from application.outbox import Outbox, journal_for
from application.shared_runs import Mirror, new_holder
from application.workspace import Workspace
from engine import AekoSession, EngineEvent, RunBudget
from engine.errors import LocalizedError
from store import Store, StoreError

if TYPE_CHECKING:
    from collections.abc import Iterator

    from langgraph.checkpoint.base import BaseCheckpointSaver

log = logging.getLogger(__name__)

POLL_S = 0.5  # how often an idle worker looks for a queued run (a claim is one query)
GRACE_S = 20.0  # how long a stopping worker lets its runs finish before handing them back
CONCURRENT_RUNS = 4  # runs one worker process drives at once (they mostly wait on models)
HOUSEKEEPING_S = 60.0  # how often a worker replays its spill and settles stale reservations
# A reservation whose usage was written this long ago and never settled lost its owner.
STALE_RESERVATION = timedelta(minutes=5)


def accepted_from(workspace: Workspace, run_id: str, request: dict[str, Any]) -> Accepted:
    """The turn as the page accepted it, its attachment opened here."""
    session = AekoSession.model_validate(request["session"])
    attached, problem = chat.open_attachment(workspace, request.get("attachment"))
    started = TurnStarted(
        session,
        run_id,
        request["question"],
        attached=attached.record.filename if attached else None,
        attachment_problem=problem,
    )
    budget = RunBudget(**request["budget"]) if request.get("budget") else None
    return Accepted(started, budget, attached, request.get("attachment"))


@dataclass
class Worker:
    """Claims and runs queued runs until stopped. ``folder``: its data folder (the outbox
    journal, the spill for a database that is away)."""

    store: Store
    folder: Path
    daily_cost_cap_usd: float | None = None
    concurrent: int = CONCURRENT_RUNS
    grace_s: float = GRACE_S
    # Who holds the runs it claims: this worker, not its process (tests run two in one).
    holder: str = field(default_factory=new_holder)
    _stopping: threading.Event = field(default_factory=threading.Event, repr=False)
    _running: dict[str, threading.Thread] = field(default_factory=dict, repr=False)
    _handed: set[str] = field(default_factory=set, repr=False)  # given back: stop them
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def run_forever(self) -> None:
        log.info("worker %s: claiming runs", self.holder)
        swept = 0.0
        while not self._stopping.is_set():
            if time.monotonic() - swept >= HOUSEKEEPING_S:
                swept = time.monotonic()
                self.housekeeping()
            if not self.claim_one():
                self._stopping.wait(POLL_S)
        self._finish()

    def housekeeping(self) -> None:
        """What no page does on its own: writes this worker kept while the database was away
        go in (a page's outbox replays at its next write; a worker may have none for a
        while), and reservations of runs whose owner died after writing their usage are
        settled at what they cost (``SpendingRepository.settle_stale``)."""
        try:
            Outbox(journal_for(self.folder)).flush(self.store)
            self.store.spending(None).settle_stale(STALE_RESERVATION)
        except StoreError as error:
            log.warning("worker housekeeping: %s", error)

    def claim_one(self, run_id: str | None = None) -> bool:
        """Claim a queued run (the oldest, or ``run_id``) and start it in a thread; False
        when none waited (or this worker is full, or the database is away)."""
        with self._lock:
            self._running = {k: t for k, t in self._running.items() if t.is_alive()}
            if len(self._running) >= self.concurrent:
                return False
        repository = self.store.runs(None)
        try:
            repository.take_expired()  # a dead worker's runs back in the queue, first
            document = repository.claim(self.holder, run_id)
        except StoreError:
            return False
        if document is None:
            return False
        # A daemon: a run still going when the process exits was handed back (``_finish``).
        thread = threading.Thread(
            target=self._run, args=(document,), name=f"aeko-worker-{document['_id'][:8]}",
            daemon=True,
        )  # fmt: skip
        with self._lock:
            self._running[document["_id"]] = thread
        thread.start()
        return True

    def stop(self) -> None:
        self._stopping.set()

    def wait_idle(self, timeout_s: float | None = None) -> None:
        """Block until the runs started so far ended (tests, benchmarks)."""
        with self._lock:
            threads = list(self._running.values())
        for thread in threads:
            thread.join(timeout_s)

    def _finish(self) -> None:
        with self._lock:
            threads = dict(self._running)
        for thread in threads.values():
            thread.join(self.grace_s / max(1, len(threads)))
        for run_id, thread in threads.items():
            if thread.is_alive():
                self._handed.add(run_id)
                handed = _quiet(self.store.runs(None).hand_back, run_id, self.holder)
                log.info("worker %s: run %s handed back: %s", self.holder, run_id, handed)

    def _run(self, document: dict[str, Any]) -> None:
        run_id = document["_id"]
        repository = self.store.runs(str(document["id_user"]))
        try:
            user = self.store.users.get(str(document["id_user"]))
        except StoreError as error:
            log.warning("worker: run %s: its user could not be read: %s", run_id, error)
            return  # its lease lapses and the run goes back to the queue
        workspace = Workspace(
            self.store, user, Outbox(journal_for(self.folder)), self.daily_cost_cap_usd
        )
        mirror = Mirror(repository, run_id, holder=self.holder)
        outcome: TurnEnded | PlanEnded | None = None
        error: BaseException | None = None
        try:
            saver = saver_for(self.store)
            for item in _items(workspace, document, saver):
                if isinstance(item, TurnEnded | PlanEnded):
                    outcome = item
                elif isinstance(item, EngineEvent):
                    mirror.event(item)
                if mirror.lost.is_set() or run_id in self._handed:  # not ours any more
                    break
        except LocalizedError as failure:
            error = failure
        except Exception as failure:
            log.exception("worker: run %s failed", run_id)
            error = failure
        if outcome is None and error is None:
            return  # stopped or lost: handed back, or another worker has it
        mirror.end(outcome, error)
        mirror.join()
        if outcome is not None:
            _quiet(forget, saver_for(self.store), run_id)


def _items(
    workspace: Workspace, document: dict[str, Any], saver: BaseCheckpointSaver
) -> Iterator[object]:
    """The run's engine events and outcome: a chat turn as the page accepted it, or an
    analysis of the stored upload read as the page read it."""
    run_id, request = document["_id"], document["request"]
    if document["kind"] == "chat":
        accepted = accepted_from(workspace, run_id, request)
        return chat.run_accepted(workspace, accepted, checkpointer=saver)
    analysis = AnalysisRequest.from_document(request)
    prepared = prepare(workspace, analysis)
    return inventories.analyse(
        workspace, analysis.name, prepared.data, prepared.inventory,
        previous=prepared.previous, factors=prepared.factors, planning=prepared.planning,
        run_id=run_id, units=analysis.units, record=prepared.record, checkpointer=saver,
        language=analysis.language,
    )  # fmt: skip


def _quiet(call: Any, *args: Any) -> Any:
    try:
        return call(*args)
    except Exception as error:  # shutting down, or the database away: the lease decides
        log.warning("worker: %s", error)
        return None
