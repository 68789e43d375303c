"""The engine, configured once per process: Gemini with a key, the offline analyst without."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from components.i18n import t
from engine import Aeko
from engine.offline import OFFLINE_MODEL_NAME, OfflineAnalyst


@dataclass(frozen=True)
class EngineStatus:
    offline: bool
    fast_model: str
    slow_model: str


def configure_engine(api_key: str | None) -> EngineStatus:
    """Configure the process-wide engine once; later reruns find it configured."""
    if not Aeko.is_configured():
        if api_key:
            Aeko.config(api_key)
        else:
            analyst = OfflineAnalyst()
            Aeko.config(fast_model=analyst, slow_model=analyst)
    fast, slow = Aeko.model_names() or ("", "")
    return EngineStatus(offline=fast == OFFLINE_MODEL_NAME, fast_model=fast, slow_model=slow)


def engine_status(status: EngineStatus) -> None:
    with st.sidebar:
        if status.offline:
            st.caption(":material/cloud_off: " + t("model_offline"))
        else:
            st.caption(
                ":material/cloud: "
                + t("model_online", fast=status.fast_model, slow=status.slow_model)
            )
