"""The second knowledge file, engine/knowledge/data/knowledge_more.toml: its entries keep the
base's schema and rules (both languages, a source, no links or HTML), their ids are unique
across every file of the folder, the numbers they state are the domain's (GWPs from the
globalwarmingpotentials package, IPCC 2006 defaults, the arithmetic of their own worked
examples), and a question of our own in each language finds each entry first.

The search questions are not the entries' titles or keywords: each is checked against the
entry's text with the eval's twin detector, so a pass means the search generalises rather
than matches a copy."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import globalwarmingpotentials as gwp_data
import pytest

from engine.knowledge.search import search
from tests.test_eval_disjoint import Text, overlap, pieces

DATA = Path(__file__).resolve().parents[1] / "engine" / "knowledge" / "data"
MORE = DATA / "knowledge_more.toml"

FIELDS = {"id", "title_pt", "title_en", "keywords_pt", "keywords_en", "answer_pt", "answer_en",
          "source", "source_en"}  # fmt: skip
MIN_WORDS, MAX_WORDS = 80, 200
# Nothing a reader could click or a renderer could run: URLs, Markdown links and images, HTML.
FORBIDDEN = re.compile(r"https?://|www\.|!\[|\]\(|<[a-zA-Z/!][^<>]*>", re.IGNORECASE)

GWP = gwp_data.as_frame()


def _entries(path: Path) -> list[dict]:
    with path.open("rb") as handle:
        return tomllib.load(handle)["entry"]


MORE_ENTRIES = _entries(MORE)
BY_ID = {entry["id"]: entry for entry in MORE_ENTRIES}


def _pt(value: float, decimals: int = 0) -> str:
    """A number as Brazilian text writes it: 1.760; 29,6."""
    text = f"{value:,.{decimals}f}"
    return text.replace(",", "_").replace(".", ",").replace("_", ".")


def _en(value: float, decimals: int = 0) -> str:
    return f"{value:,.{decimals}f}"


def _gwp(gas: str, report: str) -> float:
    return float(GWP.loc[gas, f"{report}GWP100"])


# --- schema ------------------------------------------------------------------------------------


def test_the_file_holds_the_thirteen_entries_asked_for():
    assert len(MORE_ENTRIES) == 13


@pytest.mark.parametrize("entry", MORE_ENTRIES, ids=lambda e: e["id"])
def test_each_entry_has_the_base_schema_in_both_languages(entry):
    assert set(entry) == FIELDS
    assert re.fullmatch(r"[a-z0-9_]+", entry["id"])
    for lang in ("pt", "en"):
        assert entry[f"title_{lang}"].strip()
        keywords = entry[f"keywords_{lang}"]
        assert len(keywords) >= 5 and all(isinstance(k, str) and k.strip() for k in keywords)
        assert len(set(keywords)) == len(keywords)
        words = len(entry[f"answer_{lang}"].split())
        assert MIN_WORDS <= words <= MAX_WORDS, (lang, words)
    assert entry["answer_pt"] != entry["answer_en"]
    assert len(entry["source"]) > 20 and len(entry["source_en"]) > 20


@pytest.mark.parametrize("entry", MORE_ENTRIES, ids=lambda e: e["id"])
def test_no_entry_holds_a_link_an_image_or_html(entry):
    for field in sorted(FIELDS - {"id"}):
        values = entry[field] if isinstance(entry[field], list) else [entry[field]]
        for value in values:
            assert not FORBIDDEN.search(value), (field, value)


@pytest.mark.parametrize("entry", MORE_ENTRIES, ids=lambda e: e["id"])
def test_each_source_names_where_in_the_reference(entry):
    # A standard with its chapter, article, paragraph, table or clause, not just its name.
    assert re.search(r"\b(cap\.|art\.|parágrafo|tabela|cláusula|item|apêndice|versão)",
                     entry["source"]), entry["source"]  # fmt: skip


def test_ids_are_unique_across_every_knowledge_file():
    files = sorted(DATA.glob("*.toml"))
    assert MORE in files and len(files) >= 2
    ids = [entry["id"] for path in files for entry in _entries(path)]
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})


# --- the numbers are the domain's ------------------------------------------------------------


def test_gwps_stated_are_the_ipcc_values():
    checks = {
        "montreal_gases_reporting": [("HCFC22", "AR5"), ("HCFC22", "AR6")],
        "nf3_required_gases_2013": [("NF3", "AR5"), ("NF3", "AR6")],
    }
    for entry_id, gases in checks.items():
        entry = BY_ID[entry_id]
        for gas, report in gases:
            value = _gwp(gas, report)
            assert _pt(value) in entry["answer_pt"], (entry_id, gas, report)
            assert _en(value) in entry["answer_en"], (entry_id, gas, report)
    # The R-22 leak of the example: 10 kg at the AR5 GWP.
    leak = 10 * _gwp("HCFC22", "AR5") / 1000
    assert f"{_pt(leak, 1)} tCO2e" in BY_ID["montreal_gases_reporting"]["answer_pt"]
    assert f"{_en(leak, 1)} tCO2e" in BY_ID["montreal_gases_reporting"]["answer_en"]


def test_the_wood_chip_example_follows_the_ipcc_2006_defaults():
    # IPCC 2006 v. 2: NCV of wood 15.6 TJ/Gg (ch. 1 table 1.2); CO2 112,000 kg/TJ (table 1.4);
    # manufacturing CH4 30 and N2O 4 kg/TJ (ch. 2 table 2.3).
    energy_tj = 1000 * 15.6 / 1000
    ch4_kg, n2o_kg = energy_tj * 30, energy_tj * 4
    co2e_t = (ch4_kg * _gwp("CH4", "AR5") + n2o_kg * _gwp("N2O", "AR5")) / 1000
    biogenic_t = energy_tj * 112_000 / 1000
    entry = BY_ID["solid_biomass_ch4_n2o"]
    pt, en = entry["answer_pt"], entry["answer_en"]
    for text, fmt in ((pt, _pt), (en, _en)):
        assert "30 kg CH4/TJ" in text and "4 kg N2O/TJ" in text
        assert f"{fmt(energy_tj, 1)} TJ" in text
        assert f"{fmt(ch4_kg)} kg" in text and f"{fmt(n2o_kg, 1)} kg" in text
        assert f"{fmt(co2e_t, 1)} tCO2e" in text
        assert f"{fmt(biogenic_t)} t" in text
    assert "fora dos escopos" in pt and "escopo 1" in pt
    assert "outside the scopes" in en and "scope 1" in en


def test_the_equity_share_example_takes_the_stake_of_each_scope():
    stake, scope1, scope2 = 0.40, 50_000, 10_000
    entry = BY_ID["equity_share_worked_example"]
    for text, fmt in ((entry["answer_pt"], _pt), (entry["answer_en"], _en)):
        assert f"{fmt(stake * scope1)} tCO2e" in text
        assert f"{fmt(stake * scope2)} tCO2e" in text
        assert "100%" in text and "0%" in text


def test_the_sbti_example_applies_the_near_term_thresholds():
    # Near-term criteria: scope 3 target when scope 3 >= 40% of the total; coverage >= 67%;
    # 1.5 °C for scopes 1 and 2 at 4.2% a year, linear.
    scopes_12, scope_3, years = 20_000, 60_000, 10
    share = scope_3 / (scopes_12 + scope_3)
    assert share >= 0.40
    entry = BY_ID["sbti_scope3_coverage"]
    for text, fmt in ((entry["answer_pt"], _pt), (entry["answer_en"], _en)):
        assert f"{round(share * 100)}%" in text
        assert f"{fmt(0.67 * scope_3)} tCO2e" in text
        assert f"{round(4.2 * years)}%" in text
        assert "40%" in text and "67%" in text and "95%" in text
    assert "4,2%" in entry["answer_pt"] and "4.2%" in entry["answer_en"]


def test_the_regulatory_entries_state_their_dates_and_limits():
    cvm = BY_ID["cvm193_timeline_assurance"]
    assert "1º de janeiro de 2026" in cvm["answer_pt"] and "1 January 2026" in cvm["answer_en"]
    assert "razoável" in cvm["answer_pt"] and "reasonable" in cvm["answer_en"]
    assert "B21" in cvm["answer_pt"] and "AR6" in cvm["answer_en"]
    sbce = BY_ID["sbce_crve_offset_limit"]
    assert "Plano Nacional de Alocação" in sbce["answer_pt"]
    assert "National Allocation Plan" in sbce["answer_en"]
    assert "art. 21" in sbce["source"] and "15.042" in sbce["source"]


# --- a question of our own finds each entry first ----------------------------------------

QUESTIONS = {
    "nf3_required_gases_2013": [
        ("pt", "O que a emenda de 2013 do GHG Protocol mudou na lista de gases do inventário?"),
        ("en", "Which industries emit nitrogen trifluoride, and since when must it be in the "
               "inventory?")],
    "montreal_gases_reporting": [
        ("pt", "Nosso chiller antigo vaza HCFC-22; isso soma no escopo 1?"),
        ("en", "Our old chiller leaks HCFC-22: does that belong in the scope 1 total?")],
    "removals_reporting": [
        ("pt", "Plantamos 200 hectares de floresta nativa: posso descontar o carbono sequestrado "
               "do escopo 1?"),
        ("en", "We reforested our own land; can the sequestered carbon be subtracted from our "
               "scope 1?")],
    "offsets_disclosure": [
        ("pt", "Como apresento no relatório os créditos que aposentamos este ano?"),
        ("en", "How should retired credits be presented in our GHG report?")],
    "equity_share_worked_example": [
        ("pt", "Temos 40% de uma joint venture: quanto das emissões dela entra no nosso "
               "inventário?"),
        ("en", "We own a 40% stake in a joint venture; how much of its emissions do we report?")],
    "scope3_exclusions": [
        ("pt", "Posso deixar de fora do escopo 3 uma categoria que não é relevante para nós?"),
        ("en", "Can we leave a scope 3 category out of our report, and what must we disclose?")],
    "scope2_dual_reporting_instruments": [
        ("pt", "Quais critérios de qualidade um instrumento contratual precisa atender no "
               "escopo 2?"),
        ("en", "Which quality criteria must a contractual instrument satisfy under the Scope 2 "
               "Guidance?")],
    "leased_assets_control": [
        ("pt", "Alugamos um gerador a diesel e nós mesmos o operamos: em que escopo ficam as "
               "emissões?"),
        ("en", "We lease trucks and drive them with our own staff; which scope do they fall in?")],
    "solid_biomass_ch4_n2o": [
        ("pt", "Nossa caldeira queima cavaco de eucalipto: o que vai para o escopo 1?"),
        ("en", "Our boiler burns wood chips: what goes into scope 1 and what stays out?")],
    "cvm193_timeline_assurance": [
        ("pt", "A partir de quando a CVM 193 passa a ser obrigatória e que tipo de asseguração "
               "exige?"),
        ("en", "When does CVM 193 become mandatory and what level of assurance does it "
               "require?")],
    "sbti_scope3_coverage": [
        ("pt", "Nosso escopo 3 é 75% do total: a SBTi exige meta para ele e com que cobertura?"),
        ("en", "Our scope 3 is three quarters of our footprint: does SBTi require a target for "
               "it, and covering how much?")],
    "sbce_crve_offset_limit": [
        ("pt", "Uma instalação regulada pode entregar créditos CRVE em vez de cotas no SBCE? "
               "Existe limite?"),
        ("en", "Is there a cap on how many CRVEs a regulated installation may surrender in the "
               "SBCE?")],
    "agri_purchases_cat1": [
        ("pt", "Somos um laticínio: as emissões do leite cru comprado dos produtores entram "
               "onde?"),
        ("en", "We are a dairy company: where do the emissions of the raw milk we buy from "
               "farmers go?")],
}  # fmt: skip
CASES = [(entry_id, lang, q) for entry_id, asked in QUESTIONS.items() for lang, q in asked]


def test_every_entry_has_a_question_in_each_language():
    assert set(QUESTIONS) == set(BY_ID)
    assert all(sorted(lang for lang, _ in asked) == ["en", "pt"] for asked in QUESTIONS.values())


@pytest.mark.parametrize(("entry_id", "lang", "question"), CASES)
def test_the_questions_are_not_copies_of_the_entry(entry_id, lang, question):
    entry = BY_ID[entry_id]
    texts = [entry[f"title_{lang}"], *entry[f"keywords_{lang}"], entry[f"answer_{lang}"]]
    for text in texts:
        for piece in pieces(entry_id, text):
            assert overlap(Text("question", question), piece) is None, piece.raw


@pytest.mark.parametrize(("entry_id", "lang", "question"), CASES)
def test_a_question_of_our_own_finds_the_entry_first(entry_id, lang, question):
    found = search(question, lang)
    assert found.entries, question
    assert found.entries[0].id == entry_id, [e.id for e in found.entries]
