"""Budgets for a run from the settings: what is left of the user's daily cost cap."""

from __future__ import annotations

import streamlit as st

from components.context import AppContext
from components.i18n import t
from engine import AekoBudgetExceededError, RunBudget
from store import StoreError

_LIMIT_LABELS = {
    "model_calls": ("chamadas ao modelo", "model calls"),
    "tokens": ("tokens", "tokens"),
    "cost_usd": ("custo (US$)", "cost (US$)"),
}


def run_budget(context: AppContext) -> RunBudget | None:
    """The run's cost cap: the rest of today's allowance. Stops the page when none is left."""
    cap = context.settings.daily_cost_cap_usd
    if cap is None or context.store is None or context.user is None:
        return None
    try:
        spent = context.store.usage(context.user.id).totals_today().cost_usd
    except StoreError:
        spent = 0.0
    if spent >= cap:
        st.error(t("daily_cap_reached", cap=cap), icon=":material/savings:")
        st.stop()
    return RunBudget(max_cost_usd=cap - spent)


def explain_budget_error(error: AekoBudgetExceededError, language: str) -> str:
    pt, en = _LIMIT_LABELS.get(error.limit, (error.limit, error.limit))
    return t(
        "budget_exceeded",
        limit=pt if language == "pt" else en,
        used=error.used,
        allowed=error.allowed,
    )
