"""The embedded SecantusDB server: a separate process (``secantusd-py``), found or started.

It runs outside our process, which also keeps its GPL licence at arm's length: we talk to
it over the MongoDB wire protocol only and never import it. WiredTiger locks its data
folder, so a second app process on the same folder joins the running server (recorded in
``server.json`` under a file lock: its pid and port) instead of starting another.

The server is supervised: ``EmbeddedServer.revive`` starts it again on the same folder (and,
when it is free, the same port) when its process is gone, which the store checks at the start
of every rerun and after a failed write.
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
_RESTART_TIMEOUT_S = 20.0  # a restart happens while a page waits: bounded tighter


@dataclass
class EmbeddedServer:
    port: int
    data_dir: Path
    process: subprocess.Popen | None  # None: another process started it; we only use it
    pid: int = 0  # the server's process id, ours or the other process's
    stopped: bool = False  # stopped on purpose: not to be revived
    restarts: int = 0

    def __post_init__(self) -> None:
        if self.process is not None and not self.pid:
            self.pid = self.process.pid

    @property
    def uri(self) -> str:
        return f"mongodb://127.0.0.1:{self.port}/?directConnection=true"

    @property
    def owned(self) -> bool:
        return self.process is not None

    def alive(self) -> bool:
        """Whether the server's process is still there (no network round trip)."""
        if self.process is not None:
            return self.process.poll() is None  # also reaps a killed child
        return _alive(self.pid)

    def revive(self, *, timeout_s: float = _RESTART_TIMEOUT_S) -> bool:
        """Start the server again on the same folder when its process is gone. True when it
        was restarted here or by another process (the port may then have changed)."""
        if self.stopped or self.alive():
            return False
        with _locked(self.data_dir / _LOCK_FILE):
            running = _running(self.data_dir)
            if running is not None:  # another app process on the folder was quicker
                self.port, self.pid, self.process = running.port, running.pid, None
            else:
                try:
                    started = _start(self.data_dir, timeout_s, port=self.port)
                except StoreUnavailableError:  # the old port is taken: any free one
                    started = _start(self.data_dir, timeout_s)
                owned_before = self.process is not None
                self.port, self.process, self.pid = started.port, started.process, started.pid
                _write_state(self.data_dir, self.pid, self.port)
                if not owned_before:
                    atexit.register(self.stop)
        self.restarts += 1
        return True

    def stop(self) -> None:
        """Stop the server if this process started it."""
        self.stopped = True
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
        _write_state(data_dir, server.pid, server.port)
    atexit.register(server.stop)
    return server


def _write_state(data_dir: Path, pid: int, port: int) -> None:
    """``server.json``: the pid and port of the folder's server, for joiners and tests."""
    temporary = data_dir / (_STATE_FILE + ".tmp")
    temporary.write_text(json.dumps({"pid": pid, "port": port}))
    os.replace(temporary, data_dir / _STATE_FILE)


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
    return EmbeddedServer(int(state["port"]), data_dir, None, pid=int(state["pid"]))


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


def _start(data_dir: Path, timeout_s: float, *, port: int | None = None) -> EmbeddedServer:
    executable = _executable()
    port = port or _free_port()
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
