"""Improvement plans: the reference's fields, plus ``id_user`` (isolation) and ``run_id``
(a retried save stores the plan once)."""

from __future__ import annotations

from pymongo import ReturnDocument

from engine.dto import AekoImprovementPlan
from store.documents import from_db, object_id, to_db
from store.errors import NotFoundError
from store.indexes import BY_ID, PLAN_BY_INVENTORY, PLAN_BY_RUN, PLAN_BY_USER
from store.repositories.base import NEWEST_FIRST, Repository, guarded


class PlanRepository(Repository):
    collection = "improvement_plan"

    @guarded
    def save(self, plan: AekoImprovementPlan, *, run_id: str) -> AekoImprovementPlan:
        document = to_db(plan.model_dump(by_alias=True, exclude={"id"}))
        stored = self.col.find_one_and_update(
            self._mine(run_id=run_id),
            {"$setOnInsert": {**document, "id_user": self.user_id, "run_id": run_id}},
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
    def by_inventory(self, id_external_inventory: int) -> list[AekoImprovementPlan]:
        """Newest first."""
        query = self._mine(id_external_inventory=id_external_inventory)
        cursor = self.col.find(query, hint=PLAN_BY_INVENTORY).sort(NEWEST_FIRST)
        return [AekoImprovementPlan.model_validate(from_db(d)) for d in cursor]

    @guarded
    def delete(self, plan_id: str) -> bool:
        query = self._mine(_id=object_id(plan_id, "plano / plan"))
        return self.col.delete_one(query, hint=BY_ID).deleted_count == 1
