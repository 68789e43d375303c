"""Persistence: MongoDB through pymongo, with an embedded SecantusDB server by default.

Beside ``engine/``, never inside it: the engine hands out DTOs; this package stores them.
"""

from store.client import Store, connect
from store.config import StoreConfig, describe_target
from store.errors import StoreError, StoreUnavailableError
from store.repositories.sessions import SessionDocument

__all__ = ["SessionDocument", "Store", "StoreConfig", "StoreError", "StoreUnavailableError",
           "connect", "describe_target"]  # fmt: skip
