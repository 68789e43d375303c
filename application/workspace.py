"""What a use case works on: one signed-in user's data in the store, and the waiting writes.

Also what a run spent: ``RunSpending`` records a run's usage exactly once, whatever the run's
outcome (answered, rejected, failed, stopped by its budget, interrupted).

The daily cap adds up across processes (``store.repositories.spending``): before a run
starts, ``Workspace.run_budget`` *reserves* part of today's allowance in the database with
one conditional ``$inc``, and the run's engine budget is what it reserved, so the engine
stops it within what it holds. When the run ends, its ``RunSpending`` writes the usage and
then *settles* the reservation at what the run actually cost (its finished calls, for a run
interrupted or cut). However many app processes or tabs run at once, what they hold and
spent never exceeds the cap: the engine starts a call only if its worst case fits in what
the run holds (``engine.budget``). When what is left of the day cannot pay a first call, the
run is refused before it calls anything and the user reads that today's allowance is used up
(``Workspace.day_ran_out``).

How much a run reserves: ``min(what is left, run_share × cap)``, ``run_share`` one half by
default. The whole remainder would keep a lone run's budget as it was, but would refuse a
chat turn while an analysis runs in its worker (runs outlive the page), a common pairing; a
small share would cut a lone analysis that needs more short while the day has room. Half
lets two runs go side by side and costs a lone run only what it would rarely need: a run
worth more than half a day's allowance is the exception a cap is there to stop.

While the database is away the cap reads, per user, the last day it gave (what was spent and
held then), plus what this process holds for runs it started since and the usage waiting in
the outbox: never 0. A process that never read today's spending starts no capped run
(``DailyCapUnverifiedError``). Those runs reserve nothing in the database; their usage,
written when it is back, is counted by the next reservation's ``reconcile``.
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
from engine.errors import AekoBudgetExceededError, AekoModelError, LocalizedError
from engine.events import AgentFinished
from engine.pricing import usage_cap_cost
from engine.texts import Texts
from store import Store, StoreError
from store.repositories.spending import CapReached, DaySpending, day_key

log = logging.getLogger(__name__)

RUN_SHARE = 0.5  # of the daily cap, the most one run reserves (see the module docstring)


@dataclass(frozen=True)
class Workspace:
    store: Store
    user: AekoUser
    outbox: Outbox
    daily_cost_cap_usd: float | None = None
    run_share: float = RUN_SHARE
    # Chat turns are enqueued for a worker process (application/worker.py), not run here.
    runs_in_worker: bool = False

    def run_budget(self, run_id: str) -> RunBudget | None:
        """Reserve run ``run_id``'s part of today's allowance; its cost cap is what it got.

        Raises, before anything is spent: ``DailyCapReachedError`` when the day's allowance
        is spent, ``DailyCapHeldError`` (a kind of it) when what is left is held by runs in
        progress, ``DailyCapUnverifiedError`` (another kind) when today's spending cannot
        be known. A second call for the same run id reserves nothing more."""
        cap = self.daily_cost_cap_usd
        if cap is None:
            return None
        user_id, today = str(self.user.id), _today()
        most = self._most(cap)
        waiting = queued_usage(self.outbox)
        try:
            spending = self.store.spending(self.user.id)
            spending.reconcile(today)
            held = spending.reserve(today, run_id, cap_usd=cap, most_usd=most, waiting=waiting)
        except CapReached as reached:
            SPENT.remember(user_id, reached.day)
            unknown = sum(cost for rid, cost in waiting.items() if not reached.day.knows(rid))
            if reached.day.spent_usd + unknown < cap:
                raise DailyCapHeldError(cap) from None
            raise DailyCapReachedError(cap) from None
        except StoreError:
            return self._budget_offline(run_id, cap, most)
        SPENT.remember(user_id, held.after)
        SPENT.hold(run_id, _Hold(user_id, held.day, held.usd, in_db=True))
        return RunBudget(max_cost_usd=held.usd)

    def day_ran_out(
        self, run_id: str, error: AekoBudgetExceededError
    ) -> DailyCapReachedError | None:
        """The day's cap, not the run's, when a run's cost cap refused its very first call
        and what the run had reserved was only what was left of the day: no call can be
        paid within that remainder (each is checked at its worst case, ``engine.budget``),
        so the user reads that today's allowance is used up, not a run limit's figures."""
        cap = self.daily_cost_cap_usd
        if cap is None or error.limit != "cost_usd" or (error.usage and error.usage.calls):
            return None
        hold = SPENT.held(run_id)
        most = self._most(cap)
        if hold is None or hold.usd >= most:
            return None
        return DailyCapReachedError(cap)

    def _most(self, cap: float) -> float:
        """The most one run reserves of the day's ``cap`` (``run_share`` of it)."""
        return cap * min(max(self.run_share, 0.0), 1.0) or cap

    def _budget_offline(self, run_id: str, cap: float, most: float) -> RunBudget:
        """The database is away: what this process last knew, its own holds, the outbox."""
        user_id = str(self.user.id)
        already = SPENT.held(run_id)
        if already is not None:
            return RunBudget(max_cost_usd=already.usd)
        counted = self._counted_offline()
        if counted is None:
            raise DailyCapUnverifiedError(cap)
        left = cap - counted
        if left <= 0:
            raise DailyCapReachedError(cap)
        amount = min(left, most)
        SPENT.hold(run_id, _Hold(user_id, day_key(_today()), amount, in_db=False))
        return RunBudget(max_cost_usd=amount)

    def _counted_offline(self) -> float | None:
        known = SPENT.last_known(str(self.user.id))
        if known is None:
            return None
        return known + sum(queued_usage(self.outbox).values())

    def release(self, run_id: str) -> None:
        """Give back what run ``run_id`` reserved: it never started, so it spent nothing."""
        hold = SPENT.release(run_id)
        if hold is None or not hold.in_db:
            return
        try:
            after = self.store.spending(self.user.id).settle(hold.day, run_id, 0.0)
        except StoreError:  # stays held (counted) until the day ends: never less
            log.warning("the reservation of run %s could not be given back", run_id)
        else:
            SPENT.remember(str(self.user.id), after)

    def spent_today(self) -> float | None:
        """US$ today's cap counts since midnight UTC: spent (unknown prices at the
        conservative estimate) and held by runs in progress, in every process, plus the
        usage waiting in the outbox. With the database away: the last value it gave, plus
        what this process started since; None if it never gave one today."""
        try:
            day = self.store.spending(self.user.id).reconcile(_today())
        except StoreError:
            return self._counted_offline()
        SPENT.remember(str(self.user.id), day)
        waiting = queued_usage(self.outbox)
        return day.committed_usd + sum(c for rid, c in waiting.items() if not day.knows(rid))


_TEXTS = Texts(
    "application.workspace",
    {
        "cap_reached": {
            "pt": "O limite diário de custo (US$ {cap:.2f}) foi atingido: novas perguntas "
            "amanhã, ou peça para ampliar o limite.",
            "en": "The daily cost cap (US$ {cap:.2f}) has been reached: ask again tomorrow, or "
            "have the cap raised.",
        },
        "cap_held": {
            "pt": "O que resta do limite diário de custo (US$ {cap:.2f}) está reservado para "
            "execuções em andamento: tente de novo quando uma delas terminar.",
            "en": "What is left of the daily cost cap (US$ {cap:.2f}) is held by runs in "
            "progress: try again once one of them ends.",
        },
        "cap_unverified": {
            "pt": "Não foi possível conferir o gasto de hoje contra o limite diário "
            "(US$ {cap:.2f}): o banco de dados não responde. Tente de novo quando ele voltar.",
            "en": "Today's spending could not be checked against the daily cap (US$ {cap:.2f}): "
            "the database does not answer. Try again once it is back.",
        },
    },
)


class DailyCapReachedError(LocalizedError):
    def __init__(self, cap: float) -> None:
        self.cap = cap
        super().__init__(_TEXTS.both("cap_reached", cap=cap))


class DailyCapHeldError(DailyCapReachedError):
    """What is left of today's allowance is held by runs in progress (in this tab, another
    one, another app process): a new run waits until one of them ends."""

    def __init__(self, cap: float) -> None:
        LocalizedError.__init__(self, _TEXTS.both("cap_held", cap=cap))
        self.cap = cap


class DailyCapUnverifiedError(DailyCapReachedError):
    """The database is away and this process never read today's spending: the cap cannot
    be checked, so no run starts (a cap read as 0 would be no cap)."""

    def __init__(self, cap: float) -> None:
        LocalizedError.__init__(self, _TEXTS.both("cap_unverified", cap=cap))
        self.cap = cap


@dataclass(frozen=True)
class _Hold:
    """What this process holds of a user's day for one of its runs: reserved in the database
    (``in_db``), or only here, for a run started while the database was away."""

    user_id: str
    day: str
    usd: float
    in_db: bool


@dataclass
class _SpentLedger:
    """Per user, today's spending as the database last gave it (spent and held, every
    process's), and the runs this process holds allowance for: what the cap reads while the
    database is away. Process-wide, since a Streamlit rerun builds a new Workspace."""

    _days: dict[str, tuple[date, float]] = field(default_factory=dict)
    _holds: dict[str, _Hold] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def remember(self, user_id: str, day: DaySpending) -> None:
        """The day as the database just gave it (it counts this process's runs reserved in
        it, so only the holds it does not count stay on top)."""
        with self._lock:
            if day.day == day_key(_today()):
                self._days[user_id] = (_today(), day.committed_usd)

    def add(self, user_id: str, cost: float) -> None:
        """A cost the database took that the last day it gave does not count yet."""
        with self._lock:
            known = self._days.get(user_id)
            if known is None:
                return  # never read: a write alone does not say what today's total is
            day, committed = known
            self._days[user_id] = (_today(), (committed if day == _today() else 0.0) + cost)

    def hold(self, run_id: str, hold: _Hold) -> None:
        with self._lock:
            self._holds[run_id] = hold

    def held(self, run_id: str) -> _Hold | None:
        with self._lock:
            return self._holds.get(run_id)

    def release(self, run_id: str) -> _Hold | None:
        with self._lock:
            return self._holds.pop(run_id, None)

    def last_known(self, user_id: str) -> float | None:
        today = day_key(_today())
        with self._lock:
            known = self._days.get(user_id)
            offline = sum(
                h.usd
                for h in self._holds.values()
                if h.user_id == user_id and not h.in_db and h.day == today
            )
        if known is None:
            return None
        day, committed = known
        return (committed if day == _today() else 0.0) + offline  # a new day started since

    def clear(self) -> None:
        with self._lock:
            self._days.clear()
            self._holds.clear()


SPENT = _SpentLedger()


def _today() -> date:
    return datetime.now(UTC).date()


def queued_usage(outbox: Outbox) -> dict[str, float]:
    """What each run's usage waiting in the outbox counts against a cap, by run id."""
    waiting: dict[str, float] = {}
    for write in list(getattr(outbox, "queued", ()) or ()):
        if getattr(write, "kind", None) == "record_usage":
            run_id = str(write.args.get("run_id") or write.id)
            waiting[run_id] = usage_cap_cost(_as_usage(write.args.get("usage")))
    return waiting


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
    Once the usage is written, the run's reservation of the daily cap is settled at what
    the usage says it cost (the run's own code settles it: it holds the run).
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
        self._settle(usage_cap_cost(spent), saved=saved)
        return saved

    def recorded_elsewhere(self, outcome: str, usage: AekoUsage) -> None:
        """The usage was written by other code (the turn's own persistence): only mark it,
        and settle the run's reservation if the usage reached the database."""
        if self.outcome is not None:
            return
        self.outcome = outcome
        waiting = any(
            getattr(write, "kind", None) == "record_usage"
            and write.args.get("run_id") == self.run_id
            for write in list(getattr(self.workspace.outbox, "queued", ()) or ())
        )
        self._settle(usage_cap_cost(usage), saved=not waiting)

    def _settle(self, cost: float, *, saved: bool) -> None:
        """After the usage write: count what the run cost on the day it reserved on, and
        give back the rest of its reservation. Usage kept in the outbox counts there
        instead, and its reservation stays held in the database (never less) until the
        usage is written and reconciled."""
        workspace = self.workspace
        hold = SPENT.release(self.run_id)
        if not saved or (hold is None and workspace.daily_cost_cap_usd is None):
            return  # no cap: nothing to hold; a cap set later reconciles the usage records
        day = hold.day if hold is not None else day_key(_today())
        user_id = str(workspace.user.id)
        try:
            after = workspace.store.spending(workspace.user.id).settle(day, self.run_id, cost)
        except StoreError:
            if hold is None or not hold.in_db:  # counted nowhere else this process knows
                SPENT.add(user_id, cost)
            log.warning("the spending of run %s waits for the next reconcile", self.run_id)
        except Exception:  # a settle must never turn an outcome into a crash
            log.exception("the spending of run %s could not be settled", self.run_id)
        else:
            SPENT.remember(user_id, after)

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
