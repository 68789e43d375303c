"""An optional JSON-lines log of every run's events, one line per event.

Switched on with ``Aeko.config(run_log=path)``. Events carry no credentials by design; the
configured API keys are scrubbed from every line all the same.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel

_REDACTED = "[redacted]"


class RunLog:
    def __init__(self, path: str | Path, secrets: Iterable[str | None] = ()) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._secrets = tuple(s for s in secrets if s)
        self._lock = threading.Lock()

    def write(self, run_id: str, flow: str, record: dict[str, Any]) -> None:
        line = json.dumps(
            {"at": datetime.now(UTC).isoformat(), "run_id": run_id, "flow": flow, **record},
            ensure_ascii=False,
            default=str,
        )
        for secret in self._secrets:
            line = line.replace(secret, _REDACTED)
        with self._lock, self.path.open("a", encoding="utf-8") as handle:
            handle.write(line + "\n")

    def follow(self, run_id: str, flow: str, events: Iterator[Any]) -> Iterator[Any]:
        """Pass the events through, writing each; a run that fails writes why."""
        self.write(run_id, flow, {"kind": "run_started"})
        try:
            for event in events:
                payload = event.model_dump(mode="json") if isinstance(event, BaseModel) else event
                self.write(
                    run_id, flow, payload if isinstance(payload, dict) else {"event": payload}
                )
                yield event
        except Exception as exc:
            self.write(
                run_id,
                flow,
                {"kind": "run_failed", "error": type(exc).__name__, "message": str(exc)},
            )
            raise
