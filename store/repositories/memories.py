from __future__ import annotations

from datetime import datetime

from pymongo import ReturnDocument

from engine.dto import AekoUserMemory
from store.documents import from_db, object_id, to_db
from store.errors import NotFoundError
from store.indexes import BY_ID, MEMORY_BY_USER
from store.repositories.base import Repository, guarded, now


class MemoryRepository(Repository):
    collection = "user_memory"

    @guarded
    def add(
        self, field: str, description: str, *, expires_at: datetime | None = None
    ) -> AekoUserMemory:
        memory = AekoUserMemory(id_user=str(self.user_id), field=field, description=description,
                                created_at=now(), expires_at=expires_at)  # fmt: skip
        memory.id = str(self.col.insert_one(to_db(memory.model_dump(by_alias=True))).inserted_id)
        return memory

    @guarded
    def active(self) -> list[AekoUserMemory]:
        """What the engine may read: expired memories are filtered out here, on read (the TTL
        sweep deletes them later, on its own schedule)."""
        query = self._mine(**{"$or": [{"expires_at": None}, {"expires_at": {"$gt": now()}}]})
        cursor = self.col.find(query, hint=MEMORY_BY_USER).sort("_id", 1)
        return [AekoUserMemory.model_validate(from_db(d)) for d in cursor]

    @guarded
    def all(self) -> list[AekoUserMemory]:
        cursor = self.col.find(self._mine(), hint=MEMORY_BY_USER).sort("_id", 1)
        return [AekoUserMemory.model_validate(from_db(d)) for d in cursor]

    @guarded
    def update(self, memory_id: str, *, field: str, description: str) -> AekoUserMemory:
        return self._set(memory_id, {"field": field, "description": description})

    @guarded
    def expire(self, memory_id: str, at: datetime | None = None) -> AekoUserMemory:
        return self._set(memory_id, {"expires_at": at or now()})

    @guarded
    def delete(self, memory_id: str) -> bool:
        query = self._mine(_id=object_id(memory_id, "memória / memory"))
        return self.col.delete_one(query, hint=BY_ID).deleted_count == 1

    def _set(self, memory_id: str, values: dict) -> AekoUserMemory:
        document = self.col.find_one_and_update(
            self._mine(_id=object_id(memory_id, "memória / memory")),
            {"$set": values},
            return_document=ReturnDocument.AFTER,
            hint=BY_ID,
        )
        if document is None:
            raise NotFoundError("memória / memory")
        return AekoUserMemory.model_validate(from_db(document))
