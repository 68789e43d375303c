"""What the next plan is computed with: a reduction target, and the user's measure catalogue
and cost quotes (the sample comes with its fictional company's quotes)."""

from __future__ import annotations

from importlib import resources

import streamlit as st

from application.planning import PlanInputs, TargetChoice, default_target, plan_inputs
from application.safe_text import sanitize
from components.i18n import language, t
from components.open_inventory import CATALOGUE, COSTS, measure_files
from engine.errors import LocalizedError
from engine.inventory import Inventory

SAMPLE_COSTS_NOTE = "sample"  # the costs came with the sample: say they are illustrative


def plan_inputs_section(inventory: Inventory, digest: str) -> PlanInputs | None:
    """Draw the target and the measure files; None (with the reason shown) when a file does
    not read, so no run starts on it."""
    choice = _target(inventory, digest)
    with st.expander(t("plan_measures"), icon=":material/tune:"):
        _catalogue_download()
        _upload(t("plan_catalogue_upload"), CATALOGUE, "catalogue")
        _upload(t("plan_costs_upload"), COSTS, "costs")
    catalogue, costs = measure_files()
    if costs is None:
        st.caption(f":material/info: {t('plan_costs_none')}")
    elif st.session_state.get(f"{COSTS}-origin") == SAMPLE_COSTS_NOTE:
        st.caption(f":material/info: {t('plan_costs_sample')}")
    try:
        return plan_inputs(inventory, choice, catalogue, costs)
    except LocalizedError as error:
        st.error(
            t("plan_measures_error", message=error.message(language())), icon=":material/error:"
        )
        return None


def _target(inventory: Inventory, digest: str) -> TargetChoice | None:
    st.markdown(f"**{t('plan_target')}**")
    if not st.toggle(t("plan_target_on"), value=True, key=f"target-on-{digest}"):
        return None
    suggested = default_target(inventory)
    base_col, pct_col, year_col = st.columns(3)
    base = base_col.number_input(
        t("plan_base_year"), 1990, 2100, suggested.base_year, key=f"target-base-{digest}"
    )
    year = year_col.number_input(
        t("plan_target_year"), 1991, 2100, suggested.year, key=f"target-year-{digest}"
    )
    percent = pct_col.number_input(
        t("plan_percent"), 0.1, 100.0, float(min(suggested.percent, 100.0)), step=0.1,
        format="%.1f", key=f"target-pct-{digest}", help=t("plan_target_help"),
    )  # fmt: skip
    market = inventory.scope2_market_tco2e is not None and st.toggle(
        t("plan_target_market"), value=False, key=f"target-market-{digest}",
        help=t("plan_target_market_help"),
    )  # fmt: skip
    if year <= base:
        st.warning(t("plan_target_year") + " > " + t("plan_base_year"), icon=":material/warning:")
        return None
    return TargetChoice(
        base_year=int(base), percent=float(percent), year=int(year),
        scope2_method="market" if market else "location",
    )  # fmt: skip


def _upload(label: str, key: str, name: str) -> None:
    uploaded = st.file_uploader(label, type=["csv"], key=f"upload-{name}")
    if uploaded is not None:
        st.session_state[key] = (uploaded.name, uploaded.getvalue())
        st.session_state.pop(f"{key}-origin", None)
    current = st.session_state.get(key)
    if current is not None:
        st.caption(f":material/description: {sanitize(current[0])}")
        if st.button(t("delete"), key=f"remove-{name}", icon=":material/delete:"):
            st.session_state.pop(key, None)
            st.rerun()


def _catalogue_download() -> None:
    path = resources.files("engine.measures").joinpath("data").joinpath("measures.csv")
    st.download_button(
        t("plan_catalogue_download"),
        path.read_bytes(),
        file_name="aeko_medidas.csv",
        mime="text/csv",
        icon=":material/download:",
    )
