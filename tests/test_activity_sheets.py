"""Activity-data sheets (liters, m³, MWh, kg of refrigerant, t of carbonate) in the inventory.

Workbooks in the Brazilian GHG Protocol Program's style are built here with openpyxl; every
expected figure is computed in this file from the source values written below (IPCC 2006,
BEN, CNPE blend resolutions, MCTI grid factors, IPCC AR5 GWPs), never read back from the
library under test.
"""

from __future__ import annotations

import math
from datetime import date

import pytest

from engine.emissions import activities, read_factor_csv
from engine.inventory import InventoryError, NoEmissionsColumnError, load_inventory
from engine.inventory.activity.matching import _with_use
from engine.inventory.errors import ActivityUnitError
from tests.inventory_fixtures import xlsx

# --- source values ----------------------------------------------------------------------------
# IPCC 2006 Vol. 2: CO2, CH4, N2O in kg/TJ. Ch. 3 Table 3.2.1/3.2.2 (road), Table 3.3.1
# (off-road), Ch. 2 Table 2.3 (manufacturing industries: stationary).
DIESEL_ROAD = (74_100, 3.9, 3.9)
DIESEL_OFFROAD = (74_100, 4.15, 28.6)
DIESEL_STATIONARY = (74_100, 3.0, 0.6)
BIODIESEL_CO2 = 70_800  # biogenic, Vol. 2 Ch. 1 Table 1.4
NATURAL_GAS_STATIONARY = (56_100, 1.0, 0.1)
LPG_STATIONARY = (63_100, 1.0, 0.1)
# Densities and net calorific values (PCI) of the National Energy Balance (BEN) conversion
# table, as issue #21's domain review gives them; the International Table calorie, 4.1868 J.
KCAL_GJ = 4.1868e-6  # GJ per kcal
DIESEL_DENSITY = 840.0  # kg/m³
DIESEL_NCV = 10_100 * KCAL_GJ * 1000  # GJ/t: 10,100 kcal/kg = 42.28668 GJ/t
BIODIESEL_NCV = 9_000 * KCAL_GJ * 1000 * 0.880  # MJ/L: 9,000 kcal/kg × 880 kg/m³ = 33.159 MJ/L
NATURAL_GAS_NCV_M3 = 8_800 * KCAL_GJ  # GJ/m³: dry gas, 8,800 kcal/m³ = 0.0368438 GJ/m³
LPG_NCV = 11_100 * KCAL_GJ * 1000  # GJ/t: 11,100 kcal/kg = 46.47348 GJ/t
# Biodiesel in diesel B (CNPE): 12% from April 2023, 14% from 1 March 2024.
B12, B14 = 0.12, 0.14
# MCTI, SIN average (location-based) emission factor 2024, t CO2/MWh, January to December.
GRID_2024 = (0.0421, 0.0376, 0.0278, 0.0195, 0.0283, 0.0365,
             0.0571, 0.0739, 0.0917, 0.1127, 0.0701, 0.0564)  # fmt: skip
# IPCC AR5 GWP-100.
GWP = {"CO2": 1.0, "CH4": 28.0, "N2O": 265.0, "HFC32": 677.0, "HFC125": 3170.0,
       "HFC134a": 1300.0, "HCFC22": 1760.0}  # fmt: skip
# IPCC 2006 Vol. 3 Ch. 2 Table 2.1, t CO2 per t of carbonate (stoichiometric).
CALCITE, DOLOMITE = 0.43971, 0.47732

MONTHS = ("Jan", "Fev", "Mar", "Abr", "Mai", "Jun", "Jul", "Ago", "Set", "Out", "Nov", "Dez")


# --- hand computations ------------------------------------------------------------------------


def diesel_b(litres: float, share: float, factors: tuple[float, float, float]) -> dict:
    """t of each gas of diesel B: the fossil part by density and NCV, the biodiesel part by
    its NCV per litre; CH4 and N2O of both at the fossil fuel's factors (the source gives
    none for biodiesel)."""
    fossil_tj = litres * (1 - share) / 1000 * DIESEL_DENSITY * DIESEL_NCV / 1e6
    bio_tj = litres * share * BIODIESEL_NCV / 1e6
    co2, ch4, n2o = factors
    return {
        "CO2": fossil_tj * co2 / 1000,
        "CH4": (fossil_tj + bio_tj) * ch4 / 1000,
        "N2O": (fossil_tj + bio_tj) * n2o / 1000,
        "bio": bio_tj * BIODIESEL_CO2 / 1000,
    }


def by_mass(tonnes: float, ncv: float, factors: tuple[float, float, float]) -> dict:
    tj = tonnes * ncv / 1000
    return {gas: tj * f / 1000 for gas, f in zip(("CO2", "CH4", "N2O"), factors, strict=True)}


def co2e(gases: dict) -> float:
    return math.fsum(t * GWP[g] for g, t in gases.items() if g != "bio")


def month_share(month: int) -> float:
    return B12 if month <= 2 else B14


# --- a workbook in the program's style --------------------------------------------------------

TRUCKS_CAMPINAS = (18_200, 17_900, 19_400, 18_800, 20_100, 19_600,
                   21_000, 20_400, 19_900, 20_700, 19_300, 18_500)  # fmt: skip
TRUCKS_RECIFE = (9_100, 8_800, 9_600, 9_300, 9_900, 9_700,
                 10_200, 10_050, 9_800, 10_100, 9_500, 9_150)  # fmt: skip
FORKLIFTS = (1_250, 1_180, 1_320, 1_290, 1_340, 1_310, 1_400, 1_380, 1_350, 1_370, 1_300, 1_260)
GRID_CAMPINAS = (702.4, 688.1, 731.9, 715.0, 740.2, 722.8, 760.3, 755.6, 748.1, 739.9, 720.4, 698.0)
GRID_RECIFE = (410.2, 398.7, 425.3, 419.9, 431.0, 428.4, 445.6, 440.1, 436.8, 430.2, 421.7, 405.5)
NATURAL_GAS_M3 = 125_000.0
GENERATOR_L = 8_500.0
LPG_KG = 42_000.0
R410A_KG, HFC134A_KG, R22_KG = 12.6, 45.0, 3.0
CALCITE_T, DOLOMITE_T = 1_500.0, 320.0


def program_workbook() -> bytes:
    mobile = [["Combustão móvel – consumo mensal de combustíveis da frota – 2024"], []]
    mobile.append(["Unidade", "Frota / tipo de veículo", "Combustível", *MONTHS, "Total"])
    mobile.append([None, None, None, *(["L"] * 12), "L"])
    fleet = [
        ("Fábrica Campinas", "Caminhões próprios", "Óleo diesel S10", TRUCKS_CAMPINAS),
        ("Fábrica Recife", "Caminhões próprios", "Óleo diesel S500", TRUCKS_RECIFE),
        ("Centro de distribuição", "Empilhadeiras", "Óleo diesel S10", FORKLIFTS),
    ]
    for facility, source, fuel, litres in fleet:
        mobile.append([facility, source, fuel, *litres, sum(litres)])
    mobile.append(["Total", None, None, *(sum(m) for m in zip(*(f[3] for f in fleet),
                                                              strict=True)),
                   sum(sum(f[3]) for f in fleet)])  # fmt: skip
    stationary = [["Combustão estacionária – consumo de combustíveis – 2024"], []]
    stationary.append(["Unidade", "Fonte de emissão", "Combustível", "Quantidade",
                       "Unidade de medida"])  # fmt: skip
    stationary += [
        ["Fábrica Campinas", "Caldeira 1", "Gás natural", NATURAL_GAS_M3, "m³"],
        ["Fábrica Campinas", "Gerador de emergência", "Óleo diesel S10", GENERATOR_L, "litros"],
        ["Fábrica Recife", "Forno de secagem", "GLP", LPG_KG, "kg"],
    ]
    grid = [["Consumo de energia elétrica (MWh) – 2024"], []]
    grid.append(["Unidade", *MONTHS])
    grid += [["Fábrica Campinas", *GRID_CAMPINAS], ["Fábrica Recife", *GRID_RECIFE]]
    refrigerants = [["Recarga de gases refrigerantes – 2024"], []]
    refrigerants.append(["Unidade", "Equipamento", "Gás refrigerante", "Recarga (kg)"])
    refrigerants += [
        ["Escritório São Paulo", "Splits", "R-410A", R410A_KG],
        ["Fábrica Campinas", "Chiller central", "HFC-134a", HFC134A_KG],
        ["Fábrica Recife", "Câmara fria antiga", "R-22", R22_KG],
    ]
    carbonates = [["Processos industriais – carbonatos calcinados – 2024"], []]
    carbonates.append(["Unidade", "Material", "Quantidade (t)"])
    carbonates += [
        ["Fábrica Campinas", "Calcário calcítico", CALCITE_T],
        ["Fábrica Campinas", "Dolomita", DOLOMITE_T],
    ]
    return xlsx({
        "Combustão móvel": mobile,
        "Combustão estacionária": stationary,
        "Energia elétrica": grid,
        "Emissões fugitivas": refrigerants,
        "Processos industriais": carbonates,
    })  # fmt: skip


def expected_program() -> dict[str, float]:
    """Every figure of ``program_workbook`` by hand: per month for the blends and the grid."""
    mobile: list[dict] = []
    for litres, factors in ((TRUCKS_CAMPINAS, DIESEL_ROAD), (TRUCKS_RECIFE, DIESEL_ROAD),
                            (FORKLIFTS, DIESEL_OFFROAD)):  # fmt: skip
        for month, amount in enumerate(litres, start=1):
            mobile.append(diesel_b(amount, month_share(month), factors))
    # An annual quantity: the share weighted by the days each was in force in 2024.
    annual_share = (B12 * 60 + B14 * 306) / 366
    generator = diesel_b(GENERATOR_L, annual_share, DIESEL_STATIONARY)
    gas = by_mass(NATURAL_GAS_M3 * NATURAL_GAS_NCV_M3, 1.0, NATURAL_GAS_STATIONARY)  # GJ × 1
    lpg = by_mass(LPG_KG / 1000, LPG_NCV, LPG_STATIONARY)
    grid = math.fsum(
        mwh * factor
        for series in (GRID_CAMPINAS, GRID_RECIFE)
        for mwh, factor in zip(series, GRID_2024, strict=True)
    )
    fugitive = (R410A_KG / 2 * GWP["HFC32"] + R410A_KG / 2 * GWP["HFC125"]
                + HFC134A_KG * GWP["HFC134a"]) / 1000  # fmt: skip
    process = CALCITE_T * CALCITE + DOLOMITE_T * DOLOMITE
    mobile_t = math.fsum(co2e(g) for g in mobile)
    stationary_t = co2e(generator) + co2e(gas) + co2e(lpg)
    return {
        "mobile": mobile_t,
        "stationary": stationary_t,
        "fugitive": fugitive,
        "process": process,
        "scope1": mobile_t + stationary_t + fugitive + process,
        "scope2": grid,
        "biogenic": math.fsum(g["bio"] for g in mobile) + generator["bio"],
        "montreal": R22_KG * GWP["HCFC22"] / 1000,
        "fossil_co2": math.fsum(g["CO2"] for g in [*mobile, generator, gas, lpg]) + process + grid,
    }


@pytest.fixture(scope="module")
def program():
    return load_inventory(program_workbook(), filename="consumo_2024.xlsx")


def test_program_workbook_loads_to_the_hand_computed_totals(program):
    expected = expected_program()
    assert program.total_tco2e == pytest.approx(expected["scope1"] + expected["scope2"], rel=1e-9)
    scopes = program.totals_by("scope").set_index("scope")["tco2e"]
    assert scopes["1"] == pytest.approx(expected["scope1"], rel=1e-9)
    assert scopes["2"] == pytest.approx(expected["scope2"], rel=1e-9)
    assert program.scope2_location_tco2e == pytest.approx(expected["scope2"], rel=1e-9)
    assert program.biogenic_co2_t == pytest.approx(expected["biogenic"], rel=1e-9)
    assert program.montreal_tco2e == pytest.approx(expected["montreal"], rel=1e-9)
    gases = program.totals_by("gas").set_index("gas")["tco2e"]
    assert gases["CO2"] == pytest.approx(expected["fossil_co2"], rel=1e-9)
    per_sheet = program.table.groupby("sheet")["emissions_tco2e"].sum()
    assert per_sheet["Combustão móvel"] == pytest.approx(expected["mobile"], rel=1e-9)
    assert per_sheet["Combustão estacionária"] == pytest.approx(expected["stationary"], rel=1e-9)
    assert per_sheet["Emissões fugitivas"] == pytest.approx(expected["fugitive"], rel=1e-9)
    assert per_sheet["Processos industriais"] == pytest.approx(expected["process"], rel=1e-9)
    assert program.year == "2024"


def test_every_row_is_computed_from_activity_with_its_factors_named(program):
    table = program.table
    assert set(table["basis"]) == {"activity"}
    assert table[["activity", "quantity", "unit", "factor_ref"]].notna().all().all()
    activities = table.groupby(["sheet", "source"])["activity"].first().to_dict()
    assert activities[("Combustão móvel", "Caminhões próprios")] == "diesel_road"
    assert activities[("Combustão móvel", "Empilhadeiras")] == "diesel_offroad"
    assert activities[("Combustão estacionária", "Gerador de emergência")] == "diesel_stationary"
    assert activities[("Combustão estacionária", "Caldeira 1")] == "natural_gas_stationary"
    assert activities[("Combustão estacionária", "Forno de secagem")] == "lpg_stationary"
    assert activities[("Emissões fugitivas", "Splits")] == "refrigerant:R-410A"
    assert set(table.loc[table["sheet"] == "Energia elétrica", "activity"]) == {"electricity_grid"}
    minerals = table.loc[table["sheet"] == "Processos industriais", "activity"]
    assert set(minerals) == {"carbonate:calcite", "carbonate:dolomite"}
    diesel_co2 = table[(table["activity"] == "diesel_road") & (table["gas"] == "CO2")]
    assert diesel_co2["factor_ref"].str.contains("IPCC").all()
    assert diesel_co2["factor_ref"].str.contains("CNPE").all()  # the blend's share
    grid = table[table["activity"] == "electricity_grid"]
    assert grid["factor_ref"].str.contains("MCTI").all()
    assert set(grid["scope2_method"]) == {"location"}
    # Months are added into their year: one row per sheet row and gas.
    trucks = table[(table["source"] == "Caminhões próprios") & (table["gas"] == "CO2")]
    assert sorted(trucks["quantity"]) == sorted([sum(TRUCKS_RECIFE), sum(TRUCKS_CAMPINAS)])
    used = program.factors_used
    assert set(used["purpose"]) == {"computed"}
    assert {"electricity@grid", "diesel@road", "diesel_b.biodiesel_share"} <= set(used["key"])
    assert not used["user"].any()


def test_the_sheets_own_total_row_checks_the_quantities(program):
    checks = {c.sheet: c for c in program.reconciliation}
    mobile = checks["Combustão móvel"]
    assert mobile.status == "reconciled"
    kinds = {e.kind: (e.compared, e.agreeing) for e in mobile.evidence}
    assert kinds["row_totals"] == (3, 3)  # the Total column against the months
    assert kinds["total_rows"][0] == kinds["total_rows"][1] > 0
    assert mobile.stated_tco2e is None
    assert mobile.computed_tco2e == pytest.approx(expected_program()["mobile"], rel=1e-9)
    assert checks["Energia elétrica"].status == "unverified"  # nothing to check against
    assert not [f for f in program.findings if f.code.startswith("activity")]


def test_months_named_with_their_year_and_no_year_elsewhere():
    rows = [["Unidade", *(f"{m.lower()}/24" for m in MONTHS)], ["Sede", *GRID_RECIFE]]
    inventory = load_inventory(xlsx({"Energia elétrica (MWh)": rows}), filename="energia.xlsx")
    expected = math.fsum(m * f for m, f in zip(GRID_RECIFE, GRID_2024, strict=True))
    assert inventory.total_tco2e == pytest.approx(expected, rel=1e-9)
    assert inventory.year == "2024"


def test_a_date_column_picks_the_blend_in_force_on_the_day():
    rows = [["Abastecimentos da frota"], []]
    rows.append(["Data", "Placa", "Combustível", "Litros"])
    rows += [
        [date(2024, 2, 20), "ABC1D23", "Diesel S10", 400.0],
        [date(2024, 3, 5), "ABC1D23", "Diesel S10", 380.0],
    ]
    inventory = load_inventory(xlsx({"Combustão móvel": rows}), filename="frota.xlsx")
    february = diesel_b(400.0, B12, DIESEL_ROAD)
    march = diesel_b(380.0, B14, DIESEL_ROAD)
    assert inventory.total_tco2e == pytest.approx(co2e(february) + co2e(march), rel=1e-9)
    assert inventory.biogenic_co2_t == pytest.approx(february["bio"] + march["bio"], rel=1e-9)


# --- the use a row names keeps the product ------------------------------------------------------

# IPCC 2006 Vol. 2: Ch. 2 Table 2.3 (stationary) and Ch. 3 Table 3.3.1 (off-road) apply to the
# fossil diesel of either; only diesel B carries biodiesel, whose CO2 is biogenic.
USES = ("stationary", "road", "offroad")


def diesel_by_use_workbook() -> bytes:
    stationary = [["Combustão estacionária – consumo de combustíveis – 2024"], []]
    stationary.append(["Fonte de emissão", "Combustível", "Quantidade", "Unidade de medida"])
    stationary += [
        ["Gerador de emergência", "Óleo diesel sem biodiesel", 2_000.0, "litros"],
        ["Gerador da portaria", "Óleo diesel S10", 3_000.0, "litros"],
    ]
    mobile = [["Combustão móvel – consumo de combustíveis – 2024"], []]
    mobile.append(["Fonte de emissão", "Combustível", "Quantidade", "Unidade de medida"])
    mobile += [
        ["Empilhadeiras", "Diesel puro", 1_000.0, "litros"],
        ["Tratores", "Óleo diesel S10", 1_500.0, "litros"],
    ]
    return xlsx({"Combustão estacionária": stationary, "Combustão móvel": mobile})


def test_a_generator_or_forklift_keeps_diesel_a_and_diesel_b_apart():
    inventory = load_inventory(diesel_by_use_workbook(), filename="diesel_2024.xlsx")
    chosen = inventory.table.groupby("source")["activity"].unique().to_dict()
    assert {source: list(ids) for source, ids in chosen.items()} == {
        "Gerador de emergência": ["diesel_a_stationary"],  # diesel A, never diesel B
        "Gerador da portaria": ["diesel_stationary"],
        "Empilhadeiras": ["diesel_a_offroad"],
        "Tratores": ["diesel_offroad"],
    }
    annual_share = (B12 * 60 + B14 * 306) / 366
    rows = [
        diesel_b(2_000.0, 0.0, DIESEL_STATIONARY),  # no biodiesel: all fossil
        diesel_b(3_000.0, annual_share, DIESEL_STATIONARY),
        diesel_b(1_000.0, 0.0, DIESEL_OFFROAD),
        diesel_b(1_500.0, annual_share, DIESEL_OFFROAD),
    ]
    assert inventory.total_tco2e == pytest.approx(math.fsum(co2e(r) for r in rows), rel=1e-9)
    assert inventory.biogenic_co2_t == pytest.approx(rows[1]["bio"] + rows[3]["bio"], rel=1e-9)
    assert not [f for f in inventory.findings if f.code.startswith("activity")]


def same_product(a, b) -> bool:
    """From the library's raw fields: the id's stem (the id less its use) and the blend."""

    def stem(info):
        return info.id.rsplit("_", 1)[0]

    def blend(info):
        return (info.fuel, info.blend, info.bio_fuel)

    return stem(a) == stem(b) and blend(a) == blend(b)


def in_use(info, use: str) -> bool:
    if use == "stationary":
        return info.category == "Combustão estacionária"
    return info.use == use


FUELS = [info for info in activities() if info.fuel is not None]


@pytest.mark.parametrize("info", FUELS, ids=[info.id for info in FUELS])
def test_another_use_of_an_activity_is_the_same_product_or_none(info):
    for use in USES:
        chosen = _with_use(info, use)
        exists = [a for a in FUELS if same_product(a, info) and in_use(a, use)]
        if chosen is None:
            assert not exists, f"{info.id} in {use}: the library has {exists[0].id}"
        else:
            assert same_product(chosen, info) and in_use(chosen, use), (info.id, use, chosen.id)
            if in_use(info, use):
                assert chosen is info  # the row's own activity already fits


# --- a table with both activity data and the workbook's own emissions -------------------------

GAS_GJ = (10_000.0, 8_000.0, 6_000.0)  # energy: only the IPCC factors per TJ take part


def gas_tco2e(gj: float) -> float:
    return co2e(by_mass(gj, 1.0, NATURAL_GAS_STATIONARY))  # GJ read as t × 1 GJ/t


def mixed_workbook(stated: tuple[float, ...]) -> bytes:
    rows = [["Combustão estacionária – caldeiras – 2024"], []]
    rows.append(["Fonte", "Combustível", "Quantidade", "Unidade", "Emissões (t CO2e)"])
    for number, (gj, value) in enumerate(zip(GAS_GJ, stated, strict=True), start=1):
        rows.append([f"Caldeira {number}", "Gás natural", gj, "GJ", value])
    return xlsx({"Combustão estacionária": rows})


def test_a_row_off_by_five_percent_is_a_finding_that_names_the_factor():
    ours = [gas_tco2e(gj) for gj in GAS_GJ]
    stated = (round(ours[0] * 1.05, 2), round(ours[1] * 1.009, 2), round(ours[2], 2))
    inventory = load_inventory(mixed_workbook(stated), filename="caldeiras.xlsx")
    # The workbook's own numbers stay the headline.
    assert inventory.total_tco2e == pytest.approx(sum(stated), rel=1e-9)
    assert set(inventory.table["basis"]) == {"reported"}
    assert set(inventory.table["activity"]) == {"natural_gas_stationary"}
    (check,) = inventory.reconciliation
    # The workbook against our factor library is a finding on the factors, not a conflict of
    # the workbook with itself: with no total of its own to check, the sheet is unverified.
    assert check.status == "unverified"
    activity = next(e for e in check.evidence if e.kind == "activity")
    assert (activity.compared, activity.agreeing, activity.bad_rows) == (3, 2, (4,))
    (finding,) = [f for f in inventory.findings if f.code == "activity_factor_differs"]
    assert finding.rows == (4,)
    assert finding.message_pt.startswith("Linha 4: Gás natural")
    # Both implied factors per GJ: stated t × 1000 / 10,000 GJ, and ours (56.1 t CO2/TJ +
    # 28 × 1 + 265 × 0.1 kg/TJ = 56.1545 kg CO2e/GJ), to three significant digits.
    theirs_per_gj = stated[0] * 1000 / GAS_GJ[0]
    assert f"A planilha usa {theirs_per_gj:.1f} kg CO2e/GJ".replace(".", ",") in finding.message_pt
    assert "a biblioteca, 56,2." in finding.message_pt
    assert f"The workbook uses {theirs_per_gj:.1f} kg CO2e/GJ" in finding.message_en
    assert "the library 56.2." in finding.message_en
    assert "fator CO2 56.100 kg/TJ" in finding.message_pt
    assert "IPCC" in finding.message_pt and "Tabela 2.3" in finding.message_pt
    assert "CO2 factor 56,100 kg/TJ" in finding.message_en
    assert f"{ours[0]:,.2f}".replace(",", "X").replace(".", ",").replace("X", ".") in (
        finding.message_pt
    )
    assert set(inventory.factors_used["purpose"]) == {"checked"}


def test_rows_within_one_percent_reconcile():
    ours = [gas_tco2e(gj) for gj in GAS_GJ]
    stated = (round(ours[0] * 0.992, 2), round(ours[1] * 1.009, 2), round(ours[2], 2))
    inventory = load_inventory(mixed_workbook(stated), filename="caldeiras.xlsx")
    (check,) = inventory.reconciliation
    assert check.status == "unverified"  # agreeing with our library proves no own total
    assert {e.kind: (e.compared, e.agreeing) for e in check.evidence}["activity"] == (3, 3)
    assert not [f for f in inventory.findings if f.code.startswith("activity")]
    assert inventory.total_tco2e == pytest.approx(sum(stated), rel=1e-9)


# --- what cannot be computed ------------------------------------------------------------------


def fleet(unit: str) -> bytes:
    rows = [["Combustão móvel – 2024"], []]
    rows.append(["Veículo", "Combustível", "Quantidade", "Unidade de medida"])
    rows += [
        ["Caminhão 1", "Óleo diesel", 1_000.0, "litros"],
        ["Caminhão 2", "Óleo diesel", 800.0, unit],
    ]
    return xlsx({"Frota": rows})


@pytest.mark.parametrize("unit", ["caixas", "km"])
def test_a_unit_that_cannot_be_converted_names_the_sheet_the_row_and_the_unit(unit):
    with pytest.raises(ActivityUnitError) as caught:
        load_inventory(fleet(unit), filename="frota.xlsx")
    error = caught.value
    assert isinstance(error, InventoryError)
    assert (error.sheet, error.row, error.unit) == ("Frota", 5, unit)
    for message in (error.message_pt, error.message_en):
        assert "'Frota'" in message and f"'{unit}'" in message
    assert "linha 5" in error.message_pt and "row 5" in error.message_en
    assert error.message_pt != error.message_en


def test_a_fuel_the_library_does_not_know_is_a_finding_not_a_guess():
    rows = [["Combustão estacionária – 2024"], []]
    rows.append(["Fonte", "Combustível", "Quantidade", "Unidade de medida"])
    rows += [["Caldeira", "Gás natural", 1_000.0, "GJ"], ["Lamparinas", "Querosene de iluminação",
                                                         50.0, "litros"]]  # fmt: skip
    inventory = load_inventory(xlsx({"Combustão estacionária": rows}), filename="x.xlsx")
    assert inventory.total_tco2e == pytest.approx(gas_tco2e(1_000.0), rel=1e-9)
    (finding,) = [f for f in inventory.findings if f.code == "activity_unknown"]
    assert finding.rows == (5,)
    assert "Querosene de iluminação" in finding.message_pt


def test_activity_data_with_no_year_anywhere_says_so():
    rows = [["Fonte", "Combustível", "Quantidade", "Unidade de medida"],
            ["Caldeira", "Gás natural", 1_000.0, "GJ"]]  # fmt: skip
    with pytest.raises(NoEmissionsColumnError) as caught:
        load_inventory(xlsx({"Consumo": rows}), filename="consumo.xlsx")
    assert "ano" in caught.value.message_pt and "year" in caught.value.message_en


# --- the user's own factors -------------------------------------------------------------------


def test_the_users_factors_override_the_library_and_are_marked():
    user = read_factor_csv(
        b"key,gas,value,unit,region,valid_from,valid_to,document,table,year,url,note\n"
        b"electricity@grid,CO2,0.1,t/MWh,BR,2024-01-01,2024-12-31,Contrato de fornecimento,,"
        b"2024,,\n",
        source_name="meus_fatores.csv",
    )
    rows = [["Unidade", *MONTHS], ["Sede", *GRID_RECIFE]]
    data = xlsx({"Energia elétrica 2024 (MWh)": rows})
    inventory = load_inventory(data, filename="energia.xlsx", factors=user)
    assert inventory.total_tco2e == pytest.approx(sum(GRID_RECIFE) * 0.1, rel=1e-9)
    assert inventory.factors_used["user"].all()
    assert "Contrato de fornecimento" in inventory.table["factor_ref"].iloc[0]
    default = load_inventory(data, filename="energia.xlsx")
    expected = math.fsum(m * f for m, f in zip(GRID_RECIFE, GRID_2024, strict=True))
    assert default.total_tco2e == pytest.approx(expected, rel=1e-9)


def test_an_emissions_only_workbook_is_read_as_before():
    rows = [["Fonte", "Gás", "Emissões (t)"], ["Caldeira", "CO2", 100.0], ["Caldeira", "CH4", 1.0]]
    inventory = load_inventory(xlsx({"Escopo 1 2024": rows}), filename="x.xlsx")
    assert inventory.total_tco2e == pytest.approx(100.0 + GWP["CH4"])
    assert "activity" not in inventory.table
    assert inventory.factors_used.empty


def test_a_units_row_of_litres_is_consumption_whatever_the_title_says():
    rows = [["Inventário de emissões de GEE – dados de atividade – 2024"], []]
    rows.append(["Unidade", "Frota / tipo de veículo", "Combustível", *MONTHS])
    rows.append([None, None, None, *(["L"] * 12)])
    rows.append(["Fábrica Recife", "Caminhões próprios", "Óleo diesel S10", *TRUCKS_RECIFE])
    inventory = load_inventory(xlsx({"Frota": rows}), filename="frota.xlsx")
    expected = math.fsum(
        co2e(diesel_b(litres, month_share(month), DIESEL_ROAD))
        for month, litres in enumerate(TRUCKS_RECIFE, start=1)
    )
    assert inventory.total_tco2e == pytest.approx(expected, rel=1e-9)
    assert set(inventory.table["activity"]) == {"diesel_road"}


def test_a_fuel_named_in_a_waste_sheet_is_not_burnt():
    waste = [["Resíduos sólidos gerados – 2024"], []]
    waste.append(["Resíduo", "Destinação", "Quantidade (t)"])
    waste += [["Madeira", "Aterro", 96.3], ["Papelão", "Reciclagem", 40.0]]
    boilers = [["Combustão estacionária – 2024"], []]
    boilers.append(["Fonte", "Combustível", "Quantidade", "Unidade de medida"])
    boilers.append(["Caldeira", "Gás natural", 1_000.0, "GJ"])
    inventory = load_inventory(
        xlsx({"Resíduos sólidos": waste, "Combustão estacionária": boilers}), filename="x.xlsx"
    )
    assert inventory.total_tco2e == pytest.approx(gas_tco2e(1_000.0), rel=1e-9)
    assert set(inventory.table["sheet"]) == {"Combustão estacionária"}
    assert "Resíduos sólidos" in inventory.skipped_sheets


# --- months of litres beside the workbook's own per-gas emissions (issue #21) -----------------
# The company workbook of the issue: litres per month under a merged 'Consumo de combustível
# (litros)', then 'Emissões fósseis (t)' over CO2 / CH4 / N2O and 'Emissões biogênicas (t)'
# over CO2, and a Total row. The 12 litre columns were once melted as emissions and summed as
# t CO2; they are the activity data those emissions came from.

MIXED_MONTHS = ("jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez")
# (unit, vehicles, fuel, litres per month, IPCC factors of its use, what the workbook's CO2
# is: 1.0 = as the hand computation, 1.08 = a tool's factor 8 % above)
MIXED_FLEET = (
    ("Fábrica Campinas", "Caminhões próprios", "Óleo diesel S10", TRUCKS_CAMPINAS, DIESEL_ROAD,
     1.0),
    ("Fábrica Recife", "Caminhões próprios", "Óleo diesel S500", TRUCKS_RECIFE, DIESEL_ROAD, 1.08),
    ("Centro de distribuição", "Empilhadeiras", "Óleo diesel S10", FORKLIFTS, DIESEL_OFFROAD, 1.0),
)  # fmt: skip


def mixed_fleet_gases(litres, factors) -> dict:
    """t of each gas of one vehicle line over the year, month by month (the blend of each)."""
    months = [diesel_b(q, month_share(m), factors) for m, q in enumerate(litres, start=1)]
    return {gas: math.fsum(month[gas] for month in months) for gas in ("CO2", "CH4", "N2O", "bio")}


def mixed_fleet_rows(scale: float = 1.0) -> list[list]:
    """The data rows and the Total row as the workbook writes them, emissions × ``scale``
    (1,000: kilograms written under a header that says t)."""
    rows = []
    for facility, source, fuel, litres, factors, co2_factor in MIXED_FLEET:
        gases = mixed_fleet_gases(litres, factors)
        stated = [round(gases["CO2"] * co2_factor, 4), round(gases["CH4"], 6),
                  round(gases["N2O"], 6), round(gases["bio"], 4)]  # fmt: skip
        rows.append([facility, source, fuel, *litres, sum(litres), *(v * scale for v in stated)])
    total = [math.fsum(r[i] for r in rows) for i in range(3, len(rows[0]))]
    return [*rows, ["Total", None, None, *total]]


def mixed_fleet_workbook(scale: float = 1.0) -> bytes:
    rows = [["Combustão móvel – emissões de CO2, CH4 e N2O da frota – 2024"], []]
    rows.append([None, None, None, "Consumo de combustível (litros)", *[None] * 12,
                 "Emissões fósseis (t)", None, None, "Emissões biogênicas (t)"])  # fmt: skip
    rows.append(["Unidade", "Veículo", "Combustível", *MIXED_MONTHS, "Total anual",
                 "CO2", "CH4", "N2O", "CO2"])  # fmt: skip
    rows += mixed_fleet_rows(scale)
    # D3:P3 spans the 12 months and the annual total; Q3:S3 the three fossil gases.
    return xlsx({"Combustão móvel": rows}, {"Combustão móvel": ["D3:P3", "Q3:S3"]})


def test_months_of_litres_beside_emissions_are_activity_data_and_never_summed_as_t():
    inventory = load_inventory(mixed_fleet_workbook(), filename="inventario_2024.xlsx")
    data = mixed_fleet_rows()[:-1]
    # Columns: 3-14 the months, 15 the annual litres, 16-18 CO2, CH4, N2O (t), 19 biogenic CO2.
    headline = math.fsum(r[16] + GWP["CH4"] * r[17] + GWP["N2O"] * r[18] for r in data)
    assert inventory.total_tco2e == pytest.approx(headline, rel=1e-9)
    assert inventory.biogenic_co2_t == pytest.approx(math.fsum(r[19] for r in data), rel=1e-9)
    litres = math.fsum(sum(f[3]) for f in MIXED_FLEET)
    assert litres > 100 * headline  # what the litres summed as t would have shown
    gases = inventory.totals_by("gas").set_index("gas")["tco2e"]
    assert gases["CO2"] == pytest.approx(math.fsum(r[16] for r in data), rel=1e-9)
    # Each row checked as the activity its fuel and vehicles name, month by month.
    activities_ = inventory.table.groupby("facility")["activity"].first().to_dict()
    assert activities_ == {"Fábrica Campinas": "diesel_road", "Fábrica Recife": "diesel_road",
                           "Centro de distribuição": "diesel_offroad"}  # fmt: skip
    (check,) = inventory.reconciliation
    kinds = {e.kind: e for e in check.evidence}
    assert (kinds["activity"].compared, kinds["activity"].agreeing) == (3, 2)
    assert kinds["activity"].bad_rows == (6,)  # Recife, the workbook's CO2 8 % above ours
    # The Total row agrees with the rows: the workbook agrees with itself, whatever its factor.
    assert check.status == "reconciled"
    assert kinds["total_rows"].compared == kinds["total_rows"].agreeing > 0


def test_a_workbook_factor_that_differs_from_the_library_names_both_factors():
    inventory = load_inventory(mixed_fleet_workbook(), filename="inventario_2024.xlsx")
    (finding,) = [f for f in inventory.findings if f.code == "activity_factor_differs"]
    assert finding.rows == (6,)
    recife = mixed_fleet_rows()[1]
    litres = sum(TRUCKS_RECIFE)
    theirs = recife[16] * 1000 / litres  # kg of fossil CO2 per litre the workbook implies
    ours = mixed_fleet_gases(TRUCKS_RECIFE, DIESEL_ROAD)["CO2"] * 1000 / litres
    assert theirs / ours == pytest.approx(1.08, rel=1e-4)
    pt = f"A planilha usa {theirs:.2f} kg CO2/L".replace(".", ",")
    assert pt in finding.message_pt
    assert f"a biblioteca, {ours:.2f}".replace(".", ",") + "." in finding.message_pt
    assert f"The workbook uses {theirs:.2f} kg CO2/L" in finding.message_en
    assert f"the library {ours:.2f}." in finding.message_en


def test_kilograms_under_a_header_in_tonnes_are_an_implausible_reading():
    inventory = load_inventory(mixed_fleet_workbook(scale=1000), filename="inventario_2024.xlsx")
    # The row checks are blind to scale: the Total row still agrees with the rows.
    (check,) = inventory.reconciliation
    assert {e.kind: e.agreeing == e.compared for e in check.evidence}["total_rows"]
    implausible = {f.rows: f for f in inventory.findings if f.code == "activity_implausible"}
    assert set(implausible) == {(5, 6), (7,)}  # road trucks, and the forklifts apart
    trucks = implausible[(5, 6)]
    assert trucks.sheet == "Combustão móvel"
    rows = mixed_fleet_rows(scale=1000)
    # The median of the two rows' kg of fossil CO2 per litre, as read (t) × 1000 / litres.
    implied = (
        rows[0][16] * 1000 / sum(TRUCKS_CAMPINAS) + rows[1][16] * 1000 / sum(TRUCKS_RECIFE)
    ) / 2
    shown = f"{implied:,.0f}".replace(",", ".")
    assert (
        f"Aba 'Combustão móvel', coluna 'Emissões fósseis (t) / CO2' (Óleo diesel B (transporte "
        f"rodoviário)): a leitura implica {shown} kg CO2 por litro de óleo diesel; a faixa física "
        "é 1,9–3,2 kg/L (× 0,001 cabe na faixa"
    ) in trucks.message_pt
    assert f"the reading implies {implied:,.0f} kg CO2 per litre of diesel" in trucks.message_en
    assert "Emissões fósseis (t) / CO2" in trucks.message_en


def lpg_months_workbook() -> bytes:
    rows = [["Combustão estacionária – emissões de GEE – 2024"], []]
    rows.append([None, None, "Consumo de GLP (kg)", *[None] * 11, "Emissões (t CO2e)"])
    rows.append(["Unidade", "Combustível", *MIXED_MONTHS, None])
    rows.append(["Fábrica Recife", "GLP", *[3_500.0] * 12, 123.4])
    return xlsx({"Combustão estacionária": rows}, {"Combustão estacionária": ["C3:N3"]})


def test_months_of_kilograms_of_fuel_beside_emissions_are_consumption():
    inventory = load_inventory(lpg_months_workbook(), filename="glp.xlsx")
    assert inventory.total_tco2e == pytest.approx(123.4, rel=1e-9)  # never + 42,000 kg
    assert set(inventory.table["activity"]) == {"lpg_stationary"}
    (check,) = inventory.reconciliation
    activity = next(e for e in check.evidence if e.kind == "activity")
    assert activity.compared == 1
    # 42,000 kg × 46.47348 GJ/t × 63.1 t CO2/TJ (+ 28 × 1 + 265 × 0.1 kg CH4, N2O /TJ) = 125.5 t
    ours = co2e(by_mass(42.0, LPG_NCV, LPG_STATIONARY))
    assert activity.agreeing == int(abs(ours - 123.4) <= 0.02 * ours)


# --- refrigerant recharges: what leaked is the recharge less what was recovered ----------------
# AR5 (IPCC AR5 WG1 Ch. 8 Table 8.A.1): HFC-32 677, HFC-125 3,170, HFC-143a 4,800, HFC-134a
# 1,300, HCFC-22 1,760. R-410A is 50 % HFC-32 + 50 % HFC-125: 0.5·677 + 0.5·3,170 = 1,923.5;
# R-404A 44 % HFC-125 + 52 % HFC-143a + 4 % HFC-134a: 1,394.8 + 2,496 + 52 = 3,942.8
# (ASHRAE 34 compositions, engine/gases/data/blends.csv).
R410A_AR5 = 0.5 * 677 + 0.5 * 3170
R404A_AR5 = 0.44 * 3170 + 0.52 * 4800 + 0.04 * 1300


def recharge_workbook(recharged: str, recovered: str) -> bytes:
    rows = [["Emissões fugitivas – recarga de gases refrigerantes – 2024"], []]
    rows.append(["Equipamento", "Gás refrigerante", recharged, recovered])
    rows += [
        ["Splits do escritório", "R-410A", 12.0, 2.0],
        ["Chiller central", "HFC-134a", 45.0, 5.0],
        ["Câmara fria", "R-404A", 8.0, None],  # nothing recovered
        ["Câmara fria antiga", "R-22", 3.0, 1.0],
        ["Bebedouro", "HFC-134a", 1.0, 4.0],  # recovered more than recharged: a data error
    ]
    return xlsx({"Refrigerantes": rows})


@pytest.mark.parametrize(
    ("recharged", "recovered"),
    [
        ("Quantidade recarregada (kg)", "Recolhido (kg)"),
        ("Recharge (kg)", "Recovered (kg)"),
        ("Recarga (kg)", "Quantidade recolhida (kg)"),
    ],
)
def test_refrigerant_recharges_less_recoveries_times_gwp(recharged, recovered):
    inventory = load_inventory(recharge_workbook(recharged, recovered), filename="gases.xlsx")
    r410a = (12.0 - 2.0) * R410A_AR5 / 1000  # 10 kg × 1,923.5 = 19.235 t CO2e
    hfc134a = (45.0 - 5.0) * 1300 / 1000  # 52 t
    r404a = 8.0 * R404A_AR5 / 1000  # 31.5424 t
    assert r410a == pytest.approx(19.235)
    assert inventory.total_tco2e == pytest.approx(r410a + hfc134a + r404a, rel=1e-9)
    assert inventory.montreal_tco2e == pytest.approx((3.0 - 1.0) * 1760 / 1000, rel=1e-9)
    assert set(inventory.table["basis"]) == {"activity"}
    assert set(inventory.table["scope"]) == {"1"}
    (finding,) = [f for f in inventory.findings if f.code == "activity_not_computed"]
    assert finding.rows == (8,)
    assert f"'{recovered}'" in finding.message_pt and f"'{recovered}'" in finding.message_en


def test_recharges_with_no_unit_anywhere_are_read_as_kg_and_said_so():
    rows = [["Equipamento", "Gás refrigerante", "Ano", "Recarga", "Recolhido"],
            ["Chiller central", "HFC-134a", 2024, 10.0, 2.0]]  # fmt: skip
    inventory = load_inventory(xlsx({"Recargas de gases": rows}), filename="gases.xlsx")
    assert inventory.total_tco2e == pytest.approx((10.0 - 2.0) * 1300 / 1000, rel=1e-9)
    (finding,) = [f for f in inventory.findings if f.code == "activity_unit_assumed"]
    assert finding.rows == (2,)
    assert "kg" in finding.message_pt and "kg" in finding.message_en
    assert finding.message_pt != finding.message_en
