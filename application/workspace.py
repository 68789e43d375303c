"""What a use case works on: one signed-in user's data in the store, and the waiting writes."""

from __future__ import annotations

from dataclasses import dataclass

from application.outbox import Outbox
from engine import AekoUser, RunBudget
from engine.errors import LocalizedError
from store import Store, StoreError


@dataclass(frozen=True)
class Workspace:
    store: Store
    user: AekoUser
    outbox: Outbox
    daily_cost_cap_usd: float | None = None

    def run_budget(self) -> RunBudget | None:
        """The next run's cost cap: what is left of today's allowance.

        Raises ``DailyCapReachedError`` when nothing is left, before anything is spent.
        """
        cap = self.daily_cost_cap_usd
        if cap is None:
            return None
        try:
            spent = self.store.usage(self.user.id).totals_today().cost_usd
        except StoreError:
            spent = 0.0
        if spent >= cap:
            raise DailyCapReachedError(cap)
        return RunBudget(max_cost_usd=cap - spent)


class DailyCapReachedError(LocalizedError):
    def __init__(self, cap: float) -> None:
        self.cap = cap
        super().__init__(
            f"O limite diário de custo (US$ {cap:.2f}) foi atingido: novas perguntas amanhã, "
            "ou peça para ampliar o limite.",
            f"The daily cost cap (US$ {cap:.2f}) has been reached: ask again tomorrow, or "
            "have the cap raised.",
        )
