"""Routing rules of both flows, in one place: who may follow whom, and the default route.

An agent names its successor on a ``Next agent: <name>`` line. A name that is not a valid
successor of the current agent, a specialist that already ran in this guardrail attempt, or
no name at all, takes the current agent's default route. A run never dies on a routing slip.
"""

from dataclasses import dataclass

from langgraph.graph import END

from engine.agents.catalog import (
    AGENT_NAMES,
    COORDINATOR,
    FAQ,
    GREEN_GASES_ANALYST,
    GUARDRAIL,
    INVENTORY_ANALYST,
    ORCHESTRATOR,
    POLLUTANTS_ANALYST,
    ROUTER,
    SPECIALISTS,
)
from engine.dto import Flow
from engine.protocol import clean_marker_name, fold

NO_AGENT = "Nenhum"  # what an agent writes when nobody follows it


@dataclass(frozen=True)
class Route:
    successors: tuple[str, ...]  # the names the agent may write after "Next agent:"
    default: str  # an agent name, or END
    parallel: bool = False  # every successor runs, at once, whatever the agent wrote


ROUTES: dict[Flow, dict[str, Route]] = {
    "chat": {
        ROUTER: Route(
            (FAQ, POLLUTANTS_ANALYST, GREEN_GASES_ANALYST, COORDINATOR, ORCHESTRATOR), FAQ
        ),
        FAQ: Route((), END),
        POLLUTANTS_ANALYST: Route((GREEN_GASES_ANALYST, ORCHESTRATOR, COORDINATOR), ORCHESTRATOR),
        GREEN_GASES_ANALYST: Route((POLLUTANTS_ANALYST, ORCHESTRATOR, COORDINATOR), ORCHESTRATOR),
        COORDINATOR: Route((), END),
        ORCHESTRATOR: Route((GUARDRAIL,), GUARDRAIL),
        # The guardrail routes by its verdict, not by a marker: see engine.graph.nodes.
        GUARDRAIL: Route((), END),
    },
    "inventory": {
        INVENTORY_ANALYST: Route(
            (POLLUTANTS_ANALYST, GREEN_GASES_ANALYST), POLLUTANTS_ANALYST, parallel=True
        ),
        POLLUTANTS_ANALYST: Route((COORDINATOR,), COORDINATOR),
        GREEN_GASES_ANALYST: Route((COORDINATOR,), COORDINATOR),
        # The coordinator loops on itself only for a plan-format rewrite: see nodes.
        COORDINATOR: Route((), END),
    },
}

ENTRY: dict[Flow, str] = {"chat": ROUTER, "inventory": INVENTORY_ANALYST}

_NONE_WORDS = frozenset({"nenhum", "nenhuma", "none", "ninguem", "fim", "end", "-", ""})
_FOLDED_NAMES = sorted(((fold(name), name) for name in AGENT_NAMES), key=lambda p: -len(p[0]))


def resolve_name(raw: str | None) -> str | None:
    """The agent a marker means, ``NO_AGENT`` for "nobody", None when it names no agent."""
    if raw is None:
        return None
    folded = fold(clean_marker_name(raw))
    if folded in _NONE_WORDS or any(folded.startswith(w + " ") for w in _NONE_WORDS if w):
        return NO_AGENT
    for folded_name, name in _FOLDED_NAMES:
        if folded == folded_name:
            return name
        if folded.startswith(folded_name) and not folded[len(folded_name)].isalnum():
            return name  # trailing text after the name: "FAQ - pergunta conceitual"
    return None


def next_node(
    flow: Flow,
    current: str,
    raw_name: str | None,
    *,
    ran_this_attempt: frozenset[str] = frozenset(),
    has_findings: bool = False,
) -> str:
    """Where the run goes after ``current`` wrote ``Next agent: raw_name``."""
    route = ROUTES[flow][current]
    wanted = resolve_name(raw_name)
    if wanted not in route.successors:
        return route.default
    if wanted in SPECIALISTS and wanted in ran_this_attempt:
        return route.default  # two analysts cannot hand off to each other forever
    if current == ROUTER and wanted == ORCHESTRATOR and not has_findings:
        return route.default  # nothing to consolidate yet
    return wanted


def successors_for_prompt(flow: Flow, agent: str) -> tuple[str, ...]:
    """The names an agent's prompt offers it, in the order the routing table lists them."""
    return ROUTES[flow][agent].successors


def flows_of(agent: str) -> tuple[Flow, ...]:
    return tuple(flow for flow, routes in ROUTES.items() if agent in routes)
