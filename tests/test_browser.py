"""The app in a real browser: Playwright driving Debian's Chromium against `streamlit run`.

Screenshots go to test-artifacts/. Under CI a missing Chromium is a failure, not a skip:
`.ci/run` (through ./dev.sh test) installs it.
"""

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
WAIT_MS = 90_000


def _require_chromium() -> None:
    if Path(CHROMIUM).exists():
        return
    message = f"Chromium not found at {CHROMIUM}: ./dev.sh test installs it with apt-get"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    _require_chromium()
    port = _free_port()
    env = {**os.environ, "AEKO_DATA_DIR": str(tmp_path_factory.mktemp("browser-data")),
           "MONGODB_DB": "aeko_browser"}  # fmt: skip
    env.pop("GEMINI_API_KEY", None)
    log = (tmp_path_factory.mktemp("logs") / "streamlit.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port),
         "--server.address", "127.0.0.1", "--server.headless", "true",
         "--browser.gatherUsageStats", "false"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.status == 200:
                    break
        except OSError:
            time.sleep(0.3)
    else:
        process.kill()
        pytest.fail("streamlit did not start")
    yield url
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()


@pytest.fixture(scope="module")
def browser():
    _require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync"],
        )  # fmt: skip
        yield launched
        launched.close()


@pytest.fixture
def page(browser):
    ARTIFACTS.mkdir(exist_ok=True)
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="pt-BR")
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    yield page
    context.close()


def test_a_page_opened_first_on_a_fresh_server_works(server, page):
    # Until a session has run app.py, Streamlit serves pages/ by itself: a tab that
    # reconnects at /inventory after a restart must still get the page, not a KeyError.
    page.goto(f"{server}/inventory")
    expect(page.get_by_test_id("stFileUploaderDropzoneInput")).to_have_count(1, timeout=90_000)
    expect(page.get_by_test_id("stException")).to_have_count(0)


def test_ask_a_question_see_the_trail_and_answer_then_reload(server, page):
    page.goto(server)
    box = page.get_by_test_id("stChatInputTextArea")
    box.fill("Com o que posso substituir o HFC-134a dos chillers?")
    box.press("Enter")
    page.get_by_text("Trilha dos agentes").first.wait_for()
    page.get_by_text("Aprovada pelo guardrail").first.wait_for()
    expect(page.get_by_test_id("stChatMessage").nth(1)).to_contain_text("R-744")
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
    assert Path(pdf.value.path()).read_bytes().startswith(b"%PDF")
    with page.expect_download() as word:
        downloads.get_by_role("button", name="Word (DOCX)").first.click()
    assert Path(word.value.path()).read_bytes().startswith(b"PK")  # a DOCX is a zip


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
    page.get_by_text("Curva de custo marginal de abatimento (MACC)").first.wait_for()
    page.get_by_text("Meta e trajetória").first.wait_for()
    # The cost curve and the target path are drawn beside the inventory's charts.
    expect(page.get_by_test_id("stVegaLiteChart")).to_have_count(6)
    expect(main).to_contain_text("E se…")
    page.screenshot(path=ARTIFACTS / "inventory-plan-actions.png", full_page=True)
