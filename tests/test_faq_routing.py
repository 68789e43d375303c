"""Concept and regulatory questions in words nobody wrote for the offline analyst (issue #23).

Each question is phrased here, not copied from an entry's keywords or an intent example: it
must reach the FAQ (not the gas comparison, the plan or "no inventory attached") and the
answer must state the domain fact asked for (GHG Protocol, IPCC, Lei 15.042/2024, CVM 193,
IFRS S2, SBTi). A value nobody has published is "I don't know", whatever words ask for it.
"""

from __future__ import annotations

import tomllib
from datetime import date
from pathlib import Path

import pytest

from engine import AekoMessenger, AekoSession
from engine.agents.catalog import FAQ, ROUTER
from engine.knowledge.search import data_files, entries, search, tokens
from engine.offline.agents import asks_about_own_data
from engine.offline.intent import classify
from engine.offline.language import detect_language
from engine.protocol import fold

DATA = Path(__file__).resolve().parents[1] / "engine" / "knowledge" / "data"


def _ask(analyst, question: str) -> tuple[list[str], str]:
    response = AekoMessenger(analyst).send_message(question, AekoSession())
    return response.agents_called, fold(response.message.output)


def _has_any(text: str, *phrases: str) -> bool:
    return any(fold(phrase) in text for phrase in phrases)


# --- every knowledge file is read, and ids are unique across them --------------------------


def test_every_toml_in_the_data_folder_is_loaded_and_ids_are_unique_across_files():
    files = sorted(path.name for path in DATA.glob("*.toml"))
    assert sorted(data_files()) == files
    assert data_files()[0] == "knowledge_base.toml"
    ids = [
        item["id"]
        for name in files
        for item in tomllib.loads((DATA / name).read_text(encoding="utf-8")).get("entry", [])
    ]
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})
    assert [entry.id for entry in entries()] == ids


def test_a_refrigerant_and_a_gas_are_one_term_however_written():
    assert tokens("R-22", "en") == tokens("R22", "en") == ["r22"]
    assert tokens("HCFC-22", "pt")[-1] == "r22"
    assert tokens("nitrous oxide", "en") == tokens("N2O", "en")
    assert tokens("óxido nitroso", "pt") == tokens("N2O", "pt")


# --- routing: a concept asked in its own words reaches the FAQ -----------------------------


@pytest.mark.parametrize(
    "question",
    [
        "Which greenhouse gases are listed under the Kyoto Protocol?",
        "Quais gases o Protocolo de Quioto obriga a inventariar?",
        "Which gases does a company GHG inventory have to include?",
        "What does the Montreal Protocol regulate, and does it matter for our inventory?",
        "What are the SBTi criteria for a near-term target?",
        "Quais critérios a SBTi exige para validar metas de curto prazo?",
        "What must listed companies disclose under CVM Resolution 193?",
        "O que a Resolução CVM 193 exige das companhias abertas?",
        "Can we skip a few Scope 3 categories in our report?",
        "Posso deixar de fora algumas categorias do escopo 3?",
        "Does buying cattle from ranches count as purchased goods and services?",
        "Can the company subtract the carbon its own forest absorbs from its emissions?",
        "Suppose we hold 30% of a consortium: how much of its emissions is ours to report?",
        "By when does the SBTi expect a scope 3 target to be in place?",
        "How do the solar panels on our warehouse roof show up in the inventory?",
        "Can we claim zero scope 2 by retiring renewable energy certificates?",
    ],
)
def test_a_concept_or_rule_question_is_a_concept(question):
    assert classify(question) == "concept"


@pytest.mark.parametrize(
    "question",
    [
        "What is the nicest beach in Bahia?",
        "Explain the rules of chess.",
        "O que é um soneto?",
    ],
)
def test_a_question_framed_as_a_concept_is_still_off_topic(question):
    assert classify(question) == "out_of_scope"


@pytest.mark.parametrize(
    ("question", "intent"),
    [
        # Weighing gases or sources stays the pollutants analyst's; asking for options the
        # green analyst's; building a plan the coordinator's, whatever standard it names.
        ("Which gas weighs most in tonnes of CO2e, methane or nitrous oxide?", "pollutants"),
        ("Qual gás tem o maior GWP?", "pollutants"),
        ("Monte um plano para atingir as metas da SBTi até 2030", "plan"),
        ("What can replace the diesel in our backup generators?", "green"),
    ],
)
def test_weighing_options_and_plans_keep_their_agents(question, intent):
    assert classify(question) == intent


@pytest.mark.parametrize(
    ("question", "own"),
    [
        ("How should the company account for the removals of a forest it planted?", False),
        ("Como devemos contabilizar o eucalipto que plantamos nas nossas fazendas?", False),
        ("How much did our boilers emit in 2023?", True),
        ("Quanto emitimos no escopo 1 no ano passado?", True),
        ("We run four mills in Goiás and Bahia. Which of them fall under the SBCE?", True),
        ("Temos duas usinas; quais delas entram no SBCE?", True),
        # Its own figures: the rule applied to them (engine.offline.regulation).
        ("Our mills emit 9,000 and 31,000 t CO2e a year: which fall under the SBCE?", False),
    ],
)
def test_own_figures_versus_how_the_accounting_works(question, own):
    assert asks_about_own_data(question) is own


# --- answers: the FAQ states the fact asked for ---------------------------------------------


@pytest.mark.parametrize(
    ("question", "facts"),
    [
        ("Which greenhouse gases are listed under the Kyoto Protocol?", [("NF3",), ("SF6",)]),
        ("Quais gases o Protocolo de Quioto obriga a inventariar?", [("NF3",), ("CH4",)]),
        ("How is HCFC-22 leaking from old chillers handled in a GHG inventory?",
         [("Montreal",)]),
        ("Como o gás R-22 vazado de um ar-condicionado antigo aparece no inventário?",
         [("Montreal",)]),
        ("What does the tonne of CO2e express? And one tonne of nitrous oxide is worth what?",
         [("265", "273")]),
        ("O que indica a unidade CO2e? Uma tonelada de óxido nitroso vale quanto?",
         [("265", "273")]),
        ("What sort of events make a company restate its base-year inventory?",
         [("acquisition", "merger"), ("methodolog",)]),
        ("Que tipo de mudança obriga a refazer o ano-base do inventário?",
         [("aquisic", "fus"), ("metodologia",)]),
        ("An investment holding owns minority stakes in other firms: where in Scope 3 do "
         "their emissions go?", [("category 15", "investments")]),
        ("A dairy buys raw milk from family farms. Is that Scope 3 category 1?",
         [("category 1",)]),
        ("We lease a diesel generator and our own staff operate it. Which scope is it?",
         [("scope 1",), ("operational control",)]),
        ("What must listed companies disclose under CVM Resolution 193?", [("IFRS S2",)]),
        ("What are the SBTi criteria for a near-term target?", [("4.2", "4,2")]),
        ("Quais critérios a SBTi exige para validar metas de curto prazo?", [("4,2", "4.2")]),
        ("Can CRVEs be handed in to settle SBCE obligations, and is their use capped?",
         [("CRVE",), ("Plano Nacional de Alocacao", "National Allocation Plan")]),
        ("Can we skip a few Scope 3 categories in our report?", [("justif",)]),
        ("The office we rent has its power bill in our name: which scope is that electricity?",
         [("scope 2",)]),
        ("How do the solar panels on our warehouse roof show up in the inventory?",
         [("scope 2",), ("solar",)]),
        ("Our 60%-owned subsidiary: do its emissions enter our inventory?",
         [("control",), ("equity share",)]),
        ("In one word only - what is Scope 2?", [("scope 2",), ("electricity",)]),
        ("Responda com uma única palavra: o que é o escopo 1?", [("escopo 1",), ("diretas",)]),
    ],
)  # fmt: skip
def test_the_faq_answers_with_the_fact_asked_for(offline, analyst, question, facts):
    agents, answer = _ask(analyst, question)
    assert agents == [ROUTER, FAQ]
    assert not _has_any(answer, "nao sei", "don't know", "inventario anexado", "no inventory")
    for group in facts:
        assert _has_any(answer, *group), (group, answer[:300])


def test_a_future_allocation_is_not_known_even_asked_about_our_plant(offline, analyst):
    agents, answer = _ask(analyst, "How many free CBEs will our kiln receive in 2031?")
    assert agents == [ROUTER, FAQ]
    assert _has_any(answer, "don't know") and "2031" in answer
    agents, answer = _ask(analyst, "Quantas cotas gratuitas o SBCE vai distribuir em 2032?")
    assert agents == [ROUTER, FAQ]
    assert _has_any(answer, "nao sei") and "2032" in answer


def test_which_of_our_plants_the_sbce_covers_needs_their_figures(offline, analyst):
    agents, answer = _ask(
        analyst, "We run four mills in Goiás and Bahia. Which of them fall under the SBCE?"
    )
    assert agents == [ROUTER, FAQ]
    assert _has_any(answer, "no inventory is attached") and _has_any(answer, "inventory page")
    assert "10,000" in answer and "25,000" in answer  # the law's thresholds, per installation


def test_a_question_with_its_own_tonnage_gets_the_rule_applied(offline, analyst):
    agents, answer = _ask(
        analyst, "Our mills emit 9,000 and 31,000 t CO2e a year: which fall under the SBCE?"
    )
    assert agents == [ROUTER, FAQ]
    assert "31,000" in answer and "9,000" in answer
    assert not _has_any(answer, "no inventory")


def test_a_year_in_the_question_is_no_concept_the_base_lacks():
    question = "Vendemos uma unidade em 2024; o ano-base de 2019 precisa ser refeito?"
    found = search(question, detect_language(question), today=date(2026, 1, 15))
    assert [entry.id for entry in found.entries][:1] == ["recalculation"]


@pytest.mark.parametrize(
    ("question", "words"),
    [
        ("How many allowances will regulated plants get for free in the first phase?",
         ("don't know", "national allocation plan")),
        ("Quantas cotas gratuitas cada instalação regulada vai receber?",
         ("nao sei", "alocacao")),
    ],
)  # fmt: skip
def test_an_allocation_not_yet_planned_is_not_known(offline, analyst, question, words):
    agents, answer = _ask(analyst, question)
    assert agents == [ROUTER, FAQ]
    assert all(word in answer for word in words)


def test_how_many_allowances_a_plant_surrenders_is_the_law_s_rule():
    question = "How many allowances does an installation above the threshold surrender?"
    found = search(question, detect_language(question), today=date(2026, 6, 1))
    assert found.gap is None and not found.weak


def test_a_persons_name_in_the_question_is_no_concept_the_base_lacks():
    from engine.knowledge.search import search, without_names

    assert "Montreal" in without_names("Como fica o Protocolo de Montreal no inventário?")
    assert "Carla" not in without_names("Quais gases entram no escopo 1 da Carla?")
    found = search("Quais gases entram no escopo 1 da Carla?", "pt")
    assert not found.weak and found.entries[0].id == "scope1"
