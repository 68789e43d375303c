"""A chat model that answers from a script: for tests, benchmarks and demos without a key.

It picks its reply by the ``agent`` run metadata every engine call carries, reports
``usage_metadata`` and a ``model_name`` like a provider does, can wait a fixed latency, and
records every call it served.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from pydantic import ConfigDict, Field, PrivateAttr

from engine.models.estimate import estimated_usage

Reply = str | AIMessage | BaseException | Callable[[Sequence[BaseMessage]], "str | AIMessage"]


@dataclass(frozen=True)
class ScriptedCall:
    agent: str
    messages: tuple[BaseMessage, ...]
    tools: tuple[str, ...]

    @property
    def prompt_chars(self) -> int:
        return sum(len(message.text) for message in self.messages)


class ScriptedChatModel(BaseChatModel):
    """Replies per agent are served in order; the last one repeats once the list runs out.

    A reply may be text, an ``AIMessage`` (tool calls included), an exception to raise, or
    a callable that receives the prompt messages and returns either.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    model_name: str = "scripted-model"
    # Typed Any: pydantic would try to coerce a callable reply into an AIMessage.
    script: dict[str, list[Any]] = Field(default_factory=dict)  # agent -> list[Reply]
    default: Any = "Next agent: Nenhum"  # Reply
    latency_s: float = 0.0
    record: bool = True  # keep every call for inspection (off for load tests)

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
        agent = str((run_manager.metadata if run_manager else {}).get("agent", ""))
        tools = tuple(getattr(tool, "name", str(tool)) for tool in kwargs.get("tools", ()))
        with self._lock:
            replies = self.script.get(agent) or [self.default]
            index = self._served.get(agent, 0)
            self._served[agent] = index + 1
            if self.record:
                self._calls.append(ScriptedCall(agent, tuple(messages), tools))
        reply = replies[min(index, len(replies) - 1)]
        if self.latency_s:
            time.sleep(self.latency_s)
        if callable(reply) and not isinstance(reply, AIMessage):
            reply = reply(messages)
        if isinstance(reply, BaseException):
            raise reply
        message = reply if isinstance(reply, AIMessage) else AIMessage(content=reply)
        message = message.model_copy(
            update={
                "usage_metadata": message.usage_metadata or estimated_usage(messages, message.text),
                "response_metadata": {"model_name": self.model_name, **message.response_metadata},
            }
        )
        return ChatResult(generations=[ChatGeneration(message=message)])
