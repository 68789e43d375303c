"""Runs shared through the database (issue #24): runs per second, and how long an event takes
from the worker that runs it to the page that follows it, at 1, 8 and 32 concurrent runs.

    .venv/bin/python -m bench.runs_shared [--levels 1,8,32] [--repeat 2] [--workers 2]
                                          [--concurrent 16] [--processes] [--followers stream]
                                          [--pace 0]

On the embedded store (or the database ``MONGODB_URI`` names), with the offline analyst, so
what is measured is the bookkeeping, not a model: a page workspace in worker mode
(``Workspace(..., runs_in_worker=True)``) enqueues N chat turns one after the other
(``runs.ask``, each in a new conversation), ``--workers`` workers (``Worker(...,
concurrent=16)``, threads of this process; with ``--processes``, processes of their own
joining the same server, as ``python worker.py`` does) claim and run them, and N followers
(one thread each, ``RemoteRun.follow``, what a page of another process does) read them.
``--followers poll`` makes them read every 0.5 s instead of waiting on a change stream (as on
a standalone mongod); ``--followers none`` only waits for each run's end (``RemoteRun.wait``:
its document read every 0.5 s), reading no events: what the event followers cost the server.

Per level and repeat:
- ``wall_s`` from the first enqueue to the last outcome a follower received; ``runs_per_s``;
- ``claim_ms``: a run's enqueue (``RunRepository.enqueue`` returned) to a worker's claim
  (``RunRepository.claim`` returned it);
- ``event_ms``: each event, from the worker handing it to its mirror (``Mirror.event``) to
  its follower receiving it; split into ``handed_to_stored_ms`` (the mirror's queue and its
  insert into ``run_events``) and ``stored_to_followed_ms`` (the change stream waking the
  follower, which reads the run and its new events again);
- ``run_ms``: enqueue to the outcome at the follower; ``ask_ms``: what ``runs.ask`` takes on
  the page (the turn accepted, the run enqueued);
- what went wrong, counted, not hidden: ``follower_read_failures`` (a follower's read timed
  out; it follows again, as the page's next rerun would), ``claimed_twice_or_more`` (a run
  whose lease lapsed and another worker ran again), ``ran_in_the_page`` (the enqueue
  failed, so the page ran the turn itself), and how the runs ended.
The follower's k-th event is the run's seq k (events come in seq order, from 0). Times are
``time.perf_counter()``, which on Linux is CLOCK_MONOTONIC, the same clock in every process
of the machine, so the worker processes' stamps compare with this one's. One untimed run
first builds the engine's agents and the checkpointer. Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from application import runs
from application.chat import TurnEnded
from application.outbox import Outbox, journal_for
from application.shared_runs import Mirror
from application.worker import Worker
from application.workspace import Workspace
from bench.scratch import scratch_store
from engine import Aeko, EngineEvent
from engine.offline import OfflineAnalyst
from store import StoreConfig, StoreError, connect
from store.repositories.runs import RunRepository

QUESTIONS = ("O que é escopo 1?", "Quanto emite 10 m³ de gás natural?")
FOLLOW_LIMIT_S = 600.0  # a bound for a stuck run, so the benchmark ends and says so

# Stamps of this process: (run id, seq) or run id -> perf_counter().
HANDED: dict[tuple[str, int], float] = {}
STORED: dict[tuple[str, int], float] = {}
CLAIMED: dict[str, float] = {}
ENQUEUED: dict[str, float] = {}


def instrument() -> None:
    """Stamp the hand-over to the mirror, the stored event, the claim and the enqueue."""
    event, add_events = Mirror.event, RunRepository.add_events
    claim, enqueue = RunRepository.claim, RunRepository.enqueue

    def stamped_event(self: Mirror, item: EngineEvent) -> None:
        HANDED[(self._run_id, self._seq)] = time.perf_counter()
        event(self, item)

    def stamped_add_events(self: RunRepository, run_id: str, items: list) -> None:
        add_events(self, run_id, items)  # the mirror's batch: one round trip for all
        stored = time.perf_counter()
        for seq, _ in items:
            STORED[(run_id, seq)] = stored

    def stamped_claim(
        self: RunRepository, holder: str, run_id: str | None = None
    ) -> dict[str, Any] | None:
        document = claim(self, holder, run_id)
        if document is not None:  # the first claim: a run taken over is claimed again
            CLAIMED.setdefault(document["_id"], time.perf_counter())
        return document

    def stamped_enqueue(self: RunRepository, document: dict[str, Any]) -> None:
        enqueue(self, document)
        ENQUEUED[document["_id"]] = time.perf_counter()

    Mirror.event = stamped_event  # type: ignore[method-assign]
    RunRepository.add_events = stamped_add_events  # type: ignore[method-assign]
    RunRepository.claim = stamped_claim  # type: ignore[method-assign]
    RunRepository.enqueue = stamped_enqueue  # type: ignore[method-assign]


def _ms(values: Iterable[float]) -> dict[str, float | int]:
    ordered = sorted(v * 1000 for v in values)
    if not ordered:
        return {"n": 0}
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {
        "n": len(ordered),
        "median": round(statistics.median(ordered), 2),
        "p95": round(p95, 2),
        "max": round(ordered[-1], 2),
    }


class Workers:
    """``count`` workers claiming from the store: threads here, or processes of their own."""

    def __init__(
        self, store: Any, folder: Path, count: int, *, concurrent: int, processes: bool,
        pace_s: float,
    ) -> None:  # fmt: skip
        self.stamp_files: list[Path] = []
        self._threads: list[threading.Thread] = []
        self._workers: list[Worker] = []
        self._processes: list[subprocess.Popen] = []
        for n in range(count):
            home = folder / f"worker-{n}"
            home.mkdir(parents=True, exist_ok=True)
            if processes:
                stamps = home / "stamps.json"
                self.stamp_files.append(stamps)
                env = {**os.environ, "MONGODB_URI": _uri(store), "MONGODB_DB": store.db.name}
                command = [sys.executable, "-m", "bench.runs_shared", "--as-worker", str(home),
                           "--concurrent", str(concurrent), "--pace", str(pace_s)]  # fmt: skip
                self._processes.append(subprocess.Popen(command, env=env))
            else:
                worker = Worker(store, home, concurrent=concurrent)
                thread = threading.Thread(target=worker.run_forever, name=f"bench-worker-{n}")
                thread.start()
                self._workers.append(worker)
                self._threads.append(thread)

    def stop(self) -> None:
        for worker in self._workers:
            worker.stop()
        for thread in self._threads:
            thread.join()
        for process in self._processes:
            process.send_signal(signal.SIGTERM)
        for process in self._processes:
            process.wait(timeout=120)
        for stamps in self.stamp_files:
            saved = json.loads(stamps.read_text())
            HANDED.update({(r, s): t for r, s, t in saved["handed"]})
            STORED.update({(r, s): t for r, s, t in saved["stored"]})
            CLAIMED.update(saved["claimed"])


def _uri(store: Any) -> str:
    return os.environ.get("MONGODB_URI") or store.server.uri


def as_worker(home: Path, concurrent: int, pace_s: float) -> None:
    """A worker process (what ``python worker.py`` runs), stamping as this process does;
    its stamps go to ``home/stamps.json`` when SIGTERM stopped it."""
    analyst = OfflineAnalyst(pace_s=pace_s)
    Aeko.config(fast_model=analyst, slow_model=analyst)
    instrument()
    store = connect(StoreConfig(uri=os.environ["MONGODB_URI"], db=os.environ["MONGODB_DB"]),
                    timeout_ms=30_000)  # fmt: skip
    worker = Worker(store, home, concurrent=concurrent)
    signal.signal(signal.SIGTERM, lambda *_: worker.stop())
    worker.run_forever()
    saved = {
        "handed": [[r, s, t] for (r, s), t in HANDED.items()],
        "stored": [[r, s, t] for (r, s), t in STORED.items()],
        "claimed": CLAIMED,
    }
    (home / "stamps.json").write_text(json.dumps(saved))
    store.client.close()


def one_level(page: Workspace, store: Any, count: int, *, follow_events: bool = True) -> dict:
    """``count`` turns enqueued one after the other, each followed by a thread of its own."""
    received: dict[tuple[str, int], float] = {}
    ended: dict[str, float] = {}
    statuses: list[str] = []
    failures: list[str] = []  # a follower's read that failed (the database timed out)
    asked: list[float] = []
    run_ids: list[str] = []

    def follow(run: runs.Run) -> None:
        deadline = time.monotonic() + FOLLOW_LIMIT_S
        while run.id not in ended and time.monotonic() < deadline:
            seq = 0
            try:
                for item in run.follow():
                    at = time.perf_counter()
                    if isinstance(item, EngineEvent):
                        # Followed again after a failure: the first receipt is the one.
                        received.setdefault((run.id, seq), at)
                        seq += 1
                    elif isinstance(item, TurnEnded):
                        ended[run.id] = at
                        statuses.append(item.status)
            except StoreError as error:
                # What a page does too: its next rerun follows the run again.
                failures.append(type(error).__name__)
            except Exception as error:  # the run itself failed (one the page ran): counted
                failures.append(type(error).__name__)
                return

    def wait(run: runs.Run) -> None:
        """No page follows: the run's document is read every 0.5 s until it ended."""
        if run.wait(FOLLOW_LIMIT_S):
            ended[run.id] = time.perf_counter()
            statuses.append("ended")

    followers = []
    first = time.perf_counter()
    for n in range(count):
        before = time.perf_counter()
        run = runs.ask(page, QUESTIONS[n % len(QUESTIONS)], None)
        asked.append(time.perf_counter() - before)
        run_ids.append(run.id)
        follower = threading.Thread(target=follow if follow_events else wait, args=(run,),
                                    daemon=True)  # fmt: skip
        follower.start()
        followers.append(follower)
    for follower in followers:
        follower.join(FOLLOW_LIMIT_S)
    if not ended:
        raise SystemExit(f"none of {count} runs ended")
    wall = max(ended.values()) - first
    documents = [store.runs(None).get(run_id) or {} for run_id in run_ids]
    return {
        "runs": count,
        "ended": {status: statuses.count(status) for status in sorted(set(statuses))},
        "not_followed_to_the_end": count - len(ended),
        "follower_read_failures": len(failures),
        # Enqueued but claimed more than once: its lease lapsed (the mirror could not renew
        # it or write its end in time) and another worker ran it again.
        "claimed_twice_or_more": sum(1 for d in documents if (d.get("attempts") or 0) > 1),
        # The enqueue failed (the database timed out): the page ran the turn itself.
        "ran_in_the_page": sum(1 for r in run_ids if r not in ENQUEUED),
        "wall_s": round(wall, 3),
        "runs_per_s": round(count / wall, 2),
        "_received": received,
        "_ended": ended,
        "_run_ids": run_ids,
        "ask_ms": _ms(asked),
    }


def finish(level: dict[str, Any]) -> dict[str, Any]:
    """A level's latencies, once every stamp (the worker processes' too) is in."""
    received, ended, run_ids = level.pop("_received"), level.pop("_ended"), level.pop("_run_ids")
    missing = [key for key in received if key not in HANDED]
    ids = set(run_ids)
    return {
        **level,
        "claim_ms": _ms(
            CLAIMED[r] - ENQUEUED[r] for r in run_ids if r in CLAIMED and r in ENQUEUED
        ),
        "run_ms": _ms(ended[r] - ENQUEUED[r] for r in run_ids if r in ended and r in ENQUEUED),
        "event_ms": _ms(at - HANDED[key] for key, at in received.items() if key in HANDED),
        # Every event the workers handed over, followed or not.
        "handed_to_stored_ms": _ms(
            STORED[(r, s)] - at for (r, s), at in HANDED.items() if r in ids and (r, s) in STORED
        ),
        "stored_to_followed_ms": _ms(
            at - STORED[key] for key, at in received.items() if key in STORED
        ),
        "events_per_run": round(len(received) / len(run_ids), 1),
        "events_unmatched": len(missing),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--levels", default="1,8,32", help="concurrent runs, comma-separated")
    parser.add_argument("--repeat", type=int, default=2, help="times each level is run")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--concurrent", type=int, default=16, help="runs per worker at once")
    parser.add_argument("--processes", action="store_true", help="workers as processes")
    parser.add_argument("--pace", type=float, default=0.0, help="seconds per offline reply")
    parser.add_argument(
        "--followers",
        choices=("stream", "poll", "none"),
        default="stream",
        help="how pages follow: change stream (as deployed), reading every 0.5 s, or not at all",
    )
    parser.add_argument("--as-worker", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.as_worker is not None:
        as_worker(args.as_worker, args.concurrent, args.pace)
        return

    analyst = OfflineAnalyst(pace_s=args.pace)
    Aeko.config(fast_model=analyst, slow_model=analyst)
    instrument()
    if args.followers == "poll":  # as on a server without change streams (standalone mongod)
        RunRepository.watch = lambda self, run_id: None  # type: ignore[method-assign]
    levels = [int(level) for level in args.levels.split(",")]
    with scratch_store("runs_shared") as (store, data_dir):
        user = store.users.get_or_create(2424, role="Analista ESG")
        page_folder = data_dir / "page"
        page_folder.mkdir()
        page = Workspace(store, user, Outbox(journal_for(page_folder)), runs_in_worker=True)
        workers = Workers(store, Path(tempfile.mkdtemp(dir=data_dir)), args.workers,
                          concurrent=args.concurrent, processes=args.processes,
                          pace_s=args.pace)  # fmt: skip
        try:
            one_level(page, store, 1)  # warm-up, untimed: agents, checkpointer indexes, connections
            measured = [
                one_level(page, store, count, follow_events=args.followers != "none")
                for count in levels
                for _ in range(args.repeat)
            ]
        finally:
            workers.stop()
        results: dict[str, Any] = {
            "workers": args.workers,
            "worker_processes": args.processes,
            "concurrent_per_worker": args.concurrent,
            "offline_pace_s": args.pace,
            "followers": args.followers,
            "cpus": os.cpu_count(),
            "store": "embedded" if store.target.embedded else "MONGODB_URI",
            "levels": [finish(level) for level in measured],
        }
        print(json.dumps(results, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
