"""Cold start: how long a user waits for a chat input they can type in, on a new app process.

    .venv/bin/python -m bench.cold_start --runs 5

Each run starts ``streamlit run app.py`` headless on a free port, on the embedded defaults
(no ``MONGODB_URI``, no model key) and a fresh temporary data folder, so the embedded
database starts from nothing too. Debian's Chromium (Playwright), launched before the app so
its own start is not counted, opens the chat page as soon as ``/_stcore/health`` answers and
waits for the chat input to be visible and enabled. Prints JSON: per run the seconds from
the process start to the health answer, to the usable input (``from_start_s``), and from the
first HTTP request for the page to the usable input (``from_request_s``); and the medians.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from bench import app_server

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
_TIMEOUT_S = 120.0


def _run(browser, data_dir: Path) -> dict[str, float]:
    from playwright.sync_api import expect

    port = app_server.free_port()
    url = f"http://127.0.0.1:{port}"
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="pt-BR")
    page = context.new_page()
    started = time.monotonic()
    process = app_server.launch(port, data_dir)
    try:
        # A short step: the poll's own wait is part of what is measured.
        if not app_server.healthy(url, started + _TIMEOUT_S, step_s=0.02):
            raise SystemExit("streamlit did not start")
        healthy = time.monotonic()
        page.goto(url, wait_until="commit")
        box = page.get_by_test_id("stChatInputTextArea")
        expect(box).to_be_visible(timeout=_TIMEOUT_S * 1000)
        expect(box).to_be_enabled(timeout=_TIMEOUT_S * 1000)
        usable = time.monotonic()
        # The database must still answer what the page asks after the input shows: the
        # store's status line is drawn once it does (or says it is down).
        expect(page.get_by_test_id("stSidebar")).to_contain_text(
            "Banco de dados conectado", timeout=_TIMEOUT_S * 1000
        )
        store_line = time.monotonic()
    finally:
        context.close()
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
    return {
        "health_s": round(healthy - started, 2),
        "from_start_s": round(usable - started, 2),
        "from_request_s": round(usable - healthy, 2),
        "sidebar_database_line_s": round(store_line - started, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    load_before = list(os.getloadavg())
    runs = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update"],
        )  # fmt: skip
        for _ in range(args.runs):
            folder = Path(tempfile.mkdtemp(prefix="aeko-bench-cold-"))
            try:
                runs.append(_run(browser, folder / "data"))
            finally:
                shutil.rmtree(folder, ignore_errors=True)
        browser.close()
    medians = {key: round(statistics.median(run[key] for run in runs), 2) for key in runs[0]}
    print(json.dumps(
        {"runs": runs, "median": medians, "load_average_before": load_before,
         "load_average_after": list(os.getloadavg())}, indent=2,
    ))  # fmt: skip


if __name__ == "__main__":
    main()
