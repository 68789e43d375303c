"""The ``runs`` and ``run_events`` collections: where a chat turn or an analysis lives while
it runs, so that every app process behind a load balancer sees the same runs.

One document per run in ``runs``: its owner, kind, subject (the conversation, or the
upload's SHA-256), title, status (``running``, then ``ended``, ``failed`` or
``interrupted``), its lease (``holder``: the process running it, and ``lease_until``,
renewed by that process's heartbeat), whether a page showed how it ended, and its outcome.
Its events go to ``run_events`` as they come, one document each, keyed ``<run>:<seq>`` so a
retried write stores nothing twice; any process follows them through a change stream.

A run whose lease expired was cut (its process died or hung longer than a lease): the first
process to notice marks it ``interrupted`` in one conditional update, so it is reported
once, whoever notices. A holder that comes back after losing its lease finds its updates
matching nothing: what it has to say from then on is the usage it spent, which the usage
repository keeps whole (``UsageRepository.record``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

from pymongo import ASCENDING, ReturnDocument
from pymongo.collection import Collection
from pymongo.errors import BulkWriteError, PyMongoError

from store.indexes import BY_ID, RUN_EVENTS_BY_RUN, RUNS_BY_STATUS, RUNS_BY_SUBJECT, RUNS_BY_USER
from store.repositories.base import Repository, guarded, now

DUPLICATE_KEY = 11000  # the server's code for a key stored already
QUEUED = "queued"  # asked by a page, waiting for a worker to claim it
RUNNING = "running"
# A run taken over this many times is reported cut instead of run again: whatever kills its
# workers would kill the next one too.
MAX_ATTEMPTS = 3
# How long a run's process may stay silent before another process takes the run for cut.
# The holder renews it every LEASE / 3, so a lease is lost only to a process gone or stuck.
LEASE = timedelta(seconds=30)
# Runs and their events are working state, not records (the conversation and the plan are):
# the database forgets them after this, by TTL.
KEEP_RUNS = timedelta(days=2)


class RunRepository(Repository):
    """One user's runs (``user_id=None``: every user's, for the sweep of expired leases)."""

    collection = "runs"

    @property
    def events_col(self) -> Collection:
        return self.db["run_events"]

    @guarded
    def create(self, document: dict[str, Any], holder: str) -> None:
        """Store a run just started by ``holder``; a retried create changes nothing."""
        at = now()
        body = {
            **document,
            "id_user": self.user_id,
            "status": RUNNING,
            "holder": holder,
            "lease_until": at + LEASE,
            "heartbeat_at": at,
            "delivered": False,
            "expires_at": at + KEEP_RUNS,
        }
        self.col.update_one({"_id": document["_id"]}, {"$setOnInsert": body}, upsert=True)

    @guarded
    def enqueue(self, document: dict[str, Any]) -> None:
        """A run for a worker: ``document`` holds its ``request`` (what the worker needs to
        run it). A retried enqueue changes nothing."""
        at = now()
        body = {
            **document,
            "id_user": self.user_id,
            "status": QUEUED,
            "holder": None,
            "attempts": 0,
            "delivered": False,
            "queued_at": at,
            "expires_at": at + KEEP_RUNS,
        }
        self.col.update_one({"_id": document["_id"]}, {"$setOnInsert": body}, upsert=True)

    @guarded
    def claim(self, holder: str, run_id: str | None = None) -> dict[str, Any] | None:
        """The oldest queued run (or ``run_id``, if it is queued), now ``holder``'s under a
        fresh lease; None when none waits. One conditional update: two workers never claim
        the same run."""
        at = now()
        return self.col.find_one_and_update(
            {"status": QUEUED} if run_id is None else {"_id": run_id, "status": QUEUED},
            {"$set": {"status": RUNNING, "holder": holder, "lease_until": at + LEASE,
                      "heartbeat_at": at}, "$inc": {"attempts": 1}},
            sort=[("queued_at", ASCENDING)],
            return_document=ReturnDocument.AFTER,
            hint=RUNS_BY_STATUS,
        )  # fmt: skip

    @guarded
    def hand_back(self, run_id: str, holder: str) -> bool:
        """A worker shutting down gives an unfinished run back to the queue: the next
        worker resumes it from its last finished agent (its checkpoints)."""
        result = self.col.update_one(
            {"_id": run_id, "holder": holder, "status": RUNNING},
            {"$set": {"status": QUEUED, "holder": None, "queued_at": now()},
             "$inc": {"attempts": -1}},  # not a failed attempt: the worker was asked to stop
        )  # fmt: skip
        return result.modified_count == 1

    @guarded
    def add_event(self, run_id: str, seq: int, event: dict[str, Any]) -> None:
        """The run's ``seq``-th event; written twice, stored once."""
        self.add_events(run_id, [(seq, event)])

    @guarded
    def add_events(self, run_id: str, events: list[tuple[int, dict[str, Any]]]) -> None:
        """The run's events (``seq``, event) in one round trip; any written before (a
        resumed run replays its finished agents' events) are stored once."""
        if not events:
            return
        expires = now() + KEEP_RUNS
        documents = [
            {"_id": f"{run_id}:{seq:06d}", "run_id": run_id, "seq": seq, "event": event,
             "expires_at": expires}
            for seq, event in events
        ]  # fmt: skip
        try:
            self.events_col.insert_many(documents, ordered=False)
        except BulkWriteError as error:
            if any(e.get("code") != DUPLICATE_KEY for e in error.details.get("writeErrors", [])):
                raise

    @guarded
    def renew(self, run_id: str, holder: str) -> bool:
        """Extend the lease; False when ``holder`` holds it no longer (taken for cut)."""
        at = now()
        result = self.col.update_one(
            {"_id": run_id, "holder": holder, "status": RUNNING},
            {"$set": {"lease_until": at + LEASE, "heartbeat_at": at}},
        )
        return result.matched_count == 1

    @guarded
    def end(self, run_id: str, holder: str, status: str, outcome: dict[str, Any]) -> bool:
        """Record how the run ended; only its lease holder can, and only once."""
        result = self.col.update_one(
            {"_id": run_id, "holder": holder, "status": RUNNING},
            {"$set": {"status": status, "outcome": outcome, "ended_at": now(),
                      "expires_at": now() + KEEP_RUNS}},
        )  # fmt: skip
        return result.matched_count == 1

    @guarded
    def get(self, run_id: str) -> dict[str, Any] | None:
        return self.col.find_one({"_id": run_id})

    @guarded
    def shown(self, kind: str, subject: str | None = None) -> list[dict[str, Any]]:
        """This user's runs a page shows, oldest first: running, or ended and not shown."""
        criteria: dict[str, Any] = {"kind": kind, "delivered": False}
        if subject is not None:
            criteria["subject"] = subject
        hint = RUNS_BY_SUBJECT if subject is not None else RUNS_BY_USER
        cursor = self.col.find(self._mine(**criteria), hint=hint)
        return sorted(cursor, key=lambda doc: doc["started_at"])

    @guarded
    def shown_of(self, run_ids: list[str]) -> list[dict[str, Any]]:
        """Those of ``run_ids`` a page shows (as ``shown``), oldest first."""
        cursor = self.col.find({"_id": {"$in": run_ids}, "delivered": False}, hint=BY_ID)
        return sorted(
            (doc for doc in cursor if doc.get("id_user") == self.user_id),
            key=lambda doc: doc["started_at"],
        )

    @guarded
    def deliver(self, run_id: str) -> None:
        self.col.update_one({"_id": run_id}, {"$set": {"delivered": True}})

    @guarded
    def take_expired(self, run_id: str | None = None) -> list[dict[str, Any]]:
        """Mark the runs whose lease expired (or only ``run_id``, if it did) ``interrupted``
        and return them: each comes out of exactly one call, in whichever process, so its
        cut is reported once."""
        taken = []
        criteria: dict[str, Any] = {"status": RUNNING, "lease_until": {"$lt": now()}}
        if self.user_id is not None:
            criteria["id_user"] = self.user_id
        if run_id is not None:
            criteria["_id"] = run_id
        # A worker's run (it has a request) goes back to the queue, to be resumed by the
        # next worker from its checkpoints, until it has been tried MAX_ATTEMPTS times.
        self.col.update_many(
            {**criteria, "request": {"$exists": True}, "attempts": {"$lt": MAX_ATTEMPTS}},
            {"$set": {"status": QUEUED, "holder": None, "queued_at": now()}},
        )
        while True:
            document = self.col.find_one_and_update(
                criteria,
                {"$set": {"status": "interrupted", "ended_at": now()}},
                return_document=ReturnDocument.AFTER,
            )
            if document is None:
                return taken
            taken.append(document)

    @guarded
    def events(self, run_id: str, after: int = -1) -> list[dict[str, Any]]:
        """The run's events after the ``after``-th, in order."""
        cursor = self.events_col.find(
            {"run_id": run_id, "seq": {"$gt": after}}, hint=RUN_EVENTS_BY_RUN
        ).sort("seq", ASCENDING)
        return [document["event"] | {"_seq": document["seq"]} for document in cursor]

    def watch(self, run_id: str) -> _EventStream | None:
        """A change stream of the run's new events; None when the server has none to give
        (a standalone mongod): the follower then reads by polling."""
        try:
            stream = self.events_col.watch(
                [{"$match": {"operationType": "insert", "fullDocument.run_id": run_id}}],
                max_await_time_ms=500,
            )
        except PyMongoError:
            return None
        return _EventStream(stream)


class _EventStream:
    """A change stream read without blocking past its await time."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def next_batch(self) -> Iterator[dict[str, Any]]:
        """What arrived since the last call (waiting up to the stream's await time)."""
        change = self._stream.try_next()
        while change is not None:
            yield change["fullDocument"]["event"] | {"_seq": change["fullDocument"]["seq"]}
            change = self._stream.try_next() if self._stream.alive else None

    def close(self) -> None:
        with contextlib.suppress(PyMongoError):
            self._stream.close()
