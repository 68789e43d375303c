"""Two app processes on one database (issue #24): what a load balancer with two replicas
does to a user, in a real browser. A question asked on one process is followed live from a
page of the other and answered there once; a process that dies mid-run leaves a run the
other reports cut, once, with what its finished agents had spent counted once.

The first app starts the embedded database; the others reach it by its address, as
replicas reach one MongoDB. Each has a data folder of its own (no shared disk)."""

import re
import signal
import time

import pytest
from playwright.sync_api import expect

from tests.browser_app import (
    PROCESSES,
    WAIT_MS,
    collection,
    embedded_port,
    start_app,
    start_worker,
)

# Each offline answer waits this long: a turn takes about 20 s, so a page opened on the other
# process under a loaded CI machine still finds it running (a turn that ended is shown from
# the conversation, without its live trail and verdict).
PACE_S = "4"
DB = "aeko_replicas"
VERDICT = "Aprovada pelo guardrail"
AT_WORK = re.compile(r"(Roteador|Analista|FAQ|Orquestrador|Guardrail)[^\n]*…")


def _port(tmp_path_factory) -> int:
    return embedded_port(tmp_path_factory, "replica-a")


def _collection(tmp_path_factory, name: str) -> list[dict]:
    return collection(tmp_path_factory, "replica-a", DB, name)


@pytest.fixture(scope="module")
def replicas(tmp_path_factory, browser):
    env = {"AEKO_OFFLINE_PACE_S": PACE_S, "MONGODB_DB": DB}
    first = start_app(tmp_path_factory, "replica-a", env=env)
    url_a = next(first)
    opener = browser.new_page()  # a first page starts the embedded database
    opener.goto(url_a)
    opener.get_by_test_id("stChatInputTextArea").wait_for(timeout=WAIT_MS)
    deadline = time.monotonic() + WAIT_MS / 1000  # a bound for a stuck start, not a limit
    while not sorted(tmp_path_factory.getbasetemp().glob("replica-a-data[0-9]*/server.json")):
        assert time.monotonic() < deadline, "the first app started no embedded database"
        time.sleep(0.2)
    opener.close()
    joined = {**env, "MONGODB_URI": f"mongodb://127.0.0.1:{_port(tmp_path_factory)}"}
    second = start_app(tmp_path_factory, "replica-b", env=joined)
    url_b = next(second)
    yield url_a, url_b, joined
    for app in (second, first):
        next(app, None)


def _ask(page, url: str, question: str) -> str:
    """Ask on ``url``; returns the conversation's query string once the turn is going."""
    page.goto(url)
    box = page.get_by_test_id("stChatInputTextArea")
    box.fill(question)
    box.press("Enter")
    page.wait_for_function("window.location.search.includes('session=')")
    page.get_by_text(AT_WORK).first.wait_for()  # an agent's status: the turn is going
    return page.evaluate("window.location.search")


def test_a_question_asked_on_one_process_is_followed_on_the_other_and_answered_once(
    replicas, page, browser, tmp_path_factory
):
    url_a, url_b, _ = replicas
    question = "Com o que posso substituir o HFC-134a dos chillers?"
    query = _ask(page, url_a, question)
    expect(page.get_by_text(VERDICT)).to_have_count(0)  # still running on the first

    # The reload lands on the other replica: the same conversation, the run live there.
    other = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="pt-BR")
    page_b = other.new_page()
    page_b.set_default_timeout(WAIT_MS)
    page_b.goto(f"{url_b}/{query}")
    page_b.get_by_text(question).first.wait_for()
    page_b.get_by_text(AT_WORK).first.wait_for()  # live there: an agent at work
    page_b.get_by_text(VERDICT).first.wait_for(timeout=WAIT_MS * 2)
    expect(page_b.get_by_text(VERDICT)).to_have_count(1)
    expect(page_b.get_by_test_id("stChatMessage")).to_have_count(2)
    expect(page_b.get_by_text("foi interrompida")).to_have_count(0)
    expect(page_b.get_by_test_id("stException")).to_have_count(0)

    page_b.reload()  # answered, stored, shown from the conversation: once
    page_b.get_by_text(question).first.wait_for()
    expect(page_b.get_by_test_id("stChatMessage")).to_have_count(2, timeout=WAIT_MS)
    other.close()
    runs = [r for r in _collection(tmp_path_factory, "runs") if r["title"] == question]
    assert [r["status"] for r in runs] == ["ended"]
    usage = [u for u in _collection(tmp_path_factory, "usage") if u["run_id"] == runs[0]["_id"]]
    assert [u["outcome"] for u in usage] == ["answered"]  # paid once, recorded once


def test_a_process_that_dies_mid_run_leaves_a_run_the_other_reports_cut_once(
    replicas, page, browser, tmp_path_factory
):
    _, url_b, joined = replicas
    dying = start_app(tmp_path_factory, "replica-c", env=joined)
    url_c = next(dying)
    question = "Quais gases refrigerantes têm menor GWP para chillers?"
    query = _ask(page, url_c, question)
    # Killed once an agent finished there and its event reached the database.
    deadline = time.monotonic() + WAIT_MS / 1000  # a bound for a stuck run, not a limit
    while not [e for e in _collection(tmp_path_factory, "run_events")
               if e["event"]["kind"] == "agent_finished"
               and e["run_id"] in {r["_id"] for r in _collection(tmp_path_factory, "runs")
                                   if r["title"] == question}]:  # fmt: skip
        assert time.monotonic() < deadline, "no agent finished on the dying process"
        time.sleep(0.1)
    PROCESSES[url_c].send_signal(signal.SIGKILL)
    PROCESSES[url_c].wait(timeout=30)
    next(dying, None)

    page.goto(f"{url_b}/{query}")  # the user's retry lands on a live replica
    page.get_by_text(question).first.wait_for()
    # Followed until its lease lapses, then said to be cut; the question waits to be asked
    # again (nothing answered it).
    page.get_by_text("interrompida").first.wait_for(timeout=WAIT_MS * 2)
    page.reload()
    page.get_by_role("button", name="Perguntar de novo").first.wait_for()
    expect(page.get_by_text(VERDICT)).to_have_count(0)
    runs = [r for r in _collection(tmp_path_factory, "runs") if r["title"] == question]
    assert [r["status"] for r in runs] == ["interrupted"]
    usage = [u for u in _collection(tmp_path_factory, "usage") if u["run_id"] == runs[0]["_id"]]
    assert [u["outcome"] for u in usage] == ["interrupted"]
    assert usage[0]["calls"] and usage[0]["input_tokens"] > 0  # what finished, counted once


# --- pages apart from workers (issue #24, point 5) ------------------------------------------


def test_a_worker_killed_mid_run_is_taken_over_by_the_next_and_the_answer_comes_once(
    replicas, page, tmp_path_factory
):
    _, _, joined = replicas
    env = {**joined, "AEKO_RUNS": "worker"}
    app = start_app(tmp_path_factory, "replica-w", env=env)
    url = next(app)
    dying = start_worker(tmp_path_factory, env, "worker-1")
    heir = None
    try:
        question = "Que alternativas existem ao SF6 em disjuntores de média tensão?"
        _ask(page, url, question)
        deadline = time.monotonic() + WAIT_MS / 1000  # a bound for a stuck run, not a limit
        while not [e for e in _collection(tmp_path_factory, "run_events")
                   if e["event"]["kind"] == "agent_finished"
                   and e["run_id"] in {r["_id"] for r in _collection(tmp_path_factory, "runs")
                                       if r["title"] == question}]:  # fmt: skip
            assert time.monotonic() < deadline, "no agent finished on the first worker"
            time.sleep(0.1)
        dying.send_signal(signal.SIGKILL)  # no goodbye: its lease is left to lapse
        dying.wait(timeout=30)
        heir = start_worker(tmp_path_factory, env, "worker-2")

        # The page went on following; the heir resumes the run once the lease lapsed.
        page.get_by_text(VERDICT).first.wait_for(timeout=WAIT_MS * 2)
        expect(page.get_by_text(VERDICT)).to_have_count(1)
        expect(page.get_by_test_id("stException")).to_have_count(0)
        [run] = [r for r in _collection(tmp_path_factory, "runs") if r["title"] == question]
        assert run["status"] == "ended" and run["attempts"] == 2
        usage = [u for u in _collection(tmp_path_factory, "usage") if u["run_id"] == run["_id"]]
        assert [u["outcome"] for u in usage] == ["answered"]
        agents = [call["agent"] for call in usage[0]["calls"]]
        assert len(agents) == len(set(agents))  # each agent's call counted once
        page.reload()
        page.get_by_text(question).first.wait_for()
        expect(page.get_by_test_id("stChatMessage")).to_have_count(2, timeout=WAIT_MS)
    finally:
        for worker in (dying, heir):
            if worker is not None and worker.poll() is None:
                worker.send_signal(signal.SIGTERM)
                worker.wait(timeout=60)
        next(app, None)


def test_an_analysis_asked_on_a_page_is_run_by_a_worker_from_the_stored_upload(
    replicas, page, tmp_path_factory
):
    """The page stores the upload and enqueues; the worker, which never saw the page, reads
    the file from GridFS with the page's settings and writes the plan the page shows."""
    _, _, joined = replicas
    env = {**joined, "AEKO_RUNS": "worker"}
    app = start_app(tmp_path_factory, "replica-i", env=env)
    url = next(app)
    worker = start_worker(tmp_path_factory, env, "worker-i")
    try:
        page.goto(f"{url}/inventory")
        page.get_by_role("button", name="Usar o inventário de exemplo").click()
        page.get_by_text("Prontidão para o SBCE").first.wait_for()
        page.get_by_role("button", name="Analisar e gerar o plano").click()
        page.get_by_text("Plano salvo.").wait_for(timeout=WAIT_MS * 2)
        page.get_by_text("Problema definido").first.wait_for()
        expect(page.get_by_text("Plano salvo.")).to_have_count(1)
        expect(page.get_by_role("tab", name="Ações")).to_have_count(1)  # computed actions came
        expect(page.get_by_test_id("stException")).to_have_count(0)
        [run] = [r for r in _collection(tmp_path_factory, "runs") if r["kind"] == "inventory"]
        assert run["status"] == "ended" and f"/{worker.pid}/" in run["holder"]
        assert "data" not in run["reopen"] and run["request"]["inventory_id"]
        usage = [u for u in _collection(tmp_path_factory, "usage") if u["run_id"] == run["_id"]]
        assert [u["outcome"] for u in usage] == ["plan"]  # paid once, by the worker
        [stored] = [i for i in _collection(tmp_path_factory, "inventory")
                    if str(i["_id"]) == run["request"]["inventory_id"]]  # fmt: skip
        plans = [p for p in _collection(tmp_path_factory, "improvement_plan")
                 if p["id_external_inventory"] == stored["number"]]  # fmt: skip
        assert len(plans) == 1
    finally:
        if worker.poll() is None:
            worker.send_signal(signal.SIGTERM)
            worker.wait(timeout=60)
        next(app, None)
