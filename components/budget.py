"""A run stopped by its budget or its deadline, a model that failed, and what was spent,
explained in the user's words."""

from __future__ import annotations

from components.i18n import t
from engine import AekoBudgetExceededError, AekoModelError
from engine.errors import AekoDeadlineError
from store.repositories import UsageTotals

_LIMIT_LABELS = {
    "model_calls": ("chamadas ao modelo", "model calls"),
    "tokens": ("tokens", "tokens"),
    "cost_usd": ("custo (US$)", "cost (US$)"),
    "deadline_s": ("tempo (s)", "time (s)"),
}


def explain_budget_error(error: AekoBudgetExceededError, language: str) -> str:
    if isinstance(error, AekoDeadlineError):
        return error.message(language)
    pt, en = _LIMIT_LABELS.get(error.limit, (error.limit, error.limit))
    return t(
        "budget_exceeded",
        limit=pt if language == "pt" else en,
        used=error.used,
        allowed=error.allowed,
    )


def explain_model_error(error: AekoModelError, language: str) -> str:
    """What went wrong with the provider (key, request, rate limit, outage, timeout)."""
    return error.message(language)


def spent_text(totals: UsageTotals, language: str) -> str:
    """What runs cost, never a bare US$ 0 for runs whose price is unknown: those are named,
    with the conservative estimate the daily cap counts for them."""
    pt = language == "pt"
    known = f"US$ {totals.cost_usd:.4f}"
    if not totals.estimated:
        return known
    runs = totals.unknown_cost_runs
    estimate = f"US$ {totals.cap_cost_usd:.4f}"
    if totals.cost_usd == 0 and runs == totals.runs:
        return (
            f"custo desconhecido (estimativa conservadora: até {estimate})"
            if pt
            else f"unknown cost (conservative estimate: up to {estimate})"
        )
    return (
        f"{known} + {runs} execução(ões) de preço desconhecido (estimativa: até {estimate})"
        if pt
        else f"{known} + {runs} run(s) of unknown price (estimate: up to {estimate})"
    )
