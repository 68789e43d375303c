"""A chat model that answers from a script: for tests, benchmarks and demos without a key.

It picks its reply by the ``agent`` run metadata every engine call carries, reports
``usage_metadata`` and a ``model_name`` like a provider does, can wait a fixed latency, and
records every call it served. Streamed, it serves a reply in pieces, with its usage and
``response_metadata`` (a scripted ``finish_reason`` too) on the last piece only, as
providers do, so the aggregated chunks equal the invoked reply.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.messages.tool import tool_call_chunk
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langchain_core.runnables import Runnable
from pydantic import ConfigDict, Field, PrivateAttr

from engine.models.estimate import estimated_usage
from engine.models.streaming import StreamsWithMetadata, stream_run_manager


class Streamed:
    """A reply scripted piece by piece: streamed, each piece is one chunk; invoked, the
    pieces are joined. An exception among them is raised where it stands, so a stream can
    fail after part of its answer was served (invoked, it fails outright)."""

    def __init__(
        self,
        *pieces: str | BaseException,
        response_metadata: Mapping[str, Any] | None = None,
    ) -> None:
        self.pieces = pieces
        self.response_metadata = dict(response_metadata or {})

    def __repr__(self) -> str:
        return f"Streamed{self.pieces!r}"


Reply = (
    str
    | AIMessage
    | Streamed
    | BaseException
    | Callable[[Sequence[BaseMessage]], "str | AIMessage | Streamed"]
)


@dataclass(frozen=True)
class ScriptedCall:
    agent: str
    messages: tuple[BaseMessage, ...]
    tools: tuple[str, ...]
    tool_choice: str | None = None  # "none": tools declared, none may be called

    @property
    def prompt_chars(self) -> int:
        return sum(len(message.text) for message in self.messages)


class ScriptedChatModel(StreamsWithMetadata, BaseChatModel):
    """Replies per agent are served in order; the last one repeats once the list runs out.

    A reply may be text, an ``AIMessage`` (tool calls and ``response_metadata`` such as a
    ``finish_reason`` included), a ``Streamed`` reply, an exception to raise, or a callable
    that receives the prompt messages and returns one of those.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    model_name: str = "scripted-model"
    # Typed Any: pydantic would try to coerce a callable reply into an AIMessage.
    script: dict[str, list[Any]] = Field(default_factory=dict)  # agent -> list[Reply]
    default: Any = "Next agent: Nenhum"  # Reply
    latency_s: float = 0.0
    record: bool = True  # keep every call for inspection (off for load tests)
    # Streamed, text replies are served in pieces of this many characters (0: one piece).
    chunk_chars: int = 0

    _lock: threading.Lock = PrivateAttr(default_factory=threading.Lock)
    _served: dict[str, int] = PrivateAttr(default_factory=dict)
    _calls: list[ScriptedCall] = PrivateAttr(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    @property
    def calls(self) -> list[ScriptedCall]:
        with self._lock:
            return list(self._calls)

    def calls_for(self, agent: str) -> list[ScriptedCall]:
        return [call for call in self.calls if call.agent == agent]

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Runnable:
        return self.bind(tools=list(tools), **kwargs)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        reply = self._next_reply(messages, run_manager, kwargs)
        if isinstance(reply, str):  # most replies: built once, as a provider's would be
            message = AIMessage(
                content=reply,
                usage_metadata=estimated_usage(messages, reply),
                response_metadata={"model_name": self.model_name},
            )
            return ChatResult(generations=[ChatGeneration(message=message)])
        if isinstance(reply, Streamed):
            failure = next((p for p in reply.pieces if isinstance(p, BaseException)), None)
            if failure is not None:
                raise failure
            reply = AIMessage(
                content="".join(str(piece) for piece in reply.pieces),
                response_metadata=reply.response_metadata,
            )
        message = reply.model_copy(
            update={
                "usage_metadata": reply.usage_metadata or estimated_usage(messages, reply.text),
                "response_metadata": {"model_name": self.model_name, **reply.response_metadata},
            }
        )
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        reply = self._next_reply(messages, stream_run_manager(run_manager), kwargs)
        if isinstance(reply, Streamed):
            pieces: list[Any] = list(reply.pieces)
            metadata, usage, calls = reply.response_metadata, None, []
        elif isinstance(reply, str):
            pieces, metadata, usage, calls = self._pieces(reply), {}, None, []
        else:
            pieces = self._pieces(reply.content)
            metadata, usage, calls = reply.response_metadata, reply.usage_metadata, reply.tool_calls
        served = ""
        for index, piece in enumerate(pieces):
            if isinstance(piece, BaseException):
                raise piece
            served += piece if isinstance(piece, str) else AIMessage(content=piece).text
            if index + 1 < len(pieces):
                yield ChatGenerationChunk(message=AIMessageChunk(content=piece))
                continue
            # The last piece carries what a provider reports once: usage, metadata, calls.
            yield ChatGenerationChunk(
                message=AIMessageChunk(
                    content=piece,
                    usage_metadata=usage or estimated_usage(messages, served),
                    response_metadata={"model_name": self.model_name, **metadata},
                    tool_call_chunks=[
                        tool_call_chunk(
                            name=call["name"],
                            args=json.dumps(call["args"]),
                            id=call.get("id"),
                            index=position,
                        )
                        for position, call in enumerate(calls)
                    ],
                )
            )

    def _pieces(self, content: str | list[Any]) -> list[Any]:
        if not isinstance(content, str):  # content blocks: one chunk each, as Gemini 3 sends
            return [[block] for block in content] or [""]
        size = self.chunk_chars
        if size <= 0 or not content:
            return [content]
        return [content[start : start + size] for start in range(0, len(content), size)]

    def _next_reply(
        self,
        messages: list[BaseMessage],
        run_manager: CallbackManagerForLLMRun | None,
        kwargs: dict[str, Any],
    ) -> AIMessage | Streamed | str:
        """Serve the agent's next scripted reply: recorded, delayed, resolved, or raised."""
        agent = str((run_manager.metadata if run_manager else {}).get("agent", ""))
        tools = tuple(_tool_name(tool) for tool in kwargs.get("tools", ()))
        with self._lock:
            replies = self.script.get(agent) or [self.default]
            index = self._served.get(agent, 0)
            self._served[agent] = index + 1
            if self.record:
                choice = kwargs.get("tool_choice")
                self._calls.append(ScriptedCall(agent, tuple(messages), tools, choice))
        reply = replies[min(index, len(replies) - 1)]
        if self.latency_s:
            time.sleep(self.latency_s)
        if callable(reply) and not isinstance(reply, AIMessage):
            reply = reply(messages)
        if isinstance(reply, BaseException):
            raise reply
        if isinstance(reply, AIMessage | Streamed | str):
            return reply
        return AIMessage(content=reply)


def _tool_name(tool: Any) -> str:
    # Not getattr's default: a tool's repr is long to build, and only a nameless one needs it.
    name = getattr(tool, "name", None)
    return name if name is not None else str(tool)
