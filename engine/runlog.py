"""An optional JSON-lines log of every run's events, one line per event.

Switched on with ``Aeko.config(run_log=path)``. Events carry no credentials by design; the
configured API keys are scrubbed from every line all the same. The log holds no personal
text by default: questions, answers, tool arguments and outputs and guardrail reasons are
left out (their length is kept) unless ``include_text=True``. It rotates by size through
``logging.handlers.RotatingFileHandler``: a line that would take the file to ``max_bytes``
starts a new one, the old becoming ``<name>.1`` (older ones shift to ``.2`` ...), and only
``backups`` old files are kept (none: the file starts over).
"""

from __future__ import annotations

import json
import logging.handlers
import os
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from engine.errors import AekoError

_REDACTED = "[redacted]"
DEFAULT_MAX_BYTES = 10 * 1024 * 1024
DEFAULT_BACKUPS = 5
# Event fields that may hold what a user wrote or what was answered to them.
_TEXT_FIELDS = frozenset({"text", "output", "reasons"})


class RunLog:
    def __init__(
        self,
        path: str | Path,
        secrets: Iterable[str | None] = (),
        *,
        include_text: bool = False,
        max_bytes: int = DEFAULT_MAX_BYTES,
        backups: int = DEFAULT_BACKUPS,
    ) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._secrets = tuple(s for s in secrets if s)
        self.include_text = include_text
        self.max_bytes = max_bytes
        self.backups = max(backups, 0)
        # The handler's lock serialises the writes and the rollovers; delay: no file before
        # the first line. It never rolls a file over without a backup to keep, so with none
        # it keeps one whose rotation deletes the file instead.
        self._handler = logging.handlers.RotatingFileHandler(
            self.path,
            maxBytes=max_bytes,
            backupCount=self.backups or 1,
            encoding="utf-8",
            delay=True,
        )
        if not self.backups:
            self._handler.rotator = lambda source, _dest: os.remove(source)

    def write(self, run_id: str, flow: str, record: dict[str, Any]) -> None:
        if not self.include_text:
            record = _without_text(record)
        line = json.dumps(
            {"at": datetime.now(UTC).isoformat(), "run_id": run_id, "flow": flow, **record},
            ensure_ascii=False,
            default=str,
        )
        for secret in self._secrets:
            line = line.replace(secret, _REDACTED)
        self._handler.acquire()
        try:
            self._handler.handle(logging.makeLogRecord({"msg": line}))
            # Open only while writing, as a plain append would be: a RunLog that a later
            # Aeko.config replaces holds no file, and the next line opens it again.
            self._handler.close()
        finally:
            self._handler.release()

    def follow(self, run_id: str, flow: str, events: Iterator[Any]) -> Iterator[Any]:
        """Pass the events through, writing each; a run that fails writes why, and a run
        abandoned midway (a closed stream) writes that it was interrupted."""
        self.write(run_id, flow, {"kind": "run_started"})
        finished = False
        try:
            for event in events:
                payload = event.model_dump(mode="json") if isinstance(event, BaseModel) else event
                record = payload if isinstance(payload, dict) else {"event": payload}
                finished = record.get("kind") == "run_finished"
                self.write(run_id, flow, record)
                yield event
        except GeneratorExit:
            if not finished:  # a reader may stop at the result: that run is not interrupted
                self.write(run_id, flow, {"kind": "run_interrupted"})
            raise
        except Exception as exc:
            record = {"kind": "run_failed", "error": type(exc).__name__}
            if self.include_text or isinstance(exc, AekoError):
                record["message"] = str(exc)
            self.write(run_id, flow, record)
            raise


def _without_text(record: dict[str, Any]) -> dict[str, Any]:
    """The record with personal text replaced by its length, tool arguments by their names
    and a finished run's result by its usage."""
    kept: dict[str, Any] = {}
    for key, value in record.items():
        if key in _TEXT_FIELDS and isinstance(value, str):
            kept[f"{key}_chars"] = len(value)
        elif key == "arguments" and isinstance(value, dict):
            kept["argument_names"] = sorted(value)
        elif key == "result" and isinstance(value, dict):
            kept["result"] = {"usage": value.get("usage")} if "usage" in value else {}
        else:
            kept[key] = value
    return kept
