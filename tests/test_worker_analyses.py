"""Analyses apart from pages (issue #24, point 5): a page in worker mode stores the upload in
GridFS and enqueues the analysis with how it read the file; a worker that never saw the page
reads the upload again from the database, the same way, and makes the plan the page follows.

The reading matters: the workbook here states no unit for its emission column, and the user
said "kg". Read without that choice the inventory is 1,000 times larger (1,550 t instead of
1.55 t); so the total and the target a worker's plan carries show whether it read the file
as the page did."""

import pytest

from application import runs
from application.analysis_request import AnalysisRequest, prepare
from application.inventories import PlanEnded, load
from application.outbox import Outbox, journal_for
from application.planning import TargetChoice, plan_inputs
from application.runs import RemoteRun
from application.worker import Worker
from application.workspace import Workspace
from engine import AgentStarted
from engine.gases.gwp import DEFAULT_CH4_ORIGIN
from engine.inventory import DEFAULT_GWP_SET
from tests.test_application import PLAN, _plan_script, scripted
from tests.test_runs import WAIT_S

NAME = "frota.csv"
# Tonnes or kilograms? Nothing in the file says: the user chose kg.
UNPROVEN = "Fonte,Gás,Emissões\nCaldeira a diesel,CO2,1240\nFrota,CO2,310\n".encode()
UNITS = {NAME: "kg"}
ADDED = [{"activity": "diesel_stationary", "quantity": 1000.0, "unit": "L", "period": "2024"}]
CHOICE = TargetChoice(base_year=2024, percent=42.0, year=2030)


@pytest.fixture
def page(db_store, tmp_path) -> Workspace:
    user = db_store.users.get_or_create(6161, role="Analista ESG")
    folder = tmp_path / "page"
    folder.mkdir()
    return Workspace(db_store, user, Outbox(journal_for(folder)), runs_in_worker=True)


def _reading(**more) -> dict:
    return {"name": NAME, "data": UNPROVEN, "sheets": [NAME], "gwp_set": DEFAULT_GWP_SET,
            "ch4_origin": DEFAULT_CH4_ORIGIN, "overrides": {}, "units": UNITS, "added": ADDED,
            "costs": None, "catalogue": None, **more}  # fmt: skip


def _read(**options):
    return load(NAME, UNPROVEN, gwp_set=DEFAULT_GWP_SET, ch4_origin=DEFAULT_CH4_ORIGIN,
                units=UNITS, added=ADDED, **options)  # fmt: skip


def test_an_analysis_enqueued_by_a_page_is_run_by_a_worker_on_the_file_read_as_the_page_read_it(
    page, db_store, tmp_path
):
    inventory = _read()
    # 1.24 + 0.31 t from the file in kg, plus 1,000 L of diesel burnt (about 2.6 t CO2e).
    assert 1.55 + 2 < inventory.total_tco2e < 1.55 + 3.5
    planning = plan_inputs(inventory, CHOICE)
    scripted(_plan_script([PLAN]))
    run = runs.analyse(page, NAME, UNPROVEN, inventory, digest="sha-unproven",
                       planning=planning, reopen=_reading(), units=UNITS)  # fmt: skip
    assert isinstance(run, RemoteRun) and not run.done
    document = db_store.runs(None).get(run.id)
    assert document["status"] == "queued" and document["kind"] == "inventory"
    # The upload travels through GridFS, not in the run document nor in the page's memory.
    assert "data" not in run.reopen and "data" not in document["reopen"]
    assert UNPROVEN not in repr(document).encode()
    stored = db_store.inventories(page.user.id).get(document["request"]["inventory_id"])
    assert stored.units == UNITS

    worker = Worker(db_store, tmp_path / "worker")
    (tmp_path / "worker").mkdir()
    assert worker.claim_one()
    items = list(run.follow())
    assert isinstance(items[0], AgentStarted)
    ended = items[-1]
    assert isinstance(ended, PlanEnded) and ended.status == "planned" and ended.saved
    worker.wait_idle(WAIT_S)
    assert ended.record.id == stored.id  # the page's stored upload, not a second copy
    assert db_store.db.inventory.count_documents({"sha256": stored.sha256}) == 1
    # The worker's plan is of the inventory read in kg, with the calculator's row: its
    # target's base is that inventory's Scopes 1 + 2, not 1,000 times more.
    target = ended.plan.actions.target
    assert target.base_tco2e == pytest.approx(planning.target.base_tco2e)
    assert target.base_tco2e == pytest.approx(inventory.total_tco2e, rel=1e-6)
    assert target.year == 2030 and target.percent == pytest.approx(42.0)
    assert [u["outcome"] for u in db_store.db.usage.find({"run_id": run.id})] == ["plan"]
    assert db_store.runs(None).get(run.id)["holder"] == worker.holder


def test_a_request_keeps_sheet_and_column_names_a_document_key_could_not_hold(page, db_store):
    sheet, column = "Escopo 1. Combustão $móvel", "t.CO2e"
    request = AnalysisRequest.of(
        "66aa00000000000000000001",
        _reading(sheets=[sheet], overrides={sheet: {column: "emissions_tco2e", "Nota": None}},
                 units={sheet: "t"}, costs=("custos.csv", b"id,capex\n")),
        plan_inputs(_read(), CHOICE),
        None,
    )  # fmt: skip
    db_store.db.probe.insert_one({"_id": "r", "request": request.document()})
    back = AnalysisRequest.from_document(db_store.db.probe.find_one({"_id": "r"})["request"])
    assert back == request
    assert back.overrides == {sheet: {column: "emissions_tco2e", "Nota": None}}
    assert back.costs == ("custos.csv", b"id,capex\n") and back.target == CHOICE


def test_a_worker_rebuilds_the_page_s_inventory_from_the_stored_upload(page):
    from application.inventories import save_upload

    inventory = _read()
    record = save_upload(page, NAME, UNPROVEN, inventory, units=UNITS)
    request = AnalysisRequest.of(record.id, _reading(), plan_inputs(inventory, CHOICE), None)
    prepared = prepare(page, request)
    assert prepared.data == UNPROVEN
    assert prepared.inventory.total_tco2e == pytest.approx(inventory.total_tco2e)
    assert prepared.inventory.status == inventory.status
    assert prepared.planning.target == plan_inputs(inventory, CHOICE).target
    # Without the user's unit the same file reads as another inventory: the choice travels.
    careless = prepare(page, AnalysisRequest.of(record.id, _reading(units={}), None, None))
    assert careless.inventory.total_tco2e > 1000 * 1.5


def test_an_analysis_the_database_cannot_take_runs_in_the_page(page, monkeypatch):
    from store.errors import StoreUnavailableError

    inventory = _read()
    scripted(_plan_script([PLAN]))

    def away(*_args, **_kwargs):
        raise StoreUnavailableError("teste")

    monkeypatch.setattr("application.inventories.save_upload", away)
    run = runs.analyse(page, NAME, UNPROVEN, inventory, digest="sha-away", reopen=_reading(),
                       units=UNITS)  # fmt: skip
    assert not isinstance(run, RemoteRun)  # nothing a worker could read: it runs here
    assert run.wait(WAIT_S)
