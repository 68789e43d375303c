"""A database that dies mid-conversation and comes back (issue #15, item 2), in a real
browser, against a database the app does not supervise: it is configured by `MONGODB_URI`,
as in production, so nothing restarts it but the operator (here, the test). The question
asked meanwhile is answered with the "will be saved" notice, kept in the journal, and in the
conversation once the database is back. (The embedded server the app starts itself is
restarted by the app: tests/test_browser.py hangs it; tests/test_store_server.py kills it.)
"""

import json
import os
import signal
import time

import pytest
from playwright.sync_api import expect

from store.embedded import _start
from tests.browser_app import ARTIFACTS, WAIT_MS, free_port, start_app

DB = "aeko_outage"


@pytest.fixture(scope="module")
def database(tmp_path_factory):
    """A wire-protocol server of the test's own, on a fixed port so it can come back there."""
    folder = tmp_path_factory.mktemp("outage-db")
    port = free_port()
    servers = [_start(folder, 60, port=port)]
    yield folder, port, servers
    for server in servers:
        server.stop()


@pytest.fixture(scope="module")
def app(tmp_path_factory, database):
    _, port, _ = database
    uri = f"mongodb://127.0.0.1:{port}/?retryWrites=false&journal=true"
    yield from start_app(tmp_path_factory, "outage", env={"MONGODB_URI": uri, "MONGODB_DB": DB})


def _ask(page, question: str) -> None:
    box = page.get_by_test_id("stChatInputTextArea")
    box.fill(question)
    box.press("Enter")


def test_a_question_asked_while_the_database_is_down_is_answered_kept_and_saved_later(
    app, database, page, tmp_path_factory
):
    folder, port, servers = database
    first = "Com o que posso substituir o HFC-134a dos chillers?"
    second = "Quais gases refrigerantes têm menor GWP para chillers?"
    page.goto(app)
    _ask(page, first)
    page.get_by_text("Aprovada pelo guardrail").first.wait_for()
    page.wait_for_function("window.location.search.includes('session=')")

    os.kill(servers[-1].pid, signal.SIGKILL)  # the database dies mid-conversation
    servers[-1].process.wait(timeout=30)
    _ask(page, second)
    # Answered, with the word that it waits for the database; the page stays usable.
    page.get_by_text("O banco de dados não respondeu").first.wait_for(timeout=WAIT_MS * 2)
    expect(page.get_by_test_id("stChatMessage").filter(has_text=second)).to_have_count(1)
    expect(page.get_by_test_id("stChatInputTextArea")).to_have_count(1)
    expect(page.get_by_test_id("stException")).to_have_count(0)
    page.screenshot(path=ARTIFACTS / "chat-database-down.png", full_page=True)
    [data] = sorted(tmp_path_factory.getbasetemp().glob("outage-data[0-9]*"))
    journal = data / "outbox.jsonl"
    kinds = [json.loads(line)["kind"] for line in journal.read_text().splitlines()]
    assert "complete_turn" in kinds  # on disk, not in the tab

    servers.append(_start(folder, 60, port=port))  # the operator brings it back
    page.reload()  # the next rerun finds it answering and replays the journal
    messages = page.get_by_test_id("stChatMessage")
    expect(messages).to_have_count(4, timeout=WAIT_MS * 2)
    expect(messages.nth(2)).to_contain_text(second)
    expect(page.get_by_text("O banco de dados não respondeu")).to_have_count(0)
    expect(page.get_by_test_id("stException")).to_have_count(0)
    from pymongo import MongoClient

    with MongoClient(f"mongodb://127.0.0.1:{port}", serverSelectionTimeoutMS=20_000) as client:
        [session] = list(client[DB]["session"].find())
    assert [m["input"] for m in session["messages"]] == [first, second]  # once each
    for _ in range(120):  # the replay may end just after the page shows the kept turn
        if journal.read_text() == "":
            break
        time.sleep(0.5)
    assert journal.read_text() == ""  # written, compacted
