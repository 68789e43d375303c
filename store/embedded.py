"""The embedded SecantusDB server: a separate process (``secantusd-py``), found or started.

It runs outside our process, which also keeps its GPL licence at arm's length: we talk to
it over the MongoDB wire protocol only and never import it. WiredTiger locks its data
folder, so a second app process on the same folder joins the running server (recorded in
``server.json`` under a file lock) instead of starting another.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from pymongo import MongoClient
from pymongo.errors import PyMongoError

from store.errors import StoreUnavailableError

_STATE_FILE = "server.json"
_LOCK_FILE = "server.lock"
_START_TIMEOUT_S = 60.0


@dataclass
class EmbeddedServer:
    port: int
    data_dir: Path
    process: subprocess.Popen | None  # None: another process started it; we only use it

    @property
    def uri(self) -> str:
        return f"mongodb://127.0.0.1:{self.port}/?directConnection=true"

    @property
    def owned(self) -> bool:
        return self.process is not None

    def stop(self) -> None:
        """Stop the server if this process started it."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=5)
        with contextlib.suppress(FileNotFoundError):
            state = json.loads((self.data_dir / _STATE_FILE).read_text())
            if state.get("pid") == self.process.pid:
                (self.data_dir / _STATE_FILE).unlink()


def start_or_join(data_dir: Path, *, timeout_s: float = _START_TIMEOUT_S) -> EmbeddedServer:
    """The server for ``data_dir``: the one already running there, or a new one."""
    data_dir = data_dir.resolve()
    data_dir.mkdir(parents=True, exist_ok=True)
    with _locked(data_dir / _LOCK_FILE):
        running = _running(data_dir)
        if running is not None:
            return running
        server = _start(data_dir, timeout_s)
        (data_dir / _STATE_FILE).write_text(
            json.dumps({"pid": server.process.pid, "port": server.port})  # type: ignore[union-attr]
        )
    atexit.register(server.stop)
    return server


@contextlib.contextmanager
def _locked(path: Path):
    with path.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _running(data_dir: Path) -> EmbeddedServer | None:
    try:
        state = json.loads((data_dir / _STATE_FILE).read_text())
    except (FileNotFoundError, ValueError):
        return None
    if not _alive(int(state.get("pid", 0))) or not _pings(int(state["port"]), timeout_s=2.0):
        return None
    return EmbeddedServer(int(state["port"]), data_dir, None)


def _alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _start(data_dir: Path, timeout_s: float) -> EmbeddedServer:
    executable = _executable()
    port = _free_port()
    log = (data_dir / "server.log").open("ab")
    process = subprocess.Popen(
        [
            executable,
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--storage-path",
            str(data_dir / "db"),
            "--log-level",
            "WARNING",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        start_new_session=True,  # a Ctrl-C in the app's terminal is the app's to handle
    )
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            break
        if _pings(port, timeout_s=0.5):
            return EmbeddedServer(port, data_dir, process)
        time.sleep(0.1)
    if process.poll() is None:
        process.kill()
    raise StoreUnavailableError(f"embedded server in {data_dir}", embedded=True)


def _executable() -> str:
    beside = Path(sys.executable).parent / "secantusd-py"
    found = str(beside) if beside.exists() else shutil.which("secantusd-py")
    if not found:
        raise StoreUnavailableError("secantusd-py not installed", embedded=True)
    return found


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _pings(port: int, *, timeout_s: float) -> bool:
    client: MongoClient = MongoClient(
        f"mongodb://127.0.0.1:{port}/?directConnection=true",
        serverSelectionTimeoutMS=int(timeout_s * 1000),
        connectTimeoutMS=int(timeout_s * 1000),
    )
    try:
        client.admin.command("ping")
        return True
    except PyMongoError:
        return False
    finally:
        client.close()
