"""The Inventory page's state: one typed object in the session (issue #25), the page reaching
the session only through it, and an analysis reopened with the settings it was read with."""

import ast
import hashlib
from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]


def test_the_inventory_page_never_touches_the_session_itself():
    tree = ast.parse((ROOT / "pages" / "inventory.py").read_text())
    touches = [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr == "session_state"
    ]
    assert touches == [], f"st.session_state at lines {touches}: use InventoryPageState"


def _reopened() -> None:
    import streamlit as st

    from components.inventory_state import InventoryPageState

    state = InventoryPageState.of_session()
    if "done" not in st.session_state:
        state.overrides_of("other")["Aba"] = {"Coluna": "fuel"}
        state.reopen(
            {
                "name": "frota.xlsx",
                "data": b"workbook bytes",
                "sheets": ["Frota"],
                "overrides": {"Frota": {"Litros": "quantity"}},
                "units": {"Frota": "kg"},
                "gwp_set": "AR6",
                "ch4_origin": "fossil",
                "factors": None,
                "added": [{"activity": "diesel", "quantity": 10.0}],
                "costs": ("custos.csv", b"medida,custo"),
                "catalogue": None,
                "costs_origin": None,
            }
        )
        st.session_state["done"] = True
    # Read on a later rerun: the object is the same one, kept under one key.
    st.session_state["seen"] = InventoryPageState.of_session() is state


def test_a_reopened_analysis_sets_its_file_its_settings_and_its_widgets():
    app = AppTest.from_function(_reopened).run()
    app.run()
    assert not app.exception
    digest = hashlib.sha256(b"workbook bytes").hexdigest()
    state = app.session_state["aeko_inventory_page"]
    assert app.session_state["seen"]
    assert app.session_state["aeko_inventory_upload"] == ("frota.xlsx", b"workbook bytes")
    assert state.overrides[digest] == {"Frota": {"Litros": "quantity"}}
    assert state.overrides["other"] == {"Aba": {"Coluna": "fuel"}}  # another upload's, kept
    assert state.units[digest] == {"Frota": "kg"}
    assert app.session_state[state.sheets_widget(digest)] == ["Frota"]
    assert app.session_state[state.unit_widget(digest, "Frota")] == "kg"
    assert app.session_state["gwp-set"] == "AR6"
    assert app.session_state["ch4-origin"] == "fossil"
    assert app.session_state["aeko_inventory_added"] == [{"activity": "diesel", "quantity": 10.0}]
    assert app.session_state["aeko_measure_costs"] == ("custos.csv", b"medida,custo")
    assert "aeko_inventory_factors" not in app.session_state
    assert state.plan is None
