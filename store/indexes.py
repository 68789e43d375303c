"""Every index the app's queries use, created at start-up, idempotently.

Each query names its index with ``hint``: SecantusDB's planner scans the collection when a
filter has more than one predicate (``{_id, id_user}``), where mongod would pick the index.
The hints make both servers take the same, indexed path.
"""

from __future__ import annotations

from pymongo import ASCENDING, DESCENDING, IndexModel
from pymongo.database import Database

BY_ID = [("_id", ASCENDING)]
USER_BY_EXTERNAL_ID = [("id_external_user", ASCENDING)]
USER_BY_IDENTITY = [("auth_issuer", ASCENDING), ("auth_subject", ASCENDING)]
SESSION_BY_USER = [("id_user", ASCENDING), ("updated_at", DESCENDING)]
MEMORY_BY_USER = [("id_user", ASCENDING)]
MEMORY_EXPIRY = [("expires_at", ASCENDING)]
PLAN_BY_USER = [("id_user", ASCENDING), ("updated_at", DESCENDING)]
PLAN_BY_INVENTORY = [("id_user", ASCENDING), ("id_external_inventory", ASCENDING),
                     ("updated_at", DESCENDING)]  # fmt: skip
PLAN_BY_RUN = [("id_user", ASCENDING), ("run_id", ASCENDING)]
INVENTORY_BY_USER = [("id_user", ASCENDING), ("uploaded_at", DESCENDING)]
INVENTORY_BY_HASH = [("id_user", ASCENDING), ("sha256", ASCENDING)]
USAGE_BY_USER = [("id_user", ASCENDING), ("created_at", DESCENDING)]
USAGE_BY_SESSION = [("id_user", ASCENDING), ("id_session", ASCENDING)]
USAGE_BY_RUN = [("id_user", ASCENDING), ("run_id", ASCENDING)]
PLAN_ACTIONS_BY_RUN = [("id_user", ASCENDING), ("run_id", ASCENDING)]
RUNS_BY_USER = [("id_user", ASCENDING), ("kind", ASCENDING), ("delivered", ASCENDING)]
RUNS_BY_SUBJECT = [("id_user", ASCENDING), ("kind", ASCENDING), ("subject", ASCENDING)]
RUNS_BY_LEASE = [("status", ASCENDING), ("lease_until", ASCENDING)]  # the sweep of cut runs
RUNS_BY_STATUS = [("status", ASCENDING), ("queued_at", ASCENDING)]  # a worker's claim
RUN_EVENTS_BY_RUN = [("run_id", ASCENDING), ("seq", ASCENDING)]
SPENDING_BY_DAY = [("day", ASCENDING)]  # the sweep of open reservations (settle_stale)

INDEXES: dict[str, list[IndexModel]] = {
    "user": [
        IndexModel(USER_BY_EXTERNAL_ID, unique=True),
        IndexModel(USER_BY_IDENTITY, unique=True, sparse=True),  # signed-in users (iss, sub)
    ],
    "session": [IndexModel(SESSION_BY_USER)],
    "user_memory": [
        IndexModel(MEMORY_BY_USER),
        IndexModel(MEMORY_EXPIRY, expireAfterSeconds=0),  # the TTL sweep of expired memories
    ],
    "improvement_plan": [
        IndexModel(PLAN_BY_USER),
        IndexModel(PLAN_BY_INVENTORY),
        IndexModel(PLAN_BY_RUN),  # a retried save finds the plan it already stored
    ],
    "inventory": [
        IndexModel(INVENTORY_BY_USER),
        IndexModel(INVENTORY_BY_HASH),
        IndexModel([("number", ASCENDING)], unique=True),
    ],
    "plan_actions": [IndexModel(PLAN_ACTIONS_BY_RUN, unique=True)],
    "usage": [
        IndexModel(USAGE_BY_USER),
        IndexModel(USAGE_BY_SESSION),
        IndexModel(USAGE_BY_RUN, unique=True),  # one document per run
    ],
    # One document per user and UTC day, keyed "<user>:<day>": the daily cap's reservations.
    "spending": [IndexModel(SPENDING_BY_DAY)],
    # Working state of runs (store/repositories/runs.py), forgotten by TTL.
    "runs": [
        IndexModel(RUNS_BY_USER),
        IndexModel(RUNS_BY_SUBJECT),
        IndexModel(RUNS_BY_LEASE),
        IndexModel(RUNS_BY_STATUS),
        IndexModel([("expires_at", ASCENDING)], expireAfterSeconds=0),
    ],
    "run_events": [
        IndexModel(RUN_EVENTS_BY_RUN),
        IndexModel([("expires_at", ASCENDING)], expireAfterSeconds=0),
    ],
}


def ensure_indexes(db: Database) -> None:
    for collection, models in INDEXES.items():
        db[collection].create_indexes(models)
