from __future__ import annotations

from pymongo import ReturnDocument

from engine.dto import AekoUser
from store.documents import from_db, object_id
from store.errors import NotFoundError
from store.indexes import BY_ID, USER_BY_EXTERNAL_ID
from store.repositories.base import Repository, guarded, now


class UserRepository(Repository):
    collection = "user"

    @guarded
    def get_or_create(
        self, id_external_user: int, *, role: str = "", usecase: str = ""
    ) -> AekoUser:
        document = self.col.find_one_and_update(
            {"id_external_user": id_external_user},
            {
                "$setOnInsert": {
                    "id_external_user": id_external_user,
                    "role": role,
                    "usecase": usecase,
                    "created_at": now(),
                }
            },
            upsert=True,
            return_document=ReturnDocument.AFTER,
            hint=USER_BY_EXTERNAL_ID,
        )
        return AekoUser.model_validate(from_db(document))

    @guarded
    def get(self, user_id: str) -> AekoUser:
        document = self.col.find_one({"_id": object_id(user_id, "usuário")}, hint=BY_ID)
        if document is None:
            raise NotFoundError("usuário / user")
        return AekoUser.model_validate(from_db(document))

    @guarded
    def update_profile(self, user_id: str, *, role: str, usecase: str) -> AekoUser:
        document = self.col.find_one_and_update(
            {"_id": object_id(user_id, "usuário")},
            {"$set": {"role": role, "usecase": usecase}},
            return_document=ReturnDocument.AFTER,
        )
        if document is None:
            raise NotFoundError("usuário / user")
        return AekoUser.model_validate(from_db(document))
