from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from pymongo.collection import Collection
from pymongo.database import Database
from pymongo.errors import ConnectionFailure

from engine.dto import utc_now
from store.documents import object_id
from store.errors import StoreUnavailableError

P = ParamSpec("P")
R = TypeVar("R")


now = utc_now  # milliseconds, as BSON keeps them

# Most recently updated first. ``updated_at`` keeps milliseconds only, so two writes in the
# same millisecond tie; the ``_id`` breaks the tie, so the order is total and a list reads the
# same on every reload instead of swapping tied documents.
NEWEST_FIRST = [("updated_at", -1), ("_id", -1)]


def guarded(method: Callable[P, R]) -> Callable[P, R]:
    """A lost connection becomes ``StoreUnavailableError``: short, with the host only."""

    @functools.wraps(method)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(*args, **kwargs)
        except ConnectionFailure as exc:
            repository: Repository = args[0]  # type: ignore[assignment]
            raise StoreUnavailableError(repository.target) from exc

    return wrapper


class Repository:
    collection: str = ""

    def __init__(self, db: Database, target: str, user_id: str | None = None) -> None:
        self.db = db
        self.target = target
        self.col: Collection = db[self.collection]
        self.user_id = object_id(user_id, "usuário") if user_id is not None else None

    def _mine(self, **criteria: Any) -> dict[str, Any]:
        """A filter scoped to this repository's user."""
        return {"id_user": self.user_id, **criteria}
