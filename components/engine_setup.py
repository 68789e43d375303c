"""The engine, configured once per process: Gemini with a key, the offline analyst without."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from engine import DEFAULT_FAST_MODEL, DEFAULT_SLOW_MODEL, Aeko
from engine.offline import OfflineAnalyst


@dataclass(frozen=True)
class EngineStatus:
    offline: bool
    fast_model: str
    slow_model: str


@st.cache_resource
def configure_engine(api_key: str | None) -> EngineStatus:
    if api_key:
        Aeko.config(api_key)
        return EngineStatus(False, DEFAULT_FAST_MODEL, DEFAULT_SLOW_MODEL)
    analyst = OfflineAnalyst()
    Aeko.config(fast_model=analyst, slow_model=analyst)
    return EngineStatus(True, analyst.model_name, analyst.model_name)


def engine_status(status: EngineStatus) -> None:
    with st.sidebar:
        if status.offline:
            st.caption(
                ":material/cloud_off: Modelo: analista offline (sem chave de API). "
                "Defina GEMINI_API_KEY para usar o Gemini."
            )
        else:
            st.caption(f":material/cloud: Modelos: {status.fast_model} / {status.slow_model}")
