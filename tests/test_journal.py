"""The outbox's journal: a file of JSON lines in the data folder that outlives the app."""

import json
import os
import threading
from datetime import UTC, datetime

from application.outbox import JOURNAL_FILE, Journal, Outbox, Write, journal_for
from engine import AekoConversationSummary, AekoImprovementPlan, AekoMessage, AekoUsage
from engine.actions.model import PlanActions
from engine.dto import AekoSession
from store.errors import StoreUnavailableError

USER = "64b8f0a1c9e1a2b3c4d5e6f1"
SESSION = "64b8f0a1c9e1a2b3c4d5e6f3"


class _FakeStore:
    """Records what the outbox applied; idempotent by run id like the repositories."""

    def __init__(self, up: bool = True):
        self.up = up
        self.applied: dict[tuple, object] = {}
        self.calls = 0

    def supervise(self, *, after_failure: bool = False) -> bool:
        return False

    def ensure_session(self, user_id, session):
        self._apply(("session", session.id), session)

    def _apply(self, key, value):
        self.calls += 1
        if not self.up:
            raise StoreUnavailableError("test")
        self.applied.setdefault(key, value)

    def sessions(self, user_id):
        store = self

        class _Sessions:
            def complete_turn(self, session_id, run_id, message, meta=None):
                store._apply(("turn", run_id), (message, meta))

            def reject_turn(self, session_id, run_id, question, **kw):
                store._apply(("reject", run_id), question)

            def save_summary(self, session_id, summary):
                store._apply(("summary", session_id), summary)

        return _Sessions()

    def plans(self, user_id):
        store = self

        class _Plans:
            def save(self, plan, run_id):
                store._apply(("plan", run_id), plan)

        return _Plans()

    def plan_actions(self, user_id):
        store = self

        class _Actions:
            def save(self, run_id, id_external_inventory, actions):
                store._apply(("actions", run_id), actions)

        return _Actions()

    def usage(self, user_id):
        store = self

        class _Usage:
            def record(self, run_id, flow, usage, **kw):
                store._apply(("usage", run_id), usage)

        return _Usage()


def _every_kind() -> list[Write]:
    stamp = datetime(2026, 5, 4, 3, 2, 1, 123000, tzinfo=UTC)
    message = AekoMessage(input="pergunta", output="resposta", submitted_at=stamp)
    plan = AekoImprovementPlan(id_external_inventory=3, defined_problem="p", method="m",
                               reasoning="r")  # fmt: skip
    session = AekoSession(_id=SESSION, id_user=USER, name="nova", created_at=stamp,
                          updated_at=stamp)  # fmt: skip
    return [
        Write.new_session(USER, session),
        Write.turn(USER, SESSION, "run-1", message, {"cost_usd": 0.25, "at": stamp}),
        Write.rejection(USER, SESSION, "run-2", "q", reasons="x", guardrail_retries=2),
        Write.plan(USER, plan, "run-3"),
        Write.plan_actions(USER, "run-4", 3, PlanActions()),
        Write.usage(USER, "run-1", "chat", AekoUsage(), outcome="answered", session_id=SESSION),
        Write.summary(USER, SESSION, AekoConversationSummary(text="s", covered_turns=2)),
    ]


def _lines(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_each_write_is_on_disk_before_it_is_tried_and_reads_back_equal(tmp_path):
    journal = Journal(tmp_path / JOURNAL_FILE)
    writes = _every_kind()
    fsyncs = []
    real_fsync = os.fsync
    os.fsync = lambda fd: (fsyncs.append(fd), real_fsync(fd))[1]
    try:
        for write in writes:
            journal.append(write)
    finally:
        os.fsync = real_fsync
    assert len(fsyncs) == len(writes)
    records = _lines(tmp_path / JOURNAL_FILE)
    assert [r["op"] for r in records] == ["write"] * len(writes)
    assert [r["kind"] for r in records] == [w.kind for w in writes]
    again = Journal(tmp_path / JOURNAL_FILE).pending()
    assert again == writes  # the DTOs, datetimes and dicts come back as they were
    assert [w.id for w in again] == [w.id for w in writes]
    turn = again[1].args
    assert isinstance(turn["message"], AekoMessage) and turn["meta"]["at"].tzinfo is not None
    assert isinstance(again[0].args["session"], AekoSession)
    assert again[0].args["session"].id == SESSION


def test_a_write_the_database_takes_is_never_journalled(tmp_path):
    outbox = Outbox(Journal(tmp_path / JOURNAL_FILE), USER)
    store = _FakeStore()
    assert outbox.submit(store, _every_kind()[1]) is True
    assert outbox.queued == []
    # written straight to the database: the journal is only the spill (#24 point 4)
    path = tmp_path / JOURNAL_FILE
    assert not path.exists() or path.read_text() == ""


def test_kept_writes_are_replayed_in_order_once_and_idempotently(tmp_path):
    path = tmp_path / JOURNAL_FILE
    outbox = Outbox(Journal(path), USER)
    down = _FakeStore(up=False)
    writes = _every_kind()
    assert outbox.submit(down, writes[0]) is False
    for write in writes[1:]:
        assert outbox.submit(down, write) is False  # journalled, not waited on again
    assert down.calls == 1
    assert [w.kind for w in outbox.queued] == [w.kind for w in writes]
    assert [r["op"] for r in _lines(path)] == ["write"] * len(writes)

    up = _FakeStore()
    assert outbox.flush(up) == len(writes)
    assert next(iter(up.applied)) == ("session", SESSION)  # the session before its turn
    assert outbox.queued == [] and path.read_text() == ""
    assert outbox.flush(up) == 0
    # A replay of writes that reached the database already changes nothing.
    for write in writes:
        outbox.journal.append(write)
    assert outbox.flush(up) == len(writes)
    assert len(up.applied) == len(writes)


def test_a_write_behind_kept_ones_waits_its_turn(tmp_path):
    outbox = Outbox(Journal(tmp_path / JOURNAL_FILE), USER)
    writes = _every_kind()
    assert outbox.submit(_FakeStore(up=False), writes[0]) is False  # the session: kept
    outbox.resume()
    up = _FakeStore()
    assert outbox.submit(up, writes[1]) is True  # the turn: after its session, in order
    assert list(up.applied) == [("session", SESSION), ("turn", "run-1")]
    assert outbox.queued == []


def test_no_lock_is_held_while_the_database_is_called(tmp_path):
    """A write that hangs on the database does not stop another thread from journalling."""
    journal = Journal(tmp_path / JOURNAL_FILE)
    entered, release = threading.Event(), threading.Event()

    class _Slow(_FakeStore):
        def _apply(self, key, value):
            entered.set()
            release.wait(10)
            super()._apply(key, value)

    writes = _every_kind()
    worker = threading.Thread(target=Outbox(journal, USER).submit, args=(_Slow(), writes[1]))
    worker.start()
    assert entered.wait(10)
    appended = threading.Thread(target=journal.append, args=(writes[3],))
    appended.start()
    appended.join(5)
    done = not appended.is_alive()  # it did not wait for the database call
    release.set()
    worker.join(10)
    assert done
    assert [w.id for w in journal.pending()] == [writes[3].id]


def test_an_app_that_restarts_replays_what_the_last_one_kept(tmp_path):
    path = tmp_path / JOURNAL_FILE
    first = Outbox(Journal(path), USER)
    writes = _every_kind()
    first.submit(_FakeStore(up=False), writes[1])
    first.submit(_FakeStore(up=False), writes[5])
    # Done with one of them, then the app stops.
    first.journal.done(first.journal.pending()[0])
    records = _lines(path)
    assert [r["op"] for r in records] == ["write", "write", "done"]

    restarted = Outbox(Journal(path), USER)  # a new process on the same folder
    assert [w.kind for w in restarted.queued] == ["record_usage"]
    assert [r["op"] for r in _lines(path)] == ["write"]  # compacted at start
    store = _FakeStore()
    assert restarted.flush(store) == 1
    assert list(store.applied) == [("usage", "run-1")]


def test_a_cut_last_line_is_skipped_and_the_rest_replayed(tmp_path):
    path = tmp_path / JOURNAL_FILE
    journal = Journal(path)
    writes = _every_kind()
    journal.append(writes[1])
    journal.append(writes[2])
    with path.open("a") as handle:
        handle.write(writes[3].to_json()[:40])  # a crash in the middle of a write
    again = Journal(path)
    assert [w.kind for w in again.pending()] == ["complete_turn", "reject_turn"]
    again.append(writes[4])  # the file goes on from a clean line
    assert [w.kind for w in Journal(path).pending()] == [
        "complete_turn",
        "reject_turn",
        "save_plan_actions",
    ]


def test_queued_is_one_users_share_and_the_folder_has_one_journal(tmp_path):
    journal = journal_for(tmp_path)
    assert journal_for(tmp_path) is journal
    other = "64b8f0a1c9e1a2b3c4d5e6f9"
    journal.append(_every_kind()[1])
    journal.append(
        Write.summary(other, SESSION, AekoConversationSummary(text="s", covered_turns=1))
    )
    assert [w.user_id for w in Outbox(journal, USER).queued] == [USER]
    assert [w.user_id for w in Outbox(journal, other).queued] == [other]
    assert len(Outbox(journal).queued) == 2


def test_what_is_replayed_is_what_was_journalled_not_what_the_caller_changed_since():
    journal = Journal()
    session = AekoSession(_id=SESSION, id_user=USER, name="nova")
    journal.append(Write.new_session(USER, session))
    session.messages.append(AekoMessage(input="q", output="a"))  # as the engine does
    assert journal.pending()[0].args["session"].messages == []
