"""A conversation with the user's saved inventory attached: chosen, remembered, read again from
the stored file, and answered from it; a broken attachment never costs the turn."""

import pytest

from application import attachments, chat, inventories
from application.chat import TurnEnded, TurnStarted
from application.outbox import Outbox
from application.workspace import Workspace
from engine import AekoImprovementPlan
from store.errors import NotFoundError
from tests import inventory_fixtures as fx


@pytest.fixture
def workspace(db_store) -> Workspace:
    user = db_store.users.get_or_create(5150, role="Analista ESG")
    return Workspace(db_store, user, Outbox())


@pytest.fixture
def saved(workspace):
    data, _ = fx.ghg_program_workbook()
    inventory = inventories.load("ipe.xlsx", data, gwp_set="AR5", ch4_origin="general")
    record = workspace.store.inventories(workspace.user.id).save(
        "ipe.xlsx",
        data,
        sheets=inventory.sheets,
        mapping=inventory.mapping,
        summary=inventories.summary_of(inventory),
    )
    return record, inventory


def test_the_saved_upload_reopens_with_the_same_figures_and_its_newest_plan(workspace, saved):
    record, inventory = saved
    plan = AekoImprovementPlan(
        id_external_inventory=record.number,
        defined_problem="Caldeiras.",
        method="Trocar o combustível.",
        reasoning="Maior fonte.",
    )
    workspace.store.plans(workspace.user.id).save(plan, run_id="plan-run")
    opened = attachments.open_attached(workspace, record.id)
    assert opened.inventory.total_tco2e == pytest.approx(inventory.total_tco2e)
    assert len(opened.inventory.table) == len(inventory.table)
    assert opened.plan is not None and opened.plan.method == "Trocar o combustível."
    assert [r.id for r in attachments.choices(workspace)] == [record.id]


def test_another_users_inventory_cannot_be_attached(db_store, workspace, saved):
    record, _ = saved
    stranger = Workspace(db_store, db_store.users.get_or_create(5151, role="x"), Outbox())
    with pytest.raises(NotFoundError):
        attachments.open_attached(stranger, record.id)


def test_a_new_conversation_remembers_its_inventory_and_answers_from_it(workspace, saved, offline):
    record, inventory = saved
    question = "Quanto emitimos no escopo 1?"
    items = list(chat.ask(workspace, question, None, attachment=record.id))
    started, ended = items[0], items[-1]
    assert isinstance(started, TurnStarted) and started.attached == "ipe.xlsx"
    assert isinstance(ended, TurnEnded) and ended.status == "answered", ended
    assert attachments.attached_id(workspace, started.session.id) == record.id
    totals = inventory.totals_by("scope")
    scope_1 = float(totals[totals["scope"].astype(str) == "1"]["tco2e"].iloc[0])
    expected = f"{scope_1:,.1f}".replace(",", "X").replace(".", ",").replace("X", ".")
    assert f"Escopo 1: {expected} t CO2e" in ended.response.message.output
    shown = chat.transcript(workspace, chat.open_conversation(workspace, started.session.id))
    assert [s.kind for s in shown.turns[0].sources] == [s.kind for s in ended.response.sources]
    assert any(s.kind == "inventory" for s in shown.turns[0].sources)

    attachments.attach(workspace, started.session.id, None)
    assert attachments.attached_id(workspace, started.session.id) is None


def test_an_attachment_that_cannot_be_opened_costs_nothing_but_itself(workspace, offline):
    items = list(chat.ask(workspace, "O que é escopo 1?", None, attachment="0" * 24))
    started, ended = items[0], items[-1]
    assert started.attached is None and started.attachment_problem is not None
    assert ended.status == "answered"
