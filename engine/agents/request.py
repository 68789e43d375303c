"""What an agent is asked, as data: the structured twin of the text prompt a model reads.

A real model reads the request rendered as text (``engine.graph.context``); a model that
computes its answer, like the offline analyst, reads these fields instead, so rewording a
prompt can never change what it understands. Both are built from the same run state, in
the same node, for the same call.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any

from engine.dto import AekoMessage, Flow
from engine.texts import Lang

if TYPE_CHECKING:  # only a type here: the inventory package pulls pandas
    from engine.inventory import Inventory

# The run-config metadata key the structured request travels under, next to ``agent``.
REQUEST_KEY = "aeko_request"


@dataclass(frozen=True)
class AgentRequest:
    agent: str
    flow: Flow
    successors: tuple[str, ...]  # the names the agent's prompt offers after "Next agent:"
    question: str = ""  # chat: the user's message; guardrail: the question under review
    context: str = ""  # chat: role, usecase and memories; inventory: the previous report
    summary: str = ""  # chat: the running summary of older turns
    history: str = ""  # chat: the replayed turns, oldest first
    inventory_text: str = ""  # the digest (or Markdown table) of the run's inventory, if any
    inventory: Inventory | None = field(default=None, repr=False)  # when one was ingested
    findings: Mapping[str, str] = field(default_factory=dict)  # agent -> its newest finding
    retry_reasons: str = ""  # the guardrail's reasons on the previous attempt
    draft: str = ""  # guardrail: the answer under review
    previous_answer: str = ""  # plan rewrite: the coordinator's last plan
    missing_sections: tuple[str, ...] = ()  # plan rewrite: the plan fields left out or empty
    # chat: the texts the run's tools returned so far; guardrail: what its request shows the
    # draft may quote (the attached inventory, then the tools' results)
    evidence: tuple[str, ...] = ()
    # inventory: the actions the engine computed for the plan (PlanActions), and their text
    actions: Any = field(default=None, repr=False)
    actions_text: str = ""
    unbacked_numbers: tuple[str, ...] = ()  # plan rewrite: the figures with no source
    today: date | None = None  # the run's date (its temporal context), for date-bound answers
    # inventory: the language the user works in (chat answers in the question's own instead)
    language: Lang = "pt"


@dataclass(frozen=True)
class SummaryRequest:
    """The summarizer's request: the summary so far and the turns it does not cover yet."""

    previous: str  # "" when there is no summary yet
    turns: Sequence[AekoMessage] = ()


def call_metadata(agent: str, request: AgentRequest | SummaryRequest | None) -> dict[str, object]:
    """The run metadata of one model call: who calls, and what it is asked.

    Metadata goes to callbacks and tracers, never into the provider's payload: a real model
    is sent only the messages, so the structured request costs it no tokens and cannot leak
    into its prompt. (A typed message would travel *in* the message list and depend on
    every provider adapter skipping it.)
    """
    metadata: dict[str, object] = {"agent": agent}
    if request is not None:
        metadata[REQUEST_KEY] = request
    return metadata
