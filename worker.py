"""The run worker's process (issue #24, point 5): ``python worker.py``.

Reads the same settings as the app (environment variables; the app's Streamlit secrets do
not apply here), joins the same database (the embedded server on the data folder, or
``MONGODB_URI``), configures the same engine, and claims queued runs until SIGTERM or
Ctrl-C, when it stops claiming, lets its runs finish for a grace period and hands back the
rest (application/worker.py). ``./dev.sh app`` starts one beside the app; in deployment it
is its own process (docs/deploy.md).
"""

from __future__ import annotations

import logging
import os
import signal
import sys
from pathlib import Path

from application.worker import Worker
from components.engine_setup import configure_engine
from settings import load_settings
from store import connect


def main() -> int:
    settings = load_settings({}, os.environ)
    logging.basicConfig(
        level=logging.DEBUG if settings.debug else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    store = connect(settings.store, timeout_ms=30_000)
    configure_engine(settings)
    folder = Path(settings.data_dir) / "worker"
    folder.mkdir(parents=True, exist_ok=True)
    worker = Worker(store, folder, settings.daily_cost_cap_usd, settings.worker_runs)
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: worker.stop())
    worker.run_forever()
    store.client.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
