"""Issue #23, points 3 and 5: the entries an expert review found missing or wrong (CBAM,
SBTi near-term targets, which GWP set to use, base-year recalculation and the yearly grid
factor, Scope 3 category 5 under the recycled-content method), found by questions of our
own in Portuguese and English and stating the facts of their sources; the user's default GWP
set; and the knowledge base's date checks judged on the run's date, never the wall clock."""

from __future__ import annotations

import ast
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from application import inventories, profile
from application.outbox import Outbox
from application.workspace import Workspace
from engine import AekoUser
from engine.agents.catalog import FAQ
from engine.agents.request import AgentRequest
from engine.agents.system_prompt import temporal_context, temporal_date
from engine.budget import BudgetTracker
from engine.graph import context as graph_context
from engine.inventory.errors import UnknownGwpSetError
from engine.knowledge.gaps import Gap, unpublished
from engine.knowledge.search import entries, search
from engine.knowledge.tool import NOTHING_FOUND, TODAY_KEY, TOOL_NAME, consult_knowledge_base
from engine.offline import agents as offline_agents
from engine.offline.language import detect_language
from engine.runtime import RUNTIME
from tests.chiller_options import names_a_chiller_option

ROOT = Path(__file__).resolve().parents[1]


def _entry(entry_id: str):
    return next(e for e in entries() if e.id == entry_id)


def _found(question: str) -> list[str]:
    return [e.id for e in search(question, detect_language(question)).entries]


# --- each new or corrected entry answers questions asked in both languages ---------------

# (question, the entry that must come first, facts its text in the question's language states)
QUESTIONS = [
    # CBAM: Regulation (EU) 2023/956; transitional period Oct 2023–2025 (quarterly reports),
    # definitive since 1 January 2026 (declarants surrender certificates); Annex I goods.
    ("Exportamos aço para a Alemanha: o que o CBAM exige de nós a partir de 2026?", "cbam",
     ["2023/956", "1º de janeiro de 2026", "declarante CBAM autorizado", "certificados CBAM",
      "aço", "importador europeu"]),
    ("Quais dados de emissões incorporadas o importador europeu pede a uma fábrica de "
     "cimento brasileira por causa do CBAM?", "cbam",
     ["emissões incorporadas por tonelada", "indiretas", "cimento e fertilizantes",
      "preço de carbono efetivamente pago no país de origem"]),
    ("Which goods does the EU carbon border adjustment mechanism cover, and what happened "
     "in the transitional period?", "cbam",
     ["iron and steel", "aluminium", "cement", "fertilisers", "hydrogen", "electricity",
      "quarterly reports", "1 October 2023", "31 December 2025"]),
    ("We sell aluminium to a buyer in Italy. What will they need from us under CBAM now "
     "that the definitive period has started?", "cbam",
     ["Definitive period (since 1 January 2026)", "embedded emissions per tonne",
      "carbon price actually paid in the country of origin", "accredited verifier"]),
    # SBTi near-term criteria: 5–10 years; scopes 1+2 at 1.5 °C (≈4.2 %/yr linear);
    # a scope 3 target when scope 3 ≥ 40 % of the total, covering two thirds of it.
    ("Quais são os critérios da SBTi para uma meta de curto prazo?", "sbti_targets",
     ["5 a 10 anos", "4,2%", "1,5 °C", "40%", "67%", "à parte"]),
    ("A minha empresa precisa de meta de escopo 3 na SBTi se a cadeia de valor é metade "
     "das emissões?", "sbti_targets", ["40% ou mais", "dois terços", "bem abaixo de 2 °C"]),
    ("How much must scope 1 and 2 emissions fall each year for an SBTi 1.5 °C near-term "
     "target?", "sbti_targets",
     ["must fall by at least about 4.2% each year", "95%", "5 to 10 years"]),
    ("Do science based targets treat scope 3 separately from scopes 1 and 2?",
     "sbti_targets", ["set and tracked separately", "40% or more", "two thirds (67%)"]),
    # Which GWP set: IFRS S2 B21 (latest IPCC assessment at the reporting date: AR6), CVM
    # 193 (mandatory for listed companies from fiscal 2026), the Program's tool version.
    ("Para o relato da CVM 193, devo converter os gases com o AR5 ou com o AR6?",
     "gwp_which_set",
     ["parágrafo B21", "AR6", "1º de janeiro de 2026", "versão da ferramenta",
      "recálculo do ano-base"]),
    ("Qual GWP o Programa Brasileiro GHG Protocol usa?", "gwp_which_set",
     ["versão da ferramenta de cálculo", "informa o relatório do IPCC"]),
    ("Which IPCC assessment report's GWPs does IFRS S2 require?",
     ("gwp_which_set", "cvm193_ifrs_s2"),  # both state B21's rule
     ["B21", "latest IPCC assessment available at the reporting date", "AR6"]),
    ("Should a listed Brazilian company switch its inventory from AR5 to AR6?",
     "gwp_which_set", ["CVM Resolution 193/2023", "1 January 2026", "AR6", "Settings"]),
    # Base-year recalculation: structural changes, methodology changes, significant errors;
    # a yearly grid factor reflecting a real change in the grid is none of them.
    ("O MCTI publicou o fator do SIN deste ano: tenho que recalcular o ano-base?",
     "recalculation", ["não gera recálculo", "mudança real", "fator do próprio ano"]),
    ("Does the new annual grid emission factor mean we must recalculate our base year?",
     "recalculation",
     ["Nor does the routine yearly update of the grid emission factor", "real change",
      "not an error or a methodology change"]),
    # Scope 3 category 5, recycled-content method: recycling processes go to the user of the
    # recycled material; the generator counts the transport.
    ("O papelão que mandamos para reciclagem entra como na categoria 5 do escopo 3?",
     "scope3_cat05",
     ["conteúdo reciclado", "quem usa o material reciclado", "só o transporte"]),
    ("Under the recycled content method, what does the waste generator report for "
     "materials sent to recycling?", "scope3_cat05",
     ["user of the recycled material", "only the transport to the recycler"]),
]  # fmt: skip


@pytest.mark.parametrize(("question", "entry_id", "facts"), QUESTIONS)
def test_each_entry_is_found_for_a_natural_question_and_states_the_facts(question, entry_id, facts):
    lang = detect_language(question)
    found = search(question, lang)
    accepted = (entry_id,) if isinstance(entry_id, str) else entry_id
    assert found.entries and found.entries[0].id in accepted, _found(question)
    text = found.entries[0].text(lang)
    missing = [fact for fact in facts if fact not in text]
    assert not missing, missing


def test_both_languages_of_each_new_entry_cite_their_sources():
    for entry_id, cited in [
        ("cbam", ["Regulamento (UE) 2023/956", "2023/1773"]),
        ("sbti_targets", ["Corporate Net-Zero Standard", "Near-Term Criteria"]),
        ("gwp_which_set", ["IFRS S2", "B21", "CVM nº 193/2023", "Programa Brasileiro"]),
        ("recalculation", ["Corporate Accounting and Reporting Standard", "cap. 5",
                           "Scope 2 Guidance"]),
        ("scope3_cat05", ["Technical Guidance for Calculating Scope 3 Emissions",
                          "conteúdo reciclado"]),
    ]:  # fmt: skip
        entry = _entry(entry_id)
        assert all(source in entry.source["pt"] for source in cited), entry_id
        for lang, label in (("pt", "Fonte"), ("en", "Source")):
            assert f"{label}: {entry.source[lang]} [{entry_id}]" in entry.text(lang)


def test_recycling_no_longer_charges_the_generator_with_the_processing():
    entry = _entry("scope3_cat05")
    assert "o transporte e o processamento atribuídos" not in entry.answer["pt"]
    assert "transport and processing attributed" not in entry.answer["en"]


def test_a_new_emission_factor_is_no_longer_listed_as_a_recalculation_trigger():
    entry = _entry("recalculation")
    assert "novos fatores de emissão" not in entry.answer["pt"]
    assert "new emission factors" not in entry.answer["en"]
    # And the grid-factor entry says it where people ask about the factor.
    grid = _entry("sin_grid_factor")
    assert "não obriga a recalcular o ano-base" in grid.answer["pt"]
    assert "does not require recalculating the base year" in grid.answer["en"]


def test_every_entry_that_names_a_gwp_set_to_use_says_which_applies_where():
    """Wherever the base states the set an inventory should use, it states IFRS S2 B21's
    latest-assessment rule, CVM 193 and the Program's tool version together."""
    for entry_id in ("gwp", "ipcc_sets", "gwp_which_set"):
        entry = _entry(entry_id)
        for lang, words in (
            ("pt", ("B21", "CVM 193", "AR6", "versão da ferramenta")),
            ("en", ("B21", "CVM Resolution 193", "AR6", "calculation tool")),
        ):
            text = entry.answer[lang]
            assert all(word in text for word in words), (entry_id, lang)


# --- the analyst's own answer about chillers is judged by the domain's options -------------


@pytest.mark.parametrize(
    "answer",
    [
        "Troque o HFC-134a do chiller por HFO R-1234ze(E) na renovação do equipamento.",
        "For centrifugal chillers, R-514A or R-1233zd(E) replace HFC-134a.",
        "Uma mistura R-513A (GWP ~573 no AR5) serve como retrofit do chiller.",
        "Large industrial chillers can run on ammonia (R-717).",
        "Enquanto o chiller não é trocado, reduza vazamentos com inspeções de estanqueidade.",
    ],
)
def test_a_correct_chiller_only_answer_passes_the_chiller_checks(answer):
    assert names_a_chiller_option(answer)


@pytest.mark.parametrize(
    "answer",
    [
        "Use R-1234yf no chiller.",  # the vehicle air-conditioning refrigerant
        "Troque o HFC-134a por R-404A.",  # a higher-GWP HFC
        "Compre créditos de carbono.",
    ],
)
def test_a_wrong_chiller_answer_fails_the_chiller_checks(answer):
    assert not names_a_chiller_option(answer)


# --- dates: the run's, from its temporal context, never the wall clock ---------------------

NEXT_YEAR = "Qual será o fator de emissão do SIN de 2027?"


def test_a_year_is_still_to_come_up_to_the_last_day_before_it():
    assert unpublished(NEXT_YEAR, date(2026, 12, 31)) == Gap("future", "2027")
    assert unpublished(NEXT_YEAR, date(2027, 1, 1)) is None
    assert unpublished("What cap will the SBCE set for 2027?", date(2026, 12, 31)) == Gap(
        "future", "2027"
    )
    assert unpublished("What cap will the SBCE set for 2027?", date(2027, 1, 1)) is None


def test_without_a_run_date_no_year_is_judged_but_reports_and_prices_still_are():
    assert unpublished(NEXT_YEAR, None) is None
    assert unpublished("Qual o GWP do metano no AR7?", None) == Gap("report", "AR7")
    assert unpublished("Quanto custa uma CBE?", None) == Gap("price")


def test_the_gap_module_never_reads_the_wall_clock():
    tree = ast.parse((ROOT / "engine/knowledge/gaps.py").read_text())
    calls = {
        node.func.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
    }
    assert not calls & {"today", "now", "utcnow"}


@pytest.mark.parametrize(
    ("now", "expected"),
    [
        (datetime(2026, 12, 31, 23, 59, tzinfo=UTC), date(2026, 12, 31)),  # a Thursday
        (datetime(2027, 1, 1, 0, 0, tzinfo=UTC), date(2027, 1, 1)),
        (datetime(2024, 2, 29, 12, 0, tzinfo=UTC), date(2024, 2, 29)),
    ],
)
def test_the_run_date_is_read_back_from_the_temporal_context(now, expected):
    assert temporal_date(temporal_context(now)) == expected


def test_no_temporal_context_gives_no_date():
    assert temporal_date("") is None
    assert temporal_date("# Contexto Temporal\nsem data") is None


def test_the_knowledge_tool_judges_a_year_on_the_run_s_date():
    call = {"name": TOOL_NAME, "args": {"pergunta": NEXT_YEAR}, "id": "c", "type": "tool_call"}
    before = consult_knowledge_base.invoke(call, {"configurable": {TODAY_KEY: date(2026, 12, 31)}})
    assert before.content.startswith(NOTHING_FOUND) and "2027" in before.content
    assert before.artifact == []
    after = consult_knowledge_base.invoke(call, {"configurable": {TODAY_KEY: date(2027, 1, 1)}})
    assert "2027, ainda não publicado" not in after.content
    assert "for 2027, not published yet" not in after.content


def test_the_request_carries_the_date_of_the_state_s_temporal_context():
    state = {"request": NEXT_YEAR, "temporal": temporal_context(datetime(2026, 12, 31, tzinfo=UTC))}
    request = graph_context.structured_request(state, "chat", FAQ)
    assert request.today == date(2026, 12, 31)
    assert graph_context.structured_request({"request": "?"}, "chat", FAQ).today is None


def _faq_answer(today: date) -> str:
    request = AgentRequest(agent=FAQ, flow="chat", successors=(), question=NEXT_YEAR, today=today)
    return offline_agents.faq(request)


def test_the_offline_faq_answers_on_the_request_s_date_on_both_sides_of_new_year():
    before = _faq_answer(date(2026, 12, 31))
    assert "Não sei" in before and "2027" in before
    assert "ainda não foi publicado" in before
    # From 1 January, 2027 is the current year: no longer a value still to come.
    assert "ainda não foi publicado" not in _faq_answer(date(2027, 1, 1))


def _run_on(offline, now: datetime) -> str:
    state = {"request": NEXT_YEAR, "context": "", "temporal": temporal_context(now), "attempt": 1}
    runs = RUNTIME.run("chat", state, budget=BudgetTracker(None))
    while True:
        try:
            next(runs)
        except StopIteration as done:
            return done.value.get("answer", "")


def test_a_whole_run_judges_next_year_on_its_temporal_context(offline):
    before = _run_on(offline, datetime(2026, 12, 31, 22, 0, tzinfo=UTC))
    assert "Não sei" in before and "2027" in before and "ainda não foi publicado" in before
    after = _run_on(offline, datetime(2027, 1, 1, 1, 0, tzinfo=UTC))
    assert "ainda não foi publicado" not in after


# --- the user's default GWP set ----------------------------------------------------------

# 10 t CH4 and 100 t CO2: 100 + 10 × 28 (AR5) = 380 t CO2e; 100 + 10 × 27.9 (AR6 general,
# IPCC AR6 WG1 table 7.SM.7) = 379 t CO2e.
GAS_CSV = "Fonte,Gás,Emissão (t)\nAterro,CH4,10\nCaldeira,CO2,100\n".encode()


@pytest.fixture
def workspace(db_store) -> Workspace:
    user = db_store.users.get_or_create(2323, role="Analista ESG")
    return Workspace(db_store, user, Outbox())


def test_a_new_user_reads_inventories_with_the_product_s_default(workspace):
    assert profile.default_gwp_set(workspace) == "AR5"


def test_a_user_sets_ar6_as_default_and_it_is_kept_in_their_profile_document(workspace):
    assert profile.set_default_gwp_set(workspace, "ar6") == "AR6"
    document = workspace.store.db["user"].find_one({"id_external_user": 2323})
    assert document["default_gwp_set"] == "AR6"
    assert document["role"] == "Analista ESG"  # the rest of the profile untouched
    # Another session of the same user (a new sign-in) reads the same default.
    again = workspace.store.users.get_or_create(2323)
    assert profile.default_gwp_set(Workspace(workspace.store, again, Outbox())) == "AR6"
    # And another user keeps theirs.
    other = workspace.store.users.get_or_create(2324)
    assert profile.default_gwp_set(Workspace(workspace.store, other, Outbox())) == "AR5"


def test_the_default_is_the_set_an_inventory_is_loaded_with(workspace):
    def loaded():
        chosen = profile.default_gwp_set(workspace)
        return inventories.load("gases.csv", GAS_CSV, gwp_set=chosen, ch4_origin="general")

    before = loaded()
    assert before.gwp_set == "AR5" and before.total_tco2e == pytest.approx(380.0)
    profile.set_default_gwp_set(workspace, "AR6")
    after = loaded()
    assert after.gwp_set == "AR6" and after.total_tco2e == pytest.approx(379.0)


def test_an_unknown_set_is_refused_and_the_default_kept(workspace):
    profile.set_default_gwp_set(workspace, "AR6")
    with pytest.raises(UnknownGwpSetError):
        profile.set_default_gwp_set(workspace, "AR7")
    assert profile.default_gwp_set(workspace) == "AR6"


class _UsersDown:
    def default_gwp_set(self, user_id):
        from store import StoreUnavailableError

        raise StoreUnavailableError("down")


class _StoreWithUsersDown:
    users = _UsersDown()


def test_with_the_database_away_the_product_s_default_holds():
    user = AekoUser(_id="64b8f0a1c9e1a2b3c4d5e6f1", id_external_user=9, role="")
    assert profile.default_gwp_set(Workspace(_StoreWithUsersDown(), user, Outbox())) == "AR5"
