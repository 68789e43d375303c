"""Runs in the database (issue #24, point 1): two app processes on one database see the same
runs. Each "process" here is a registry of its own (``Runs``, one per outbox journal, so one
per data folder) on the one embedded server, as two replicas behind a load balancer are.

The scripted models wait on events the test sets, so no timing is assumed."""

import time
from datetime import timedelta

import pytest

from application import runs
from application.chat import TurnEnded
from application.inventories import PlanEnded
from application.outbox import Outbox, journal_for
from application.runs import RemoteRun
from application.workspace import Workspace
from engine import AgentFinished, AgentStarted, RunFinished
from engine.agents.catalog import GUARDRAIL
from engine.dto import AekoModelCall, AekoUsage
from store.repositories.base import now
from tests.test_application import (
    INVENTORY_CSV,
    PLAN,
    SPECIALIST,
    _inventory,
    _plan_script,
    scripted,
)
from tests.test_runs import WAIT_S, _gate

QUESTION = "Quanto emite o diesel da frota?"
SUBJECT = "6650f0f0f0f0f0f0f0f0f0f0"


def _until(condition) -> None:
    """Wait for something another thread does (a bound for a stuck one, not a limit)."""
    deadline = time.monotonic() + WAIT_S
    while not condition():
        assert time.monotonic() < deadline
        time.sleep(0.05)


@pytest.fixture
def user(db_store):
    return db_store.users.get_or_create(2424, role="Analista ESG")


def _replica(db_store, user, folder) -> Workspace:
    """What one app process works with: the shared database, its own data folder."""
    folder.mkdir(parents=True, exist_ok=True)
    return Workspace(db_store, user, Outbox(journal_for(folder)))


def test_a_turn_asked_on_one_process_is_followed_live_on_another_and_shown_once(
    db_store, user, tmp_path
):
    one, other = _replica(db_store, user, tmp_path / "a"), _replica(db_store, user, tmp_path / "b")
    reached, gate, approve = _gate()
    scripted({**SPECIALIST, GUARDRAIL: [approve]})
    run = runs.ask(one, QUESTION, None)
    assert reached.wait(WAIT_S)  # held at the guardrail: running on the first process

    # The page reloaded lands on the other process: it finds the run there, running.
    pending = [turn.run_id for turn in db_store.sessions(user.id).read(run.subject).pending]
    assert pending == [run.id]  # what the chat page reads anyway, and hands to the runs
    [seen] = runs.shown_to(other, "chat", run.subject, among=pending)
    assert runs.shown_to(other, "chat", run.subject, among=[]) == []  # nothing pending
    assert isinstance(seen, RemoteRun) and seen.id == run.id and not seen.done
    assert seen.title == QUESTION and seen.started.question == QUESTION
    follower = seen.follow()
    first = next(follower)
    assert isinstance(first, AgentStarted)
    gate.set()
    rest = list(follower)
    assert isinstance(rest[-1], TurnEnded) and rest[-1].status == "answered"
    assert isinstance(rest[-2], RunFinished)
    assert rest[-1].response.message.output == run.outcome.response.message.output
    assert rest[-1].session.id == run.subject

    # What the follower saw is what the run yielded, in order, none twice.
    assert run.wait(WAIT_S)
    local = [item for item in run.follow() if not isinstance(item, TurnEnded)]
    assert [type(item) for item in [first, *rest[:-1]]] == [type(item) for item in local]

    seen.deliver()  # shown on the other process: neither shows it again
    assert runs.shown_to(other, "chat", run.subject) == []
    assert runs.shown_to(one, "chat", run.subject) == []
    usage = db_store.db.usage.find_one({"run_id": run.id})
    assert usage["outcome"] == "answered"
    assert db_store.db.usage.count_documents({"run_id": run.id}) == 1


def test_a_run_that_ended_while_no_page_looked_is_shown_by_any_process_once(
    db_store, user, tmp_path
):
    one, other = _replica(db_store, user, tmp_path / "a"), _replica(db_store, user, tmp_path / "b")
    scripted(SPECIALIST)
    run = runs.ask(one, QUESTION, None)
    assert run.wait(WAIT_S)
    run._mirror.join(WAIT_S)  # its end is in the database
    [seen] = runs.shown_to(other, "chat", run.subject)
    assert seen.done and isinstance(seen.outcome, TurnEnded)
    items = list(seen.follow())
    assert items[-1].status == "answered"
    assert sum(isinstance(item, AgentFinished) for item in items) == sum(
        isinstance(item, AgentFinished) for item in run.follow()
    )
    seen.deliver()
    assert runs.shown_to(one, "chat", run.subject) == []


def _dead_run(db_store, user, run_id: str, calls: list[AekoModelCall], subject=SUBJECT) -> None:
    """A run whose process died mid-run: its lease lapsed, its agents had finished."""
    repository = db_store.runs(user.id)
    started = now() - timedelta(minutes=5)
    session = db_store.sessions(user.id).create(name=QUESTION)
    turn = {"session": session.model_dump(mode="json", by_alias=True), "question": QUESTION,
            "attached": None, "attachment_problem": None}  # fmt: skip
    repository.create(
        {"_id": run_id, "kind": "chat", "subject": subject,
         "title": QUESTION, "started_at": started, "reopen": {}, "started": turn},
        "a-host/1/dead",
    )  # fmt: skip
    db_store.db.runs.update_one({"_id": run_id}, {"$set": {"lease_until": now() - timedelta(1)}})
    for seq, call in enumerate(calls):
        event = AgentFinished(agent=call.agent, text="…", next_agent=None, model=call.model,
                              input_tokens=call.input_tokens, output_tokens=call.output_tokens,
                              duration_ms=900.0, cost_usd=call.cost_usd)  # fmt: skip
        repository.add_event(run_id, seq, event.model_dump(mode="json"))


def test_a_run_whose_process_died_is_reported_cut_once_and_its_finished_calls_counted_once(
    db_store, user, tmp_path
):
    calls = [
        AekoModelCall(agent="Roteador", model="gemini-2.5-flash", input_tokens=1200,
                      output_tokens=80, cost_usd=0.0004),
        AekoModelCall(agent="Analista de Poluentes", model="gemini-2.5-pro",
                      input_tokens=5000, output_tokens=900, cost_usd=0.0153),
    ]  # fmt: skip
    _dead_run(db_store, user, "cut-run-1", calls)
    one, other = _replica(db_store, user, tmp_path / "a"), _replica(db_store, user, tmp_path / "b")

    [seen] = runs.shown_to(other, "chat", SUBJECT)
    assert seen.interrupted and seen.done
    # The other process looking too takes nothing more: the cut is reported once.
    assert runs.record_cut_runs(one, runs.runs_of(one)) == 0
    usage = db_store.db.usage.find_one({"run_id": "cut-run-1"})
    assert usage["outcome"] == "interrupted"
    assert usage["input_tokens"] == 1200 + 5000 and usage["output_tokens"] == 80 + 900
    assert usage["cost_usd"] == pytest.approx(0.0004 + 0.0153)
    assert db_store.db.usage.count_documents({"run_id": "cut-run-1"}) == 1
    seen.deliver()
    assert runs.shown_to(one, "chat", SUBJECT) == []


def test_a_run_held_under_a_live_lease_is_not_called_cut_by_a_process_on_the_same_folder(
    db_store, user, tmp_path
):
    # Two processes share a data folder: the second reads the first's run journal (no end
    # line yet). The database knows the run as held and renewed: not the second's to cut.
    one = _replica(db_store, user, tmp_path / "shared")
    reached, gate, approve = _gate()
    scripted({**SPECIALIST, GUARDRAIL: [approve]})
    run = runs.ask(one, QUESTION, None)
    assert reached.wait(WAIT_S)
    _until(lambda: db_store.runs(user.id).get(run.id) is not None)  # mirrored
    registry = runs.Runs(tmp_path / "shared" / runs.RUNS_FOLDER)  # the second process
    assert run.id in registry.unrecorded  # its journal alone says "cut"
    other = _replica(db_store, user, tmp_path / "other-outbox")
    registry.record_cut_spending(other)
    assert registry.get(run.id) is None  # the database said it runs elsewhere
    gate.set()
    assert run.wait(WAIT_S)
    assert db_store.db.usage.find_one({"run_id": run.id})["outcome"] == "answered"


def test_usage_written_by_the_run_supersedes_an_interrupted_estimate_never_the_reverse(
    db_store, user
):
    usage = db_store.usage(user.id)
    early = AekoUsage(calls=[AekoModelCall(agent="Roteador", model="m", input_tokens=10,
                                           output_tokens=1, cost_usd=0.001)])  # fmt: skip
    whole = AekoUsage(calls=[*early.calls, AekoModelCall(agent="FAQ", model="m",
                             input_tokens=20, output_tokens=2, cost_usd=0.002)])  # fmt: skip
    usage.record("r-late", "chat", early, outcome="interrupted")
    usage.record("r-late", "chat", whole, outcome="answered")  # the holder came back
    stored = db_store.db.usage.find_one({"run_id": "r-late"})
    assert stored["outcome"] == "answered" and stored["cost_usd"] == pytest.approx(0.003)
    usage.record("r-first", "chat", whole, outcome="answered")
    usage.record("r-first", "chat", early, outcome="interrupted")
    stored = db_store.db.usage.find_one({"run_id": "r-first"})
    assert stored["outcome"] == "answered" and stored["cost_usd"] == pytest.approx(0.003)


def test_an_analysis_run_on_one_process_shows_its_plan_on_another(db_store, user, tmp_path):
    one, other = _replica(db_store, user, tmp_path / "a"), _replica(db_store, user, tmp_path / "b")
    scripted(_plan_script([PLAN]))
    run = runs.analyse(
        one, "frota.csv", INVENTORY_CSV, _inventory(), digest="sha-of-frota",
        reopen={"name": "frota.csv", "data": INVENTORY_CSV},
    )  # fmt: skip
    assert run.wait(WAIT_S)
    run._mirror.join(WAIT_S)
    [seen] = runs.shown_to(other, "inventory")
    assert seen.id == run.id and seen.subject == "sha-of-frota"
    assert "data" not in seen.reopen  # the upload itself is stored with the inventory
    ended = list(seen.follow())[-1]
    assert isinstance(ended, PlanEnded) and ended.status == "planned" and ended.saved
    assert ended.plan.method == run.outcome.plan.method
    assert ended.record.number == run.outcome.record.number
    assert ended.record.sha256 == run.outcome.record.sha256


def test_a_run_followed_from_another_process_when_its_holder_dies_ends_as_cut_once(
    db_store, user, tmp_path
):
    call = AekoModelCall(agent="Roteador", model="gemini-2.5-flash", input_tokens=700,
                         output_tokens=40, cost_usd=0.0002)  # fmt: skip
    _dead_run(db_store, user, "cut-run-2", [call])
    document = db_store.runs(user.id).get("cut-run-2")
    document["status"] = "running"  # as the page saw it before the lease lapsed
    cut = []
    seen = runs.remote_run(db_store.runs(user.id), document, on_cut=cut.append)
    items = list(seen.follow())
    assert isinstance(items[0], AgentFinished) and items[0].input_tokens == 700
    ended = items[-1]
    assert isinstance(ended, TurnEnded) and ended.status == "failed"
    assert "interrompida" in ended.error.message("pt") and "cut" in ended.error.message("en")
    assert [taken["_id"] for taken in cut] == ["cut-run-2"]
    assert list(seen.follow())[-1].status == "failed"  # followed again: not taken twice
    assert len(cut) == 1


def test_an_ended_analysis_keeps_no_upload_in_memory_and_reopens_from_the_database(
    db_store, user, tmp_path
):
    from application import inventories

    one = _replica(db_store, user, tmp_path / "a")
    scripted(_plan_script([PLAN]))
    run = runs.analyse(
        one, "frota.csv", INVENTORY_CSV, _inventory(), digest="sha-of-frota",
        reopen={"name": "frota.csv", "data": INVENTORY_CSV, "sheets": ["frota"]},
    )  # fmt: skip
    assert run.wait(WAIT_S)
    assert "data" not in run.reopen  # remembered for hours: the file is not
    assert run.reopen["sheets"] == ["frota"]
    assert inventories.original(one, run.reopen["inventory_id"]) == INVENTORY_CSV
    run._mirror.join(WAIT_S)
    [seen] = runs.shown_to(_replica(db_store, user, tmp_path / "b"), "inventory")
    assert seen.reopen["inventory_id"] == run.reopen["inventory_id"]  # from its outcome
