"""Aeko engine: the multi-agent core behind Aeko Studio.

A library: no Streamlit, no database, no environment reads. Configure it with
``Aeko.config()``; talk to it through ``AekoMessenger`` and ``AekoInventoryAnalyzer``.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.agents.catalog import AGENT_NAMES
    from engine.analyzer import AekoInventoryAnalyzer
    from engine.budget import RunBudget
    from engine.config import Aeko
    from engine.constants import (
        DEFAULT_FAST_MODEL,
        DEFAULT_MAX_TOKENS,
        DEFAULT_REPORT_MAX_TOKENS,
        DEFAULT_SLOW_MODEL,
        GUARD_RAIL_MAX_RETRIES,
        PLAN_FORMAT_MAX_RETRIES,
        SESSION_HISTORY_USAGE,
    )
    from engine.dto import (
        AekoConversationSummary,
        AekoImprovementPlan,
        AekoMessage,
        AekoMessageResponse,
        AekoModelCall,
        AekoSession,
        AekoSource,
        AekoTool,
        AekoUsage,
        AekoUser,
        AekoUserMemory,
    )
    from engine.errors import (
        AekoBudgetExceededError,
        AekoDeadlineError,
        AekoError,
        AekoModelError,
        AekoNotConfiguredError,
        MalformedAgentOutputError,
        UnknownAgentError,
    )
    from engine.events import (
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
    from engine.graph.builder import MAX_MODEL_CALLS
    from engine.messenger import AekoMessenger

# Every public name is imported on first use (PEP 562): `import engine.inventory` must not pay
# for LangGraph, LangChain and the agents' prompts (about 3.5 s on the 2-core dev machine),
# which only the conversational side needs.
_LAZY = {
    "engine.agents.catalog": ("AGENT_NAMES",),
    "engine.analyzer": ("AekoInventoryAnalyzer",),
    "engine.budget": ("RunBudget",),
    "engine.config": ("Aeko",),
    "engine.constants": (
        "DEFAULT_FAST_MODEL",
        "DEFAULT_MAX_TOKENS",
        "DEFAULT_REPORT_MAX_TOKENS",
        "DEFAULT_SLOW_MODEL",
        "GUARD_RAIL_MAX_RETRIES",
        "PLAN_FORMAT_MAX_RETRIES",
        "SESSION_HISTORY_USAGE",
    ),
    "engine.dto": (
        "AekoConversationSummary",
        "AekoImprovementPlan",
        "AekoMessage",
        "AekoMessageResponse",
        "AekoModelCall",
        "AekoSession",
        "AekoSource",
        "AekoTool",
        "AekoUsage",
        "AekoUser",
        "AekoUserMemory",
    ),
    "engine.errors": (
        "AekoBudgetExceededError",
        "AekoDeadlineError",
        "AekoError",
        "AekoModelError",
        "AekoNotConfiguredError",
        "MalformedAgentOutputError",
        "UnknownAgentError",
    ),
    "engine.events": (
        "AgentFinished",
        "AgentStarted",
        "AnswerDelta",
        "EngineEvent",
        "GuardrailVerdict",
        "ModelFellBack",
        "ModelRetried",
        "PlanRewriteRequested",
        "RunFinished",
        "SummaryUpdated",
        "ToolCalled",
        "ToolReturned",
    ),
    "engine.graph.builder": ("MAX_MODEL_CALLS",),
    "engine.messenger": ("AekoMessenger",),
}
_MODULE_OF = {name: module for module, names in _LAZY.items() for name in names}


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version  # 35 ms: only when asked

    try:
        return version("aeko-studio")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "0.0.0"


def __getattr__(name: str) -> object:
    if name == "__version__":
        globals()[name] = value = _version()
        return value
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value  # the next access is a plain attribute lookup
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_MODULE_OF, "__version__"})


__all__ = [
    "AGENT_NAMES",
    "DEFAULT_FAST_MODEL",
    "DEFAULT_MAX_TOKENS",
    "DEFAULT_REPORT_MAX_TOKENS",
    "DEFAULT_SLOW_MODEL",
    "GUARD_RAIL_MAX_RETRIES",
    "MAX_MODEL_CALLS",
    "PLAN_FORMAT_MAX_RETRIES",
    "SESSION_HISTORY_USAGE",
    "Aeko",
    "AekoBudgetExceededError",
    "AekoConversationSummary",
    "AekoDeadlineError",
    "AekoError",
    "AekoImprovementPlan",
    "AekoInventoryAnalyzer",
    "AekoMessage",
    "AekoMessageResponse",
    "AekoMessenger",
    "AekoModelCall",
    "AekoModelError",
    "AekoNotConfiguredError",
    "AekoSession",
    "AekoSource",
    "AekoTool",
    "AekoUsage",
    "AekoUser",
    "AekoUserMemory",
    "AgentFinished",
    "AgentStarted",
    "AnswerDelta",
    "EngineEvent",
    "GuardrailVerdict",
    "MalformedAgentOutputError",
    "ModelFellBack",
    "ModelRetried",
    "PlanRewriteRequested",
    "RunBudget",
    "RunFinished",
    "SummaryUpdated",
    "ToolCalled",
    "ToolReturned",
    "UnknownAgentError",
    "__version__",
]
