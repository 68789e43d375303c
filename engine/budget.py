"""Per-run budgets: model calls, tokens and cost, checked before every model call.

A breach stops the run with ``AekoBudgetExceededError``, which carries what the run had
already spent so it can be recorded. A call whose model has no known price counts against
the cost cap at the conservative estimate of ``engine.pricing``, never as 0. A run that
outlives its deadline stops before its next model call with ``AekoDeadlineError``.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from engine.dto import AekoModelCall, AekoUsage
from engine.errors import AekoBudgetExceededError, AekoDeadlineError
from engine.pricing import cap_cost

BUDGET_KEY = "budget"  # where a run's BudgetTracker travels: the run's configurable
DEFAULT_RUN_DEADLINE_S = 180.0
_DEFAULTS: dict[str, float | None] = {"deadline_s": DEFAULT_RUN_DEADLINE_S}


def set_default_deadline(seconds: float | None) -> None:
    """The deadline of every run whose budget names none (``Aeko.config(run_deadline_s=)``);
    None: no deadline."""
    _DEFAULTS["deadline_s"] = seconds


@dataclass(frozen=True)
class RunBudget:
    max_model_calls: int | None = None
    max_tokens: int | None = None  # input + output, summed over the run
    max_cost_usd: float | None = None  # e.g. what is left of a user's daily cap
    # Wall-clock seconds from the run's start, checked before each model call. None: the
    # configured default (``Aeko.config(run_deadline_s=)``, 180 s unless set otherwise).
    deadline_s: float | None = None

    @property
    def unlimited(self) -> bool:
        return (
            self.max_model_calls is None and self.max_tokens is None and self.max_cost_usd is None
        )


class BudgetTracker:
    """One run's spending. Shared by the run's parallel branches, hence the lock."""

    def __init__(self, budget: RunBudget | None) -> None:
        """``None``: no caps and no deadline; a ``RunBudget`` without a ``deadline_s`` gets
        the configured default deadline, counted from now."""
        self.budget = budget or RunBudget()
        deadline = _DEFAULTS["deadline_s"] if budget is not None else None
        self.deadline_s = budget.deadline_s if budget and budget.deadline_s else deadline
        self._lock = threading.Lock()
        self._calls: list[AekoModelCall] = []
        self._started = _clock()

    @property
    def usage(self) -> AekoUsage:
        with self._lock:
            return AekoUsage(calls=list(self._calls))

    def before_call(self, agent: str) -> None:
        budget = self.budget
        if self.deadline_s is not None:
            elapsed = _clock() - self._started
            if elapsed >= self.deadline_s:
                raise AekoDeadlineError(agent, "deadline_s", self.deadline_s, elapsed, self.usage)
        if budget.unlimited:
            return
        with self._lock:
            calls = len(self._calls)
            tokens = sum(c.input_tokens + c.output_tokens for c in self._calls)
            cost = sum(cap_cost(c.cost_usd, c.input_tokens, c.output_tokens) for c in self._calls)
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


def _clock() -> float:
    """Seconds on a monotonic clock; a seam for tests."""
    return time.monotonic()
