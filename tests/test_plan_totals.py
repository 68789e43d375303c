"""A plan's totals are stored with it when it is saved (directly, or replayed from the outbox's
journal after an outage), so History's first listing reads them and never the plan's actions.
Round trips are counted with a pymongo ``CommandListener`` on the embedded server."""

from __future__ import annotations

from dataclasses import asdict

import pytest
from pymongo import monitoring

from application import history, inventories
from application.outbox import JOURNAL_FILE, Journal, Outbox
from application.planning import PlanInputs, default_target, plan_inputs
from application.workspace import Workspace
from assets import SAMPLE_COSTS_PATH, SAMPLE_NAME, SAMPLE_PATH
from engine.gases.gwp import DEFAULT_CH4_ORIGIN
from engine.inventory import DEFAULT_GWP_SET
from store.client import Store
from store.errors import StoreUnavailableError
from store.repositories.plans import TOTALS
from tests.test_history_scale import Commands

COMMANDS = Commands()
monitoring.register(COMMANDS)  # at collection: before the session's client is created


class _PlansDown:
    """A store whose plan writes fail as if the database had gone away; everything else
    (the upload, the usage reads) reaches the real one."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def __getattr__(self, name: str):
        return getattr(self._store, name)

    def supervise(self, *_: object, **__: object) -> bool:
        return False  # nothing to restart: the outbox keeps the writes

    def plans(self, user_id: str):
        return _Refusing()

    def plan_actions(self, user_id: str):
        return _Refusing()


class _Refusing:
    def save(self, *args, **kwargs):
        raise StoreUnavailableError("test: the database is away")


@pytest.fixture
def workspace(db_store: Store) -> Workspace:
    user = db_store.users.get_or_create(5151, role="Analista ESG")
    return Workspace(db_store, user, Outbox())


@pytest.fixture
def sample() -> tuple[object, PlanInputs]:
    """The sample inventory with a target and the sample costs: actions with and without a
    cost, on the total and market-based only, and a target to meet."""
    inventory = inventories.load(
        SAMPLE_NAME, SAMPLE_PATH.read_bytes(), gwp_set=DEFAULT_GWP_SET,
        ch4_origin=DEFAULT_CH4_ORIGIN,
    )  # fmt: skip
    costs = (SAMPLE_COSTS_PATH.name, SAMPLE_COSTS_PATH.read_bytes())
    planning = plan_inputs(inventory, default_target(inventory), costs=costs)
    return inventory, planning


def _analyse(workspace: Workspace, sample) -> inventories.PlanEnded:
    inventory, planning = sample
    items = list(
        inventories.analyse(
            workspace, SAMPLE_NAME, SAMPLE_PATH.read_bytes(), inventory, planning=planning
        )
    )
    ended = items[-1]
    assert isinstance(ended, inventories.PlanEnded) and ended.status == "planned", ended
    assert ended.plan.actions is not None and ended.plan.actions.actions
    return ended


def _stored_totals(store: Store, run_id: str) -> dict | None:
    document = store.db["improvement_plan"].find_one({"run_id": run_id}) or {}
    return document.get(TOTALS)


def _independent_totals(store: Store, user_id: str, run_id: str) -> dict:
    """``plan_totals`` of the actions as ``plan_actions`` holds them, read back apart."""
    actions = store.plan_actions(user_id).of_run(run_id)
    assert actions is not None
    return asdict(history.plan_totals(actions))


def _first_listing(workspace: Workspace) -> tuple[history.Page, list]:
    history._actions.clear()  # a new process: nothing kept in memory
    history._no_actions.clear()
    with COMMANDS.record() as seen:
        page = history.plans_page(workspace)
    return page, list(seen)


def test_an_analysed_plan_is_saved_with_its_totals_and_listed_without_its_actions(
    workspace, sample, offline
):
    ended = _analyse(workspace, sample)
    assert ended.saved
    store, user_id = workspace.store, workspace.user.id
    expected = _independent_totals(store, user_id, ended.run_id)
    assert _stored_totals(store, ended.run_id) == expected  # before History ever listed it
    assert expected["known_cost"] > 0 and expected["meets_target"] is not None

    page, commands = _first_listing(workspace)
    assert commands == [("find", "improvement_plan")]  # one query; no plan_actions read
    [entry] = page.items
    assert entry.actions is None and asdict(entry.totals) == expected
    [opened] = history.with_actions(workspace, page.items)  # its actions when it is opened
    assert opened.totals == entry.totals


def test_a_plan_replayed_from_the_journal_after_an_outage_gets_its_totals_once(
    workspace, sample, offline, tmp_path
):
    path = tmp_path / JOURNAL_FILE
    user_id = workspace.user.id
    down = Workspace(_PlansDown(workspace.store), workspace.user, Outbox(Journal(path), user_id))
    ended = _analyse(down, sample)
    assert not ended.saved
    assert workspace.store.db["improvement_plan"].count_documents({}) == 0

    # The app restarts with the database back: the writes are read from the journal's file.
    outbox = Outbox(Journal(path), user_id)
    kinds = [write.kind for write in outbox.queued]
    assert kinds[:2] == ["save_plan", "save_plan_actions"], kinds
    assert outbox.flush(workspace.store) == len(kinds) and outbox.queued == []
    store = workspace.store
    expected = _independent_totals(store, user_id, ended.run_id)
    assert _stored_totals(store, ended.run_id) == expected

    # A replay of writes that had reached the database changes nothing.
    journalled = Journal(path)
    for write in down.outbox.queued:
        journalled.append(write)
    assert Outbox(journalled, user_id).flush(store) == len(kinds)
    assert store.db["improvement_plan"].count_documents({"run_id": ended.run_id}) == 1
    assert _stored_totals(store, ended.run_id) == expected

    page, commands = _first_listing(Workspace(store, workspace.user, outbox))
    assert commands == [("find", "improvement_plan")]
    assert [asdict(entry.totals) for entry in page.items] == [expected]


def test_a_plan_saved_without_totals_still_gets_them_on_its_first_listing(
    workspace, sample, offline
):
    """Plans saved by older versions: the lazy fallback reads their actions once."""
    ended = _analyse(workspace, sample)
    store = workspace.store
    store.db["improvement_plan"].update_one({"run_id": ended.run_id}, {"$unset": {TOTALS: ""}})
    page, commands = _first_listing(workspace)
    assert ("find", "plan_actions") in commands
    expected = _independent_totals(store, workspace.user.id, ended.run_id)
    assert [asdict(entry.totals) for entry in page.items] == [expected]
    assert _stored_totals(store, ended.run_id) == expected  # kept for the next listing
