"""What the engine is made of: its agents, the two flows and their bounds."""

import streamlit as st

from engine import GUARD_RAIL_MAX_RETRIES, MAX_MODEL_CALLS, PLAN_FORMAT_MAX_RETRIES, __version__
from engine.agents.catalog import AGENTS
from engine.graph.routing import ENTRY


def render_engine_overview() -> None:
    st.subheader("Agents")
    st.dataframe(
        [{"Agent": spec.name, "Model": spec.tier, "Role (pt-BR)": spec.role} for spec in AGENTS],
        hide_index=True,
    )
    chat, inventory = st.columns(2)
    with chat:
        st.subheader("Chat")
        st.markdown(
            f"Enters at **{ENTRY['chat']}**. Answers from the analysts pass the output "
            f"guardrail, which may send a draft back {GUARD_RAIL_MAX_RETRIES} times. "
            f"At most {MAX_MODEL_CALLS['chat']} model calls per turn."
        )
    with inventory:
        st.subheader("Inventory")
        st.markdown(
            f"Enters at **{ENTRY['inventory']}**; the pollutant and green-gas analysts run in "
            f"parallel; the coordinator writes the plan and may be asked to rewrite it "
            f"{PLAN_FORMAT_MAX_RETRIES} times. At most {MAX_MODEL_CALLS['inventory']} model "
            "calls per plan."
        )
    st.caption(f"Engine {__version__}")
