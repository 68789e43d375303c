"""How long the Inventory page makes a user wait, in Debian's Chromium (Playwright), the app
on its embedded defaults and the offline analyst (no API key):

    .venv/bin/python -m bench.pages --runs 5

Each run opens a new tab on /inventory (a new Streamlit session), clicks "Usar o inventário de
exemplo" and times until the headline total (the first metric) and the inventory's four
charts are shown (``sample_total_painted_s``: by the page's own clock, the frame after the
total entered the page; ``sample_total_s``: as Playwright's polling saw it, an upper bound);
then clicks "Analisar e gerar o plano" and times until the plan is saved ("Plano salvo.")
and until the plan card's first section is shown. The first run is the first time the
server reads the sample; the median is what a user of a warm server waits.
Prints JSON, with the server process's CPU seconds for each step from the click until the
script run is over (``/proc``; the analysis's worker thread included).

``--apptest`` takes the same two clicks in Streamlit's AppTest, in this process: no browser,
so the seconds are the server's alone, wall and CPU (``time.process_time``, every thread).

``--profile DIR`` profiles every script run of the app (Streamlit runs the page in a thread of
its own, which a ``python -m cProfile`` of the server would not see): one cProfile file per
rerun in DIR and a line per rerun in DIR/runs.log (wall and CPU seconds of the script).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

from bench import app_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = "Usar o inventário de exemplo"
ANALYSE = "Analisar e gerar o plano"
SAVED = "Plano salvo."
PLAN_HEADING = "Problema definido"  # the plan card's first section
WAIT_MS = 300_000


def _start(data_dir: Path, profile: Path | None) -> tuple[subprocess.Popen, str]:
    if not profile:
        return app_server.start(data_dir)
    return app_server.start(
        data_dir, runner=("-m", "bench.pages", "--serve"), env={"AEKO_BENCH_PROFILE": str(profile)}
    )


def _serve_profiled(argv: list[str]) -> None:
    """``streamlit <argv>``, each script run under a cProfile of its own thread."""
    import cProfile
    import threading

    from streamlit.runtime.scriptrunner import script_runner
    from streamlit.web import cli

    folder = Path(os.environ["AEKO_BENCH_PROFILE"])
    folder.mkdir(parents=True, exist_ok=True)
    run_script = script_runner.ScriptRunner._run_script
    count = iter(range(1, 1_000_000))
    lock = threading.Lock()

    def profiled(self: script_runner.ScriptRunner, *args: object, **kwargs: object) -> None:
        with lock:
            number = next(count)
        profile = cProfile.Profile()
        wall, cpu = time.perf_counter(), time.thread_time()
        profile.enable()
        try:
            return run_script(self, *args, **kwargs)
        finally:
            profile.disable()
            wall, cpu = time.perf_counter() - wall, time.thread_time() - cpu
            profile.dump_stats(folder / f"run{number:03d}.prof")
            with lock, (folder / "runs.log").open("a") as log:
                log.write(f"{number} {time.time():.2f} wall {wall:.3f} cpu {cpu:.3f}\n")

    script_runner.ScriptRunner._run_script = profiled
    sys.argv = ["streamlit", *argv]
    cli.main()


def _cpu_s(pid: int) -> float:
    """The server's CPU seconds so far, every thread (the analysis runs in a worker): on a
    shared machine this moves far less with the load than the seconds a user waits."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


# Set in the tab before a click: the moment the headline total is first in the page and the
# frame after it (a paint), by the page's own clock. Playwright's ``expect`` polls at growing
# intervals (up to half a second apart), so what it waited is an upper bound.
_WATCH_TOTAL = """() => {
  window.__aekoTotal = null;
  const seen = () => {
    const metric = document.querySelector('[data-testid="stMetric"]');
    if (window.__aekoTotal === null && metric && metric.textContent.includes('t CO2e')) {
      window.__aekoTotal = 0;
      requestAnimationFrame(() => setTimeout(() => { window.__aekoTotal = performance.now(); }));
    }
  };
  new MutationObserver(seen).observe(document.body, {subtree: true, childList: true,
                                                     characterData: true});
  return performance.now();
}"""


def _painted_s(page: Page, clicked_ms: float) -> float:
    page.wait_for_function("() => window.__aekoTotal > 0", timeout=WAIT_MS)
    return round((page.evaluate("() => window.__aekoTotal") - clicked_ms) / 1000, 2)


def _idle(page: Page) -> None:
    """Until the script run is over (Streamlit's "running" indicator gone)."""
    from playwright.sync_api import expect

    expect(page.get_by_test_id("stStatusWidget")).to_have_count(0, timeout=WAIT_MS)


def _summary(values: list[float]) -> dict[str, float]:
    return {"first": values[0], "median": round(statistics.median(values), 2)}


def _apptest(runs: int) -> list[dict[str, float]]:
    """The two clicks in AppTest, each run a new session (the caches are the process's)."""
    os.environ.pop("GEMINI_API_KEY", None)
    os.environ.pop("MONGODB_URI", None)
    os.environ["AEKO_DATA_DIR"] = tempfile.mkdtemp(prefix="aeko-bench-pages-")
    from streamlit.testing.v1 import AppTest

    def click(app: AppTest, label: str) -> tuple[float, float]:
        button = next(b for b in app.button if b.label == label)
        wall, cpu = time.perf_counter(), time.process_time()
        button.click().run()
        assert not app.exception, app.exception
        return time.perf_counter() - wall, time.process_time() - cpu

    results = []
    for _ in range(runs):
        app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=WAIT_MS / 1000)
        app.run()
        app.switch_page("pages/inventory.py").run()
        sample_wall, sample_cpu = click(app, SAMPLE)
        assert any(m.label == "Total" for m in app.metric)
        plan_wall, plan_cpu = click(app, ANALYSE)
        assert any(SAVED in s.value for s in app.success)
        results.append(
            {
                "sample_s": round(sample_wall, 2),
                "sample_cpu_s": round(sample_cpu, 2),
                "analysis_s": round(plan_wall, 2),
                "analysis_cpu_s": round(plan_cpu, 2),
            }
        )
    return results


def main() -> None:
    if sys.argv[1:2] == ["--serve"]:
        _serve_profiled(sys.argv[2:])
        return
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--profile", type=Path, help="a folder for cProfile stats per rerun")
    parser.add_argument("--apptest", action="store_true", help="AppTest, not the browser")
    args = parser.parse_args()
    if args.apptest:
        _print(_apptest(args.runs))
        return
    from playwright.sync_api import sync_playwright

    folder = Path(tempfile.mkdtemp(prefix="aeko-bench-pages-"))
    process, url = _start(folder / "data", args.profile)
    runs = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=shutil.which("chromium") or "/usr/bin/chromium"
            )
            for _ in range(args.runs):
                runs.append(_one_run(browser, url, process.pid))
            browser.close()
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=60)
        shutil.rmtree(folder, ignore_errors=True)
    _print(runs)


def _one_run(browser: Browser, url: str, pid: int) -> dict[str, float]:
    """A new tab: the sample's click, then the analysis's, each timed."""
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 1440, "height": 900})
    page.goto(f"{url}/inventory")
    sample = page.get_by_role("button", name=SAMPLE)
    sample.wait_for(timeout=WAIT_MS)
    _idle(page)
    clicked_ms = page.evaluate(_WATCH_TOTAL)
    started, cpu = time.monotonic(), _cpu_s(pid)
    sample.click()
    expect(page.get_by_test_id("stMetric").first).to_contain_text("t CO2e", timeout=WAIT_MS)
    total_s = time.monotonic() - started
    painted_s = _painted_s(page, clicked_ms)
    charts = page.get_by_test_id("stVegaLiteChart")
    expect(charts).to_have_count(4, timeout=WAIT_MS)
    charts_s = time.monotonic() - started
    analyse = page.get_by_role("button", name=ANALYSE)
    expect(analyse).to_be_enabled(timeout=WAIT_MS)
    _idle(page)
    sample_cpu = _cpu_s(pid) - cpu
    started, cpu = time.monotonic(), _cpu_s(pid)
    analyse.click()
    page.get_by_text(SAVED).wait_for(timeout=WAIT_MS)
    saved_s = time.monotonic() - started
    page.get_by_text(PLAN_HEADING).first.wait_for(timeout=WAIT_MS)
    plan_s = time.monotonic() - started
    _idle(page)
    analysis_cpu = _cpu_s(pid) - cpu
    page.close()
    return {
        "sample_total_painted_s": painted_s,
        "sample_total_s": round(total_s, 2),
        "sample_charts_s": round(charts_s, 2),
        "sample_server_cpu_s": round(sample_cpu, 2),
        "analysis_saved_s": round(saved_s, 2),
        "analysis_plan_s": round(plan_s, 2),
        "analysis_server_cpu_s": round(analysis_cpu, 2),
    }


def _print(runs: list[dict[str, float]]) -> None:
    print(
        json.dumps(
            {
                "runs": runs,
                **{key: _summary([run[key] for run in runs]) for key in runs[0]},
                "load_average_at_end": list(os.getloadavg()),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
