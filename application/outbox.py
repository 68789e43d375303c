"""Writes that could not reach the database, kept to be written when it is back.

The use cases write what a run produced (the turn, the plan, the usage) through here, so a
database that went away mid-run loses nothing the user already saw.

Every write here is idempotent by its run id, so retrying one that did reach the database
before the connection dropped changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from engine.actions.model import PlanActions
from engine.dto import AekoConversationSummary, AekoImprovementPlan, AekoMessage, AekoUsage
from store.client import Store
from store.errors import StoreUnavailableError

Kind = Literal[
    "complete_turn",
    "reject_turn",
    "save_plan",
    "save_plan_actions",
    "record_usage",
    "save_summary",
]


@dataclass(frozen=True)
class Write:
    kind: Kind
    user_id: str
    args: dict[str, Any]

    @classmethod
    def turn(
        cls,
        user_id: str,
        session_id: str,
        run_id: str,
        message: AekoMessage,
        meta: dict | None = None,
    ) -> Write:
        args = {"session_id": session_id, "run_id": run_id, "message": message, "meta": meta}
        return cls("complete_turn", user_id, args)

    @classmethod
    def rejection(
        cls,
        user_id: str,
        session_id: str,
        run_id: str,
        question: str,
        *,
        reasons: str,
        guardrail_retries: int,
    ) -> Write:
        return cls(
            "reject_turn",
            user_id,
            {
                "session_id": session_id,
                "run_id": run_id,
                "question": question,
                "reasons": reasons,
                "guardrail_retries": guardrail_retries,
            },
        )

    @classmethod
    def plan(cls, user_id: str, plan: AekoImprovementPlan, run_id: str) -> Write:
        return cls("save_plan", user_id, {"plan": plan, "run_id": run_id})

    @classmethod
    def plan_actions(
        cls, user_id: str, run_id: str, inventory_number: int, actions: PlanActions
    ) -> Write:
        return cls(
            "save_plan_actions",
            user_id,
            {"run_id": run_id, "id_external_inventory": inventory_number, "actions": actions},
        )

    @classmethod
    def usage(
        cls,
        user_id: str,
        run_id: str,
        flow: str,
        usage: AekoUsage,
        *,
        outcome: str,
        session_id: str | None = None,
        inventory_number: int | None = None,
    ) -> Write:
        return cls(
            "record_usage",
            user_id,
            {
                "run_id": run_id,
                "flow": flow,
                "usage": usage,
                "outcome": outcome,
                "session_id": session_id,
                "inventory_number": inventory_number,
            },
        )

    @classmethod
    def summary(cls, user_id: str, session_id: str, summary: AekoConversationSummary) -> Write:
        return cls("save_summary", user_id, {"session_id": session_id, "summary": summary})

    def apply(self, store: Store) -> None:
        if self.kind == "save_plan":
            store.plans(self.user_id).save(**self.args)
        elif self.kind == "save_plan_actions":
            store.plan_actions(self.user_id).save(**self.args)
        elif self.kind == "record_usage":
            store.usage(self.user_id).record(**self.args)
        else:
            getattr(store.sessions(self.user_id), self.kind)(**self.args)


@dataclass
class Outbox:
    queued: list[Write] = field(default_factory=list)

    def submit(self, store: Store, write: Write) -> bool:
        """Write now if the database answers; otherwise keep it. True when it was written."""
        self.flush(store)
        if self.queued:
            self.queued.append(write)
            return False
        try:
            write.apply(store)
        except StoreUnavailableError:
            self.queued.append(write)
            return False
        return True

    def flush(self, store: Store) -> int:
        """Write what was kept, in order, until the first failure. Returns how many."""
        written = 0
        while self.queued:
            try:
                self.queued[0].apply(store)
            except StoreUnavailableError:
                break
            self.queued.pop(0)
            written += 1
        return written
