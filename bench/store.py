"""Store latency on the embedded server (or MONGODB_URI when set).

    .venv/bin/python -m bench.store [--repeat 200]

Median milliseconds to append a turn to a session already holding 1,000 turns, to list a
user's 50 newest sessions among 10,000, and to load a session with 1,000 turns. Prints JSON.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import tempfile
import time
from pathlib import Path
from uuid import uuid4

from bson import ObjectId

from engine import AekoMessage
from store import StoreConfig, connect
from store.client import Store
from store.indexes import ensure_indexes

ANSWER = "O diesel da frota responde por 38% do escopo 1 (1.240 t CO2e, AR5). " * 8


def _median_ms(samples: list[float]) -> float:
    return round(statistics.median(samples) * 1000, 3)


def run(store: Store, repeat: int) -> dict:
    user = store.users.get_or_create(1)
    sessions = store.sessions(user.id)
    long_session = sessions.create("1.000 turnos")
    turns = [AekoMessage(input=f"Pergunta {i}?", output=ANSWER).model_dump() for i in range(1000)]
    store.db.session.update_one(
        {"_id": ObjectId(long_session.id)},
        {"$push": {"messages": {"$each": turns}}},
    )
    other_users = [store.users.get_or_create(100 + i).id for i in range(9)]
    batch = []
    for index in range(10_000):
        owner = user.id if index % 10 == 0 else other_users[index % 9]
        stamp = datetime.datetime.now(datetime.UTC)
        batch.append({"id_user": ObjectId(owner), "name": f"S{index}", "messages": [],
                      "updated_at": stamp})  # fmt: skip
    store.db.session.insert_many(batch)

    append, listing, loading = [], [], []
    for index in range(repeat):
        message = AekoMessage(input="Nova pergunta?", output=ANSWER)
        started = time.perf_counter()
        sessions.complete_turn(long_session.id, f"bench-{index}", message)
        append.append(time.perf_counter() - started)
    for _ in range(repeat):
        started = time.perf_counter()
        listed = sessions.list(limit=50)
        listing.append(time.perf_counter() - started)
    assert len(listed) == 50
    for _ in range(max(20, repeat // 4)):
        started = time.perf_counter()
        loaded = sessions.get(long_session.id)
        loading.append(time.perf_counter() - started)
    assert len(loaded.messages) >= 1000
    return {
        "append_turn_to_1000_turn_session_ms": _median_ms(append),
        "list_50_newest_of_10000_sessions_ms": _median_ms(listing),
        "load_session_with_1000_turns_ms": _median_ms(loading),
        "repeat": repeat,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        config = StoreConfig(uri=os.environ.get("MONGODB_URI") or None, data_dir=Path(folder))
        store = connect(config, timeout_ms=20_000)
        name = f"aeko_bench_{uuid4().hex[:8]}"
        bench_store = Store(store.client, store.client[name], store.target)
        ensure_indexes(bench_store.db)
        try:
            result = run(bench_store, args.repeat)
            result["server"] = "MONGODB_URI" if config.uri else "embedded SecantusDB"
        finally:
            store.client.drop_database(name)
            store.close()
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
