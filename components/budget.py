"""A run stopped by its budget or its deadline, a model that failed, and what was spent,
explained in the user's words."""

from __future__ import annotations

from components.i18n import t
from engine import AekoBudgetExceededError, AekoModelError, formatting
from engine.errors import AekoDeadlineError
from store.repositories import UsageTotals

_LIMIT_LABELS = {
    "model_calls": ("chamadas ao modelo", "model calls"),
    "tokens": ("tokens", "tokens"),
    "cost_usd": ("custo (US$)", "cost (US$)"),
    "deadline_s": ("tempo (s)", "time (s)"),
}
# Counts are whole (1.500.000 tokens, never 1.5e+06); a cost has its cents' cents.
_LIMIT_DECIMALS = {"cost_usd": 4, "deadline_s": 1}


def explain_budget_error(error: AekoBudgetExceededError, language: str) -> str:
    if isinstance(error, AekoDeadlineError):
        return error.message(language)
    pt, en = _LIMIT_LABELS.get(error.limit, (error.limit, error.limit))
    decimals = _LIMIT_DECIMALS.get(error.limit, 0)
    return t(
        "budget_exceeded",
        limit=pt if language == "pt" else en,
        used=formatting.number(error.used, decimals, language),
        allowed=formatting.number(error.allowed, decimals, language),
    )


def explain_model_error(error: AekoModelError, language: str) -> str:
    """What went wrong with the provider (key, request, rate limit, outage, timeout)."""
    return error.message(language)


def spent_text(totals: UsageTotals, language: str) -> str:
    """What runs cost, never a bare US$ 0 for runs whose price is unknown: those are named,
    with the conservative estimate the daily cap counts for them."""
    pt = language == "pt"
    known = f"US$ {formatting.number(totals.cost_usd, 4, language)}"
    if not totals.estimated:
        return known
    runs = totals.unknown_cost_runs
    estimate = f"US$ {formatting.number(totals.cap_cost_usd, 4, language)}"
    if totals.cost_usd == 0 and runs == totals.runs:
        return (
            f"custo desconhecido (estimativa conservadora: até {estimate})"
            if pt
            else f"unknown cost (conservative estimate: up to {estimate})"
        )
    if pt:
        counted = "1 execução" if runs == 1 else f"{formatting.number(runs, 0, language)} execuções"
        return f"{known} + {counted} de preço desconhecido (estimativa: até {estimate})"
    counted = "1 run" if runs == 1 else f"{formatting.number(runs, 0, language)} runs"
    return f"{known} + {counted} of unknown price (estimate: up to {estimate})"
