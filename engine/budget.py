"""Per-run budgets: model calls, tokens and cost, checked before every model call.

A breach stops the run with ``AekoBudgetExceededError``, which carries what the run had
already spent so it can be recorded. A call whose model has no known price counts against
the cost cap at the conservative estimate of ``engine.pricing``, never as 0. A run that
outlives its deadline stops before its next model call with ``AekoDeadlineError``.

The cost cap is checked against each call's worst case, not only against what was spent: a
run's cost cap is its reservation of a user's daily cap, shared by every app process
(``store.repositories.spending``), so a run that went past it by its last call would let
the day's spending pass the cap. A call starts only if what the run spent, plus what its
calls in flight may still cost, plus this call's worst case (its estimated input and the
model's whole output allowance, at that model's price) stays within the cap.
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
        self._in_flight_usd = 0.0  # the worst cases of calls started and not yet recorded
        self._started = _clock()

    @property
    def caps_cost(self) -> bool:
        """Whether calls must state their worst-case cost to ``before_call``."""
        return self.budget.max_cost_usd is not None

    @property
    def usage(self) -> AekoUsage:
        with self._lock:
            return AekoUsage(calls=list(self._calls))

    def before_call(self, agent: str, worst_case_usd: float = 0.0) -> None:
        """Refuse the next call when a cap would be passed; else count ``worst_case_usd``
        (what the call may cost at most) as in flight until ``record``."""
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
            spent = sum(cap_cost(c.cost_usd, c.input_tokens, c.output_tokens) for c in self._calls)
            committed = spent + self._in_flight_usd
            for limit, allowed, used in (
                ("model_calls", budget.max_model_calls, calls + 1),
                ("tokens", budget.max_tokens, tokens),
                ("cost_usd", budget.max_cost_usd, committed + worst_case_usd),
            ):
                if allowed is None:
                    continue
                # The next call would be one too many; tokens are already spent; the cost is
                # what the run would reach at worst, so it refuses what could pass the cap.
                if limit == "model_calls":
                    refused = used > allowed
                elif limit == "tokens":
                    refused = used >= allowed
                else:
                    refused = committed >= allowed or used > allowed
                if refused:
                    raise AekoBudgetExceededError(
                        agent, limit, allowed, used, AekoUsage(calls=list(self._calls))
                    )
            self._in_flight_usd += worst_case_usd

    def record(self, call: AekoModelCall, worst_case_usd: float = 0.0) -> None:
        """Count a finished call, no longer in flight at ``worst_case_usd``."""
        with self._lock:
            self._calls.append(call)
            self._in_flight_usd = max(self._in_flight_usd - worst_case_usd, 0.0)


def _clock() -> float:
    """Seconds on a monotonic clock; a seam for tests."""
    return time.monotonic()
