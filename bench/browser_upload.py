"""How long a user waits in the browser: an upload of N long-format rows until the page shows
its total and a chart, in Debian's Chromium (Playwright), the app on its embedded defaults.

    .venv/bin/python -m bench.browser_upload --rows 100000 --runs 3 [--fresh]

Prints JSON: per run the seconds from choosing the file to the headline total (the first
metric) and to the first chart. The app runs in its own process on a data folder of its own.
With ``--fresh`` every run uploads a workbook of its own (another seed of the same generator),
so no run is served from the app's cache of a file it has seen: what a new upload waits.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import tempfile
import time
from pathlib import Path

from bench import app_server
from bench.workbooks import long_rows
from tests.inventory_fixtures import as_xlsx, long_table


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--fresh", action="store_true", help="a new workbook every run")
    args = parser.parse_args()
    from playwright.sync_api import expect, sync_playwright

    folder = Path(tempfile.mkdtemp(prefix="aeko-bench-upload-"))
    uploads = []
    for run in range(args.runs if args.fresh else 1):
        upload = folder / f"inventario_{args.rows}_{run}.xlsx"
        workbook = as_xlsx(long_table(args.rows, seed=run)) if run else long_rows(args.rows)
        upload.write_bytes(workbook)
        uploads.append(upload)
    size = uploads[0].stat().st_size
    process, url = app_server.start(folder / "data")
    results = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=shutil.which("chromium") or "/usr/bin/chromium"
            )
            for run in range(args.runs):
                upload = uploads[run % len(uploads)]
                page = browser.new_page(viewport={"width": 1440, "height": 900})
                page.goto(f"{url}/inventory")
                page.get_by_test_id("stFileUploaderDropzoneInput").wait_for(state="attached")
                started = time.monotonic()
                page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(upload))
                expect(page.get_by_test_id("stMetric").first).to_be_visible(timeout=300_000)
                total_s = time.monotonic() - started
                expect(page.get_by_test_id("stVegaLiteChart").first).to_be_visible(timeout=300_000)
                chart_s = time.monotonic() - started
                results.append({"total_s": round(total_s, 2), "chart_s": round(chart_s, 2)})
                page.close()
            browser.close()
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
        shutil.rmtree(folder, ignore_errors=True)
    print(json.dumps(
        {"rows": args.rows, "bytes": size, "fresh": args.fresh, "runs": results,
         "load_average_at_end": list(os.getloadavg())}, indent=2,
    ))  # fmt: skip


if __name__ == "__main__":
    main()
