"""The embedded SecantusDB server: a separate process (``secantusd-py``), found or started.

It runs outside our process, which also keeps its GPL licence at arm's length: we talk to
it over the MongoDB wire protocol only and never import it. WiredTiger locks its data
folder, so a second app process on the same folder joins the running server (recorded in
``server.json`` under a file lock: its pid and port) instead of starting another.

The server is supervised: ``EmbeddedServer.revive`` starts it again on the same folder (and,
when it is free, the same port) when its process is gone, which the store checks at the start
of every rerun and after a failed write. After a failure (``after_failure``) it also handles a
server that is there but hung (stopped, deadlocked): alive, yet answering no ping twice in a
row, it is killed and started again; so is a hung server an app process finds on starting up
(``start_or_join``). Only the folder's own server is ever killed: our child, or the pid
``server.json`` names when that process runs ``secantusd-py`` on this folder and port.
``server.json`` is shared by every app process on the folder and rewritten by whichever
of them restarts the server, under the folder's lock, so a joiner may restart it too.
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
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path

from pymongo import MongoClient
from pymongo.errors import PyMongoError

from store.errors import StoreUnavailableError

_STATE_FILE = "server.json"
_LOCK_FILE = "server.lock"
_START_TIMEOUT_S = 60.0
_RESTART_TIMEOUT_S = 20.0  # a restart happens while a page waits: bounded tighter
# A live server that answers no ping in this long, twice in a row, is hung rather than busy:
# a page already waited for it, so this bounds what finding out costs (two pings, 5 s at most).
HUNG_PING_TIMEOUT_S = 2.5
HUNG_PINGS = 2
_KILL_WAIT_S = 10.0  # SIGKILL is not ignorable; only a process stuck in the kernel outlasts it

# Folders whose server this process began starting in a thread (``start_in_background``): the
# next ``start_or_join`` on the folder takes that start's server instead of starting another.
_BACKGROUND: dict[Path, Future[EmbeddedServer]] = {}
_BACKGROUND_BEGUN: set[Path] = set()
_BACKGROUND_LOCK = threading.Lock()


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
        return process_alive(self.pid)

    def answers(self, *, timeout_s: float = HUNG_PING_TIMEOUT_S, tries: int = HUNG_PINGS) -> bool:
        """Whether the server answers a ping (a network round trip) in ``timeout_s``, trying
        up to ``tries`` times so that one slow answer from a busy server is not taken for a
        hang."""
        return _answers(self.port, timeout_s=timeout_s, tries=tries)

    def revive(self, *, after_failure: bool = False, timeout_s: float = _RESTART_TIMEOUT_S) -> bool:
        """Start the server again on the same folder when its process is gone. With
        ``after_failure`` (the caller just saw the database fail) also when its process is
        alive but hung: it answers no ping (``answers``), so it is killed first. Without it
        no network round trip is made. True when it was restarted here or by another process
        (the port may then have changed)."""
        if self.stopped:
            return False
        if self.alive() and (not after_failure or self.answers()):
            return False
        with _locked(self.data_dir / _LOCK_FILE):
            # Still alive under the lock: hung (another app process that restarted it would
            # have left our old pid dead). Not ours to kill, or not dying: leave it.
            if self.alive() and not self._kill_hung():
                return False
            running = _running(self.data_dir)
            if running is not None:  # another app process on the folder was quicker
                self.port, self.pid, self.process = running.port, running.pid, None
            else:
                started = _start_preferring(self.data_dir, timeout_s, self.port)
                owned_before = self.process is not None
                self.port, self.process, self.pid = started.port, started.process, started.pid
                _write_state(self.data_dir, self.pid, self.port)
                if not owned_before:
                    atexit.register(self.stop)
        self.restarts += 1
        return True

    def _kill_hung(self) -> bool:
        """SIGKILL the folder's hung server and wait until it is gone; call with the folder's
        lock held. Our child is killed and reaped (no zombie left). A server another app
        process started is killed only when ``server.json`` still names it and its command
        line is ``secantusd-py`` on this folder and port, so a reused pid is never killed.
        False when it is not ours to kill or it did not die."""
        if self.process is not None:
            self.process.kill()  # SIGKILL also ends a stopped (SIGSTOP) process
            try:
                self.process.wait(timeout=_KILL_WAIT_S)  # reaps it
            except subprocess.TimeoutExpired:
                return False
            return True
        return _kill_named(self.data_dir, self.pid, self.port)

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


def start_in_background(data_dir: Path, *, timeout_s: float = _START_TIMEOUT_S) -> None:
    """Begin ``start_or_join(data_dir)`` in a thread, once per process and folder: the
    server's second or more of starting then overlaps what the caller does meanwhile (the
    app draws its first page). The next ``start_or_join`` on the folder waits for that start
    and returns its server, or raises its error."""
    data_dir = data_dir.resolve()
    with _BACKGROUND_LOCK:
        if data_dir in _BACKGROUND_BEGUN:
            return
        _BACKGROUND_BEGUN.add(data_dir)
        started: Future[EmbeddedServer] = Future()
        _BACKGROUND[data_dir] = started

    def run() -> None:
        try:
            started.set_result(_start_or_join(data_dir, timeout_s))
        except BaseException as error:  # raised again to the start_or_join that takes it
            started.set_exception(error)

    threading.Thread(target=run, name="aeko-embedded-start", daemon=True).start()


def start_or_join(data_dir: Path, *, timeout_s: float = _START_TIMEOUT_S) -> EmbeddedServer:
    """The server for ``data_dir``: the one already running there, or a new one; the one a
    ``start_in_background`` on the folder began, when no call took it yet.

    A server ``server.json`` names that is alive but hung (it answers no ping, twice, as the
    supervisor checks) holds the folder's storage lock, so no new server could start there:
    when it is the folder's own ``secantusd-py`` it is killed and a new one started (on its
    port when that is free)."""
    data_dir = data_dir.resolve()
    with _BACKGROUND_LOCK:
        started = _BACKGROUND.pop(data_dir, None)
    if started is not None:
        return started.result()
    return _start_or_join(data_dir, timeout_s)


def _start_or_join(data_dir: Path, timeout_s: float) -> EmbeddedServer:
    data_dir.mkdir(parents=True, exist_ok=True)
    with _locked(data_dir / _LOCK_FILE):
        running = _running(data_dir)
        if running is not None:
            return running
        port = None  # a dead server's (stale server.json) or a stranger's: any free one
        state = _state(data_dir)
        if state is not None and process_alive(state[0]):
            pid, hung_port = state
            # Busy after all, or not ours (a reused pid): left alone. Hung and not dying
            # (stuck in the kernel): no server can start on the folder.
            if _is_server(pid, data_dir, hung_port) and not _answers(hung_port):
                if not _kill_named(data_dir, pid, hung_port):
                    raise StoreUnavailableError(f"embedded server in {data_dir}", embedded=True)
                port = hung_port  # its port, now free, unless another process took it
        server = _start_preferring(data_dir, timeout_s, port)
        _write_state(data_dir, server.pid, server.port)
    atexit.register(server.stop)
    return server


def _kill_named(data_dir: Path, pid: int, port: int) -> bool:
    """SIGKILL the folder's hung server ``pid`` and wait until it is gone; call with the
    folder's lock held. Only when ``server.json`` names it (pid and port) and its command line
    is ``secantusd-py`` on this folder and port, so a reused pid is never killed. False when
    it is not ours to kill or it did not die."""
    if _state(data_dir) != (pid, port):
        return False
    if not _is_server(pid, data_dir, port):
        return False
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)  # SIGKILL also ends a stopped (SIGSTOP) process
    deadline = time.monotonic() + _KILL_WAIT_S
    while not _killed_gone(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _killed_gone(pid: int) -> bool:
    """Whether the SIGKILLed ``pid`` is gone with every thread of it (which may hold the
    folder's lock a moment longer than its main thread). Our child (started by an earlier
    ``start_or_join`` in this process) is reaped, leaving no zombie: a killed process keeps its
    pid until reaped, so this reaps no other; another's child its parent reaps."""
    with contextlib.suppress(ChildProcessError):  # not our child
        if os.waitpid(pid, os.WNOHANG)[0] == pid:
            return True
    if process_alive(pid):
        return False
    # A killed leader is a zombie as soon as its own thread ends, before the others have.
    for task in Path(f"/proc/{pid}/task").glob("*/stat"):  # none without /proc (macOS)
        with contextlib.suppress(FileNotFoundError):
            if task.read_text().rpartition(")")[2].split()[:1] not in (["Z"], ["X"], []):
                return False
    return True


def _start_preferring(data_dir: Path, timeout_s: float, port: int | None) -> EmbeddedServer:
    """A new server on ``data_dir``, on ``port`` when given and free, else on any free one."""
    if port:
        try:
            return _start(data_dir, timeout_s, port=port)
        except StoreUnavailableError:  # the old port is taken: any free one
            pass
    return _start(data_dir, timeout_s)


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


def _state(data_dir: Path) -> tuple[int, int] | None:
    """The (pid, port) ``server.json`` records, or None."""
    try:
        state = json.loads((data_dir / _STATE_FILE).read_text())
        return int(state["pid"]), int(state["port"])
    except (FileNotFoundError, ValueError, KeyError, TypeError):
        return None


def _running(data_dir: Path) -> EmbeddedServer | None:
    state = _state(data_dir)
    if state is None:
        return None
    pid, port = state
    if not process_alive(pid) or not _pings(port, timeout_s=2.0):
        return None
    return EmbeddedServer(port, data_dir, None, pid=pid)


def process_alive(pid: int) -> bool:
    """Whether the process runs. A zombie (killed, not yet reaped by its parent) does not:
    ``kill(pid, 0)`` still finds it, but it holds no port, lock or file any more."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # there, another user's
    return not _zombie(pid)


def _zombie(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return not Path("/proc/self").exists() and _ps(pid, "stat=").startswith("Z")
    except OSError:
        return False
    # "pid (command) state ...": the command may hold spaces and parentheses itself.
    fields = stat.rpartition(")")[2].split()
    return bool(fields) and fields[0] == "Z"


def _is_server(pid: int, data_dir: Path, port: int) -> bool:
    """Whether ``pid`` is ``secantusd-py`` serving ``data_dir`` on ``port`` (as ``_start``
    runs it): what makes a pid from ``server.json`` safe to kill."""
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
        command = raw.replace(b"\0", b" ").decode(errors="replace")
    except FileNotFoundError:
        command = "" if Path("/proc/self").exists() else _ps(pid, "command=")
    except OSError:
        return False
    return (
        "secantusd-py" in command
        and f"--port {port} " in command + " "
        and f"--storage-path {data_dir / 'db'} " in command + " "
    )


def _ps(pid: int, field: str) -> str:
    """One ``ps`` field of ``pid``, where there is no /proc (macOS); "" when unknown."""
    try:
        done = subprocess.run(
            ["ps", "-o", field, "-p", str(pid)],
            capture_output=True,
            text=True,
            timeout=5,
            check=False,  # a gone pid: ps fails, "" is the answer
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.strip()


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


def _answers(port: int, *, timeout_s: float = HUNG_PING_TIMEOUT_S, tries: int = HUNG_PINGS) -> bool:
    """Whether the server on ``port`` answers a ping in ``timeout_s``, in up to ``tries``
    tries: one slow answer from a busy server is not taken for a hang."""
    return any(_pings(port, timeout_s=timeout_s) for _ in range(tries))


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
