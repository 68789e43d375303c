"""An analysis as a worker receives it (issue #24, point 5): the stored upload it reads and
everything the page read it with, so a process that never saw the page builds the same
inventory and the same plan inputs.

The upload itself (and the user's factor file) is in GridFS with its record; what the run
document holds is small: the reading settings, the target the user chose, the measure
catalogue and cost quotes (CSV files of a few kB, kept whole because they are not stored
anywhere else), and the id of the plan it builds on.

Sheet and column names are user text: they go in as lists of pairs, never as document keys
(a key may not hold a dot or start with "$").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from bson.binary import Binary

from application import inventories
from application.inventories import FactorFile
from application.planning import File, PlanInputs, TargetChoice, plan_inputs
from application.workspace import Workspace
from engine import AekoImprovementPlan
from engine.inventory import Inventory
from engine.texts import Lang, lang_of
from store import StoreError
from store.repositories import InventoryRecord

# A measure file larger than this is not copied into a run document (16 MB at most in all):
# such an analysis runs in the page's process instead.
MAX_FILE_BYTES = 2 * 1024 * 1024

# What a page's ``reopen`` must hold for a worker to read the upload as the page did.
READING_KEYS = frozenset({"name", "gwp_set", "ch4_origin"})

Overrides = Mapping[str, Mapping[str, str | None]]


@dataclass(frozen=True)
class AnalysisRequest:
    inventory_id: str  # the stored upload (GridFS)
    name: str
    gwp_set: str
    ch4_origin: str
    sheets: list[str] = field(default_factory=list)
    overrides: dict[str, dict[str, str | None]] = field(default_factory=dict)
    units: dict[str, str] = field(default_factory=dict)
    added: list[dict[str, Any]] = field(default_factory=list)
    target: TargetChoice | None = None
    catalogue: File | None = None
    costs: File | None = None
    previous_plan_id: str | None = None
    # The user's language, that the plan is written in; a request stored before it was kept
    # had none, and those plans were Portuguese.
    language: Lang = "pt"

    @classmethod
    def of(
        cls,
        inventory_id: str,
        reading: Mapping[str, Any],
        planning: PlanInputs | None,
        previous: AekoImprovementPlan | None,
        language: Lang = "pt",
    ) -> AnalysisRequest | None:
        """From what the page keeps to reopen the inventory (``reading``: name, sheets, GWP
        set, methane origin, overrides, units, added rows, catalogue, costs); None when a
        measure file is too large to travel in a run document."""
        catalogue, costs = reading.get("catalogue"), reading.get("costs")
        if any(f is not None and len(f[1]) > MAX_FILE_BYTES for f in (catalogue, costs)):
            return None
        return cls(
            inventory_id=inventory_id,
            name=str(reading["name"]),
            gwp_set=str(reading["gwp_set"]),
            ch4_origin=str(reading["ch4_origin"]),
            sheets=list(reading.get("sheets") or []),
            overrides={k: dict(v) for k, v in (reading.get("overrides") or {}).items()},
            units=dict(reading.get("units") or {}),
            added=[dict(row) for row in reading.get("added") or []],
            target=planning.choice if planning is not None else None,
            catalogue=tuple(catalogue) if catalogue else None,  # type: ignore[arg-type]
            costs=tuple(costs) if costs else None,  # type: ignore[arg-type]
            previous_plan_id=str(previous.id) if previous is not None and previous.id else None,
            language=lang_of(language),
        )

    def document(self) -> dict[str, Any]:
        return {
            "inventory_id": self.inventory_id,
            "name": self.name,
            "gwp_set": self.gwp_set,
            "ch4_origin": self.ch4_origin,
            "sheets": list(self.sheets),
            "overrides": [
                [sheet, column, mapped]
                for sheet, columns in self.overrides.items()
                for column, mapped in columns.items()
            ],
            "units": [[sheet, unit] for sheet, unit in self.units.items()],
            "added": [_plain(row) for row in self.added],
            "target": None if self.target is None else asdict(self.target),
            "catalogue": _file_document(self.catalogue),
            "costs": _file_document(self.costs),
            "previous_plan_id": self.previous_plan_id,
            "language": self.language,
        }

    @classmethod
    def from_document(cls, document: Mapping[str, Any]) -> AnalysisRequest:
        target = document.get("target")
        return cls(
            inventory_id=str(document["inventory_id"]),
            name=str(document["name"]),
            gwp_set=str(document["gwp_set"]),
            ch4_origin=str(document["ch4_origin"]),
            sheets=list(document.get("sheets") or []),
            overrides=overrides_of(document.get("overrides")),
            units=dict(document.get("units") or []),
            added=[dict(row) for row in document.get("added") or []],
            target=TargetChoice(**target) if target else None,
            catalogue=_file_of(document.get("catalogue")),
            costs=_file_of(document.get("costs")),
            previous_plan_id=document.get("previous_plan_id"),
            language=lang_of(document.get("language")),
        )


@dataclass(frozen=True)
class Prepared:
    """What ``inventories.analyse`` takes, rebuilt where the analysis runs."""

    record: InventoryRecord
    data: bytes
    inventory: Inventory
    factors: FactorFile | None
    planning: PlanInputs
    previous: AekoImprovementPlan | None


def prepare(workspace: Workspace, request: AnalysisRequest) -> Prepared:
    """Read the stored upload again, as the page read it. Raises ``StoreError`` when the
    database cannot give the file back, and the loader's or the catalogue's localized
    errors for a file that no longer reads (a library changed since)."""
    repository = workspace.store.inventories(workspace.user.id)
    record = repository.get(request.inventory_id)
    data = repository.file(request.inventory_id)
    own = repository.factors_file(request.inventory_id)
    factors = (record.factors_filename or "factors.csv", own) if own is not None else None
    inventory = inventories.load(
        request.name, data, sheets=request.sheets or None, gwp_set=request.gwp_set,
        ch4_origin=request.ch4_origin, overrides=request.overrides, factors=factors,
        added=request.added, units=request.units,
    )  # fmt: skip
    planning = plan_inputs(inventory, request.target, request.catalogue, request.costs)
    previous = None
    if request.previous_plan_id:
        try:
            previous = workspace.store.plans(workspace.user.id).get(request.previous_plan_id)
        except StoreError:  # deleted since: the analysis goes on without it, as a new one
            previous = None
    return Prepared(record, data, inventory, factors, planning, previous)


def _plain(row: Mapping[str, Any]) -> dict[str, Any]:
    return {str(k): (v if isinstance(v, str | int | float | bool) or v is None else str(v))
            for k, v in row.items()}  # fmt: skip


def _file_document(file: File | None) -> dict[str, Any] | None:
    return None if file is None else {"name": file[0], "data": Binary(file[1])}


def _file_of(document: Mapping[str, Any] | None) -> File | None:
    return None if not document else (str(document["name"]), bytes(document["data"]))


def overrides_of(value: Sequence[Sequence[Any]] | None) -> dict[str, dict[str, str | None]]:
    """Overrides from their stored pairs (what ``document`` writes)."""
    overrides: dict[str, dict[str, str | None]] = {}
    for sheet, column, mapped in value or []:
        overrides.setdefault(sheet, {})[column] = mapped
    return overrides
