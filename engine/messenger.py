"""``AekoMessenger``: the conversational entry point."""

from __future__ import annotations

from collections.abc import Generator, Iterator, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any
from uuid import uuid4

from engine.agents.catalog import AGENT_NAMES
from engine.agents.request import SummaryRequest
from engine.agents.system_prompt import temporal_context
from engine.budget import BudgetTracker, RunBudget
from engine.constants import DEFAULT_DIGEST_CHARS
from engine.dto import (
    AekoConversationSummary,
    AekoImprovementPlan,
    AekoMessage,
    AekoMessageResponse,
    AekoSession,
    AekoTool,
    AekoUser,
    AekoUserMemory,
)
from engine.errors import UnknownAgentError
from engine.events import EngineEvent, RunFinished, SummaryUpdated
from engine.graph import durable
from engine.graph.context import backing, business_context, history_transcript, references
from engine.graph.state import RunState
from engine.grounding import cited_sources
from engine.protocol import PLAN_HEADINGS
from engine.runtime import RUNTIME

if TYPE_CHECKING:  # only a type here: the inventory package pulls pandas
    from langgraph.checkpoint.base import BaseCheckpointSaver

    from engine.inventory import Inventory

from engine.summary import summary_request, turns_to_fold


class AekoMessenger:
    """Built per user; holds nothing about any conversation."""

    def __init__(self, user: AekoUser, memories: Sequence[AekoUserMemory] | None = None) -> None:
        self.user = user
        self.memories = list(memories or [])

    @classmethod
    def set_tools(cls, tools: dict[str, list[AekoTool | Any]]) -> None:
        """Replace the whole tool registry, process-wide; the agents are rebuilt."""
        registry: dict[str, tuple[AekoTool, ...]] = {}
        for agent, agent_tools in tools.items():
            if agent not in AGENT_NAMES:
                raise UnknownAgentError(agent, AGENT_NAMES)
            registry[agent] = tuple(AekoTool.wrap(tool) for tool in agent_tools)
        RUNTIME.set_tools(registry)

    def send_message(
        self,
        message: str,
        session: AekoSession,
        *,
        summary: AekoConversationSummary | None = None,
        budget: RunBudget | None = None,
        inventory: Inventory | None = None,
        plan: AekoImprovementPlan | None = None,
        checkpointer: BaseCheckpointSaver | None = None,
        thread_id: str | None = None,
    ) -> AekoMessageResponse:
        """Run one turn to the end; the answered turn is appended to ``session`` in place.
        ``checkpointer`` and ``thread_id``: as for ``stream``."""
        events = self._events(
            message,
            session,
            summary=summary,
            budget=budget,
            inventory=inventory,
            plan=plan,
            checkpointer=checkpointer,
            thread_id=thread_id,
            live=False,  # read to its end: no reader waits for events while an agent runs
        )
        for event in events:
            if isinstance(event, RunFinished):
                return event.result  # type: ignore[return-value]
        raise AssertionError("the chat stream ended without a result")  # pragma: no cover

    def stream(
        self,
        message: str,
        session: AekoSession,
        *,
        summary: AekoConversationSummary | None = None,
        budget: RunBudget | None = None,
        run_id: str | None = None,
        inventory: Inventory | None = None,
        plan: AekoImprovementPlan | None = None,
        checkpointer: BaseCheckpointSaver | None = None,
        thread_id: str | None = None,
    ) -> Iterator[EngineEvent]:
        """Yield the run's events as they happen; the last one carries the response.

        ``summary`` is the session's running summary as last saved; the response carries it
        extended when older turns were folded in. ``budget`` caps this run (model calls,
        tokens, cost); a breach raises ``AekoBudgetExceededError`` with what was spent.
        ``inventory`` is the one attached to the conversation: the agents read its digest
        and may query its table and compute with its own factors; ``plan`` is that
        inventory's saved improvement plan, read with it.

        ``checkpointer`` (a LangGraph ``BaseCheckpointSaver``) makes the turn durable on
        ``thread_id`` (by default ``run_id``): the same turn streamed again on that thread
        after it was cut resumes from its last finished agent, replaying the events and
        counting the usage of the agents it does not call again (engine.graph.durable).
        """
        return self._events(
            message,
            session,
            summary=summary,
            budget=budget,
            run_id=run_id,
            inventory=inventory,
            plan=plan,
            checkpointer=checkpointer,
            thread_id=thread_id,
            live=True,
        )

    def _events(
        self,
        message: str,
        session: AekoSession,
        *,
        summary: AekoConversationSummary | None,
        budget: RunBudget | None,
        inventory: Inventory | None,
        plan: AekoImprovementPlan | None,
        checkpointer: BaseCheckpointSaver | None,
        thread_id: str | None,
        live: bool,
        run_id: str | None = None,
    ) -> Iterator[EngineEvent]:
        run_id = run_id or uuid4().hex
        tracker = RUNTIME.tracker(budget)
        thread = durable.Thread(checkpointer, thread_id or run_id) if checkpointer else None
        events = self._run(
            message,
            session,
            summary,
            tracker,
            run_id,
            inventory=inventory,
            plan=plan,
            thread=thread,
            live=live,
        )
        log = RUNTIME.run_log
        return log.follow(run_id, "chat", events) if log else events

    def _run(
        self,
        message: str,
        session: AekoSession,
        summary: AekoConversationSummary | None,
        tracker: BudgetTracker,
        run_id: str,
        *,
        inventory: Inventory | None = None,
        plan: AekoImprovementPlan | None = None,
        thread: durable.Thread | None = None,
        live: bool = True,
    ) -> Iterator[EngineEvent]:
        temporal = temporal_context(datetime.now(UTC))
        saved = thread.saved() if thread else None
        folded: list[Any] = []
        if saved is not None:
            # The cut run already paid for the fold: its summary is in the saved state.
            summary = _saved_summary(session, summary, saved)
            temporal = saved.get("temporal", temporal)
        else:
            summary = yield from _recorded(_fold(session, summary, tracker, temporal), folded)
        state: RunState = {
            "request": message,
            "context": business_context(self.user, self.memories),
            "summary": summary.text if summary else "",
            "history": history_transcript(session.messages),
            "temporal": temporal,
            "attempt": 1,
        }
        if inventory is not None:
            state["attachment"] = attachment_text(inventory, plan)
            state["attachment_name"] = inventory.source_name
        if thread is not None and saved is None:
            # The fold is outside the graph: its events and calls start the saved state, so
            # a resumed run replays and counts them too.
            state["events"] = folded
            state["calls"] = tracker.usage.calls
        final = yield from RUNTIME.run(
            "chat",
            state,
            budget=tracker,
            inventory=inventory,
            live=live,
            **durable.run_args(thread),
        )
        yield RunFinished(
            run_id=run_id, result=self._respond(message, session, final, tracker, summary)
        )

    def _respond(
        self,
        message: str,
        session: AekoSession,
        final: dict[str, Any],
        tracker: BudgetTracker,
        summary: AekoConversationSummary | None,
    ) -> AekoMessageResponse:
        usage = tracker.usage
        turn = AekoMessage(
            input=message,
            output=final.get("answer", ""),
            llm=", ".join(usage.models),
            input_tokens=usage.input_tokens,
            output_tokens=usage.output_tokens,
        )
        if turn.output:  # a draft that never reached the user is no context for the next turn
            session.messages.append(turn)
            session.updated_at = turn.submitted_at
        reviewed = final.get("reviewed", False)
        return AekoMessageResponse(
            message=turn,
            id_session=session.id,
            id_user=session.id_user,
            agents_called=final.get("agents_called", []),
            approved=final.get("approved", False),
            guardrail_retries=final.get("attempt", 1) - 1 if reviewed else 0,
            reviewed=reviewed,
            usage=usage,
            summary=summary,
            truncated=bool(final.get("truncated")),
            unverified=list(final.get("unverified") or ()) if turn.output else [],
            sources=cited_sources(turn.output, backing(final), references(final))
            if turn.output
            else [],
        )


def _fold(
    session: AekoSession,
    summary: AekoConversationSummary | None,
    tracker: BudgetTracker,
    temporal: str,
):
    """Extend the summary with the turns that left the replayed window, if any did."""
    target, turns = turns_to_fold(session.messages, summary)
    if not turns:
        return summary
    emitted: list[Any] = []
    reply = RUNTIME.summarizer().run(
        summary_request(summary, turns),
        temporal,
        emitted.append,
        tracker,
        structured=SummaryRequest(previous=summary.text if summary else "", turns=tuple(turns)),
    )
    yield from emitted
    folded = AekoConversationSummary(text=reply.text, covered_turns=target)
    yield SummaryUpdated(covered_turns=target, chars=len(folded.text))
    return folded


def _recorded(events: Generator[Any, None, Any], into: list[Any]):
    """Yield ``events``, keeping each in ``into``; return what the generator returns."""
    while True:
        try:
            event = next(events)
        except StopIteration as stop:
            return stop.value
        into.append(event)
        yield event


def _saved_summary(
    session: AekoSession, summary: AekoConversationSummary | None, saved: dict[str, Any]
) -> AekoConversationSummary | None:
    """The summary the cut run folded, as the uncut run would have returned it."""
    target, turns = turns_to_fold(session.messages, summary)
    if not turns:
        return summary
    return AekoConversationSummary(text=saved.get("summary", ""), covered_turns=target)


def attachment_text(inventory: Inventory, plan: AekoImprovementPlan | None) -> str:
    """What the agents read of the attached inventory: its digest, then its saved plan."""
    digest = inventory.digest(DEFAULT_DIGEST_CHARS)
    if plan is None:
        return digest
    sections = "\n\n".join(
        f"### {PLAN_HEADINGS[field]}\n{getattr(plan, field)}" for field in PLAN_HEADINGS
    )
    return f"{digest}\n\n## Plano de melhoria salvo deste inventário\n{sections}"
