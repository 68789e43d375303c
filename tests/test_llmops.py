"""LLM operations: retries, fallbacks, budgets, providers, summaries, the run log."""

import json

import pytest

from engine import (
    Aeko,
    AekoInventoryAnalyzer,
    AekoMessage,
    AekoMessenger,
    AekoNotConfiguredError,
    AekoSession,
    AekoUser,
    AgentFinished,
    RunFinished,
)
from engine.agents.catalog import (
    COORDINATOR,
    FAQ,
    GREEN_GASES_ANALYST,
    GUARDRAIL,
    INVENTORY_ANALYST,
    ORCHESTRATOR,
    POLLUTANTS_ANALYST,
    ROUTER,
)
from engine.budget import RunBudget
from engine.constants import SESSION_HISTORY_USAGE
from engine.errors import AekoBudgetExceededError, AekoModelError
from engine.events import ModelFellBack, ModelRetried, SummaryUpdated
from engine.models.scripted import ScriptedChatModel
from engine.offline import OfflineAnalyst
from engine.summary import SUMMARIZER

USER = AekoUser(id_external_user=1, role="Analista ESG")
FAQ_PATH = {ROUTER: ["Next agent: FAQ"], FAQ: ["Escopo 1: diretas.\nNext agent: Nenhum"]}
SPECIALIST_PATH = {
    ROUTER: ["Next agent: Analista de Poluentes"],
    POLLUTANTS_ANALYST: ["CO2 domina.\nNext agent: Orquestrador"],
    ORCHESTRATOR: ["CO2 domina.\nNext agent: Guardrail de Saída"],
    GUARDRAIL: ["Aprovado."],
}


class ProviderError(Exception):
    def __init__(self, status_code: int, retry_after: float | None = None):
        super().__init__(f"HTTP {status_code}")
        self.status_code = status_code
        self.retry_after = retry_after


def test_a_429_twice_then_success_is_retried_with_events(monkeypatch):
    slept = []
    monkeypatch.setattr("engine.agents.runner._pause", slept.append)
    model = ScriptedChatModel(
        model_name="primary",
        script={
            ROUTER: [ProviderError(429), ProviderError(429), "Next agent: FAQ"],
            FAQ: FAQ_PATH[FAQ],
        },
    )
    Aeko.config(fast_model=model, slow_model=model, retry_base_delay=0.2, max_retries=2)
    events = list(AekoMessenger(USER).stream("O que é escopo 1?", AekoSession()))
    retries = [e for e in events if isinstance(e, ModelRetried)]
    assert [(e.agent, e.attempt, e.reason) for e in retries] == [
        (ROUTER, 1, "ProviderError (429)"),
        (ROUTER, 2, "ProviderError (429)"),
    ]
    assert 0.2 <= slept[0] <= 0.25 and 0.4 <= slept[1] <= 0.5  # exponential, with jitter
    response = events[-1].result
    assert response.usage.calls[0].retries == 2
    router_done = next(e for e in events if isinstance(e, AgentFinished) and e.agent == ROUTER)
    assert router_done.retries == 2 and router_done.cost_usd is None  # "primary" has no price
    assert response.message.output == "Escopo 1: diretas."


def test_retry_after_from_the_provider_is_honoured(monkeypatch):
    slept = []
    monkeypatch.setattr("engine.agents.runner._pause", slept.append)
    model = ScriptedChatModel(
        model_name="primary",
        script={
            ROUTER: [ProviderError(503, retry_after=1.5), "Next agent: FAQ"],
            FAQ: FAQ_PATH[FAQ],
        },
    )
    Aeko.config(fast_model=model, slow_model=model, retry_base_delay=30)
    AekoMessenger(USER).send_message("?", AekoSession())
    assert slept == [1.5]


def test_a_failing_primary_falls_back_along_the_configured_chain(monkeypatch):
    monkeypatch.setattr("engine.agents.runner._pause", lambda s: None)
    primary = ScriptedChatModel(model_name="primary", default=ProviderError(500))
    second = ScriptedChatModel(model_name="second", default=ProviderError(401))
    third = ScriptedChatModel(model_name="third", script=FAQ_PATH)
    Aeko.config(fast_model=primary, slow_model=third, fast_fallbacks=[second, third])
    events = list(AekoMessenger(USER).stream("?", AekoSession()))
    falls = [(e.from_model, e.to_model, e.reason) for e in events if isinstance(e, ModelFellBack)]
    assert falls[:2] == [
        ("primary", "second", "ProviderError (500)"),
        ("second", "third", "ProviderError (401)"),
    ]
    response = events[-1].result
    assert {c.model for c in response.usage.calls} == {"third"}
    assert response.usage.calls[0].retries == 3 + 1  # 3 attempts on primary, 1 on second
    assert len(primary.calls_for(ROUTER)) == 3  # a 401 is not retried, a 500 is (twice)


def test_when_every_model_fails_the_error_is_clear(monkeypatch):
    monkeypatch.setattr("engine.agents.runner._pause", lambda s: None)
    down = ScriptedChatModel(model_name="down", default=ProviderError(503))
    Aeko.config(fast_model=down, slow_model=down)
    with pytest.raises(AekoModelError):
        AekoMessenger(USER).send_message("?", AekoSession())


def test_a_budget_breach_mid_run_stops_it_and_carries_what_was_spent():
    model = ScriptedChatModel(model_name="m", script=SPECIALIST_PATH)
    Aeko.config(fast_model=model, slow_model=model, max_model_calls_per_run=2)
    session = AekoSession()
    with pytest.raises(AekoBudgetExceededError) as caught:
        AekoMessenger(USER).send_message("Quais gases?", session)
    error = caught.value
    assert (error.limit, error.allowed, error.used, error.agent) == (
        "model_calls",
        2,
        3,
        ORCHESTRATOR,
    )
    assert [c.agent for c in error.usage.calls] == [ROUTER, POLLUTANTS_ANALYST]
    assert len(model.calls) == 2 and session.messages == []


def test_token_and_cost_caps_per_run():
    model = ScriptedChatModel(model_name="gemini-2.5-flash", script=SPECIALIST_PATH)
    Aeko.config(fast_model=model, slow_model=model, max_tokens_per_run=10)
    with pytest.raises(AekoBudgetExceededError) as caught:
        AekoMessenger(USER).send_message("?", AekoSession())
    assert caught.value.limit == "tokens" and len(caught.value.usage.calls) == 1
    Aeko.config(fast_model=model, slow_model=model)
    tiny = RunBudget(max_cost_usd=1e-9)  # what is left of a user's daily cap
    asked = len(model.calls)
    with pytest.raises(AekoBudgetExceededError) as caught:
        AekoMessenger(USER).send_message("?", AekoSession(), budget=tiny)
    # Any priced call could pass what is left: none is made, nothing is spent.
    assert caught.value.limit == "cost_usd" and caught.value.usage.calls == []
    assert len(model.calls) == asked


def test_the_inventory_flow_respects_the_budget_too():
    model = ScriptedChatModel(
        model_name="m",
        script={
            INVENTORY_ANALYST: ["Lido.\nNext agent: Analista de Poluentes"],
            POLLUTANTS_ANALYST: ["P.\nNext agent: Coordenador de Melhoria Contínua"],
            GREEN_GASES_ANALYST: ["G.\nNext agent: Coordenador de Melhoria Contínua"],
            COORDINATOR: ["sem títulos"],
        },
    )
    Aeko.config(fast_model=model, slow_model=model)
    stream = AekoInventoryAnalyzer().stream(
        "| a |\n|---|\n| 1 |", id_external_inventory=1, budget=RunBudget(max_model_calls=5)
    )
    with pytest.raises(AekoBudgetExceededError) as caught:
        list(stream)
    assert len(caught.value.usage.calls) == 5  # 4 agents + the first plan rewrite


def test_provider_model_ids_need_their_key_and_their_integration():
    with pytest.raises(AekoNotConfiguredError, match="provider_keys"):
        Aeko.config(fast_model="openai:gpt-4.1", slow_model=ScriptedChatModel())
    Aeko.config(
        fast_model="openai:gpt-4.1",
        slow_model=ScriptedChatModel(),
        provider_keys={"openai": "sk-test"},
    )
    with pytest.raises(AekoNotConfiguredError, match="pip install"):
        AekoMessenger(USER).send_message("?", AekoSession())
    Aeko.config(fast_model="ollama:llama3.1", slow_model=ScriptedChatModel())  # no key needed


def _conversation(turns: int) -> AekoSession:
    messages = [
        AekoMessage(
            input="Nossa meta é reduzir 30% do escopo 1 até 2030.",
            output="Anotado: meta de 30% do escopo 1 até 2030.",
        )
    ]
    messages += [
        AekoMessage(
            input=f"Pergunta genérica número {i} sobre o tema?",
            output=f"Resposta genérica número {i}.",
        )
        for i in range(1, turns)
    ]
    return AekoSession(messages=messages)


def test_thirty_turns_fold_into_a_summary_that_keeps_early_facts():
    analyst = OfflineAnalyst()
    Aeko.config(fast_model=analyst, slow_model=analyst)
    session = _conversation(30)
    events = list(AekoMessenger(USER).stream("O que é escopo 2?", session))
    update = next(e for e in events if isinstance(e, SummaryUpdated))
    response = events[-1].result
    assert update.covered_turns == response.summary.covered_turns == 30 - SESSION_HISTORY_USAGE
    assert "30%" in response.summary.text and "2030" in response.summary.text
    assert any(c.agent == SUMMARIZER for c in response.usage.calls)
    assert len(session.messages) == 31  # the turns themselves are never altered
    assert session.messages[0].input.startswith("Nossa meta")


def test_the_summary_is_reused_and_extended_not_recomputed():
    model = ScriptedChatModel(
        model_name="m",
        script={
            **FAQ_PATH,
            SUMMARIZER: [
                lambda messages: (
                    messages[-1].text.split("Resumo anterior:\n", 1)[1].split("\n", 1)[0]
                    + " + mais"
                )
            ],
        },
    )
    Aeko.config(fast_model=model, slow_model=model)
    session = _conversation(12)
    first = AekoMessenger(USER).send_message("?", session).summary
    assert first.covered_turns == 2
    second = AekoMessenger(USER).send_message("?", session, summary=first).summary
    assert second.covered_turns == 3
    assert second.text.startswith(first.text)
    request = model.calls_for(SUMMARIZER)[1].messages[-1].text
    assert "Nossa meta" not in request  # only the turn that just left the window
    third = AekoMessenger(USER).send_message("?", session, summary=second).summary
    assert len(model.calls_for(SUMMARIZER)) == 3 and third.covered_turns == 4
    router = model.calls_for(ROUTER)[-1].messages[-1].text
    assert f"Resumo da conversa anterior:\n{third.text}" in router


def test_prompts_stay_bounded_however_long_the_conversation():
    analyst = OfflineAnalyst()
    Aeko.config(fast_model=analyst, slow_model=analyst)
    sizes = []
    for turns in (30, 200):
        response = AekoMessenger(USER).send_message("O que é escopo 2?", _conversation(turns))
        sizes.append(max(c.input_tokens for c in response.usage.calls if c.agent == ROUTER))
    assert sizes[1] <= sizes[0] * 1.5


def test_the_run_log_writes_every_event_and_never_a_secret(tmp_path):
    secret = "AIza-super-secret"
    leaky = ScriptedChatModel(
        model_name="m",
        script={ROUTER: ["Next agent: FAQ"], FAQ: [f"Sua chave é {secret}.\nNext agent: Nenhum"]},
    )
    log = tmp_path / "runs.jsonl"
    Aeko.config(secret, fast_model=leaky, slow_model=leaky, run_log=log, run_log_include_text=True)
    events = list(AekoMessenger(USER).stream("?", AekoSession(), run_id="run-42"))
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert {line["run_id"] for line in lines} == {"run-42"}
    assert lines[0]["kind"] == "run_started"
    assert lines[-1]["kind"] == "run_finished"
    assert len(lines) == len(events) + 1
    assert secret not in log.read_text() and "[redacted]" in log.read_text()
    assert isinstance(events[-1], RunFinished) and events[-1].run_id == "run-42"
