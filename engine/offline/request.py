"""What the offline analyst reads of a call: the structured request, never the prompt text.

The engine attaches an ``AgentRequest`` (or the summarizer's ``SummaryRequest``) to every
model call's run metadata; the responders read its fields, so no wording of the rendered
prompt can change an offline answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.agents.request import REQUEST_KEY, AgentRequest, SummaryRequest
from engine.inventory import Inventory, InventoryError, load_markdown_inventory
from engine.offline.facts import Facts, facts_for
from engine.offline.instructions import question_of
from engine.offline.language import Language, preferred_language, told_language


def request_of(metadata: Mapping[str, Any]) -> AgentRequest | SummaryRequest | None:
    """The structured request a call carries; None when the caller attached none."""
    request = metadata.get(REQUEST_KEY)
    return request if isinstance(request, AgentRequest | SummaryRequest) else None


def language_of(request: AgentRequest) -> Language:
    """The question's own language, read from the question alone (not from a format demand
    or a link attached to it): a user answers in the language they asked in. A language
    the profile prefers decides only a question whose words do not tell ("CBAM?"). With no
    question (the inventory flow) it is the language the run was asked to write in."""
    if not request.question:
        return request.language  # the inventory flow: no question, the user's own language
    told = told_language(question_of(request.question))
    if told is not None:
        return told
    # Only the chat context is the user's profile; the inventory's is the previous report.
    preferred = preferred_language(request.context) if request.flow == "chat" else None
    return preferred or "pt"


def facts_of(request: AgentRequest) -> Facts | None:
    """The inventory the agent was given: the run's, the one attached to the chat, or else a
    Markdown table the user pasted in the question."""
    if request.flow == "inventory" or request.inventory is not None:
        return facts_for(request.inventory, request.inventory_text)
    return facts_for(None, request.question)


def inventory_of(request: AgentRequest) -> Inventory | None:
    """The inventory the agent was given, as an ``Inventory``: the run's, the attached one,
    or a Markdown table pasted in the question."""
    if request.inventory is not None:
        return request.inventory
    text = request.inventory_text if request.flow == "inventory" else request.question
    if "|" not in text:
        return None
    try:
        return load_markdown_inventory(text)
    except InventoryError:
        return None
