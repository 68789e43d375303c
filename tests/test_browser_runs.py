"""Runs survive the page (issue #15, item 4), in a real browser: an analysis on a slow
offline analyst goes on through a click and a reload, and its plan arrives exactly once."""

import json
import time

import pytest
from playwright.sync_api import expect

from tests.browser_app import ARTIFACTS, WAIT_MS, start_app
from tests.chiller_options import PATTERN as CHILLER_OPTION
from tests.test_browser_replicas import AT_WORK

PACE_S = "1.5"  # each offline answer waits this long: the analysis takes a while


@pytest.fixture(scope="module")
def paced_server(tmp_path_factory):
    yield from start_app(tmp_path_factory, "runs", env={"AEKO_OFFLINE_PACE_S": PACE_S})


def _database(tmp_path_factory, collection: str) -> list[dict]:
    """A collection as the app stored it, read from its own embedded server."""
    from pymongo import MongoClient

    [state_file] = sorted(tmp_path_factory.getbasetemp().glob("runs-data[0-9]*/server.json"))
    port = json.loads(state_file.read_text())["port"]
    with MongoClient(f"mongodb://127.0.0.1:{port}", serverSelectionTimeoutMS=20_000) as client:
        return list(client["aeko_runs"][collection].find({}, {"_id": 0}))


def test_an_analysis_goes_on_through_a_click_and_a_reload_and_its_plan_arrives_once(
    paced_server, page, tmp_path_factory
):
    page.goto(f"{paced_server}/inventory")
    page.get_by_role("button", name="Usar o inventário de exemplo").click()
    page.get_by_text("Prontidão para o SBCE").first.wait_for()
    page.get_by_role("button", name="Analisar e gerar o plano").click()
    trail = page.get_by_test_id("stExpander").filter(has_text="Analista")
    trail.first.wait_for()  # an agent is at work

    # Mid run: a click on an expander, a rerun of the script (Streamlit's "R"), a reload.
    page.get_by_text("Qualidade dos dados").first.click()
    page.locator("body").press("r")
    expect(page.get_by_text("Plano salvo.")).to_have_count(0)  # not there yet: still running
    page.reload()

    # The reloaded page opens the same inventory and follows the same run to its plan.
    page.get_by_text("Plano salvo.").wait_for(timeout=WAIT_MS * 2)
    page.get_by_text("Problema definido").first.wait_for()
    expect(page.get_by_text("Plano salvo.")).to_have_count(1)
    expect(page.get_by_text("Problema definido")).to_have_count(1)
    expect(page.get_by_test_id("stException")).to_have_count(0)
    page.screenshot(path=ARTIFACTS / "inventory-plan-after-reload.png", full_page=True)
    assert len(_database(tmp_path_factory, "improvement_plan")) == 1
    # One run, paid once and never cut: the click, the rerun and the reload stopped nothing.
    usage = [(u["flow"], u["outcome"]) for u in _database(tmp_path_factory, "usage")]
    assert usage == [("inventory", "plan")]

    page.reload()  # shown once: a later visit starts from the saved plans, not a replay
    expect(page.get_by_test_id("stFileUploaderDropzoneInput")).to_have_count(1)
    expect(page.get_by_text("Prontidão para o SBCE")).to_have_count(0)  # nothing reopened
    expect(page.get_by_text("Plano salvo.")).to_have_count(0)
    assert len(_database(tmp_path_factory, "improvement_plan")) == 1


def test_a_question_goes_on_through_a_reload_and_its_answer_is_shown_once(
    paced_server, page, tmp_path_factory
):
    question = "Com o que posso substituir o HFC-134a dos chillers?"
    page.goto(paced_server)
    box = page.get_by_test_id("stChatInputTextArea")
    box.fill(question)
    box.press("Enter")
    page.wait_for_function("window.location.search.includes('session=')")
    # An agent's status ("Roteador…"): the label before the first agent shows only an instant.
    page.get_by_text(AT_WORK).first.wait_for()
    expect(page.get_by_text("Aprovada pelo guardrail")).to_have_count(0)  # still running
    page.reload()

    # The conversation opens with the turn still going, and its answer arrives once.
    page.get_by_text("Aprovada pelo guardrail").first.wait_for(timeout=WAIT_MS * 2)
    messages = page.get_by_test_id("stChatMessage")
    expect(messages).to_have_count(2)
    expect(messages.nth(0)).to_contain_text(question)
    expect(messages.nth(1)).to_contain_text(CHILLER_OPTION)
    expect(page.get_by_text("Pergunta sem resposta")).to_have_count(0)
    [session] = _database(tmp_path_factory, "session")
    assert [m["input"] for m in session["messages"]] == [question]
    assert session.get("pending", []) == []

    page.reload()  # afterwards it is an ordinary turn of the conversation
    expect(page.get_by_test_id("stChatMessage")).to_have_count(2, timeout=WAIT_MS)
    expect(page.get_by_text("Aprovada pelo guardrail")).to_have_count(0)


def test_an_analysis_whose_tab_was_closed_is_shown_by_the_next_tab(
    paced_server, browser, tmp_path_factory
):
    def new_page():
        context = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="pt-BR")
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        return context, page

    saved = len(_database(tmp_path_factory, "improvement_plan"))
    context, page = new_page()
    page.goto(f"{paced_server}/inventory")
    page.get_by_role("button", name="Usar o inventário de exemplo").click()
    page.get_by_text("Prontidão para o SBCE").first.wait_for()
    page.get_by_role("button", name="Analisar e gerar o plano").click()
    page.get_by_test_id("stExpander").filter(has_text="Analista").first.wait_for()
    context.close()  # the tab goes away mid run

    for _ in range(240):  # the run ends on its own, with nobody watching
        if len(_database(tmp_path_factory, "improvement_plan")) > saved:
            break
        time.sleep(0.5)
    assert len(_database(tmp_path_factory, "improvement_plan")) == saved + 1

    context, page = new_page()  # the next visit: the inventory reopened, its plan shown once
    page.goto(f"{paced_server}/inventory")
    page.get_by_text("Plano salvo.").wait_for()
    expect(page.get_by_text("Problema definido")).to_have_count(1)
    expect(page.get_by_test_id("stException")).to_have_count(0)
    context.close()
