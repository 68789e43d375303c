"""``OfflineAnalyst``: the chat model the engine runs on when no provider key is set.

It plugs in at the model seam like any LangChain chat model, so every agent of the same
graph runs through it: routing, guardrail, plan parsing, events and DTOs are the real ones.
It knows which agent is calling from the ``agent`` run metadata the engine attaches to
every call, and answers deterministically from the request it is given.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, SystemMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable

from engine.models.estimate import estimated_usage
from engine.offline.agents import RESPONDERS, guardrail
from engine.offline.request import read_request

OFFLINE_MODEL_NAME = "aeko-offline-analyst"


class OfflineAnalyst(BaseChatModel):
    model_name: str = OFFLINE_MODEL_NAME

    @property
    def _llm_type(self) -> str:
        return "aeko-offline"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Runnable:
        # It reads the digest in the prompt and never calls a tool; binding is accepted so
        # agents with tools run on it unchanged.
        return self

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        agent = str((run_manager.metadata if run_manager else {}).get("agent", ""))
        system = "\n".join(m.text for m in messages if isinstance(m, SystemMessage))
        text = messages[-1].text if messages else ""
        request = read_request(agent, system, text)
        answer = RESPONDERS.get(agent, guardrail)(request)
        message = AIMessage(
            content=answer,
            usage_metadata=estimated_usage(messages, answer),
            response_metadata={"model_name": self.model_name},
        )
        return ChatResult(generations=[ChatGeneration(message=message)])
