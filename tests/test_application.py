"""The use cases, without Streamlit: a real embedded database and scripted models."""

import subprocess
import sys

import pytest

from application import chat, history, inventories
from application.chat import TurnEnded, TurnStarted
from application.inventories import PlanEnded
from application.outbox import Outbox
from application.workspace import DailyCapReachedError, Workspace
from engine import Aeko, AekoBudgetExceededError, AekoImprovementPlan, AgentStarted, RunFinished
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
from engine.gases.gwp import DEFAULT_CH4_ORIGIN
from engine.inventory import DEFAULT_GWP_SET
from engine.models.scripted import ScriptedChatModel
from store import StoreConfig, connect

SPECIALIST = {
    ROUTER: ["Poluentes.\nNext agent: Analista de Poluentes"],
    POLLUTANTS_ANALYST: ["Diesel: 1.240 t CO2e (38%).\nNext agent: Orquestrador"],
    ORCHESTRATOR: [
        "O diesel é a maior fonte de emissões da frota.\nNext agent: Guardrail de Saída"
    ],
    GUARDRAIL: ["Aprovado."],
}
PLAN = (
    "## Problema definido\nA caldeira a diesel emite 1.240 t CO2e.\n\n"
    "## Método\nSubstituir parte do diesel por HVO.\n\n"
    "## Raciocínio\nO HVO é renovável.\nNext agent: Nenhum"
)
CONCEPT = {ROUTER: ["Conceito.\nNext agent: FAQ"], FAQ: ["Emissões diretas.\nNext agent: Nenhum"]}
INVENTORY_CSV = "Fonte,Gás,t CO2e\nCaldeira a diesel,CO2,1240\nFrota,CO2,310\n".encode()


def scripted(script: dict, name: str = "fake") -> ScriptedChatModel:
    model = ScriptedChatModel(model_name=name, script=script)
    Aeko.config(fast_model=model, slow_model=model)
    return model


@pytest.fixture
def workspace(db_store) -> Workspace:
    user = db_store.users.get_or_create(4242, role="Analista ESG")
    return Workspace(db_store, user, Outbox())


def run(items) -> list:
    return list(items)


def test_a_turn_is_pending_while_it_runs_then_answered_with_its_usage_and_meta(workspace):
    seen_pending = []

    def approve(_messages):
        # While the engine runs, the question is already in the database as pending.
        sessions = workspace.store.sessions(workspace.user.id)
        seen_pending.extend(p.input for s in sessions.list() for p in sessions.pending_turns(s.id))
        return "Aprovado."

    scripted({**SPECIALIST, GUARDRAIL: [approve]})
    items = run(chat.ask(workspace, "Quanto emite o diesel da minha frota?", None))

    started, ended = items[0], items[-1]
    assert isinstance(started, TurnStarted) and isinstance(ended, TurnEnded)
    assert any(isinstance(item, AgentStarted) for item in items[1:-1])
    assert isinstance(items[-2], RunFinished)
    assert seen_pending == ["Quanto emite o diesel da minha frota?"]
    assert ended.status == "answered" and ended.saved and ended.turn_index == 0

    stored = chat.open_conversation(workspace, started.session.id)
    assert stored.name == "Quanto emite o diesel da minha frota?"
    assert [m.output for m in stored.messages] == ["O diesel é a maior fonte de emissões da frota."]
    shown = chat.transcript(workspace, stored)
    assert shown.pending == [] and shown.rejected == [] and shown.waiting == []
    assert shown.cost.runs == 1
    assert shown.cost.input_tokens == ended.response.usage.input_tokens
    assert shown.turns[0].cost_usd == ended.response.usage.cost_usd


def test_the_next_turn_goes_to_the_same_conversation_and_feedback_is_kept(workspace):
    scripted(CONCEPT)
    first = run(chat.ask(workspace, "O que é escopo 1?", None))[-1]
    second = run(chat.ask(workspace, "E escopo 2?", first.session))[-1]
    assert second.session.id == first.session.id and second.turn_index == 1

    submitted_at = second.response.message.submitted_at
    assert chat.record_feedback(workspace, first.session.id, submitted_at, 1)
    shown = chat.transcript(workspace, chat.open_conversation(workspace, first.session.id))
    assert [t.feedback for t in shown.turns] == [None, 1]


def test_a_rejected_turn_keeps_the_reasons_and_adds_no_message(workspace):
    scripted({**SPECIALIST, GUARDRAIL: ["Reprovado: número sem fonte."]})
    ended = run(chat.ask(workspace, "Quanto emite o diesel?", None))[-1]
    assert ended.status == "rejected" and ended.saved
    assert ended.reasons == "número sem fonte."
    shown = chat.transcript(workspace, chat.open_conversation(workspace, ended.session.id))
    assert shown.turns == []
    assert [(r.input, r.reasons) for r in shown.rejected] == [
        ("Quanto emite o diesel?", "número sem fonte.")
    ]


def test_a_model_that_fails_ends_the_turn_and_the_question_stays_pending(workspace):
    scripted({ROUTER: [RuntimeError("provider down")]})
    items = run(chat.ask(workspace, "Pergunta que falha", None))
    ended = items[-1]
    assert ended.status == "model_unavailable"
    assert not any(isinstance(item, RunFinished) for item in items)
    shown = chat.transcript(workspace, chat.open_conversation(workspace, ended.session.id))
    assert [p.input for p in shown.pending] == ["Pergunta que falha"]


def test_the_daily_cap_refuses_before_anything_is_created_or_spent(workspace):
    model = scripted(SPECIALIST)
    capped = Workspace(workspace.store, workspace.user, workspace.outbox, daily_cost_cap_usd=0.0)
    with pytest.raises(DailyCapReachedError) as raised:
        next(chat.ask(capped, "Pergunta", None))
    assert "US$ 0.00" in raised.value.message("en")
    assert history.recent_conversations(capped) == []
    assert model.calls == []


def test_a_run_stopped_by_its_budget_records_what_it_spent(workspace, monkeypatch):
    model = ScriptedChatModel(model_name="gemini-2.5-flash", script=SPECIALIST)
    # One call allowed: the run stops before its second, with the first one spent. (A cost
    # cap stops a run before any call whose worst case would pass it: tests/test_budget_*.)
    Aeko.config(fast_model=model, slow_model=model, max_model_calls_per_run=1)
    ended = run(chat.ask(workspace, "Quanto emite o diesel?", None))[-1]
    assert ended.status == "budget_exceeded"
    assert isinstance(ended.error, AekoBudgetExceededError)
    totals = workspace.store.usage(workspace.user.id).totals(session_id=ended.session.id)
    assert totals.runs == 1 and totals.input_tokens == ended.error.usage.input_tokens > 0


def test_an_answer_given_while_the_database_died_waits_and_is_written_once_back(tmp_path):
    store = connect(StoreConfig(data_dir=tmp_path), timeout_ms=1_000)
    user = store.users.get_or_create(9)
    workspace = Workspace(store, user, Outbox())

    def approve_then_lose_the_database(_messages):
        store.server.stop()
        return "Aprovado."

    scripted({**SPECIALIST, GUARDRAIL: [approve_then_lose_the_database]})
    ended = run(chat.ask(workspace, "Pergunta com o banco caindo", None))[-1]
    assert ended.status == "answered" and not ended.saved
    assert [w.kind for w in workspace.outbox.queued][-1] == "complete_turn"
    store.client.close()

    back = connect(StoreConfig(data_dir=tmp_path), timeout_ms=5_000)
    try:
        revived = Workspace(back, user, workspace.outbox)
        waiting = chat.transcript(revived, ended.session).waiting
        assert [m.output for m in waiting] == ["O diesel é a maior fonte de emissões da frota."]
        queued = len(workspace.outbox.queued)
        assert workspace.outbox.flush(back) == queued
        stored = chat.open_conversation(revived, ended.session.id)
        assert [m.input for m in stored.messages] == ["Pergunta com o banco caindo"]
        assert chat.transcript(revived, stored).pending == []
        assert workspace.outbox.queued == []
    finally:
        back.close()


def _inventory():
    return inventories.load(
        "frota.csv", INVENTORY_CSV, gwp_set=DEFAULT_GWP_SET, ch4_origin=DEFAULT_CH4_ORIGIN
    )


def _plan_script(coordinator):
    return {
        INVENTORY_ANALYST: ["Inventário lido.\nNext agent: Analista de Poluentes"],
        POLLUTANTS_ANALYST: ["CO2 domina.\nNext agent: Orquestrador"],
        GREEN_GASES_ANALYST: ["HVO no lugar do diesel.\nNext agent: FAQ"],
        COORDINATOR: coordinator,
    }


def test_an_analysis_saves_the_upload_the_plan_and_the_usage(workspace):
    inventory = _inventory()
    assert inventory.total_tco2e == pytest.approx(1550)
    scripted(_plan_script([PLAN]))
    items = run(inventories.analyse(workspace, "frota.csv", INVENTORY_CSV, inventory))
    ended = items[-1]
    assert isinstance(ended, PlanEnded) and ended.status == "planned" and ended.saved
    assert ended.plan.method == "Substituir parte do diesel por HVO."

    record = workspace.store.inventories(workspace.user.id).get(ended.record.id)
    assert record.summary["total_tco2e"] == pytest.approx(1550)
    assert workspace.store.inventories(workspace.user.id).file(record.id) == INVENTORY_CSV
    saved = inventories.previous_plans(workspace)
    assert [p.id_external_inventory for p in saved] == [record.number]
    usage = workspace.store.usage(workspace.user.id).totals()
    assert usage.runs == 1 and usage.input_tokens == ended.plan.usage.input_tokens


def test_a_previous_plan_reaches_the_agents_as_context(workspace):
    model = scripted(_plan_script([PLAN]))
    previous = AekoImprovementPlan(
        id_external_inventory=1,
        defined_problem="Caldeira antiga",
        method="Trocar o queimador",
        reasoning="Eficiência",
    )
    inventory = _inventory()
    run(inventories.analyse(workspace, "frota.csv", INVENTORY_CSV, inventory, previous=previous))
    prompt = "\n".join(m.text for m in model.calls_for(COORDINATOR)[0].messages)
    assert "Trocar o queimador" in prompt


def test_a_plan_that_never_takes_shape_is_reported_and_nothing_is_saved_as_plan(workspace):
    scripted(_plan_script(["Sem títulos.\nNext agent: Nenhum"]))
    ended = run(inventories.analyse(workspace, "frota.csv", INVENTORY_CSV, _inventory()))[-1]
    assert ended.status == "malformed" and ended.plan is None
    assert ended.record is not None  # the upload itself is kept
    assert inventories.previous_plans(workspace) == []


def test_history_searches_without_accents_or_case_and_deletes(workspace):
    scripted(CONCEPT)
    kept = run(chat.ask(workspace, "Como reduzir emissões da caldeira?", None))[-1].session
    other = run(chat.ask(workspace, "O que é escopo 3?", None))[-1].session
    found = history.find_conversations(workspace, "CALDEIRA")
    assert [s.id for s in found] == [kept.id]
    assert len(history.find_conversations(workspace, "")) == 2

    assert history.rename_conversation(workspace, other.id, "  Escopo   três  ")
    assert [s.name for s in history.find_conversations(workspace, "escopo tres")] == ["Escopo três"]
    assert history.delete_conversation(workspace, other.id)
    assert [s.id for s in history.recent_conversations(workspace)] == [kept.id]


def test_history_finds_plans_by_their_text(workspace):
    scripted(_plan_script([PLAN]))
    ended = run(inventories.analyse(workspace, "frota.csv", INVENTORY_CSV, _inventory()))[-1]
    found = history.find_plans(workspace, "renovavel")
    assert [p.id_external_inventory for p in found] == [ended.record.number]
    assert history.find_plans(workspace, "carvão") == []
    assert history.delete_plan(workspace, found[0].id)
    assert history.find_plans(workspace) == []


def test_the_application_layer_runs_without_streamlit():
    code = (
        "import sys, application.chat, application.inventories, application.history, "
        "application.exports; print('streamlit' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


OWN_FACTORS = (
    "key,gas,value,unit,region,valid_from,valid_to,document,table,year,url,note\n"
    "diesel_road,CO2,3.0,kg/L,BR,,,Ferramenta GHG Protocol,Combustão móvel,2025,,\n"
).encode()
DIESEL_CSV = "Fonte,Combustível,Consumo (L),Ano\nCaminhões,Óleo diesel,1000,2024\n".encode()


def test_the_user_s_factors_compute_the_inventory_and_are_stored_with_it(workspace):
    own = ("ciclo2025.csv", OWN_FACTORS)
    mine = inventories.load("frota.csv", DIESEL_CSV, gwp_set="AR5", ch4_origin="general",
                            factors=own)  # fmt: skip
    library = inventories.load("frota.csv", DIESEL_CSV, gwp_set="AR5", ch4_origin="general")
    co2 = mine.table[mine.table["gas"] == "CO2"]["emissions_tco2e"].sum()
    assert co2 == pytest.approx(1000 * 3.0 / 1000)  # 1,000 L × 3.0 kg/L, the user's factor
    assert mine.total_tco2e != pytest.approx(library.total_tco2e)
    assert mine.factors_used["user"].any() and not library.factors_used["user"].any()

    scripted(_plan_script([PLAN]))
    ended = run(inventories.analyse(workspace, "frota.csv", DIESEL_CSV, mine, factors=own))[-1]
    repository = workspace.store.inventories(workspace.user.id)
    assert ended.record.factors_filename == "ciclo2025.csv"
    assert repository.factors_file(ended.record.id) == OWN_FACTORS
    # The same file without the user's factors is another computation: another record.
    plain = run(inventories.analyse(workspace, "frota.csv", DIESEL_CSV, library))[-1]
    assert plain.record.id != ended.record.id and repository.factors_file(plain.record.id) is None


def test_calculator_rows_join_the_inventory_under_their_own_sheet():
    rows = [{"activity": "refrigerant:R-410A", "quantity": 10, "unit": "kg", "period": "2024"}]
    base = inventories.load("frota.csv", DIESEL_CSV, gwp_set="AR5", ch4_origin="general")
    joined = inventories.load("frota.csv", DIESEL_CSV, gwp_set="AR5", ch4_origin="general",
                              added=rows)  # fmt: skip
    leak = 10 * (0.5 * 677 + 0.5 * 3_170) / 1_000  # R-410A: half HFC-32, half HFC-125 (AR5)
    assert joined.total_tco2e == pytest.approx(base.total_tco2e + leak)
    assert joined.sheets[-1] == "Calculadora"
    assert set(joined.table["sheet"]) == {*base.table["sheet"], "Calculadora"}


def test_the_agents_calculator_uses_the_inventory_s_own_factors(workspace):
    from langchain_core.messages import AIMessage

    from engine import ToolReturned

    own = ("ciclo2025.csv", OWN_FACTORS)
    mine = inventories.load("frota.csv", DIESEL_CSV, gwp_set="AR5", ch4_origin="general",
                            factors=own)  # fmt: skip
    call = {"name": "calcular_emissoes", "id": "c1",
            "args": {"atividade": "diesel_road", "quantidade": 100, "unidade": "L",
                     "data_ou_ano": 2024}}  # fmt: skip
    script = _plan_script([PLAN])
    script[POLLUTANTS_ANALYST] = [AIMessage(content="", tool_calls=[call]), "CO2 domina."]
    scripted(script)
    items = run(inventories.analyse(workspace, "frota.csv", DIESEL_CSV, mine, factors=own))
    returned = [i for i in items if isinstance(i, ToolReturned)]
    assert returned and "Ferramenta GHG Protocol" in returned[0].output  # the user's source
    assert "0,3 t" in returned[0].output or "300 kg" in returned[0].output  # 100 L × 3 kg/L


def test_a_plan_keeps_its_computed_actions_beside_it_and_its_scenarios(workspace):
    from application import scenarios
    from application.planning import TargetChoice, plan_inputs
    from engine.actions.scenario import Scenario

    inventory = _inventory()
    planning = plan_inputs(inventory, TargetChoice(base_year=2024, percent=30.0, year=2030))
    scripted(_plan_script([PLAN]))
    ended = run(
        inventories.analyse(workspace, "frota.csv", INVENTORY_CSV, inventory, planning=planning)
    )[-1]
    assert ended.status == "planned", ended
    computed = ended.plan.actions
    assert computed is not None and computed.target is not None and computed.target.percent == 30
    # The reference document keeps exactly its fields; the actions live in their own.
    stored_plan = workspace.store.db["improvement_plan"].find_one({"run_id": ended.run_id})
    assert "actions" not in stored_plan
    repository = workspace.store.plan_actions(workspace.user.id)
    assert repository.of_run(ended.run_id) == computed
    plans = workspace.store.plans(workspace.user.id).list()
    assert repository.for_plans([plans[0].id]) == {plans[0].id: computed}

    chosen = tuple(action.id for action in computed.actions[:1])
    assert scenarios.save(workspace, ended.run_id, "só a primeira", Scenario(selected=chosen))
    assert scenarios.save(workspace, ended.run_id, "só a primeira", Scenario(selected=()))
    saved = scenarios.saved(workspace, ended.run_id)
    assert [entry["name"] for entry in saved] == ["só a primeira"]  # a name holds one
    assert Scenario.model_validate(saved[0]["scenario"]).selected == ()


def test_a_plan_that_invents_a_number_is_rewritten_once_then_kept_with_it_marked(workspace):
    invented = PLAN.replace("Substituir parte do diesel", "Substituir 37% do diesel")
    scripted(_plan_script([invented]))
    items = run(inventories.analyse(workspace, "frota.csv", INVENTORY_CSV, _inventory()))
    rewrites = [item for item in items if getattr(item, "kind", "") == "plan_rewrite_requested"]
    assert [r.unbacked for r in rewrites] == [("37",)]  # one rewrite, naming the figure
    ended = items[-1]
    assert ended.status == "planned", ended
    assert ended.plan.unverified_numbers == ["37"]
    stored = workspace.store.db["improvement_plan"].find_one({"run_id": ended.run_id})
    assert stored["unverified_numbers"] == ["37"]  # the mark survives a reload


def test_a_faithful_plan_quoting_the_computed_figures_passes(workspace):
    from engine.formatting import number

    inventory = _inventory()

    def quoting(messages):
        # The coordinator quotes the inventory total and the first action's low reduction.
        text = messages[-1].text
        assert "Ações calculadas pelo motor" in text
        return PLAN.replace("Substituir parte do diesel por HVO.", f"Total {number(1550)}.")

    scripted(_plan_script([quoting]))
    ended = run(inventories.analyse(workspace, "frota.csv", INVENTORY_CSV, inventory))[-1]
    assert ended.status == "planned", ended


# --- Every run records its usage, whatever ends it; the daily cap survives an outage ---


def _usage_doc(workspace, run_id):
    return workspace.store.db.usage.find_one({"run_id": run_id})


def test_a_turn_whose_model_fails_records_what_it_spent(workspace):
    scripted({ROUTER: ["Conceito.\nNext agent: FAQ"], FAQ: [RuntimeError("provider down")]})
    ended = run(chat.ask(workspace, "Pergunta que falha no meio", None))[-1]
    assert ended.status == "model_unavailable"
    stored = _usage_doc(workspace, ended.run_id)
    assert stored["outcome"] == "model_unavailable"
    assert [call["agent"] for call in stored["calls"]] == [ROUTER]
    assert stored["input_tokens"] == ended.error.usage.input_tokens > 0


class _RerunLike(BaseException):
    """What Streamlit's RerunException/StopException are: BaseExceptions, not Exceptions."""


@pytest.mark.parametrize("stop", ["close", "rerun"])
def test_an_interrupted_turn_records_what_it_spent_so_far(workspace, stop):
    from engine import AgentFinished

    scripted(SPECIALIST)
    turn = chat.ask(workspace, "Pergunta interrompida", None)
    started = next(turn)
    for item in turn:
        if isinstance(item, AgentFinished):  # the router has answered: then the user leaves
            break
    if stop == "close":
        turn.close()
    else:
        with pytest.raises(_RerunLike):
            turn.throw(_RerunLike())
    stored = _usage_doc(workspace, started.run_id)
    assert stored["outcome"] == "interrupted"
    assert [call["agent"] for call in stored["calls"]] == [ROUTER]


def test_every_outcome_is_recorded_once(workspace):
    scripted(CONCEPT)
    ended = run(chat.ask(workspace, "O que é escopo 1?", None))[-1]
    assert ended.status == "answered"
    assert workspace.store.db.usage.count_documents({"run_id": ended.run_id}) == 1
    assert _usage_doc(workspace, ended.run_id)["outcome"] == "answered"


def test_an_analysis_that_fails_records_its_usage_with_the_outcome(workspace):
    scripted(_plan_script(["Sem títulos.\nNext agent: Nenhum"]))
    malformed = run(inventories.analyse(workspace, "frota.csv", INVENTORY_CSV, _inventory()))[-1]
    assert malformed.status == "malformed"
    stored = _usage_doc(workspace, malformed.run_id)
    assert stored["outcome"] == "malformed" and stored["input_tokens"] > 0
    assert stored["id_external_inventory"] == malformed.record.number

    scripted({**_plan_script([PLAN]), COORDINATOR: [RuntimeError("down")]})
    failed = run(inventories.analyse(workspace, "frota.csv", INVENTORY_CSV, _inventory()))[-1]
    assert failed.status == "model_unavailable"
    stored = _usage_doc(workspace, failed.run_id)
    assert stored["outcome"] == "model_unavailable" and COORDINATOR not in {
        call["agent"] for call in stored["calls"]
    }
    assert len(stored["calls"]) >= 3  # the analysts before the coordinator failed


def test_an_unpriced_run_is_stored_unknown_and_counted_at_the_estimate(workspace):
    scripted(CONCEPT, name="a-model-nobody-prices")
    ended = run(chat.ask(workspace, "O que é escopo 1?", None))[-1]
    stored = _usage_doc(workspace, ended.run_id)
    assert stored["cost_usd"] is None and stored["cost_estimated"] is True
    assert stored["cap_cost_usd"] > 0
    totals = workspace.store.usage(workspace.user.id).totals_today()
    assert totals.cost_usd == 0 and totals.estimated
    assert totals.cap_cost_usd == pytest.approx(stored["cap_cost_usd"])
    # A cap smaller than the estimate is reached: unknown is never free.
    capped = Workspace(workspace.store, workspace.user, workspace.outbox, totals.cap_cost_usd)
    with pytest.raises(DailyCapReachedError):
        capped.run_budget("the-next-run")


class _DownStore:
    """The store, with today's spending unreachable (what a database outage looks like)."""

    def __init__(self, store):
        self._store = store

    def __getattr__(self, name):
        return getattr(self._store, name)

    def spending(self, user_id):
        from store import StoreUnavailableError

        raise StoreUnavailableError("down")


def test_the_daily_cap_keeps_the_last_known_spending_and_the_outbox_while_the_db_is_down(
    workspace,
):
    from application.outbox import Write
    from application.workspace import SPENT, DailyCapUnverifiedError
    from engine.dto import AekoModelCall, AekoUsage

    SPENT.clear()
    # A run may reserve the whole remainder here, so each budget is what is left.
    down = Workspace(_DownStore(workspace.store), workspace.user, workspace.outbox, 1.0, 1.0)
    with pytest.raises(DailyCapUnverifiedError) as never_read:  # never read: not 0
        down.run_budget("run-a")
    assert isinstance(never_read.value, DailyCapReachedError)

    priced = AekoUsage(calls=[AekoModelCall(agent=FAQ, model="x", input_tokens=1, cost_usd=0.4)])
    workspace.store.usage(workspace.user.id).record("r-1", "chat", priced, outcome="answered")
    up = Workspace(workspace.store, workspace.user, workspace.outbox, 1.0, 1.0)
    assert up.run_budget("run-b").max_cost_usd == pytest.approx(0.6)  # read, and remembered
    up.release("run-b")  # it never ran

    assert down.run_budget("run-c").max_cost_usd == pytest.approx(0.6)  # the last known value
    down.release("run-c")
    waiting = Write.usage(workspace.user.id, "r-2", "chat", priced, outcome="answered")
    workspace.outbox.journal.append(waiting)  # journalled, not yet in the database
    assert down.run_budget("run-d").max_cost_usd == pytest.approx(0.2)  # plus what waits
    down.release("run-d")
    more = Write.usage(workspace.user.id, "r-3", "chat", priced, outcome="answered")
    workspace.outbox.journal.append(more)
    with pytest.raises(DailyCapReachedError):
        down.run_budget("run-e")
    for write in (waiting, more):
        workspace.outbox.journal.done(write)
    SPENT.clear()


# INVENTORY_CSV's two lines under a Total row that says 1600 where they add to 1240 + 310 =
# 1550: the sheet does not reconcile.
CONFLICT_CSV = INVENTORY_CSV + b"Total,,1600\n"
# Per-gas columns and a total, no unit anywhere: 2000 + 28·50 + 265·10 = 6050 (AR5).
AMBIGUOUS_CSV = b"Fonte,CO2,CH4,N2O,Total CO2e\nCaldeira,2000,50,10,6050\n"


def test_the_unit_the_user_chose_is_read_and_stored_with_the_inventory(workspace):
    chosen = {"amb.csv": "kg"}
    as_read = inventories.load("amb.csv", AMBIGUOUS_CSV, gwp_set="AR5", ch4_origin="general")
    in_kg = inventories.load("amb.csv", AMBIGUOUS_CSV, gwp_set="AR5", ch4_origin="general",
                             units=chosen)  # fmt: skip
    assert as_read.status == "ambiguous" and as_read.total_tco2e == pytest.approx(6050)
    assert in_kg.total_tco2e == pytest.approx(6.05)  # 6050 kg = 6.05 t

    scripted(_plan_script([PLAN]))
    ended = run(inventories.analyse(workspace, "amb.csv", AMBIGUOUS_CSV, in_kg, units=chosen))[-1]
    repository = workspace.store.inventories(workspace.user.id)
    assert repository.get(ended.record.id).units == chosen
    # Read in another unit (or in none), the same file is another reading: another record.
    other = run(inventories.analyse(workspace, "amb.csv", AMBIGUOUS_CSV, as_read))[-1]
    assert other.record.id != ended.record.id and repository.get(other.record.id).units == {}


def test_a_saved_plan_of_an_inventory_that_does_not_reconcile_opens_its_exports_so(workspace):
    from application.exports import plan_docx, plan_markdown

    inventory = inventories.load("comb.csv", CONFLICT_CSV, gwp_set="AR5", ch4_origin="general")
    assert inventory.status == "conflict"
    scripted(_plan_script([PLAN]))
    ended = run(inventories.analyse(workspace, "comb.csv", CONFLICT_CSV, inventory))[-1]
    assert ended.status == "planned"
    [saved] = inventories.previous_plans(workspace)
    reading = inventories.reading_of(workspace, saved)
    assert reading is not None and reading.sheets == (("comb.csv", "conflict"),)

    text = plan_markdown(saved, title="Plano 1", lang="pt", reading=reading)
    assert text.startswith(
        "# Plano 1\n\n> **Atenção: inventário não conferido (conflito). Abas: comb.csv "
        "(conflito). Os números a seguir não estão provados pelos totais da própria planilha.**"
    )
    english = plan_markdown(saved, title="Plan 1", lang="en", reading=reading)
    assert english.splitlines()[2].startswith(
        "> **Note: inventory not reconciled (conflict). Sheets: comb.csv (conflict)."
    )
    import io

    from docx import Document

    document = Document(io.BytesIO(plan_docx(saved, title="Plano 1", reading=reading)))
    paragraphs = [p.text for p in document.paragraphs]
    assert paragraphs[0] == "Plano 1" and paragraphs[1].startswith(
        "Atenção: inventário não conferido (conflito). Abas: comb.csv (conflito)."
    )
