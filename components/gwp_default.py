"""The GWP set a reading starts with, and the note that says why a user may want another."""

from __future__ import annotations

import streamlit as st

from application import profile
from components.context import AppContext, require_workspace
from engine.inventory import DEFAULT_GWP_SET, GWP_SETS

# The widget of the inventory page holding the set of the reading on screen.
INVENTORY_WIDGET = "gwp-set"


def default_gwp_set(context: AppContext) -> str:
    """The user's default (Settings); the product's while no database holds a profile."""
    if context.store is None or context.user is None:
        return DEFAULT_GWP_SET
    return profile.default_gwp_set(require_workspace(context))


def default_index(context: AppContext) -> int:
    return GWP_SETS.index(default_gwp_set(context))


def forget_reading_choice() -> None:
    """A new default applies to the next reading: the inventory page's widget drops the set
    it held, which Streamlit would otherwise keep over any default."""
    st.session_state.pop(INVENTORY_WIDGET, None)
