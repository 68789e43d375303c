"""A run stopped by its budget, explained in the user's words."""

from __future__ import annotations

from components.i18n import t
from engine import AekoBudgetExceededError

_LIMIT_LABELS = {
    "model_calls": ("chamadas ao modelo", "model calls"),
    "tokens": ("tokens", "tokens"),
    "cost_usd": ("custo (US$)", "cost (US$)"),
}


def explain_budget_error(error: AekoBudgetExceededError, language: str) -> str:
    pt, en = _LIMIT_LABELS.get(error.limit, (error.limit, error.limit))
    return t(
        "budget_exceeded",
        limit=pt if language == "pt" else en,
        used=error.used,
        allowed=error.allowed,
    )
