"""Writes tests/data/blind_inventory.xlsx: the workbook the blind eval set asks about.

    .venv/bin/python -m tests.eval.make_blind_inventory [OUTPUT]

A fictitious dairy (Laticínios Campo Alto S.A.) with two plants and a distribution centre,
year 2024, laid out as a Brazilian consultancy would hand it over and unlike the sample:
a summary sheet first, one Scope 1 sheet whose rows carry a category column (stationary,
mobile, fugitive, effluents), Scope 2 with both the location and the market figure on each
row, Scope 3 by category, biogenic CO2 in its own column, a Montreal gas in a separate
table after the Scope 1 total, and a 'TOTAL' row closing each table.

The emissions are computed here from the activity data with IPCC 2006 / BEN factors and
AR5 GWPs and written as plain values (no formulas, so that a reader with data_only sees
them). The eval never trusts this module: tests/eval/harness.py reads its expected figures
from the cells, and tests/test_eval_blind.py recomputes a few from the domain.
"""

from __future__ import annotations

import sys
from pathlib import Path

import openpyxl
from openpyxl.styles import Font

ROOT = Path(__file__).resolve().parents[2]
OUTPUT = ROOT / "tests" / "data" / "blind_inventory.xlsx"

CARAMBEI = "Unidade Carambeí (PR)"
PATOS = "Unidade Patos de Minas (MG)"
JUNDIAI = "CD Jundiaí (SP)"

# AR5, 100 years (IPCC AR5 WG1 table 8.A.1); blends by mass fraction of their components.
GWP = {"CH4": 28, "N2O": 265, "SF6": 23_500, "HFC-134a": 1_300, "HCFC-22": 1_760,
       "R-404A": 0.44 * 3_170 + 0.52 * 4_800 + 0.04 * 1_300, "R-410A": (677 + 3_170) / 2,
       "CO2": 1}  # fmt: skip
KCAL = 4.1868e-6  # GJ per kcal

# (GJ per unit of quantity, fossil CO2 t/TJ, biogenic CO2 t/TJ, CH4 kg/TJ, N2O kg/TJ)
# IPCC 2006 vol. 2 tables 1.2, 1.4, 2.2-2.4, 3.2.1-3.2.2; BEN 2024 heating values.
NATURAL_GAS = (8_800 * KCAL, 56.1, 0.0, 1.0, 0.1)  # per m³
WOOD_CHIPS = (15.6, 0.0, 112.0, 30.0, 4.0)  # per t
FUEL_OIL = (40.4, 77.4, 0.0, 3.0, 0.6)  # per t
LPG_KITCHEN = (47.3, 63.1, 0.0, 5.0, 0.1)  # per t, commercial
LPG_FORKLIFT = (47.3, 63.1, 0.0, 62.0, 0.2)  # per t, off-road
HYDRATED_ETHANOL = (0.809 * 6_300 * KCAL, 0.0, 70.8, 18.0, 0.0)  # per L


def _diesel_b14(liters: float, ch4: float, n2o: float) -> tuple[float, float, float, float]:
    """Fossil CO2, biogenic CO2, CH4 and N2O (t) of diesel B with 14% biodiesel by volume."""
    fossil_tj = liters * 0.86 * 0.840 * 10_100 * KCAL / 1e3
    bio_tj = liters * 0.14 * 0.880 * 9_000 * KCAL / 1e3
    tj = fossil_tj + bio_tj
    return fossil_tj * 74.1, bio_tj * 70.8, tj * ch4 / 1e3, tj * n2o / 1e3


def _fuel(quantity: float, factors: tuple[float, ...]) -> tuple[float, float, float, float]:
    gj_per_unit, fossil, biogenic, ch4, n2o = factors
    tj = quantity * gj_per_unit / 1e3
    return tj * fossil, tj * biogenic, tj * ch4 / 1e3, tj * n2o / 1e3


STATIONARY, MOBILE, FUGITIVE, EFFLUENTS = (
    "Combustão estacionária",
    "Combustão móvel",
    "Emissões fugitivas",
    "Efluentes",
)

# (installation, category, source, fuel or gas, quantity, unit, data origin, gases)
# gases: (fossil CO2 t, biogenic CO2 t, CH4 t, N2O t) for combustion and effluents;
# a fugitive row's mass of its gas is its quantity in kg.
SCOPE1 = [
    (CARAMBEI, STATIONARY, "Torre de secagem (spray dryer) – leite em pó", "Gás natural",
     11_500_000, "m³", "Medidor da distribuidora", _fuel(11_500_000, NATURAL_GAS)),
    (CARAMBEI, STATIONARY, "Caldeira 1 – vapor de processo", "Cavaco de eucalipto",
     21_400, "t", "Nota fiscal (balança)", _fuel(21_400, WOOD_CHIPS)),
    (CARAMBEI, STATIONARY, "Caldeira reserva", "Gás natural",
     1_120_000, "m³", "Medidor da distribuidora", _fuel(1_120_000, NATURAL_GAS)),
    (CARAMBEI, STATIONARY, "Gerador de emergência", "Óleo diesel B14",
     18_500, "litros", "Nota fiscal", _diesel_b14(18_500, 3.0, 0.6)),
    (CARAMBEI, MOBILE, "Caminhões de coleta de leite – frota própria", "Óleo diesel B14",
     1_380_000, "litros", "Cartão combustível", _diesel_b14(1_380_000, 3.9, 3.9)),
    (CARAMBEI, FUGITIVE, "Câmaras frias – recarga", "R-404A", 62, "kg",
     "Ordem de serviço da manutenção", None),
    (CARAMBEI, FUGITIVE, "Disjuntores da subestação 69 kV", "SF6", 1.2, "kg",
     "Ordem de serviço da manutenção", None),
    (CARAMBEI, FUGITIVE, "Extintores recarregados", "CO2", 85, "kg", "Nota fiscal", None),
    (CARAMBEI, EFFLUENTS, "Lagoa anaeróbia da ETE", "CH4",
     1_850, "t DQO", "Estimado (DQO média de 2023)", (0.0, 0.0, 1_850 * 0.25 * 0.2, 0.0)),
    (PATOS, STATIONARY, "Caldeira flamotubular – queijaria", "Óleo combustível A1",
     3_300, "t", "Nota fiscal", _fuel(3_300, FUEL_OIL)),
    (PATOS, STATIONARY, "Cozinha industrial", "GLP", 86, "t", "Nota fiscal",
     _fuel(86, LPG_KITCHEN)),
    (PATOS, MOBILE, "Caminhões de coleta de leite – frota própria", "Óleo diesel B14",
     610_000, "litros", "Cartão combustível", _diesel_b14(610_000, 3.9, 3.9)),
    (PATOS, FUGITIVE, "Chillers do resfriamento do leite", "HFC-134a", 48, "kg",
     "Estimado (carga nominal × taxa de vazamento)", None),
    (PATOS, EFFLUENTS, "Reator UASB da ETE (biogás queimado em flare)", "CH4",
     640, "t DQO", "Medido (vazão de biogás)", (0.0, 0.0, 9.6, 0.0)),
    (JUNDIAI, STATIONARY, "Gerador a diesel – horário de ponta", "Óleo diesel B14",
     42_000, "litros", "Nota fiscal", _diesel_b14(42_000, 3.0, 0.6)),
    (JUNDIAI, MOBILE, "Empilhadeiras", "GLP", 48, "t", "Nota fiscal", _fuel(48, LPG_FORKLIFT)),
    (JUNDIAI, MOBILE, "Veículos leves de vendas", "Etanol hidratado", 95_000, "litros",
     "Estimado (reembolso de quilometragem)", _fuel(95_000, HYDRATED_ETHANOL)),
    (JUNDIAI, FUGITIVE, "Câmaras frigoríficas do CD", "R-404A", 135, "kg",
     "Ordem de serviço da manutenção", None),
    (JUNDIAI, FUGITIVE, "Ar-condicionado split – escritório", "R-410A", 9, "kg",
     "Ordem de serviço da manutenção", None),
]  # fmt: skip

MONTREAL = [(PATOS, "Câmara fria antiga (desativação em 2025)", "HCFC-22 (R-22)", 30)]

# (installation, supply, MWh, location factor, instrument, MWh covered, residual factor)
# Location: MCTI's 2024 annual average for the SIN; market: I-RECs retired for the company,
# the uncovered part at the SIN average (the Brazilian Program's practice with no residual mix).
SIN_2024 = 0.0545
SCOPE2 = [
    (CARAMBEI, "Mercado livre (ACL)", 41_200, SIN_2024, "I-REC hidrelétrica", 41_200, SIN_2024),
    (PATOS, "Mercado livre (ACL)", 15_800, SIN_2024, "I-REC eólica (parcial)", 8_000, SIN_2024),
    (JUNDIAI, "Cativo – distribuidora local", 5_900, SIN_2024, "Nenhum", 0, SIN_2024),
]  # fmt: skip

# (category, description, quantity, unit, factor t CO2e per unit)
SCOPE3 = [
    ("Categoria 4 – Transporte e distribuição (upstream)",
     "Frete contratado de embalagens e insumos", 4_150_000, "t.km", 0.0000982),
    ("Categoria 6 – Viagens a negócios", "Voos nacionais", 820_000, "passageiro.km", 0.000115),
    ("Categoria 7 – Deslocamento de funcionários", "Ônibus fretado", 1_450_000,
     "passageiro.km", 0.000068),
    ("Categoria 9 – Transporte e distribuição (downstream)",
     "Entrega de produtos por transportadoras pagas pelo cliente", 9_800_000, "t.km", 0.0000982),
]  # fmt: skip

BOLD = Font(bold=True)


def _scope1_rows() -> list[list[object]]:
    rows = []
    for site, category, source, fuel, quantity, unit, origin, gases in SCOPE1:
        if gases is None:  # fugitive: the quantity is kg of the gas named
            co2, bio, ch4, n2o = (quantity / 1e3 if fuel == "CO2" else 0.0), 0.0, 0.0, 0.0
            fgas = 0.0 if fuel == "CO2" else quantity * GWP[fuel] / 1e3
        else:
            co2, bio, ch4, n2o = gases
            fgas = 0.0
        total = co2 + ch4 * GWP["CH4"] + n2o * GWP["N2O"] + fgas
        rows.append([site, category, source, fuel, quantity, unit, origin,
                     round(co2, 3) or None, round(ch4, 4) or None, round(n2o, 4) or None,
                     round(fgas, 3) or None, round(total, 3), round(bio, 3) or None])  # fmt: skip
    return rows


def _write_scope1(sheet) -> float:
    sheet.append(["Escopo 1 – Emissões diretas – Laticínios Campo Alto S.A. – 2024"])
    sheet.append(["GWP: IPCC AR5 (100 anos). Fatores: IPCC 2006 e BEN 2024. "
                  "CO2 biogênico informado à parte, fora do total."])  # fmt: skip
    sheet.append([])
    header = ["Instalação", "Categoria", "Fonte emissora", "Combustível / gás", "Quantidade",
              "Unidade", "Origem do dado", "CO2 fóssil (t)", "CH4 (t)", "N2O (t)",
              "HFCs e SF6 (tCO2e)", "Total (tCO2e)", "CO2 biogênico (t)"]  # fmt: skip
    sheet.append(header)
    rows = _scope1_rows()
    for row in rows:
        sheet.append(row)
    sums = [round(sum(r[i] or 0 for r in rows), 3) for i in range(7, 13)]
    sheet.append(["TOTAL ESCOPO 1", None, None, None, None, None, None, *sums])
    sheet.append([])
    sheet.append(["Gases controlados pelo Protocolo de Montreal – informados à parte, "
                  "não incluídos no total do Escopo 1"])  # fmt: skip
    sheet.append(["Instalação", "Fonte emissora", "Gás", "Quantidade (kg)", "Emissões (tCO2e)"])
    for site, source, gas, kg in MONTREAL:
        sheet.append([site, source, gas, kg, round(kg * GWP["HCFC-22"] / 1e3, 3)])
    for row in (1, 4, 4 + len(rows) + 1):
        for cell in sheet[row]:
            cell.font = BOLD
    return sums[4]


def _write_scope2(sheet) -> tuple[float, float]:
    sheet.append(["Escopo 2 – Energia elétrica adquirida – 2024"])
    sheet.append(["Localização: fator médio anual do SIN 2024 (MCTI). Mercado: I-RECs "
                  "aposentados em nome da empresa; o resto pelo fator do SIN."])  # fmt: skip
    sheet.append([])
    sheet.append(["Instalação", "Ambiente de contratação", "Consumo (MWh)",
                  "FE localização (tCO2/MWh)", "Emissões – localização (tCO2e)",
                  "Instrumento contratual", "Energia coberta por instrumento (MWh)",
                  "FE parcela não coberta (tCO2/MWh)", "Emissões – mercado (tCO2e)"])  # fmt: skip
    location = market = 0.0
    for site, supply, mwh, factor, instrument, covered, residual in SCOPE2:
        loc, mkt = round(mwh * factor, 3), round((mwh - covered) * residual, 3)
        location, market = location + loc, market + mkt
        sheet.append([site, supply, mwh, factor, loc, instrument, covered, residual, mkt])
    sheet.append(["TOTAL ESCOPO 2", None, sum(r[2] for r in SCOPE2), None, round(location, 3),
                  None, sum(r[5] for r in SCOPE2), None, round(market, 3)])  # fmt: skip
    return round(location, 3), round(market, 3)


def _write_scope3(sheet) -> float:
    sheet.append(["Escopo 3 – Outras emissões indiretas – 2024"])
    sheet.append([])
    sheet.append(["Categoria", "Descrição", "Quantidade", "Unidade",
                  "Fator de emissão (tCO2e/unidade)", "Emissões (tCO2e)"])  # fmt: skip
    total = 0.0
    for category, description, quantity, unit, factor in SCOPE3:
        emissions = round(quantity * factor, 3)
        total += emissions
        sheet.append([category, description, quantity, unit, factor, emissions])
    sheet.append(["TOTAL ESCOPO 3", None, None, None, None, round(total, 3)])
    sheet.append([])
    sheet.append(["Categorias não inventariadas em 2024: 1 (bens e serviços comprados, "
                  "inclusive o leite cru), 2, 3, 5, 8, 10, 11, 12, 13, 14 e 15."])  # fmt: skip
    return round(total, 3)


def build(path: Path = OUTPUT) -> Path:
    book = openpyxl.Workbook()
    summary = book.active
    summary.title = "Resumo"
    scope1 = _write_scope1(book.create_sheet("Escopo 1"))
    location, market = _write_scope2(book.create_sheet("Escopo 2"))
    scope3 = _write_scope3(book.create_sheet("Escopo 3"))
    biogenic = round(sum(r[12] or 0 for r in _scope1_rows()), 3)
    montreal = round(sum(kg * GWP["HCFC-22"] / 1e3 for *_, kg in MONTREAL), 3)
    for line in (
        ["Inventário de Emissões de Gases de Efeito Estufa – ano-base 2024"],
        ["Laticínios Campo Alto S.A. (empresa fictícia, dados para avaliação)"],
        ["Setor: laticínios (leite em pó, queijos e distribuição refrigerada), CNAE 10.52-0"],
        [
            "Abordagem de consolidação: controle operacional. Metodologia: Programa Brasileiro "
            "GHG Protocol; GWP do IPCC AR5."
        ],
        [f"Instalações: {CARAMBEI}, {PATOS} e {JUNDIAI}"],
        [],
        ["Indicador", "Emissões (tCO2e)"],
        ["Escopo 1", scope1],
        ["Escopo 2 – abordagem de localização", location],
        ["Escopo 2 – abordagem de escolha de compra (mercado)", market],
        ["Escopo 3", scope3],
        [
            "Total (Escopo 1 + Escopo 2 localização + Escopo 3)",
            round(scope1 + location + scope3, 3),
        ],
        [],
        ["Informado à parte (fora do total)", "t"],
        ["CO2 biogênico (t CO2)", biogenic],
        ["HCFC-22 – Protocolo de Montreal (tCO2e)", montreal],
    ):
        summary.append(line)
    for cell in (summary["A1"], summary["A7"], summary["B7"], summary["A12"]):
        cell.font = BOLD
    book.properties.creator = "Aeko Studio eval (blind set)"
    path.parent.mkdir(parents=True, exist_ok=True)
    book.save(path)
    return path


if __name__ == "__main__":
    print(build(Path(sys.argv[1]) if len(sys.argv) > 1 else OUTPUT))
