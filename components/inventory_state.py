"""The Inventory page's state in this browser tab, in one typed object under one session key.

What only the page keeps (the plan it shows, the mapping overrides and unit choices per
upload, the factor uploader's generation) lives in the object's fields. What other pages and
components read too (the upload, the user's factor and cost files, the calculator's rows;
``components/open_inventory``) stays under its own session key, reached through the object's
methods. Widgets keep their values under their ``key=`` (Streamlit's rule): the object names
those keys, and sets them only before their widget is drawn (a reopened analysis).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from components import open_inventory
from components.gwp_default import INVENTORY_WIDGET
from engine import AekoImprovementPlan
from engine.inventory.notice import Reading

# One upload's column overrides: sheet -> workbook column -> canonical field (None: no field).
Overrides = dict[str, dict[str, str | None]]
# (file name, bytes), as ``open_inventory`` keeps a file.
File = tuple[str, bytes]

SESSION_KEY = "aeko_inventory_page"
# Read by components/plan_inputs too: where the cost quotes came from (the sample's note).
COSTS_ORIGIN = f"{open_inventory.COSTS}-origin"

# Widget keys that do not depend on the upload.
GWP_WIDGET = INVENTORY_WIDGET  # shared with Settings' default (components/gwp_default)
CH4_WIDGET = "ch4-origin"
FACTORS_REMOVE = "own-factors-remove"


@dataclass(frozen=True)
class ShownPlan:
    """The plan the page shows under the inventory: the last analysis followed here."""

    plan: AekoImprovementPlan
    number: int  # the stored inventory's number, in the plan's title
    run_id: str
    reading: Reading | None  # how the inventory stood when analysed, as stored with it


@dataclass
class InventoryPageState:
    plan: ShownPlan | None = None
    # A new generation gives the factor uploader a new key, which empties it.
    factors_generation: int = 0
    # Per upload (SHA-256 of its bytes): kept when the user opens another file and comes back.
    overrides: dict[str, Overrides] = field(default_factory=dict)
    units: dict[str, dict[str, str]] = field(default_factory=dict)  # sheet -> unit chosen

    @classmethod
    def of_session(cls) -> InventoryPageState:
        state = st.session_state.get(SESSION_KEY)
        if not isinstance(state, cls):  # first run, or this module reloaded by a dev server
            state = cls()
            st.session_state[SESSION_KEY] = state
        return state

    # --- widget keys -----------------------------------------------------------------------
    @staticmethod
    def sheets_widget(digest: str) -> str:
        return f"sheets-{digest}"

    @staticmethod
    def unit_widget(digest: str, sheet: str) -> str:
        """The unit choice of one sheet of one upload (sheet names are the workbook's)."""
        return f"unit-{digest}-{hashlib.sha256(sheet.encode()).hexdigest()[:12]}"

    @staticmethod
    def mapping_widget(digest: str, shown: str) -> str:
        return f"mapping-{digest}-{shown}"

    @staticmethod
    def table_all_widget(reading: str) -> str:
        return f"table-all-{reading}"

    @staticmethod
    def markdown_widget(reading: str) -> str:
        return f"markdown-preview-{reading}"

    @staticmethod
    def confirm_widget(digest: str) -> str:
        return f"confirm-unproven-{digest}"

    @staticmethod
    def open_run_widget(run_id: str) -> str:
        return f"open-run-{run_id}"

    @property
    def factors_widget(self) -> str:
        return f"own-factors-{self.factors_generation}"

    @staticmethod
    def has_value(widget: str) -> bool:
        """Whether ``widget`` holds a value already: Streamlit refuses a default beside it."""
        return widget in st.session_state

    @staticmethod
    def value(widget: str) -> Any:
        return st.session_state.get(widget)

    # --- the open inventory, shared with the other pages ----------------------------------
    @staticmethod
    def upload() -> File | None:
        return open_inventory.upload()

    def open_upload(self, name: str, data: bytes) -> None:
        """The file in the uploader: another file than the one open drops its plan and the
        calculator's rows (they belonged to the other file)."""
        current = open_inventory.upload()
        if current is None or current[1] != data:
            self.plan = None
            open_inventory.clear_added()
        st.session_state[open_inventory.UPLOAD] = (name, data)

    def open_sample(self, sample: File, costs: File, costs_origin: str) -> None:
        """The sample inventory, with its company's own cost quotes (so its plan has a cost
        curve) and the note saying what they are."""
        st.session_state[open_inventory.UPLOAD] = sample
        self.plan = None
        open_inventory.clear_added()
        st.session_state[open_inventory.COSTS] = costs
        st.session_state[COSTS_ORIGIN] = costs_origin

    @staticmethod
    def own_factors() -> File | None:
        return open_inventory.own_factors()

    @staticmethod
    def keep_own_factors(own: File) -> None:
        st.session_state[open_inventory.FACTORS] = own

    @staticmethod
    def drop_own_factors() -> None:
        st.session_state.pop(open_inventory.FACTORS, None)

    def remove_own_factors(self) -> None:
        """Dropped and the uploader emptied (it would hand the same file back otherwise)."""
        self.drop_own_factors()
        self.factors_generation += 1

    @staticmethod
    def added_rows() -> list[dict[str, Any]]:
        return open_inventory.added_rows()

    @staticmethod
    def clear_added() -> None:
        open_inventory.clear_added()

    @staticmethod
    def set_year(year: str | None) -> None:
        """The open inventory's headline year: the calculator's default for rows added."""
        open_inventory.set_year(year)

    @staticmethod
    def measure_files() -> dict[str, Any]:
        """The cost quotes, the catalogue and where the quotes came from, for ``reopen``."""
        catalogue, costs = open_inventory.measure_files()
        return {
            "costs": costs,
            "catalogue": catalogue,
            "costs_origin": st.session_state.get(COSTS_ORIGIN),
        }

    # --- what the reading depends on, per upload ------------------------------------------
    def overrides_of(self, digest: str) -> Overrides:
        """The upload's overrides, to read with and to add the mapping editor's edits to."""
        return self.overrides.setdefault(digest, {})

    def units_of(self, digest: str) -> dict[str, str]:
        return self.units.setdefault(digest, {})

    def choose_unit(self, digest: str, sheet: str) -> None:
        """The unit picked for ``sheet`` (a widget callback): kept with the reading settings,
        so this very rerun reads the sheet in it; none picked, the loader decides."""
        chosen = self.value(self.unit_widget(digest, sheet))
        units = self.units_of(digest)
        if chosen:
            units[sheet] = chosen
        else:
            units.pop(sheet, None)

    def show_plan(
        self, plan: AekoImprovementPlan, number: int, run_id: str, reading: Reading | None
    ) -> None:
        self.plan = ShownPlan(plan, number, run_id, reading)

    # --- an analysis reopened -------------------------------------------------------------
    def reopen(self, reopen: Mapping[str, Any]) -> None:
        """The inventory an analysis read, with the settings it was read with (``reopen`` as
        ``pages/inventory`` gave it to the run). Sets widget values: call it before the
        widgets are drawn (a callback, or above them)."""
        data: bytes = reopen["data"]
        digest = hashlib.sha256(data).hexdigest()
        st.session_state[open_inventory.UPLOAD] = (reopen["name"], data)
        self.plan = None  # the plan of the inventory open before, if any
        st.session_state[self.sheets_widget(digest)] = list(reopen["sheets"])
        self.overrides[digest] = {
            sheet: dict(columns) for sheet, columns in reopen["overrides"].items()
        }
        self.units[digest] = dict(reopen.get("units") or {})
        for sheet, unit in self.units[digest].items():
            st.session_state[self.unit_widget(digest, sheet)] = unit  # shows the choice kept
        st.session_state[GWP_WIDGET] = reopen["gwp_set"]
        st.session_state[CH4_WIDGET] = reopen["ch4_origin"]
        for key, value in (
            (open_inventory.FACTORS, reopen["factors"]),
            (open_inventory.ADDED, reopen["added"]),
            (open_inventory.COSTS, reopen["costs"]),
            (open_inventory.CATALOGUE, reopen["catalogue"]),
        ):
            if value:
                st.session_state[key] = value
            else:
                st.session_state.pop(key, None)
        if reopen.get("costs_origin"):
            st.session_state[COSTS_ORIGIN] = reopen["costs_origin"]
