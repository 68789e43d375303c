"""What a use case works on: one signed-in user's data in the store, and the waiting writes.

Also what a run spent: ``RunSpending`` records a run's usage exactly once, whatever the run's
outcome (answered, rejected, failed, stopped by its budget, interrupted), and the daily cap
reads today's spending from the database, or, while it is away, from the last value it gave
plus what this process wrote since and what waits in the outbox: never as 0.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

from application.outbox import Outbox, Write
from engine import AekoUser, RunBudget
from engine.dto import AekoModelCall, AekoUsage
from engine.errors import AekoModelError, LocalizedError
from engine.events import AgentFinished
from engine.pricing import usage_cap_cost
from store import Store, StoreError

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Workspace:
    store: Store
    user: AekoUser
    outbox: Outbox
    daily_cost_cap_usd: float | None = None

    def run_budget(self) -> RunBudget | None:
        """The next run's cost cap: what is left of today's allowance.

        Raises ``DailyCapReachedError`` when nothing is left, before anything is spent, and
        ``DailyCapUnverifiedError`` (a kind of it) when today's spending cannot be known.
        """
        cap = self.daily_cost_cap_usd
        if cap is None:
            return None
        spent = self.spent_today()
        if spent is None:
            raise DailyCapUnverifiedError(cap)
        if spent >= cap:
            raise DailyCapReachedError(cap)
        return RunBudget(max_cost_usd=cap - spent)

    def spent_today(self) -> float | None:
        """US$ spent since midnight UTC as a cap counts it (unknown prices at the
        conservative estimate), the outbox's waiting usage included. With the database
        away: the last value it gave, plus what was written since; None if it never gave one
        today."""
        user_id = str(self.user.id)
        try:
            stored: float | None = self.store.usage(self.user.id).totals_today().cap_cost_usd
        except StoreError:
            stored = SPENT.last_known(user_id)
        else:
            SPENT.remember(user_id, stored)
        if stored is None:
            return None
        return stored + queued_usage_cost(self.outbox)


class DailyCapReachedError(LocalizedError):
    def __init__(self, cap: float) -> None:
        self.cap = cap
        super().__init__(
            f"O limite diário de custo (US$ {cap:.2f}) foi atingido: novas perguntas amanhã, "
            "ou peça para ampliar o limite.",
            f"The daily cost cap (US$ {cap:.2f}) has been reached: ask again tomorrow, or "
            "have the cap raised.",
        )


class DailyCapUnverifiedError(DailyCapReachedError):
    """The database is away and this process never read today's spending: the cap cannot
    be checked, so no run starts (a cap read as 0 would be no cap)."""

    def __init__(self, cap: float) -> None:
        LocalizedError.__init__(
            self,
            f"Não foi possível conferir o gasto de hoje contra o limite diário (US$ {cap:.2f}): "
            "o banco de dados não responde. Tente de novo quando ele voltar.",
            f"Today's spending could not be checked against the daily cap (US$ {cap:.2f}): "
            "the database does not answer. Try again once it is back.",
        )
        self.cap = cap


@dataclass
class _SpentLedger:
    """Per user, today's spending as the database last gave it plus what was written
    directly since: what the cap reads while the database is away. Process-wide, since a
    Streamlit rerun builds a new Workspace."""

    _days: dict[str, tuple[date, float]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def remember(self, user_id: str, spent: float) -> None:
        with self._lock:
            self._days[user_id] = (_today(), spent)

    def add(self, user_id: str, cost: float) -> None:
        with self._lock:
            day, spent = self._days.get(user_id, (_today(), None))  # type: ignore[arg-type]
            if spent is None:
                return  # never read: a write alone does not say what today's total is
            self._days[user_id] = (_today(), (spent if day == _today() else 0.0) + cost)

    def last_known(self, user_id: str) -> float | None:
        with self._lock:
            known = self._days.get(user_id)
        if known is None:
            return None
        day, spent = known
        return spent if day == _today() else 0.0  # a new day started since

    def clear(self) -> None:
        with self._lock:
            self._days.clear()


SPENT = _SpentLedger()


def _today() -> date:
    return datetime.now(UTC).date()


def queued_usage_cost(outbox: Outbox) -> float:
    """What the usage writes waiting in the outbox count against a cap."""
    total = 0.0
    for write in list(getattr(outbox, "queued", ()) or ()):
        if getattr(write, "kind", None) == "record_usage":
            total += usage_cap_cost(_as_usage(write.args.get("usage")))
    return total


def _as_usage(value: Any) -> AekoUsage:
    if isinstance(value, AekoUsage):
        return value
    if isinstance(value, dict):
        return AekoUsage.model_validate({"calls": value.get("calls", [])})
    return AekoUsage()


def model_call(event: AgentFinished) -> AekoModelCall:
    """What an agent's finished work cost, as a usage record keeps it."""
    return AekoModelCall(
        agent=event.agent,
        model=event.model,
        input_tokens=event.input_tokens,
        output_tokens=event.output_tokens,
        duration_ms=event.duration_ms,
        cost_usd=event.cost_usd,
        retries=event.retries,
    )


class RunSpending:
    """One run's usage, recorded once whatever its outcome.

    Feed it the run's events (``observe``): an ``AgentFinished`` says what that agent's
    calls cost, so a run that dies before handing back its usage still has a record. The
    usage an outcome brings (an error's ``usage``, the response's) wins when it has one.
    ``close`` from a ``finally`` records a run that no outcome recorded: "failed" after an
    exception, "interrupted" after Streamlit's rerun or stop, a closed stream, Ctrl-C.
    """

    def __init__(
        self,
        workspace: Workspace,
        run_id: str,
        flow: str,
        *,
        session_id: str | None = None,
        inventory_number: int | None = None,
    ) -> None:
        self.workspace = workspace
        self.run_id = run_id
        self.flow = flow
        self.session_id = session_id
        self.inventory_number = inventory_number
        self.outcome: str | None = None
        self._seen: list[AekoModelCall] = []

    def observe(self, event: object) -> None:
        if isinstance(event, AgentFinished):
            self._seen.append(model_call(event))

    @property
    def seen(self) -> AekoUsage:
        return AekoUsage(calls=list(self._seen))

    def record(self, outcome: str, usage: AekoUsage | None = None) -> bool:
        """Write the usage with its outcome (once: a second call changes nothing). True
        when it reached the database, False when it waits in the outbox."""
        if self.outcome is not None:
            return False
        self.outcome = outcome
        spent = usage if usage is not None and usage.calls else self.seen
        workspace = self.workspace
        write = Write.usage(
            workspace.user.id,
            self.run_id,
            self.flow,
            spent,
            outcome=outcome,
            session_id=self.session_id,
            inventory_number=self.inventory_number,
        )
        try:
            saved = workspace.outbox.submit(workspace.store, write)
        except Exception:  # a record must never turn an outcome into a crash
            log.exception("usage of run %s could not be recorded", self.run_id)
            return False
        if saved:
            SPENT.add(str(workspace.user.id), usage_cap_cost(spent))
        return saved

    def recorded_elsewhere(self, outcome: str, usage: AekoUsage) -> None:
        """The usage was written by other code (the turn's own persistence): only mark it,
        and count it in today's spending if it reached the database."""
        if self.outcome is not None:
            return
        self.outcome = outcome
        waiting = any(
            getattr(write, "kind", None) == "record_usage"
            and write.args.get("run_id") == self.run_id
            for write in list(getattr(self.workspace.outbox, "queued", ()) or ())
        )
        if not waiting:
            SPENT.add(str(self.workspace.user.id), usage_cap_cost(usage))

    def close(self, error: BaseException | None) -> None:
        """From a ``finally``: record the run if no outcome did."""
        if self.outcome is None:
            self.record("failed" if isinstance(error, Exception) else "interrupted")

    def model_error(self, error: AekoModelError) -> None:
        """Log a model failure: agent, model, status, run id; the provider's own message
        only at debug level. Never the key, the prompt or the user's text."""
        log.warning(
            "model error: run=%s flow=%s agent=%s model=%s status=%s type=%s kind=%s",
            self.run_id,
            self.flow,
            error.agent,
            error.model,
            error.status,
            error.error_type,
            error.kind,
        )
        if error.provider_message:
            log.debug("model error detail: run=%s %s", self.run_id, error.provider_message)
