"""The state one run carries through the graph. Nothing of it outlives the run, unless the
run is durable: then its checkpointer keeps it (engine.graph.durable)."""

from __future__ import annotations

import operator
from typing import Annotated, Any, TypedDict

from engine.agents.runner import Evidence
from engine.dto import AekoModelCall


class Finding(TypedDict):
    agent: str
    text: str  # routing marker already stripped: it never reaches another agent
    attempt: int


class RunState(TypedDict, total=False):
    request: str  # chat: the user's message; inventory: the inventory as Markdown
    context: str  # chat: role, usecase and memories; inventory: the previous report
    summary: str  # chat: the running summary of the turns before the replayed ones
    history: str  # chat: the replayed turns, oldest first
    attachment: str  # chat: the digest of the inventory attached to the conversation
    attachment_name: str  # its file name, as the answer's sources cite it
    temporal: str
    # inventory: the language the agents write in (the user's); the protocol's headings and
    # markers stay Portuguese, whatever it is
    language: str
    attempt: int  # guardrail attempt, from 1
    next: str
    findings: Annotated[list[Finding], operator.add]
    calls: Annotated[list[AekoModelCall], operator.add]
    agents_called: Annotated[list[str], operator.add]
    rejections: Annotated[list[str], operator.add]
    evidence: Annotated[list[Evidence], operator.add]  # every tool result of the run
    draft: str
    draft_truncated: bool  # the provider cut the draft at the token cap
    answer: str
    truncated: bool  # the answer was cut at the token cap: shown flagged, never as complete
    approved: bool
    unverified: tuple[str, ...]  # numbers of the shown answer no source backs, marked
    reviewed: bool
    plan_answer: str  # the coordinator's last plan text, for a rewrite request
    plan_fields: dict[str, str]
    plan_missing: tuple[str, ...]
    plan_unbacked: tuple[str, ...]  # numbers of the plan that no computed figure holds
    plan_actions: Any  # PlanActions: the engine's computed actions, for the coordinator
    actions_text: str  # the same as the text a model reads
    inventory_digest: str  # the inventory's digest, backing the plan's own figures
    rewrites: int
    unbacked_rewrites: int  # rewrites asked only for numbers with no source
    # Durable runs only (engine.graph.durable): the events each node emitted, in the saved
    # state so that a resumed run replays those of the agents it does not call again.
    events: Annotated[list[Any], operator.add]
