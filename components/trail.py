"""The agent trail: the engine's events drawn live as ``st.status`` steps, and the verdict."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Iterator

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from application.safe_stream import safe_stream
from application.safe_text import sanitize
from components.i18n import number, t, tn
from engine import (
    AekoError,
    AekoMessageResponse,
    AgentFinished,
    AgentStarted,
    AnswerDelta,
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
from engine.agents.catalog import (
    COORDINATOR,
    FAQ,
    GREEN_GASES_ANALYST,
    GUARDRAIL,
    INVENTORY_ANALYST,
    ORCHESTRATOR,
    POLLUTANTS_ANALYST,
    ROUTER,
)
from engine.offline import OFFLINE_MODEL_NAME
from engine.pricing import PRICED_AS_SEPARATOR, is_offline
from engine.summary import SUMMARIZER

_TOOL_PREVIEW = 1_500


# The engine's agent names are its API (the aeko SDK's README spells the inventory analyst
# "Análista de inventários", and stored runs carry it); the trail names each by its role in
# the interface language, Portuguese spelled right.
_ROLES = {
    ROUTER: "agent_router",
    FAQ: "agent_faq",
    ORCHESTRATOR: "agent_orchestrator",
    GUARDRAIL: "agent_guardrail",
    INVENTORY_ANALYST: "agent_inventory",
    POLLUTANTS_ANALYST: "agent_pollutants",
    GREEN_GASES_ANALYST: "agent_green",
    COORDINATOR: "agent_coordinator",
    SUMMARIZER: "agent_summarizer",
}


def agent_label(name: str) -> str:
    """An agent's name as the trail shows it: its role in the interface language, and an
    agent the app does not know (a stored run's, a custom graph's) as named, never markup."""
    role = _ROLES.get(name)
    return t(role) if role else sanitize(name)


def model_display_name(model: str) -> str:
    """A model's name as the user reads it: the offline analyst by its translated name, and
    when it is priced as another model (``AEKO_OFFLINE_PRICED_AS``), whose price it takes."""
    if model == OFFLINE_MODEL_NAME:
        return t("offline_label")
    if is_offline(model):
        # The priced-as name comes from the environment and travels in stored runs.
        priced_as = model.removeprefix(OFFLINE_MODEL_NAME + PRICED_AS_SEPARATOR)
        return t("offline_priced_as", offline=t("offline_label"), model=sanitize(priced_as))
    return sanitize(model)


def run_with_trail(items: Iterable[object]) -> object:
    """Draw each engine event as it arrives; return what the run ends with.

    ``items`` is an engine stream (the result is what ``RunFinished`` carries) or a use
    case's (the result is the first item that is not an engine event: its outcome). A run
    that ends without ``RunFinished`` leaves the trail in its error state; an exception does
    too, and is raised again for the page to explain. Everything drawn so far stays on screen,
    but for an answer streamed below the trail: the page shows the final answer instead.
    """
    started = time.perf_counter()
    calls = 0
    status = st.status(t("trail_running"), expanded=True)
    finished: RunFinished | None = None
    events = _Pushback(items)
    answer = _LiveAnswer()
    try:
        for event in events:
            if not isinstance(event, EngineEvent):  # the use case's outcome
                if finished is None:
                    status.update(label=t("trail_failed"), state="error", expanded=True)
                return event
            if isinstance(event, AnswerDelta):
                answer.show(event, events)
            elif isinstance(event, AgentStarted):
                status.update(label=f"{agent_label(event.agent)}…")
            elif isinstance(event, AgentFinished):
                calls += 1
                _agent_finished(status, event)
            elif isinstance(event, ToolCalled):
                with status.expander(
                    t("trail_tool", tool=sanitize(event.tool)), icon=":material/build:"
                ):
                    st.code(json.dumps(event.arguments, ensure_ascii=False), language="json")
            elif isinstance(event, ToolReturned):
                status.code(event.output[:_TOOL_PREVIEW], language="text")
            elif isinstance(event, GuardrailVerdict):
                if event.approved:
                    status.success(t("trail_approved", attempt=event.attempt))
                else:
                    status.error(
                        t("trail_rejected", attempt=event.attempt, reasons=sanitize(event.reasons))
                    )
            elif isinstance(event, ModelRetried):
                status.warning(
                    t(
                        "trail_retry",
                        model=model_display_name(event.model),
                        reason=sanitize(event.reason),
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
                        reason=sanitize(event.reason),
                    )
                )
            elif isinstance(event, SummaryUpdated):
                status.info(tn("trail_summary", event.covered_turns))
            elif isinstance(event, PlanRewriteRequested):
                status.warning(
                    t(
                        "trail_rewrite",
                        headings=sanitize(", ".join(event.headings)),
                        n=event.rewrite,
                    )
                )
            elif isinstance(event, RunFinished):
                seconds = time.perf_counter() - started
                status.update(
                    label=tn("trail_done", calls, seconds=number(seconds, 1)),
                    state="complete",
                    expanded=False,
                )
                finished = event
    except Exception:
        status.update(label=t("trail_failed"), state="error", expanded=True)
        raise
    finally:
        # Shown as it streamed, the answer would appear twice, or stay without its end.
        answer.clear()
    if finished is None:
        status.update(label=t("trail_failed"), state="error", expanded=True)
        raise AekoError("the run ended without a result")
    return finished.result


def _agent_finished(status: DeltaGenerator, event: AgentFinished) -> None:
    status.markdown(
        "**"
        + t(
            "trail_agent",
            agent=agent_label(event.agent),
            model=model_display_name(event.model),
            ms=number(event.duration_ms, 0),
            tin=number(event.input_tokens, 0),
            tout=number(event.output_tokens, 0),
        )
        + "**"
    )
    if event.next_agent:
        status.caption(t("trail_next", agent=agent_label(event.next_agent)))
    if event.truncated:
        status.warning(t("answer_truncated"), icon=":material/content_cut:")


class _Pushback:
    """An iterator that takes back the one item a reader looked at and did not use."""

    def __init__(self, items: Iterable[object]) -> None:
        self._items = iter(items)
        self._back: list[object] = []

    def __iter__(self) -> _Pushback:
        return self

    def __next__(self) -> object:
        return self._back.pop() if self._back else next(self._items)

    def push_back(self, item: object) -> None:
        self._back.append(item)


class _LiveAnswer:
    """An unreviewed answer shown as it is written, in one slot below the trail."""

    def __init__(self) -> None:
        self._slot: DeltaGenerator | None = None
        self._agent = ""
        self._text = ""  # what the deltas added up to so far, as received

    def show(self, first: AnswerDelta, events: _Pushback) -> None:
        """Stream ``first`` and the deltas right behind it; the first other item goes back."""
        if first.restart or first.agent != self._agent:
            self._agent, self._text = first.agent, ""
            self.clear()
            if first.restart:
                return
        if self._slot is None:
            self._slot = st.empty()
        received = [self._text, first.text]

        def texts() -> Iterator[str]:
            yield "".join(received)  # what was shown before the trail drew other events
            for item in events:
                if not isinstance(item, AnswerDelta) or item.restart or item.agent != first.agent:
                    events.push_back(item)
                    return
                received.append(item.text)
                yield item.text

        with self._slot.container():
            # The text goes on after these deltas: its unfinished line keeps back anything
            # that might still become a link, an image or a tag.
            st.write_stream(safe_stream(texts(), complete=False))
        self._text = "".join(received)

    def clear(self) -> None:
        if self._slot is not None:
            self._slot.empty()


def verdict_badge(response: AekoMessageResponse) -> None:
    if not response.reviewed:
        st.badge(t("verdict_unreviewed"), icon=":material/remove_moderator:", color="gray")
    elif response.approved and response.guardrail_retries:
        st.badge(
            tn("verdict_approved_after", response.guardrail_retries),
            icon=":material/verified_user:",
            color="orange",
        )
    elif response.approved:
        st.badge(t("verdict_approved"), icon=":material/verified_user:", color="green")
    else:
        st.badge(
            tn("verdict_rejected", response.guardrail_retries + 1),
            icon=":material/gpp_bad:",
            color="red",
        )


def cost_text(input_tokens: int, output_tokens: int, cost_usd: float | None) -> str:
    cost = t("cost_unknown") if cost_usd is None else f"US$ {number(cost_usd, 4)}"
    return t("turn_cost", tin=number(input_tokens, 0), tout=number(output_tokens, 0), cost=cost)
