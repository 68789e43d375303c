"""The app in a real browser: Playwright driving Debian's Chromium against `streamlit run`.

Screenshots go to test-artifacts/. Under CI a missing Chromium is a failure, not a skip:
`.ci/run` (through ./dev.sh test) installs it.
"""

import os
import signal
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser_app import ARTIFACTS, WAIT_MS, free_port, require_chromium, start_app
from tests.chiller_options import PATTERN as CHILLER_OPTION
from tests.test_language_one_at_a_time import ENGLISH_WORDS, INTERNAL_IDS


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from start_app(tmp_path_factory, "browser")


def test_a_page_opened_first_on_a_fresh_server_works(server, page):
    # Until a session has run app.py, Streamlit serves pages/ by itself: a tab that
    # reconnects at /inventory after a restart must still get the page, not a KeyError.
    page.goto(f"{server}/inventory")
    expect(page.get_by_test_id("stFileUploaderDropzoneInput")).to_have_count(1, timeout=90_000)
    expect(page.get_by_test_id("stException")).to_have_count(0)
    # ... and its sidebar names the pages as app.py does, not by their files ("calculator")
    nav = page.get_by_test_id("stSidebarNav")
    expect(nav).to_contain_text("Inventário", timeout=WAIT_MS)
    expect(nav).to_contain_text("Calculadora")
    expect(nav).not_to_contain_text("calculator")


def test_ask_a_question_see_the_trail_and_answer_then_reload(server, page):
    page.goto(server)
    box = page.get_by_test_id("stChatInputTextArea")
    box.fill("Com o que posso substituir o HFC-134a dos chillers?")
    box.press("Enter")
    page.get_by_text("Trilha dos agentes").first.wait_for()
    page.get_by_text("Aprovada pelo guardrail").first.wait_for()
    expect(page.get_by_test_id("stChatMessage").nth(1)).to_contain_text(CHILLER_OPTION)
    page.screenshot(path=ARTIFACTS / "chat-answer.png", full_page=True)

    page.wait_for_function("window.location.search.includes('session=')")
    page.reload()
    page.get_by_text("Com o que posso substituir o HFC-134a dos chillers?").first.wait_for()
    expect(page.get_by_test_id("stChatMessage")).to_have_count(2)
    expect(page.get_by_test_id("stChatMessage").nth(1)).to_contain_text("HFC-134a")
    page.screenshot(path=ARTIFACTS / "chat-reloaded.png", full_page=True)


def test_upload_a_workbook_see_the_charts_run_the_analysis_see_the_plan(server, page):
    from assets import SAMPLE_PATH

    page.goto(f"{server}/inventory")
    page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(SAMPLE_PATH))
    expect(page.get_by_test_id("stVegaLiteChart")).to_have_count(4, timeout=WAIT_MS)
    page.screenshot(path=ARTIFACTS / "inventory-charts.png", full_page=True)
    page.get_by_role("button", name="Analisar e gerar o plano").click()
    page.get_by_text("Plano salvo.").wait_for()
    page.get_by_text("Problema definido").first.wait_for()
    assert "t CO2e" in page.get_by_test_id("stMain").inner_text()
    page.screenshot(path=ARTIFACTS / "inventory-plan.png", full_page=True)

    # The downloads are real files.
    downloads = page.get_by_test_id("stDownloadButton")
    with page.expect_download() as pdf:
        downloads.get_by_role("button", name="PDF").first.click()
    data = Path(pdf.value.path()).read_bytes()
    assert data.startswith(b"%PDF")
    _assert_a_readable_plan_pdf(data, charts=1)  # the target path (no costs: no MACC)
    with page.expect_download() as word:
        downloads.get_by_role("button", name="Word (DOCX)").first.click()
    assert Path(word.value.path()).read_bytes().startswith(b"PK")  # a DOCX is a zip


def _assert_a_readable_plan_pdf(data: bytes, *, charts: int) -> None:
    """The plan's PDF as the running app makes it (issue #25, point 1): its action table a
    table, not text between pipes; ``charts`` charts (the MACC, the target path), each an
    image with its marks drawn (not empty axes); each computed section printed once."""
    import io

    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    text = " ".join(" ".join((p.extract_text() or "").split()) for p in reader.pages)
    assert "|" not in text
    assert text.count("Ações calculadas") == 1
    images = [image for p in reader.pages for image in p.images]
    assert len(images) == charts
    # Bars are coloured; empty axes, labels and grid lines are grey (anti-aliasing included).
    from PIL import Image

    def coloured_share(image) -> float:
        pixels = list(Image.open(io.BytesIO(image.data)).convert("RGB").getdata())
        return sum(max(p) - min(p) > 60 for p in pixels) / len(pixels)

    for image in images:  # lines and bars are coloured: more than a few pixels of them
        assert coloured_share(image) > 0.005, "a chart with nothing drawn"


def test_the_calculator_computes_a_leak_with_its_factors(server, page):
    page.goto(f"{server}/calculator")
    page.get_by_test_id("stSelectbox").first.click()
    page.keyboard.type("R-410A")  # the list is long: filter it as a user would
    page.get_by_role("option", name="Gás refrigerante R-410A").first.click()
    quantity = page.get_by_test_id("stNumberInput").locator("input")
    quantity.fill("10")
    quantity.press("Enter")
    page.get_by_test_id("stTextInput").locator("input").fill("2024")
    page.get_by_test_id("stTextInput").locator("input").press("Enter")
    expect(page.get_by_test_id("stMetric").first).to_contain_text("19,235 t CO2e")
    expect(page.get_by_test_id("stMain")).to_contain_text("IPCC AR5")
    expect(page.get_by_test_id("stException")).to_have_count(0)
    page.screenshot(path=ARTIFACTS / "calculator.png", full_page=True)


def test_the_sample_plan_shows_its_sbce_standing_cost_curve_and_target_path(server, page):
    page.goto(f"{server}/inventory")
    page.get_by_role("button", name="Usar o inventário de exemplo").click()
    page.get_by_text("Prontidão para o SBCE").first.wait_for()
    main = page.get_by_test_id("stMain")
    expect(main).to_contain_text("Fábrica Santa Gertrudes (SP)")
    expect(main).to_contain_text("cotações ilustrativas")  # the sample's costs say what they are
    expect(page.get_by_test_id("stVegaLiteChart")).to_have_count(4)  # the inventory's own
    page.get_by_role("button", name="Analisar e gerar o plano").click()
    page.get_by_text("Plano salvo.").wait_for()
    # The plan in tabs (issue #25), each showing its piece when chosen.
    for tab, heading in (
        ("Ações", "Linhas do inventário de cada ação"),
        ("MACC", "Curva de custo marginal de abatimento (MACC)"),
        ("Meta", "Meta e trajetória"),
        ("E se", "E se…"),
    ):
        page.get_by_role("tab", name=tab, exact=True).click()
        page.get_by_text(heading).first.wait_for()
        page.screenshot(path=ARTIFACTS / f"inventory-plan-{tab.replace(' ', '-')}.png")
        # One language at a time (issue #25, point 3): what the tab shows, as drawn.
        shown = main.inner_text()
        assert not [w for w in ENGLISH_WORDS if w in shown], tab
        assert not INTERNAL_IDS.search(shown), (tab, INTERNAL_IDS.search(shown))
    # The cost curve and the target path are drawn beside the inventory's charts.
    expect(page.get_by_test_id("stVegaLiteChart")).to_have_count(6)
    page.screenshot(path=ARTIFACTS / "inventory-plan-actions.png", full_page=True)
    # ... and in the PDF, made by the running app (where the MACC once came out empty).
    with page.expect_download() as pdf:
        page.get_by_test_id("stDownloadButton").get_by_role("button", name="PDF").first.click()
    _assert_a_readable_plan_pdf(Path(pdf.value.path()).read_bytes(), charts=2)


# Sign-in (issue #15): the app with an [auth] section, against a local OpenID provider.

AUTH_SUBJECTS = {"alice": "Alice Andrade", "bruno": "Bruno Barros"}


@pytest.fixture(scope="module")
def oidc_provider():
    """oidc-provider-mock on a free port: any client id and secret, a form to pick a subject."""
    require_chromium()
    from oidc_provider_mock import User, run_server_in_thread

    insecure = os.environ.get("AUTHLIB_INSECURE_TRANSPORT")
    os.environ["AUTHLIB_INSECURE_TRANSPORT"] = "1"  # plain http on localhost, in this process
    users = [User(sub=sub, claims={"email": f"{sub}@example.org", "name": name})
             for sub, name in AUTH_SUBJECTS.items()]  # fmt: skip
    try:
        with run_server_in_thread(port=free_port(), user_claims=users) as provider:
            yield f"http://localhost:{provider.server_port}"
    finally:
        if insecure is None:
            os.environ.pop("AUTHLIB_INSECURE_TRANSPORT", None)
        else:
            os.environ["AUTHLIB_INSECURE_TRANSPORT"] = insecure


@pytest.fixture(scope="module")
def auth_server(tmp_path_factory, oidc_provider):
    """The app with sign-in on: its [auth] secrets in a temporary file (--secrets.files)."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    secrets = tmp_path_factory.mktemp("auth-secrets") / "secrets.toml"
    secrets.write_text(
        "[auth]\n"
        f'redirect_uri = "{url}/oauth2callback"\n'
        'cookie_secret = "browser-test-cookie-secret-0123456789"\n'
        'client_id = "aeko-studio-tests"\n'
        'client_secret = "any-secret-the-mock-accepts"\n'
        f'server_metadata_url = "{oidc_provider}/.well-known/openid-configuration"\n'
    )
    yield from start_app(
        tmp_path_factory, "auth", env={"AUTHLIB_INSECURE_TRANSPORT": "1"},
        args=("--secrets.files", str(secrets)), port=port,
    )  # fmt: skip


def _sign_in(browser, server: str, subject: str):
    """A fresh browser (no cookies) that signs in as ``subject`` on the provider's form."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="pt-BR")
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    page.goto(server)
    page.get_by_text("Entrar no Aeko Studio").wait_for()
    expect(page.get_by_test_id("stChatInputTextArea")).to_have_count(0)
    expect(page.get_by_test_id("stSidebarNav")).to_have_count(0)  # no other page reachable
    page.get_by_role("button", name="Entrar").click()
    page.get_by_role("button", name=subject, exact=True).click()  # the provider's form
    page.get_by_test_id("stChatInputTextArea").wait_for()
    expect(page.get_by_test_id("stSidebar")).to_contain_text(f"{subject}@example.org")
    return context, page


def _ask(page, question: str) -> str:
    box = page.get_by_test_id("stChatInputTextArea")
    box.fill(question)
    box.press("Enter")
    page.get_by_text("Aprovada pelo guardrail").first.wait_for()
    page.wait_for_function("window.location.search.includes('session=')")
    page.reload()  # the sidebar lists the conversation from the next run on
    expect(page.get_by_test_id("stChatMessage")).to_have_count(2, timeout=WAIT_MS)
    return page.url


def test_sign_in_as_two_identities_each_sees_only_its_own_conversations(auth_server, browser):
    alice_context, alice = _sign_in(browser, auth_server, "alice")
    alice_question = "Que alternativas de menor carbono servem às caldeiras da Alice?"
    alice_url = _ask(alice, alice_question)
    expect(alice.get_by_test_id("stSidebar")).to_contain_text(alice_question[:20])
    alice.screenshot(path=ARTIFACTS / "auth-alice.png", full_page=True)

    bruno_context, bruno = _sign_in(browser, auth_server, "bruno")
    sidebar = bruno.get_by_test_id("stSidebar")
    expect(sidebar).not_to_contain_text(alice_question[:20])
    bruno_question = "Como reduzir as emissões da frota do Bruno?"
    _ask(bruno, bruno_question)
    expect(sidebar).to_contain_text(bruno_question[:20])
    expect(sidebar).not_to_contain_text(alice_question[:20])

    # Alice's conversation by its address: not Bruno's to open.
    bruno.goto(alice_url)
    bruno.get_by_test_id("stChatInputTextArea").wait_for()
    bruno.wait_for_function("!window.location.search.includes('session=')")  # dropped
    expect(bruno.locator("body")).not_to_contain_text(alice_question)
    expect(bruno.get_by_test_id("stChatMessage")).to_have_count(0)
    bruno.screenshot(path=ARTIFACTS / "auth-bruno-other-session.png", full_page=True)

    # Alice, signed in still, has hers; and signs out back to the sign-in page.
    alice.reload()
    expect(alice.get_by_test_id("stChatMessage")).to_have_count(2)
    expect(alice.get_by_test_id("stSidebar")).not_to_contain_text(bruno_question[:20])
    alice.get_by_test_id("stSidebar").get_by_role("button", name="Sair").click()
    alice.get_by_role("button", name="End session").click()  # the provider's logout form
    alice.get_by_text("Entrar no Aeko Studio").wait_for()
    alice.goto(alice_url)  # and the conversation's address is no longer hers to open
    alice.get_by_text("Entrar no Aeko Studio").wait_for()
    expect(alice.locator("body")).not_to_contain_text(alice_question)
    alice_context.close()
    bruno_context.close()


def _embedded_server_state(tmp_path_factory) -> tuple[Path, dict]:
    """The pid and port the store recorded in the app's data folder (``server.json``)."""
    import json

    states = sorted(tmp_path_factory.getbasetemp().glob("browser-data*/server.json"))
    assert states, "the app's embedded server wrote no server.json"
    return states[-1], json.loads(states[-1].read_text())


def test_a_question_asked_while_the_database_hangs_is_answered_and_saved_once_it_is_back(
    server, page, tmp_path_factory
):
    import contextlib
    import json
    import re

    question = "Quais gases refrigerantes têm menor GWP para chillers?"
    page.goto(server)
    page.get_by_test_id("stChatInputTextArea").wait_for()
    state_file, state = _embedded_server_state(tmp_path_factory)
    os.kill(state["pid"], signal.SIGSTOP)  # there, but answering nothing
    try:
        box = page.get_by_test_id("stChatInputTextArea")
        box.fill(question)
        box.press("Enter")
        # The rerun's ping goes unanswered: the app finds its server alive but hung, kills it
        # and starts it again; the question is answered (saved at once, or kept in the
        # journal and replayed), and the page stays usable.
        verdict = re.compile("Aprovada|Reprovada após|Sem revisão do guardrail")
        page.get_by_text(verdict).first.wait_for(timeout=150_000)
        expect(page.get_by_test_id("stChatMessage")).to_have_count(2)
        expect(page.get_by_test_id("stChatMessage").nth(0)).to_contain_text(question)
        expect(page.get_by_test_id("stChatInputTextArea")).to_have_count(1)
        expect(page.get_by_test_id("stException")).to_have_count(0)
        page.screenshot(path=ARTIFACTS / "chat-saved-later.png", full_page=True)
        page.wait_for_function("window.location.search.includes('session=')")
    finally:
        # Normally the app killed (and reaped) it already and server.json names the new
        # server; if not (a failure above), it must not outlive the test. SIGKILL also ends
        # a stopped process; the app may be killing it at this moment (gone: nothing to do).
        if json.loads(state_file.read_text())["pid"] == state["pid"]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(state["pid"], signal.SIGKILL)

    page.reload()  # the stored conversation, read back from the restarted server
    page.get_by_text(question).first.wait_for(timeout=150_000)
    expect(page.get_by_test_id("stChatMessage")).to_have_count(2, timeout=WAIT_MS)
    expect(page.get_by_text("O banco de dados não respondeu")).to_have_count(0, timeout=WAIT_MS)
    assert json.loads(state_file.read_text())["pid"] != state["pid"]
    # The journal is only the spill: written straight to the database (no journal) or kept
    # and replayed, then compacted. Nothing may be left waiting in it.
    journal = state_file.parent / "outbox.jsonl"

    def _kept() -> str:
        return journal.read_text() if journal.exists() else ""

    for _ in range(120):  # the replay may finish just after the page shows the turn
        if _kept() == "":
            break
        time.sleep(0.5)
    assert _kept() == ""
