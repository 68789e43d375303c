"""Compiles each flow's graph from the routing table and the agents' runners.

Bounds, by construction (model calls counted without tools; an agent with tools makes at
most MAX_TOOL_ROUNDS + 1 calls each time it runs):
- chat: each guardrail attempt runs the router, at most the two analysts once each, the
  orchestrator and the guardrail: 5 calls; with 1 + GUARD_RAIL_MAX_RETRIES attempts, 20.
- inventory: the inventory analyst, the two analysts in parallel, the coordinator and at
  most PLAN_FORMAT_MAX_RETRIES rewrites: 8 calls, in 3 + 4 sequential steps.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, TypedDict

from langgraph.graph import END, START, StateGraph

from engine.agents.catalog import COORDINATOR, GUARDRAIL, ROUTER
from engine.agents.runner import AgentRunner
from engine.constants import GUARD_RAIL_MAX_RETRIES, PLAN_FORMAT_MAX_RETRIES
from engine.graph.nodes import make_node
from engine.graph.routing import ENTRY, ROUTES, Flow
from engine.graph.state import RunState

_CHAT_CALLS_PER_ATTEMPT = 5
MAX_MODEL_CALLS: dict[Flow, int] = {
    "chat": (1 + GUARD_RAIL_MAX_RETRIES) * _CHAT_CALLS_PER_ATTEMPT,
    "inventory": 4 + PLAN_FORMAT_MAX_RETRIES,
}
# LangGraph counts supersteps; the parallel analysts share one.
MAX_STEPS: dict[Flow, int] = {
    "chat": MAX_MODEL_CALLS["chat"],
    "inventory": 3 + PLAN_FORMAT_MAX_RETRIES,
}
RECURSION_LIMIT: dict[Flow, int] = {flow: steps + 1 for flow, steps in MAX_STEPS.items()}


class _Routed(TypedDict):
    next: str


# Typed with the one key it reads: LangGraph then hands a branch only that channel, not the
# whole run state read again after every agent.
def _read_next(state: _Routed) -> str:
    return state["next"]


def build_graph(flow: Flow, runners: dict[str, AgentRunner]) -> Any:
    routes = ROUTES[flow]
    graph = StateGraph(RunState)
    for agent in routes:
        graph.add_node(agent, make_node(flow, runners[agent]))
    graph.add_edge(START, ENTRY[flow])

    joins: dict[str, list[str]] = defaultdict(list)
    fanned_out = {name for route in routes.values() if route.parallel for name in route.successors}
    for agent, route in routes.items():
        if route.parallel:
            for successor in route.successors:
                graph.add_edge(agent, successor)
        elif agent in fanned_out:
            joins[route.default].append(agent)  # wait for every parallel branch
        elif agent == GUARDRAIL:
            graph.add_conditional_edges(agent, _read_next, [ROUTER, END])
        elif agent == COORDINATOR and flow == "inventory":
            graph.add_conditional_edges(agent, _read_next, [COORDINATOR, END])
        else:
            targets = list(dict.fromkeys((*route.successors, route.default)))
            if len(targets) == 1:
                graph.add_edge(agent, targets[0])
            else:
                graph.add_conditional_edges(agent, _read_next, targets)
    for target, sources in joins.items():
        graph.add_edge(sources, target)
    return graph.compile(name=f"aeko-{flow}")
