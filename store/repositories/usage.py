"""What every run consumed: one document per run, per call (agent, model, tokens, cost,
duration, retries). Totals per session, per user, per day are summed from it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from engine.dto import AekoUsage, Flow
from engine.pricing import estimated_call_cost, usage_cap_cost, usage_is_estimated
from store.documents import object_id
from store.indexes import USAGE_BY_RUN, USAGE_BY_SESSION, USAGE_BY_USER
from store.repositories.base import Repository, guarded, now

Outcome = Literal[
    "answered",
    "rejected",
    "plan",
    "budget_exceeded",
    "model_unavailable",
    "malformed",
    "failed",
    "interrupted",
]


@dataclass(frozen=True)
class UsageTotals:
    runs: int
    input_tokens: int
    output_tokens: int
    cost_usd: float  # the runs whose cost is known
    unknown_cost_runs: int  # runs with a model genai-prices does not price
    # What a cost cap counts: known costs, plus the runs of unknown price at the engine's
    # conservative estimate (``engine.pricing``). Equal to cost_usd when nothing is unknown.
    cap_cost_usd: float = 0.0

    @property
    def estimated(self) -> bool:
        """True when ``cap_cost_usd`` holds an estimate for runs of unknown price."""
        return self.unknown_cost_runs > 0


class UsageRepository(Repository):
    collection = "usage"

    @guarded
    def record(
        self,
        run_id: str,
        flow: Flow,
        usage: AekoUsage,
        *,
        outcome: Outcome,
        session_id: str | None = None,
        inventory_number: int | None = None,
    ) -> bool:
        """Store the run's usage once: a retried write of the same run changes nothing.

        One exception: usage recorded as "interrupted" (by whichever process found the run
        cut, from its finished calls) gives way to the usage its own run writes after all
        (a holder that was only slow): that one counts every call the estimate counted, and
        the calls after. So what is stored for a run is never less than what it spent."""
        document = {
            "run_id": run_id,
            "id_user": self.user_id,
            "flow": flow,
            "outcome": outcome,
            "id_session": object_id(session_id) if session_id else None,
            "id_external_inventory": inventory_number,
            "created_at": now(),
            "calls": [call.model_dump() for call in usage.calls],
            "input_tokens": usage.input_tokens,
            "output_tokens": usage.output_tokens,
            "cost_usd": usage.cost_usd,  # None: some call's price is unknown
            # What the run counts against a cost cap, estimated when cost_usd is None.
            "cap_cost_usd": usage_cap_cost(usage),
            "cost_estimated": usage_is_estimated(usage),
            "retries": sum(call.retries for call in usage.calls),
        }
        result = self.col.update_one(
            self._mine(run_id=run_id), {"$setOnInsert": document}, upsert=True, hint=USAGE_BY_RUN
        )
        if result.upserted_id is not None:
            return True
        if outcome == "interrupted":
            return False
        replaced = self.col.update_one(
            self._mine(run_id=run_id, outcome="interrupted"), {"$set": document}, hint=USAGE_BY_RUN
        )
        return replaced.modified_count == 1

    def totals_today(self) -> UsageTotals:
        """Since midnight UTC: what a daily cap is measured against."""
        start = now().replace(hour=0, minute=0, second=0, microsecond=0)
        return self.totals(since=start)

    @guarded
    def totals(
        self, *, session_id: str | None = None, since: datetime | None = None
    ) -> UsageTotals:
        """Sums over this user's runs: of one session, since a moment, or all of them."""
        if session_id is not None:
            query, hint = self._mine(id_session=object_id(session_id)), USAGE_BY_SESSION
        else:
            query, hint = self._mine(), USAGE_BY_USER
            if since is not None:
                query["created_at"] = {"$gte": since}
        projection = {"input_tokens": 1, "output_tokens": 1, "cost_usd": 1, "cap_cost_usd": 1}
        runs = list(self.col.find(query, projection, hint=hint))
        return UsageTotals(
            runs=len(runs),
            input_tokens=sum(r.get("input_tokens", 0) for r in runs),
            output_tokens=sum(r.get("output_tokens", 0) for r in runs),
            cost_usd=sum(r["cost_usd"] for r in runs if r.get("cost_usd") is not None),
            unknown_cost_runs=sum(r.get("cost_usd") is None for r in runs),
            cap_cost_usd=sum(_cap_cost(r) for r in runs),
        )


def _cap_cost(run: dict) -> float:
    """A stored run's cost against a cap; a run stored before ``cap_cost_usd`` existed and
    of unknown price is estimated on its whole tokens."""
    if run.get("cap_cost_usd") is not None:
        return float(run["cap_cost_usd"])
    if run.get("cost_usd") is not None:
        return float(run["cost_usd"])
    return estimated_call_cost(run.get("input_tokens", 0), run.get("output_tokens", 0))
