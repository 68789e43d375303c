"""Improvement plans: the reference's fields, plus ``id_user`` (isolation) and ``run_id``
(a retried save stores the plan once)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pymongo import ReturnDocument, UpdateOne

from engine.dto import AekoImprovementPlan
from store.documents import from_db, object_id, to_db
from store.errors import NotFoundError
from store.indexes import BY_ID, PLAN_BY_INVENTORY, PLAN_BY_RUN, PLAN_BY_USER
from store.repositories.base import NEWEST_FIRST, Repository, guarded
from store.text_search import matching

SEARCHED = ("defined_problem", "method", "reasoning")  # what a search reads
TOTALS = "actions_totals"  # beside the reference's fields, like a session's ``summary``


class PlanRepository(Repository):
    collection = "improvement_plan"

    @guarded
    def save(
        self,
        plan: AekoImprovementPlan,
        *,
        run_id: str,
        totals: Mapping[str, Any] | None = None,
    ) -> AekoImprovementPlan:
        """Once per run: a retried save keeps what the first one stored. ``totals``, what the
        plan's computed actions add up to, are kept beside it as ``keep_totals`` keeps them,
        so the first listing of the plan need not read its actions."""
        document = to_db(plan.model_dump(by_alias=True, exclude={"id"}))
        update: dict[str, Any] = {
            "$setOnInsert": {**document, "id_user": self.user_id, "run_id": run_id}
        }
        if totals is not None:
            # $set, not $setOnInsert: a replayed save also fills in a plan stored without
            # them (its first attempt by an older version); same run, same totals.
            update["$set"] = {TOTALS: dict(totals)}
        stored = self.col.find_one_and_update(
            self._mine(run_id=run_id),
            update,
            upsert=True,
            return_document=ReturnDocument.AFTER,
            hint=PLAN_BY_RUN,
        )
        return AekoImprovementPlan.model_validate(from_db(stored))

    @guarded
    def get(self, plan_id: str) -> AekoImprovementPlan:
        document = self.col.find_one(self._mine(_id=object_id(plan_id, "plano / plan")), hint=BY_ID)
        if document is None:
            raise NotFoundError("plano / plan")
        return AekoImprovementPlan.model_validate(from_db(document))

    @guarded
    def list(self, limit: int = 50) -> list[AekoImprovementPlan]:
        """Newest first."""
        cursor = self.col.find(self._mine(), hint=PLAN_BY_USER).sort(NEWEST_FIRST).limit(limit)
        return [AekoImprovementPlan.model_validate(from_db(d)) for d in cursor]

    @guarded
    def search(
        self, query: str = "", *, skip: int = 0, limit: int = 20
    ) -> list[AekoImprovementPlan]:
        """Newest first, those whose texts hold ``query`` (accent- and case-insensitive), in
        the database: ``skip`` and ``limit`` page through them."""
        filter_ = self._mine(**matching(query, SEARCHED))
        cursor = self.col.find(filter_, hint=PLAN_BY_USER).sort(NEWEST_FIRST)
        cursor = cursor.skip(skip).limit(limit)
        return [AekoImprovementPlan.model_validate(from_db(d)) for d in cursor]

    @guarded
    def search_with_totals(
        self, query: str = "", *, skip: int = 0, limit: int = 20
    ) -> list[tuple[AekoImprovementPlan, dict | None]]:
        """As ``search``, each plan with the totals of its actions kept beside it (None until
        ``save`` or ``keep_totals`` stored them: a plan saved by an older version)."""
        filter_ = self._mine(**matching(query, SEARCHED))
        cursor = self.col.find(filter_, hint=PLAN_BY_USER).sort(NEWEST_FIRST)
        return [
            (AekoImprovementPlan.model_validate(from_db(d)), d.get(TOTALS))
            for d in cursor.skip(skip).limit(limit)
        ]

    @guarded
    def keep_totals(self, totals: dict[str, dict]) -> None:
        """Keep what each plan's computed actions add up to beside it, by plan id, in one
        round trip: a list of plans then shows its totals without reading their actions."""
        if not totals:
            return
        updates = [
            UpdateOne(self._mine(_id=object_id(plan_id, "plano / plan")),
                      {"$set": {TOTALS: kept}}, hint=BY_ID)
            for plan_id, kept in totals.items()
        ]  # fmt: skip
        self.col.bulk_write(updates, ordered=False)

    @guarded
    def by_inventory(self, id_external_inventory: int) -> list[AekoImprovementPlan]:
        """Newest first."""
        query = self._mine(id_external_inventory=id_external_inventory)
        cursor = self.col.find(query, hint=PLAN_BY_INVENTORY).sort(NEWEST_FIRST)
        return [AekoImprovementPlan.model_validate(from_db(d)) for d in cursor]

    @guarded
    def run_of(self, plan_id: str) -> str | None:
        """The run that produced the plan: what its computed actions and scenarios hang on."""
        query = self._mine(_id=object_id(plan_id, "plano / plan"))
        document = self.col.find_one(query, {"run_id": 1}, hint=BY_ID) or {}
        return document.get("run_id")

    @guarded
    def delete(self, plan_id: str) -> bool:
        query = self._mine(_id=object_id(plan_id, "plano / plan"))
        return self.col.delete_one(query, hint=BY_ID).deleted_count == 1
