"""Runs share only the compiled graphs: concurrent turns never mix answers, events or usage."""

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

from engine import Aeko, AekoMessenger, AekoSession, AgentFinished
from engine.agents.catalog import FAQ, ROUTER
from engine.models.scripted import ScriptedChatModel


def _echo(messages):
    question = messages[-1].text.split("Pergunta do usuário:\n", 1)[1].split("\n")[0]
    return f"Resposta para {question}\nNext agent: Nenhum"


def test_concurrent_turns_keep_their_own_answers_and_events(user):
    model = ScriptedChatModel(
        model_name="fake", script={ROUTER: ["Next agent: FAQ"], FAQ: [_echo]}, latency_s=0.01
    )
    Aeko.config(fast_model=model, slow_model=model)

    def turn(index):
        session = AekoSession(_id=f"s{index}")
        events = list(AekoMessenger(user).stream(f"pergunta {index}", session))
        return index, events, session

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(turn, range(24)))
    for index, events, session in results:
        response = events[-1].result
        assert response.message.output == f"Resposta para pergunta {index}"
        assert session.messages[0].input == f"pergunta {index}"
        faq = [e for e in events if isinstance(e, AgentFinished) and e.agent == FAQ]
        assert [e.text for e in faq] == [f"Resposta para pergunta {index}"]
        assert [c.agent for c in response.usage.calls] == [ROUTER, FAQ]


def test_every_agent_reads_todays_date_as_temporal_context(user):
    model = ScriptedChatModel(script={ROUTER: ["Next agent: FAQ"], FAQ: ["R.\nNext agent: Nenhum"]})
    Aeko.config(fast_model=model, slow_model=model)
    AekoMessenger(user).send_message("?", AekoSession())
    today = datetime.now(UTC).strftime("%d/%m/%Y")
    for call in model.calls:
        system = call.messages[0].text
        assert system.rstrip().endswith("anos-base.")
        assert "# Contexto Temporal" in system and today in system
