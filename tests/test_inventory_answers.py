"""The keyless analyst on a dairy's inventory of two plants: unnamed rows, gases by group,
refrigerants, a Montreal gas, a scope and a plant under AR6, two scopes of one plant, market
against location, estimated rows, and English answers that quote the workbook's labels.

The workbook is written here. Its Scope 2 and Scope 3 sheets have no source column (the
Scope 3 one has a description), and a "Qualidade do dado" / "Tipo de dado" column says which
rows were estimated. Every expected figure is summed here from the cells written below with
the IPCC GWPs (AR5, the inventory's set, and AR6 for the comparison); blends by their ASHRAE
34 mass fractions. Nothing expected is computed by the engine.
"""

from __future__ import annotations

import math

import pytest

from engine import Aeko, AekoMessenger, AekoSession, AekoUser, ToolCalled
from engine.formatting import number
from engine.inventory import load_inventory
from engine.inventory.query import query
from engine.inventory.tool import query_inventory
from engine.offline import OfflineAnalyst
from tests import inventory_fixtures as fx

USER = AekoUser(_id="64b8f0a1c9e1a2b3c4d5e6a9", id_external_user=1, role="", usecase="")

# IPCC GWP-100: AR5 (WG1 Ch. 8, Table 8.A.1) and AR6 (WG1 Ch. 7, Table 7.SM.7; CH4 with its
# origin not given).
AR5 = {"CO2": 1, "CH4": 28, "N2O": 265, "HFC-134a": 1300, "HFC-125": 3170, "HFC-143a": 4800,
       "HFC-32": 677, "SF6": 23500, "CF4": 6630, "HCFC-22": 1760}  # fmt: skip
AR6 = {"CO2": 1, "CH4": 27.9, "N2O": 273, "HFC-134a": 1530, "HFC-125": 3740, "HFC-143a": 5810,
       "HFC-32": 771, "SF6": 25200, "CF4": 7380, "HCFC-22": 1960}  # fmt: skip
BLENDS = {  # mass fractions, ASHRAE Standard 34
    "R-404A": {"HFC-125": 0.44, "HFC-143a": 0.52, "HFC-134a": 0.04},
    "R-410A": {"HFC-32": 0.5, "HFC-125": 0.5},
}
PFC_14 = "PFC-14"  # CF4, as the workbook writes it


def gwp(gas: str, table: dict[str, float]) -> float:
    if gas in BLENDS:
        return sum(share * table[part] for part, share in BLENDS[gas].items())
    return table["CF4" if gas == PFC_14 else gas]


UBERABA, PASSOS = "Fábrica Uberaba", "Laticínio Passos"
S1_HEADER = ["Unidade", "Fonte", "Combustível", "Gás", "Emissões (t)", "Qualidade do dado"]
S1_ROWS = [
    [UBERABA, "Caldeira a gás", "Gás natural", "CO2", 5200.0, "Medido"],
    [UBERABA, "Caldeira a gás", "Gás natural", "CH4", 0.1, "Medido"],
    [UBERABA, "Caldeira a gás", "Gás natural", "N2O", 0.01, "Medido"],
    [UBERABA, "Câmara fria", None, "R-404A", 0.05, "Estimado"],
    [UBERABA, "Chiller de água gelada", None, "HFC-134a", 0.02, "Medido"],
    [UBERABA, "Subestação", None, "SF6", 0.0005, "Estimado"],
    [UBERABA, "Estação de tratamento de efluentes", None, "CH4", 12.0, "Estimado"],
    [PASSOS, "Caldeira a biomassa", "Cavaco de eucalipto", "CH4", 0.8, "Medido"],
    [PASSOS, "Caldeira a biomassa", "Cavaco de eucalipto", "N2O", 0.1, "Medido"],
    [PASSOS, "Caldeira a biomassa", "Cavaco de eucalipto", "CO2 biogênico", 3100.0, "Medido"],
    [PASSOS, "Frota própria", "Óleo diesel", "CO2", 900.0, "Medido"],
    [PASSOS, "Ar-condicionado antigo", None, "HCFC-22", 0.03, "Estimado"],
    [PASSOS, "Túnel de congelamento", None, "R-410A", 0.01, "Medido"],
    [PASSOS, "Câmara de maturação", None, PFC_14, 0.001, "Medido"],
]
S2_HEADER = [
    "Unidade", "Energia (MWh)", "Emissões – localização (tCO2e)", "Emissões – mercado (tCO2e)",
    "Instrumento contratual", "Qualidade do dado",
]  # fmt: skip
S2_ROWS = [
    [UBERABA, 10000, 385.0, 0.0, "I-REC", "Medido"],
    [PASSOS, 4000, 154.0, 154.0, None, "Estimado"],
]
S3_HEADER = ["Categoria", "Descrição", "Emissões (tCO2e)", "Tipo de dado"]
S3_ROWS = [
    ["Categoria 4 – Transporte e distribuição (upstream)", "Coleta de leite nas fazendas", 2100.0,
     "Estimado"],
    ["Categoria 6 – Viagens a negócios", "Voos nacionais", 45.0, "Medido"],
    ["Categoria 9 – Transporte e distribuição (downstream)", "Entrega aos distribuidores", 1300.0,
     "Estimado"],
]  # fmt: skip
MONTREAL = {"HCFC-22"}
BIOGENIC = "CO2 biogênico"


def _s1(table: dict[str, float], site: str | None = None) -> list[tuple[list, float]]:
    """Scope 1 rows in the total with their t CO2e under ``table``."""
    return [
        (row, row[4] * gwp(row[3], table))
        for row in S1_ROWS
        if row[3] not in MONTREAL and row[3] != BIOGENIC and (site is None or row[0] == site)
    ]


def _sum(pairs) -> float:
    return math.fsum(t for _, t in pairs)


SCOPE_1 = _sum(_s1(AR5))
SCOPE_2 = math.fsum(row[2] for row in S2_ROWS)  # location-based: in the total
SCOPE_2_MARKET = math.fsum(row[3] for row in S2_ROWS)  # beside it
SCOPE_3 = math.fsum(row[2] for row in S3_ROWS)
TOTAL = SCOPE_1 + SCOPE_2 + SCOPE_3


def br(value: float, decimals: int = 1) -> str:
    return number(value, decimals, "pt")


def en(value: float, decimals: int = 1) -> str:
    return number(value, decimals, "en")


@pytest.fixture(scope="module")
def dairy():
    data = fx.xlsx({
        "Escopo 1": [S1_HEADER, *S1_ROWS],
        "Escopo 2": [S2_HEADER, *S2_ROWS],
        "Escopo 3": [S3_HEADER, *S3_ROWS],
    })  # fmt: skip
    loaded = load_inventory(data, filename="laticinio.xlsx")
    assert loaded.gwp_set == "AR5"
    assert loaded.total_tco2e == pytest.approx(TOTAL)  # the workbook reads as written
    return loaded


def _ask(question: str, inventory):
    analyst = OfflineAnalyst()
    Aeko.config(fast_model=analyst, slow_model=analyst)
    session = AekoSession(_id="64b8f0a1c9e1a2b3c4d5e6b9", id_user=USER.id, name="dairy")
    events = list(AekoMessenger(USER).stream(question, session, inventory=inventory))
    response = events[-1].result
    calls = [(e.tool, e.arguments) for e in events if isinstance(e, ToolCalled)]
    assert response.approved
    assert not response.unverified, response.unverified  # every figure on the trail
    return response.message.output, calls


def _not_given(answer: str) -> bool:
    return "(não informado)" in answer or "(not given)" in answer


# --- 1. rows without a source name ------------------------------------------------------------


def test_rows_without_a_source_are_named_by_what_they_hold_and_never_merged(dairy):
    result = query(dairy, group_by="source", top_n=50)
    names = dict(result.groups)
    assert "(não informado)" not in names
    # Scope 3 rows by their description; Scope 2 rows by their sheet and plant, apart.
    assert names["Coleta de leite nas fazendas"] == pytest.approx(2100.0)
    assert names["Entrega aos distribuidores"] == pytest.approx(1300.0)
    assert names["Escopo 2 (Fábrica Uberaba)"] == pytest.approx(385.0)
    assert names["Escopo 2 (Laticínio Passos)"] == pytest.approx(154.0)


def test_the_largest_sources_are_named_items(dairy):
    answer, _ = _ask("Quais são as 5 fontes que mais pesam no nosso inventário?", dairy)
    assert not _not_given(answer)
    boiler = _sum(p for p in _s1(AR5) if p[0][1] == "Caldeira a gás")
    for name, t in (("Caldeira a gás", boiler), ("Coleta de leite nas fazendas", 2100.0),
                    ("Entrega aos distribuidores", 1300.0), ("Frota própria", 900.0)):  # fmt: skip
        assert f"{name}: {br(t)}" in answer


# --- 2. by gas ------------------------------------------------------------------------------


def test_by_gas_gives_every_group_with_biogenic_and_montreal_apart(dairy):
    answer, calls = _ask("Como se dividem as nossas emissões entre os gases?", dairy)
    assert {"view": "gases"} in [args for _, args in calls]
    rows = _s1(AR5)

    def group(gases) -> float:
        return _sum(p for p in rows if p[0][3] in gases)

    hfcs = group({"R-404A", "HFC-134a", "R-410A"})
    assert f"CO2 fóssil: {br(group({'CO2'}))}" in answer
    assert f"CH4: {br(group({'CH4'}))}" in answer
    assert f"N2O: {br(group({'N2O'}))}" in answer
    assert f"HFCs: {br(hfcs)}" in answer and "R-404A" in answer and "HFC-134a" in answer
    assert f"PFCs: {br(group({PFC_14}))}" in answer
    assert f"SF6: {br(group({'SF6'}))}" in answer
    assert br(TOTAL) in answer
    # rows in t CO2e only are no gas; biogenic CO2 and HCFC-22 stand apart
    assert br(SCOPE_2 + SCOPE_3) in answer and not _not_given(answer)
    assert f"{br(3100.0)} t CO2" in answer and "fora do total" in answer
    assert "HCFC-22" in answer and br(0.03 * AR5["HCFC-22"]) in answer


@pytest.mark.parametrize(
    ("question", "write", "fossil"),
    [
        ("Split Scope 1 of this inventory by gas: CO2, CH4, N2O and the F-gases.", en,
         "fossil CO2"),
        # no "our", no "this inventory": with one attached, a breakdown asked for is its own
        ("Como o escopo 1 se divide por gás: CO2, CH4, N2O e gases fluorados?", br,
         "CO2 fóssil"),
    ],
)  # fmt: skip
def test_a_scope_by_the_gases_listed_keeps_co2_and_shares_of_that_scope(
    dairy, question, write, fossil
):
    answer, calls = _ask(question, dairy)
    assert any(args.get("scope") == "1" for _, args in calls)
    rows = _s1(AR5)
    assert f"{fossil}: {write(_sum(p for p in rows if p[0][3] == 'CO2'))}" in answer
    for gas in ("CH4", "N2O", "R-404A", "HFC-134a", "R-410A", "SF6"):
        assert f"{gas}: {write(_sum(p for p in rows if p[0][3] == gas))}" in answer
    fluorinated = _sum(p for p in rows if p[0][3] in ("R-404A", "HFC-134a", "R-410A", "SF6",
                                                      PFC_14))  # fmt: skip
    assert f"{write(fluorinated)} t CO2e" in answer  # the family asked for, summed
    assert write(SCOPE_1) in answer  # the share is of Scope 1 ...
    assert write(TOTAL) not in answer  # ... not of the whole inventory
    assert "HCFC-22" not in answer  # a Montreal gas is no member of the F-gases


# --- 3 and 4. refrigerants and R-22 -----------------------------------------------------------


def test_refrigerants_are_hfcs_and_pfcs_gas_by_gas_without_sf6(dairy):
    answer, _ = _ask("What do the refrigerants of our dairy plants add up to?", dairy)
    first = answer.splitlines()[-2] if "Montreal" in answer.splitlines()[-1] else answer
    for name, row_gas in (("R-404A", "R-404A"), ("HFC-134a", "HFC-134a"), ("R-410A", "R-410A")):
        t = _sum(p for p in _s1(AR5) if p[0][3] == row_gas)
        assert f"{name}: {en(t)} t CO2e" in first
    refrigerants = _sum(p for p in _s1(AR5) if p[0][3] in ("R-404A", "HFC-134a", "R-410A",
                                                            PFC_14))  # fmt: skip
    assert en(refrigerants) in first
    sf6 = _sum(p for p in _s1(AR5) if p[0][3] == "SF6")
    assert f"SF6: {en(sf6)}" not in answer  # switchgear insulation, not a refrigerant
    # HCFC-22: a refrigerant, but a Montreal gas, outside the total: 30 kg, 52.8 t CO2e
    assert "HCFC-22" in answer and "outside the total" in answer
    assert f"{en(30.0)} kg" in answer and en(0.03 * AR5["HCFC-22"]) in answer


def test_r22_is_said_to_be_a_montreal_gas_with_its_mass_and_co2e(dairy):
    answer, _ = _ask("Tem R-22 na planilha? Como ele entra na conta?", dairy)
    assert "Protocolo de Montreal" in answer and "fora" in answer and "nunca somado" in answer
    assert f"{br(30.0)} kg" in answer
    assert br(0.03 * AR5["HCFC-22"]) in answer
    assert "Ar-condicionado antigo" in answer


def test_a_question_naming_one_of_its_plants_is_about_the_attached_inventory(dairy):
    # no "our", no "this inventory": the plant's name says which inventory is meant
    answer, calls = _ask("O HCFC-22 que vazou em Passos está somado no total do inventário?", dairy)
    assert any(tool == "consultar_inventario" for tool, _ in calls)
    assert "Protocolo de Montreal" in answer and "nunca somado" in answer
    assert f"{br(30.0)} kg" in answer and br(0.03 * AR5["HCFC-22"]) in answer


# --- 5 and 6. a scope and a plant under AR6; two scopes of one plant --------------------------


def test_a_plant_scope_1_under_ar6_is_that_scope_and_plant_only(dairy):
    answer, calls = _ask("Our Uberaba plant, Scope 1: what would it be with AR6 GWPs?", dairy)
    views = [args for _, args in calls if args.get("view") == "gwp_sets"]
    assert views and all(v.get("scope") == "1" and v.get("facility") for v in views)
    ar5, ar6 = _sum(_s1(AR5, UBERABA)), _sum(_s1(AR6, UBERABA))
    assert f"AR6: {en(ar6)} t CO2e" in answer and en(ar5) in answer
    assert en(round(ar6, 1) - round(ar5, 1)) in answer  # the AR5 → AR6 gap
    assert en(TOTAL) not in answer  # never the whole inventory


def test_scope_1_under_ar6_per_plant_gives_each_plant(dairy):
    answer, _ = _ask("Escopo 1 de cada planta nossa recalculado em AR6", dairy)
    for site in (UBERABA, PASSOS):
        line = next(line for line in answer.splitlines() if line.startswith(f"- {site}"))
        assert f"AR6: {br(_sum(_s1(AR6, site)))}" in line
        assert br(_sum(_s1(AR5, site))) in line


def test_one_plant_scope_1_plus_scope_2_with_market_beside(dairy):
    answer, _ = _ask("Somando escopo 1 com escopo 2, quanto dá a unidade de Uberaba?", dairy)
    s1 = _sum(_s1(AR5, UBERABA))
    s2 = next(row[2] for row in S2_ROWS if row[0] == UBERABA)
    market = next(row[3] for row in S2_ROWS if row[0] == UBERABA)
    assert f"Escopo 1: {br(s1)}" in answer
    assert f"Escopo 2 (localização): {br(s2)}" in answer
    assert br(s1 + s2) in answer
    assert f"{br(market)} t CO2e, relatado ao lado, nunca somado" in answer


# --- 7. market against location ---------------------------------------------------------------


def test_market_based_scope_2_is_explained_by_what_the_workbook_shows(dairy):
    answer, _ = _ask("Our market-based electricity figure is much lower — how come?", dairy)
    assert en(SCOPE_2) in answer and en(SCOPE_2_MARKET) in answer
    assert "contractual instruments" in answer and "I-REC" in answer
    assert "“Instrumento contratual”: “I-REC” (“Fábrica Uberaba”)" in answer


# --- 8. estimated rows ------------------------------------------------------------------------


def test_estimated_rows_are_listed_from_the_workbooks_own_column(dairy):
    answer, calls = _ask("Which figures in our inventory were estimated rather than measured?",
                         dairy)  # fmt: skip
    assert any(args.get("quality") for _, args in calls)
    s1 = [p for p in _s1(AR5) if p[0][5] == "Estimado"]
    s2 = [row[2] for row in S2_ROWS if row[5] == "Estimado"]
    s3 = [row[2] for row in S3_ROWS if row[3] == "Estimado"]
    assert en(_sum(s1) + math.fsum(s2) + math.fsum(s3)) in answer
    for row, t in s1:
        assert f"“{row[1]}” (“{row[0]}”, Scope 1): {en(t)} t CO2e" in answer
    assert "“Coleta de leite nas fazendas” (Scope 3): 2,100.0" in answer
    assert "“Ar-condicionado antigo”" in answer and "outside the total" in answer
    for measured in ("Caldeira a gás", "Frota própria", "Voos nacionais", "Chiller"):
        assert measured not in answer


def test_the_tool_filters_rows_by_their_data_quality(dairy):
    call = {"args": {"quality": "estimado", "top_n": 50}, "name": "consultar_inventario",
            "id": "q1", "type": "tool_call"}  # fmt: skip
    text = query_inventory.invoke(call, config={"configurable": {"inventory": dairy}}).content
    assert "Câmara fria" in text and "Coleta de leite nas fazendas" in text
    assert "Caldeira a gás" not in text


# --- 9. English answers quote the workbook; Scope 3 categories in English ---------------------


def test_english_answers_quote_the_workbooks_labels(dairy):
    answer, _ = _ask("Rank the five biggest emission sources in this inventory.", dairy)
    assert "“Caldeira a gás”" in answer and "“Coleta de leite nas fazendas”" in answer


def test_a_scope_3_category_in_english_keeps_the_workbook_label_quoted(dairy):
    answer, _ = _ask("Scope 3 category 9: how much does it weigh for us?", dairy)
    assert "Category 9 – Downstream transportation and distribution" in answer
    assert "(“Categoria 9 – Transporte e distribuição (downstream)”)" in answer
    assert en(1300.0) in answer


def test_a_scope_3_category_not_held_is_said_plainly_naming_those_held(dairy):
    answer, _ = _ask("What about Scope 3 category 1, purchased goods, in our figures?", dairy)
    assert "category 1 (Purchased goods and services) is not included in this inventory" in answer
    for n, name in ((4, "Upstream transportation and distribution"), (6, "Business travel"),
                    (9, "Downstream transportation and distribution")):  # fmt: skip
        assert f"category {n} – {name}" in answer
    assert "Bens e serviços" not in answer


def test_scopes_1_and_2_for_each_plant_leave_scope_3_out(dairy):
    answer, _ = _ask("Scope 1 and Scope 2 for each of our plants, please", dairy)
    for site in (UBERABA, PASSOS):
        s1 = _sum(_s1(AR5, site))
        s2 = next(row[2] for row in S2_ROWS if row[0] == site)
        line = next(line for line in answer.splitlines() if line.startswith(f"- “{site}”"))
        assert f"{en(s1)} + Scope 2 (location-based): {en(s2)} = {en(s1 + s2)}" in line
    assert "(not given)" not in answer  # Scope 3 rows name no plant: not a line of this sum


def test_a_scope_given_in_co2e_only_is_the_same_under_every_gwp_set(dairy):
    answer, _ = _ask("E o nosso escopo 2, como fica no AR6?", dairy)
    assert f"{br(SCOPE_2)} t CO2e em qualquer conjunto de GWP" in answer


def test_a_source_named_in_full_is_that_source_alone(dairy):
    answer, _ = _ask("Quanto a nossa caldeira a gás emite?", dairy)
    boiler = _sum(p for p in _s1(AR5) if p[0][1] == "Caldeira a gás")
    assert br(boiler) in answer
    assert "Laticínio Passos" not in answer  # its biomass boiler is another source


# --- a second layout: one sheet, a yes/no "Estimado?" column, R-22 in t CO2e only ----------

YES_NO_HEADER = ["Planta", "Escopo", "Fonte de emissão", "Gás", "Emissões (tCO2e)", "Estimado?"]
YES_NO_ROWS = [
    ["Planta Sul", "Escopo 1", "Caldeira 1", "CO2", 1000.0, "Não"],
    ["Planta Sul", "Escopo 1", "Câmaras frias", "R-404A", 150.0, "Sim"],
    ["Planta Norte", "Escopo 1", "Ar-condicionado do escritório", "HCFC-22", 35.2, "Sim"],
    ["Planta Norte", "Escopo 2", None, None, 300.0, "Não"],
    ["Planta Sul", "Escopo 3", None, None, 500.0, "Sim"],
]


@pytest.fixture(scope="module")
def yes_no():
    data = fx.xlsx({"Inventário": [YES_NO_HEADER, *YES_NO_ROWS]})
    return load_inventory(data, filename="sim_nao.xlsx")


def test_a_yes_in_a_column_named_estimated_marks_the_row(yes_no):
    answer, _ = _ask("Quais linhas da planilha foram estimadas?", yes_no)
    estimated = [row for row in YES_NO_ROWS if row[5] == "Sim" and row[3] != "HCFC-22"]
    assert br(math.fsum(row[4] for row in estimated)) in answer
    assert "Câmaras frias" in answer and "Caldeira 1" not in answer
    assert "Ar-condicionado do escritório" in answer and "fora do total" in answer


def test_r22_given_in_co2e_only_is_apart_without_a_made_up_mass(yes_no):
    answer, _ = _ask("Our R-22: is it in the total?", yes_no)
    assert "Montreal Protocol" in answer and "never added" in answer
    assert en(35.2) in answer and " kg" not in answer
