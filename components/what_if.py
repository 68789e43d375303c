"""What-if: tick the plan's actions, change a fuel share or a refrigerant, and see the
inventory by scope before and after; a scenario is saved with the plan and reopened.

The plan card draws it in its What if tab. A range whose ends are written alike is one
number; the notes under the table are the scenario's own (``ScopeTotals.notes``), each
said once."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from application import scenarios
from application.safe_text import csv_safe_frame, sanitize
from application.workspace import Workspace
from components.i18n import language, number, t
from engine.actions.model import Action, PlanActions
from engine.actions.scenario import Scenario, ScenarioError, ScopeTotals, recompute
from engine.inventory import Inventory
from store import StoreError

# Refrigerants a leak can move to (low-GWP options the catalogue cites).
REFRIGERANTS = ("R-1234ze(E)", "R-1234yf", "R-513A", "R-515B", "R-32", "R-290", "R-744", "R-448A")


def what_if(workspace: Workspace, inventory: Inventory, plan: PlanActions, run_id: str) -> None:
    st.markdown(f"#### {t('whatif_title')}")
    st.caption(t("whatif_caption"))
    lang = language()
    options = [*plan.actions, *plan.alternatives]
    saved = _saved(workspace, run_id)
    names = [entry["name"] for entry in saved]
    # The labels are written now, in this run's language: a format_func reading the language
    # when called would be called outside the run by streamlit.testing.
    shown = {"": t("whatif_plan_default"), **{name: name for name in names}}
    base = st.selectbox(t("whatif_open"), ["", *names], key=f"whatif-open-{run_id}",
                        format_func=shown.get)  # fmt: skip
    start = _scenario_of(saved, base) or Scenario(selected=tuple(a.id for a in plan.actions))
    selected, shares, substitutes = [], {}, {}
    for action in options:
        key = f"whatif-{run_id}-{base}-{action.id}"
        label = f"{sanitize(action.measure[lang])} — {sanitize(action.source[lang])}"
        if not st.checkbox(label, value=action.id in start.selected, key=key):
            continue
        selected.append(action.id)
        if action.mechanism in ("fuel_switch", "market_instrument", "electrification"):
            default = start.shares.get(action.id, _default_share(action))
            shares[action.id] = st.slider(
                t("whatif_share"), 0, 100, round(default * 100), 5, key=f"{key}-share",
            ) / 100  # fmt: skip
        if action.mechanism == "refrigerant":
            current = start.substitutes.get(action.id, _substitute(action))
            choices = list(dict.fromkeys([current, *REFRIGERANTS]))
            substitutes[action.id] = st.selectbox(
                t("whatif_refrigerant"), choices, key=f"{key}-gas"
            )
    scenario = Scenario(selected=tuple(selected), shares=shares, substitutes=substitutes)
    try:
        totals = recompute(inventory, options, scenario)
    except ScenarioError as error:
        st.error(error.message(lang), icon=":material/error:")
        return
    _show(totals)
    name_col, save_col = st.columns([3, 1], vertical_alignment="bottom")
    name = name_col.text_input(t("whatif_name"), value=base or "", key=f"whatif-name-{run_id}")
    if save_col.button(t("whatif_save"), key=f"whatif-save-{run_id}", disabled=not name.strip()):
        try:
            scenarios.save(workspace, run_id, name.strip(), scenario)
        except StoreError as error:
            st.error(error.message(lang), icon=":material/database_off:")
        else:
            st.success(t("whatif_saved", name=sanitize(name.strip())), icon=":material/check:")


def _show(totals: ScopeTotals) -> None:
    lang = language()
    rows = [
        (t("whatif_scope1"), totals.scope1),
        (t("whatif_scope2_location"), totals.scope2_location),
        (t("whatif_scope3"), totals.scope3),
        (t("whatif_total"), totals.total),
        (t("whatif_scope2_market"), totals.scope2_market),
    ]
    frame = pd.DataFrame(
        [
            {
                t("whatif_figure"): label,
                t("whatif_before"): number(figure.before_tco2e),
                t("whatif_after"): span(figure.after_with_high_tco2e, figure.after_with_low_tco2e),
                t("whatif_cut"): span(figure.reduction_low_tco2e, figure.reduction_high_tco2e),
            }
            for label, figure in rows
        ]
    )
    figures = (t("whatif_before"), t("whatif_after"), t("whatif_cut"))
    st.dataframe(
        csv_safe_frame(frame),
        hide_index=True,
        width="stretch",
        column_config={name: st.column_config.Column(alignment="right") for name in figures},
    )
    # The scenario's notes already say that the two Scope 2 methods are never summed and
    # where a missing market-based baseline starts; the biogenic CO2 added is a figure.
    notes = [note.get(lang, "") for note in totals.notes]
    if totals.biogenic_co2_added_t:
        notes.append(t("whatif_biogenic", value=number(totals.biogenic_co2_added_t)))
    st.caption("\n\n".join(sanitize(note) for note in dict.fromkeys(notes) if note))


def span(low: float, high: float) -> str:
    """'low – high' in the interface language, or one number when both are written alike."""
    first, last = number(low), number(high)
    return first if first == last else f"{first} – {last}"


def _saved(workspace: Workspace, run_id: str) -> list[dict]:
    try:
        return scenarios.saved(workspace, run_id)
    except StoreError:
        return []


def _scenario_of(saved: list[dict], name: str) -> Scenario | None:
    for entry in saved:
        if entry["name"] == name:
            return Scenario.model_validate(entry["scenario"])
    return None


def _default_share(action: Action) -> float:
    # The plan's own share: the middle of its range, as the table's mid reduction uses.
    return (action.share_low + action.share_high) / 2


def _substitute(action: Action) -> str:
    return action.substitute or REFRIGERANTS[0]
