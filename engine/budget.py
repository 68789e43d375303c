"""Per-run budgets: model calls, tokens and cost, checked before every model call.

A breach stops the run with ``AekoBudgetExceededError``, which carries what the run had
already spent so it can be recorded.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from engine.dto import AekoModelCall, AekoUsage
from engine.errors import AekoBudgetExceededError

BUDGET_KEY = "budget"  # where a run's BudgetTracker travels: the run's configurable


@dataclass(frozen=True)
class RunBudget:
    max_model_calls: int | None = None
    max_tokens: int | None = None  # input + output, summed over the run
    max_cost_usd: float | None = None  # e.g. what is left of a user's daily cap

    @property
    def unlimited(self) -> bool:
        return (
            self.max_model_calls is None and self.max_tokens is None and self.max_cost_usd is None
        )


class BudgetTracker:
    """One run's spending. Shared by the run's parallel branches, hence the lock."""

    def __init__(self, budget: RunBudget | None) -> None:
        self.budget = budget or RunBudget()
        self._lock = threading.Lock()
        self._calls: list[AekoModelCall] = []

    @property
    def usage(self) -> AekoUsage:
        with self._lock:
            return AekoUsage(calls=list(self._calls))

    def before_call(self, agent: str) -> None:
        budget = self.budget
        if budget.unlimited:
            return
        with self._lock:
            calls = len(self._calls)
            tokens = sum(c.input_tokens + c.output_tokens for c in self._calls)
            cost = sum(c.cost_usd or 0.0 for c in self._calls)
        for limit, allowed, used in (
            ("model_calls", budget.max_model_calls, calls + 1),
            ("tokens", budget.max_tokens, tokens),
            ("cost_usd", budget.max_cost_usd, cost),
        ):
            if allowed is None:
                continue
            # The next call would be one too many; tokens and cost are already spent.
            if (used > allowed) if limit == "model_calls" else (used >= allowed):
                raise AekoBudgetExceededError(agent, limit, allowed, used, self.usage)

    def record(self, call: AekoModelCall) -> None:
        with self._lock:
            self._calls.append(call)
