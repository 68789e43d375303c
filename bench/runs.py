"""What running a chat turn or an analysis in a worker thread costs (``application/runs.py``)
against running it on the caller's thread, with the offline analyst.

    .venv/bin/python -m bench.runs [--repeat 10] [--analyses 3] [--pace 0]

On the embedded store, with an outbox journal in a temp folder (so each run's event journal,
``<data>/runs/<id>.jsonl``, is written too). Measures, for each question: a chat turn end to
end, ``list(chat.ask(...))`` against ``list(runs.ask(...).follow())`` (median and min of
``--repeat``, seconds, the two ways alternating); the follower's delay, from when the use case
yielded an item to the worker to when ``follow`` gave it to its reader (median and p95, ms);
the sample inventory's analysis, ``list(inventories.analyse(...))`` against
``runs.analyse(...)`` followed (``--analyses`` repeats); and the size of the event journal of
a chat turn (one of each question) and of an analysis. ``--pace`` makes each offline reply
wait that many seconds, like a provider's latency. Prints one JSON object.

The worker's item counts are one less for a chat turn: ``runs.ask`` takes its ``TurnStarted``
on the caller's thread, and ``follow`` does not repeat it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from application import chat, inventories, runs
from application.chat import TurnEnded, TurnStarted
from application.inventories import PlanEnded
from application.outbox import Outbox, journal_for
from application.planning import default_target, plan_inputs
from application.runs import RUNS_FOLDER, Run
from application.workspace import Workspace
from assets import SAMPLE_COSTS_PATH, SAMPLE_NAME, SAMPLE_PATH
from bench.scratch import scratch_store
from engine import Aeko
from engine.gases.gwp import DEFAULT_CH4_ORIGIN
from engine.inventory import DEFAULT_GWP_SET
from engine.offline import OfflineAnalyst

QUESTIONS = ("O que é escopo 1?", "Quanto emite 10 m³ de gás natural?")


def _seconds(timings: list[float]) -> dict[str, float]:
    return {"median_s": round(statistics.median(timings), 4), "min_s": round(min(timings), 4)}


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def _ended(items: list[object], kind: type) -> int:
    """How many items the run gave, once it is sure it ended well."""
    if not items or not isinstance(items[-1], kind):
        raise SystemExit(f"the run did not end: {items[-1:]!r}")
    status = items[-1].status
    if status not in ("answered", "planned"):
        raise SystemExit(f"the run ended {status}: {items[-1]!r}")
    return len(items)


def _compare(direct: Callable[[], int], worker: Callable[[], int], repeat: int) -> dict:
    """Time both ways, alternating (so a noisy moment of the machine hits both)."""
    counts = {"direct": direct(), "worker": worker()}  # warm-up, untimed
    timings: dict[str, list[float]] = {"direct": [], "worker": []}
    for _ in range(repeat):
        for way, action in (("direct", direct), ("worker", worker)):
            started = time.perf_counter()
            action()
            timings[way].append(time.perf_counter() - started)
    result: dict[str, object] = {way: _seconds(t) for way, t in timings.items()}
    overhead = statistics.median(timings["worker"]) - statistics.median(timings["direct"])
    result["worker_minus_direct_median_ms"] = round(overhead * 1000, 2)
    result["items"] = counts
    return result


def _journal(path: Path) -> dict[str, int]:
    data = path.read_bytes()
    return {"bytes": len(data), "lines": data.count(b"\n")}


def _stamped(items: Iterator[object], produced: dict[int, float]) -> Iterator[object]:
    """The use case's items, each stamped as it is handed to the worker (which appends it to
    the run at once)."""
    for item in items:
        produced[id(item)] = time.perf_counter()
        yield item


def chat_turns(workspace: Workspace, repeat: int) -> dict[str, object]:
    """Each turn in a new conversation: the same work either way."""
    return {
        question: _compare(
            lambda q=question: _ended(list(chat.ask(workspace, q, None)), TurnEnded),
            lambda q=question: _ended(list(runs.ask(workspace, q, None).follow()), TurnEnded),
            repeat,
        )
        for question in QUESTIONS
    }


def follower_delay(workspace: Workspace, repeat: int) -> tuple[dict[str, object], dict]:
    """From the use case yielding an item to ``follow`` yielding it here, over ``repeat``
    turns; each started as ``runs.ask`` starts it, its stream wrapped. And the first run of
    each question."""
    delays_ms: list[float] = []
    first: dict[str, Run] = {}
    for n in range(repeat):
        question = QUESTIONS[n % len(QUESTIONS)]
        turn = chat.ask(workspace, question, None)
        started = next(turn)
        assert isinstance(started, TurnStarted)
        run = Run(
            id=started.run_id, user_id=str(workspace.user.id), kind="chat",
            subject=started.session.id, title=question, started=started,
        )  # fmt: skip
        produced: dict[int, float] = {}
        runs.runs_of(workspace).start(run, _stamped(turn, produced))
        for item in run.follow():
            received = time.perf_counter()
            if id(item) in produced and not isinstance(item, TurnEnded):
                delays_ms.append((received - produced[id(item)]) * 1000)
        first.setdefault(question, run)
        _ended(list(run.follow()), TurnEnded)
    delays = {
        "items": len(delays_ms),
        "median": round(statistics.median(delays_ms), 3),
        "p95": round(_p95(delays_ms), 3),
        "max": round(max(delays_ms), 3),
    }
    return delays, first


def analyses(workspace: Workspace, repeat: int) -> tuple[dict[str, object], Run]:
    """The sample inventory's analysis, with a target and the sample's cost quotes; and the
    last run in a worker."""
    data = SAMPLE_PATH.read_bytes()
    inventory = inventories.load(
        SAMPLE_NAME, data, gwp_set=DEFAULT_GWP_SET, ch4_origin=DEFAULT_CH4_ORIGIN
    )
    costs = (SAMPLE_COSTS_PATH.name, SAMPLE_COSTS_PATH.read_bytes())
    planning = plan_inputs(inventory, default_target(inventory), costs=costs)
    digest = hashlib.sha256(data).hexdigest()
    last: list[Run] = []

    def directly() -> int:
        items = inventories.analyse(workspace, SAMPLE_NAME, data, inventory, planning=planning)
        return _ended(list(items), PlanEnded)

    def in_worker() -> int:
        run = runs.analyse(
            workspace, SAMPLE_NAME, data, inventory, digest=digest, planning=planning
        )
        last[:] = [run]
        return _ended(list(run.follow()), PlanEnded)

    return _compare(directly, in_worker, repeat), last[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=10, help="chat turns per way")
    parser.add_argument("--analyses", type=int, default=3, help="analyses per way")
    parser.add_argument("--pace", type=float, default=0.0, help="seconds per offline reply")
    args = parser.parse_args()

    analyst = OfflineAnalyst(pace_s=args.pace)
    Aeko.config(fast_model=analyst, slow_model=analyst)
    with scratch_store("runs") as (store, data_dir):
        user = store.users.get_or_create(7171, role="Analista ESG")
        workspace = Workspace(store, user, Outbox(journal_for(data_dir)))
        journals = data_dir / RUNS_FOLDER
        results: dict[str, object] = {
            "repeat": args.repeat,
            "analyses": args.analyses,
            "offline_pace_s": args.pace,
            "cpus": os.cpu_count(),
            "chat_turn": chat_turns(workspace, args.repeat),
        }
        results["follower_delay_ms"], turns = follower_delay(workspace, args.repeat)
        results["analysis"], analysis = analyses(workspace, args.analyses)
        # Still there: a run's journal goes when a later ``Runs`` starts, or it is forgotten.
        results["run_journal"] = {
            **{f"chat_turn: {q}": _journal(journals / f"{r.id}.jsonl") for q, r in turns.items()},
            "analysis": _journal(journals / f"{analysis.id}.jsonl"),
        }
        print(json.dumps(results, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
