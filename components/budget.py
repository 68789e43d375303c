"""A run stopped by its budget or its deadline, a model that failed, and what was spent,
explained in the user's words."""

from __future__ import annotations

from components.i18n import TEXTS
from engine import AekoBudgetExceededError, AekoModelError, formatting
from engine.errors import AekoDeadlineError, LocalizedError
from store.repositories import UsageTotals

# Counts are whole (1.500.000 tokens, never 1.5e+06); a cost has its cents' cents.
_LIMIT_DECIMALS = {"cost_usd": 4, "deadline_s": 1}


def explain_budget_error(error: AekoBudgetExceededError | LocalizedError, language: str) -> str:
    # A deadline, the day's cap (``Workspace.day_ran_out``), or either as another process's
    # run ended with it: already in the user's words.
    if isinstance(error, AekoDeadlineError) or not isinstance(error, AekoBudgetExceededError):
        return error.message(language)
    named = f"budget_{error.limit}"  # a limit the table does not name reads as its id
    limit = TEXTS(named, language) if named in TEXTS else error.limit
    decimals = _LIMIT_DECIMALS.get(error.limit, 0)
    return TEXTS(
        "budget_exceeded",
        language,
        limit=limit,
        used=formatting.number(error.used, decimals, language),
        allowed=formatting.number(error.allowed, decimals, language),
    )


def explain_model_error(error: AekoModelError, language: str) -> str:
    """What went wrong with the provider (key, request, rate limit, outage, timeout)."""
    return error.message(language)


def spent_text(totals: UsageTotals, language: str) -> str:
    """What runs cost, never a bare US$ 0 for runs whose price is unknown: those are named,
    with the conservative estimate the daily cap counts for them."""
    known = f"US$ {formatting.number(totals.cost_usd, 4, language)}"
    if not totals.estimated:
        return known
    runs = totals.unknown_cost_runs
    estimate = f"US$ {formatting.number(totals.cap_cost_usd, 4, language)}"
    if totals.cost_usd == 0 and runs == totals.runs:
        return TEXTS("spent_unknown", language, estimate=estimate)
    counted = (
        TEXTS("spent_runs_one", language)
        if runs == 1
        else TEXTS("spent_runs", language, n=formatting.number(runs, 0, language))
    )
    return TEXTS("spent_partly_unknown", language, known=known, runs=counted, estimate=estimate)
