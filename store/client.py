"""``connect``: the one entry to the database, embedded or real, and the repositories."""

from __future__ import annotations

from dataclasses import dataclass

from pymongo import MongoClient
from pymongo.database import Database
from pymongo.errors import PyMongoError

from store.config import StoreConfig, describe_target
from store.embedded import EmbeddedServer, start_or_join
from store.errors import StoreUnavailableError
from store.indexes import ensure_indexes
from store.repositories import (
    InventoryRepository,
    MemoryRepository,
    PlanActionsRepository,
    PlanRepository,
    SessionRepository,
    UsageRepository,
    UserRepository,
)


@dataclass
class Store:
    client: MongoClient
    db: Database
    target: str  # hosts only, for messages
    server: EmbeddedServer | None = None

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

    def inventories(self, user_id: str) -> InventoryRepository:
        return InventoryRepository(self.db, self.target, user_id)

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


def connect(config: StoreConfig, *, timeout_ms: int = 5_000) -> Store:
    """Connect (starting or joining the embedded server when no URI is set) and index."""
    server = start_or_join(config.data_dir) if config.embedded else None
    uri = server.uri if server else config.uri
    target = describe_target(config.uri) if config.uri else f"embedded server, {config.data_dir}"
    client: MongoClient = MongoClient(
        uri,
        # The embedded server scans its retryable-write records on every write when
        # retryWrites is on (1.8 ms -> 10-13 ms after 10,000 writes); a replica set keeps it.
        retryWrites=not config.embedded,
        tz_aware=True,
        serverSelectionTimeoutMS=timeout_ms,
        appname="aeko-studio",
    )
    try:
        client.admin.command("ping")
        db = client[config.db]
        ensure_indexes(db)
    except PyMongoError as exc:
        client.close()
        raise StoreUnavailableError(target, embedded=config.embedded) from exc
    return Store(client, db, target, server)
