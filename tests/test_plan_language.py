"""An improvement plan is written in the language the user works in (issue #25, "one language at
a time"): an English user's plan carries no Portuguese sentence and uses English notation; a
Portuguese user's reads as it always did. Its three headings stay the protocol's (the plan
card and the exports translate them by the interface language), so a real model asked for
English is told so in one line, and told to keep the headings."""

from __future__ import annotations

import re

import pytest

from application import inventories, runs
from application.analysis_request import AnalysisRequest
from application.inventories import PlanEnded
from application.outbox import Outbox, journal_for
from application.runs import RemoteRun
from application.worker import Worker
from application.workspace import Workspace
from engine import Aeko, AekoImprovementPlan, AekoInventoryAnalyzer, AgentFinished
from engine.agents.catalog import (
    COORDINATOR,
    GREEN_GASES_ANALYST,
    INVENTORY_ANALYST,
    POLLUTANTS_ANALYST,
)
from engine.gases.gwp import DEFAULT_CH4_ORIGIN
from engine.inventory import DEFAULT_GWP_SET
from engine.models.scripted import ScriptedChatModel
from tests.test_runs import WAIT_S

# Scope 1: 1 240 t CO2 from the boiler's diesel; Scope 2: 800 t CO2 from grid electricity;
# the chiller's 0.05 t of HFC-134a is 65 t CO2e (GWP 1 300, AR5) with its scope left blank, a
# data-quality finding. Total 2 105 t CO2e: 58.9%, 38.0% and 3.1%; the three sources are all
# of it. No facility is given.
INVENTORY = (
    "| Escopo | Fonte | Combustível | Gás | Emissões (t) |\n|---|---|---|---|---|\n"
    "| 1 | Caldeira | Óleo diesel | CO2 | 1240 |\n"
    "| 2 | Rede | Eletricidade | CO2 | 800 |\n"
    "|  | Chiller | — | HFC-134a | 0,05 |"
)
PORTUGUESE = (" de ", "emissões", "Escopo", "escopo", "redução", "Redução", "não", "inventário",
              " com ", "ação", "ações", "Ações", "custo", "Prazo", "Medida", " para ")  # fmt: skip
ENGLISH = ("Scope", "Reduction", "reduction", "inventory", "emissions", "Measure", "cost unknown",
           "finding", "not stated")  # fmt: skip
# The SBCE law is cited by its official title, in its own words, in either language.
LAW_TITLE = re.compile(r"Lei nº 15\.042, de 11 de dezembro de 2024")
PT_NUMBER = re.compile(r"\d\.\d{3},\d|\d,\d%")  # 2.105,0 / 58,9%
EN_NUMBER = re.compile(r"\d,\d{3}\.\d|\d\.\d%")  # 2,105.0 / 58.9%


def _sections(plan: AekoImprovementPlan) -> dict[str, str]:
    return {"defined_problem": plan.defined_problem, "method": plan.method,
            "reasoning": plan.reasoning}  # fmt: skip


def _portuguese_in(text: str) -> list[str]:
    return [word for word in PORTUGUESE if word in LAW_TITLE.sub("", text)]


def test_an_english_plan_has_no_portuguese_word_and_english_notation(offline):
    plan = AekoInventoryAnalyzer().analyze(INVENTORY, id_external_inventory=1, language="en")
    assert plan.defined_problem == (
        "The inventory adds up to 2,105.0 t CO2e (GWP AR5). By scope: Scope 1: 1,240.0 t CO2e "
        "(58.9%); Scope 2: 800.0 t CO2e (38.0%); (not stated): 65.0 t CO2e (3.1%). The largest "
        "sources — Caldeira (CO2, 1,240.0 t CO2e, 58.9%), Rede (CO2, 800.0 t CO2e, 38.0%), "
        "Chiller (HFC134a, 65.0 t CO2e, 3.1%) — account for 100.0% of emissions. Before fixing "
        "targets, correct 1 data-quality finding(s), such as: Unknown scope in rows 4."
    )
    for field, text in _sections(plan).items():
        assert not _portuguese_in(text), field
        assert not PT_NUMBER.search(text), field
    assert EN_NUMBER.search(plan.method) and EN_NUMBER.search(plan.reasoning)
    # The diesel boiler's line of the action table: its baseline is the boiler's 1,240 t.
    assert "| Caldeira · CO2 | 1 | 1,240.0 |" in plan.method
    assert plan.unverified_numbers == []  # English notation reads as the computed figures


def test_every_agent_of_an_english_analysis_writes_english(offline):
    events = list(AekoInventoryAnalyzer().stream(INVENTORY, id_external_inventory=1,
                                                 language="en"))  # fmt: skip
    texts = {e.agent: e.text for e in events if isinstance(e, AgentFinished)}
    assert set(texts) == {INVENTORY_ANALYST, POLLUTANTS_ANALYST, GREEN_GASES_ANALYST, COORDINATOR}
    for agent, text in texts.items():
        assert not _portuguese_in(text), agent
        assert not PT_NUMBER.search(text), agent
    assert texts[INVENTORY_ANALYST].startswith("Inventory total: 2,105.0 t CO2e (GWP AR5).")
    # The coordinator's plan keeps the protocol's headings, in Portuguese, that parse it.
    assert [line for line in texts[COORDINATOR].splitlines() if line.startswith("## ")] == [
        "## Problema definido",
        "## Método",
        "## Raciocínio",
    ]


def test_a_portuguese_plan_reads_as_it_always_did(offline):
    told = AekoInventoryAnalyzer().analyze(INVENTORY, id_external_inventory=1, language="pt")
    default = AekoInventoryAnalyzer().analyze(INVENTORY, id_external_inventory=1)
    assert _sections(told) == _sections(default)  # no language given: Portuguese
    assert told.defined_problem == (
        "O inventário soma 2.105,0 t CO2e (GWP AR5). Por escopo: Escopo 1: 1.240,0 t CO2e "
        "(58,9%); Escopo 2: 800,0 t CO2e (38,0%); (não informado): 65,0 t CO2e (3,1%). As "
        "maiores fontes — Caldeira (CO2, 1.240,0 t CO2e, 58,9%), Rede (CO2, 800,0 t CO2e, "
        "38,0%), Chiller (HFC134a, 65,0 t CO2e, 3,1%) — concentram 100,0% das emissões. Antes "
        "de fixar metas, corrija 1 apontamento(s) de qualidade dos dados, como: Escopo "
        "desconhecido nas linhas 4."
    )
    assert "| Caldeira · CO2 | 1 | 1.240,0 |" in told.method
    assert "Redução" in told.method and "custo desconhecido" in told.method
    assert "Redução no total do inventário" in told.reasoning
    assert "regras do GHG Protocol" in told.reasoning
    for field, text in _sections(told).items():
        assert not [word for word in ENGLISH if word in text], field
        assert not EN_NUMBER.search(text), field
    assert told.unverified_numbers == []


# --- what a real model is told -------------------------------------------------------------

ENGLISH_PLAN = (
    "## Problema definido\nThe diesel boiler emits 1,240 t CO2e, 58.9% of the inventory.\n\n"
    "## Método\nReplace part of the diesel with B100 biodiesel.\n\n"
    "## Raciocínio\nBiodiesel removes the fossil CO2 of the replaced fraction.\n"
    "Next agent: Nenhum"
)


def _scripted() -> ScriptedChatModel:
    slow = ScriptedChatModel(
        model_name="fake-slow",
        record=True,
        script={
            INVENTORY_ANALYST: ["Inventory read.\nNext agent: Analista de Poluentes"],
            POLLUTANTS_ANALYST: ["CO2 dominates.\nNext agent: Orquestrador"],
            GREEN_GASES_ANALYST: ["B100 for the diesel.\nNext agent: FAQ"],
            COORDINATOR: [ENGLISH_PLAN],
        },
    )
    Aeko.config(fast_model=ScriptedChatModel(model_name="fake-fast"), slow_model=slow)
    return slow


def _prompt(model: ScriptedChatModel, agent: str) -> str:
    return model.calls_for(agent)[0].messages[-1].text


def test_a_model_asked_for_english_is_told_so_and_to_keep_the_headings():
    slow = _scripted()
    plan = AekoInventoryAnalyzer().analyze(INVENTORY, id_external_inventory=1, language="en")
    prompt = _prompt(slow, COORDINATOR)
    told = [line for line in prompt.splitlines() if "in English" in line]
    assert len(told) == 1
    for heading in ("`## Problema definido`", "`## Método`", "`## Raciocínio`"):
        assert heading in told[0]
    # Every agent of the flow writes in the user's language, not the coordinator alone.
    for agent in (INVENTORY_ANALYST, POLLUTANTS_ANALYST, GREEN_GASES_ANALYST):
        assert told[0] in _prompt(slow, agent)
    # An English body under the protocol's headings is a complete plan.
    assert plan.defined_problem.startswith("The diesel boiler emits 1,240 t CO2e")
    assert plan.method == "Replace part of the diesel with B100 biodiesel."


def test_a_portuguese_run_s_request_is_not_told_any_language():
    slow = _scripted()
    AekoInventoryAnalyzer().analyze(INVENTORY, id_external_inventory=1, language="pt")
    agents = (INVENTORY_ANALYST, POLLUTANTS_ANALYST, GREEN_GASES_ANALYST, COORDINATOR)
    portuguese = {agent: _prompt(slow, agent) for agent in agents}
    slow = _scripted()
    AekoInventoryAnalyzer().analyze(INVENTORY, id_external_inventory=1)
    for agent, prompt in portuguese.items():
        assert "English" not in prompt and "inglês" not in prompt
        assert "Idioma:" not in prompt
        assert prompt == _prompt(slow, agent)  # the same request as with no language given


# --- the application -----------------------------------------------------------------------

CSV = "Escopo,Fonte,Gás,t CO2e\n1,Caldeira a diesel,CO2,1240\n1,Frota,CO2,310\n".encode()


def _read():
    return inventories.load(
        "frota.csv", CSV, gwp_set=DEFAULT_GWP_SET, ch4_origin=DEFAULT_CH4_ORIGIN
    )


@pytest.fixture
def workspace(db_store) -> Workspace:
    user = db_store.users.get_or_create(2525, role="ESG analyst")
    return Workspace(db_store, user, Outbox())


def test_an_english_user_s_analysis_is_an_english_plan(workspace, offline):
    items = list(inventories.analyse(workspace, "frota.csv", CSV, _read(), language="en"))
    ended = items[-1]
    assert isinstance(ended, PlanEnded) and ended.status == "planned"
    # 1,240 + 310 = 1,550 t CO2e, all Scope 1.
    assert ended.plan.defined_problem.startswith("The inventory adds up to 1,550.0 t CO2e")
    for text in _sections(ended.plan).values():
        assert not _portuguese_in(text)


def test_a_worker_writes_the_plan_in_the_page_s_language(db_store, tmp_path, offline):
    folder = tmp_path / "page"
    folder.mkdir()
    user = db_store.users.get_or_create(2626, role="ESG analyst")
    page = Workspace(db_store, user, Outbox(journal_for(folder)), runs_in_worker=True)
    reading = {"name": "frota.csv", "data": CSV, "sheets": ["frota.csv"],
               "gwp_set": DEFAULT_GWP_SET, "ch4_origin": DEFAULT_CH4_ORIGIN}  # fmt: skip
    run = runs.analyse(page, "frota.csv", CSV, _read(), digest="sha-en", reopen=reading,
                       language="en")  # fmt: skip
    assert isinstance(run, RemoteRun)
    assert db_store.runs(None).get(run.id)["request"]["language"] == "en"
    (tmp_path / "worker").mkdir()
    worker = Worker(db_store, tmp_path / "worker")
    assert worker.claim_one()
    ended = list(run.follow())[-1]
    worker.wait_idle(WAIT_S)
    assert isinstance(ended, PlanEnded) and ended.status == "planned"
    assert ended.plan.defined_problem.startswith("The inventory adds up to 1,550.0 t CO2e")


def test_an_analysis_request_keeps_its_language_and_an_old_one_is_portuguese(db_store):
    reading = {"name": "frota.csv", "gwp_set": DEFAULT_GWP_SET, "ch4_origin": DEFAULT_CH4_ORIGIN}
    request = AnalysisRequest.of("66aa00000000000000000002", reading, None, None, "en")
    assert request is not None and request.language == "en"
    db_store.db.probe.insert_one({"_id": "r", "request": request.document()})
    back = AnalysisRequest.from_document(db_store.db.probe.find_one({"_id": "r"})["request"])
    assert back == request and back.language == "en"
    # A request stored before the language travelled with it: its plans were Portuguese.
    old = {key: value for key, value in request.document().items() if key != "language"}
    assert AnalysisRequest.from_document(old).language == "pt"


def test_the_inventory_page_in_english_saves_an_english_plan(app_env):
    from tests.app_pages import inventory_page

    app = inventory_page("frota.csv", CSV, lang="en")
    next(b for b in app.button if b.label == "Analyse and write the plan").click().run()
    assert not app.exception, app.exception
    plan = app_env.improvement_plan.find_one({})
    assert plan["defined_problem"].startswith("The inventory adds up to 1,550.0 t CO2e")
    for field in ("defined_problem", "method", "reasoning"):
        assert not _portuguese_in(plan[field]), field
    assert plan["defined_problem"] in " ".join(m.value for m in app.markdown)
