"""Uploaded inventories: what was read and how, with the original file kept in GridFS so an
analysis can be reproduced. ``number`` is the integer the plans refer to
(``id_external_inventory``)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import gridfs
from pymongo import ReturnDocument

from store.documents import object_id
from store.errors import NotFoundError
from store.indexes import BY_ID, INVENTORY_BY_HASH, INVENTORY_BY_USER
from store.repositories.base import Repository, guarded, now


@dataclass(frozen=True)
class InventoryRecord:
    id: str
    number: int
    filename: str
    size: int
    sha256: str
    sheets: list[str]
    mapping: dict[str, Any]
    summary: dict[str, Any]
    uploaded_at: datetime
    extra: dict[str, Any] = field(default_factory=dict)
    factors_filename: str | None = None  # the user's own emission factors, kept beside it
    # sheet -> the unit the user chose for emission columns no evidence proves ("kg", "Gg")
    units: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, document: dict[str, Any]) -> InventoryRecord:
        return cls(
            id=str(document["_id"]),
            number=int(document["number"]),
            filename=document["filename"],
            size=int(document["size"]),
            sha256=document["sha256"],
            sheets=list(document.get("sheets", [])),
            mapping=dict(document.get("mapping", {})),
            summary=dict(document.get("summary", {})),
            uploaded_at=document["uploaded_at"],
            factors_filename=document.get("factors_filename"),
            units=dict(document.get("units") or {}),
        )


class InventoryRepository(Repository):
    collection = "inventory"

    @property
    def _files(self) -> gridfs.GridFS:
        return gridfs.GridFS(self.db, collection="inventory_file")

    @guarded
    def save(
        self,
        filename: str,
        data: bytes,
        *,
        sheets: list[str],
        mapping: dict[str, Any],
        summary: dict[str, Any],
        factors: tuple[str, bytes] | None = None,
        units: dict[str, str] | None = None,
    ) -> InventoryRecord:
        """Store an upload once per user, content and settings: the same file read the same
        way again returns its record; read with another column mapping, sheets, GWP set,
        methane origin, own-factor file or unit choice, it is a new version, stored beside
        the first. ``factors`` is the user's factor CSV (name, bytes) the emissions were
        computed with; ``units`` the unit the user chose per sheet whose unit no evidence
        proves. Both are kept so the analysis can be reproduced."""
        digest = hashlib.sha256(data).hexdigest()
        factors_digest = hashlib.sha256(factors[1]).hexdigest() if factors else None
        units = dict(units or {})
        settings = settings_digest(sheets, mapping, summary, factors_digest, units)
        # Few versions share a content hash: their settings are compared here, so a record
        # stored before ``settings_sha256`` existed still deduplicates by what it holds.
        for existing in self.col.find(self._mine(sha256=digest), hint=INVENTORY_BY_HASH):
            if _settings_of(existing) == settings:
                return InventoryRecord.of(existing)
        file_id = self._files.put(data, filename=filename, id_user=self.user_id)
        factors_id = (
            self._files.put(factors[1], filename=factors[0], id_user=self.user_id)
            if factors
            else None
        )
        counter = self.db["counter"].find_one_and_update(
            {"_id": "inventory"}, {"$inc": {"value": 1}}, upsert=True,
            return_document=ReturnDocument.AFTER,
        )  # fmt: skip
        document = {
            "id_user": self.user_id,
            "number": int(counter["value"]),
            "filename": filename,
            "size": len(data),
            "sha256": digest,
            "sheets": sheets,
            "mapping": mapping,
            "summary": summary,
            "file_id": file_id,
            "factors_sha256": factors_digest,
            "factors_filename": factors[0] if factors else None,
            "factors_file_id": factors_id,
            "units": units,
            "settings_sha256": settings,
            "uploaded_at": now(),
        }
        document["_id"] = self.col.insert_one(document).inserted_id
        return InventoryRecord.of(document)

    @guarded
    def get(self, inventory_id: str) -> InventoryRecord:
        return InventoryRecord.of(self._document(inventory_id))

    @guarded
    def by_number(self, number: int) -> InventoryRecord:
        """The upload a plan refers to (``id_external_inventory``)."""
        document = self.col.find_one(self._mine(number=int(number)), hint=[("number", 1)])
        if document is None:
            raise NotFoundError("inventário / inventory")
        return InventoryRecord.of(document)

    @guarded
    def list(self, limit: int = 50) -> list[InventoryRecord]:
        cursor = self.col.find(self._mine(), hint=INVENTORY_BY_USER)
        cursor = cursor.sort([("uploaded_at", -1), ("_id", -1)]).limit(limit)
        return [InventoryRecord.of(d) for d in cursor]

    @guarded
    def file(self, inventory_id: str) -> bytes:
        """The original upload, byte for byte."""
        return self._files.get(self._document(inventory_id)["file_id"]).read()

    @guarded
    def factors_file(self, inventory_id: str) -> bytes | None:
        """The user's factor CSV the inventory was computed with, byte for byte; or None."""
        file_id = self._document(inventory_id).get("factors_file_id")
        return self._files.get(file_id).read() if file_id is not None else None

    @guarded
    def delete(self, inventory_id: str) -> bool:
        document = self.col.find_one_and_delete(
            self._mine(_id=object_id(inventory_id, "inventário")), hint=BY_ID
        )
        if document is None:
            return False
        self._files.delete(document["file_id"])
        if document.get("factors_file_id") is not None:
            self._files.delete(document["factors_file_id"])
        return True

    def _document(self, inventory_id: str) -> dict[str, Any]:
        document = self.col.find_one(
            self._mine(_id=object_id(inventory_id, "inventário")), hint=BY_ID
        )
        if document is None:
            raise NotFoundError("inventário / inventory")
        return document


def settings_digest(
    sheets: list[str],
    mapping: dict[str, Any],
    summary: dict[str, Any],
    factors: str | None,
    units: dict[str, str] | None = None,
) -> str:
    """The hash of how a file was read: sheets, column mapping, GWP set, methane origin, the
    digest of the user's factor file and the units the user chose."""
    settings = {
        "sheets": list(sheets),
        "mapping": mapping,
        "gwp_set": summary.get("gwp_set"),
        "ch4_origin": summary.get("ch4_origin"),
        "factors": factors,
    }
    if units:  # absent without a choice: a record stored before units existed hashes the same
        settings["units"] = dict(units)
    text = json.dumps(settings, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _settings_of(document: dict[str, Any]) -> str:
    return document.get("settings_sha256") or settings_digest(
        document.get("sheets", []),
        document.get("mapping", {}),
        document.get("summary", {}),
        document.get("factors_sha256"),
        document.get("units"),
    )
