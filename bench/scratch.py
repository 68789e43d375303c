"""A scratch database for a benchmark: the embedded server in a temporary folder (or the
database `MONGODB_URI` names), under a database name of its own, dropped afterwards."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from uuid import uuid4

from store import Store, StoreConfig, connect


@contextlib.contextmanager
def scratch_store(name: str) -> Iterator[tuple[Store, Path]]:
    """``(store, data folder)`` for the benchmark ``name``; the database goes at the end."""
    data_dir = Path(tempfile.mkdtemp(prefix=f"aeko-bench-{name}-"))
    uri = os.environ.get("MONGODB_URI") or None
    store = connect(StoreConfig(uri=uri, db=f"bench_{name}_{uuid4().hex[:8]}", data_dir=data_dir))
    try:
        yield store, data_dir
    finally:
        store.client.drop_database(store.db.name)
        store.close()
