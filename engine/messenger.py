"""``AekoMessenger``: the conversational entry point."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from typing import Any

from engine.agents.catalog import AGENT_NAMES
from engine.agents.system_prompt import temporal_context
from engine.dto import (
    AekoMessage,
    AekoMessageResponse,
    AekoSession,
    AekoTool,
    AekoUsage,
    AekoUser,
    AekoUserMemory,
)
from engine.errors import UnknownAgentError
from engine.events import EngineEvent, RunFinished
from engine.graph.context import business_context, history_transcript
from engine.graph.state import RunState
from engine.runtime import RUNTIME


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

    def send_message(self, message: str, session: AekoSession) -> AekoMessageResponse:
        """Run one turn to the end; the answered turn is appended to ``session`` in place."""
        for event in self.stream(message, session):
            if isinstance(event, RunFinished):
                return event.result  # type: ignore[return-value]
        raise AssertionError("the chat stream ended without a result")  # pragma: no cover

    def stream(self, message: str, session: AekoSession) -> Iterator[EngineEvent]:
        """Yield the run's events as they happen; the last one carries the response."""
        state: RunState = {
            "request": message,
            "context": business_context(self.user, self.memories),
            "history": history_transcript(session.messages),
            "temporal": temporal_context(datetime.now(UTC)),
            "attempt": 1,
        }
        final = yield from RUNTIME.run("chat", state)
        yield RunFinished(result=self._respond(message, session, final))

    def _respond(
        self, message: str, session: AekoSession, final: dict[str, Any]
    ) -> AekoMessageResponse:
        usage = AekoUsage(calls=final.get("calls", []))
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
        )
