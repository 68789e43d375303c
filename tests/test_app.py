"""Every page through Streamlit's AppTest, on the offline analyst and a real wire-protocol
database (the session's embedded server, or MONGODB_URI)."""

import json
from datetime import UTC, datetime

import pandas as pd
import pyarrow as pa
import pytest
from bson import ObjectId
from streamlit.testing.v1 import AppTest

from engine import Aeko
from engine.agents.catalog import FAQ, GUARDRAIL, ORCHESTRATOR, POLLUTANTS_ANALYST, ROUTER
from engine.models.scripted import ScriptedChatModel
from store.client import Store
from store.indexes import ensure_indexes
from tests.app_pages import ROOT, TIMEOUT
from tests.app_pages import inventory_page as _inventory_page
from tests.app_pages import run_app as _app
from tests.app_pages import workbook as _workbook
from tests.chiller_options import names_a_chiller_option


def _prepare_downloads(app: AppTest) -> None:
    """Click every "prepare the files" button of a page listing plans."""
    while prepare := [b for b in app.button if b.key and b.key.startswith("prepare-")]:
        prepare[0].click().run()
        assert not app.exception, app.exception


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
    assert names_a_chiller_option(shown)
    assert "Next agent" not in shown
    session_id = app.query_params["session"]
    stored = app_env.session.find_one({"_id": ObjectId(session_id)})
    assert len(stored["messages"]) == 1 and stored["pending"] == []
    assert stored["turn_meta"][0]["approved"] is True

    reloaded = _app(session=session_id)
    assert [m.name for m in reloaded.chat_message] == ["user", "assistant"]
    assert names_a_chiller_option(_markdown(reloaded))


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


def test_an_answer_with_a_figure_no_source_backs_is_shown_marked_and_saved(app_env):
    unsourced = ScriptedChatModel(
        model_name="fake",
        script={
            ROUTER: ["Next agent: Analista de Poluentes"],
            POLLUTANTS_ANALYST: ["CO2.\nNext agent: Orquestrador"],
            ORCHESTRATOR: ["O diesel emite 4.321,9 t CO2e.\nNext agent: Guardrail de Saída"],
            GUARDRAIL: ["Aprovado."],
        },
    )
    Aeko.config(fast_model=unsourced, slow_model=unsourced)
    app = _app()
    app.chat_input[0].set_value("Quanto emite o diesel?").run()
    assert not app.exception
    assert "4.321,9 (não verificado) t CO2e" in _markdown(app)
    assert any("4.321,9" in w.value and "não verificado" in w.value for w in app.warning)
    stored = app_env.session.find_one({"_id": ObjectId(app.query_params["session"])})
    assert stored["messages"][0]["output"] == "O diesel emite 4.321,9 (não verificado) t CO2e."


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
    from assets import SAMPLE_PATH
    from engine.formatting import number
    from tests.inventory_fixtures import sample_headline_tco2e

    # Expected from the workbook's cells: per-gas tonnes x AR5, or its t CO2e column.
    expected = sample_headline_tco2e(SAMPLE_PATH.read_bytes())
    assert total.value == f"{number(expected)} t CO2e (AR5)"
    assert [s.value for s in app.success] == ["Conferido com os totais da planilha."]
    assert not app.error
    assert _metric(app, "Escopo 2 (localização)").endswith("t CO2e")
    assert _metric(app, "Escopo 2 (escolha de compra)") == "—"  # the sample has none
    assert "Gases do Protocolo de Montreal (fora do total)" in [m.label for m in app.metric]
    assert "Ano 2024 · GWP: AR5" in [c.value for c in app.caption]
    rec = _expander(app, "Conferência por aba")
    assert not rec.proto.expanded and not _expander(app, "Mapeamento das colunas").proto.expanded
    table = next(d.value for d in app.dataframe if "Situação" in d.value.columns)
    assert set(table["Situação"]) == {"✓ Conferido"}
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


def _metric(app: AppTest, label: str) -> str:
    return next(m.value for m in app.metric if m.label == label)


def _expander(app: AppTest, label: str):
    return next(e for e in app.expander if e.label.startswith(label))


def _chart(app: AppTest, title: str) -> tuple[dict, pd.DataFrame]:
    """A chart's Vega-Lite spec and the data Streamlit sent with it."""
    for chart in app.get("vega_lite_chart"):
        spec = json.loads(chart.proto.spec)
        if spec.get("title") == title:
            data = chart.proto.datasets[0].data.data
            return spec, pa.ipc.open_stream(data).read_pandas()
    raise AssertionError(f"no chart titled {title!r}")


# Electricity by both Scope 2 methods, reconciled, and a combustion sheet whose Total row says
# 200 t CO2e where its rows add to 150.
_CONFLICTING = {
    "Eletricidade (localização)": [
        ("Unidade", "CO2 (t)", "Emissões totais (t CO2e)"),
        ("Fábrica", 30.0, 30.0),
        ("Escritório", 10.0, 10.0),
        ("Total", 40.0, 40.0),
    ],
    "Eletr. escolha de compra": [
        ("Unidade", "CO2 (t)", "Emissões totais (t CO2e)"),
        ("Fábrica", 12.5, 12.5),
        ("Escritório", 4.0, 4.0),
        ("Total", 16.5, 16.5),
    ],
    "Combustão": [
        ("Fonte", "Escopo", "Combustível", "CO2 (t)", "Emissões totais (t CO2e)"),
        ("Caldeira", "1", "Gás natural", 100.0, 100.0),
        ("Gerador", "1", "Diesel", 50.0, 50.0),
        ("Total", None, None, 150.0, 200.0),
    ],
}


def test_inventory_scopes_and_numbers_follow_the_interface_language(app_env):
    from assets import SAMPLE_NAME, SAMPLE_PATH
    from tests.inventory_fixtures import sample_headline_tco2e

    data = SAMPLE_PATH.read_bytes()
    pt = _inventory_page(SAMPLE_NAME, data)
    spec, values = _chart(pt, "Emissões por escopo")
    assert set(values["value"]) == {"Escopo 1", "Escopo 2 (localização)", "Escopo 3"}
    assert spec["config"]["locale"]["number"]["decimal"] == ","
    for chart in pt.get("vega_lite_chart"):
        assert json.loads(chart.proto.spec)["config"]["locale"]["number"]["thousands"] == "."
    table = next(d.value for d in pt.dataframe if "Escopo" in d.value.columns)
    assert set(table["Escopo"].dropna()) <= {"Escopo 1", "Escopo 2", "Escopo 3"}
    assert "Escopo 2: localização" in " ".join(c.value for c in pt.caption)

    en = _inventory_page(SAMPLE_NAME, data, lang="en")
    spec, values = _chart(en, "Emissions by scope")
    assert set(values["value"]) == {"Scope 1", "Scope 2 (location-based)", "Scope 3"}
    assert spec["config"]["locale"]["number"]["decimal"] == "."
    table = next(d.value for d in en.dataframe if "Scope" in d.value.columns)
    assert set(table["Scope"].dropna()) <= {"Scope 1", "Scope 2", "Scope 3"}
    assert [s.value for s in en.success] == ["Reconciled with the workbook's totals."]
    assert _metric(en, "Total") == f"{sample_headline_tco2e(data):,.1f} t CO2e (AR5)"
    assert _metric(en, "Scope 2 (market-based)") == "—"


def test_a_total_that_does_not_reconcile_is_red_with_both_numbers_and_opens_the_mapping(
    app_env,
):
    app = _inventory_page("conflito.xlsx", _workbook(_CONFLICTING))
    error = next(e.value for e in app.error if e.value.startswith("Não confere"))
    assert "planilha diz 200,0 t CO2e, calculado 150,0 t CO2e" in error
    assert "Combustão: planilha diz 200,0, calculado 150,0" in error
    assert not app.success
    mapping = _expander(app, "Mapeamento das colunas")
    assert mapping.proto.expanded and "Combustão" in mapping.label
    assert app.data_editor[0].value["Aba"].iloc[0] == "Combustão"  # the conflicting sheet first
    assert _expander(app, "Conferência por aba").proto.expanded
    table = next(d.value for d in app.dataframe if "Situação" in d.value.columns)
    status = dict(zip(table["Aba"], table["Situação"], strict=True))
    assert status["Combustão"] == "✗ Conflito"
    assert status["Eletricidade (localização)"] == "✓ Conferido"
    # Scope 2 by both methods, side by side, never added
    assert _metric(app, "Escopo 2 (localização)") == "40,0 t CO2e"
    assert _metric(app, "Escopo 2 (escolha de compra)") == "16,5 t CO2e"
    assert _metric(app, "Total") == "190,0 t CO2e (AR5)"

    en = _inventory_page("conflict.xlsx", _workbook(_CONFLICTING), lang="en")
    error = next(e.value for e in en.error if e.value.startswith("Does not reconcile"))
    assert "stated 200.0 t CO2e, computed 150.0 t CO2e" in error


def test_several_years_show_the_headline_year_and_the_evolution(app_env):
    rows = [("Ano", "Fonte", "Escopo", "Gás", "Emissões (t)")]
    rows += [(2023, "Caldeira", "1", "CO2", 100.0), (2024, "Caldeira", "1", "CO2", 80.0)]
    rows += [(2023, "Rede", "2", "CO2", 40.0), (2024, "Rede", "2", "CO2", 45.0)]
    app = _inventory_page("anos.xlsx", _workbook({"Emissões": rows}))
    assert _metric(app, "Total") == "125,0 t CO2e (AR5)"  # 2024 only, never the years summed
    assert "Ano 2024; todos os anos no gráfico de evolução · GWP: AR5" in [
        c.value for c in app.caption
    ]
    assert [i.value for i in app.info if "Sem totais" in i.value] == [
        "Sem totais na planilha para conferir."
    ]
    _spec, values = _chart(app, "Evolução por ano")
    assert list(values["year"]) == ["2023", "2024"]


def test_ar6_methane_choice_is_passed_to_the_loader_and_stated_with_the_total(app_env):
    from assets import SAMPLE_NAME, SAMPLE_PATH
    from engine.formatting import number
    from tests.inventory_fixtures import sample_headline_tco2e

    app = _inventory_page(SAMPLE_NAME, SAMPLE_PATH.read_bytes())
    methane = app.selectbox(key="ch4-origin")
    assert methane.disabled and methane.value == "general"
    next(s for s in app.selectbox if s.label == "Conjunto de GWP (IPCC)").set_value("AR6").run()
    methane = app.selectbox(key="ch4-origin")
    assert not methane.disabled
    assert methane.options == ["valor geral 27,9", "fóssil 29,8", "não fóssil 27,0"]
    methane.set_value("fossil").run()
    assert not app.exception
    # From the cells, with AR6 and fossil methane (29.8, IPCC AR6 WG1 table 7.15).
    expected = sample_headline_tco2e(SAMPLE_PATH.read_bytes(), "AR6", ch4_gwp=29.8)
    assert _metric(app, "Total") == f"{number(expected)} t CO2e (AR6 (CH4 29,8: metano fóssil))"


def test_a_default_gwp_set_chosen_in_settings_is_the_one_an_inventory_is_read_with(app_env):
    from assets import SAMPLE_NAME, SAMPLE_PATH

    settings = _app("pages/settings.py")
    label = "Conjunto de GWP padrão dos inventários"
    chosen = next(s for s in settings.selectbox if s.label == label)
    assert chosen.value == "AR5"  # the product's, until the user picks another
    assert "B21" in chosen.help and "CVM 193" in chosen.help and "ferramenta" in chosen.help
    chosen.set_value("AR6")
    next(b for b in settings.button if "gwp-default" in (b.key or "")).click().run()
    assert not settings.exception
    assert app_env.user.find_one({})["default_gwp_set"] == "AR6"

    app = _inventory_page(SAMPLE_NAME, SAMPLE_PATH.read_bytes())
    gwp_line = next(s for s in app.selectbox if s.label == "Conjunto de GWP (IPCC)")
    assert gwp_line.value == "AR6"
    assert gwp_line.help.startswith("Padrão: AR6") and "B21" in gwp_line.help
    assert "(AR6" in _metric(app, "Total")


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
    # in the Portuguese page's notation: US$ 0,0012
    assert today.value == f"US$ {run['cost_usd']:.4f}".replace(".", ",")


def test_a_run_whose_share_of_the_cap_cannot_pay_a_call_is_stopped_before_it(app_env, monkeypatch):
    # Half of US$ 0.000001 cannot pay even a router call at its worst case: no call starts,
    # so nothing can pass the cap, and the user reads the run's limit.
    monkeypatch.setenv("AEKO_DAILY_COST_CAP_USD", "0.000001")
    priced = ScriptedChatModel(
        model_name="gemini-2.5-flash",
        script={ROUTER: ["Next agent: FAQ"], FAQ: ["Diretas.\nNext agent: Nenhum"]},
    )
    Aeko.config(fast_model=priced, slow_model=priced)
    app = _app()
    app.chat_input[0].set_value("O que é escopo 1?").run()
    assert any("parou no limite de custo" in e.value for e in app.error)
    [usage] = app_env.usage.find({})
    assert usage["outcome"] == "budget_exceeded" and not usage.get("calls")
    assert priced.calls == []  # the model was never called


def test_a_day_whose_remainder_cannot_pay_a_call_refuses_the_run_as_the_daily_cap(
    app_env, mongo, monkeypatch
):
    from engine.dto import AekoModelCall, AekoUsage
    from store.client import Store

    cap = 0.01
    monkeypatch.setenv("AEKO_DAILY_COST_CAP_USD", str(cap))
    priced = ScriptedChatModel(
        model_name="gemini-2.5-flash",
        script={ROUTER: ["Next agent: FAQ"], FAQ: ["Diretas.\nNext agent: Nenhum"]},
    )
    Aeko.config(fast_model=priced, slow_model=priced)
    app = _app()
    app.run()  # the user exists once the app has run
    [user] = app_env.user.find({})
    # Earlier today, another process's runs spent all but US$ 0.0005 of the day: less than a
    # router call may cost at worst (its prompt and its whole output allowance).
    store = Store(mongo.client, app_env, mongo.target)
    earlier = AekoModelCall(agent=ROUTER, model="earlier-run", input_tokens=0,
                            output_tokens=0, cost_usd=cap - 0.0005)  # fmt: skip
    store.usage(user["_id"]).record("earlier", "chat", AekoUsage(calls=[earlier]),
                                    outcome="answered")  # fmt: skip
    app.chat_input[0].set_value("E escopo 2?").run()
    assert any("limite diário de custo" in e.value for e in app.error)
    refused = app_env.usage.find_one({"run_id": {"$ne": "earlier"}})
    assert refused is None or not refused.get("calls")
    assert priced.calls == []  # nothing was called, nothing paid
    [day] = app_env.spending.find({})
    assert day["spent_pusd"] <= cap * 10**12 and not day.get("reservations")


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
    assert not history.get("download_button")  # a list of plans lays out no PDF until asked
    _prepare_downloads(history)
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
    assert any("O modelo demorou demais para responder" in e.value for e in app.error)
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


def _calculator(activity_id: str, quantity: float, unit: str, period: str) -> AppTest:
    from engine.emissions import activities

    app = _app("pages/calculator.py")
    activity = next(a for a in activities() if a.id == activity_id)
    app.selectbox[0].set_value(activity).run()
    app.number_input[0].set_value(quantity).run()
    app.selectbox[1].set_value(unit).run()
    app.text_input[0].set_value(period).run()
    assert not app.exception, app.exception
    return app


def test_the_calculator_shows_the_result_the_computation_and_every_factor(app_env):
    from engine.gases.gwp import gwp

    app = _calculator("refrigerant:R-410A", 10, "kg", "2024")
    # R-410A is half HFC-32, half HFC-125 by mass (AR5 GWPs from the IPCC package).
    expected = 10 / 1000 * (0.5 * gwp("HFC32", "AR5") + 0.5 * gwp("HFC125", "AR5"))
    assert _metric(app, "Emissões (escopo 1)") == f"{expected:.3f} t CO2e".replace(".", ",")
    assert "R-410A" in _markdown(app)
    factors = next(d.value for d in app.dataframe if "Fonte" in d.value.columns)
    assert set(factors["Origem"]) == {"biblioteca"}


def test_the_calculator_explains_a_period_without_a_factor(app_env):
    app = _calculator("electricity_grid", 1, "MWh", "1990")
    assert app.error and "1990" in app.error[0].value


_ACTIVITY_CSV = (
    "Fonte,Combustível,Consumo (L),Ano\nCaminhões,Óleo diesel,1000,2024\n"
    "Gerador,Óleo diesel,500,2024\n"
).encode()
_OWN_FACTORS = (
    "key,gas,value,unit,region,valid_from,valid_to,document,table,year,url,note\n"
    "diesel_road,CO2,3.0,kg/L,BR,,,Ferramenta do Programa Brasileiro GHG Protocol,"
    "Combustão móvel,2025,,ciclo 2025\n"
).encode()


def test_an_activity_sheet_is_computed_and_the_user_s_factors_override_the_library(app_env):
    from engine.formatting import number
    from tests.inventory_fixtures import diesel_b_2024_tco2e

    app = _inventory_page("frota.csv", _ACTIVITY_CSV)
    # By hand (BEN, IPCC 2006, CNPE blends, AR5): 1,000 L on the road, 500 L in a generator.
    trucks_co2, trucks = diesel_b_2024_tco2e(1_000, "road")
    library_total = trucks + diesel_b_2024_tco2e(500, "stationary")[1]
    assert _metric(app, "Total") == f"{number(library_total)} t CO2e (AR5)"
    factors = next(d.value for d in app.dataframe if "Fonte" in d.value.columns)
    assert set(factors["Origem"]) == {"biblioteca"}

    app.session_state["aeko_inventory_factors"] = ("ciclo2025.csv", _OWN_FACTORS)
    app.run()
    assert not app.exception, app.exception
    # The trucks' fossil CO2 is now 1,000 L × 3.0 kg/L: the other gases and rows unchanged.
    expected = library_total - trucks_co2 + 3.0
    shown = _metric(app, "Total").split(" t")[0].replace(".", "").replace(",", ".")
    assert float(shown) == pytest.approx(expected, abs=0.05)
    factors = [d.value for d in app.dataframe if "Origem" in d.value.columns]
    assert any("seu arquivo" in set(f["Origem"]) for f in factors)


def test_a_bad_factor_file_is_refused_with_its_line(app_env):
    app = _inventory_page("frota.csv", _ACTIVITY_CSV)
    bad = _OWN_FACTORS.replace(b"3.0,kg/L", b"tres,kg/L")
    app.session_state["aeko_inventory_factors"] = ("ruim.csv", bad)
    app.run()
    assert not app.exception, app.exception
    assert any("2" in e.value and "value" in e.value for e in app.error)
    assert "aeko_inventory_factors" not in app.session_state


def test_calculator_rows_join_the_open_inventory(app_env):
    from tests.inventory_fixtures import diesel_b_2024_tco2e

    app = _inventory_page("frota.csv", _ACTIVITY_CSV)
    before = diesel_b_2024_tco2e(1_000, "road")[1] + diesel_b_2024_tco2e(500, "stationary")[1]
    app.switch_page("pages/calculator.py").run()
    from engine.emissions import activities

    leak = next(a for a in activities() if a.id == "refrigerant:R-410A")
    app.selectbox[0].set_value(leak).run()
    app.number_input[0].set_value(10.0).run()
    assert app.text_input[0].value == "2024"  # the open inventory's year
    app.button[0].click().run()
    assert app.success and "1" in app.success[0].value

    app.switch_page("pages/inventory.py").run()
    assert not app.exception, app.exception
    # 10 kg of R-410A (50% HFC-32, 50% HFC-125; AR5 677 and 3,170): 10 x 1,923.5 / 1,000 t
    added = 10 * (0.5 * 677 + 0.5 * 3_170) / 1_000
    shown = _metric(app, "Total").split(" t")[0].replace(".", "").replace(",", ".")
    assert float(shown) == pytest.approx(before + added, abs=0.05)
    assert any(e.label.startswith("Linhas da calculadora (1)") for e in app.expander)


def test_a_conversation_reads_the_latest_saved_inventory_and_shows_its_sources(app_env):
    from application import inventories
    from assets import SAMPLE_NAME, SAMPLE_PATH
    from engine.formatting import number

    store = Store(app_env.client, app_env, "test")
    ensure_indexes(app_env)
    user = store.users.get_or_create(1)
    data = SAMPLE_PATH.read_bytes()
    inventory = inventories.load(SAMPLE_NAME, data, gwp_set="AR5", ch4_origin="general")
    record = store.inventories(user.id).save(
        SAMPLE_NAME,
        data,
        sheets=inventory.sheets,
        mapping=inventory.mapping,
        summary=inventories.summary_of(inventory),
    )
    app = _app()
    picker = app.selectbox[0]
    assert picker.label == "Inventário da conversa" and picker.value == record.id
    app.chat_input[0].set_value("Quanto emitimos no escopo 1?").run()
    assert not app.exception
    from tests.inventory_fixtures import sample_tco2e_by_scope

    scope_1 = sample_tco2e_by_scope(data)["1"]  # from the workbook's cells
    shown = _markdown(app)
    assert f"Escopo 1: {number(scope_1)} t CO2e" in shown
    captions = " ".join(c.value for c in app.caption)
    assert "Fontes" in captions and SAMPLE_NAME in captions
    session = app_env.session.find_one({"_id": ObjectId(app.query_params["session"])})
    assert session["attached_inventory"] == record.id

    # The conversation remembers; choosing "none" detaches it for the next turns.
    reloaded = _app(session=app.query_params["session"])
    assert reloaded.selectbox[0].value == record.id
    assert SAMPLE_NAME in " ".join(c.value for c in reloaded.caption)  # the stored sources
    reloaded.selectbox[0].set_value("").run()
    session = app_env.session.find_one({"_id": session["_id"]})
    assert session["attached_inventory"] is None


def _plan_actions(scale: float, unknown: bool):
    """A plan's computed actions: a saving, a cost, and (when ``unknown``) one with no cost."""
    from engine.actions.model import Action, PathPoint, PlanActions, RowRef, Target

    def action(n: int, name: str, cost: float | None, low: float, high: float) -> Action:
        return Action(
            id=f"m{n}@Combustão:{n}",
            measure_id=f"m{n}",
            measure={"pt": name, "en": name},
            source={"pt": "Diesel", "en": "Diesel"},
            mechanism="fuel_switch",
            rows=(RowRef(sheet="Combustão", row=n, source="Diesel", facility="<b>Unidade</b>"),),
            scope=1,
            baseline_tco2e=5000.0,
            reduction_low_tco2e=low * scale,
            reduction_high_tco2e=high * scale,
            cost_per_t_brl=cost,
        )

    chosen = [
        action(1, "Eficiência nos fornos", -100.0, 200.0, 400.0),
        action(2, "Troca de diesel por HVO", 300.0, 800.0, 1000.0),
    ]
    if unknown:
        chosen.append(action(3, "Recuperação de calor", None, 300.0, 500.0))
    path = [
        PathPoint(year=year, allowed_tco2e=11000 - (year - 2024) * 550, expected_tco2e=9000,
                  expected_low_tco2e=9500)
        for year in range(2025, 2031)
    ]  # fmt: skip
    return PlanActions(
        actions=chosen,
        target=Target(base_year=2024, base_tco2e=11000.0, percent=30, year=2030),
        path=[] if unknown else path,
        inventory_tco2e=11000.0,
        inventory_year=2024,
    )


def test_history_lists_plan_totals_draws_actions_on_open_and_compares_two_plans(app_env):
    from engine import AekoImprovementPlan

    ensure_indexes(app_env)
    store = Store(app_env.client, app_env, "test")
    user = store.users.get_or_create(1)
    ids = {}
    for number, actions in ((7, _plan_actions(1, True)), (8, _plan_actions(2, False)), (9, None)):
        saved = store.plans(user.id).save(
            AekoImprovementPlan(
                id_external_inventory=number,
                defined_problem=f"Plano {number}: custo de R$ 10 mil e R$ 5 mil.",
                method="Trocar.",
                reasoning="Reduz.",
            ),
            run_id=f"p{number}",
        )
        ids[number] = saved.id
        if actions is not None:
            store.plan_actions(user.id).save(f"p{number}", number, actions)

    history = _app("pages/history.py")
    labels = {e.label for e in history.expander}
    label_7 = next(label for label in labels if "inventário 7" in label)
    # Low–high of the cut, the R$/t of the priced actions weighted by their mid cut
    # ((−100 × 300 + 300 × 900) / 1.200 = 200), and how many have no cost.
    assert "1.300,0–1.900,0 t CO2e/ano" in label_7
    assert "R\\$ 200/t CO2e" in label_7 and "1 com custo desconhecido" in label_7
    label_8 = next(label for label in labels if "inventário 8" in label)
    assert "2.000,0–2.800,0 t CO2e/ano" in label_8 and "desconhecido" not in label_8
    assert any("inventário 9" in label and "sem ações calculadas" in label for label in labels)
    # Closed, nothing heavy is drawn; the exports wait for their button.
    assert not history.get("vega_lite_chart") and not history.dataframe
    _prepare_downloads(history)
    assert [d.label for d in history.get("download_button")].count("PDF") == 3
    assert "R\\$ 10 mil e R\\$ 5 mil" in _markdown(history)  # "$…$" is not a formula

    history.session_state[f"plan-open-{ids[7]}"] = True
    history.run()
    assert not history.exception, history.exception
    assert len(history.get("vega_lite_chart")) == 1  # the MACC (no path: none was computed)
    table = history.dataframe[0].value
    assert list(table["Medida"]) == [
        "Eficiência nos fornos",
        "Troca de diesel por HVO",
        "Recuperação de calor",
    ]
    assert "<b>Unidade</b>" in table.iloc[0, 1]  # a cell is data, shown as written
    assert "Custo desconhecido (fora da curva): Recuperação de calor." in [
        c.value for c in history.caption
    ]
    shown = _markdown(history)
    assert "#### Ações" in shown and "#### Meta e trajetória" in shown
    assert "**Ações calculadas**: 3 ações" in shown
    history.session_state[f"plan-open-{ids[8]}"] = True
    history.run()
    assert len(history.get("vega_lite_chart")) == 3  # and plan 8's MACC and target path

    history.session_state["history-compare"] = True
    history.run()
    first, second = history.selectbox(key="compare-a"), history.selectbox(key="compare-b")
    assert [first.value, second.value] == [str(ids[9]), str(ids[8])]  # the newest two
    first.set_value(str(ids[7]))
    second.set_value(str(ids[8]))
    history.run()
    assert not history.exception, history.exception
    reductions = [m for m in history.metric if m.label == "Redução (t CO2e/ano)"]
    assert [m.value for m in reductions] == ["1.300,0–1.900,0", "2.000,0–2.800,0"]
    assert reductions[1].delta == "+800,0"
    assert any(
        "**Diferença (B − A)**: redução de +700,0 a +900,0 t CO2e/ano (+800,0 na média)." in m
        for m in (m.value for m in history.markdown)
    )
    second.set_value(str(ids[9])).run()
    assert "um dos planos foi salvo sem ações calculadas" in " ".join(
        c.value for c in history.caption
    )


def test_a_broken_secrets_file_stops_the_app_with_its_line_and_no_secret(app_env, tmp_path):
    from streamlit import config

    broken = tmp_path / "secrets.toml"
    broken.write_text('MONGODB_DB = "aeko"\nGEMINI_API_KEY = sk-not-quoted-123\n', encoding="utf-8")
    saved = config.get_option("secrets.files")
    config.set_option("secrets.files", [str(tmp_path / "absent.toml"), str(broken)])
    try:
        app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT).run()
    finally:
        config.set_option("secrets.files", saved)
    assert not app.exception, app.exception
    [error] = app.error
    assert "secrets" in error.value and "line 2" in error.value and str(broken) in error.value
    assert "sk-not-quoted" not in error.value
    assert not app.chat_input  # stopped: no page ran, offline or not


def test_a_saved_plan_is_explored_again_from_history_and_its_scenario_kept(app_env):
    from application import inventories
    from engine import AekoImprovementPlan
    from engine.actions import build_plan_actions
    from tests import inventory_fixtures as fx

    ensure_indexes(app_env)
    store = Store(app_env.client, app_env, "test")
    user = store.users.get_or_create(1)
    data, _ = fx.ghg_program_workbook()
    inventory = inventories.load("ipe.xlsx", data, gwp_set="AR5", ch4_origin="general")
    record = store.inventories(user.id).save(
        "ipe.xlsx", data, sheets=inventory.sheets, mapping=inventory.mapping,
        summary=inventories.summary_of(inventory),
    )  # fmt: skip
    actions = build_plan_actions(inventory)
    assert actions.actions
    saved = store.plans(user.id).save(
        AekoImprovementPlan(
            id_external_inventory=record.number, defined_problem="P.", method="M.",
            reasoning="R.",
        ),
        run_id="run-explore",
    )  # fmt: skip
    store.plan_actions(user.id).save("run-explore", record.number, actions)

    history = _app("pages/history.py")
    history.session_state[f"plan-open-{saved.id}"] = True
    history.run()
    history.toggle(key=f"explore-{saved.id}").set_value(True).run()
    assert not history.exception, history.exception
    table = next(d.value for d in history.dataframe if "Antes (t CO2e)" in d.value.columns)
    assert "Escopo 2 (escolha de compra, à parte)" in list(table.iloc[:, 0])
    history.text_input(key="whatif-name-run-explore").input("Só a primeira").run()
    next(b for b in history.button if b.key == "whatif-save-run-explore").click().run()
    stored = app_env.plan_actions.find_one({"run_id": "run-explore"})
    assert [s["name"] for s in stored["scenarios"]] == ["Só a primeira"]


# Per-gas columns and a total, none stating a unit. Each row's total is CO2 + 28·CH4 + 265·N2O
# (AR5): 2000 + 28·50 + 265·10 = 2000 + 1400 + 2650 = 6050 and 1525 + 28·25 + 265·5 =
# 1525 + 700 + 1325 = 3550, 9600 in all. Read in t or in kg the row check passes alike.
_AMBIGUOUS_CSV = b"Fonte,CO2,CH4,N2O,Total CO2e\nCaldeira,2000,50,10,6050\nForno,1525,25,5,3550\n"
_AMBIGUOUS = "ambigua.csv"


def _unit_choice(app: AppTest):
    return next(c for c in app.segmented_control if _AMBIGUOUS in c.label)


def _all_runs():
    from application.runs import _REGISTRIES

    return [run for runs in list(_REGISTRIES.values()) for run in runs._runs.values()]


def test_an_ambiguous_unit_is_asked_once_kept_with_the_inventory_and_reapplied(app_env):
    app = _inventory_page(_AMBIGUOUS, _AMBIGUOUS_CSV)
    warning = next(w.value for w in app.warning if w.value.startswith("Unidade ambígua"))
    assert _AMBIGUOUS in warning
    assert not app.success  # never green
    read = next(d.value for d in app.dataframe if "Linhas lidas" in d.value.columns)
    assert list(read["Situação"]) == ["⚠ Unidade ambígua"]
    assert list(read["Linhas lidas"]) == [2]  # a number, shown as "2": it sorts as one
    choice = _unit_choice(app)
    assert {"t", "kg", "Gg"} <= set(choice.options)
    assert _metric(app, "Total") == "9.600,0 t CO2e (AR5)"  # read as tonnes until chosen
    analyse = next(b for b in app.button if b.label == "Analisar e gerar o plano")
    assert analyse.disabled  # an ambiguous inventory is confirmed first

    choice.set_value("kg").run()
    assert not app.exception, app.exception
    assert _metric(app, "Total") == "9,6 t CO2e (AR5)"  # 9600 kg × 0.001 = 9.6 t
    assert not [w for w in app.warning if w.value.startswith("Unidade ambígua")]
    assert _unit_choice(app).value == "kg"  # still there, to change it again

    next(b for b in app.button if b.label == "Analisar e gerar o plano").click().run()
    assert not app.exception, app.exception
    stored = app_env.inventory.find_one({})
    assert stored["units"] == {_AMBIGUOUS: "kg"}
    assert stored["summary"]["total_tco2e"] == pytest.approx(9.6)
    [run] = [run for run in _all_runs() if run.title == _AMBIGUOUS]
    assert run.reopen["units"] == {_AMBIGUOUS: "kg"}

    # A page opened before this one showed the run's end reopens it, in the chosen unit
    # (shown by no page yet: neither here nor, in the database, by another process's).
    run.delivered = False
    app_env.runs.update_one({"_id": run.id}, {"$set": {"delivered": False}})
    reloaded = _app("pages/inventory.py")
    assert _metric(reloaded, "Total") == "9,6 t CO2e (AR5)"
    assert _unit_choice(reloaded).value == "kg"


def test_a_conflict_is_confirmed_before_it_is_analysed(app_env):
    app = _inventory_page("conflito.xlsx", _workbook(_CONFLICTING))
    analyse = next(b for b in app.button if b.label == "Analisar e gerar o plano")
    assert analyse.disabled
    confirm = next(c for c in app.checkbox if c.label.startswith("Entendo que os totais"))
    assert confirm.label == "Entendo que os totais não conferem: Combustão"
    confirm.check().run()
    analyse = next(b for b in app.button if b.label == "Analisar e gerar o plano")
    assert not analyse.disabled
    read = next(d.value for d in app.dataframe if "Linhas lidas" in d.value.columns)
    status = dict(zip(read["Aba"], read["Situação"], strict=True))
    assert status == {
        "Eletricidade (localização)": "✓ Conferido",
        "Eletr. escolha de compra": "✓ Conferido",
        "Combustão": "✗ Conflito",
    }
    # the stated and computed figures of the conflicting sheet, from _CONFLICTING's cells
    combustion = read[read["Aba"] == "Combustão"].iloc[0]
    assert (combustion["Calculado (t CO2e)"], combustion["Planilha (t CO2e)"]) == (150.0, 200.0)

    analyse.click().run()
    assert not app.exception, app.exception
    notices = [w.value for w in app.warning if w.value.startswith("Atenção: inventário não")]
    # the SBCE readiness of the inventory, then the plan card and its SBCE readiness
    assert len(notices) >= 2 and all("Combustão (conflito)" in n for n in notices)
    stored = app_env.inventory.find_one({})
    assert stored["summary"]["not_reconciled"] == [{"sheet": "Combustão", "status": "conflict"}]


def test_a_reconciled_inventory_is_analysed_without_a_confirmation(app_env):
    from assets import SAMPLE_NAME, SAMPLE_PATH

    app = _inventory_page(SAMPLE_NAME, SAMPLE_PATH.read_bytes())
    assert not [c for c in app.checkbox if c.label.startswith("Entendo")]
    assert not next(b for b in app.button if b.label == "Analisar e gerar o plano").disabled
    assert not [w for w in app.warning if w.value.startswith("Atenção: inventário")]


def test_the_mapping_names_fields_as_a_person_reads_them(app_env):
    for lang, names in (
        ("pt", {"": "(não usada)", "facility": "Instalação", "emissions_t_gas:CO2":
                "Emissões CO2 (t)", "emissions_tco2e": "Emissões CO2e (t)"}),
        ("en", {"": "(not used)", "facility": "Facility", "emissions_t_gas:CO2":
                "CO2 emissions (t)", "emissions_tco2e": "CO2e emissions (t)"}),
    ):  # fmt: skip
        app = _inventory_page("conflito.xlsx", _workbook(_CONFLICTING), lang=lang)
        editor = app.data_editor[0]
        field = "Campo" if lang == "pt" else "Field"
        config = json.loads(editor.proto.columns)[field]["type_config"]["options"]
        labels = {option["value"]: option["label"] for option in config}
        assert {value: labels[value] for value in names} == names
        assert all(":" not in label and "_" not in label for label in labels.values())
        # the cells keep the canonical value the loader reads back
        assert "emissions_t_gas:CO2" in set(editor.value[field])
