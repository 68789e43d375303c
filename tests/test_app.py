"""Every page through Streamlit's AppTest, on the offline analyst and a real wire-protocol
database (the session's embedded server, or MONGODB_URI)."""

import os
from datetime import UTC, datetime
from pathlib import Path
from uuid import uuid4

import pytest
from bson import ObjectId
from streamlit.testing.v1 import AppTest

from engine import Aeko
from engine.agents.catalog import FAQ, GUARDRAIL, ORCHESTRATOR, POLLUTANTS_ANALYST, ROUTER
from engine.models.scripted import ScriptedChatModel
from store.client import Store
from store.indexes import ensure_indexes

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 120


@pytest.fixture
def app_env(mongo, monkeypatch, tmp_path):
    """The app pointed at the test server, in a database of its own."""
    uri = os.environ.get("MONGODB_URI") or mongo.server.uri
    name = f"aeko_app_{uuid4().hex[:10]}"
    monkeypatch.setenv("MONGODB_URI", uri)
    monkeypatch.setenv("MONGODB_DB", name)
    monkeypatch.setenv("AEKO_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    yield mongo.client[name]
    mongo.client.drop_database(name)


def _app(page: str | None = None, **params) -> AppTest:
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
    for key, value in params.items():
        app.query_params[key] = value
    app.run()
    if page:
        app.switch_page(page).run()
    assert not app.exception, app.exception
    return app


def _markdown(app: AppTest) -> str:
    return "\n".join(m.value for m in app.markdown)


def test_shell_says_it_runs_offline_and_on_the_embedded_database(app_env):
    app = _app()
    captions = " ".join(c.value for c in app.sidebar.caption)
    assert "analista offline" in captions and "Banco de dados" in captions
    assert app.title[0].value == "Chat ESG"


def test_chat_round_trip_with_trail_verdict_and_a_restorable_session(app_env):
    app = _app()
    app.chat_input[0].set_value("Com o que posso substituir o HFC-134a dos chillers?").run()
    assert not app.exception
    assert [m.name for m in app.chat_message] == ["user", "assistant"]
    assert app.status[0].label.startswith("Trilha dos agentes (4 chamadas")
    shown = _markdown(app)
    assert "Aprovada pelo guardrail" in shown
    assert "R-1234yf" in shown or "R-744" in shown
    assert "Next agent" not in shown
    session_id = app.query_params["session"]
    stored = app_env.session.find_one({"_id": ObjectId(session_id)})
    assert len(stored["messages"]) == 1 and stored["pending"] == []
    assert stored["turn_meta"][0]["approved"] is True

    reloaded = _app(session=session_id)
    assert [m.name for m in reloaded.chat_message] == ["user", "assistant"]
    assert "R-1234yf" in _markdown(reloaded) or "R-744" in _markdown(reloaded)


def test_a_rejected_turn_is_explained_and_not_saved(app_env):
    rejecting = ScriptedChatModel(
        model_name="fake",
        script={
            ROUTER: ["Next agent: Analista de Poluentes"],
            POLLUTANTS_ANALYST: ["CO2.\nNext agent: Orquestrador"],
            ORCHESTRATOR: ["Rascunho.\nNext agent: Guardrail de Saída"],
            GUARDRAIL: ["Reprovado: cita dados sem fonte."],
        },
    )
    Aeko.config(fast_model=rejecting, slow_model=rejecting)
    app = _app()
    app.chat_input[0].set_value("Quais gases pesam mais?").run()
    assert "Reprovada após 4 tentativas" in _markdown(app)
    assert any("reprovou todas as versões" in e.value for e in app.error)
    assert any("cita dados sem fonte" in e.value for e in app.error)
    stored = app_env.session.find_one({"_id": ObjectId(app.query_params["session"])})
    assert stored["messages"] == []
    assert stored["rejected"][0]["reasons"] == "cita dados sem fonte."


def test_untrusted_answer_text_loses_images_and_links(app_env):
    hostile = ScriptedChatModel(
        model_name="fake",
        script={
            ROUTER: ["Next agent: FAQ"],
            FAQ: [
                "Veja ![x](http://evil.example/leak.png) e [isto](http://evil.example) "
                "<img src=x onerror=alert(1)> 1.234,5 t CO2e\nNext agent: Nenhum"
            ],
        },
    )
    Aeko.config(fast_model=hostile, slow_model=hostile)
    app = _app()
    app.chat_input[0].set_value("O que é escopo 1?").run()
    shown = _markdown(app)
    assert "evil.example" not in shown
    assert "<img" not in shown and "1.234,5 t CO2e" in shown


def test_sessions_are_renamed_and_deleted_from_the_sidebar(app_env):
    app = _app()
    app.chat_input[0].set_value("O que é escopo 2?").run()
    session_id = app.query_params["session"]
    app = _app(session=session_id)
    app.sidebar.text_input(key="rename-session").input("Escopo 2 – dúvidas").run()
    app.sidebar.button(key="rename-save").click().run()
    assert app_env.session.find_one({"_id": ObjectId(session_id)})["name"] == "Escopo 2 – dúvidas"
    app.sidebar.button(key="delete-session").click().run()
    assert app_env.session.count_documents({}) == 0
    assert "session" not in app.query_params


def test_database_down_is_said_clearly_without_credentials(monkeypatch, tmp_path):
    monkeypatch.setenv(
        "MONGODB_URI", "mongodb://bob:hunter2@127.0.0.1:1/?serverSelectionTimeoutMS=300"
    )
    monkeypatch.setenv("AEKO_DATA_DIR", str(tmp_path))
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT).run()
    assert not app.exception
    shown = " ".join(e.value for e in app.error) + " ".join(w.value for w in app.warning)
    assert "127.0.0.1:1" in shown and "MONGODB_URI" in shown
    assert "hunter2" not in shown and "bob" not in shown


def test_settings_language_profile_and_memories(app_env):
    app = _app("pages/settings.py")
    app.radio[0].set_value("en").run()
    assert app.title[0].value == "Settings"
    role = next(i for i in app.text_input if i.label == "Role")
    role.input("Coordenadora ESG")
    next(a for a in app.text_area if a.label == "Use case").input("Plano de descarbonização")
    app.button[0].click().run()
    user = app_env.user.find_one({})
    assert (user["role"], user["usecase"]) == ("Coordenadora ESG", "Plano de descarbonização")
    next(i for i in app.text_input if i.label == "Subject").input("idioma")
    next(a for a in app.text_area if a.label == "Description").input("prefere inglês")
    next(b for b in app.button if b.label == "Add memory").click().run()
    memory = app_env.user_memory.find_one({})
    assert memory["field"] == "idioma" and memory["expires_at"] is None
    next(b for b in app.button if b.label == "Expire").click().run()
    assert app_env.user_memory.find_one({})["expires_at"] is not None
    assert "expired" in _markdown(app)
    assert "hunter2" not in _markdown(app)


def test_history_lists_searches_and_deletes_with_confirmation(app_env):
    app = _app()
    app.chat_input[0].set_value("O que é escopo 2?").run()
    app = _app()
    app.chat_input[0].set_value("O que é CO2 biogênico?").run()
    history = _app("pages/history.py")
    assert sum("hist" not in e.label for e in history.get("download_button")) >= 2
    history.text_input(key="history-search").input("biogênico").run()
    names = [m.value for m in history.markdown if m.value.startswith("**")]
    assert len(names) == 1 and "biogênico" in names[0]
    delete = next(b for b in history.button if b.key and b.key.startswith("delete-"))
    delete.click().run()
    assert app_env.session.count_documents({}) == 1


def test_inventory_sample_to_charts_to_a_saved_plan(app_env):
    app = _app("pages/inventory.py")
    next(b for b in app.button if b.label == "Usar o inventário de exemplo").click().run()
    assert not app.exception
    assert len(app.get("vega_lite_chart")) == 4
    total = next(m for m in app.metric if m.label == "Total")
    from assets.sample_inventory import SAMPLE_PATH
    from engine.inventory import load_inventory
    from engine.inventory.digest import br

    assert total.value == f"{br(load_inventory(SAMPLE_PATH).total_tco2e)} t CO2e (AR5)"
    next(b for b in app.button if b.label == "Analisar e gerar o plano").click().run()
    assert not app.exception
    assert any("Plano salvo" in s.value for s in app.success)
    shown = _markdown(app)
    assert "#### Problema definido" in shown and "#### Método" in shown
    plan = app_env.improvement_plan.find_one({})
    assert plan["defined_problem"] in shown
    inventory = app_env.inventory.find_one({})
    assert plan["id_external_inventory"] == inventory["number"]
    assert inventory["summary"]["gwp_set"] == "AR5"
    labels = [d.label for d in app.get("download_button")]
    assert {"Markdown", "Word (DOCX)", "PDF"} <= set(labels)


def test_inventory_bad_file_gets_a_short_message_in_the_user_language(app_env):
    app = _app("pages/inventory.py")
    app.session_state["aeko_inventory_upload"] = ("vazio.xlsx", b"not really a workbook")
    app.run()
    assert not app.exception
    assert any("não é o que a extensão diz" in e.value for e in app.error)


class _RateLimited(Exception):
    status_code = 429


def test_usage_is_recorded_per_turn_and_retries_show_in_the_trail(app_env):
    flaky = ScriptedChatModel(
        model_name="gemini-2.5-flash",
        script={ROUTER: [_RateLimited(), "Next agent: FAQ"], FAQ: ["Diretas.\nNext agent: Nenhum"]},
    )
    Aeko.config(fast_model=flaky, slow_model=flaky, retry_base_delay=0)
    app = _app()
    app.chat_input[0].set_value("O que é escopo 1?").run()
    assert any("nova tentativa 1" in w.value for w in app.warning)
    run = app_env.usage.find_one({})
    assert run["outcome"] == "answered" and run["retries"] == 1 and run["cost_usd"] > 0
    assert str(run["id_session"]) == app.query_params["session"]
    settings_page = _app("pages/settings.py")
    today = next(m for m in settings_page.metric if m.label == "Hoje")
    assert today.value == f"US$ {run['cost_usd']:.4f}"


def test_the_daily_cost_cap_stops_a_run_and_then_refuses_new_ones(app_env, monkeypatch):
    monkeypatch.setenv("AEKO_DAILY_COST_CAP_USD", "0.000001")
    priced = ScriptedChatModel(
        model_name="gemini-2.5-flash",
        script={ROUTER: ["Next agent: FAQ"], FAQ: ["Diretas.\nNext agent: Nenhum"]},
    )
    Aeko.config(fast_model=priced, slow_model=priced)
    app = _app()
    app.chat_input[0].set_value("O que é escopo 1?").run()
    assert any("parou no limite de custo" in e.value for e in app.error)
    assert app_env.usage.find_one({})["outcome"] == "budget_exceeded"
    app.chat_input[0].set_value("E escopo 2?").run()
    assert any("limite diário de custo" in e.value for e in app.error)
    assert app_env.usage.count_documents({}) == 1


def test_a_long_conversation_gets_its_summary_saved_beside_the_turns(app_env):
    app = _app()
    app.chat_input[0].set_value("Nossa meta é reduzir 30% do escopo 1 até 2030.").run()
    session_id = ObjectId(app.query_params["session"])
    turns = [
        {
            "input": f"Pergunta {i}?",
            "output": f"Resposta {i}.",
            "submitted_at": datetime.now(UTC),
            "llm": "",
            "input_tokens": 0,
            "output_tokens": 0,
        }
        for i in range(12)
    ]
    app_env.session.update_one({"_id": session_id}, {"$push": {"messages": {"$each": turns}}})
    app = _app(session=str(session_id))
    app.chat_input[0].set_value("O que é escopo 2?").run()
    stored = app_env.session.find_one({"_id": session_id})
    assert stored["summary"]["covered_turns"] == len(stored["messages"]) - 1 - 10
    assert "30%" in stored["summary"]["text"] and "2030" in stored["summary"]["text"]
    assert any("Resumo da conversa atualizado" in i.value for i in app.info)


def test_history_shows_exports_searches_and_deletes_plans(app_env):
    from engine import AekoImprovementPlan

    ensure_indexes(app_env)
    store = Store(app_env.client, app_env, "test")
    user = store.users.get_or_create(1)
    plans = store.plans(user.id)
    for number, problem in ((7, "Diesel da frota: 1.240 t CO2e."), (8, "Gás natural nos fornos.")):
        plans.save(
            AekoImprovementPlan(
                id_external_inventory=number,
                defined_problem=problem,
                method="HVO.",
                reasoning="Reduz.",
            ),
            run_id=f"p{number}",
        )
    history = _app("pages/history.py")
    assert "Diesel da frota: 1.240 t CO2e." in _markdown(history)
    labels = [d.label for d in history.get("download_button")]
    assert labels.count("PDF") == 2 and labels.count("Word (DOCX)") == 2
    history.text_input(key="history-search").input("fornos").run()
    assert "Diesel da frota" not in _markdown(history)
    assert "Gás natural nos fornos." in _markdown(history)
    next(b for b in history.button if b.key and b.key.startswith("delete-plan-")).click().run()
    assert not history.exception
    assert [p["id_external_inventory"] for p in app_env.improvement_plan.find({})] == [7]


def test_a_session_stored_in_an_unreadable_shape_gets_a_message_not_a_traceback(app_env):
    ensure_indexes(app_env)
    user = Store(app_env.client, app_env, "test").users.get_or_create(1)
    bad = app_env.session.insert_one({"id_user": ObjectId(user.id), "messages": [{"input": None}]})
    app = _app(session=str(bad.inserted_id))
    assert not app.exception
    assert any("formato que o app não consegue" in e.value for e in app.error)


def test_a_provider_that_keeps_failing_gets_a_short_message_and_the_question_stays(
    app_env, monkeypatch
):
    monkeypatch.setattr("engine.agents.runner._pause", lambda seconds: None)
    down = ScriptedChatModel(model_name="down", default=TimeoutError("read timed out"))
    Aeko.config(fast_model=down, slow_model=down, retry_base_delay=0)
    app = _app()
    app.chat_input[0].set_value("O que é escopo 1?").run()
    assert not app.exception
    assert any("O modelo não respondeu" in e.value for e in app.error)
    stored = app_env.session.find_one({"_id": ObjectId(app.query_params["session"])})
    assert stored["messages"] == [] and stored["pending"][0]["input"] == "O que é escopo 1?"


def test_the_answer_just_given_can_be_rated_at_once(app_env):
    app = _app()
    app.chat_input[0].set_value("O que é escopo 2?").run()
    session_id = app.query_params["session"]
    feedback = app.get("feedback")
    assert len(feedback) == 1
    stored = app_env.session.find_one({"_id": ObjectId(session_id)})
    assert "feedback" not in stored["turn_meta"][0]
    reloaded = _app(session=session_id)
    assert len(reloaded.get("feedback")) == 1  # the same control, from the history
    reloaded.session_state[f"feedback-{session_id}-0"] = 1  # thumbs up
    reloaded.run()
    stored = app_env.session.find_one({"_id": ObjectId(session_id)})
    assert stored["turn_meta"][0]["feedback"] == 1
