import threading

import pytest
from bson import ObjectId
from langchain_core.messages import AIMessage

from engine import (
    GUARD_RAIL_MAX_RETRIES,
    MAX_MODEL_CALLS,
    SESSION_HISTORY_USAGE,
    Aeko,
    AekoMessage,
    AekoMessageResponse,
    AekoMessenger,
    AekoModelError,
    AekoNotConfiguredError,
    AekoSession,
    AgentFinished,
    AgentStarted,
    GuardrailVerdict,
    RunFinished,
)
from engine.agents.catalog import (
    FAQ,
    GREEN_GASES_ANALYST,
    GUARDRAIL,
    ORCHESTRATOR,
    POLLUTANTS_ANALYST,
    ROUTER,
)
from engine.models.scripted import ScriptedChatModel

SPECIALIST_PATH = {
    "fast": {
        ROUTER: ["Pedido de análise de poluentes.\nNext agent: Analista de Poluentes"],
        ORCHESTRATOR: [
            "O diesel é a maior fonte de emissões da frota.\nNext agent: Guardrail de Saída"
        ],
        GUARDRAIL: ["Aprovado."],
    },
    "slow": {POLLUTANTS_ANALYST: ["Diesel: 1.240 t CO2e (38%).\nNext agent: Orquestrador"]},
}


def configure(fast_script, slow_script, **kwargs):
    fast = ScriptedChatModel(model_name="fake-fast", script=fast_script, **kwargs)
    slow = ScriptedChatModel(model_name="fake-slow", script=slow_script, **kwargs)
    Aeko.config(fast_model=fast, slow_model=slow)
    return fast, slow


def test_faq_answers_directly_without_review(user, session):
    _fast, slow = configure(
        {
            ROUTER: ["Conceitual.\nNext agent: FAQ"],
            FAQ: ["Escopo 1 são emissões diretas.\nNext agent: Nenhum"],
        },
        {},
    )
    response = AekoMessenger(user).send_message("O que é escopo 1?", session)
    assert response.message.output == "Escopo 1 são emissões diretas."
    assert response.agents_called == [ROUTER, FAQ]
    assert (response.reviewed, response.approved, response.guardrail_retries) == (False, False, 0)
    assert session.messages == [response.message]
    assert slow.calls == []


def test_specialist_path_reaches_the_user_reviewed_and_accounted(user, session):
    _fast, _slow = configure(SPECIALIST_PATH["fast"], SPECIALIST_PATH["slow"])
    response = AekoMessenger(user).send_message("Quais gases pesam mais?", session)
    assert response.message.output == "O diesel é a maior fonte de emissões da frota."
    assert response.agents_called == [ROUTER, POLLUTANTS_ANALYST, ORCHESTRATOR, GUARDRAIL]
    assert response.approved and response.reviewed
    assert response.message.llm == "fake-fast, fake-slow"
    calls = response.usage.calls
    assert [call.agent for call in calls] == response.agents_called
    assert [call.model for call in calls] == ["fake-fast", "fake-slow", "fake-fast", "fake-fast"]
    assert response.message.input_tokens == sum(c.input_tokens for c in calls) > 0
    assert response.message.output_tokens == sum(c.output_tokens for c in calls) > 0
    assert response.id_session == session.id and response.id_user == session.id_user


def test_every_model_call_is_attributed_to_its_agent(user, session):
    fast, slow = configure(SPECIALIST_PATH["fast"], SPECIALIST_PATH["slow"])
    AekoMessenger(user).send_message("Quais gases pesam mais?", session)
    assert [c.agent for c in fast.calls] == [ROUTER, ORCHESTRATOR, GUARDRAIL]
    assert [c.agent for c in slow.calls] == [POLLUTANTS_ANALYST]


def test_routing_marker_reaches_neither_the_user_nor_another_agent(user, session):
    fast, _slow = configure(SPECIALIST_PATH["fast"], SPECIALIST_PATH["slow"])
    response = AekoMessenger(user).send_message("Quais gases pesam mais?", session)
    assert "Next agent" not in response.message.output
    orchestrator_prompt = fast.calls_for(ORCHESTRATOR)[0].messages[-1].text
    assert "Diesel: 1.240 t CO2e (38%)." in orchestrator_prompt
    assert "Next agent" not in orchestrator_prompt
    guardrail_prompt = fast.calls_for(GUARDRAIL)[0].messages[-1].text
    assert "O diesel é a maior fonte de emissões da frota." in guardrail_prompt
    assert "Next agent" not in guardrail_prompt


@pytest.mark.parametrize(
    "marker",
    [
        "Next agent: **Analista de Poluentes**",
        "Next agent: analista de poluentes.",
        "**Next agent:** Analista de Poluentes - para quantificar",
    ],
)
def test_routing_slips_resolve_to_the_intended_agent(user, session, marker):
    fast_script = dict(SPECIALIST_PATH["fast"], **{ROUTER: [f"Poluentes.\n{marker}"]})
    configure(fast_script, SPECIALIST_PATH["slow"])
    response = AekoMessenger(user).send_message("Quais gases pesam mais?", session)
    assert response.agents_called[1] == POLLUTANTS_ANALYST


def test_unknown_successor_takes_the_default_route_instead_of_failing(user, session):
    configure(
        {ROUTER: ["?\nNext agent: Analista Financeiro"], FAQ: ["Resposta.\nNext agent: Nenhum."]},
        {},
    )
    response = AekoMessenger(user).send_message("Oi", session)
    assert response.agents_called == [ROUTER, FAQ]
    assert response.message.output == "Resposta."


def test_two_analysts_handing_off_to_each_other_are_bounded(user, session):
    fast_script = dict(SPECIALIST_PATH["fast"])
    _fast, _slow = configure(
        fast_script,
        {
            POLLUTANTS_ANALYST: ["P.\nNext agent: Analista de Gases Verdes"],
            GREEN_GASES_ANALYST: ["G.\nNext agent: Analista de Poluentes"],
        },
    )
    response = AekoMessenger(user).send_message("Compare.", session)
    assert response.agents_called == [
        ROUTER,
        POLLUTANTS_ANALYST,
        GREEN_GASES_ANALYST,
        ORCHESTRATOR,
        GUARDRAIL,
    ]
    assert response.approved


def test_guardrail_sends_back_at_most_three_times_then_gives_no_answer(user, session):
    fast_script = dict(SPECIALIST_PATH["fast"], **{GUARDRAIL: ["Reprovado: cita um link."]})
    fast, _slow = configure(fast_script, SPECIALIST_PATH["slow"])
    events = list(AekoMessenger(user).stream("Quais gases pesam mais?", session))
    response = events[-1].result
    assert response.message.output == ""
    assert response.approved is False and response.reviewed is True
    assert response.guardrail_retries == GUARD_RAIL_MAX_RETRIES
    assert len(fast.calls_for(GUARDRAIL)) == GUARD_RAIL_MAX_RETRIES + 1
    assert session.messages == []  # a rejected turn is not appended
    assert session.updated_at is None
    verdicts = [e for e in events if isinstance(e, GuardrailVerdict)]
    assert [(v.attempt, v.approved, v.final) for v in verdicts] == [
        (1, False, False),
        (2, False, False),
        (3, False, False),
        (4, False, True),
    ]
    assert all(v.reasons == "cita um link." for v in verdicts)
    assert len(response.usage.calls) == MAX_MODEL_CALLS["chat"] - 4  # one analyst per attempt


def test_rejection_reasons_reach_the_next_attempt_and_a_tolerant_approval_ends_it(user, session):
    fast_script = dict(
        SPECIALIST_PATH["fast"],
        **{GUARDRAIL: ["Reprovado: faltou citar o conjunto de GWP.", "  **APROVADO.**"]},
    )
    fast, _ = configure(fast_script, SPECIALIST_PATH["slow"])
    response = AekoMessenger(user).send_message("Quais gases pesam mais?", session)
    assert response.approved and response.guardrail_retries == 1
    second_router_prompt = fast.calls_for(ROUTER)[1].messages[-1].text
    assert "faltou citar o conjunto de GWP." in second_router_prompt
    assert "Pontos apontados pelo Guardrail de Saída" in second_router_prompt
    assert "faltou citar" not in fast.calls_for(ROUTER)[0].messages[-1].text


def test_worst_case_chat_run_stays_within_its_documented_call_bound(user, session):
    configure(
        {
            ROUTER: ["Next agent: Analista de Poluentes"],
            ORCHESTRATOR: ["Rascunho.\nNext agent: Roteador"],
            GUARDRAIL: ["Reprovado: não."],
        },
        {
            POLLUTANTS_ANALYST: ["P.\nNext agent: Analista de Gases Verdes"],
            GREEN_GASES_ANALYST: ["G.\nNext agent: Analista de Poluentes"],
        },
    )
    response = AekoMessenger(user).send_message("?", session)
    assert len(response.usage.calls) == MAX_MODEL_CALLS["chat"] == 20


def test_history_replays_the_last_turns_oldest_first(user, session):
    fast, _ = configure(
        {ROUTER: ["Next agent: FAQ"], FAQ: ["Resposta nova.\nNext agent: Nenhum"]}, {}
    )
    session.messages = [
        AekoMessage(input=f"pergunta {i}", output=f"resposta {i}") for i in range(15)
    ]
    AekoMessenger(user).send_message("pergunta nova", session)
    prompt = fast.calls_for(FAQ)[0].messages[-1].text
    kept = range(15 - SESSION_HISTORY_USAGE, 15)
    assert "pergunta 4\n" not in prompt and "resposta 4\n" not in prompt
    positions = [prompt.index(f"Usuário: pergunta {i}\n") for i in kept]
    assert positions == sorted(positions)
    assert "Aeko: resposta 14" in prompt
    assert len(session.messages) == 16 and session.messages[-1].output == "Resposta nova."


def test_business_context_and_memories_reach_every_agent_but_identifiers_never_do(
    user, memories, session
):
    fast, slow = configure(SPECIALIST_PATH["fast"], SPECIALIST_PATH["slow"])
    memories[0].expires_at = memories[0].created_at
    AekoMessenger(user, memories).send_message("Quais gases pesam mais?", session)
    for call in fast.calls + slow.calls:
        prompt = "\n".join(message.text for message in call.messages)
        if call.agent != GUARDRAIL:
            assert "Cargo do usuário: Analista ESG" in prompt
            assert f"Caso de uso: {user.usecase}" in prompt
            assert "Memórias do usuário:\n- idioma: Prefere respostas em português" in prompt
        for identifier in (user.id, session.id, memories[0].id, "1001", "expires_at"):
            assert identifier not in prompt


def test_no_memories_means_no_empty_section(user, session):
    fast, _ = configure({ROUTER: ["Next agent: FAQ"], FAQ: ["R.\nNext agent: Nenhum"]}, {})
    AekoMessenger(user).send_message("?", session)
    assert "Memórias do usuário" not in fast.calls_for(FAQ)[0].messages[-1].text


def test_session_is_updated_in_place_with_the_reference_timestamps(user, session):
    configure({ROUTER: ["Next agent: FAQ"], FAQ: ["R.\nNext agent: Nenhum"]}, {})
    assert session.created_at is None
    response = AekoMessenger(user).send_message("?", session)
    assert session.messages[-1] is response.message
    assert session.updated_at == response.message.submitted_at
    assert response.message.submitted_at.tzinfo is not None
    assert session.created_at is None  # never invented for a document the engine received


def test_object_ids_from_the_database_are_accepted(user):
    configure({ROUTER: ["Next agent: FAQ"], FAQ: ["R.\nNext agent: Nenhum"]}, {})
    oid = ObjectId()
    session = AekoSession.model_validate({"_id": oid, "id_user": oid, "messages": []})
    response = AekoMessenger(user).send_message("?", session)
    assert response.id_session == str(oid)


def test_stream_yields_typed_events_live_and_ends_with_the_blocking_result(user, session):
    configure(SPECIALIST_PATH["fast"], SPECIALIST_PATH["slow"])
    events = list(AekoMessenger(user).stream("Quais gases pesam mais?", session))
    kinds = [(type(e).__name__, getattr(e, "agent", None)) for e in events]
    assert kinds == [
        ("AgentStarted", ROUTER),
        ("AgentFinished", ROUTER),
        ("AgentStarted", POLLUTANTS_ANALYST),
        ("AgentFinished", POLLUTANTS_ANALYST),
        ("AgentStarted", ORCHESTRATOR),
        ("AgentFinished", ORCHESTRATOR),
        ("AgentStarted", GUARDRAIL),
        ("AgentFinished", GUARDRAIL),
        ("GuardrailVerdict", None),
        ("RunFinished", None),
    ]
    finished = [e for e in events if isinstance(e, AgentFinished)]
    assert finished[0].next_agent == POLLUTANTS_ANALYST
    assert finished[1].text == "Diesel: 1.240 t CO2e (38%)."
    assert finished[1].model == "fake-slow" and finished[1].input_tokens > 0
    assert finished[1].duration_ms >= 0
    assert isinstance(events[-1].result, AekoMessageResponse)
    assert all(isinstance(e, AgentStarted) for e in events[0:1])


def test_events_arrive_while_the_run_is_still_going(user, session):
    release = threading.Event()

    def slow_orchestrator(messages):
        assert release.wait(timeout=30), "the consumer never saw the earlier events"
        return "Final.\nNext agent: Guardrail de Saída"

    fast_script = dict(SPECIALIST_PATH["fast"], **{ORCHESTRATOR: [slow_orchestrator]})
    configure(fast_script, SPECIALIST_PATH["slow"])
    stream = AekoMessenger(user).stream("Quais gases pesam mais?", session)
    seen = []
    for event in stream:
        seen.append(event)
        if isinstance(event, AgentStarted) and event.agent == ORCHESTRATOR:
            release.set()  # the orchestrator is blocked until we got here
    assert isinstance(seen[-1], RunFinished)
    assert seen[-1].result.message.output == "Final."


def test_primary_failure_falls_back_to_the_other_tier_and_records_who_answered(user, session):
    fast_script = {
        ROUTER: [TimeoutError("provider timed out")],
        FAQ: ["R.\nNext agent: Nenhum"],
    }
    slow_script = {ROUTER: ["Next agent: FAQ"]}
    configure(fast_script, slow_script)
    response = AekoMessenger(user).send_message("?", session)
    assert response.usage.calls[0].agent == ROUTER
    assert response.usage.calls[0].model == "fake-slow"
    assert response.message.output == "R."


def test_both_tiers_failing_raises_a_clear_engine_error(user, session):
    configure({ROUTER: [RuntimeError("503")]}, {ROUTER: [RuntimeError("503")]})
    with pytest.raises(AekoModelError) as caught:
        AekoMessenger(user).send_message("?", session)
    assert caught.value.agent == ROUTER
    assert session.messages == []


def test_messenger_before_config_raises_not_configured(user, session):
    with pytest.raises(AekoNotConfiguredError):
        AekoMessenger(user).send_message("?", session)


def test_content_blocks_are_read_as_text(user, session):
    blocks = AIMessage(
        content=[
            {"type": "text", "text": "Escopo 2 é energia comprada."},
            {"type": "text", "text": "\nNext agent: Nenhum"},
        ]
    )
    configure({ROUTER: ["Next agent: FAQ"], FAQ: [blocks]}, {})
    response = AekoMessenger(user).send_message("?", session)
    assert response.message.output == "Escopo 2 é energia comprada."
