from __future__ import annotations

from pymongo import DESCENDING, ReturnDocument
from pymongo.errors import DuplicateKeyError

from engine.dto import AekoUser
from store.documents import from_db, object_id
from store.errors import NotFoundError
from store.indexes import BY_ID, USER_BY_EXTERNAL_ID, USER_BY_IDENTITY
from store.repositories.base import Repository, guarded, now

_LOCAL_USER = 1  # the single-user local mode's default number (AEKO_USER_ID)
_CREATE_ATTEMPTS = 5


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
    def get_or_create_by_identity(self, issuer: str, subject: str, *, email: str = "") -> AekoUser:
        """The user of a signed-in identity: its provider (``iss``) and its subject (``sub``),
        which the provider never reuses. The first sign-in creates the user with the next
        ``id_external_user`` number."""
        if not issuer or not subject:
            raise ValueError("a signed-in identity needs both an issuer and a subject")
        key = {"auth_issuer": issuer, "auth_subject": subject}
        document = self.col.find_one(key, hint=USER_BY_IDENTITY)
        for _ in range(_CREATE_ATTEMPTS):
            if document is not None:
                break
            fields = {"role": "", "usecase": "", "email": email, "created_at": now()}
            try:
                document = self.col.find_one_and_update(
                    key,
                    {"$setOnInsert": {**key, "id_external_user": self._next_number(), **fields}},
                    upsert=True,
                    return_document=ReturnDocument.AFTER,
                    hint=USER_BY_IDENTITY,
                )
            except DuplicateKeyError:  # the same identity signing in twice at once, or the
                # number taken by a local-mode user created meanwhile: read it, or try again
                document = self.col.find_one(key, hint=USER_BY_IDENTITY)
        if document is None:
            raise RuntimeError("could not allocate a user number")
        return AekoUser.model_validate(from_db(document))

    def _next_number(self) -> int:
        """The next ``id_external_user``, from the ``counter`` collection as inventories number
        theirs. The counter first catches up with the highest number in use, so users made in
        the single-user local mode (1 by default, which stays reserved) are never reused."""
        highest = self.col.find_one(
            {}, {"id_external_user": 1}, sort=[("id_external_user", DESCENDING)],
            hint=USER_BY_EXTERNAL_ID,
        )  # fmt: skip
        floor = max(_LOCAL_USER, int(highest["id_external_user"]) if highest else 0)
        counters = self.db["counter"]
        counters.update_one({"_id": "user"}, {"$max": {"value": floor}}, upsert=True)
        counter = counters.find_one_and_update(
            {"_id": "user"}, {"$inc": {"value": 1}}, return_document=ReturnDocument.AFTER
        )
        return int(counter["value"])

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

    @guarded
    def default_gwp_set(self, user_id: str) -> str | None:
        """The GWP set the user chose to read inventories with; None when they never chose."""
        document = self.col.find_one(
            {"_id": object_id(user_id, "usuário")}, {"default_gwp_set": 1}, hint=BY_ID
        )
        if document is None:
            raise NotFoundError("usuário / user")
        return document.get("default_gwp_set")

    @guarded
    def set_default_gwp_set(self, user_id: str, gwp_set: str) -> None:
        result = self.col.update_one(
            {"_id": object_id(user_id, "usuário")}, {"$set": {"default_gwp_set": gwp_set}}
        )
        if result.matched_count == 0:
            raise NotFoundError("usuário / user")

    @guarded
    def language(self, user_id: str) -> str | None:
        """The interface language the user chose ("pt", "en"); None when they never chose."""
        document = self.col.find_one(
            {"_id": object_id(user_id, "usuário")}, {"language": 1}, hint=BY_ID
        )
        if document is None:
            raise NotFoundError("usuário / user")
        return document.get("language")

    @guarded
    def set_language(self, user_id: str, language: str) -> None:
        result = self.col.update_one(
            {"_id": object_id(user_id, "usuário")}, {"$set": {"language": language}}
        )
        if result.matched_count == 0:
            raise NotFoundError("usuário / user")
