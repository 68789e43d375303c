"""Aeko engine: the multi-agent core behind Aeko Studio.

A library: no Streamlit, no database, no environment reads. Configure it with
``Aeko.config()``; talk to it through ``AekoMessenger`` and ``AekoInventoryAnalyzer``.
"""

from importlib.metadata import PackageNotFoundError, version

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

try:
    __version__ = version("aeko-studio")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0"

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
