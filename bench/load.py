"""N concurrent conversations against the engine, on a scripted model of fixed latency.

    .venv/bin/python -m bench.load [--latency-ms 50] [--turns 6]

Each conversation is a thread that sends its turns one after the other through the
specialist path (4 model calls a turn). Reports throughput and p50/p95 turn latency for
N = 1, 8, 32, how throughput scales against N = 1 (linear means no global lock), and the
memory the engine still holds once the conversations are over (an idle conversation should
hold none: the session lives with the caller). Prints JSON.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import threading
import time
import tracemalloc

from engine import Aeko, AekoMessenger, AekoSession, AekoUser
from engine.agents.catalog import GUARDRAIL, ORCHESTRATOR, POLLUTANTS_ANALYST, ROUTER
from engine.models.scripted import ScriptedChatModel

SCRIPT = {
    ROUTER: ["Next agent: Analista de Poluentes"],
    POLLUTANTS_ANALYST: ["O CO2 da caldeira domina: 1.240 t CO2e.\nNext agent: Orquestrador"],
    ORCHESTRATOR: ["O CO2 da caldeira domina: 1.240 t CO2e.\nNext agent: Guardrail de Saída"],
    GUARDRAIL: ["Aprovado."],
}


def conversations(n: int, turns: int) -> dict:
    user = AekoUser(id_external_user=1, role="Analista ESG")
    latencies: list[float] = []
    lock = threading.Lock()
    start = threading.Barrier(n + 1)

    def converse() -> None:
        session = AekoSession(name="carga")
        messenger = AekoMessenger(user)
        start.wait()
        for index in range(turns):
            began = time.perf_counter()
            response = messenger.send_message(f"Pergunta {index}?", session)
            elapsed = time.perf_counter() - began
            assert response.approved
            with lock:
                latencies.append(elapsed)

    threads = [threading.Thread(target=converse) for _ in range(n)]
    for thread in threads:
        thread.start()
    start.wait()
    began = time.perf_counter()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - began
    cuts = statistics.quantiles(latencies, n=20) if len(latencies) > 1 else latencies * 19
    return {
        "conversations": n,
        "turns": len(latencies),
        "wall_s": round(wall, 3),
        "throughput_turns_per_s": round(len(latencies) / wall, 2),
        "p50_ms": round(statistics.median(latencies) * 1000, 1),
        "p95_ms": round(cuts[18] * 1000, 1),
    }


_CONVERSATION_TYPES = (
    "AekoSession",
    "AekoMessage",
    "AekoMessageResponse",
    "SystemMessage",
    "HumanMessage",
    "AIMessage",
    "BudgetTracker",
)


def idle_memory(n: int, turns: int) -> dict:
    """What the engine still holds once n conversations ended and their sessions were dropped:
    live conversation objects (should be none) and the process's memory growth."""
    conversations(2, 1)  # build the graph and warm the caches first
    gc.collect()
    alive_before = [type(o).__name__ for o in gc.get_objects()]
    tracemalloc.start(25)
    before = tracemalloc.take_snapshot()
    conversations(n, turns)
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    alive = [type(o).__name__ for o in gc.get_objects()]
    diffs = [stat for stat in after.compare_to(before, "traceback") if stat.size_diff > 0]
    return {
        "conversations": n,
        "conversation_objects_left_behind": {
            name: alive.count(name) - alive_before.count(name) for name in _CONVERSATION_TYPES
        },
        "process_growth_bytes": sum(stat.size_diff for stat in diffs),
        "largest_growth": [
            f"{stat.traceback[-1].filename.rsplit('/', 2)[-1]}:{stat.traceback[-1].lineno} "
            f"{stat.size_diff} B"
            for stat in diffs[:3]
        ],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--latency-ms", type=float, default=50.0)
    parser.add_argument("--turns", type=int, default=6)
    args = parser.parse_args()
    model = ScriptedChatModel(
        model_name="scripted", script=SCRIPT, latency_s=args.latency_ms / 1000, record=False
    )
    Aeko.config(fast_model=model, slow_model=model)
    conversations(1, 1)  # warm-up: the graph is built once per process
    runs = [conversations(n, args.turns) for n in (1, 8, 32)]
    base = runs[0]["throughput_turns_per_s"]
    for run in runs:
        run["speedup_vs_1"] = round(run["throughput_turns_per_s"] / base, 2)
    result = {
        "model_latency_ms": args.latency_ms,
        "model_calls_per_turn": 4,
        "runs": runs,
        "idle_memory": idle_memory(32, 2),
    }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
