"""What making a run durable costs: LangGraph's MongoDB checkpointer (application/
checkpoints.py) against no checkpointer, with the offline analyst, on the embedded store.

    .venv/bin/python -m bench.checkpoints [--turns 20] [--analyses 3] [--fill 2000]

Measures, alternating the two ways: a chat turn end to end (``list(messenger.stream(...))``,
each of QUESTIONS in turn, ``--turns`` of each way), and the sample inventory's analysis
(``--analyses`` of each way), seconds, median and min; from them the overhead per agent step
(a finished agent: one checkpoint, its pending writes), ms. The same with LangGraph's default
``durability="async"`` (the engine uses "sync": see engine/graph/durable.py). Then what a run
leaves in the database (bytes of checkpoints and writes, documents), what replaying a finished
run costs, and the resume lookup (the saver's ``get_tuple``) with ``--fill`` other runs'
checkpoints in the collection. Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from typing import Any
from uuid import uuid4

from application.checkpoints import CHECKPOINT_WRITES, CHECKPOINTS, build_saver
from assets import SAMPLE_NAME, SAMPLE_PATH
from bench.scratch import scratch_store
from engine import Aeko, AekoInventoryAnalyzer, AekoMessenger, AekoSession, AekoUser
from engine.events import AgentFinished
from engine.graph import durable
from engine.inventory import load_inventory
from engine.offline import OfflineAnalyst

QUESTIONS = ("O que é escopo 1?", "Quanto emite 10 m³ de gás natural?")
USER = AekoUser(id_external_user=1, role="Analista ESG", usecase="Frota de caldeiras")


def _seconds(timings: list[float]) -> dict[str, float]:
    return {"median_s": round(statistics.median(timings), 4), "min_s": round(min(timings), 4)}


def _timed(run: Callable[[], list[Any]]) -> tuple[float, list[Any]]:
    started = time.perf_counter()
    events = run()
    return time.perf_counter() - started, events


def _steps(events: list[Any]) -> int:
    return sum(isinstance(event, AgentFinished) for event in events)


class _SaverClock:
    """Time spent inside the saver's database methods (in LangGraph's writer thread too)."""

    METHODS = ("put", "put_writes", "get_tuple")

    def __init__(self, saver: Any) -> None:
        self.timings: dict[str, list[float]] = {}
        for name in self.METHODS:
            setattr(saver, name, self._timed(name, getattr(saver, name)))

    def _timed(self, name: str, method: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return method(*args, **kwargs)
            finally:
                self.timings.setdefault(name, []).append(time.perf_counter() - started)

        return timed

    def report(self, runs: int) -> dict[str, Any]:
        """Per method: calls per run and median ms per call (calls may overlap in time)."""
        return {
            name: {
                "per_run": round(len(times) / runs, 1),
                "median_ms": round(1000 * statistics.median(times), 2),
            }
            for name, times in sorted(self.timings.items())
        }


def _compare(run: Callable[[Any, str], list[Any]], saver: Any, repeat: int) -> dict[str, Any]:
    """``run(checkpointer, thread)`` both ways, alternating; the overhead per agent step, and
    the saver's database calls: how many, how long each."""
    plain: list[float] = []
    saved: list[float] = []
    steps: list[int] = []
    clock = saver.clock
    clock.timings = {}
    for _ in range(repeat):
        seconds, events = _timed(lambda: run(None, ""))
        plain.append(seconds)
        seconds, events = _timed(lambda: run(saver, uuid4().hex))
        saved.append(seconds)
        steps.append(_steps(events))
    step_count = statistics.median(steps)
    extra = statistics.median(saved) - statistics.median(plain)
    return {
        "without": _seconds(plain),
        "with": _seconds(saved),
        "agent_steps": step_count,
        "overhead_per_step_ms": round(1000 * extra / step_count, 2),
        "saver_calls": clock.report(repeat),
    }


def _chat(question: str) -> Callable[[Any, str], list[Any]]:
    def run(checkpointer: Any, thread: str) -> list[Any]:
        stream = AekoMessenger(USER).stream(
            question, AekoSession(), checkpointer=checkpointer, thread_id=thread or None
        )
        return list(stream)

    return run


def _analysis(inventory: Any) -> Callable[[Any, str], list[Any]]:
    def run(checkpointer: Any, thread: str) -> list[Any]:
        stream = AekoInventoryAnalyzer().stream(
            inventory, id_external_inventory=1, checkpointer=checkpointer, thread_id=thread or None
        )
        return list(stream)

    return run


def _footprint(db: Any, thread: str) -> dict[str, int]:
    checkpoints = list(db[CHECKPOINTS].find({"thread_id": thread}))
    writes = list(db[CHECKPOINT_WRITES].find({"thread_id": thread}))
    return {
        "checkpoints": len(checkpoints),
        "checkpoint_bytes": sum(len(doc["checkpoint"]) for doc in checkpoints),
        "largest_checkpoint_bytes": max(len(doc["checkpoint"]) for doc in checkpoints),
        "writes": len(writes),
        "write_bytes": sum(len(doc.get("value") or b"") for doc in writes),
    }


def _replay(run: Callable[[Any, str], list[Any]], saver: Any, repeat: int) -> dict[str, Any]:
    """A finished run streamed again on its thread: every event, no model call."""
    thread = uuid4().hex
    run(saver, thread)
    return _seconds([_timed(lambda: run(saver, thread))[0] for _ in range(repeat)])


def _lookup(saver: Any, db: Any, fill: int, repeat: int) -> dict[str, Any]:
    """The resume lookup of one run among ``fill`` others' checkpoints (copies of a real
    one under other thread ids)."""
    thread = uuid4().hex
    _chat(QUESTIONS[0])(saver, thread)
    config = {"configurable": {"thread_id": thread, "checkpoint_ns": ""}}
    before = [_timed(lambda: [saver.get_tuple(config)])[0] for _ in range(repeat)]
    template = db[CHECKPOINTS].find_one({"thread_id": thread}, {"_id": 0})
    batch = 200
    for start in range(0, fill, batch):
        copies = [{**template, "thread_id": uuid4().hex} for _ in range(min(batch, fill - start))]
        db[CHECKPOINTS].insert_many(copies)
    after = [_timed(lambda: [saver.get_tuple(config)])[0] for _ in range(repeat)]
    return {
        "documents_before": db[CHECKPOINTS].count_documents({}) - fill,
        "get_tuple_ms_before": round(1000 * statistics.median(before), 2),
        "documents_after": db[CHECKPOINTS].count_documents({}),
        "get_tuple_ms_after": round(1000 * statistics.median(after), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=20, help="chat turns per way and question")
    parser.add_argument("--analyses", type=int, default=3, help="analyses per way")
    parser.add_argument("--fill", type=int, default=2000, help="other runs' checkpoints")
    args = parser.parse_args()
    model = OfflineAnalyst()
    Aeko.config(fast_model=model, slow_model=model)
    inventory = load_inventory(SAMPLE_PATH.read_bytes(), filename=SAMPLE_NAME)
    results: dict[str, Any] = {"turns": args.turns, "analyses": args.analyses}
    with scratch_store("checkpoints") as (store, _data_dir):
        saver = build_saver(store.client, store.db.name)
        saver.clock = _SaverClock(saver)
        for question in QUESTIONS:  # warm: indexes, the knowledge base, the compiled graphs
            _chat(question)(saver, uuid4().hex)
        _analysis(inventory)(saver, uuid4().hex)
        for mode in ("sync", "async"):
            durable.DURABILITY = mode
            results[f"durability_{mode}"] = {
                "chat": {q: _compare(_chat(q), saver, args.turns) for q in QUESTIONS},
                "analysis": _compare(_analysis(inventory), saver, args.analyses),
            }
        durable.DURABILITY = "sync"
        footprint = {}
        for question in QUESTIONS:
            thread = uuid4().hex
            _chat(question)(saver, thread)
            footprint[question] = _footprint(store.db, thread)
        thread = uuid4().hex
        _analysis(inventory)(saver, thread)
        footprint["analysis"] = _footprint(store.db, thread)
        results["footprint"] = footprint
        results["replay_finished"] = {
            "chat": _replay(_chat(QUESTIONS[0]), saver, args.turns),
            "analysis": _replay(_analysis(inventory), saver, args.analyses),
        }
        results["resume_lookup"] = _lookup(saver, store.db, args.fill, 20)
    print(json.dumps(results, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
