"""Runs that outlive the page (application/runs.py): a chat turn or an analysis goes on in
its worker when whoever followed it leaves, is saved once, and the next page finds it.

The scripted models wait on events the test sets, so no timing is assumed."""

import json
import os
import threading
from pathlib import Path

import pytest

from application import chat, runs
from application.chat import TurnEnded
from application.inventories import PlanEnded
from application.outbox import Outbox, journal_for
from application.runs import Runs
from application.workspace import DailyCapReachedError, Workspace
from engine import AgentStarted, RunFinished
from engine.agents.catalog import GUARDRAIL
from tests.test_application import (
    INVENTORY_CSV,
    PLAN,
    SPECIALIST,
    _inventory,
    _plan_script,
    scripted,
)

WAIT_S = 120  # a bound for a stuck worker, not a performance limit


@pytest.fixture
def workspace(db_store, tmp_path) -> Workspace:
    user = db_store.users.get_or_create(4343, role="Analista ESG")
    return Workspace(db_store, user, Outbox(journal_for(tmp_path)))


def _gate():
    """A scripted reply that holds the run until the test opens the gate."""
    reached, gate = threading.Event(), threading.Event()

    def reply(_messages):
        reached.set()
        assert gate.wait(WAIT_S)
        return "Aprovado."

    return reached, gate, reply


def test_a_turn_goes_on_and_is_saved_once_after_its_follower_left(workspace):
    reached, gate, approve = _gate()
    scripted({**SPECIALIST, GUARDRAIL: [approve]})
    run = runs.ask(workspace, "Quanto emite o diesel da frota?", None)

    follower = run.follow()
    assert isinstance(next(follower), AgentStarted)
    follower.close()  # the page went away: a rerun, a reload, a closed tab
    assert reached.wait(WAIT_S)
    assert not run.done  # still going, held at the guardrail
    assert runs.shown_to(workspace, "chat", run.subject) == [run]
    gate.set()
    assert run.wait(WAIT_S)

    assert isinstance(run.outcome, TurnEnded) and run.outcome.status == "answered"
    stored = chat.open_conversation(workspace, run.subject)
    assert [m.input for m in stored.messages] == ["Quanto emite o diesel da frota?"]
    usage = workspace.store.usage(workspace.user.id)
    assert usage.totals().runs == 1  # paid once, recorded once, not "interrupted"
    assert workspace.store.db.usage.find_one({"run_id": run.id})["outcome"] == "answered"


def test_a_late_follower_sees_the_whole_run_then_its_outcome_once(workspace):
    scripted(SPECIALIST)
    run = runs.ask(workspace, "Quanto emite o diesel?", None)
    assert run.wait(WAIT_S)
    items = list(run.follow())
    assert isinstance(items[0], AgentStarted)
    assert isinstance(items[-2], RunFinished) and isinstance(items[-1], TurnEnded)
    assert list(run.follow()) == items  # any number of followers, the same story

    assert runs.shown_to(workspace, "chat", run.subject) == [run]  # nobody showed it yet
    run.deliver()
    assert runs.shown_to(workspace, "chat", run.subject) == []


def test_a_running_turn_is_not_shown_as_interrupted_in_the_conversation(workspace):
    reached, gate, approve = _gate()
    scripted({**SPECIALIST, GUARDRAIL: [approve]})
    run = runs.ask(workspace, "Pergunta em andamento", None)
    assert reached.wait(WAIT_S)
    document = chat.open_document(workspace, run.subject)
    assert [p.run_id for p in document.pending] == [run.id]  # the store keeps it pending
    shown = chat.transcript(workspace, document.session, document, live={run.id})
    assert shown.pending == [] and shown.turns == []
    gate.set()
    assert run.wait(WAIT_S)
    document = chat.open_document(workspace, run.subject)
    assert chat.transcript(workspace, document.session, document, live={run.id}).turns == []
    assert len(chat.transcript(workspace, document.session, document).turns) == 1


def test_runs_are_shown_only_to_their_user(workspace, db_store):
    scripted(SPECIALIST)
    run = runs.ask(workspace, "Pergunta de um usuário", None)
    assert run.wait(WAIT_S)
    other = db_store.users.get_or_create(4344)
    theirs = Workspace(db_store, other, workspace.outbox)
    assert runs.shown_to(theirs, "chat") == []
    assert runs.shown_to(workspace, "chat") == [run]


def test_an_analysis_left_mid_run_saves_its_plan_exactly_once(workspace):
    reached, gate = threading.Event(), threading.Event()

    def coordinator(_messages):
        reached.set()
        assert gate.wait(WAIT_S)
        return PLAN

    scripted(_plan_script([coordinator]))
    inventory = _inventory()
    run = runs.analyse(
        workspace, "frota.csv", INVENTORY_CSV, inventory, digest="abc",
        reopen={"name": "frota.csv", "data": INVENTORY_CSV},
    )  # fmt: skip
    follower = run.follow()
    next(follower)
    follower.close()
    assert reached.wait(WAIT_S)
    assert [r.id for r in runs.shown_to(workspace, "inventory", "abc")] == [run.id]
    assert runs.shown_to(workspace, "inventory", "another file") == []
    gate.set()
    assert run.wait(WAIT_S)

    ended = list(run.follow())[-1]
    assert isinstance(ended, PlanEnded) and ended.status == "planned" and ended.saved
    assert ended.run_id == run.id
    plans = workspace.store.plans(workspace.user.id).list()
    assert [p.method for p in plans] == ["Substituir parte do diesel por HVO."]


def test_an_analysis_over_the_daily_cap_says_so_to_its_follower(workspace, db_store):
    capped = Workspace(db_store, workspace.user, workspace.outbox, daily_cost_cap_usd=0.0)
    scripted(_plan_script([PLAN]))
    run = runs.analyse(capped, "frota.csv", INVENTORY_CSV, _inventory(), digest="abc")
    assert run.wait(WAIT_S)
    with pytest.raises(DailyCapReachedError):
        list(run.follow())
    assert workspace.store.plans(workspace.user.id).list() == []


def test_a_chat_turn_over_the_daily_cap_is_refused_before_it_starts(workspace, db_store):
    capped = Workspace(db_store, workspace.user, workspace.outbox, daily_cost_cap_usd=0.0)
    scripted(SPECIALIST)
    with pytest.raises(DailyCapReachedError):
        runs.ask(capped, "Pergunta", None)
    assert runs.shown_to(workspace, "chat") == []


def test_each_run_is_journalled_as_it_goes_and_the_journal_of_an_ended_run_is_cleared(
    workspace, tmp_path
):
    scripted(SPECIALIST)
    run = runs.ask(workspace, "Quanto emite o diesel?", None)
    assert run.wait(WAIT_S)
    path = tmp_path / runs.RUNS_FOLDER / f"{run.id}.jsonl"
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert records[0]["op"] == "start" and records[0]["subject"] == run.subject
    assert records[-1] == {"op": "end", "status": "answered", "saved": True, "error": None}
    kinds = [r["event"]["kind"] for r in records if r["op"] == "event"]
    assert kinds == [item.kind for item in run.follow() if not isinstance(item, TurnEnded)]
    assert kinds[0] == "agent_started" and kinds[-1] == "run_finished"

    Runs(path.parent)  # the next app: an ended run is in the database, its journal goes
    assert not path.exists()


def test_a_run_cut_by_an_app_that_stopped_is_shown_as_interrupted_once(tmp_path):
    folder = tmp_path / runs.RUNS_FOLDER
    folder.mkdir()
    start = {"op": "start", "id": "r1", "user_id": "u1", "kind": "inventory",
             "subject": "abc", "title": "frota.xlsx",
             "started_at": "2026-12-01T08:00:00+00:00", "pid": _dead_pid()}  # fmt: skip
    event = {"op": "event", "event": {"kind": "agent_started", "agent": "x", "attempt": 1}}
    (folder / "r1.jsonl").write_text(json.dumps(start) + "\n" + json.dumps(event) + "\n")

    registry = Runs(folder)
    [cut] = registry.shown_to("u1", "inventory")
    assert cut.interrupted and cut.done and cut.title == "frota.xlsx"
    assert registry.shown_to("someone else", "inventory") == []
    cut.deliver()
    assert registry.shown_to("u1", "inventory") == []


def test_a_run_another_live_app_process_is_running_is_not_called_interrupted(tmp_path):
    folder = tmp_path / runs.RUNS_FOLDER
    folder.mkdir()
    start = {"op": "start", "id": "r2", "user_id": "u1", "kind": "chat", "subject": "s",
             "title": "q", "started_at": "2026-12-01T08:00:00+00:00",
             "pid": os.getppid()}  # fmt: skip
    (folder / "r2.jsonl").write_text(json.dumps(start) + "\n")
    assert Runs(folder).shown_to("u1", "chat") == []
    assert (folder / "r2.jsonl").exists()


def _dead_pid() -> int:
    import subprocess
    import sys

    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def test_a_journal_that_cannot_be_written_does_not_stop_the_run(workspace, tmp_path):
    scripted(SPECIALIST)
    folder = Path(tmp_path) / runs.RUNS_FOLDER
    runs.runs_of(workspace)  # the folder exists; then something takes its place
    folder.rmdir()
    folder.write_text("not a folder")
    run = runs.ask(workspace, "Quanto emite o diesel?", None)
    assert run.wait(WAIT_S)
    assert run.outcome is not None and run.outcome.status == "answered"
    assert chat.open_conversation(workspace, run.subject).messages


def test_what_a_cut_run_had_spent_is_recorded_from_its_journal_once(workspace, tmp_path):
    folder = tmp_path / runs.RUNS_FOLDER
    folder.mkdir()
    user_id = str(workspace.user.id)
    start = {"op": "start", "id": "cut1", "user_id": user_id, "kind": "inventory",
             "subject": "abc", "title": "frota.xlsx",
             "started_at": "2026-12-01T08:00:00+00:00", "pid": _dead_pid()}  # fmt: skip
    finished = {"kind": "agent_finished", "agent": "Analista de Inventário", "text": "ok",
                "next_agent": None, "model": "fake", "input_tokens": 1200,
                "output_tokens": 300, "duration_ms": 10.0, "cost_usd": 0.002}  # fmt: skip
    lines = [start, {"op": "event", "event": finished}, {"op": "event", "event": finished}]
    (folder / "cut1.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))

    [cut] = runs.shown_to(workspace, "inventory")  # the app that comes next
    assert cut.interrupted
    stored = workspace.store.db.usage.find_one({"run_id": "cut1"})
    assert stored["outcome"] == "interrupted" and stored["flow"] == "inventory"
    assert sum(call["input_tokens"] for call in stored["calls"]) == 2400
    runs.shown_to(workspace, "inventory")
    assert workspace.store.db.usage.count_documents({"run_id": "cut1"}) == 1
