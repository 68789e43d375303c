"""``OfflineAnalyst``: the chat model the engine runs on when no provider key is set.

It plugs in at the model seam like any LangChain chat model, so every agent of the same
graph runs through it: routing, guardrail, plan parsing, events and DTOs are the real ones.
It reads the structured request the engine attaches to every call's run metadata (see
``engine.agents.request``), never the rendered prompt, and answers deterministically from it.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, ToolCall, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable

from engine.agents.request import AgentRequest, SummaryRequest
from engine.constants import OFFLINE_MODEL_NAME
from engine.emissions.tool import TOOL_NAME as CALCULATOR
from engine.models.estimate import estimated_usage
from engine.offline.agents import RESPONDERS, summarizer
from engine.offline.calculation import read_calculation, tool_arguments
from engine.offline.request import request_of

log = logging.getLogger(__name__)

# What it answers a call that carries no structured request (a caller outside the engine):
# it computes answers from the request's fields and has nothing else to read.
NO_REQUEST_ANSWER = (
    "O analista offline da Aeko responde aos agentes do motor Aeko: esta chamada não trouxe "
    "o pedido estruturado que ele lê, então não há o que analisar. Use AekoMessenger ou "
    "AekoInventoryAnalyzer, ou configure um modelo de um provedor.\n\n"
    "Aeko's offline analyst answers the Aeko engine's agents: this call carried no "
    "structured request for it to read, so there is nothing to analyse. Use AekoMessenger "
    "or AekoInventoryAnalyzer, or configure a provider's model."
)


class OfflineAnalyst(BaseChatModel):
    model_name: str = OFFLINE_MODEL_NAME
    bound_tools: tuple[str, ...] = ()  # the tools an agent offers it, by name

    @property
    def _llm_type(self) -> str:
        return "aeko-offline"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Runnable:
        # It reads the run's inventory from the structured request; of the tools it is
        # offered it calls only the calculator, so a computation shows on the agent trail.
        names = tuple(getattr(tool, "name", str(tool)) for tool in tools)
        return self.model_copy(update={"bound_tools": names})

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        request = request_of(run_manager.metadata if run_manager else {})
        call = self._calculator_call(request, messages)
        if call is not None:
            message = AIMessage(
                content="",
                tool_calls=[call],
                usage_metadata=estimated_usage(messages, str(call["args"])),
                response_metadata={"model_name": self.model_name},
            )
            return ChatResult(generations=[ChatGeneration(message=message)])
        answer = _answer(request)
        message = AIMessage(
            content=answer,
            usage_metadata=estimated_usage(messages, answer),
            response_metadata={"model_name": self.model_name},
        )
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _calculator_call(
        self, request: AgentRequest | SummaryRequest | None, messages: Sequence[BaseMessage]
    ) -> ToolCall | None:
        """A calculation question, before the calculator answered: call it."""
        if (
            not isinstance(request, AgentRequest)
            or request.flow != "chat"
            or CALCULATOR not in self.bound_tools
            or any(isinstance(m, ToolMessage) for m in messages)
        ):
            return None
        ask = read_calculation(request.question)
        if ask is None:
            return None
        return ToolCall(name=CALCULATOR, args=tool_arguments(ask), id=f"calc-{len(messages)}")


def _answer(request: AgentRequest | SummaryRequest | None) -> str:
    if isinstance(request, SummaryRequest):
        return summarizer(request)
    responder = RESPONDERS.get(request.agent) if request is not None else None
    if request is None or responder is None:
        log.warning(
            "The offline analyst was called without a structured request for a known agent "
            "(%s); it answers a fallback text.",
            request.agent if request is not None else "no request",
        )
        return NO_REQUEST_ANSWER
    return responder(request)
