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
from collections.abc import Callable
from typing import Any

from langgraph.graph import END, START, StateGraph
from langgraph.types import Command

from engine.agents.catalog import COORDINATOR, GUARDRAIL, ROUTER
from engine.agents.runner import AgentRunner
from engine.constants import GUARD_RAIL_MAX_RETRIES, PLAN_FORMAT_MAX_RETRIES
from engine.graph.nodes import Node, make_node
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


def _next_of(flow: Flow, agent: str) -> tuple[str, ...]:
    """Where the run may go after ``agent`` (its routing table entry, the guardrail's and
    the plan coordinator's verdict-driven routes): one place is an edge, several a choice
    the node makes at run time. Parallel analysts are joined apart, in ``build_graph``."""
    if agent == GUARDRAIL:
        return (ROUTER, END)
    if agent == COORDINATOR and flow == "inventory":
        return (COORDINATOR, END)
    route = ROUTES[flow][agent]
    return tuple(dict.fromkeys((*route.successors, route.default)))


# A node that decides where the run goes says so in its answer (a Command), rather than
# through a conditional edge: LangGraph runs such an edge as a step of its own after the
# node, over a fresh copy of every channel, only to read back the "next" the node wrote.
def _routed(node: Node) -> Callable[[RunState], Command]:
    def run(state: RunState) -> Command:
        update = node(state)
        return Command(update=update, goto=update["next"])

    run.__name__ = getattr(node, "__name__", "node")
    return run


def build_graph(flow: Flow, runners: dict[str, AgentRunner]) -> Any:
    routes = ROUTES[flow]
    graph = StateGraph(RunState)
    fanned_out = {name for route in routes.values() if route.parallel for name in route.successors}
    joins: dict[str, list[str]] = defaultdict(list)
    for agent, route in routes.items():
        node = make_node(flow, runners[agent])
        targets = _next_of(flow, agent)
        if route.parallel:
            graph.add_node(agent, node)
            for successor in route.successors:
                graph.add_edge(agent, successor)
        elif agent in fanned_out:
            graph.add_node(agent, node)
            joins[route.default].append(agent)  # wait for every parallel branch
        elif len(targets) > 1:
            graph.add_node(agent, _routed(node), destinations=targets)
        else:
            graph.add_node(agent, node)
            graph.add_edge(agent, targets[0])
    graph.add_edge(START, ENTRY[flow])
    for target, sources in joins.items():
        graph.add_edge(sources, target)
    return graph.compile(name=f"aeko-{flow}")
