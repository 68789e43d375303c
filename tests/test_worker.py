"""Runs apart from pages (issue #24, point 5): a page in worker mode enqueues a chat turn,
a worker claims it by lease and runs it, the page follows it through the database. A worker
that dies mid-run leaves a lease that lapses: the next worker resumes the run from its last
finished agent (LangGraph's checkpoints on the embedded server), so no agent is paid twice.
A worker asked to stop hands back what it has not finished.

Workers here are ``Worker`` objects in this process, each its own lease holder, claiming
from the one embedded server; the scripted models wait on events the test sets, so no
timing is assumed."""

import threading
import time
from datetime import timedelta

import pytest

from application import chat, runs
from application.chat import TurnEnded
from application.outbox import Outbox, journal_for
from application.runs import RemoteRun
from application.worker import Worker
from application.workspace import Workspace
from engine import AgentStarted, RunFinished
from engine.agents.catalog import GUARDRAIL, ORCHESTRATOR, POLLUTANTS_ANALYST, ROUTER
from store.repositories.base import now
from tests.test_application import SPECIALIST, scripted
from tests.test_runs import WAIT_S

QUESTION = "Quanto emite o diesel da frota?"


@pytest.fixture
def page(db_store, tmp_path) -> Workspace:
    """A page process in worker mode."""
    user = db_store.users.get_or_create(5151, role="Analista ESG")
    folder = tmp_path / "page"
    folder.mkdir()
    return Workspace(db_store, user, Outbox(journal_for(folder)), runs_in_worker=True)


def _worker(db_store, tmp_path, name: str, **options) -> Worker:
    folder = tmp_path / name
    folder.mkdir()
    return Worker(db_store, folder, **options)


def _until(condition) -> None:
    deadline = time.monotonic() + WAIT_S  # a bound for a stuck thread, not a limit
    while not condition():
        assert time.monotonic() < deadline
        time.sleep(0.05)


def test_a_turn_enqueued_by_a_page_is_run_by_a_worker_and_followed_by_the_page(
    page, db_store, tmp_path
):
    scripted(SPECIALIST)
    run = runs.ask(page, QUESTION, None)
    assert isinstance(run, RemoteRun) and not run.done
    assert db_store.runs(None).get(run.id)["status"] == "queued"  # nothing runs it here
    worker = _worker(db_store, tmp_path, "w1")
    assert worker.claim_one()
    items = list(run.follow())
    assert isinstance(items[0], AgentStarted)
    assert isinstance(items[-2], RunFinished) and isinstance(items[-1], TurnEnded)
    assert items[-1].status == "answered"
    worker.wait_idle(WAIT_S)
    stored = chat.open_conversation(page, run.subject)
    assert [m.input for m in stored.messages] == [QUESTION]
    assert stored.messages[0].output == items[-1].response.message.output
    assert [u["outcome"] for u in db_store.db.usage.find({"run_id": run.id})] == ["answered"]
    document = db_store.runs(None).get(run.id)
    assert document["status"] == "ended" and document["holder"] == worker.holder
    assert document["attempts"] == 1


def test_two_workers_never_claim_the_same_run(page, db_store, tmp_path):
    scripted(SPECIALIST)
    asked = [runs.ask(page, f"{QUESTION} ({n})", None) for n in range(4)]
    first = _worker(db_store, tmp_path, "w1", concurrent=1)
    second = _worker(db_store, tmp_path, "w2", concurrent=1)
    claimed = 0
    while claimed < len(asked):  # alternate claims until every run was taken once
        for worker in (first, second):
            if worker.claim_one():
                claimed += 1
            worker.wait_idle(WAIT_S)
    assert not first.claim_one() and not second.claim_one()  # the queue is empty
    documents = [db_store.runs(None).get(run.id) for run in asked]
    assert [d["attempts"] for d in documents] == [1, 1, 1, 1]
    assert {d["holder"] for d in documents} == {first.holder, second.holder}
    assert all(d["status"] == "ended" for d in documents)
    for run in asked:
        assert db_store.db.usage.count_documents({"run_id": run.id}) == 1


def _counting(replies: list) -> tuple[list, list]:
    """Replies that count their calls."""
    calls: list = []

    def reply(text):
        def answer(_messages):
            calls.append(text)
            return text

        return answer

    return [reply(text) for text in replies], calls


def test_a_worker_that_dies_mid_run_is_taken_over_and_no_finished_agent_is_paid_twice(
    page, db_store, tmp_path
):
    router, router_calls = _counting(SPECIALIST[ROUTER])
    analyst, analyst_calls = _counting(SPECIALIST[POLLUTANTS_ANALYST])
    reached, gate = threading.Event(), threading.Event()
    orchestrations = []

    def orchestrate(_messages):
        orchestrations.append(1)
        if len(orchestrations) == 1:  # the first worker's call: it hangs there
            reached.set()
            assert gate.wait(WAIT_S)  # comes back only after another worker took over
        return SPECIALIST[ORCHESTRATOR][0]

    scripted({ROUTER: router, POLLUTANTS_ANALYST: analyst, ORCHESTRATOR: [orchestrate],
              GUARDRAIL: SPECIALIST[GUARDRAIL]})  # fmt: skip
    run = runs.ask(page, QUESTION, None)
    dying = _worker(db_store, tmp_path, "dying")
    assert dying.claim_one()
    assert reached.wait(WAIT_S)  # router and analyst finished there; the orchestrator hangs
    _until(lambda: len(db_store.runs(None).events(run.id)) >= 4)  # their events are stored
    # Its process is gone: its lease is left to lapse (here, set in the past).
    db_store.db.runs.update_one({"_id": run.id}, {"$set": {"lease_until": now() - timedelta(1)}})

    heir = _worker(db_store, tmp_path, "heir")
    assert heir.claim_one()  # the lapsed run went back to the queue, and is taken over
    ended = list(run.follow())[-1]
    assert isinstance(ended, TurnEnded) and ended.status == "answered"
    heir.wait_idle(WAIT_S)
    assert len(router_calls) == 1 and len(analyst_calls) == 1  # resumed, not run again
    document = db_store.runs(None).get(run.id)
    assert document["holder"] == heir.holder and document["attempts"] == 2
    usage = list(db_store.db.usage.find({"run_id": run.id}))
    assert [u["outcome"] for u in usage] == ["answered"]
    agents = [call["agent"] for call in usage[0]["calls"]]
    assert agents.count(ROUTER) == 1 and agents.count(POLLUTANTS_ANALYST) == 1
    stored = chat.open_conversation(page, run.subject)
    assert [m.input for m in stored.messages] == [QUESTION]  # answered once

    gate.set()  # the dead worker's thread ends; it writes nothing over the heir's run
    dying.wait_idle(WAIT_S)
    assert db_store.runs(None).get(run.id)["holder"] == heir.holder
    assert db_store.db.usage.count_documents({"run_id": run.id}) == 1
    assert len(chat.open_conversation(page, run.subject).messages) == 1


def test_a_stopping_worker_hands_back_the_run_it_did_not_finish(page, db_store, tmp_path):
    reached, gate = threading.Event(), threading.Event()

    def slow_guardrail(_messages):
        reached.set()
        assert gate.wait(WAIT_S)
        return "Aprovado."

    scripted({**SPECIALIST, GUARDRAIL: [slow_guardrail, "Aprovado."]})
    run = runs.ask(page, QUESTION, None)
    stopping = _worker(db_store, tmp_path, "stopping", grace_s=0.0)
    loop = threading.Thread(target=stopping.run_forever)
    loop.start()
    assert reached.wait(WAIT_S)
    stopping.stop()  # SIGTERM: no new claims, what is not done in time goes back
    loop.join(WAIT_S)
    assert not loop.is_alive()
    document = db_store.runs(None).get(run.id)
    assert document["status"] == "queued" and document["holder"] is None
    gate.set()
    stopping.wait_idle(WAIT_S)
    assert db_store.runs(None).get(run.id)["status"] == "queued"  # it wrote no end

    successor = _worker(db_store, tmp_path, "successor")
    assert successor.claim_one()
    ended = list(run.follow())[-1]
    assert ended.status == "answered"
    successor.wait_idle(WAIT_S)
    assert [u["outcome"] for u in db_store.db.usage.find({"run_id": run.id})] == ["answered"]


def test_a_worker_s_housekeeping_writes_what_it_kept_while_the_database_was_away(
    page, db_store, tmp_path
):
    from application.outbox import Write
    from engine.dto import AekoModelCall, AekoUsage

    worker = _worker(db_store, tmp_path, "keeper")
    spent = AekoUsage(calls=[AekoModelCall(agent="FAQ", model="m", input_tokens=9,
                                           output_tokens=3, cost_usd=0.001)])  # fmt: skip
    kept = Write.usage(page.user.id, "run-kept", "chat", spent, outcome="answered")
    Outbox(journal_for(worker.folder)).keep(kept)  # the database failed it a moment ago
    assert db_store.db.usage.count_documents({"run_id": "run-kept"}) == 0
    worker.housekeeping()  # no page writes for it: the worker replays it itself
    assert db_store.db.usage.count_documents({"run_id": "run-kept"}) == 1
    assert Outbox(journal_for(worker.folder)).journal.pending() == []


def test_how_many_runs_a_worker_drives_is_a_setting():
    from settings import load_settings

    assert load_settings({}, {}).worker_runs == 4
    assert load_settings({}, {"AEKO_WORKER_RUNS": "12"}).worker_runs == 12


def test_a_turn_no_worker_claims_is_run_by_the_page_that_follows_it(page, db_store, monkeypatch):
    from application import shared_runs

    monkeypatch.setattr(shared_runs, "QUEUE_PATIENCE", timedelta(0))  # no worker will come
    scripted(SPECIALIST)
    run = runs.ask(page, QUESTION, None)
    ended = list(run.follow())[-1]
    assert isinstance(ended, TurnEnded) and ended.status == "answered"
    document = db_store.runs(None).get(run.id)
    assert document["status"] == "ended" and document["attempts"] == 1
    assert [u["outcome"] for u in db_store.db.usage.find({"run_id": run.id})] == ["answered"]
    assert [m.input for m in chat.open_conversation(page, run.subject).messages] == [QUESTION]
