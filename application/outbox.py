"""Writes that could not reach the database, kept to be written when it is back.

The use cases write what a run produced (the turn, the plan, the usage) through here, so a
database that went away mid-run loses nothing the user already saw.

Each write is first appended to a journal, a file of JSON lines in the data folder
(``outbox.jsonl``, fsync'd), then attempted; a ``done`` line follows once it reached the
database, and the file is compacted when nothing is left. What an app that stopped (or
crashed) had not written is replayed when the next one starts.

Every write here is idempotent by its run id (a new session by its id, a summary by the turns
it covers), so replaying one that did reach the database before the connection dropped, or
before the app stopped, changes nothing.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Literal
from uuid import uuid4

from pydantic import BaseModel

from engine.actions.model import PlanActions
from engine.dto import (
    AekoConversationSummary,
    AekoImprovementPlan,
    AekoMessage,
    AekoSession,
    AekoUsage,
)
from store.client import Store
from store.errors import StoreError, StoreUnavailableError

log = logging.getLogger(__name__)

JOURNAL_FILE = "outbox.jsonl"
RETRY_AFTER_S = 10.0  # after a failure, later writes are only journalled for this long

Kind = Literal[
    "create_session",
    "complete_turn",
    "reject_turn",
    "save_plan",
    "save_plan_actions",
    "record_usage",
    "save_summary",
]

# The DTOs a write carries, by name, to read them back from the journal.
_MODELS: dict[str, type[BaseModel]] = {
    model.__name__: model
    for model in (
        AekoMessage,
        AekoImprovementPlan,
        AekoUsage,
        PlanActions,
        AekoConversationSummary,
        AekoSession,
    )
}


@dataclass(frozen=True)
class Write:
    kind: Kind
    user_id: str
    args: dict[str, Any]
    id: str = field(default_factory=lambda: uuid4().hex, compare=False)

    @classmethod
    def turn(
        cls,
        user_id: str,
        session_id: str,
        run_id: str,
        message: AekoMessage,
        meta: dict | None = None,
    ) -> Write:
        args = {"session_id": session_id, "run_id": run_id, "message": message, "meta": meta}
        return cls("complete_turn", user_id, args)

    @classmethod
    def rejection(
        cls,
        user_id: str,
        session_id: str,
        run_id: str,
        question: str,
        *,
        reasons: str,
        guardrail_retries: int,
    ) -> Write:
        return cls(
            "reject_turn",
            user_id,
            {
                "session_id": session_id,
                "run_id": run_id,
                "question": question,
                "reasons": reasons,
                "guardrail_retries": guardrail_retries,
            },
        )

    @classmethod
    def plan(
        cls,
        user_id: str,
        plan: AekoImprovementPlan,
        run_id: str,
        totals: dict[str, Any] | None = None,
    ) -> Write:
        """``totals``: what the plan's computed actions add up to (History's ``PlanTotals``
        as a plain dict, so the journal keeps it as JSON), stored with the plan."""
        args: dict[str, Any] = {"plan": plan, "run_id": run_id}
        if totals is not None:  # left out otherwise: the same write as before totals existed
            args["totals"] = totals
        return cls("save_plan", user_id, args)

    @classmethod
    def plan_actions(
        cls, user_id: str, run_id: str, inventory_number: int, actions: PlanActions
    ) -> Write:
        return cls(
            "save_plan_actions",
            user_id,
            {"run_id": run_id, "id_external_inventory": inventory_number, "actions": actions},
        )

    @classmethod
    def usage(
        cls,
        user_id: str,
        run_id: str,
        flow: str,
        usage: AekoUsage,
        *,
        outcome: str,
        session_id: str | None = None,
        inventory_number: int | None = None,
    ) -> Write:
        return cls(
            "record_usage",
            user_id,
            {
                "run_id": run_id,
                "flow": flow,
                "usage": usage,
                "outcome": outcome,
                "session_id": session_id,
                "inventory_number": inventory_number,
            },
        )

    @classmethod
    def summary(cls, user_id: str, session_id: str, summary: AekoConversationSummary) -> Write:
        return cls("save_summary", user_id, {"session_id": session_id, "summary": summary})

    @classmethod
    def new_session(cls, user_id: str, session: AekoSession) -> Write:
        """A conversation started while the database was away, with its id chosen here."""
        return cls("create_session", user_id, {"session": session})

    def apply(self, store: Store) -> None:
        if self.kind == "create_session":
            store.ensure_session(self.user_id, self.args["session"])
        elif self.kind == "save_plan":
            store.plans(self.user_id).save(**self.args)
        elif self.kind == "save_plan_actions":
            store.plan_actions(self.user_id).save(**self.args)
        elif self.kind == "record_usage":
            store.usage(self.user_id).record(**self.args)
        else:
            getattr(store.sessions(self.user_id), self.kind)(**self.args)

    def to_json(self) -> str:
        record = {"op": "write", "id": self.id, "kind": self.kind, "user_id": self.user_id,
                  "args": _encode(self.args)}  # fmt: skip
        return json.dumps(record, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Write:
        return cls(record["kind"], record["user_id"], _decode(record["args"]), id=record["id"])


def _encode(value: Any) -> Any:
    """JSON for a write's arguments: DTOs and datetimes tagged to be read back as such."""
    if isinstance(value, BaseModel):
        dumped = value.model_dump(mode="json", by_alias=True)
        return {"$model": type(value).__name__, "data": dumped}
    if isinstance(value, datetime):
        return {"$datetime": value.isoformat()}
    if isinstance(value, dict):
        return {str(key): _encode(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_encode(item) for item in value]
    return value


def _decode(value: Any) -> Any:
    if isinstance(value, dict):
        if "$model" in value and set(value) == {"$model", "data"}:
            return _MODELS[value["$model"]].model_validate(value["data"])
        if set(value) == {"$datetime"}:
            return datetime.fromisoformat(value["$datetime"])
        return {key: _decode(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_decode(item) for item in value]
    return value


class Journal:
    """The writes not yet in the database, in order, kept in a file (or, without a path,
    in memory only). Shared by every session of the app process; safe across threads, and
    across processes on the same folder (a file lock around each change)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self.lock = threading.RLock()
        self.retry_after = 0.0  # monotonic: writes are not attempted before it
        self._pending: dict[str, Write] = {}
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            with self._file_lock():
                self._pending = _read(path)
                self._compact()

    def pending(self, user_id: str | None = None) -> list[Write]:
        with self.lock:
            writes = list(self._pending.values())
        return [w for w in writes if user_id is None or w.user_id == user_id]

    def append(self, write: Write) -> None:
        """Keep the write, on disk before this returns."""
        line = write.to_json()
        # A snapshot: what is replayed is what was journalled, even if the caller's objects
        # change afterwards (the engine appends the answered turn to the session it got).
        snapshot = Write.from_record(json.loads(line))
        with self.lock:
            self._append_line(line)
            self._pending[write.id] = snapshot

    def done(self, write: Write) -> None:
        """The write reached the database (or can never): forget it."""
        with self.lock:
            if self._pending.pop(write.id, None) is None:
                return
            self._append_line(json.dumps({"op": "done", "id": write.id}))
            if not self._pending and self.path is not None:
                with self._file_lock():
                    self._compact()

    def _append_line(self, line: str) -> None:
        if self.path is None:
            return
        with self._file_lock(), self.path.open("a", encoding="utf-8") as handle:
            handle.write(line + "\n")
            handle.flush()
            os.fsync(handle.fileno())

    def _compact(self) -> None:
        """Rewrite the file with only what is still to be written (from the file itself, so
        another process's entries on the same folder are kept)."""
        assert self.path is not None
        if not self.path.exists():
            return
        still = _read(self.path)
        temporary = self.path.with_suffix(".tmp")
        with temporary.open("w", encoding="utf-8") as handle:
            handle.writelines(write.to_json() + "\n" for write in still.values())
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, self.path)

    @contextlib.contextmanager
    def _file_lock(self):
        assert self.path is not None
        with (self.path.parent / (self.path.name + ".lock")).open("w") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)


def _read(path: Path) -> dict[str, Write]:
    """The journal's writes without a ``done`` line. A line that does not read (the last
    one, cut by a crash mid-write) is skipped."""
    pending: dict[str, Write] = {}
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except FileNotFoundError:
        return pending
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            if record["op"] == "done":
                pending.pop(record["id"], None)
            else:
                write = Write.from_record(record)
                pending[write.id] = write
        except (ValueError, KeyError, TypeError) as error:
            log.warning("outbox journal %s: line %d skipped (%s)", path, number, error)
    return pending


_JOURNALS: dict[Path, Journal] = {}
_JOURNALS_LOCK = threading.Lock()


def journal_for(data_dir: Path) -> Journal:
    """The one journal of a data folder in this process."""
    path = (Path(data_dir) / JOURNAL_FILE).resolve()
    with _JOURNALS_LOCK:
        if path not in _JOURNALS:
            _JOURNALS[path] = Journal(path)
        return _JOURNALS[path]


class Outbox:
    """``submit`` and ``flush`` through a journal; ``queued`` is one user's share of it
    (everyone's without a user id). ``Outbox()`` keeps its journal in memory."""

    def __init__(self, journal: Journal | None = None, user_id: str | None = None) -> None:
        self.journal = journal if journal is not None else Journal()
        self.user_id = user_id

    @property
    def queued(self) -> list[Write]:
        return self.journal.pending(self.user_id)

    def submit(self, store: Store, write: Write) -> bool:
        """Write it now when nothing waits before it and the database answers; the journal
        is the spill, for a write the database did not take or one that must wait behind
        writes kept before it (they go first, in order). True when it was written; False:
        kept for later. No lock is held while the database is called (#24 point 4): a
        write is idempotent by its run id, so two threads replaying one is harmless."""
        journal = self.journal
        if not journal.pending() and time.monotonic() >= journal.retry_after:
            if _apply(store, write):
                return True
            journal.append(write)
            journal.retry_after = time.monotonic() + RETRY_AFTER_S
            return False
        journal.append(write)
        if time.monotonic() < journal.retry_after:
            return False  # the database failed a moment ago: do not wait on it again
        self.flush(store)
        return write.id not in {kept.id for kept in journal.pending()}

    def keep(self, write: Write) -> None:
        """Journal the write without trying it: the database just failed the caller."""
        self.journal.append(write)
        self.journal.retry_after = time.monotonic() + RETRY_AFTER_S

    def resume(self) -> None:
        """The database answered a ping: try the kept writes again without waiting."""
        self.journal.retry_after = 0.0

    def flush(self, store: Store) -> int:
        """Write what was kept, in order, until the first failure. Returns how many. The
        journal's lock guards its file and its list, never a call to the database."""
        journal = self.journal
        written = 0
        for write in journal.pending():
            if not _apply(store, write):
                journal.retry_after = time.monotonic() + RETRY_AFTER_S
                break
            journal.done(write)
            written += 1
        return written


def _apply(store: Store, write: Write) -> bool:
    """Apply one write; a dead or hung embedded server is started again and the write retried
    once. False when the database is unavailable. A write the database refuses for another
    reason (a session deleted since) is dropped, so it cannot hold back the others."""
    for attempt in range(2):
        try:
            write.apply(store)
            return True
        except StoreUnavailableError:
            if attempt:
                return False
            try:  # the write just failed: a live server that answers no ping is hung
                restarted = store.supervise(after_failure=True)
            except StoreUnavailableError:  # it could not be started again: kept for later
                return False
            if not restarted:
                return False
        except StoreError as error:
            log.warning("outbox: %s %s dropped: %s", write.kind, write.id, error)
            return True
    return False
