"""The daily cost cap adds up across app processes: what every process's runs hold and spend
never passes the cap, against the real wire-protocol server the suite uses.

Each simulated process is a thread with a pymongo client of its own and a Store and Workspace
of its own, so nothing but the database is shared between them for the cap.
"""

from __future__ import annotations

import os
import threading
from datetime import timedelta
from uuid import uuid4

import pytest
from bson import ObjectId
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pymongo import MongoClient

from application import chat
from application.outbox import Outbox
from application.workspace import (
    SPENT,
    DailyCapHeldError,
    DailyCapReachedError,
    DailyCapUnverifiedError,
    RunSpending,
    Workspace,
)
from engine.dto import AekoModelCall, AekoUsage, utc_now
from engine.events import AgentFinished
from store.client import Store
from store.repositories.spending import PICO, CapReached, to_pusd

PROCESSES = 3
WAIT_S = 30


@pytest.fixture(autouse=True)
def _no_process_memory():
    SPENT.clear()
    yield
    SPENT.clear()


@pytest.fixture
def processes(db_store, mongo):
    """PROCESSES app processes' stores on the test database: a client each."""
    uri = os.environ.get("MONGODB_URI") or mongo.server.uri
    clients = [MongoClient(uri, tz_aware=True) for _ in range(PROCESSES)]
    yield [Store(client, client[db_store.db.name], db_store.target) for client in clients]
    for client in clients:
        client.close()


def _user(store: Store):
    return store.users.get_or_create(int(uuid4().int % 10**9))


def _workspaces(stores: list[Store], user, cap: float, share: float = 0.5) -> list[Workspace]:
    # The user as each process reads it, with its own outbox.
    return [Workspace(s, s.users.get_or_create(user.id_external_user), Outbox(), cap, share)
            for s in stores]  # fmt: skip


def _costing(usd: float) -> AekoUsage:
    return AekoUsage(calls=[AekoModelCall(agent="FAQ", model="x", input_tokens=1, cost_usd=usd)])


def _day(store: Store, user):
    return store.spending(user.id).day(utc_now().date())


def _usage_pusd(store: Store, user) -> int:
    """What the user's usage records say they cost, in the day document's unit."""
    found = store.db["usage"].find({"id_user": ObjectId(str(user.id))}, {"cap_cost_usd": 1})
    return sum(to_pusd(record["cap_cost_usd"]) for record in found)


def _consistent(day, cap: float) -> None:
    assert day.committed_pusd == day.spent_pusd + sum(day.reservations.values())
    assert day.committed_pusd <= to_pusd(cap, up=False)
    assert day.spent_pusd <= to_pusd(cap, up=False)


# A process's runs: what share of its budget each spends, and whether the process dies
# before that run ends.
RUNS = st.lists(st.tuples(st.floats(0.0, 1.0), st.booleans()), min_size=1, max_size=6)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    cap=st.floats(0.01, 5.0),
    share=st.sampled_from([1.0, 0.5, 0.25]),
    plans=st.lists(RUNS, min_size=PROCESSES, max_size=PROCESSES),
)
def test_processes_racing_for_the_daily_cap_never_spend_more_than_it(processes, cap, share, plans):
    user = _user(processes[0])
    workspaces = _workspaces(processes, user, cap, share)
    start = threading.Barrier(PROCESSES)
    problems: list[BaseException] = []
    stop = threading.Event()

    def process(workspace: Workspace, runs) -> None:
        try:
            start.wait(WAIT_S)
            for fraction, dies in runs:
                run_id = uuid4().hex
                try:
                    budget = workspace.run_budget(run_id)
                except DailyCapReachedError:
                    continue
                spend = budget.max_cost_usd * fraction  # a run spends within what it holds
                if dies:
                    continue  # the process died mid-run: its reservation stays held
                RunSpending(workspace, run_id, "chat").record("answered", _costing(spend))
        except BaseException as error:
            problems.append(error)

    def watch() -> None:  # every state the database passes through is consistent
        while not stop.is_set():
            try:
                _consistent(_day(processes[0], user), cap)
            except BaseException as error:
                problems.append(error)
                return

    watcher = threading.Thread(target=watch)
    watcher.start()
    pairs = zip(workspaces, plans, strict=True)
    threads = [threading.Thread(target=process, args=pair) for pair in pairs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT_S * 4)
    stop.set()
    watcher.join(WAIT_S)
    assert not problems, problems
    day = _day(processes[0], user)
    _consistent(day, cap)
    # Every recorded run counted once, at what its usage record says it cost.
    assert day.spent_pusd == _usage_pusd(processes[0], user)
    dead = sum(dies for runs in plans for _, dies in runs)
    assert len(day.reservations) <= dead  # only runs whose process died still hold


def _race(*workspaces: Workspace) -> tuple[list, list]:
    """Every workspace asks for a run's budget at the same moment."""
    start = threading.Barrier(len(workspaces))
    budgets, refusals = [], []

    def race(workspace: Workspace) -> None:
        start.wait(WAIT_S)
        try:
            budgets.append(workspace.run_budget(uuid4().hex))
        except DailyCapHeldError as held:
            refusals.append(held)

    threads = [threading.Thread(target=race, args=(w,)) for w in workspaces]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT_S)
    return budgets, refusals


def test_two_processes_racing_for_the_last_remainder_one_wins(processes):
    for _ in range(10):  # each round a new user, a fresh race
        user = _user(processes[0])
        first, second = _workspaces(processes[:2], user, cap=1.0, share=1.0)
        spent = uuid4().hex
        first.run_budget(spent)
        RunSpending(first, spent, "chat").record("answered", _costing(0.7))

        budgets, refusals = _race(first, second)
        assert [b.max_cost_usd for b in budgets] == [pytest.approx(0.3)]
        assert len(refusals) == 1
        assert "in progress" in refusals[0].message("en")
        day = _day(processes[0], user)
        assert day.committed_usd == pytest.approx(1.0) and day.spent_usd == pytest.approx(0.7)


def test_a_run_is_reserved_once_and_settled_once(processes):
    user = _user(processes[0])
    one, other = _workspaces(processes[:2], user, cap=1.0, share=0.5)
    run_id = uuid4().hex
    assert one.run_budget(run_id).max_cost_usd == pytest.approx(0.5)
    assert other.run_budget(run_id).max_cost_usd == pytest.approx(0.5)  # the same reservation
    assert _day(processes[0], user).committed_usd == pytest.approx(0.5)

    spending = processes[1].spending(other.user.id)
    today = utc_now().date()
    spending.settle(today, run_id, 0.2)
    spending.settle(today, run_id, 0.2)
    processes[2].spending(other.user.id).settle(today, run_id, 0.9)  # another process, later
    day = _day(processes[0], user)
    assert (day.spent_usd, day.committed_usd, day.reservations) == (
        pytest.approx(0.2),
        pytest.approx(0.2),
        {},
    )
    # An ended run's id reserves nothing more.
    assert one.run_budget(run_id).max_cost_usd == 0
    assert _day(processes[0], user).committed_usd == pytest.approx(0.2)


def test_a_run_that_overshoots_its_reservation_counts_what_it_spent(processes):
    user = _user(processes[0])
    (workspace,) = _workspaces(processes[:1], user, cap=1.0, share=0.25)
    run_id = uuid4().hex
    assert workspace.run_budget(run_id).max_cost_usd == pytest.approx(0.25)
    RunSpending(workspace, run_id, "chat").record("budget_exceeded", _costing(0.4))
    day = _day(processes[0], user)
    assert day.spent_usd == pytest.approx(0.4) and day.committed_usd == pytest.approx(0.4)
    assert day.reservations == {}


def _finished(agent: str, cost: float) -> AgentFinished:
    return AgentFinished(agent=agent, text="", next_agent=None, model="x", input_tokens=10,
                         output_tokens=5, duration_ms=1.0, cost_usd=cost)  # fmt: skip


def test_an_interrupted_run_counts_what_its_finished_calls_cost(processes):
    user = _user(processes[0])
    (workspace,) = _workspaces(processes[:1], user, cap=1.0, share=0.5)
    run_id = uuid4().hex
    workspace.run_budget(run_id)
    spending = RunSpending(workspace, run_id, "chat")
    spending.observe(_finished("Router", 0.05))
    spending.observe(_finished("FAQ", 0.1))
    spending.close(None)  # Streamlit's rerun, a closed stream: no outcome recorded it
    day = _day(processes[0], user)
    assert day.spent_usd == pytest.approx(0.15) and day.reservations == {}
    assert day.committed_usd == pytest.approx(0.15)
    stored = processes[0].db["usage"].find_one({"run_id": run_id})
    assert stored["outcome"] == "interrupted"


def test_a_turn_closed_before_it_started_gives_its_reservation_back(processes):
    user = _user(processes[0])
    (workspace,) = _workspaces(processes[:1], user, cap=1.0, share=0.5)
    turn = chat.ask(workspace, "Quanto emite o diesel?", None)
    started = next(turn)
    assert _day(processes[0], user).reservations == {started.run_id: to_pusd(0.5)}
    turn.close()
    day = _day(processes[0], user)
    assert day.reservations == {} and day.committed_pusd == 0


def test_a_dead_process_holds_its_reservation_until_its_usage_is_swept(processes):
    user = _user(processes[0])
    dead, alive = _workspaces(processes[:2], user, cap=1.0, share=0.5)
    recorded, silent = uuid4().hex, uuid4().hex
    dead.run_budget(recorded)
    dead.run_budget(silent)
    # The process died after writing one run's usage (from its journal, say), before settling.
    processes[0].usage(dead.user.id).record(recorded, "chat", _costing(0.1), outcome="interrupted")
    with pytest.raises(CapReached):  # both reservations still held: 1.0 committed
        processes[1].spending(alive.user.id).reserve(
            utc_now().date(), uuid4().hex, cap_usd=1.0, most_usd=0.5
        )

    assert processes[2].spending(None).settle_stale(timedelta(hours=1)) == 0  # too recent
    assert processes[2].spending(None).settle_stale(timedelta(0)) == 1
    day = _day(processes[0], user)
    assert day.spent_usd == pytest.approx(0.1)
    assert list(day.reservations) == [silent]  # no usage record: counted, never less
    assert day.committed_usd == pytest.approx(0.6)
    assert alive.run_budget(uuid4().hex).max_cost_usd == pytest.approx(0.4)


def test_usage_written_without_a_reservation_is_counted_by_the_next_one(processes):
    user = _user(processes[0])
    (workspace,) = _workspaces(processes[:1], user, cap=1.0, share=1.0)
    # A run of an outage, its usage replayed from the outbox once the database is back.
    processes[0].usage(workspace.user.id).record("r-offline", "chat", _costing(0.3),
                                                 outcome="answered")  # fmt: skip
    assert workspace.spent_today() == pytest.approx(0.3)
    assert workspace.run_budget(uuid4().hex).max_cost_usd == pytest.approx(0.7)
    assert _day(processes[0], user).spent_pusd == int(0.3 * PICO)


class _Away:
    """A store whose database does not answer."""

    def __init__(self, store):
        self._store = store

    def __getattr__(self, name):
        return getattr(self._store, name)

    def spending(self, user_id):
        from store import StoreUnavailableError

        raise StoreUnavailableError("down")


def test_while_the_database_is_away_runs_share_what_the_process_last_knew(processes):
    user = _user(processes[0])
    (up,) = _workspaces(processes[:1], user, cap=1.0, share=1.0)
    down = Workspace(_Away(up.store), up.user, up.outbox, 1.0, 1.0)
    with pytest.raises(DailyCapUnverifiedError):  # never read today: unknown, not 0
        down.run_budget(uuid4().hex)

    first = uuid4().hex
    up.run_budget(first)
    RunSpending(up, first, "chat").record("answered", _costing(0.4))
    assert down.spent_today() == pytest.approx(0.4)
    # Two runs started in the outage: the first holds what is left, the second gets none.
    assert down.run_budget(uuid4().hex).max_cost_usd == pytest.approx(0.6)
    with pytest.raises(DailyCapReachedError):
        down.run_budget(uuid4().hex)
