"""Persistence: MongoDB through pymongo, with an embedded SecantusDB server by default.

Beside ``engine/``, never inside it: the engine hands out DTOs; this package stores them.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from store.client import Store, connect
    from store.config import StoreConfig, describe_target
    from store.errors import StoreError, StoreUnavailableError
    from store.repositories.sessions import SessionDocument

# Loaded on first use: settings imports store.config, which runs this file first, and the
# client pulls in the repositories and the engine's DTOs.
_WHERE = {"Store": "store.client", "connect": "store.client", "StoreConfig": "store.config",
          "describe_target": "store.config", "StoreError": "store.errors",
          "StoreUnavailableError": "store.errors",
          "SessionDocument": "store.repositories.sessions"}  # fmt: skip

__all__ = ["SessionDocument", "Store", "StoreConfig", "StoreError", "StoreUnavailableError",
           "connect", "describe_target"]  # fmt: skip


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'store' has no attribute {name!r}")
    return getattr(import_module(_WHERE[name]), name)
