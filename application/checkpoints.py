"""LangGraph checkpoints on MongoDB (issue #24, point 2): a cut run resumes from its last
finished agent instead of being paid again.

The engine takes any LangGraph ``BaseCheckpointSaver`` and a thread id per run
(``AekoMessenger.stream(..., checkpointer=, thread_id=)``, the same on
``AekoInventoryAnalyzer``; engine.graph.durable); this module builds the one the app uses:
``langgraph-checkpoint-mongodb``'s ``MongoDBSaver`` on the store's client, in the app's
database, collections ``run_checkpoints`` (one document per superstep: the whole run
state) and ``run_checkpoint_writes`` (each finished node's writes, which is what lets one of
two parallel analysts survive the other's failure). The thread id is the run id.

Policy:
- A run's checkpoints are only worth keeping until its outcome is recorded: the caller drops
  them then (``forget``), and a TTL index on ``created_at`` (``CHECKPOINT_TTL``, 24 h)
  removes those of runs nobody came back for. A run older than that is not resumed: it starts
  over.
- Deserialisation is restricted to the engine's own state types
  (``engine.graph.durable.saved_types()``, plus LangGraph's safe built-ins): a document
  written into these collections by anyone else restores nothing else.
- The saver holds the client it was built with: after ``Store.supervise`` replaced the client
  (the embedded server came back on another port), build a new one; ``saver_for`` does.

It works on the embedded SecantusDB server: no command the saver sends is missing (upserts,
unordered bulk writes, the unique compound indexes, the TTL index, which the server applies
within a minute), and the whole run state, the engine's pydantic events and ``PlanActions``
included, round-trips. Measured with ``.venv/bin/python -m bench.checkpoints`` (offline
analyst, so no model latency; 2026-12-02, shared 2-core machine, three runs; the details in
docs/performance.md, "Issue #24: LangGraph checkpoints on MongoDB"):
- per agent step, 18-90 ms more (medians 27-58 ms on chat turns): a chat turn of 26-112 ms
  without takes 80-466 ms with. Almost all of it is ``put_writes``, 33-95 ms per finished
  agent: one upsert per state channel it wrote (6-8), 2-10 ms each on this server, flat in
  the collection's size; ``put`` is 3-6 ms per superstep, ``get_tuple`` 1-1.5 ms.
- LangGraph's default ``durability="async"`` costs the same here, and may lose the last
  finished agent when the process is killed: the engine writes "sync".
- a chat turn leaves 25-43 kB of checkpoints and 15-22 kB of writes; an analysis of the
  sample inventory 630 kB and 157 kB (the saver stores the whole state at every superstep).
- replaying a finished run: 16 ms (chat), 85 ms (analysis); the resume lookup stays at
  1.6-1.9 ms from 473 to 2,473 checkpoints (the saver's index is used).
Against a provider's 1-10 s per agent call that is a few per cent of a run, worth paying for
runs on a paid model; an offline run costs nothing to redo and needs no checkpointer.

Which runs are durable, then: those a worker runs (``AEKO_RUNS=worker``: chat turns and
analyses, the deployment of docs/deploy.md, and whatever a page runs for a worker that did
not come, ``runs._run_here``). A run in a page process without workers (the single-process
default, on the offline analyst) is not: a second process could only resume it by running
the same thread while the first may still be alive behind a lost lease, and on the offline
analyst the checkpoints would cost 3-4x the run they save (the figures above). Such a run,
cut, is reported cut once with its finished calls counted once, and its question waits to be
asked again. A deployment on a paid model runs its turns in workers.

A resumed run replays the finished agents' events and counts their calls; what the cut
agent itself had spent (a call before the cut, or a tool round) is not in the saved state:
the caller records it from the error's ``usage`` when the run is cut. Two processes must
not run the same thread at once: the run's lease (application/runs.py) decides who resumes.
"""

from __future__ import annotations

import threading
import weakref
from datetime import timedelta
from typing import TYPE_CHECKING

from langgraph.checkpoint.mongodb import MongoDBSaver
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

from engine.graph.durable import saved_types

if TYPE_CHECKING:
    from pymongo import MongoClient

    from store.client import Store

CHECKPOINTS = "run_checkpoints"
CHECKPOINT_WRITES = "run_checkpoint_writes"
CHECKPOINT_TTL = timedelta(hours=24)

_SAVERS: weakref.WeakKeyDictionary[MongoClient, dict[str, MongoDBSaver]] = (
    weakref.WeakKeyDictionary()
)
_LOCK = threading.Lock()


def build_saver(client: MongoClient, db_name: str) -> MongoDBSaver:
    """A new saver on ``client``'s database ``db_name``; creates its indexes (two round
    trips per collection), so build it once per client (``saver_for``)."""
    serde = JsonPlusSerializer(allowed_msgpack_modules=tuple(saved_types()))
    return MongoDBSaver(
        client,
        db_name=db_name,
        checkpoint_collection_name=CHECKPOINTS,
        writes_collection_name=CHECKPOINT_WRITES,
        ttl=int(CHECKPOINT_TTL.total_seconds()),
        serde=serde,
    )


def saver_for(store: Store) -> MongoDBSaver:
    """The saver on the store's current client and database, built once per client."""
    client, name = store.client, store.db.name
    with _LOCK:
        per_db = _SAVERS.setdefault(client, {})
        saver = per_db.get(name)
        if saver is None:
            saver = per_db[name] = build_saver(client, name)
        return saver


def forget(saver: MongoDBSaver, run_id: str) -> None:
    """Drop a run's checkpoints once its outcome is recorded: nothing left to resume."""
    saver.delete_thread(run_id)
