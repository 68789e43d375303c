"""The agent trail: the engine's events drawn live as ``st.status`` steps, and the verdict."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable

import streamlit as st

from components.i18n import number, t
from engine import (
    AekoError,
    AekoMessageResponse,
    AgentFinished,
    AgentStarted,
    EngineEvent,
    GuardrailVerdict,
    ModelFellBack,
    ModelRetried,
    PlanRewriteRequested,
    RunFinished,
    SummaryUpdated,
    ToolCalled,
    ToolReturned,
)
from engine.offline import OFFLINE_MODEL_NAME

_TOOL_PREVIEW = 1_500


def model_display_name(model: str) -> str:
    """A model's name as the user reads it: the offline analyst by its translated name."""
    return t("offline_label") if model == OFFLINE_MODEL_NAME else model


def run_with_trail(items: Iterable[object]) -> object:
    """Draw each engine event as it arrives; return what the run ends with.

    ``items`` is an engine stream (the result is what ``RunFinished`` carries) or a use
    case's (the result is the first item that is not an engine event: its outcome). A run
    that ends without ``RunFinished`` leaves the trail in its error state; an exception does
    too, and is raised again for the page to explain. Everything drawn so far stays on screen.
    """
    started = time.perf_counter()
    calls = 0
    status = st.status(t("trail_running"), expanded=True)
    finished: RunFinished | None = None
    try:
        for event in items:
            if not isinstance(event, EngineEvent):  # the use case's outcome
                if finished is None:
                    status.update(label=t("trail_failed"), state="error", expanded=True)
                return event
            if isinstance(event, AgentStarted):
                status.update(label=f"{event.agent}…")
            elif isinstance(event, AgentFinished):
                calls += 1
                status.markdown(
                    "**"
                    + t(
                        "trail_agent",
                        agent=event.agent,
                        model=model_display_name(event.model),
                        ms=number(event.duration_ms, 0),
                        tin=event.input_tokens,
                        tout=event.output_tokens,
                    )
                    + "**"
                )
                if event.next_agent:
                    status.caption(t("trail_next", agent=event.next_agent))
            elif isinstance(event, ToolCalled):
                with status.expander(t("trail_tool", tool=event.tool), icon=":material/build:"):
                    st.code(json.dumps(event.arguments, ensure_ascii=False), language="json")
            elif isinstance(event, ToolReturned):
                status.code(event.output[:_TOOL_PREVIEW], language="text")
            elif isinstance(event, GuardrailVerdict):
                if event.approved:
                    status.success(t("trail_approved", attempt=event.attempt))
                else:
                    status.error(t("trail_rejected", attempt=event.attempt, reasons=event.reasons))
            elif isinstance(event, ModelRetried):
                status.warning(
                    t(
                        "trail_retry",
                        model=model_display_name(event.model),
                        reason=event.reason,
                        attempt=event.attempt,
                        delay=number(event.delay_s, 1),
                    )
                )
            elif isinstance(event, ModelFellBack):
                status.warning(
                    t(
                        "trail_fallback",
                        from_model=model_display_name(event.from_model),
                        to_model=model_display_name(event.to_model),
                        reason=event.reason,
                    )
                )
            elif isinstance(event, SummaryUpdated):
                status.info(t("trail_summary", n=event.covered_turns))
            elif isinstance(event, PlanRewriteRequested):
                status.warning(
                    t("trail_rewrite", headings=", ".join(event.headings), n=event.rewrite)
                )
            elif isinstance(event, RunFinished):
                seconds = time.perf_counter() - started
                status.update(
                    label=t("trail_done", n=calls, seconds=number(seconds, 1)),
                    state="complete",
                    expanded=False,
                )
                finished = event
    except Exception:
        status.update(label=t("trail_failed"), state="error", expanded=True)
        raise
    if finished is None:
        status.update(label=t("trail_failed"), state="error", expanded=True)
        raise AekoError("the run ended without a result")
    return finished.result


def verdict_badge(response: AekoMessageResponse) -> None:
    if not response.reviewed:
        st.badge(t("verdict_unreviewed"), icon=":material/remove_moderator:", color="gray")
    elif response.approved and response.guardrail_retries:
        st.badge(
            t("verdict_approved_after", n=response.guardrail_retries),
            icon=":material/verified_user:",
            color="orange",
        )
    elif response.approved:
        st.badge(t("verdict_approved"), icon=":material/verified_user:", color="green")
    else:
        st.badge(
            t("verdict_rejected", n=response.guardrail_retries + 1),
            icon=":material/gpp_bad:",
            color="red",
        )


def cost_text(input_tokens: int, output_tokens: int, cost_usd: float | None) -> str:
    cost = t("cost_unknown") if cost_usd is None else f"US$ {cost_usd:.4f}"
    return t("turn_cost", tin=input_tokens, tout=output_tokens, cost=cost)
