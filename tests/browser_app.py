"""The browser tests' shared machinery: the app started with `streamlit run` on a data
folder of its own, and Debian's Chromium driven by Playwright (fixtures in conftest.py).

Under CI a missing Chromium is a failure, not a skip: `.ci/run` (./dev.sh test) installs it.
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

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
WAIT_MS = 90_000
PROCESSES: dict[str, subprocess.Popen] = {}  # a running app's process, by its URL


def require_chromium() -> None:
    if Path(CHROMIUM).exists():
        return
    message = f"Chromium not found at {CHROMIUM}: ./dev.sh test installs it with apt-get"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_app(
    tmp_path_factory, name: str, *, env: dict | None = None, args: tuple = (), port: int = 0
):
    """``streamlit run app.py`` on ``port`` (a free one by default) with its own data folder
    (``<name>-data``): yields its URL, and stops it after."""
    require_chromium()
    port = port or free_port()
    environment = {key: value for key, value in os.environ.items()
                   if key not in {"GEMINI_API_KEY", "MONGODB_URI"}}  # fmt: skip
    environment["AEKO_DATA_DIR"] = str(tmp_path_factory.mktemp(f"{name}-data"))
    environment["MONGODB_DB"] = f"aeko_{name.replace('-', '_')}"
    environment.update(env or {})  # the test's own settings win: a MONGODB_URI, say
    log_path = tmp_path_factory.mktemp(f"{name}-logs") / "streamlit.log"
    process = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port),
         "--server.address", "127.0.0.1", "--server.headless", "true",
         "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none", *args],
        cwd=ROOT, env=environment, stdout=log_path.open("wb"), stderr=subprocess.STDOUT,
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
        pytest.fail(f"streamlit did not start:\n{log_path.read_text()[-3000:]}")
    PROCESSES[url] = process
    yield url
    PROCESSES.pop(url, None)
    if process.poll() is not None:
        return  # a test killed it (an app process dying mid-run)
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()


def embedded_port(tmp_path_factory, app: str) -> int:
    """The port of the embedded database the app named ``app`` started (its data folder)."""
    import json

    [state] = sorted(tmp_path_factory.getbasetemp().glob(f"{app}-data[0-9]*/server.json"))
    return json.loads(state.read_text())["port"]


def collection(tmp_path_factory, app: str, db: str, name: str) -> list[dict]:
    """Every document of ``db.name`` on the embedded database ``app`` started."""
    from pymongo import MongoClient

    uri = f"mongodb://127.0.0.1:{embedded_port(tmp_path_factory, app)}"
    with MongoClient(uri, serverSelectionTimeoutMS=20_000) as client:
        return list(client[db][name].find({}))


def start_worker(tmp_path_factory, env: dict, name: str) -> subprocess.Popen:
    """``python worker.py``, as ./dev.sh app starts it, with the given environment."""
    environment = {key: value for key, value in os.environ.items()
                   if key not in {"GEMINI_API_KEY", "MONGODB_URI"}}  # fmt: skip
    environment.update(env)
    environment["AEKO_DATA_DIR"] = str(tmp_path_factory.mktemp(f"{name}-data"))
    log = tmp_path_factory.mktemp(f"{name}-logs") / "worker.log"
    return subprocess.Popen(
        [sys.executable, "worker.py"], cwd=ROOT, env=environment,
        stdout=log.open("wb"), stderr=subprocess.STDOUT,
    )  # fmt: skip
