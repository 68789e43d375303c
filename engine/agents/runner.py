"""Runs one agent: its model (with the other tier as fallback), its tools, its accounting."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.runnables import Runnable

from engine.constants import MAX_TOOL_ROUNDS
from engine.dto import AekoModelCall, AekoTool
from engine.errors import AekoModelError
from engine.events import ToolCalled, ToolReturned
from engine.pricing import call_cost
from engine.protocol import split_marker

Emit = Callable[[Any], None]
_TOOL_OUTPUT_PREVIEW = 2_000  # characters of a tool result carried on its event


@dataclass(frozen=True)
class AgentReply:
    text: str  # without the routing marker
    raw_next: str | None  # what followed "Next agent:", as written
    calls: list[AekoModelCall]


class AgentRunner:
    """Built once per configuration; holds no state of any run."""

    def __init__(
        self,
        name: str,
        system_prompt: str,
        primary: BaseChatModel,
        fallback: BaseChatModel | None,
        tools: Sequence[AekoTool] = (),
    ) -> None:
        self.name = name
        self.system_prompt = system_prompt
        self._tools = {declared.name: declared.tool for declared in tools}
        self._config = {"metadata": {"agent": name}, "run_name": name, "tags": [f"agent:{name}"]}
        if fallback is primary:
            fallback = None
        self._answer_model = _with_fallback(primary, fallback)
        if self._tools:
            bound = [declared.tool for declared in tools]
            self._tool_model = _with_fallback(
                primary.bind_tools(bound),
                fallback.bind_tools(bound) if fallback is not None else None,
            )
        else:
            self._tool_model = self._answer_model

    def run(self, request: str, temporal: str, emit: Emit) -> AgentReply:
        messages: list[BaseMessage] = [
            SystemMessage(f"{self.system_prompt}\n\n{temporal}"),
            HumanMessage(request),
        ]
        calls: list[AekoModelCall] = []
        for round_index in range(MAX_TOOL_ROUNDS + 1):
            # The last round is made without tools, so the agent has to answer.
            with_tools = bool(self._tools) and round_index < MAX_TOOL_ROUNDS
            reply = self._call(self._tool_model if with_tools else self._answer_model, messages)
            calls.append(reply[1])
            message = reply[0]
            if not (with_tools and message.tool_calls):
                break
            messages.append(message)
            messages.extend(self._run_tools(message, emit))
        text, raw_next = split_marker(message.text)
        return AgentReply(text=text, raw_next=raw_next, calls=calls)

    def _call(
        self, model: Runnable, messages: list[BaseMessage]
    ) -> tuple[AIMessage, AekoModelCall]:
        started = time.perf_counter()
        try:
            message = model.invoke(messages, config=self._config)
        except Exception as exc:
            raise AekoModelError(self.name, exc) from exc
        usage = message.usage_metadata or {}
        model = _model_name(message)
        input_tokens, output_tokens = usage.get("input_tokens", 0), usage.get("output_tokens", 0)
        call = AekoModelCall(
            agent=self.name,
            model=model,
            input_tokens=input_tokens,
            output_tokens=output_tokens,
            duration_ms=(time.perf_counter() - started) * 1000,
            cost_usd=call_cost(model, input_tokens, output_tokens),
        )
        return message, call

    def _run_tools(self, message: AIMessage, emit: Emit) -> list[ToolMessage]:
        results = []
        for call in message.tool_calls:
            name, call_id = call["name"], call.get("id") or ""
            emit(ToolCalled(agent=self.name, tool=name, call_id=call_id, arguments=call["args"]))
            tool = self._tools.get(name)
            error = tool is None
            if tool is None:
                output = f"Ferramenta desconhecida: {name}."
            else:
                try:
                    output = str(tool.invoke(call["args"], config=self._config))
                except Exception as exc:  # a failing tool is reported to the model, not fatal
                    error = True
                    output = f"Erro ao executar {name}: {type(exc).__name__}: {exc}"
            emit(
                ToolReturned(
                    agent=self.name,
                    tool=name,
                    call_id=call_id,
                    output=output[:_TOOL_OUTPUT_PREVIEW],
                    error=error,
                )
            )
            results.append(ToolMessage(content=output, tool_call_id=call_id, name=name))
        return results


def _with_fallback(primary: Runnable, fallback: Runnable | None) -> Runnable:
    if fallback is None:
        return primary
    return primary.with_fallbacks([fallback])


def _model_name(message: AIMessage) -> str:
    metadata = message.response_metadata or {}
    return str(metadata.get("model_name") or metadata.get("model") or "unknown")
