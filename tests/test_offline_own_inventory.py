"""The attached inventory answers questions about itself, offline: every figure of the answer
comes from a consultar_inventario or calcular call on the trail, filtered to what was asked,
and what the inventory lacks is said, naming what it holds.

The workbook is written here; each expected figure is computed by hand from its rows with the
IPCC AR5 GWPs (CH4 28, N2O 265, HFC-134a 1 300, R-410A 1 923,5, SF6 23 500) and, for the
AR6 comparison, AR6's (CH4 27,9, N2O 273, HFC-134a 1 530, R-410A 2 255,5, SF6 25 200).
"""

import pytest

from engine import Aeko, AekoMessenger, AekoSession, AekoUser, ToolCalled
from engine.inventory import load_inventory
from engine.inventory.tool import render_view
from engine.offline import OfflineAnalyst
from engine.offline.own_data import asks_about_attached, own_data_reply
from tests import inventory_fixtures as fx

USER = AekoUser(_id="64b8f0a1c9e1a2b3c4d5e6f1", id_external_user=1, role="", usecase="")
HEADER = ["Escopo", "Categoria", "Unidade", "Fonte", "Combustível", "Gás", "Emissões (t)", "Ano"]
ROWS = [
    # Usina Norte, Scope 1: 12 000 + 0,5·28 + 0,2·1 300 + 40·28 + 1·265 + 0,1·28 = 13 661,8
    [1, "Combustão estacionária", "Usina Norte", "Caldeira 1", "Gás natural", "CO2", 12000, 2024],
    [1, "Combustão estacionária", "Usina Norte", "Caldeira 1", "Gás natural", "CH4", 0.5, 2024],
    [1, "Emissões fugitivas", "Usina Norte", "Chiller central", None, "HFC-134a", 0.2, 2024],
    [1, "Efluentes", "Usina Norte", "Estação de tratamento de efluentes", None, "CH4", 40, 2024],
    [1, "Efluentes", "Usina Norte", "Estação de tratamento de efluentes", None, "N2O", 1, 2024],
    [1, "Combustão estacionária", "Usina Norte", "Gerador", "Óleo diesel", "CH4", 0.1, 2024],
    # Usina Sul, Scope 1: 30 000 + 2 500 + 0,2·1 923,5 + 0,001·23 500 = 32 908,2
    [1, "Combustão estacionária", "Usina Sul", "Forno de cal", "Óleo combustível", "CO2", 30000,
     2024],
    [1, "Combustão móvel", "Usina Sul", "Frota de caminhões", "Óleo diesel", "CO2", 2500, 2024],
    [1, "Emissões fugitivas", "Usina Sul", "Ar-condicionado split", None, "R-410A", 0.2, 2024],
    [1, "Emissões fugitivas", "Usina Sul", "Disjuntores", None, "SF6", 0.001, 2024],
    # Scope 2: 800 + 1 200 = 2 000; Scope 3: 150
    [2, "Eletricidade", "Usina Norte", "Rede elétrica", "Eletricidade", "CO2", 800, 2024],
    [2, "Eletricidade", "Usina Sul", "Rede elétrica", "Eletricidade", "CO2", 1200, 2024],
    [3, "Viagens a negócios", "Escritório Central", "Voos nacionais", None, "CO2", 150, 2024],
]  # fmt: skip
SCOPE_1, SCOPE_2, SCOPE_3 = 46_570.0, 2_000.0, 150.0
TOTAL = 48_720.0  # 46 570 + 2 000 + 150


@pytest.fixture(scope="module")
def inventory():
    data = fx.xlsx({"Inventário 2024": [HEADER, *ROWS]})
    loaded = load_inventory(data, filename="usinas.xlsx")
    assert loaded.total_tco2e == pytest.approx(TOTAL)  # the workbook reads as written
    return loaded


def _ask(question, inventory):
    analyst = OfflineAnalyst()
    Aeko.config(fast_model=analyst, slow_model=analyst)
    session = AekoSession(_id="64b8f0a1c9e1a2b3c4d5e6f3", id_user=USER.id, name="inv")
    events = list(AekoMessenger(USER).stream(question, session, inventory=inventory))
    response = events[-1].result
    calls = [(e.tool, e.arguments) for e in events if isinstance(e, ToolCalled)]
    assert response.approved
    assert not response.unverified  # every number backed by what the run read
    return response.message.output, calls, response


def _inventory_calls(calls):
    return [args for tool, args in calls if tool == "consultar_inventario"]


def _calculations(calls):
    return [args["expressao"] for tool, args in calls if tool == "calcular"]


@pytest.mark.parametrize(
    ("question", "lang"),
    [
        ("Quanto os refrigerantes desta planilha emitem?", "pt"),
        ("How much do the refrigerants in the attached file emit?", "en"),
    ],
)
def test_refrigerants_are_the_hfc_rows_summed_by_the_calculator(inventory, question, lang):
    answer, calls, response = _ask(question, inventory)
    assert {"view": "gases"} in _inventory_calls(calls)
    # HFC-134a 0,2·1 300 = 260 and R-410A 0,2·1 923,5 = 384,7, in the inventory's order
    assert any(set(e.split(" + ")) == {"260.0", "384.7"} for e in _calculations(calls))
    expected = "644,7" if lang == "pt" else "644.7"
    share = "1,3%" if lang == "pt" else "1.3%"  # 644,7 / 48 720
    assert expected in answer and share in answer
    assert "SF6" not in answer.split("CO2e", 1)[0]  # switchgear gas is no refrigerant
    assert any("view=gases" in source.label for source in response.sources)


def test_methane_from_effluents_is_the_effluent_rows_only(inventory):
    answer, calls, _ = _ask("How much methane comes from effluents at our plants?", inventory)
    asked = _inventory_calls(calls)
    assert any(a.get("gas") == "CH4" and a.get("source") == "efluent" for a in asked)
    assert "1,120.0" in answer  # 40 t CH4 × 28, not all methane (1 136,8)
    assert "1,136.8" not in answer


def test_the_total_without_scope_3_is_computed_on_the_trail(inventory):
    answer, calls, _ = _ask("Qual o total desta planilha sem o escopo 3?", inventory)
    assert "46570.0 + 2000.0" in _calculations(calls)
    assert "48.570,0" in answer and "99,7%" in answer  # 48 570 / 48 720
    assert "150,0" in answer  # what Scope 3 holds


def test_a_named_plant_is_filtered_to_that_facility(inventory):
    answer, calls, _ = _ask("How much does Usina Sul emit, by scope?", inventory)
    assert any(a.get("facility") == "sul" for a in _inventory_calls(calls))
    assert "34,108.2" in answer  # 32 908,2 in Scope 1 + 1 200 in Scope 2
    assert "13,661.8" not in answer  # Usina Norte's Scope 1


def test_scope_breakdown_and_top_sources_in_portuguese(inventory):
    answer, calls, _ = _ask("Quais são as 3 maiores fontes do inventário anexado?", inventory)
    assert any(a.get("top_n") == 3 and a.get("group_by") == "source"
               for a in _inventory_calls(calls))  # fmt: skip
    assert "Forno de cal: 30.000,0" in answer
    assert "Caldeira 1: 12.014,0" in answer  # 12 000 CO2 + 0,5 t CH4 × 28
    assert "Frota de caminhões: 2.500,0" in answer


def test_the_gwp_sets_are_compared_with_the_gap_computed(inventory):
    answer, calls, _ = _ask("How would this inventory's total change under AR6 vs AR5?", inventory)
    assert any(a.get("view") == "gwp_sets" for a in _inventory_calls(calls))
    # AR6: 46 650 CO2 + 40,6 t CH4 × 27,9 + 273 + 0,2 × 1 530 + 0,2 × 2 255,5 + 25,2
    assert "48,838.0" in answer and "48,720.0" in answer
    assert "118.0" in answer  # 48 838,0 − 48 720,0


def test_a_year_the_inventory_lacks_is_said_naming_the_year_it_has(inventory):
    answer, _, _ = _ask("Quanto emitimos em 2019?", inventory)
    assert "2019" in answer and "2024" in answer
    assert "não traz dados" in answer
    assert "48.720,0" in answer  # what 2024 holds


def test_a_scope_3_category_not_reported_names_the_ones_reported(inventory):
    answer, _, _ = _ask(
        "How much does Scope 3 category 7 (employee commuting) add in this inventory?", inventory
    )
    assert "does not report" in answer
    assert "Business travel: 150.0" in answer


def test_costs_are_not_in_the_inventory(inventory):
    answer, _, _ = _ask("Qual o custo das emissões desta planilha?", inventory)
    assert "não traz custos" in answer
    assert "48.720,0" in answer


def test_levers_start_from_the_largest_rows_and_the_computed_reductions(inventory):
    answer, calls, _ = _ask("Where should we cut first? What are the levers here?", inventory)
    tools = [tool for tool, _ in calls]
    assert "consultar_inventario" in tools and "estimar_reducoes" in tools
    assert "Forno de cal: 30,000.0" in answer
    # the five largest sources: 30 000 + 12 014 + 2 500 + 2 000 (the grid, both plants) +
    # 1 385 (the effluent station, 40·28 + 265) = 47 899, 98,3% of 48 720
    assert "47,899.0" in answer and "98.3%" in answer


def test_data_quality_and_reconciliation_come_from_their_views(inventory):
    answer, calls, _ = _ask("A planilha tem erros ou problemas de qualidade dos dados?", inventory)
    assert {"view": "findings"} in _inventory_calls(calls)
    assert "Situação da conferência" in answer
    answer, calls, _ = _ask("Which sheets were checked, and do they reconcile?", inventory)
    assert {"view": "sheets"} in _inventory_calls(calls)
    assert "Inventário 2024" in answer


def test_sbce_is_applied_to_each_installation_of_the_inventory(inventory):
    for question, lang in (("Quais unidades deste inventário entram no SBCE?", "pt"),
                           ("Which of our plants fall under the SBCE?", "en")):  # fmt: skip
        reply = own_data_reply(question, inventory, lang)
        assert [u.args for u in reply.uses] == [{"view": "facility_scope"}]
        tool_text, _ = render_view(inventory, "facility_scope", {})
        assert "13.661,8" in tool_text and "32.908,2" in tool_text  # what the trail shows
        lines = reply.text.splitlines()
        sul = next(line for line in lines if line.startswith("- Usina Sul"))
        norte = next(line for line in lines if line.startswith("- Usina Norte"))
        office = next(line for line in lines if line.startswith("- Escritório Central"))
        # above 25 000 t: allowances; between 10 000 and 25 000: report only; no Scope 1: none
        assert ("CBE" in sul) and ("CBE" not in norte) and ("CBE" not in office)
        assert ("relato" in norte) if lang == "pt" else ("report" in norte)


@pytest.mark.parametrize(
    ("question", "about"),
    [
        ("Quanto emite esta planilha no escopo 2?", True),
        ("What does the attached file say about methane?", True),
        ("Quais unidades aparecem no arquivo?", True),
        ("Which sheets have error cells?", True),
        ("How much do the boilers emit?", True),
        ("O que é o escopo 3?", False),
        ("What is biogenic CO2?", False),
        ("Monte um plano de redução com metas para 2030", False),
    ],
)
def test_questions_about_the_inventory_are_told_by_more_than_possessives(question, about):
    assert asks_about_attached(question) is about


def test_two_subjects_of_one_field_are_queried_apart_and_summed(inventory):
    answer, calls, _ = _ask("Quanto emitem a caldeira e o gerador da Usina Norte?", inventory)
    asked = _inventory_calls(calls)
    assert any(a.get("source") == "caldeira" and a.get("facility") == "norte" for a in asked)
    assert any(a.get("source") == "gerador" for a in asked)
    assert "12014.0 + 2.8" in _calculations(calls)  # 12 000 + 0,5·28; 0,1·28
    assert "12.016,8" in answer
