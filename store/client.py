"""``connect``: the one entry to the database, embedded or real, and the repositories."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from pymongo import MongoClient
from pymongo.database import Database
from pymongo.errors import ConnectionFailure, PyMongoError

from engine.dto import AekoSession
from store.config import StoreConfig, describe_target
from store.documents import object_id, to_db
from store.embedded import EmbeddedServer, start_or_join
from store.errors import StoreUnavailableError, Target
from store.indexes import ensure_indexes
from store.repositories import (
    InventoryRepository,
    MemoryRepository,
    PlanActionsRepository,
    PlanRepository,
    RunRepository,
    SessionRepository,
    SpendingRepository,
    UsageRepository,
    UserRepository,
)


@dataclass
class Store:
    client: MongoClient
    db: Database
    target: str  # hosts only, for messages
    server: EmbeddedServer | None = None
    options: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    @property
    def restarts(self) -> int:
        """How many times the embedded server was started again since the app started."""
        return self.server.restarts if self.server is not None else 0

    def supervise(self, *, after_failure: bool = False) -> bool:
        """Start the embedded server again if its process is gone (killed, crashed), on the
        same data folder, and reconnect. Cheap when it runs: no network round trip.

        ``after_failure``: the caller just saw the database fail (a ping, a write), so a
        server whose process is alive is pinged too; one that answers none, twice, is hung
        (stopped, deadlocked) and is killed and started again, instead of every read waiting
        for its timeout. True when it was restarted now."""
        server = self.server
        if server is None or server.stopped:
            return False
        with self._lock:
            port = server.port
            if not server.revive(after_failure=after_failure):
                return False
            if server.port != port:  # another port: a client for it, same options
                old, self.client = self.client, MongoClient(server.uri, **self.options)
                self.db = self.client[self.db.name]
                old.close()
        return True

    @property
    def users(self) -> UserRepository:
        return UserRepository(self.db, self.target)

    def sessions(self, user_id: str) -> SessionRepository:
        return SessionRepository(self.db, self.target, user_id)

    def memories(self, user_id: str) -> MemoryRepository:
        return MemoryRepository(self.db, self.target, user_id)

    def plans(self, user_id: str) -> PlanRepository:
        return PlanRepository(self.db, self.target, user_id)

    def plan_actions(self, user_id: str) -> PlanActionsRepository:
        return PlanActionsRepository(self.db, self.target, user_id)

    def usage(self, user_id: str) -> UsageRepository:
        return UsageRepository(self.db, self.target, user_id)

    def spending(self, user_id: str | None) -> SpendingRepository:
        """One user's daily spending; ``None``: every user's (``settle_stale``)."""
        return SpendingRepository(self.db, self.target, user_id)

    def inventories(self, user_id: str) -> InventoryRepository:
        return InventoryRepository(self.db, self.target, user_id)

    def runs(self, user_id: str | None) -> RunRepository:
        """One user's runs; ``None``: every user's (the sweep of expired leases)."""
        return RunRepository(self.db, self.target, user_id)

    def ensure_session(self, user_id: str, session: AekoSession) -> bool:
        """Store a conversation started while the database was away, under the id it was
        given then; once (a replay finds it there). True when it was inserted now."""
        document = to_db(session.model_dump(by_alias=True))
        document["id_user"] = object_id(user_id, "usuário")
        try:
            result = self.db["session"].update_one(
                {"_id": document["_id"]}, {"$setOnInsert": document}, upsert=True
            )
        except ConnectionFailure as exc:
            raise StoreUnavailableError(self.target) from exc
        return result.upserted_id is not None

    def ping(self) -> bool:
        try:
            self.client.admin.command("ping")
            return True
        except PyMongoError:
            return False

    def close(self) -> None:
        self.client.close()
        if self.server is not None:
            self.server.stop()


OPERATION_TIMEOUT_MS = 10_000  # no single database call holds a page longer than this


def connect(config: StoreConfig, *, timeout_ms: int = 3_000) -> Store:
    """Connect (starting or joining the embedded server when no URI is set) and index.

    Timeouts are short so that a database that went away costs a page seconds, not minutes:
    ``timeout_ms`` to find the server, two seconds to open a connection, and every
    operation bounded (``timeoutMS``)."""
    server = start_or_join(config.data_dir) if config.embedded else None
    uri = server.uri if server else config.uri
    if config.uri:
        target = Target(describe_target(config.uri))
    else:
        target = Target(f"embedded server, {config.data_dir}", embedded=True)
    options: dict[str, Any] = {
        # The embedded server scans its retryable-write records on every write when
        # retryWrites is on (1.8 ms -> 10-13 ms after 10,000 writes); a replica set keeps it.
        "retryWrites": not config.embedded,
        # Acknowledged once in the embedded server's log on disk: a killed server process
        # (which the supervisor restarts) loses no acknowledged write; it costs no time.
        "journal": True if config.embedded else None,
        "tz_aware": True,
        "serverSelectionTimeoutMS": timeout_ms,
        "connectTimeoutMS": min(timeout_ms, 2_000),
        "timeoutMS": max(timeout_ms, OPERATION_TIMEOUT_MS),
        "appname": "aeko-studio",
    }
    options = {key: value for key, value in options.items() if value is not None}
    client: MongoClient = MongoClient(uri, **options)
    try:
        client.admin.command("ping")
        db = client[config.db]
        ensure_indexes(db)
    except PyMongoError as exc:
        client.close()
        raise StoreUnavailableError(target, embedded=config.embedded) from exc
    return Store(client, db, target, server, options)
