"""Runs one agent: its model chain (retries, then fallbacks), its tools, its accounting."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.runnables import Runnable, RunnableBinding, RunnableConfig

from engine.agents.deltas import AnswerStream, streamed_reply
from engine.agents.request import AgentRequest, SummaryRequest, call_metadata
from engine.budget import BudgetTracker
from engine.constants import DEFAULT_MAX_TOKENS, MAX_TOOL_ROUNDS
from engine.dto import AekoModelCall, AekoSource, AekoTool
from engine.errors import AekoModelCutOffError, AekoModelError, AekoModelRefusedError
from engine.events import ModelFellBack, ModelRetried, ToolCalled, ToolReturned
from engine.models.estimate import estimated_usage
from engine.models.finish import was_truncated, withheld_reason
from engine.models.resilience import (
    RetryPolicy,
    configured_model_name,
    describe,
    is_retryable,
    retry_after,
)
from engine.pricing import call_cost, cap_cost
from engine.protocol import split_marker

Emit = Callable[[Any], None]
_TOOL_OUTPUT_PREVIEW = 2_000  # characters of a tool result carried on its event
_pause = time.sleep  # the wait between retries; a seam for tests


@dataclass(frozen=True)
class Evidence:
    """One tool result of a run: the text the model read, and the sources behind it."""

    text: str
    sources: tuple[AekoSource, ...] = ()


@dataclass(frozen=True)
class AgentReply:
    text: str  # without the routing marker
    raw_next: str | None  # what followed "Next agent:", as written
    calls: list[AekoModelCall]
    evidence: tuple[Evidence, ...] = ()  # what the agent's tools returned, in call order
    truncated: bool = False  # the provider cut the final call at the token cap


class AgentRunner:
    """Built once per configuration; holds no state of any run."""

    def __init__(
        self,
        name: str,
        system_prompt: str,
        chain: Sequence[BaseChatModel],
        tools: Sequence[AekoTool] = (),
        retry: RetryPolicy | None = None,
        *,
        stream: bool = False,
        max_output_tokens: int = DEFAULT_MAX_TOKENS,
    ) -> None:
        """``max_output_tokens``: the output cap the engine configured for this flow, a
        call's worst case for a cost cap when its model states none of its own."""
        self.name = name
        self.max_output_tokens = max_output_tokens
        self.system_prompt = system_prompt
        self.retry = retry or RetryPolicy()
        # An answer nobody reviews reaches the user as it is written, as AnswerDelta events.
        self.stream = stream
        self._tools = {declared.name: declared.tool for declared in tools}
        self._config = {"metadata": {"agent": name}, "run_name": name, "tags": [f"agent:{name}"]}
        self._answer_chain: tuple[Runnable, ...] = tuple(chain)
        if self._tools:
            bound = [declared.tool for declared in tools]
            self._tool_chain: tuple[Runnable, ...] = tuple(m.bind_tools(bound) for m in chain)
            # The last round reads the tool history, so the tools stay declared (some
            # providers reject tool messages without them) but none may be called.
            self._final_chain: tuple[Runnable, ...] = tuple(
                _no_tool_choice(m, bound) for m in chain
            )
        else:
            self._tool_chain = self._final_chain = self._answer_chain

    def run(
        self,
        request: str,
        temporal: str,
        emit: Emit,
        budget: BudgetTracker | None = None,
        *,
        structured: AgentRequest | SummaryRequest | None = None,
        attempt: int = 1,
    ) -> AgentReply:
        """``request`` is the text the model reads; ``structured`` is the same request as
        data, for models that compute their answer (the offline analyst). It travels in the
        call's run metadata, which reaches callbacks but never a provider's payload.
        ``attempt`` is the guardrail attempt a streamed answer's deltas belong to."""
        config = {**self._config, "metadata": call_metadata(self.name, structured)}
        messages: list[BaseMessage] = [
            SystemMessage(f"{self.system_prompt}\n\n{temporal}"),
            HumanMessage(request),
        ]
        budget = budget or BudgetTracker(None)  # no caps; this run's calls only
        calls: list[AekoModelCall] = []
        answer = AnswerStream(self.name, emit, attempt) if self.stream else None
        evidence: list[Evidence] = []
        for round_index in range(MAX_TOOL_ROUNDS + 1):
            # The last round may call no tool, so the agent has to answer.
            with_tools = bool(self._tools) and round_index < MAX_TOOL_ROUNDS
            chain = self._tool_chain if with_tools else self._final_chain
            worst = self._worst_case_usd(chain, messages) if budget.caps_cost else 0.0
            # A call that fails stays counted at its worst case: a provider may have billed
            # a stream cut midway, and the run does not get it back.
            budget.before_call(self.name, worst)
            try:
                message, call = self._call(chain, messages, emit, config, answer)
            except AekoModelError as error:
                # What the run spent until now travels with the error, to be recorded.
                if error.model is None and chain:
                    error.model = configured_model_name(chain[-1])
                if error.usage is None:
                    error.usage = budget.usage
                raise
            budget.record(call, worst)
            calls.append(call)
            _check_answered(self.name, message, call, budget, answer)
            if not (with_tools and message.tool_calls):
                break
            if answer is not None:
                answer.restart()  # what a tool round wrote before its call is no answer
            messages.append(message)
            messages.extend(self._run_tools(message, emit, evidence))
        text, raw_next = split_marker(message.text)
        if answer is not None:
            answer.finish(text)
        return AgentReply(
            text=text,
            raw_next=raw_next,
            calls=calls,
            evidence=tuple(evidence),
            truncated=was_truncated(message),
        )

    def _worst_case_usd(self, chain: Sequence[Runnable], messages: Sequence[BaseMessage]) -> float:
        """The most the next call may cost against a cap: its input as the engine estimates
        it, the whole output allowance, at the dearest model of the chain it may fall back
        along (an unknown price at the conservative fallback rate). A provider counts a
        little more input than the estimate (tool schemas); a call rarely writes its whole
        allowance, which covers that many times over."""
        input_tokens = estimated_usage(messages, "")["input_tokens"]
        worst = 0.0
        for model in chain:
            output_tokens = _max_output_tokens(model) or self.max_output_tokens
            price = call_cost(configured_model_name(model), input_tokens, output_tokens)
            worst = max(worst, cap_cost(price, input_tokens, output_tokens))
        return worst

    def _call(
        self,
        chain: Sequence[Runnable],
        messages: list[BaseMessage],
        emit: Emit,
        config: RunnableConfig,
        answer: AnswerStream | None = None,
    ) -> tuple[AIMessage, AekoModelCall]:
        started = time.perf_counter()
        failures = 0
        last: BaseException | None = None
        for index, model in enumerate(chain):
            attempt = 0
            while True:
                try:
                    target, keywords = _unbound(model)
                    if answer is None:
                        message = target.invoke(messages, config=config, **keywords)
                    else:
                        message = streamed_reply(target, messages, config, answer, keywords)
                except Exception as exc:
                    last, failures = exc, failures + 1
                    if answer is not None:
                        answer.restart()  # the next try writes the answer from the start
                    if is_retryable(exc) and attempt < self.retry.max_retries:
                        attempt += 1
                        delay = self.retry.delay(attempt, retry_after(exc))
                        emit(
                            ModelRetried(
                                agent=self.name,
                                model=configured_model_name(model),
                                attempt=attempt,
                                delay_s=delay,
                                reason=describe(exc),
                            )
                        )
                        _pause(delay)
                        continue
                    break
                return message, self._accounted(message, model, started, failures)
            if index + 1 < len(chain):
                emit(
                    ModelFellBack(
                        agent=self.name,
                        from_model=configured_model_name(model),
                        to_model=configured_model_name(chain[index + 1]),
                        reason=describe(last),
                    )
                )
        raise AekoModelError(self.name, last or RuntimeError("no model configured"))

    def _accounted(
        self, message: AIMessage, model: Runnable, started: float, failures: int
    ) -> AekoModelCall:
        # LangChain's usage convention: output_tokens already holds the reasoning (Gemini's
        # thoughts_token_count, which langchain-google-genai adds to candidates_token_count)
        # and input_tokens the cache reads; the details only say which part is which.
        usage = message.usage_metadata or {}
        name = _model_name(message) or configured_model_name(model)
        input_tokens, output_tokens = usage.get("input_tokens", 0), usage.get("output_tokens", 0)
        details_in = usage.get("input_token_details") or {}
        details_out = usage.get("output_token_details") or {}
        cost = call_cost(
            name,
            input_tokens,
            output_tokens,
            cache_read_tokens=details_in.get("cache_read", 0) or 0,
            reasoning_tokens=details_out.get("reasoning", 0) or 0,
        )
        return AekoModelCall(
            agent=self.name,
            model=name,
            input_tokens=input_tokens,
            output_tokens=output_tokens,
            duration_ms=(time.perf_counter() - started) * 1000,
            cost_usd=cost,
            retries=failures,
        )

    def _run_tools(
        self, message: AIMessage, emit: Emit, evidence: list[Evidence]
    ) -> list[ToolMessage]:
        results = []
        for call in message.tool_calls:
            name, call_id = call["name"], call.get("id") or ""
            emit(ToolCalled(agent=self.name, tool=name, call_id=call_id, arguments=call["args"]))
            tool = self._tools.get(name)
            error, sources = tool is None, ()
            if tool is None:
                result = ToolMessage(f"Ferramenta desconhecida: {name}.", tool_call_id=call_id)
            else:
                try:
                    # Invoked with the whole call, a tool answers a ToolMessage whose artifact
                    # carries its sources beside the text the model reads.
                    result = tool.invoke({**call, "type": "tool_call"}, config=self._config)
                    sources = tuple(_sources(getattr(result, "artifact", None)))
                except Exception as exc:  # a failing tool is reported to the model, not fatal
                    error = True
                    text = f"Erro ao executar {name}: {type(exc).__name__}: {exc}"
                    result = ToolMessage(text, tool_call_id=call_id)
            if not isinstance(result, ToolMessage):  # a tool that returns a bare value
                result = ToolMessage(str(result), tool_call_id=call_id)
            result.name = name
            output = result.text
            emit(
                ToolReturned(
                    agent=self.name,
                    tool=name,
                    call_id=call_id,
                    output=output[:_TOOL_OUTPUT_PREVIEW],
                    error=error,
                    sources=sources,
                )
            )
            evidence.append(Evidence(text=output, sources=sources))
            results.append(result)
        return results


def _check_answered(
    agent: str,
    message: AIMessage,
    call: AekoModelCall,
    budget: BudgetTracker,
    answer: AnswerStream | None,
) -> None:
    """Raise when a reply holds no answer to give: withheld by the provider, or cut at the
    token cap before any text or tool call. Either would otherwise reach the user as an
    empty answer, or as the part a safety filter stopped. What was shown is taken back,
    and the error carries what the run spent, this call included."""
    reason = withheld_reason(message)
    if reason is None and (
        message.tool_calls or message.text.strip() or not was_truncated(message)
    ):
        return
    if answer is not None:
        answer.restart()
    if reason is not None:
        detail = str((message.response_metadata or {}).get("finish_message") or "")
        raise AekoModelRefusedError(
            agent, reason, model=call.model, usage=budget.usage, detail=detail
        )
    raise AekoModelCutOffError(agent, model=call.model, usage=budget.usage)


def _no_tool_choice(model: BaseChatModel, tools: list[Any]) -> Runnable:
    """``model`` with ``tools`` declared and ``tool_choice="none"``; the bare model for a
    provider whose ``bind_tools`` takes no such choice."""
    try:
        return model.bind_tools(tools, tool_choice="none")
    except (TypeError, ValueError, NotImplementedError):
        return model


def _unbound(model: Runnable) -> tuple[Runnable, dict[str, Any]]:
    """A binding that only adds call keywords (``bind_tools``' tools and tool choice), as its
    model and those keywords: called so, the model gets the same call, without the binding
    merging the run's config into a copy first (a tenth of an analyst's turn here)."""
    if (
        isinstance(model, RunnableBinding)
        and type(model).invoke is RunnableBinding.invoke  # langchain's own chat-model
        and type(model).stream is RunnableBinding.stream  # binding is one, typed apart
        and not model.config
        and not model.config_factories
        and model.custom_input_type is None
        and model.custom_output_type is None
    ):
        return model.bound, model.kwargs
    return model, {}


def _sources(artifact: object) -> list[AekoSource]:
    """The sources a tool handed beside its text; anything else in an artifact is ignored."""
    if not isinstance(artifact, list | tuple):
        return []
    return [item for item in artifact if isinstance(item, AekoSource)]


def _max_output_tokens(model: Runnable) -> int | None:
    """The output cap a model was built with (Gemini's ``max_output_tokens``, the others'
    ``max_tokens``); None for one that states none, such as a model given as an instance."""
    inner = getattr(model, "bound", model)
    for name in ("max_output_tokens", "max_tokens", "max_completion_tokens"):
        value = getattr(inner, name, None)
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return value
    return None


def _model_name(message: AIMessage) -> str:
    metadata = message.response_metadata or {}
    return str(metadata.get("model_name") or metadata.get("model") or "")
