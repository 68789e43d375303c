"""Typed events a run yields while it goes; the UI's agent trail is drawn from them.

``attempt`` counts guardrail attempts from 1 (the inventory flow has a single attempt).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from engine.dto import AekoImprovementPlan, AekoMessageResponse, AekoSource


class _Event(BaseModel):
    model_config = ConfigDict(frozen=True)


class AgentStarted(_Event):
    kind: Literal["agent_started"] = "agent_started"
    agent: str
    attempt: int = 1


class AgentFinished(_Event):
    kind: Literal["agent_finished"] = "agent_finished"
    agent: str
    text: str  # without the routing marker
    next_agent: str | None  # where the run goes next, as the routing rules resolved it
    model: str  # the model that answered (the last one, when tools took several calls)
    input_tokens: int
    output_tokens: int
    duration_ms: float
    attempt: int = 1
    cost_usd: float | None = None  # None when a model's price is unknown
    retries: int = 0  # failed provider attempts before the answers, fallbacks included
    truncated: bool = False  # the provider cut the last answer at the token cap


class AnswerDelta(_Event):
    """A piece of an unreviewed answer as the model writes it; never the routing marker.

    The deltas an agent emits since its last ``restart`` concatenate to exactly the text its
    ``AgentFinished`` carries. ``restart`` (with empty ``text``) means: drop what was shown
    of this agent's answer, a retry, a fallback model or a tool round starts it over.
    """

    kind: Literal["answer_delta"] = "answer_delta"
    agent: str
    text: str
    attempt: int = 1
    restart: bool = False


class ToolCalled(_Event):
    kind: Literal["tool_called"] = "tool_called"
    agent: str
    tool: str
    call_id: str
    arguments: dict[str, Any]


class ToolReturned(_Event):
    kind: Literal["tool_returned"] = "tool_returned"
    agent: str
    tool: str
    call_id: str
    output: str
    error: bool = False
    sources: tuple[AekoSource, ...] = ()  # what the tool read: entries, rows, factors


class ModelRetried(_Event):
    """A model call failed with a retryable error; the same model is tried again."""

    kind: Literal["model_retried"] = "model_retried"
    agent: str
    model: str
    attempt: int  # 1 for the first retry
    delay_s: float
    reason: str


class ModelFellBack(_Event):
    """A model gave up; the next model of the chain takes the call."""

    kind: Literal["model_fell_back"] = "model_fell_back"
    agent: str
    from_model: str
    to_model: str
    reason: str


class SummaryUpdated(_Event):
    """Turns older than the replayed window were folded into the running summary."""

    kind: Literal["summary_updated"] = "summary_updated"
    covered_turns: int
    chars: int


class GuardrailVerdict(_Event):
    kind: Literal["guardrail_verdict"] = "guardrail_verdict"
    approved: bool
    reasons: str
    attempt: int
    final: bool  # no further attempt follows this verdict
    # Approved by the reviewer but with numbers nothing the run read backs: shown marked.
    unverified: tuple[str, ...] = ()


class PlanRewriteRequested(_Event):
    kind: Literal["plan_rewrite_requested"] = "plan_rewrite_requested"
    missing: tuple[str, ...]  # plan field names
    headings: tuple[str, ...]  # the headings the coordinator is asked for
    rewrite: int  # 1 for the first rewrite
    unbacked: tuple[str, ...] = ()  # numbers the plan quoted that no computed figure holds


class RunFinished(_Event):
    kind: Literal["run_finished"] = "run_finished"
    run_id: str = ""
    result: AekoMessageResponse | AekoImprovementPlan


EngineEvent = (
    AgentStarted
    | AgentFinished
    | AnswerDelta
    | ToolCalled
    | ToolReturned
    | ModelRetried
    | ModelFellBack
    | SummaryUpdated
    | GuardrailVerdict
    | PlanRewriteRequested
    | RunFinished
)
