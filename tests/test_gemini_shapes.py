"""Gemini as it really answers, through the engine.

Every reply here is a ``google.genai`` ``GenerateContentResponse`` built from the SDK's own
types, handed to a real ``ChatGoogleGenerativeAI`` whose Google client is replaced by a
transport that serves those responses and keeps every request. So the messages the engine
sees are the ones langchain-google-genai makes (content blocks, signatures in
``additional_kwargs``, usage, finish reasons, streamed chunks), and what the engine sends
back is the request Gemini would receive (``Content`` parts with their thought signatures).
"""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from google.genai import types as gt
from langchain_core.messages import AIMessage
from langchain_core.tools import tool
from langchain_google_genai import ChatGoogleGenerativeAI

from engine import Aeko, AekoMessenger, AekoSession, AekoUser, AnswerDelta
from engine.agents.catalog import FAQ, ROUTER
from engine.agents.runner import AgentRunner
from engine.dto import AekoTool
from engine.errors import AekoModelCutOffError, AekoModelError, AekoModelRefusedError
from engine.models.finish import withheld_reason
from engine.models.scripted import ScriptedChatModel

USER = AekoUser(id_external_user=5, role="Analista ESG")
GEMINI_25, GEMINI_3 = "gemini-2.5-flash", "gemini-3.5-flash"
# Signatures are opaque bytes to the client: any byte value must come back unchanged.
SIG_CALL = b"\x12\x07fc-sig\x00\xff\x80"
SIG_TEXT = b"\x0atext-sig\x01\xfe"
SIG_THOUGHT = b"\x0athought-sig\x02"

# --- the SDK's own response types -----------------------------------------------------


def call(name: str, signature: bytes | None = None, call_id: str | None = None, **args):
    return gt.Part(
        function_call=gt.FunctionCall(name=name, args=args, id=call_id),
        thought_signature=signature,
    )


def text(value: str, signature: bytes | None = None) -> gt.Part:
    return gt.Part(text=value, thought_signature=signature)


def thought(value: str, signature: bytes | None = None) -> gt.Part:
    return gt.Part(text=value, thought=True, thought_signature=signature)


def response(
    *parts: gt.Part,
    finish: gt.FinishReason | None = gt.FinishReason.STOP,
    prompt: int = 100,
    output: int = 10,
    thoughts: int | None = None,
    cached: int | None = None,
    model: str = GEMINI_25,
    finish_message: str | None = None,
) -> gt.GenerateContentResponse:
    """One response, or one streamed chunk (``finish=None`` but on the last); streamed
    chunks carry cumulative counts, as Gemini sends them."""
    return gt.GenerateContentResponse(
        candidates=[
            gt.Candidate(
                content=gt.Content(role="model", parts=list(parts)) if parts else None,
                finish_reason=finish,
                finish_message=finish_message,
                index=0,
            )
        ],
        usage_metadata=gt.GenerateContentResponseUsageMetadata(
            prompt_token_count=prompt,
            candidates_token_count=output,
            thoughts_token_count=thoughts,
            cached_content_token_count=cached,
            total_token_count=prompt + output + (thoughts or 0),
        ),
        model_version=model,
    )


def blocked_prompt(model: str = GEMINI_25) -> gt.GenerateContentResponse:
    """A prompt Gemini refuses to answer: no candidate at all, only the prompt feedback."""
    return gt.GenerateContentResponse(
        prompt_feedback=gt.GenerateContentResponsePromptFeedback(
            block_reason=gt.BlockedReason.SAFETY
        ),
        usage_metadata=gt.GenerateContentResponseUsageMetadata(
            prompt_token_count=80, total_token_count=80
        ),
        model_version=model,
    )


Reply = gt.GenerateContentResponse | list[gt.GenerateContentResponse]


class Transport:
    """Stands in for ``google.genai.Client().models``: serves the scripted responses in
    order and keeps each request as ChatGoogleGenerativeAI built it. A list is a streamed
    reply, chunk by chunk; a single response streams as one chunk."""

    def __init__(self, replies: list[Reply]) -> None:
        self.replies = list(replies)
        self.requests: list[dict[str, Any]] = []

    def _next(self, request: dict[str, Any]) -> Reply:
        self.requests.append(request)
        assert self.replies, "the engine made a call the test did not script"
        return self.replies.pop(0)

    def generate_content(self, **request: Any) -> gt.GenerateContentResponse:
        reply = self._next(request)
        assert not isinstance(reply, list), "scripted as a stream, but invoked"
        return reply

    def generate_content_stream(self, **request: Any) -> Iterator[gt.GenerateContentResponse]:
        reply = self._next(request)
        yield from reply if isinstance(reply, list) else [reply]


def gemini(model: str, replies: list[Reply]) -> tuple[ChatGoogleGenerativeAI, Transport]:
    chat = ChatGoogleGenerativeAI(model=model, api_key="test-key", max_retries=1)
    transport = Transport(replies)
    object.__setattr__(chat, "client", SimpleNamespace(models=transport))
    return chat, transport


def function_calls(content: gt.Content) -> list[tuple[str, dict, bytes | None]]:
    return [
        (p.function_call.name, dict(p.function_call.args or {}), p.thought_signature)
        for p in content.parts or ()
        if p.function_call
    ]


def function_responses(content: gt.Content) -> list[tuple[str, Any]]:
    return [
        (p.function_response.name, p.function_response.response["output"])
        for p in content.parts or ()
        if p.function_response
    ]


@tool
def fator_emissao(combustivel: str) -> str:
    """Fator de emissão de um combustível, em kg CO2e por litro."""
    return {"diesel": "2,60 kg CO2e/L", "gasolina": "2,21 kg CO2e/L"}[combustivel]


@tool
def gwp(gas: str) -> str:
    """GWP-100 de um gás (IPCC AR6)."""
    return {"CH4": "27,9", "N2O": "GWP 273"}[gas]


TOOLS = [AekoTool(tool=fator_emissao), AekoTool(tool=gwp)]


def run_agent(chat: ChatGoogleGenerativeAI, *, stream: bool) -> tuple[Any, list]:
    events: list = []
    runner = AgentRunner(FAQ, "Responda.", [chat], TOOLS, stream=stream)
    return runner.run("Fatores?", "Hoje é 2025-05-01.", events.append), events


# --- a tool round is replayed with its thought signatures -------------------------------


@pytest.mark.parametrize("stream", [False, True], ids=["invoked", "streamed"])
@pytest.mark.parametrize("model", [GEMINI_25, GEMINI_3])
def test_a_tool_round_goes_back_to_gemini_with_each_signature_as_it_came(model, stream):
    # Gemini signs the first function call of a turn, and (Gemini 3) text and thoughts.
    sent = [
        thought("Preciso do fator e do GWP.", SIG_THOUGHT),
        text("Vou consultar.", SIG_TEXT),
        call("fator_emissao", SIG_CALL, combustivel="diesel"),
        call("gwp", gas="CH4"),
    ]
    first: Reply = response(*sent, model=model, thoughts=40)
    if stream:  # the same turn in three chunks, the signatures on their own parts
        first = [
            response(*sent[:2], finish=None, model=model, output=4, thoughts=40),
            response(sent[2], finish=None, model=model, output=8, thoughts=40),
            response(sent[3], model=model, output=12, thoughts=40),
        ]
    answer = response(text("Diesel 2,60 kg CO2e/L; CH4 27,9.\nNext agent: Nenhum"), model=model)
    chat, transport = gemini(model, [first, answer])
    reply, _ = run_agent(chat, stream=stream)

    assert reply.text == "Diesel 2,60 kg CO2e/L; CH4 27,9."
    assert len(transport.requests) == 2
    question, replayed, results = transport.requests[1]["contents"]
    assert (question.role, replayed.role, results.role) == ("user", "model", "user")
    # The signed call keeps its exact bytes; the unsigned one gets none (Gemini signs one).
    assert function_calls(replayed) == [
        ("fator_emissao", {"combustivel": "diesel"}, SIG_CALL),
        ("gwp", {"gas": "CH4"}, None),
    ]
    if model == GEMINI_3:  # its text and thought parts go back signed too
        signed = {p.text: p.thought_signature for p in replayed.parts if p.text}
        assert signed == {"Preciso do fator e do GWP.": SIG_THOUGHT, "Vou consultar.": SIG_TEXT}
    assert function_responses(results) == [("fator_emissao", "2,60 kg CO2e/L"), ("gwp", "27,9")]


def test_a_replayed_signature_is_never_replaced_by_the_validator_bypass():
    # langchain-google-genai puts "skip_thought_signature_validator" on a Gemini 3 call that
    # lost its signature: the request would pass, with the model's reasoning thrown away.
    chat, transport = gemini(
        GEMINI_3,
        [
            response(call("gwp", SIG_CALL, gas="N2O"), model=GEMINI_3),
            response(call("gwp", b"second-turn", gas="CH4"), model=GEMINI_3),
            response(text("N2O 273, CH4 27,9.\nNext agent: Nenhum"), model=GEMINI_3),
        ],
    )
    run_agent(chat, stream=False)
    last = transport.requests[2]["contents"]
    assert [function_calls(c) for c in last if c.role == "model"] == [
        [("gwp", {"gas": "N2O"}, SIG_CALL)],
        [("gwp", {"gas": "CH4"}, b"second-turn")],
    ]
    assert [function_responses(c) for c in last if c.role == "user"][1:] == [
        [("gwp", "GWP 273")],
        [("gwp", "27,9")],
    ]


# --- parallel function calls --------------------------------------------------------------


@pytest.mark.parametrize("chunks", ["invoked", "one-chunk", "chunk-each"])
@pytest.mark.parametrize("ids", [None, ("c-1", "c-2", "c-3")], ids=["no-ids", "with-ids"])
def test_parallel_function_calls_are_each_run_and_answered_in_their_order(ids, chunks):
    # The Gemini API leaves FunctionCall.id empty (langchain-google-genai makes one up);
    # Vertex AI sends ids. Either way each call gets its own answer, in the model's order.
    ids = ids or (None, None, None)
    parts = [
        call("fator_emissao", SIG_CALL, ids[0], combustivel="gasolina"),
        call("gwp", None, ids[1], gas="N2O"),
        call("fator_emissao", None, ids[2], combustivel="diesel"),
    ]
    first: Reply = response(*parts)
    if chunks == "one-chunk":
        first = [response(*parts)]
    elif chunks == "chunk-each":
        first = [
            response(parts[0], finish=None),
            response(parts[1], finish=None),
            response(parts[2]),
        ]
    answer = response(text("Gasolina 2,21; N2O 273; diesel 2,60.\nNext agent: Nenhum"))
    chat, transport = gemini(GEMINI_25, [first, answer])
    reply, events = run_agent(chat, stream=chunks != "invoked")

    called = [e for e in events if e.kind == "tool_called"]
    returned = [e for e in events if e.kind == "tool_returned"]
    assert [(e.tool, e.arguments) for e in called] == [
        ("fator_emissao", {"combustivel": "gasolina"}),
        ("gwp", {"gas": "N2O"}),
        ("fator_emissao", {"combustivel": "diesel"}),
    ]
    call_ids = [e.call_id for e in called]
    assert len(set(call_ids)) == 3 and all(call_ids)
    if ids[0] is not None:
        assert call_ids == list(ids)
    assert [e.call_id for e in returned] == call_ids
    assert [e.output for e in returned] == ["2,21 kg CO2e/L", "GWP 273", "2,60 kg CO2e/L"]
    assert [e.text for e in reply.evidence] == ["2,21 kg CO2e/L", "GWP 273", "2,60 kg CO2e/L"]
    _, replayed, results = transport.requests[1]["contents"]
    assert [name for name, _, _ in function_calls(replayed)] == [
        "fator_emissao",
        "gwp",
        "fator_emissao",
    ]
    assert function_calls(replayed)[0][2] == SIG_CALL
    assert function_responses(results) == [
        ("fator_emissao", "2,21 kg CO2e/L"),
        ("gwp", "GWP 273"),
        ("fator_emissao", "2,60 kg CO2e/L"),
    ]
    assert reply.text == "Gasolina 2,21; N2O 273; diesel 2,60."


def test_each_parallel_call_has_one_tool_message_with_its_id_in_the_next_prompt(monkeypatch):
    # The messages the model reads on the next round, as LangChain objects.
    seen: list = []
    chat, _ = gemini(
        GEMINI_25,
        [
            response(call("gwp", SIG_CALL, gas="CH4"), call("gwp", gas="N2O")),
            response(text("Feito.\nNext agent: Nenhum")),
        ],
    )
    original = ChatGoogleGenerativeAI._generate

    def spy(self, messages, *args, **kwargs):
        seen.append(list(messages))
        return original(self, messages, *args, **kwargs)

    monkeypatch.setattr(ChatGoogleGenerativeAI, "_generate", spy)
    run_agent(chat, stream=False)
    *_, asked, tool_ch4, tool_n2o = seen[1]
    assert isinstance(asked, AIMessage)
    assert [c["id"] for c in asked.tool_calls] == [tool_ch4.tool_call_id, tool_n2o.tool_call_id]
    assert (tool_ch4.text, tool_n2o.text) == ("27,9", "GWP 273")
    # The AIMessage goes back as langchain-google-genai made it, its signature map included.
    signatures = asked.additional_kwargs["__gemini_function_call_thought_signatures__"]
    assert set(signatures) == {asked.tool_calls[0]["id"]}


# --- finish reasons ----------------------------------------------------------------------

FAQ_ROUTE = response(text("Next agent: FAQ"))


def test_a_reply_cut_at_max_tokens_is_shown_flagged_as_truncated():
    cut = [
        response(text("Escopo 1 são as emissões diretas"), finish=None, output=6, thoughts=90),
        response(
            text(" da organização, como"), finish=gt.FinishReason.MAX_TOKENS, output=11, thoughts=90
        ),
    ]
    chat, _ = gemini(GEMINI_25, [FAQ_ROUTE, cut])
    Aeko.config(fast_model=chat, slow_model=chat)
    result = AekoMessenger(USER).send_message("O que é escopo 1?", AekoSession())
    assert result.truncated
    assert result.message.output == "Escopo 1 são as emissões diretas da organização, como"


@pytest.mark.parametrize("model", [GEMINI_25, GEMINI_3])
def test_a_reply_whose_thinking_used_the_whole_cap_is_a_clear_error_not_an_empty_answer(model):
    # Thinking counts against max_output_tokens: the cap can be reached before any text.
    spent = response(
        thought("Primeiro, o escopo..."),
        finish=gt.FinishReason.MAX_TOKENS,
        output=0,
        thoughts=1024,
        model=model,
    )
    chat, transport = gemini(model, [response(text("Next agent: FAQ"), model=model), spent])
    Aeko.config(fast_model=chat, slow_model=chat)
    events: list = []
    with pytest.raises(AekoModelCutOffError) as caught:
        events.extend(AekoMessenger(USER).stream("O que é escopo 1?", AekoSession()))
    error = caught.value
    assert isinstance(error, AekoModelError) and (error.agent, error.kind) == (FAQ, "cut_off")
    assert "limite de tokens de saída" in error.message("pt")
    assert "output-token limit" in error.message("en")
    # What the run spent travels with the error, the cut call and its thinking included.
    assert [(c.agent, c.output_tokens) for c in error.usage.calls][-1] == (FAQ, 1024)
    assert len(transport.requests) == 2  # not retried: the same cap would cut it again


BLOCK_NOTE = "Response blocked: dangerous content."
REFUSALS = {
    "streamed-safety": (
        [
            response(text("Para fabricar"), finish=None),
            response(text(" isso você"), finish=gt.FinishReason.SAFETY),
        ],
        "SAFETY",
    ),
    "no-text-safety": (
        response(finish=gt.FinishReason.SAFETY, output=0, finish_message=BLOCK_NOTE),
        "SAFETY",
    ),
    "prohibited": (
        response(finish=gt.FinishReason.PROHIBITED_CONTENT, output=0),
        "PROHIBITED_CONTENT",
    ),
    "blocked-prompt": (blocked_prompt(), "SAFETY"),
    "recitation": (response(text("Art. 1º"), finish=gt.FinishReason.RECITATION), "RECITATION"),
}


@pytest.mark.parametrize("case", REFUSALS, ids=list(REFUSALS))
def test_a_withheld_answer_is_a_specific_error_in_the_user_s_language(case):
    reply, reason = REFUSALS[case]
    chat, transport = gemini(GEMINI_25, [FAQ_ROUTE, reply])
    fallback = ScriptedChatModel(model_name="fallback", default="Outra resposta.")
    Aeko.config(
        fast_model=chat, slow_model=chat, fast_fallbacks=[fallback], slow_fallbacks=[fallback]
    )
    events: list = []
    with pytest.raises(AekoModelRefusedError) as caught:
        for event in AekoMessenger(USER).stream("?", AekoSession()):
            events.append(event)
    error = caught.value
    assert (error.agent, error.reason, error.model) == (FAQ, reason, GEMINI_25)
    if reason == "RECITATION":
        assert error.kind == "recitation"
        assert "palavra por palavra" in error.message("pt")
        assert "word for word" in error.message("en")
    else:
        assert error.kind == "safety"
        assert "filtros de segurança" in error.message("pt")
        assert "safety filters" in error.message("en")
    assert error.provider_message == (BLOCK_NOTE if case == "no-text-safety" else "")
    assert [c.agent for c in error.usage.calls] == [ROUTER, FAQ]  # the refused call counts
    assert not fallback.calls  # a safety filter is not routed around
    assert len(transport.requests) == 2  # nor asked again
    # Whatever streamed before the filter stopped it is taken back from the user's screen.
    shown = ""
    for delta in (e for e in events if isinstance(e, AnswerDelta)):
        shown = "" if delta.restart else shown + delta.text
    assert shown == ""


@pytest.mark.parametrize("case", REFUSALS, ids=list(REFUSALS))
def test_refusals_read_the_same_invoked_or_streamed(case):
    # The chat flow above streams; the reviewed agents invoke: both shapes must be read.
    reply, reason = REFUSALS[case]
    chunks = reply if isinstance(reply, list) else [reply]
    invoked, _ = gemini(GEMINI_25, [chunks[-1]])
    assert withheld_reason(invoked.invoke("?")) == reason
    streamed, _ = gemini(GEMINI_25, [chunks])
    whole = None
    for piece in streamed.stream("?"):
        whole = piece if whole is None else whole + piece
    assert withheld_reason(whole) == reason
    answered, _ = gemini(GEMINI_25, [FAQ_ROUTE])
    assert withheld_reason(answered.invoke("?")) is None


# --- thinking tokens in usage and cost ------------------------------------------------------

# gemini-3.5-flash's list price, USD per million tokens: input 1.50, cached input 0.15,
# output 9.00, thinking included (Google bills thinking tokens as output).
IN, CACHED, OUT = 1.50 / 1e6, 0.15 / 1e6, 9.00 / 1e6


@pytest.mark.parametrize("stream", [False, True], ids=["invoked", "streamed"])
def test_thinking_tokens_count_once_as_output_tokens_and_at_the_output_price(stream):
    # 300 visible tokens and 700 of thinking: 1,000 billed output tokens, not 300 or 1,700.
    whole: Reply = response(
        text("Resposta.\nNext agent: Nenhum"), prompt=2000, output=300, thoughts=700, model=GEMINI_3
    )
    if stream:  # cumulative counts per chunk, as Gemini streams them
        whole = [
            response(
                text("Resp"), finish=None, prompt=2000, output=100, thoughts=700, model=GEMINI_3
            ),
            response(
                text("osta.\nNext agent: Nenhum"),
                prompt=2000,
                output=300,
                thoughts=700,
                model=GEMINI_3,
            ),
        ]
    chat, _ = gemini(GEMINI_3, [whole])
    reply, _ = run_agent(chat, stream=stream)
    (accounted,) = reply.calls
    assert (accounted.model, accounted.input_tokens, accounted.output_tokens) == (
        GEMINI_3,
        2000,
        1000,
    )
    assert accounted.cost_usd == pytest.approx(2000 * IN + 1000 * OUT)  # US$ 0.012


def test_cached_prompt_tokens_are_priced_at_the_cache_rate_and_thinking_still_as_output():
    reply_ = response(
        text("Ok.\nNext agent: Nenhum"),
        prompt=2000,
        cached=1500,
        output=50,
        thoughts=450,
        model=GEMINI_3,
    )
    chat, _ = gemini(GEMINI_3, [reply_])
    reply, _ = run_agent(chat, stream=False)
    (accounted,) = reply.calls
    assert (accounted.input_tokens, accounted.output_tokens) == (2000, 500)
    assert accounted.cost_usd == pytest.approx(500 * IN + 1500 * CACHED + 500 * OUT)


def test_a_turn_s_usage_sums_each_call_s_thinking():
    chat, _ = gemini(
        GEMINI_3,
        [
            response(text("Next agent: FAQ"), prompt=900, output=5, thoughts=120, model=GEMINI_3),
            response(
                text("Escopo 1: emissões diretas.\nNext agent: Nenhum"),
                prompt=1100,
                output=40,
                thoughts=360,
                model=GEMINI_3,
            ),
        ],
    )
    Aeko.config(fast_model=chat, slow_model=chat)
    usage = AekoMessenger(USER).send_message("O que é escopo 1?", AekoSession()).usage
    assert [(c.agent, c.output_tokens) for c in usage.calls] == [(ROUTER, 125), (FAQ, 400)]
    assert usage.output_tokens == 525
    assert usage.cost_usd == pytest.approx(2000 * IN + 525 * OUT)


@pytest.mark.parametrize(
    ("metadata", "reason"),
    [
        ({"finish_reason": "content_filter"}, "CONTENT_FILTER"),  # OpenAI-compatible
        ({"stop_reason": "refusal"}, "REFUSAL"),  # Anthropic
        ({"finish_reason": "SAFETYSAFETY"}, "SAFETY"),  # repeated on aggregated chunks
        ({"finish_reason": gt.FinishReason.IMAGE_SAFETY}, "IMAGE_SAFETY"),
        ({"finish_reason": "STOP"}, None),
        ({"finish_reason": "MAX_TOKENS"}, None),  # cut, not withheld
        ({"finish_reason": "length"}, None),
        ({"prompt_feedback": {"block_reason": None}}, None),
        ({}, None),
    ],
)
def test_other_providers_refusals_are_read_too(metadata, reason):
    assert withheld_reason(AIMessage(content="x", response_metadata=metadata)) == reason
