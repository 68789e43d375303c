"""The engine, configured once per process: Gemini with a key, the offline analyst without."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from components.i18n import t
from engine import Aeko
from engine.offline import OfflineAnalyst
from engine.pricing import is_offline
from settings import Settings


@dataclass(frozen=True)
class EngineStatus:
    offline: bool
    fast_model: str
    slow_model: str


def configure_engine(settings: Settings) -> EngineStatus:
    """Configure the process-wide engine once; later reruns find it configured."""
    if not Aeko.is_configured():
        limits = {
            "max_model_calls_per_run": settings.max_calls_per_run,
            "max_tokens_per_run": settings.max_tokens_per_run,
            "run_log": settings.run_log,
            "run_log_include_text": settings.run_log_include_text,
        }
        if settings.run_deadline_s is not None:
            limits["run_deadline_s"] = settings.run_deadline_s
        if settings.gemini_api_key or settings.provider_keys:
            Aeko.config(
                settings.gemini_api_key,
                fast_model=settings.fast_model,
                slow_model=settings.slow_model,
                fast_fallbacks=settings.fast_fallbacks,
                slow_fallbacks=settings.slow_fallbacks,
                provider_keys=settings.provider_keys,
                **limits,
            )
        else:
            analyst = OfflineAnalyst(
                pace_s=settings.offline_pace_s, priced_as=settings.offline_priced_as
            )
            Aeko.config(fast_model=analyst, slow_model=analyst, **limits)
    fast, slow = Aeko.model_names() or ("", "")
    return EngineStatus(offline=is_offline(fast), fast_model=fast, slow_model=slow)


def engine_status(status: EngineStatus) -> None:
    with st.sidebar:
        if status.offline:
            st.caption(":material/cloud_off: " + t("model_offline"))
        else:
            st.caption(
                ":material/cloud: "
                + t("model_online", fast=status.fast_model, slow=status.slow_model)
            )
