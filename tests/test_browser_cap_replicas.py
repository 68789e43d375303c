"""The daily cost cap across processes (issue #24), in a real browser: two app processes
and a worker on one database, pages on both asking at once, until both refuse. What every
process spent for the user today, priced from the usage records, never passes the cap.

Without a key the app answers on the offline analyst, which costs nothing; priced as
Gemini 2.5 Flash (AEKO_OFFLINE_PRICED_AS) its calls cost what that model would charge, so
the cap bites. A FAQ turn costs about US$ 0.002 priced so, and a run's next call counts at
its worst case (about US$ 0.003: its prompt and 1,024 output tokens), so a cap of US$ 0.008
(a run reserves at most half) pays for a few turns in all."""

import re
import signal
import time
from datetime import UTC, datetime

import pytest
from genai_prices import Usage, calc_price
from playwright.sync_api import expect

from tests.browser_app import WAIT_MS, collection, embedded_port, start_app, start_worker

PRICED_AS = "gemini-2.5-flash"
CAP_USD = 0.008
DB = "aeko_cap_replicas"
QUESTIONS = ["O que é escopo 1?", "O que é escopo 2?", "O que é escopo 3?",
             "O que é o GHG Protocol?", "O que é um inventário de emissões?",
             "O que é CO2 equivalente?"]  # fmt: skip
ANSWERED = "tokens de entrada"  # the cost line under an answer
# A run stopped before the call that could pass what it holds, or refused before it starts.
REFUSED = re.compile(
    r"parou no limite de custo|limite diário de custo \(US\$ [\d.,]+\) foi atingido"
)
HELD = "está reservado para execuções em andamento"  # the rest is held: try again later
OUTCOME = re.compile(f"{ANSWERED}|{REFUSED.pattern}|{HELD}")
MAX_ROUNDS = 12  # a bound for a cap that never bites, not a limit on the app


def _port(tmp_path_factory) -> int:
    return embedded_port(tmp_path_factory, "cap-a")


def _collection(tmp_path_factory, name: str) -> list[dict]:
    return collection(tmp_path_factory, "cap-a", DB, name)


@pytest.fixture(scope="module")
def capped(tmp_path_factory, browser):
    env = {
        "MONGODB_DB": DB,
        "AEKO_OFFLINE_PRICED_AS": PRICED_AS,
        "AEKO_DAILY_COST_CAP_USD": str(CAP_USD),
        "AEKO_RUNS": "worker",
    }
    first = start_app(tmp_path_factory, "cap-a", env=env)
    url_a = next(first)
    opener = browser.new_page()  # a first page starts the embedded database
    opener.goto(url_a)
    opener.get_by_test_id("stChatInputTextArea").wait_for(timeout=WAIT_MS)
    deadline = time.monotonic() + WAIT_MS / 1000  # a bound for a stuck start, not a limit
    while not sorted(tmp_path_factory.getbasetemp().glob("cap-a-data[0-9]*/server.json")):
        assert time.monotonic() < deadline, "the first app started no embedded database"
        time.sleep(0.2)
    opener.close()
    joined = {**env, "MONGODB_URI": f"mongodb://127.0.0.1:{_port(tmp_path_factory)}"}
    second = start_app(tmp_path_factory, "cap-b", env=joined)
    url_b = next(second)
    worker = start_worker(tmp_path_factory, joined, "cap-worker")
    yield url_a, url_b, worker.pid
    if worker.poll() is None:
        worker.send_signal(signal.SIGTERM)
        worker.wait(timeout=60)
    for app in (second, first):
        next(app, None)


def _submit(page, url: str, question: str) -> None:
    page.goto(url)  # a new conversation each time
    box = page.get_by_test_id("stChatInputTextArea")
    box.fill(question)
    box.press("Enter")


def _outcome(page) -> str:
    shown = page.get_by_text(OUTCOME).first
    shown.wait_for(timeout=WAIT_MS * 2)
    return shown.inner_text()


def _list_price(input_tokens: int, output_tokens: int) -> float:
    usage = Usage(input_tokens=input_tokens, output_tokens=output_tokens)
    return float(calc_price(usage, model_ref=PRICED_AS).total_price)


def test_spending_from_both_processes_never_passes_the_daily_cap(capped, browser, tmp_path_factory):
    url_a, url_b, worker_pid = capped
    contexts = [
        browser.new_context(viewport={"width": 1400, "height": 1000}, locale="pt-BR")
        for _ in range(4)
    ]
    pages = [context.new_page() for context in contexts]
    for page in pages:
        page.set_default_timeout(WAIT_MS)
    # Two pages on each process, alternating, asking at once each round.
    targets = [(pages[0], url_a, "a"), (pages[1], url_b, "b"),
               (pages[2], url_a, "a"), (pages[3], url_b, "b")]  # fmt: skip
    answered = {"a": 0, "b": 0}
    refused: dict[str, str] = {}
    asked = 0
    for _ in range(MAX_ROUNDS):
        if set(refused) == {"a", "b"}:
            break
        for page, url, _process in targets:
            _submit(page, url, QUESTIONS[asked % len(QUESTIONS)])
            asked += 1
        for page, _url, process in targets:
            said = _outcome(page)
            if ANSWERED in said:
                answered[process] += 1
            elif REFUSED.search(said):  # the cap's refusal, in Portuguese
                refused.setdefault(process, said)
            expect(page.get_by_test_id("stException")).to_have_count(0)
    for context in contexts:
        context.close()

    assert set(refused) == {"a", "b"}, f"the cap never refused on both: {answered}, {refused}"
    assert answered["a"] >= 1 and answered["b"] >= 1

    today = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    usage = list(_collection(tmp_path_factory, "usage"))
    usage = [u for u in usage if u["created_at"].replace(tzinfo=UTC) >= today]
    calls = [call for record in usage for call in record["calls"]]
    assert calls and {call["model"] for call in calls} == {f"aeko-offline-analyst@{PRICED_AS}"}
    spent = sum(_list_price(call["input_tokens"], call["output_tokens"]) for call in calls)
    assert spent <= CAP_USD
    assert sum(u["outcome"] == "answered" for u in usage) == answered["a"] + answered["b"]
    [day] = list(_collection(tmp_path_factory, "spending"))
    assert day["spent_pusd"] <= CAP_USD * 1e12 and day["committed_pusd"] <= CAP_USD * 1e12
    assert day["spent_pusd"] >= round(spent * 1e12) - len(usage)  # the ledger counted it all
    assert not day["reservations"]  # every run settled
    runs = _collection(tmp_path_factory, "runs")
    assert runs and all(f"/{worker_pid}/" in run["holder"] for run in runs)  # the worker ran them
