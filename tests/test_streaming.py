"""Unreviewed answers stream as they are written; a reply cut at the token cap is flagged.

The contract of ``AnswerDelta``: the deltas an agent emitted since its last restart add up
to exactly the text of its ``AgentFinished`` (the final answer), every intermediate sum is
a beginning of that text, and nothing from the routing marker on is ever sent.
"""

from __future__ import annotations

import re
from itertools import pairwise

import pytest
from google.genai.types import FinishReason
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage
from langchain_core.tools import tool

from application import chat
from application.outbox import Outbox
from application.safe_stream import safe_stream
from application.safe_text import sanitize
from application.workspace import Workspace
from engine import (
    Aeko,
    AekoMessenger,
    AekoSession,
    AekoTool,
    AekoUser,
    AgentFinished,
    AnswerDelta,
    ModelFellBack,
    ModelRetried,
)
from engine.agents.catalog import (
    FAQ,
    GUARDRAIL,
    ORCHESTRATOR,
    POLLUTANTS_ANALYST,
    ROUTER,
)
from engine.agents.deltas import AnswerStream
from engine.models.finish import was_truncated
from engine.models.scripted import ScriptedChatModel, Streamed
from engine.offline import OfflineAnalyst
from engine.protocol import split_marker

USER = AekoUser(id_external_user=7, role="Analista ESG")
ANSWER = "Escopo 1 são as emissões diretas da organização."
SPECIALIST = {
    ROUTER: ["Poluentes.\nNext agent: Analista de Poluentes"],
    POLLUTANTS_ANALYST: ["Diesel: 1.240 t CO2e (38%).\nNext agent: Orquestrador"],
    ORCHESTRATOR: ["O diesel é a maior fonte.\nNext agent: Guardrail de Saída"],
    GUARDRAIL: ["Aprovado."],
}


class ProviderError(Exception):
    def __init__(self, status_code: int):
        super().__init__(f"HTTP {status_code}")
        self.status_code = status_code


def configure(script: dict, **kwargs) -> ScriptedChatModel:
    model = ScriptedChatModel(model_name="fake", script=script, **kwargs)
    Aeko.config(fast_model=model, slow_model=model)
    return model


def ask(question: str = "O que é escopo 1?") -> list:
    return list(AekoMessenger(USER).stream(question, AekoSession()))


def deltas(events: list) -> list[AnswerDelta]:
    return [event for event in events if isinstance(event, AnswerDelta)]


def streamed(events: list) -> tuple[str, list[str]]:
    """What the user ends up seeing, and every state of it on the way."""
    text, states = "", []
    for delta in deltas(events):
        text = "" if delta.restart else text + delta.text
        states.append(text)
    return text, states


def finished(events: list, agent: str) -> AgentFinished:
    return next(e for e in events if isinstance(e, AgentFinished) and e.agent == agent)


# --- the engine streams what nobody reviews --------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "Qual a diferença entre escopo 1 e escopo 2?",
        "What is the difference between scope 1 and scope 2?",
    ],
)
def test_an_offline_faq_answer_streams_and_adds_up_to_the_answer(question):
    model = OfflineAnalyst()
    Aeko.config(fast_model=model, slow_model=model)
    events = ask(question)
    response = events[-1].result
    text, states = streamed(events)
    assert response.agents_called == [ROUTER, FAQ] and not response.reviewed
    assert len(deltas(events)) > 10  # word by word, not at once
    assert {delta.agent for delta in deltas(events)} == {FAQ}
    assert text == response.message.output == finished(events, FAQ).text
    assert all(text.startswith(state) for state in states)
    # The answer is complete before the agent reports it finished.
    last_delta = max(i for i, e in enumerate(events) if isinstance(e, AnswerDelta))
    assert last_delta < events.index(finished(events, FAQ))


@pytest.mark.parametrize(
    "pieces",
    [
        (f"{ANSWER}\nNe", "xt age", "nt: Nenhum"),
        (f"{ANSWER}\n**Next", " agent:** Nenh", "um**"),
        (f"{ANSWER} ", "next AGENT", ": Nenhum"),  # on the answer's own line
        (f"{ANSWER}\n", "\n", ">_Next ", "Agent_ : Nenhum."),
        (ANSWER[:10], ANSWER[10:], "\nNext agent: Nenhum"),
    ],
)
def test_the_routing_marker_never_streams_however_it_is_split(pieces):
    configure({ROUTER: ["Next agent: FAQ"], FAQ: [Streamed(*pieces)]})
    events = ask()
    text, states = streamed(events)
    assert text == ANSWER == events[-1].result.message.output
    # Each state is a beginning of the answer: no letter of the marker was ever shown.
    assert all(ANSWER.startswith(state) for state in states)


@pytest.mark.parametrize("size", range(1, 9))
def test_any_chunk_size_streams_only_beginnings_of_the_answer(size):
    reply = f"  {ANSWER}\n\n\n\nA próxima etapa é o inventário.  \nNext agent: Nenhum\n"
    configure({ROUTER: ["Next agent: FAQ"], FAQ: [reply]}, chunk_chars=size)
    events = ask()
    clean, _ = split_marker(reply)
    text, states = streamed(events)
    assert text == clean == events[-1].result.message.output
    assert all(clean.startswith(state) for state in states)


_REPLIES = st.sampled_from(
    [
        f"{ANSWER}\nNext agent: Nenhum",
        f"  {ANSWER}\n\n\n\nthe next step, then next agents.\n**Next agent:** Nenhum  ",
        f"{ANSWER}\nNext agent: FAQ\nTexto depois do marcador.",
        "Sem marcador nenhum, só texto\n\n\ncom linhas em branco.\n",
        "- next\n- agent\nnext agent sem dois-pontos\n_next agent_: Nenhum",
        "Next agent: Nenhum",
    ]
)


@settings(max_examples=300, deadline=None)
@given(reply=_REPLIES, cuts=st.lists(st.integers(min_value=0, max_value=120), max_size=12))
def test_the_answer_stream_holds_back_anything_that_may_become_the_marker(reply, cuts):
    sent: list[AnswerDelta] = []
    answer = AnswerStream(FAQ, sent.append)
    bounds = sorted({0, len(reply), *(c for c in cuts if c < len(reply))})
    for start, end in pairwise(bounds):
        answer.feed(reply[start:end])
    shown = "".join(delta.text for delta in sent)
    assert _before_marker(reply).startswith(shown)  # nothing from the marker on, while streaming
    clean, name = split_marker(reply)
    answer.finish(clean)
    restarts = [i for i, delta in enumerate(sent) if delta.restart]
    # Only a reply with no marker keeps its blank-line runs, and is then sent again whole.
    assert not restarts or (name is None and "\n\n\n" in reply.strip())
    since = sent[restarts[-1] + 1 :] if restarts else sent
    assert "".join(delta.text for delta in since) == clean  # exactly, ends included


def _before_marker(reply: str) -> str:
    marker = re.search(r"[ \t]*[*_`>\"'\-]*[ \t]*next[ \t]*agent[ \t]*[*_`]*[ \t]*:", reply, re.I)
    before = reply[: marker.start()] if marker else reply
    return re.sub(r"\n{3,}", "\n\n", before).strip()  # as split_marker leaves it


def test_reviewed_answers_stream_nothing():
    configure(SPECIALIST, chunk_chars=3)
    events = ask("Quais gases pesam mais?")
    response = events[-1].result
    assert response.reviewed and response.approved
    assert response.message.output == "O diesel é a maior fonte."
    assert deltas(events) == []


def test_a_failure_after_part_of_the_answer_restarts_it_then_streams_the_retry(monkeypatch):
    monkeypatch.setattr("engine.agents.runner._pause", lambda _delay: None)
    configure(
        {
            ROUTER: ["Next agent: FAQ"],
            FAQ: [Streamed("Escopo 1 ", "é o que", ProviderError(503)), ANSWER],
        }
    )
    events = ask()
    sent = deltas(events)
    assert [(d.text, d.restart) for d in sent] == [
        ("Escopo 1", False),
        (" é o que", False),
        ("", True),
        (ANSWER, False),
    ]
    restart = events.index(sent[2])
    assert isinstance(events[restart + 1], ModelRetried)  # the restart comes first
    assert streamed(events)[0] == events[-1].result.message.output == ANSWER


def test_a_failure_before_any_text_falls_back_without_a_restart():
    fast = ScriptedChatModel(
        model_name="fast",
        script={ROUTER: ["Next agent: FAQ"], FAQ: [Streamed("", ProviderError(401))]},
    )
    slow = ScriptedChatModel(model_name="slow", script={FAQ: [ANSWER]}, chunk_chars=4)
    Aeko.config(fast_model=fast, slow_model=slow)
    events = ask()
    assert any(isinstance(e, ModelFellBack) for e in events)
    assert not any(d.restart for d in deltas(events))
    assert streamed(events)[0] == ANSWER


def test_a_fallback_after_part_of_the_answer_restarts_it():
    fast = ScriptedChatModel(
        model_name="fast",
        script={ROUTER: ["Next agent: FAQ"], FAQ: [Streamed("Parte da ", ProviderError(401))]},
    )
    slow = ScriptedChatModel(model_name="slow", script={FAQ: [ANSWER]})
    Aeko.config(fast_model=fast, slow_model=slow)
    events = ask()
    kinds = [("restart" if e.restart else e.text) for e in deltas(events)]
    assert kinds == ["Parte da", "restart", ANSWER]
    fell = next(i for i, e in enumerate(events) if isinstance(e, ModelFellBack))
    assert events.index(deltas(events)[1]) < fell


@tool
def fator_emissao(combustivel: str) -> str:
    """Fator de emissão de um combustível."""
    return "2,6 kg CO2e/L"


def test_a_tool_round_is_taken_back_and_its_call_never_streams():
    call = AIMessage(
        content="Vou consultar o fator.",
        tool_calls=[{"name": "fator_emissao", "args": {"combustivel": "diesel"}, "id": "c1"}],
    )
    configure({ROUTER: ["Next agent: FAQ"], FAQ: [call, "2,6.\nNext agent: Nenhum"]}, chunk_chars=5)
    AekoMessenger.set_tools({FAQ: [AekoTool(tool=fator_emissao, description="Fatores.")]})
    events = ask("Fator do diesel?")
    sent = deltas(events)
    assert any(d.restart for d in sent)
    assert all("fator_emissao" not in d.text and "diesel" not in d.text for d in sent)
    assert streamed(events)[0] == events[-1].result.message.output == "2,6."


# --- a reply cut at the token cap -------------------------------------------------------

CUT = [
    {"finish_reason": "length"},  # OpenAI-compatible
    {"finish_reason": "MAX_TOKENS"},  # Gemini, as langchain-google-genai reports it
    {"finish_reason": FinishReason.MAX_TOKENS},  # Gemini's own enum
    {"stop_reason": "max_tokens"},  # Anthropic
    {"done_reason": "length"},  # Ollama
]
WHOLE = [
    {},
    {"finish_reason": "stop"},
    {"finish_reason": "STOP"},
    {"finish_reason": FinishReason.STOP},
    {"stop_reason": "end_turn"},
    {"done_reason": "stop"},
]


@pytest.mark.parametrize(
    ("metadata", "cut"), [(m, True) for m in CUT] + [(m, False) for m in WHOLE]
)
def test_was_truncated_reads_each_provider_s_finish_reason(metadata, cut):
    assert was_truncated(AIMessage(content="x", response_metadata=metadata)) is cut


@pytest.mark.parametrize(
    ("metadata", "cut"), [(m, True) for m in CUT] + [(m, False) for m in WHOLE[:3]]
)
def test_a_cut_faq_answer_is_flagged_on_its_event_and_the_response(metadata, cut):
    reply = AIMessage(content=f"{ANSWER}\nNext agent: Nenhum", response_metadata=metadata)
    configure({ROUTER: ["Next agent: FAQ"], FAQ: [reply]}, chunk_chars=7)
    events = ask()
    assert finished(events, FAQ).truncated is cut
    assert finished(events, ROUTER).truncated is False
    assert events[-1].result.truncated is cut
    assert streamed(events)[0] == ANSWER


def test_a_cut_streamed_reply_is_flagged_too():
    reply = Streamed(ANSWER[:20], ANSWER[20:], response_metadata={"finish_reason": "MAX_TOKENS"})
    configure({ROUTER: ["Next agent: FAQ"], FAQ: [reply]})
    events = ask()
    assert finished(events, FAQ).truncated and events[-1].result.truncated


@pytest.mark.parametrize("verdict", ["Aprovado.", "Reprovado: sem fonte."])
def test_a_cut_draft_reaches_the_answer_only_when_the_guardrail_approves(verdict):
    draft = AIMessage(
        content="O diesel é a maior fonte.\nNext agent: Guardrail de Saída",
        response_metadata={"finish_reason": "length"},
    )
    configure({**SPECIALIST, ORCHESTRATOR: [draft], GUARDRAIL: [verdict]})
    events = ask("Quais gases pesam mais?")
    response = events[-1].result
    assert finished(events, ORCHESTRATOR).truncated
    assert response.truncated is response.approved is (verdict == "Aprovado.")


def test_streamed_and_invoked_replies_agree():
    metadata = {"finish_reason": "length"}
    for model in (
        ScriptedChatModel(
            default=AIMessage(content=ANSWER, response_metadata=metadata), chunk_chars=3
        ),
        ScriptedChatModel(default=Streamed(ANSWER[:9], ANSWER[9:], response_metadata=metadata)),
        OfflineAnalyst(),  # no structured request: it answers its fixed text
    ):
        invoked = model.invoke("oi")
        chunks = list(model.stream("oi"))
        whole = chunks[0]
        for chunk in chunks[1:]:
            whole += chunk
        assert len(chunks) > 2
        assert whole.text == invoked.text
        assert whole.usage_metadata == invoked.usage_metadata
        assert whole.response_metadata == invoked.response_metadata


# --- the application keeps the flag -----------------------------------------------------


def test_a_cut_answer_is_stored_flagged_and_shown_flagged_again(db_store):
    user = db_store.users.get_or_create(4343, role="Analista ESG")
    workspace = Workspace(db_store, user, Outbox())
    cut = AIMessage(
        content=f"{ANSWER}\nNext agent: Nenhum", response_metadata={"finish_reason": "length"}
    )
    configure({ROUTER: ["Next agent: FAQ"], FAQ: [cut, "Completa.\nNext agent: Nenhum"]})
    first = list(chat.ask(workspace, "O que é escopo 1?", None))[-1]
    second = list(chat.ask(workspace, "E escopo 2?", first.session))[-1]
    assert first.response.truncated and not second.response.truncated
    shown = chat.transcript(workspace, chat.open_conversation(workspace, first.session.id))
    assert [turn.truncated for turn in shown.turns] == [True, False]


# --- the page's stream is sanitized as it goes ------------------------------------------

UNSAFE = (
    "Veja [o guia](https://exemplo.com/a_(b)) e ![logo](http://e.com/i.png) agora.\n"
    "Um <b>negrito</b> e <script>alert(1)</script> e <https://auto.link>\n"
    "Links soltos: http://a.b/c, www.x.org; ftp://q.r e (https://z.y) no fim  \n"
    "  dois  espaços [ref][1] e a palavra what, o h, o w\r\n"
    "[1]: http://ref.example\n"
    "Última linha [sem fim"
)
_OPENERS = re.compile(r"[\[!<(]|http|www|ftp", re.IGNORECASE)


@settings(max_examples=200, deadline=None)
@given(cuts=st.lists(st.integers(min_value=1, max_value=len(UNSAFE) - 1), max_size=40))
def test_the_page_stream_never_shows_part_of_a_link_an_image_or_a_tag(cuts):
    bounds = sorted({0, len(UNSAFE), *cuts})
    pieces = [UNSAFE[a:b] for a, b in pairwise(bounds)]
    shown = ""
    for piece in safe_stream(pieces):
        shown += piece
        *lines, current = shown.split("\n")
        for line, source in zip(lines, UNSAFE.split("\n"), strict=False):
            assert line == sanitize(source.rstrip("\r"))  # whole lines: sanitized
        if len(lines) < UNSAFE.count("\n"):  # the line still being written
            assert not _OPENERS.search(current), current
        assert "<" not in shown and "](" not in shown and "http" not in shown
    expected = "\n".join(sanitize(line.rstrip("\r")) for line in UNSAFE.split("\n"))
    assert shown == expected


def test_an_unfinished_line_keeps_back_what_may_still_become_a_link():
    pieces = ["Veja o ", "guia [aqui](ht", "tps://x.y) e h"]
    assert "".join(safe_stream(pieces, complete=False)) == "Veja o guia"
    assert "".join(safe_stream([*pieces, "oje.\n"])) == "Veja o guia aqui e hoje.\n"
    assert "".join(safe_stream(["um texto com h", "tml"], complete=False)) == "um texto com html"
