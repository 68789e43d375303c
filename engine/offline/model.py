"""``OfflineAnalyst``: the chat model the engine runs on when no provider key is set.

It plugs in at the model seam like any LangChain chat model, so every agent of the same
graph runs through it: routing, guardrail, plan parsing, events and DTOs are the real ones.
It reads the structured request the engine attaches to every call's run metadata (see
``engine.agents.request``), never the rendered prompt, and answers deterministically from it.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Iterator, Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage, ToolCall, ToolMessage
from langchain_core.messages.tool import tool_call_chunk
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langchain_core.runnables import Runnable
from pydantic import model_validator

from engine.actions.tool import TOOL_NAME as ACTIONS
from engine.agents.catalog import FAQ, GREEN_GASES_ANALYST
from engine.agents.request import AgentRequest, SummaryRequest
from engine.constants import OFFLINE_MODEL_NAME
from engine.emissions.tool import TOOL_NAME as CALCULATOR
from engine.inventory.tool import TOOL_NAME as INVENTORY
from engine.knowledge.tool import TOOL_NAME as KNOWLEDGE
from engine.models.estimate import estimated_usage
from engine.models.streaming import StreamsWithMetadata, stream_run_manager
from engine.offline.agents import (
    RESPONDERS,
    answers_from_inventory,
    asked,
    faq_reads_knowledge_base,
    summarizer,
)
from engine.offline.calculation import read_calculations, tool_arguments
from engine.offline.own_data import own_data_reply
from engine.offline.request import language_of, request_of
from engine.pricing import offline_priced_name

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


class OfflineAnalyst(StreamsWithMetadata, BaseChatModel):
    model_name: str = OFFLINE_MODEL_NAME
    # A model whose prices its calls are charged at (a demo of what a run would cost there,
    # a test of a cost cap); its name then says both (``engine.pricing.offline_priced_name``).
    priced_as: str | None = None
    bound_tools: tuple[str, ...] = ()  # the tools an agent offers it, by name
    # Seconds each reply waits, like a provider's latency: a demo of a long run, or a test
    # that must act while one goes on. Answers are the same with or without it.
    pace_s: float = 0.0

    @model_validator(mode="after")
    def _name_its_price(self) -> OfflineAnalyst:
        if self.priced_as and self.model_name == OFFLINE_MODEL_NAME:
            self.model_name = offline_priced_name(self.priced_as)
        return self

    @property
    def _llm_type(self) -> str:
        return "aeko-offline"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Runnable:
        # It reads the run's inventory from the structured request; of the tools it is
        # offered it calls the calculator and the knowledge base, so a computation or an
        # entry read shows on the agent trail (and the entries become the answer's sources).
        names = tuple(getattr(tool, "name", str(tool)) for tool in tools)
        return self.model_copy(update={"bound_tools": names})

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        if self.pace_s > 0:
            time.sleep(self.pace_s)
        request = request_of(run_manager.metadata if run_manager else {})
        calls = self._tool_calls(request, messages)
        if calls:
            message = AIMessage(
                content="",
                tool_calls=calls,
                usage_metadata=estimated_usage(messages, str([c["args"] for c in calls])),
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

    def _tool_calls(
        self, request: AgentRequest | SummaryRequest | None, messages: Sequence[BaseMessage]
    ) -> list[ToolCall]:
        """The tools a chat question needs, before any tool answered: the calculator for a
        calculation; for the FAQ, the knowledge base whenever its answer comes from there; for
        a question about the attached inventory, every query and sum its answer states."""
        if (
            not isinstance(request, AgentRequest)
            or request.flow != "chat"
            or any(isinstance(m, ToolMessage) for m in messages)
        ):
            return []
        if (
            request.inventory is not None
            and INVENTORY in self.bound_tools
            and answers_from_inventory(request)
        ):
            reply = own_data_reply(request.question, request.inventory, language_of(request))
            return [
                ToolCall(name=use.name, args=use.args, id=f"inv-{len(messages)}-{index}")
                for index, use in enumerate(reply.uses)
                if use.name in self.bound_tools
            ]
        if CALCULATOR in self.bound_tools:  # every quantity the question gives, computed
            asks = read_calculations(request.question, request.today)
            if asks:
                return [
                    ToolCall(
                        name=CALCULATOR, args=tool_arguments(ask), id=f"calc-{len(messages)}-{i}"
                    )
                    for i, ask in enumerate(asks)
                ]
        call = self._tool_call(request, messages)
        return [call] if call is not None else []

    def _tool_call(self, request: AgentRequest, messages: Sequence[BaseMessage]) -> ToolCall | None:
        if (
            request.agent == FAQ
            and KNOWLEDGE in self.bound_tools
            and faq_reads_knowledge_base(request)
        ):
            # The answer's language rides along, so the sources read like the answer.
            args = {"pergunta": asked(request).question, "idioma": language_of(request)}
            return ToolCall(name=KNOWLEDGE, args=args, id=f"kb-{len(messages)}")
        if (
            request.agent == GREEN_GASES_ANALYST
            and request.inventory is not None
            and ACTIONS in self.bound_tools
        ):
            return ToolCall(name=ACTIONS, args={}, id=f"act-{len(messages)}")
        return None

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        """The same reply as ``_generate``, served word by word like a provider's stream;
        usage and metadata ride on the last chunk only, so the chunks add up to that reply."""
        manager = stream_run_manager(run_manager)
        message = self._generate(messages, stop, manager, **kwargs).generations[0].message
        once = {
            "usage_metadata": message.usage_metadata,
            "response_metadata": message.response_metadata,
        }
        if isinstance(message, AIMessage) and message.tool_calls:
            chunks = [
                tool_call_chunk(
                    name=call["name"],
                    args=json.dumps(call["args"], ensure_ascii=False),
                    id=call.get("id"),
                    index=index,
                )
                for index, call in enumerate(message.tool_calls)
            ]
            yield ChatGenerationChunk(
                message=AIMessageChunk(content="", tool_call_chunks=chunks, **once)
            )
            return
        words = _WORDS.findall(message.text) or [""]
        for word in words[:-1]:
            yield ChatGenerationChunk(message=AIMessageChunk(content=word))
        yield ChatGenerationChunk(message=AIMessageChunk(content=words[-1], **once))


# A word and the whitespace after it; text opening with whitespace keeps it as a piece.
_WORDS = re.compile(r"\s+|\S+\s*")


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
