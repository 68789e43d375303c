"""Durable runs (issue #24, point 2): a run cut inside agent k, started again on the same
thread, resumes from its last finished agent; the agents before k are not called (not paid)
again, and the resumed run answers, reports and counts as the uncut run would have.

Against the real wire-protocol server (the embedded one), through the app's MongoDB saver.
"""

from __future__ import annotations

from uuid import uuid4

import pytest

from application.checkpoints import (
    CHECKPOINT_WRITES,
    CHECKPOINTS,
    build_saver,
    forget,
    saver_for,
)
from engine import (
    SESSION_HISTORY_USAGE,
    Aeko,
    AekoInventoryAnalyzer,
    AekoMessage,
    AekoMessenger,
    AekoModelError,
    AekoSession,
    RunFinished,
)
from engine.agents.catalog import (
    COORDINATOR,
    GREEN_GASES_ANALYST,
    GUARDRAIL,
    INVENTORY_ANALYST,
    ORCHESTRATOR,
    POLLUTANTS_ANALYST,
    ROUTER,
)
from engine.graph.durable import ThreadMismatchError
from engine.models.scripted import ScriptedChatModel
from engine.summary import SUMMARIZER

# The draft's figure is the user's own: the guardrail's number check backs it, one attempt.
QUESTION = "A caldeira a diesel emitiu 1240 t CO2e; ela é a maior fonte do nosso escopo 1?"
ROUTED = "Pede a maior fonte de emissões diretas.\nNext agent: Analista de Poluentes"
FINDING = (
    "Caldeira a diesel: 1240 t CO2e (escopo 1, combustão estacionária).\nNext agent: Orquestrador"
)
DRAFT = (
    "A caldeira a diesel é a maior fonte do escopo 1: 1240 t CO2e.\nNext agent: Guardrail de Saída"
)
APPROVED = "Aprovado."

INVENTORY = "| Fonte | Gás | t CO2e |\n|---|---|---|\n| Caldeira a diesel | CO2 | 1240 |"
PLAN = (
    "## Problema definido\nA caldeira a diesel emite 1240 t CO2e de escopo 1.\n\n"
    "## Método\nSubstituir parte do diesel por HVO.\n\n"
    "## Raciocínio\nO HVO retira o CO2 fóssil da parte substituída.\nNext agent: Nenhum"
)


class Cut(BaseException):
    """The process going away mid-call: nothing in the engine catches it."""


def _cut_once(reply: str, error: BaseException):
    """A reply that fails the first time it is served (the cut), then answers."""
    served = []

    def answer(_messages):
        served.append(1)
        if len(served) == 1:
            raise error
        return reply

    return answer


@pytest.fixture
def saver(db_store):
    return build_saver(db_store.client, db_store.db.name)


def _chat_models(cut_agent: str | None = None, error: BaseException | None = None):
    script = {ROUTER: [ROUTED], ORCHESTRATOR: [DRAFT], GUARDRAIL: [APPROVED]}
    slow_script = {POLLUTANTS_ANALYST: [FINDING]}
    for agents in (script, slow_script):
        if cut_agent in agents:
            agents[cut_agent] = [_cut_once(agents[cut_agent][0], error)]
    fast = ScriptedChatModel(model_name="fake-fast", script=script)
    slow = ScriptedChatModel(model_name="fake-slow", script=slow_script)
    # No fallbacks: a failed model is the end of the run, not the other tier answering.
    Aeko.config(fast_model=fast, slow_model=slow, fast_fallbacks=[], slow_fallbacks=[])
    return fast, slow


def _served(*models: ScriptedChatModel) -> dict[str, int]:
    counts: dict[str, int] = {}
    for model in models:
        for call in model.calls:
            counts[call.agent] = counts.get(call.agent, 0) + 1
    return counts


def _comparable(events) -> list[dict]:
    """The events as the page shows them; a call's wall-clock duration differs run to run."""
    return [
        event.model_dump(exclude={"duration_ms"})
        for event in events
        if not isinstance(event, RunFinished)
    ]


def _chat(user, session=None, **kwargs):
    events = list(AekoMessenger(user).stream(QUESTION, session or AekoSession(), **kwargs))
    return events, events[-1].result


def _uncut_chat(user):
    _chat_models()
    return _chat(user)


@pytest.mark.parametrize(
    ("cut_agent", "error"),
    [
        (ORCHESTRATOR, Cut()),  # the process died in the third agent
        (GUARDRAIL, RuntimeError("provider down")),  # the last agent's model failed
    ],
)
def test_a_cut_chat_turn_resumes_after_its_last_finished_agent(user, saver, cut_agent, error):
    uncut_events, uncut = _uncut_chat(user)
    fast, slow = _chat_models(cut_agent, error)
    thread = uuid4().hex
    expected = Cut if isinstance(error, Cut) else AekoModelError
    with pytest.raises(expected):
        _chat(user, checkpointer=saver, thread_id=thread)
    before_cut = _served(fast, slow)

    events, response = _chat(user, checkpointer=saver, thread_id=thread)

    order = [ROUTER, POLLUTANTS_ANALYST, ORCHESTRATOR, GUARDRAIL]
    k = order.index(cut_agent)
    again = {agent: n - before_cut.get(agent, 0) for agent, n in _served(fast, slow).items()}
    assert all(again.get(agent, 0) == 0 for agent in order[:k])  # not paid twice
    assert again[cut_agent] == 1 and all(again[agent] == 1 for agent in order[k + 1 :])
    assert response.message.output == uncut.message.output
    assert response.agents_called == uncut.agents_called == order
    assert response.approved and response.reviewed
    assert _comparable(events) == _comparable(uncut_events)
    # The usage is the whole turn's: the agents it did not call again are counted too.
    assert [call.agent for call in response.usage.calls] == order
    assert response.usage.input_tokens == uncut.usage.input_tokens


def _long_session() -> AekoSession:
    """Two turns more than the replayed window: the turn first folds them into the summary."""
    turns = [
        AekoMessage(input=f"Quanto emitiu a unidade {i}?", output=f"A unidade {i} emitiu {i} t.")
        for i in range(SESSION_HISTORY_USAGE + 2)
    ]
    return AekoSession(messages=turns)


def test_a_resumed_turn_does_not_fold_the_summary_again(user, saver):
    script_summary = "Unidades 0 e 1: 0 t e 1 t de CO2e."
    fast, _slow = _chat_models()
    fast.script[SUMMARIZER] = [script_summary]
    uncut_events, uncut = _chat(user, _long_session())
    fast, _slow = _chat_models(GUARDRAIL, Cut())
    fast.script[SUMMARIZER] = [script_summary]
    thread = uuid4().hex
    with pytest.raises(Cut):
        _chat(user, _long_session(), checkpointer=saver, thread_id=thread)
    events, response = _chat(user, _long_session(), checkpointer=saver, thread_id=thread)
    assert len(fast.calls_for(SUMMARIZER)) == 1  # paid once, by the cut run
    assert len(fast.calls_for(ROUTER)) == 1
    # The two turns past the window are folded, once, into the summary the cut run wrote.
    folded = (response.summary.text, response.summary.covered_turns)
    assert folded == (uncut.summary.text, uncut.summary.covered_turns) == (script_summary, 2)
    assert _comparable(events) == _comparable(uncut_events)
    assert [c.agent for c in response.usage.calls] == [c.agent for c in uncut.usage.calls]


def test_a_finished_turn_asked_again_on_its_thread_is_replayed_unpaid(user, saver):
    fast, slow = _chat_models()
    thread = uuid4().hex
    first_events, first = _chat(user, checkpointer=saver, thread_id=thread)
    served = len(fast.calls) + len(slow.calls)
    events, again = _chat(user, checkpointer=saver, thread_id=thread)
    assert len(fast.calls) + len(slow.calls) == served
    assert again.message.output == first.message.output
    assert _comparable(events) == _comparable(first_events)
    assert again.usage.cost_usd == first.usage.cost_usd


def test_a_thread_answers_one_question_only(user, saver):
    _chat_models()
    thread = uuid4().hex
    _chat(user, checkpointer=saver, thread_id=thread)
    with pytest.raises(ThreadMismatchError):
        list(AekoMessenger(user).stream("E o escopo 2?", AekoSession(), checkpointer=saver,
                                        thread_id=thread))  # fmt: skip


def test_the_run_is_saved_in_the_app_database_and_forgotten_on_request(user, saver, db_store):
    _chat_models()
    thread = uuid4().hex
    _chat(user, checkpointer=saver, thread_id=thread)
    # One checkpoint per superstep (LangGraph's input and start, then each of the four
    # agents): a cut loses at most the agent it happened in.
    assert db_store.db[CHECKPOINTS].count_documents({"thread_id": thread}) == 2 + 4
    assert db_store.db[CHECKPOINT_WRITES].count_documents({"thread_id": thread}) > 0
    forget(saver, thread)
    assert db_store.db[CHECKPOINTS].count_documents({"thread_id": thread}) == 0
    assert db_store.db[CHECKPOINT_WRITES].count_documents({"thread_id": thread}) == 0


def _inventory_models(cut_agent: str | None = None):
    script = {
        INVENTORY_ANALYST: ["Inventário lido: 1240 t CO2e.\nNext agent: Analista de Poluentes"],
        POLLUTANTS_ANALYST: ["CO2 fóssil domina: 100%.\nNext agent: Orquestrador"],
        GREEN_GASES_ANALYST: ["HVO no lugar do diesel.\nNext agent: FAQ"],
        COORDINATOR: [PLAN],
    }
    if cut_agent is not None:
        script[cut_agent] = [_cut_once(script[cut_agent][0], Cut())]
    slow = ScriptedChatModel(model_name="fake-slow", script=script)
    fast = ScriptedChatModel(model_name="fake-fast")
    Aeko.config(fast_model=fast, slow_model=slow, fast_fallbacks=[], slow_fallbacks=[])
    return slow


def _analyse(**kwargs):
    stream = AekoInventoryAnalyzer().stream(INVENTORY, id_external_inventory=7, **kwargs)
    events = list(stream)
    return events, events[-1].result


def _by_agent(events) -> dict[str, list[dict]]:
    """The parallel analysts' events interleave as their threads go: compared per agent."""
    grouped: dict[str, list[dict]] = {}
    for event in _comparable(events):
        grouped.setdefault(event.get("agent", ""), []).append(event)
    return grouped


def test_a_cut_analysis_resumes_at_the_coordinator_after_the_three_analysts(saver):
    _inventory_models()
    uncut_events, uncut = _analyse()
    slow = _inventory_models(cut_agent=COORDINATOR)
    thread = uuid4().hex
    with pytest.raises(Cut):
        _analyse(checkpointer=saver, thread_id=thread)
    events, plan = _analyse(checkpointer=saver, thread_id=thread)
    agents = (INVENTORY_ANALYST, POLLUTANTS_ANALYST, GREEN_GASES_ANALYST, COORDINATOR)
    served = {agent: len(slow.calls_for(agent)) for agent in agents}
    assert served == {INVENTORY_ANALYST: 1, POLLUTANTS_ANALYST: 1, GREEN_GASES_ANALYST: 1,
                      COORDINATOR: 2}  # fmt: skip
    assert (plan.defined_problem, plan.method, plan.reasoning) == (
        uncut.defined_problem,
        uncut.method,
        uncut.reasoning,
    )
    assert plan.agents_called == uncut.agents_called
    assert _by_agent(events) == _by_agent(uncut_events)
    assert sorted(c.agent for c in plan.usage.calls) == sorted(c.agent for c in uncut.usage.calls)


def test_a_cut_parallel_analyst_does_not_send_the_inventory_analyst_again(saver):
    _inventory_models()
    uncut_events, uncut = _analyse()
    slow = _inventory_models(cut_agent=GREEN_GASES_ANALYST)
    thread = uuid4().hex
    with pytest.raises(Cut):
        _analyse(checkpointer=saver, thread_id=thread)
    events, plan = _analyse(checkpointer=saver, thread_id=thread)
    assert len(slow.calls_for(INVENTORY_ANALYST)) == 1
    assert len(slow.calls_for(GREEN_GASES_ANALYST)) == 2
    assert len(slow.calls_for(COORDINATOR)) == 1
    assert plan.method == uncut.method
    assert _by_agent(events) == _by_agent(uncut_events)
    assert sorted(c.agent for c in plan.usage.calls) == sorted(c.agent for c in uncut.usage.calls)


def test_the_app_builds_one_saver_per_client_and_database(db_store):
    saver = saver_for(db_store)
    assert saver_for(db_store) is saver
    assert saver.checkpoint_collection.full_name == f"{db_store.db.name}.{CHECKPOINTS}"
    ttl = [
        index
        for index in saver.checkpoint_collection.list_indexes()
        if "expireAfterSeconds" in index
    ]
    assert [index["expireAfterSeconds"] for index in ttl] == [24 * 3600]
