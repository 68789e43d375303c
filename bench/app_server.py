"""The app as the browser benchmarks start it: ``streamlit run app.py`` headless on a free
loopback port, its own data folder, no API key and no MONGODB_URI (the embedded defaults)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Mapping, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STREAMLIT = ("-m", "streamlit")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def launch(
    port: int,
    data_dir: Path,
    *,
    runner: Sequence[str] = STREAMLIT,
    env: Mapping[str, str] | None = None,
) -> subprocess.Popen:
    """Start the app; ``runner`` is what runs ``run app.py`` (Streamlit's module, or a
    wrapper of it), ``env`` settings of the bench's own."""
    environment = {k: v for k, v in os.environ.items()
                   if k not in {"GEMINI_API_KEY", "MONGODB_URI"}}  # fmt: skip
    environment["AEKO_DATA_DIR"] = str(data_dir)
    environment.update(env or {})
    return subprocess.Popen(
        [sys.executable, *runner, "run", "app.py", "--server.port", str(port),
         "--server.address", "127.0.0.1", "--server.headless", "true",
         "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"],
        cwd=ROOT, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip


def healthy(url: str, deadline: float, step_s: float = 0.3) -> bool:
    """Whether the app's health endpoint answered before ``deadline`` (monotonic)."""
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.status == 200:
                    return True
        except OSError:
            time.sleep(step_s)
    return False


def start(
    data_dir: Path, *, runner: Sequence[str] = STREAMLIT, env: Mapping[str, str] | None = None
) -> tuple[subprocess.Popen, str]:
    """Start the app and wait for it (two minutes at most): its process and its URL."""
    port = free_port()
    process = launch(port, data_dir, runner=runner, env=env)
    url = f"http://127.0.0.1:{port}"
    if not healthy(url, time.monotonic() + 120):
        process.kill()
        raise SystemExit("streamlit did not start")
    return process, url
