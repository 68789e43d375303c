"""The server side: indexes that serve every query, the embedded server's life, failures."""

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from pymongo import MongoClient, monitoring

from application.outbox import Outbox, Write
from engine import AekoImprovementPlan, AekoMessage
from store import StoreConfig, StoreUnavailableError, connect, describe_target
from store.client import Store
from store.embedded import EmbeddedServer, process_alive, start_or_join

ROOT = Path(__file__).resolve().parents[1]


class _Queries(monitoring.CommandListener):
    """Every filter the repositories send, as (collection, filter, sort)."""

    def __init__(self):
        self.seen = []

    def started(self, event):
        cmd = event.command
        name = event.command_name
        if name == "find":
            self.seen.append((cmd["find"], cmd.get("filter", {}), cmd.get("sort"), cmd.get("hint")))
        elif name in ("update", "delete"):
            for statement in cmd.get("updates", cmd.get("deletes", [])):
                self.seen.append((cmd[name], statement["q"], None, statement.get("hint")))
        elif name == "findAndModify":
            self.seen.append((cmd[name], cmd.get("query", {}), cmd.get("sort"), cmd.get("hint")))
        elif name == "aggregate" and cmd.get("pipeline") and "$match" in cmd["pipeline"][0]:
            self.seen.append((cmd[name], cmd["pipeline"][0]["$match"], None, cmd.get("hint")))

    def succeeded(self, event):
        pass

    def failed(self, event):
        pass


def _stages(plan):
    if isinstance(plan, dict):
        if "stage" in plan:
            yield plan["stage"]
        for value in plan.values():
            yield from _stages(value)
    elif isinstance(plan, list):
        for value in plan:
            yield from _stages(value)


def test_every_query_the_repositories_make_is_served_by_an_index(mongo):
    listener = _Queries()
    uri = os.environ.get("MONGODB_URI") or mongo.server.uri
    client = MongoClient(uri, event_listeners=[listener], tz_aware=True, retryWrites=False)
    name = "aeko_test_explain"
    client.drop_database(name)
    from store.indexes import ensure_indexes

    ensure_indexes(client[name])
    store = Store(client, client[name], "test")
    user = store.users.get_or_create(42, role="r")
    sessions = store.sessions(user.id)
    session = sessions.create("s")
    sessions.begin_turn(session.id, "r1", "q")
    sessions.complete_turn(session.id, "r1", AekoMessage(input="q", output="a"))
    sessions.reject_turn(session.id, "r2", "q", reasons="x", guardrail_retries=3)
    sessions.get(session.id), sessions.list(), sessions.pending_turns(session.id)
    sessions.list_full()
    sessions.rejected_turns(session.id), sessions.rename(session.id, "n")
    memories = store.memories(user.id)
    memory = memories.add("f", "d", expires_at=datetime.now(UTC) + timedelta(days=1))
    memories.active(), memories.all(), memories.expire(memory.id), memories.delete(memory.id)
    plans = store.plans(user.id)
    plan = plans.save(AekoImprovementPlan(id_external_inventory=1, defined_problem="a",
                                          method="b", reasoning="c"), run_id="p")  # fmt: skip
    plans.list(), plans.by_inventory(1), plans.get(plan.id), plans.delete(plan.id)
    inventories = store.inventories(user.id)
    record = inventories.save("a.csv", b"a;b\n1;2\n", sheets=[], mapping={}, summary={})
    inventories.list(), inventories.file(record.id), inventories.get(record.id)
    inventories.delete(record.id), sessions.delete(session.id)
    store.users.get(user.id)
    from engine import AekoConversationSummary, AekoUsage

    usage = store.usage(user.id)
    usage.record("u1", "chat", AekoUsage(), outcome="answered", session_id=session.id)
    usage.totals(), usage.totals(session_id=session.id), usage.totals(since=datetime.now(UTC))
    sessions2 = store.sessions(user.id)
    other = sessions2.create("s2")
    sessions2.save_summary(other.id, AekoConversationSummary(text="x", covered_turns=1))
    sessions2.summary(other.id), sessions2.turn_meta(other.id)
    sessions2.set_feedback(other.id, datetime.now(UTC), 1)

    assert len(listener.seen) > 25
    unserved = []
    for collection, query, sort, hint in listener.seen:
        if not query and collection.startswith("inventory_file."):
            continue  # GridFS's own probe of whether its collections are empty (one document)
        explain = {"find": collection, "filter": query}
        if sort:
            explain["sort"] = sort
        if hint:
            explain["hint"] = hint
        plan_doc = client[name].command({"explain": explain, "verbosity": "queryPlanner"})
        stages = set(_stages(plan_doc["queryPlanner"]["winningPlan"]))
        if "COLLSCAN" in stages or not stages & {"IXSCAN", "IDHACK", "EXPRESS_IXSCAN",
                                                 "CLUSTERED_IXSCAN", "EOF"}:  # fmt: skip
            unserved.append((collection, query, stages))
    client.drop_database(name)
    client.close()
    assert unserved == [], "\n".join(f"{c} {sorted(q)} {s}" for c, q, s in unserved)


def test_credentials_never_reach_the_message():
    uri = "mongodb://alice:s3cr3t@127.0.0.1:1/aeko"
    assert describe_target(uri) == "127.0.0.1:1"
    with pytest.raises(StoreUnavailableError) as caught:
        connect(StoreConfig(uri=uri), timeout_ms=300)
    for text in (str(caught.value), caught.value.message_pt, caught.value.message_en,
                 repr(StoreConfig(uri=uri))):  # fmt: skip
        assert "s3cr3t" not in text and "alice" not in text
    assert "127.0.0.1:1" in caught.value.message_pt
    assert "MONGODB_URI" in caught.value.message_en


def test_a_second_process_on_the_same_folder_joins_the_running_server(tmp_path):
    server = start_or_join(tmp_path)
    try:
        assert server.owned
        script = (
            "import json, sys; from pathlib import Path; from store.embedded import start_or_join;"
            "s = start_or_join(Path(sys.argv[1])); print(json.dumps([s.port, s.owned]))"
        )
        out = subprocess.run([sys.executable, "-c", script, str(tmp_path)], cwd=ROOT,
                             capture_output=True, text=True, timeout=120, check=True)  # fmt: skip
        assert json.loads(out.stdout.strip().splitlines()[-1]) == [server.port, False]
        store = connect(StoreConfig(data_dir=tmp_path), timeout_ms=5_000)
        assert store.server.port == server.port and not store.server.owned
        store.close()  # a joiner's close leaves the owner's server running
        assert server.process.poll() is None
    finally:
        server.stop()
    assert server.process.poll() is not None
    assert not (tmp_path / "server.json").exists()


def test_data_survive_a_restart_and_a_turn_lost_with_the_database_is_written_once_back(
    tmp_path,
):
    first = connect(StoreConfig(data_dir=tmp_path), timeout_ms=1_000)
    user = first.users.get_or_create(7)
    session = first.sessions(user.id).create("Perdida")
    first.sessions(user.id).begin_turn(session.id, "run-lost", "pergunta")
    first.server.stop()  # the database goes away while the engine answers

    outbox = Outbox()
    answer = AekoMessage(input="pergunta", output="resposta")
    assert outbox.submit(first, Write.turn(user.id, session.id, "run-lost", answer)) is False
    assert len(outbox.queued) == 1
    assert outbox.flush(first) == 0  # still down: kept, no traceback
    first.client.close()

    back = connect(StoreConfig(data_dir=tmp_path), timeout_ms=5_000)
    try:
        assert back.sessions(user.id).pending_turns(session.id)[0].input == "pergunta"
        assert outbox.flush(back) == 1
        outbox.journal.append(Write.turn(user.id, session.id, "run-lost", answer))
        assert outbox.flush(back) == 1  # a retry of what was already written changes nothing
        messages = back.sessions(user.id).get(session.id).messages
        assert [m.output for m in messages] == ["resposta"]
        assert back.sessions(user.id).pending_turns(session.id) == []
    finally:
        back.close()


def test_repository_calls_on_a_lost_connection_raise_a_short_error(tmp_path):
    store = connect(StoreConfig(data_dir=tmp_path), timeout_ms=800)
    user = store.users.get_or_create(9)
    store.server.stop()
    with pytest.raises(StoreUnavailableError) as caught:
        store.sessions(user.id).list()
    assert "embedded server" in caught.value.message_en
    store.client.close()


def _kill(pid: int) -> None:
    os.kill(pid, signal.SIGKILL)


def test_a_killed_embedded_server_is_restarted_on_its_folder_and_nothing_is_lost(tmp_path):
    store = connect(StoreConfig(data_dir=tmp_path), timeout_ms=1_000)
    try:
        user = store.users.get_or_create(11)
        session = store.sessions(user.id).create("Antes")
        state = json.loads((tmp_path / "server.json").read_text())
        assert state["pid"] == store.server.pid == store.server.process.pid
        assert store.supervise() is False  # alive: nothing to do, no round trip

        _kill(state["pid"])  # the pid the store recorded in the data folder
        store.server.process.wait(timeout=10)
        with pytest.raises(StoreUnavailableError) as caught:
            store.sessions(user.id).list()
        assert "embedded server" in caught.value.message_en
        assert "MONGODB_URI" not in caught.value.message_en  # the right thing is named

        # A failed write revives it: the outbox restarts the server and writes at once.
        answer = AekoMessage(input="pergunta", output="resposta")
        outbox = Outbox()
        assert outbox.submit(store, Write.turn(user.id, session.id, "run-1", answer)) is True
        assert store.restarts == 1
        restarted = json.loads((tmp_path / "server.json").read_text())
        assert restarted["pid"] != state["pid"] and restarted["pid"] == store.server.pid
        assert store.server.data_dir == tmp_path.resolve()
        assert [s.name for s in store.sessions(user.id).list()] == ["Antes"]  # data survived
        assert [m.output for m in store.sessions(user.id).get(session.id).messages] == ["resposta"]

        # At the start of a rerun: the process is gone, the store starts it again.
        _kill(store.server.pid)
        store.server.process.wait(timeout=10)
        assert store.supervise() is True and store.restarts == 2
        assert store.ping()
        assert store.sessions(user.id).get(session.id).name == "Antes"
    finally:
        store.close()
    assert store.supervise() is False  # stopped on purpose: not revived


def _hang(pid: int) -> None:
    """SIGSTOP ``pid`` and wait until every thread of it is stopped: ``kill`` returns before
    a thread busy in a system call (a sync to disk) has stopped, which may still answer."""
    os.kill(pid, signal.SIGSTOP)
    for _ in range(400):
        with contextlib.suppress(FileNotFoundError):  # a thread that ended meanwhile
            tasks = Path(f"/proc/{pid}/task").glob("*/stat")
            if all(task.read_text().rpartition(")")[2].split()[0] in "tT" for task in tasks):
                return
        time.sleep(0.05)
    raise AssertionError(f"{pid} did not stop")


def test_a_hung_embedded_server_is_killed_and_restarted_on_its_folder_after_a_failure(
    tmp_path,
):
    store = connect(StoreConfig(data_dir=tmp_path), timeout_ms=1_000)
    hung = 0
    try:
        user = store.users.get_or_create(13)
        session = store.sessions(user.id).create("Antes do travamento")
        hung = json.loads((tmp_path / "server.json").read_text())["pid"]
        _hang(hung)  # there, but answering nothing
        assert store.supervise() is False  # no failure seen: no round trip, nothing done
        with pytest.raises(StoreUnavailableError):  # a read waits for its timeout, then fails
            store.sessions(user.id).list()

        assert store.supervise(after_failure=True) is True and store.restarts == 1
        assert store.server.process.pid != hung
        with pytest.raises(ProcessLookupError):  # killed and reaped: no zombie left over
            os.kill(hung, 0)
        restarted = json.loads((tmp_path / "server.json").read_text())
        assert restarted == {"pid": store.server.pid, "port": store.server.port}
        assert store.ping()
        assert store.sessions(user.id).get(session.id).name == "Antes do travamento"
    finally:
        with contextlib.suppress(ProcessLookupError):  # only when the test failed early
            os.kill(hung, signal.SIGKILL)
        store.close()


def test_a_healthy_embedded_server_is_not_restarted_after_a_failure(tmp_path):
    store = connect(StoreConfig(data_dir=tmp_path), timeout_ms=1_000)
    try:
        pid = store.server.pid
        # A write failed for a reason of its own (a timeout under load): the server answers
        # the supervisor's ping, so it is left alone.
        assert store.supervise(after_failure=True) is False
        assert store.restarts == 0 and store.server.pid == pid and store.server.alive()
        assert json.loads((tmp_path / "server.json").read_text())["pid"] == pid
    finally:
        store.close()


def test_a_joiner_kills_a_hung_server_only_when_server_json_names_it(tmp_path):
    owner = start_or_join(tmp_path)
    hung = owner.pid
    joiner: EmbeddedServer | None = None
    try:
        joiner = start_or_join(tmp_path)
        assert not joiner.owned and joiner.pid == hung
        _hang(hung)
        # A pid that server.json does not name (reused, or another folder's): never killed.
        stranger = EmbeddedServer(joiner.port, joiner.data_dir, None, pid=os.getpid())
        assert stranger.revive(after_failure=True) is False

        assert joiner.revive(after_failure=True) is True and joiner.restarts == 1
        assert joiner.owned and joiner.pid != hung  # it started the new one: now its owner
        owner.process.wait(timeout=10)  # its child died; the joiner's kill (here) reaped it
        assert owner.revive() is True and not owner.owned and owner.port == joiner.port
        assert joiner.answers()
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(hung, signal.SIGKILL)
        for server in (joiner, owner):
            if server is not None:
                server.stop()


def test_an_app_starting_on_a_folder_whose_server_hangs_kills_it_and_starts_another(tmp_path):
    first = start_or_join(tmp_path)
    hung = first.pid
    server: EmbeddedServer | None = None
    try:
        client = MongoClient(first.uri, journal=True)  # as the store writes: on disk when acked
        client.aeko_test.things.insert_one({"_id": "kept", "value": 1})
        client.close()
        _hang(hung)  # server.json names it, it is alive, and it answers nothing

        # A new app process on the folder (start_or_join keeps nothing per process).
        server = start_or_join(tmp_path)
        assert server.owned and server.pid != hung
        with pytest.raises(ProcessLookupError):  # killed and reaped: no zombie left over
            os.kill(hung, 0)
        assert not first.alive()
        state = json.loads((tmp_path / "server.json").read_text())
        assert state == {"pid": server.pid, "port": server.port}
        assert server.answers()
        client = MongoClient(server.uri)
        assert client.aeko_test.things.find_one({"_id": "kept"}) == {"_id": "kept", "value": 1}
        client.close()
    finally:
        with contextlib.suppress(ProcessLookupError):  # only when the test failed early
            os.kill(hung, signal.SIGKILL)
        for started in (server, first):
            if started is not None:
                started.stop()


def test_starting_leaves_a_live_process_alone_that_is_not_the_folders_server(tmp_path):
    # server.json names a live process that answers no ping but is no secantusd on this
    # folder (a reused pid): it is never killed; a new server starts beside it.
    stranger = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    server: EmbeddedServer | None = None
    try:
        with socket.socket() as sock:  # a port nothing listens on
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        (tmp_path / "server.json").write_text(json.dumps({"pid": stranger.pid, "port": port}))
        server = start_or_join(tmp_path)
        assert server.owned and server.answers()
        assert stranger.poll() is None
        state = json.loads((tmp_path / "server.json").read_text())
        assert state == {"pid": server.pid, "port": server.port}
    finally:
        stranger.kill()
        stranger.wait(timeout=10)
        if server is not None:
            server.stop()


def test_a_killed_server_left_a_zombie_counts_as_gone(tmp_path):
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        assert process_alive(child.pid)
        os.kill(child.pid, signal.SIGKILL)
        for _ in range(200):  # not reaped (no wait): a zombie until its parent reaps it
            if not process_alive(child.pid):
                break
            time.sleep(0.05)
        assert not process_alive(child.pid)
        os.kill(child.pid, 0)  # still there as a zombie: only process_alive tells it apart
    finally:
        child.kill()
        child.wait(timeout=10)


def test_a_conversation_started_while_the_database_is_away_is_stored_with_its_turn(tmp_path):
    from application import chat
    from application.outbox import Journal
    from application.workspace import Workspace
    from engine import Aeko
    from engine.offline import OfflineAnalyst

    model = OfflineAnalyst()
    Aeko.config(fast_model=model, slow_model=model)
    store = connect(StoreConfig(data_dir=tmp_path), timeout_ms=800)
    user = store.users.get_or_create(12)
    store.server.stop()  # away, and not to be revived: the writes wait in the journal
    outbox = Outbox(Journal(tmp_path / "outbox.jsonl"), user.id)
    workspace = Workspace(store, user, outbox)
    items = list(chat.ask(workspace, "Quais as maiores fontes de emissão?", None))
    ended = items[-1]
    assert ended.status == "answered" and ended.saved is False
    assert [w.kind for w in outbox.queued][:1] == ["create_session"]
    assert "complete_turn" in [w.kind for w in outbox.queued]
    store.client.close()

    # The app restarts: a new process reads the journal and replays it once the base is up.
    back = connect(StoreConfig(data_dir=tmp_path), timeout_ms=5_000)
    try:
        replay = Outbox(Journal(tmp_path / "outbox.jsonl"), user.id)
        assert replay.flush(back) == len(outbox.queued)
        stored = back.sessions(user.id).get(ended.session.id)
        assert [m.input for m in stored.messages] == ["Quais as maiores fontes de emissão?"]
        assert replay.queued == []
        assert back.usage(user.id).totals(session_id=ended.session.id).runs == 1
    finally:
        back.close()


def test_store_is_a_plain_dataclass_without_secrets():
    assert "uri" not in Store.__dataclass_fields__
