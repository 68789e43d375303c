"""The computed side of a plan (actions, target path, SBCE readiness) and the what-if
scenarios saved with it. Kept in a collection of its own so the ``improvement_plan`` document
holds exactly the reference fields; joined to its plan by the run that produced both."""

from __future__ import annotations

from typing import Any

from engine.actions.model import PlanActions
from store.documents import object_id
from store.indexes import BY_ID, PLAN_ACTIONS_BY_RUN
from store.repositories.base import Repository, guarded, now


class PlanActionsRepository(Repository):
    collection = "plan_actions"

    @guarded
    def save(self, run_id: str, id_external_inventory: int, actions: PlanActions) -> bool:
        """Once per run: a retried save keeps what the first one stored."""
        document = {
            "id_user": self.user_id,
            "run_id": run_id,
            "id_external_inventory": id_external_inventory,
            "data": actions.model_dump(mode="json"),
            "scenarios": [],
            "created_at": now(),
        }
        result = self.col.update_one(
            self._mine(run_id=run_id),
            {"$setOnInsert": document},
            upsert=True,
            hint=PLAN_ACTIONS_BY_RUN,
        )
        return result.upserted_id is not None

    @guarded
    def of_run(self, run_id: str) -> PlanActions | None:
        document = self.col.find_one(self._mine(run_id=run_id), hint=PLAN_ACTIONS_BY_RUN)
        return PlanActions.model_validate(document["data"]) if document else None

    @guarded
    def for_plans(self, plan_ids: list[str]) -> dict[str, PlanActions]:
        """The computed actions of each plan that has them, by plan id (two queries)."""
        if not plan_ids:
            return {}
        ids = [object_id(plan_id, "plano / plan") for plan_id in plan_ids]
        plans = self.db["improvement_plan"].find(
            self._mine(_id={"$in": ids}), {"run_id": 1}, hint=BY_ID
        )
        run_of = {doc["run_id"]: str(doc["_id"]) for doc in plans if doc.get("run_id")}
        if not run_of:
            return {}
        found = self.col.find(
            self._mine(run_id={"$in": list(run_of)}), {"run_id": 1, "data": 1},
            hint=PLAN_ACTIONS_BY_RUN,
        )  # fmt: skip
        return {run_of[doc["run_id"]]: PlanActions.model_validate(doc["data"]) for doc in found}

    @guarded
    def save_scenario(self, run_id: str, name: str, scenario: dict[str, Any]) -> bool:
        """Keep a what-if scenario with the plan; one name holds one scenario (the newest)."""
        entry = {"name": name, "scenario": scenario, "saved_at": now()}
        query = self._mine(run_id=run_id)
        pull = {"$pull": {"scenarios": {"name": name}}}
        self.col.update_one(query, pull, hint=PLAN_ACTIONS_BY_RUN)
        push = {"$push": {"scenarios": entry}}
        result = self.col.update_one(query, push, hint=PLAN_ACTIONS_BY_RUN)
        return result.matched_count == 1

    @guarded
    def scenarios(self, run_id: str) -> list[dict[str, Any]]:
        """The scenarios saved with the plan, oldest first: name, scenario, saved_at."""
        document = (
            self.col.find_one(self._mine(run_id=run_id), {"scenarios": 1}, hint=PLAN_ACTIONS_BY_RUN)
            or {}
        )
        return list(document.get("scenarios", []))
