"""ObjectId in the database, strings in the DTOs: converted here and nowhere else."""

from __future__ import annotations

from typing import Any

from bson import ObjectId
from bson.errors import InvalidId

from store.errors import NotFoundError

# Fields that hold a document's or another document's ObjectId. ``id_external_*`` are the
# caller's integers and stay as they are.
ID_FIELDS = frozenset({"_id", "id_user", "id_session", "id_inventory", "file_id"})


def object_id(value: str | ObjectId, what: str = "documento") -> ObjectId:
    if isinstance(value, ObjectId):
        return value
    try:
        return ObjectId(value)
    except (InvalidId, TypeError) as exc:
        raise NotFoundError(what) from exc


def to_db(document: dict[str, Any]) -> dict[str, Any]:
    """A DTO dump ready to store: ids as ObjectId, an empty ``_id`` left to the database."""
    stored = {}
    for key, value in document.items():
        if key == "_id" and value is None:
            continue
        is_id = key in ID_FIELDS and isinstance(value, str) and ObjectId.is_valid(value)
        stored[key] = ObjectId(value) if is_id else value
    return stored


def from_db(document: dict[str, Any]) -> dict[str, Any]:
    """A stored document ready for ``DTO.model_validate``: ids as strings."""
    return {
        key: str(value) if key in ID_FIELDS and isinstance(value, ObjectId) else value
        for key, value in document.items()
    }
