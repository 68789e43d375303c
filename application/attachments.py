"""The inventory a conversation reads: chosen from the user's saved uploads, remembered by the
session, reopened from the stored file with the settings it was analysed with.

Reopening re-reads the workbook (the stored file is the source of truth, not a cached
table), so it is cached per process by the upload's content hash and settings.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass

from application.inventories import load
from application.workspace import Workspace
from engine import AekoImprovementPlan
from engine.gases.gwp import DEFAULT_CH4_ORIGIN
from engine.inventory import DEFAULT_GWP_SET, Inventory
from store import StoreError
from store.repositories.inventories import InventoryRecord

_CACHED = 8  # inventories kept open per process: a handful of users' current attachments
_cache: OrderedDict[tuple, Inventory] = OrderedDict()
_lock = threading.Lock()


@dataclass(frozen=True)
class Attached:
    """An attached inventory, open, with the plan saved for it (the newest), if any."""

    record: InventoryRecord
    inventory: Inventory
    plan: AekoImprovementPlan | None


def choices(workspace: Workspace, limit: int = 50) -> list[InventoryRecord]:
    """The user's saved inventories, newest first: what a conversation can attach."""
    return workspace.store.inventories(workspace.user.id).list(limit=limit)


# The attachment read with the session document, for the rest of the rerun (one workspace
# per rerun): id(workspace) -> (a weak reference to it, session id, inventory id).
_read: dict[int, tuple[weakref.ref, str, str | None]] = {}


def remember(workspace: Workspace, session_id: str, inventory_id: str | None) -> None:
    """What the session document said is attached: ``attached_id`` answers from it for as
    long as this workspace (this rerun) lives, instead of reading the document again."""
    key = id(workspace)
    ref = weakref.ref(workspace, lambda _gone, key=key: _read.pop(key, None))
    _read[key] = (ref, session_id, inventory_id)


def attached_id(workspace: Workspace, session_id: str) -> str | None:
    known = _read.get(id(workspace))
    if known is not None and known[0]() is workspace and known[1] == session_id:
        return known[2]
    return workspace.store.sessions(workspace.user.id).attachment(session_id)


def attach(workspace: Workspace, session_id: str, inventory_id: str | None) -> bool:
    """Remember the conversation's inventory; None detaches. False if the session is gone."""
    attached = workspace.store.sessions(workspace.user.id).attach(session_id, inventory_id)
    known = _read.get(id(workspace))
    if attached and known is not None and known[0]() is workspace and known[1] == session_id:
        remember(workspace, session_id, inventory_id)
    return attached


def open_attached(workspace: Workspace, inventory_id: str) -> Attached:
    """The saved upload, read again as it was analysed, with its newest plan.

    Raises ``NotFoundError`` for an inventory that is not this user's, ``StoreError`` when the
    database is away, and the loader's errors if the stored file no longer reads.
    """
    repository = workspace.store.inventories(workspace.user.id)
    record = repository.get(inventory_id)
    inventory = _open(repository, record)
    try:
        plans = workspace.store.plans(workspace.user.id).by_inventory(record.number)
    except StoreError:
        plans = []
    return Attached(record, inventory, plans[0] if plans else None)


def _open(repository, record: InventoryRecord) -> Inventory:
    summary = record.summary
    gwp_set = str(summary.get("gwp_set") or DEFAULT_GWP_SET)
    ch4_origin = str(summary.get("ch4_origin") or DEFAULT_CH4_ORIGIN)
    key = (
        record.sha256, record.factors_filename, gwp_set, ch4_origin, repr(record.mapping),
        repr(record.units),
    )  # fmt: skip
    with _lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    data = repository.file(record.id)
    factors_data = repository.factors_file(record.id) if record.factors_filename else None
    factors = (record.factors_filename, factors_data) if factors_data else None
    inventory = load(
        record.filename,
        data,
        sheets=record.sheets or None,
        gwp_set=gwp_set,
        ch4_origin=ch4_origin,
        overrides=record.mapping or None,
        factors=factors,
        units=record.units or None,
    )
    with _lock:
        _cache[key] = inventory
        while len(_cache) > _CACHED:
            _cache.popitem(last=False)
    return inventory
