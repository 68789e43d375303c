"""The emissions library: mechanics on small factor files written here, then hand-computed
checks of every factor family against the shipped data, the batch path and the chat tool.

Hand-computed means: each test writes its source's numbers literally (74,100 kg/TJ, 43.0
GJ/t, 840 kg/m³...) and computes the expected value itself; nothing expected is read back
from the library.
"""

from datetime import date

import numpy as np
import pandas as pd
import pytest
from langchain_core.messages import AIMessage

from engine import Aeko, AekoInventoryAnalyzer, AekoMessenger, ToolCalled, ToolReturned
from engine.agents.catalog import (
    COORDINATOR,
    GREEN_GASES_ANALYST,
    GUARDRAIL,
    INVENTORY_ANALYST,
    ORCHESTRATOR,
    POLLUTANTS_ANALYST,
    ROUTER,
)
from engine.emissions import (
    COLUMNS,
    FactorFileError,
    FactorLibrary,
    PeriodError,
    UnitError,
    UnknownActivityError,
    activities,
    default_library,
    estimate,
    estimate_rows,
    find_activity,
    leaked_by_mass_balance,
    leaked_from_charge,
    parse_period,
    read_factor_csv,
    to,
)
from engine.emissions.calculator import resolve_activity
from engine.emissions.periods import relative_year
from engine.emissions.tool import calculate_emissions
from engine.errors import AekoError, LocalizedError
from engine.formatting import read_number
from engine.models.scripted import ScriptedChatModel
from tests.test_chat_flow import configure
from tests.test_inventory_engine import PLAN

HEADER = ",".join(COLUMNS)
IPCC = "IPCC 2006 (test)"

# A small library with round numbers: the mechanics, not the sources, are under test here.
MECHANICS_CSV = f"""{HEADER}
diesel@road,CO2,74100,kg/TJ,GLOBAL,,,{IPCC},T3.2.1,2006,,
diesel@road,CH4,3.9,kg/TJ,GLOBAL,,,{IPCC},T3.2.2,2006,,
diesel@road,N2O,3.9,kg/TJ,GLOBAL,,,{IPCC},T3.2.2,2006,,
biodiesel@road,CO2_biogenic,70800,kg/TJ,GLOBAL,,,{IPCC},T1.4,2006,,
diesel.density,-,840,kg/m**3,GLOBAL,,,density test,,2020,,
diesel.ncv,-,43,GJ/t,GLOBAL,,,{IPCC},T1.2,2006,,
biodiesel.density,-,880,kg/m**3,GLOBAL,,,density test,,2020,,
biodiesel.ncv,-,27,GJ/t,GLOBAL,,,{IPCC},T1.2,2006,,
diesel_b.biodiesel_share,-,12,percent,BR,2023-04-01,2024-02-29,CNPE test,,2023,,
diesel_b.biodiesel_share,-,14,percent,BR,2024-03-01,2025-07-31,CNPE test,,2023,,
natural_gas@manufacturing,CO2,56100,kg/TJ,GLOBAL,,,{IPCC},T2.3,2006,,
natural_gas@manufacturing,CH4,1,kg/TJ,GLOBAL,,,{IPCC},T2.3,2006,,
natural_gas@manufacturing,N2O,0.1,kg/TJ,GLOBAL,,,{IPCC},T2.3,2006,,
natural_gas.ncv,-,48,GJ/t,GLOBAL,,,{IPCC},T1.2,2006,,
natural_gas.ncv,-,8800,kcal/m**3,BR,,,BEN test,,2024,,
natural_gas.density,-,0.7,kg/m**3,GLOBAL,,,density test,,2020,,
electricity@grid,CO2,0.0545,t/MWh,BR,2024-01-01,2024-12-31,MCTI test,annual,2025,,
electricity@grid,CO2,0.0365,t/MWh,BR,2024-06-01,2024-06-30,MCTI test,monthly,2025,,
electricity@grid,CO2,0.0283,t/MWh,BR,2024-05-01,2024-05-31,MCTI test,monthly,2025,,
carbonate:dolomite,CO2,0.47732,t/t,GLOBAL,,,{IPCC} Vol. 3,T2.1,2006,,
leak:transport.high,-,50,percent/year,GLOBAL,,,{IPCC} Vol. 3,T7.9,2006,,
leak:transport.low,-,15,percent/year,GLOBAL,,,{IPCC} Vol. 3,T7.9,2006,,
"""


@pytest.fixture(scope="module")
def library() -> FactorLibrary:
    return read_factor_csv(MECHANICS_CSV.encode(), source_name="mechanics.csv", user=False)


def user_csv(*rows: str) -> bytes:
    return "\n".join([HEADER, *rows]).encode()


# --- reading factor files -------------------------------------------------------------------


def test_a_factor_file_is_validated_and_marked_as_the_user_s(library):
    assert len(library) == MECHANICS_CSV.count("\n") - 1
    assert not any(f.user for f in library)
    mine = read_factor_csv(
        user_csv("diesel@road,CO2,75000,kg/TJ,BR,,,Ferramenta GHG Protocol,,2024,,"),
        source_name="meus.csv",
    )
    (factor,) = mine.factors
    assert factor.user and factor.value == 75000 and factor.region == "BR"
    assert factor.source == "Ferramenta GHG Protocol (2024)"


@pytest.mark.parametrize(
    ("row", "line", "column", "fragment_pt"),
    [
        ("diesel@road,CO2,74.100,5,kg/TJ,GLOBAL,,,Doc,,,,", 3, "unit", "unidade"),
        ("diesel@road,CO2,74 100,kg/TJ,GLOBAL,,,Doc,,,,", 3, "value", "'74 100'"),
        ("diesel@road,CO2,-1,kg/TJ,GLOBAL,,,Doc,,,,", 3, "value", "≥ 0"),
        ("diesel@road,CO3,1,kg/TJ,GLOBAL,,,Doc,,,,", 3, "gas", "CO3"),
        ("diesel@road,CO2,1,kg/litros de ar,GLOBAL,,,Doc,,,,", 3, "unit", "kg/litros de ar"),
        ("diesel@road,CO2,1,kg/TJ,GLOBAL,2024-13-01,,Doc,,,,", 3, "valid_from", "AAAA-MM-DD"),
        ("diesel@road,CO2,1,kg/TJ,GLOBAL,2024-05-01,2024-01-31,Doc,,,,", 3, "valid_to", "2024"),
        ("diesel@road,CO2,1,kg/TJ,GLOBAL,,,,,,,", 3, "document", "vazio"),
        ("diesel@road,CO2,1,kg/TJ,GLOBAL,,,Doc,,dois mil,,", 3, "year", "ano"),
    ],
)
def test_a_bad_factor_file_names_its_line_and_column(row, line, column, fragment_pt):
    good = "diesel@road,CH4,3.9,kg/TJ,GLOBAL,,,Doc,,,,"
    with pytest.raises(FactorFileError) as caught:
        read_factor_csv(user_csv(good, row), source_name="meus.csv")
    error = caught.value
    assert (error.line, error.column) == (line, column)
    assert f"meus.csv, linha {line}, coluna '{column}'" in error.message("pt")
    assert f"meus.csv, line {line}, column '{column}'" in error.message("en")
    assert fragment_pt in error.message("pt")
    assert isinstance(error, LocalizedError) and isinstance(error, AekoError)


def test_a_missing_column_and_an_empty_file_are_named():
    with pytest.raises(FactorFileError) as caught:
        read_factor_csv(b"key,gas,unit,document\nx,CO2,kg,Doc\n", source_name="f.csv")
    assert (caught.value.line, caught.value.column) == (1, "value")
    with pytest.raises(FactorFileError) as caught:
        read_factor_csv(b"  \n", source_name="f.csv")
    assert "vazio" in caught.value.message("pt")


def test_excel_s_brazilian_csv_with_semicolons_and_decimal_commas_is_read():
    text = HEADER.replace(",", ";") + "\ndiesel@road;CO2;74100,5;kg/TJ;BR;;;Doc;;2024;;\n"
    (factor,) = read_factor_csv(text.encode("cp1252"), source_name="excel.csv").factors
    assert factor.value == 74100.5


# --- lookups: precedence and validity --------------------------------------------------------


def test_user_beats_default_and_br_beats_global(library):
    period = parse_period("2024-06")
    assert library.lookup("natural_gas.ncv", "-", period).unit == "kcal/m**3"  # BR over GLOBAL
    mine = read_factor_csv(
        user_csv("natural_gas.ncv,-,50,GJ/t,GLOBAL,,,Meu laudo,,2024,,"), source_name="u.csv"
    )
    combined = library.overlay(mine)
    chosen = combined.lookup("natural_gas.ncv", "-", period)
    assert chosen.user and chosen.value == 50  # the user's GLOBAL beats the default BR
    assert library.lookup("natural_gas.ncv", "-", period).value == 8800  # library unchanged


def test_a_month_gets_the_monthly_factor_a_year_the_annual(library):
    def grid(when):
        return library.lookup("electricity@grid", "CO2", parse_period(when)).value

    assert grid("2024-06") == 0.0365
    assert grid("2024-06-15") == 0.0365
    assert grid("2024-05") == 0.0283
    assert grid(2024) == 0.0545
    assert grid("2024-07") == 0.0545  # no monthly row: the annual one covers July
    assert library.lookup("electricity@grid", "CO2", parse_period(2023)) is None


def test_a_period_without_a_factor_is_a_period_error(library):
    with pytest.raises(PeriodError) as caught:
        estimate("energia elétrica", 1, "MWh", date_or_year=2023, factors=library)
    message = caught.value.message("pt")
    assert "electricity@grid" in message and "2023" in message and "2024-01-01" in message
    with pytest.raises(PeriodError) as caught:
        estimate("diesel", 1, "L", date_or_year="2022-06", factors=library)
    assert caught.value.key == "diesel_b.biodiesel_share"
    with pytest.raises(PeriodError):
        estimate("diesel", 1, "L", date_or_year="junho", factors=library)


@pytest.mark.parametrize(
    ("text", "label"),
    [
        (2024, "2024"),
        ("2024", "2024"),
        (2024.0, "2024"),
        ("2024-06", "2024-06"),
        ("06/2024", "2024-06"),
        ("jun/2024", "2024-06"),
        ("Junho de 2024", "2024-06"),
        ("15/06/2024", "2024-06-15"),
        ("2024-06-15", "2024-06-15"),
        (date(2024, 6, 15), "2024-06-15"),
        (pd.Timestamp("2024-06-15 10:00"), "2024-06-15"),
    ],
)
def test_periods_are_read_in_either_language(text, label):
    assert parse_period(text).label == label


# --- activities, units and errors -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "activity"),
    [
        ("óleo diesel", "diesel_road"),
        ("OLEO DIESEL S10", "diesel_road"),
        ("caminhão diesel", "diesel_road"),
        ("diesel generator", "diesel_stationary"),
        ("Gás Natural", "natural_gas_stationary"),
        ("natural gas", "natural_gas_stationary"),
        ("energia elétrica", "electricity_grid"),
        ("purchased electricity", "electricity_grid"),
        ("R-410A", "refrigerant:R-410A"),
        ("r410a", "refrigerant:R-410A"),
        ("recarga de R-22", "refrigerant:HCFC22"),
        ("refrigerant:HFC-134a", "refrigerant:HFC134a"),
        ("hexafluoreto de enxofre", "refrigerant:SF6"),
        ("dolomita", "carbonate:dolomite"),
        ("calcário", "carbonate:calcite"),
        ("diesel_offroad", "diesel_offroad"),
    ],
)
def test_activities_are_found_by_id_name_or_synonym(text, activity):
    assert find_activity(text).id == activity


def test_activities_list_names_in_both_languages_and_ingestion_categories():
    listed = {a.id: a for a in activities()}
    categories = set(pd.read_csv("engine/inventory/data/categories.csv")["category_pt"].tolist())
    assert {"diesel_road", "electricity_grid", "refrigerant:R-410A", "carbonate:dolomite"} <= set(
        listed
    )
    for activity in listed.values():
        assert activity.name["pt"] and activity.name["en"]
        assert activity.category in categories
    assert listed["electricity_grid"].scope == 2
    assert listed["diesel_road"].category == "Combustão móvel"
    assert listed["refrigerant:R-410A"].category == "Emissões fugitivas"
    assert find_activity("CO2") is None and find_activity("") is None


def test_an_unknown_activity_suggests_the_three_nearest_and_never_guesses(library):
    with pytest.raises(UnknownActivityError) as caught:
        estimate("dieesel", 100, "L", date_or_year=2024, factors=library)
    error = caught.value
    assert len(error.suggestions) == 3 and error.suggestions[0] == "diesel_road"
    assert "Você quis dizer" in error.message("pt") and "Did you mean" in error.message("en")
    assert "diesel_road" in error.message("pt")


def test_units_go_through_pint_with_brazilian_spellings():
    assert to(1, "m³", "L") == 1000
    assert to(1, "m3", "L") == 1000
    assert to(2, "mil litros", "m**3") == 2
    assert to(3, "litros", "L") == 3
    assert to(1, "MWh", "GJ") == 3.6
    assert to(1, "t", "kg") == 1000
    assert to(1, "gal", "L") == pytest.approx(3.785411784)
    assert to(2, "tkm", "kg*km") == 2000
    assert to(1, "kcal", "J") == pytest.approx(4186.8)  # BEN's International Table calorie


def test_a_unit_pint_cannot_read_or_convert_is_named_with_its_row(library):
    with pytest.raises(UnitError) as caught:
        to(1, "barris de ar", "L", row=12)
    assert "barris de ar" in caught.value.message("pt") and "linha 12" in caught.value.message("pt")
    with pytest.raises(UnitError) as caught:
        estimate("energia elétrica", 10, "L", date_or_year="2024-06", factors=library)
    assert caught.value.unit == "L" and "energia" in caught.value.message("pt")
    with pytest.raises(UnitError):
        estimate("dolomita", 1, "kWh", date_or_year=2024, factors=library)


# --- the chain -------------------------------------------------------------------------------


def test_the_chain_density_ncv_factor_matches_the_per_litre_identity(library):
    result = estimate("gás natural", 1, "m³", date_or_year=2024, factors=library)
    # BR NCV per m³ (8,800 kcal/m³, 4.1868 J/cal): no density needed.
    energy_tj = 8800 * 4186.8 / 1e12
    assert result.gases_t["CO2"] == pytest.approx(energy_tj * 56100 / 1000)
    assert [f.role for f in result.factors] == ["PCI", "fator CO2", "fator CH4", "fator N2O"]
    # With a per-kg NCV the density steps in: CO2/TJ × NCV × density = the per-litre factor.
    mass_based = library.overlay(
        read_factor_csv(
            user_csv("natural_gas.ncv,-,48,GJ/t,BR,,,Laudo,,2024,,"), source_name="u.csv"
        )
    )
    per_m3 = estimate("gás natural", 1, "m³", date_or_year=2024, factors=mass_based)
    used = {f.role: f for f in per_m3.factors}
    reported = used["fator CO2"].value * used["PCI"].value * used["densidade"].value / 1e9
    assert per_m3.gases_t["CO2"] == pytest.approx(reported)
    assert per_m3.gases_t["CO2"] == pytest.approx(56100 * 48 * 0.7 / 1e9)
    assert used["PCI"].user and not used["densidade"].user
    assert "[fator do usuário]" in per_m3.explain("pt")


def test_diesel_b_splits_by_the_share_valid_on_the_date(library):
    result = estimate("diesel S10", 1000, "L", date_or_year="2024-06-15", factors=library)
    fossil_tj = 860 / 1000 * 840 * 43 / 1e6
    bio_tj = 140 / 1000 * 880 * 27 / 1e6
    assert result.gases_t["CO2"] == pytest.approx(fossil_tj * 74100 / 1000)
    assert result.biogenic_co2_t == pytest.approx(bio_tj * 70800 / 1000)
    # CH4 and N2O of both parts count; the bio part has no factor of its own: diesel's.
    assert result.gases_t["CH4"] == pytest.approx((fossil_tj + bio_tj) * 3.9 / 1000)
    text = result.explain("pt")
    assert "14%" in text and "fator de diesel usado para biodiesel" in text
    assert "CO2 biogênico (fora dos escopos" in text
    before = estimate("diesel S10", 1000, "L", date_or_year="2024-02-10", factors=library)
    assert before.biogenic_co2_t == pytest.approx(120 / 1000 * 880 * 27 / 1e6 * 70800 / 1000)


def test_a_year_across_two_shares_uses_the_day_weighted_share(library):
    result = estimate("diesel", 366, "L", date_or_year=2024, factors=library)
    share = (0.12 * 60 + 0.14 * 306) / 366  # 2024: B12 until 29 Feb, B14 from 1 Mar
    bio_tj = 366 * share / 1000 * 880 * 27 / 1e6
    assert result.biogenic_co2_t == pytest.approx(bio_tj * 70800 / 1000)
    assert "60/366 dias" in result.explain("pt") and "306/366 days" in result.explain("en")


def test_a_direct_factor_for_the_activity_beats_the_chain_for_its_gas(library):
    mine = read_factor_csv(
        user_csv("diesel_road,CO2,2.3,kg/L,BR,,,Ferramenta GHG Protocol 2024,,2024,,"),
        source_name="u.csv",
    )
    result = estimate("diesel", 1000, "L", date_or_year="2024-06", factors=library.overlay(mine))
    assert result.gases_t["CO2"] == pytest.approx(2.3)
    assert result.gases_t["CH4"] > 0 and result.biogenic_co2_t > 0  # the chain still runs
    direct = next(f for f in result.factors if f.key == "diesel_road")
    assert direct.user and direct.role == "fator direto CO2 fóssil"


def test_grid_electricity_is_location_based_scope_2(library):
    result = estimate("energia elétrica", 1000, "kWh", date_or_year="2024-06", factors=library)
    assert result.gases_t == {"CO2": pytest.approx(0.0365)}
    assert (result.scope, result.category, result.scope2_method) == (2, "Eletricidade", "location")


def test_carbonates_and_refrigerants(library):
    dolomite = estimate("dolomita", 2, "t", date_or_year=2024, factors=library)
    assert dolomite.tco2e == pytest.approx(2 * 0.47732)
    assert dolomite.category == "Processos industriais"
    r502 = estimate("R-502", 10, "kg", date_or_year=2024, factors=library)
    assert r502.tco2e == 0 and r502.gases_t == {}  # HCFC-22 and CFC-115: Montreal, apart
    assert r502.montreal_t == {"HCFC22": pytest.approx(0.00488), "CFC115": pytest.approx(0.00512)}
    assert "Protocolo de Montreal" in r502.explain("pt")


def test_leak_helpers(library):
    assert leaked_by_mass_balance(30, 12) == 18
    with pytest.raises(ValueError, match="recovered"):
        leaked_by_mass_balance(5, 8)
    assert leaked_from_charge(100, "transport", "high", factors=library) == pytest.approx(50)
    assert leaked_from_charge(100, "transport", "low", factors=library) == pytest.approx(15)
    with pytest.raises(UnknownActivityError) as caught:
        leaked_from_charge(100, "chillers", factors=library)
    assert "transport" in caught.value.suggestions


def test_gwp_sets_change_only_the_co2e(library):
    ar5 = estimate("gás natural", 1000, "m³", date_or_year=2024, factors=library)
    ar6 = estimate("gás natural", 1000, "m³", date_or_year=2024, gwp_set="ar6", factors=library)
    assert ar5.gases_t == ar6.gases_t and ar5.gwp_set == "AR5" and ar6.gwp_set == "AR6"
    ch4, n2o = ar5.gases_t["CH4"], ar5.gases_t["N2O"]
    assert ar6.tco2e - ar5.tco2e == pytest.approx(ch4 * (27.9 - 28) + n2o * (273 - 265))


# --- batch ------------------------------------------------------------------------------------


def test_batch_rows_equal_one_by_one_estimates(library):
    rows = pd.DataFrame(
        {
            "activity": ["diesel", "energia elétrica", "R-410A", "diesel", "dolomita"],
            "quantity": [1000, 250.5, 3, 2000, 1.5],
            "unit": ["L", "MWh", "kg", "m³", "t"],
            "period": ["2024-06", "2024-05", 2024, "2024-06", 2024],
        }
    )
    result = estimate_rows(rows, factors=library)
    for i, row in rows.iterrows():
        single = estimate(
            row.activity, row.quantity, row.unit, date_or_year=row.period, factors=library
        )
        assert result.table.loc[i, "tco2e"] == pytest.approx(single.tco2e)
        assert result.table.loc[i, "biogenic_co2_t"] == pytest.approx(single.biogenic_co2_t)
    assert result.table["activity_id"].tolist() == [
        "diesel_road", "electricity_grid", "refrigerant:R-410A", "diesel_road",
        "carbonate:dolomite",
    ]  # fmt: skip
    assert result.table.loc[2, "t:HFC32"] == pytest.approx(0.0015)
    assert result.table.loc[1, "t:HFC32"] == 0
    assert len(result.estimates) == 5  # 2000 m³ of diesel is a group of its own


def test_batch_errors_raise_with_the_row_or_are_collected(library):
    rows = [
        {"activity": "diesel", "quantity": 10, "unit": "L", "period": "2024-06", "row": 7},
        {"activity": "diesel", "quantity": 10, "unit": "kWhh", "period": "2024-06", "row": 8},
        {"activity": "xarope", "quantity": 10, "unit": "L", "period": "2024-06", "row": 9},
    ]
    with pytest.raises(UnitError) as caught:
        estimate_rows(rows, factors=library)
    assert caught.value.row == 8 and "linha 8" in caught.value.message("pt")
    collected = estimate_rows(rows, factors=library, errors="collect")
    table = collected.table
    assert table.loc[0, "tco2e"] > 0 and pd.isna(table.loc[0, "error"])
    assert np.isnan(table.loc[1, "tco2e"]) and "kWhh" in table.loc[1, "error"]
    assert "Atividade desconhecida" in table.loc[2, "error"]
    assert collected.total_tco2e == pytest.approx(table.loc[0, "tco2e"])


# --- the shipped library, hand-computed from its sources --------------------------------------
# Sources as listed in engine/emissions/data/README.md: the BEN (EPE) conversion table for
# Brazilian densities and PCIs (kcal at 4.1868 kJ/kcal); IPCC 2006 Vol. 2 Tables 1.2 (NCV,
# GLOBAL), 2.3 and 3.2.1/3.2.2 (factors); MCTI SIN factors; IPCC 2006 Vol. 3 Tables 2.1 and
# 7.9; AR4/AR5 GWPs. tests/test_factor_library_ben.py has the blends and the LPG forklift.
KCAL_GJ = 4.1868e-6  # GJ per kcal: the BEN's International Table calorie (4.1868 kJ)
GJ_T = 4.1868e-3  # GJ/t per kcal/kg: 1 kcal/kg = 4.1868 kJ/kg = 4.1868 MJ/t


def test_the_shipped_library_loads_and_is_all_defaults():
    shipped = default_library()
    assert len(shipped) > 400 and not any(f.user for f in shipped)
    assert all(f.document for f in shipped)


def test_natural_gas_in_an_industrial_boiler_1000_m3():
    result = estimate("natural_gas_stationary", 1000, "m³", date_or_year=2024)
    # BEN dry natural gas PCI 8,800 kcal/m³ × 4.1868 kJ/kcal = 36.84384 MJ/m³, per volume:
    # no density (0.7 kg/m³ × 48 GJ/t would give 33.6 MJ/m³, 9% low).
    energy_tj = 1000 * 8800 * KCAL_GJ / 1000  # 36.84384 GJ = 0.03684384 TJ
    co2_t = energy_tj * 56100 / 1000  # IPCC Table 2.3, natural gas, manufacturing
    ch4_t = energy_tj * 1 / 1000
    n2o_t = energy_tj * 0.1 / 1000
    assert result.gases_t["CO2"] == pytest.approx(co2_t)  # 2.06694 t (2.07 kg CO2/m³)
    assert co2_t == pytest.approx(2.0669394, rel=1e-6)
    assert result.gases_t["CH4"] == pytest.approx(ch4_t)
    assert result.gases_t["N2O"] == pytest.approx(n2o_t)
    assert result.tco2e == pytest.approx(co2_t + ch4_t * 28 + n2o_t * 265)
    assert result.biogenic_co2_t == 0
    assert (result.scope, result.category) == (1, "Combustão estacionária")


def test_lpg_per_litre_identity_co2_per_tj_times_ncv_times_density():
    result = estimate("GLP", 1, "L", date_or_year=2024)
    # BEN: 552 kg/m³, 11,100 kcal/kg = 46.47348 GJ/t; IPCC Table 2.3: 63,100 kg CO2/TJ.
    per_litre_kg = 63100 * (11100 * GJ_T) * 552 / 1e6 / 1000  # kg/TJ × GJ/t × kg/m³
    assert result.gases_t["CO2"] * 1000 == pytest.approx(per_litre_kg)  # 1.6187 kg CO2/L
    used = {f.role: f for f in result.factors}
    assert (used["PCI"].value, used["PCI"].unit) == (11100, "kcal/kg")
    # kg/TJ × kcal/kg × kg/m³ = 4.1868e-15 t per litre: the factors the estimate reports
    # multiply back to its own result.
    product = used["fator CO2"].value * used["PCI"].value * used["densidade"].value
    assert product * 4.1868e-15 == pytest.approx(result.gases_t["CO2"])


def test_diesel_b14_in_a_truck_1000_l_on_2024_06_15():
    result = estimate("caminhão diesel", 1000, "L", date_or_year=date(2024, 6, 15))
    fossil_l, bio_l = 1000 * (1 - 0.14), 1000 * 0.14  # B14 from 2024-03-01 (CNPE)
    # One basis for both parts, BEN density × BEN PCI per mass: diesel 840 kg/m³ and
    # 10,100 kcal/kg (42.28668 GJ/t); biodiesel 880 kg/m³ and 9,000 kcal/kg (37.6812 GJ/t).
    fossil_tj = fossil_l / 1000 * 840 * (10100 * GJ_T) / 1e6  # 722.4 kg -> 0.0305479 TJ
    bio_tj = bio_l / 1000 * 880 * (9000 * GJ_T) / 1e6  # 123.2 kg -> 0.00464232 TJ
    co2_t = fossil_tj * 74100 / 1000  # IPCC Table 3.2.1, diesel
    assert result.gases_t["CO2"] == pytest.approx(co2_t)  # 2.26360 t
    assert result.biogenic_co2_t == pytest.approx(bio_tj * 70800 / 1000)  # Table 1.4 biodiesel
    # Table 3.2.2 has no biodiesel row: diesel's CH4 3.9 and N2O 3.9 kg/TJ for both parts.
    ch4_t = (fossil_tj + bio_tj) * 3.9 / 1000
    assert result.gases_t["CH4"] == pytest.approx(ch4_t)
    assert result.gases_t["N2O"] == pytest.approx(ch4_t)
    assert result.tco2e == pytest.approx(co2_t + ch4_t * 28 + ch4_t * 265)
    assert (result.scope, result.category) == (1, "Combustão móvel")


def test_diesel_b_by_mass_is_split_by_the_ben_densities():
    result = estimate("diesel", 1000, "kg", date_or_year="2024-06")
    # B14: 1 L of blend weighs 0.86 × 0.840 + 0.14 × 0.880 = 0.8456 kg (BEN densities).
    litres = 1000 / (0.86 * 0.840 + 0.14 * 0.880)  # 1,182.6 L
    fossil_tj = litres * 0.86 * 0.840 * (10100 * GJ_T) / 1e6
    bio_tj = litres * 0.14 * 0.880 * (9000 * GJ_T) / 1e6
    assert result.gases_t["CO2"] == pytest.approx(fossil_tj * 74100 / 1000)
    assert result.biogenic_co2_t == pytest.approx(bio_tj * 70800 / 1000)


def test_hydrated_ethanol_in_cars_1000_l():
    result = estimate("etanol hidratado", 1000, "L", date_or_year="2024-06")
    # BEN: 809 kg/m³ × 6,300 kcal/kg (26.37684 GJ/t) = 21.339 MJ/L.
    energy_tj = 1000 / 1000 * 809 * (6300 * GJ_T) / 1e6
    assert result.biogenic_co2_t == pytest.approx(energy_tj * 70800 / 1000)  # Table 1.4
    assert result.gases_t["CH4"] == pytest.approx(energy_tj * 18 / 1000)  # Table 3.2.2 Brazil
    # Table 3.2.2 prints NA for ethanol N2O: gasoline's 8 kg/TJ (oxidation catalyst) stands in.
    assert result.gases_t["N2O"] == pytest.approx(energy_tj * 8 / 1000)
    assert "CO2" not in result.gases_t
    assert "fator de gasolina usado para etanol: a fonte não traz um" in result.explain("pt")


@pytest.mark.parametrize(("period", "factor"), [("2024-06", 0.0365), ("2024-05", 0.0283),
                                                 (2024, 0.0545), (2023, 0.0385)])  # fmt: skip
def test_one_mwh_of_grid_electricity(period, factor):
    result = estimate("energia elétrica", 1, "MWh", date_or_year=period)
    assert result.gases_t["CO2"] == pytest.approx(factor)  # MCTI SIN average factor, t/MWh
    assert result.tco2e == pytest.approx(factor)
    assert result.scope2_method == "location"


def test_grid_year_without_an_annual_factor_gets_the_mean_of_its_months():
    # MCTI's annual SIN average is the mean of its 12 monthly factors; 2022's is 0.0426.
    result = estimate("energia elétrica", 1, "MWh", date_or_year=2022)
    assert result.tco2e == pytest.approx(0.0426, abs=0.00005)
    assert "mean of the 12 monthly factors" in result.explain("pt")


def test_ten_kg_of_r410a_leaked():
    # R-410A = 50% HFC-32 + 50% HFC-125 by mass (blends.csv).
    ar5 = estimate("R-410A", 10, "kg", date_or_year=2024)
    assert ar5.tco2e == pytest.approx(10 * (0.5 * 677 + 0.5 * 3170) / 1000)  # 19.235
    ar4 = estimate("R-410A", 10, "kg", date_or_year=2024, gwp_set="AR4")
    assert ar4.tco2e == pytest.approx(10 * (0.5 * 675 + 0.5 * 3500) / 1000)  # 20.875
    assert ar5.gases_t == {"HFC32": pytest.approx(0.005), "HFC125": pytest.approx(0.005)}


def test_one_tonne_of_dolomite():
    result = estimate("dolomita", 1, "t", date_or_year=2024)
    assert result.gases_t["CO2"] == pytest.approx(0.47732)  # IPCC Vol. 3 Table 2.1
    assert "0,47732 t CO2/t" in result.explain("pt")


def test_transport_refrigeration_leak_rate():
    assert leaked_from_charge(8, "transport") == pytest.approx(8 * 0.50)  # Table 7.9, high
    assert leaked_from_charge(8, "transport", "low") == pytest.approx(8 * 0.15)


@pytest.mark.parametrize(
    ("activity", "quantity", "unit", "gwp_set", "expected"),
    [
        ("gas:N2O", 500, "kg", "AR5", 0.5 * 265),  # AR5 WG1 Table 8.A.1
        ("gas:N2O", 0.5, "t", "AR4", 0.5 * 298),  # AR4 WG1 Table 2.14
        ("gas:N2O", 0.5, "t", "AR6", 0.5 * 273),  # AR6 WG1 Table 7.SM.7
        ("gas:CH4", 1, "t", "AR5", 28),
        ("gas:CH4", 1, "t", "AR4", 25),
        ("gas:CH4", 1, "t", "AR6", 27.9),  # Table 7.SM.7: origin not given
        ("gas:CH4_fossil", 1, "t", "AR6", 29.8),  # Table 7.15
        ("gas:CH4_non_fossil", 1, "t", "AR6", 27.0),  # Table 7.15
        ("gas:CH4_fossil", 1, "t", "AR5", 28),  # one value outside AR6
        ("gas:SF6", 2, "kg", "AR5", 0.002 * 23_500),
        ("gas:NF3", 1, "kg", "AR5", 0.001 * 16_100),
        ("gas:CF4", 1, "kg", "AR5", 0.001 * 6_630),
        ("gas:CO2", 3, "t", "AR6", 3),
        ("gas:R-410A", 10, "kg", "AR5", 10 * (0.5 * 677 + 0.5 * 3170) / 1000),
    ],
)
def test_a_gas_emitted_as_such_is_its_mass_times_its_gwp(
    activity, quantity, unit, gwp_set, expected
):
    result = estimate(activity, quantity, unit, date_or_year=2024, gwp_set=gwp_set)
    assert result.tco2e == pytest.approx(expected)
    assert result.method == "direct_gas" and result.scope == 1
    assert result.biogenic_co2_t == 0


def test_a_direct_gas_cites_the_ipcc_table_of_its_gwp():
    n2o = estimate("gas:N2O", 500, "kg", date_or_year=2024)
    assert [u.source for u in n2o.factors] == ["IPCC AR5, WG1, Ch. 8, Table 8.A.1 (2013)"]
    text = n2o.explain("en")
    assert "500 kg × 265 kg CO2e/kg (N2O GWP AR5; IPCC AR5" in text
    assert "= 132,500 kg CO2e\n" in text and "0.5 t N2O × 265 = 132.500 t CO2e" in text
    fossil = estimate("gas:CH4_fossil", 1, "t", date_or_year=2024, gwp_set="AR6")
    assert fossil.factors[0].source == "IPCC AR6, WG1, Ch. 7, Table 7.15 (2021)"
    general = estimate("gas:CH4", 1, "t", date_or_year=2024, gwp_set="AR6").explain("pt")
    assert "Table 7.SM.7" in general and "29,8" in general and "27" in general


@pytest.mark.parametrize(
    ("text", "activity"),
    [
        ("N2O", "gas:N2O"),
        ("óxido nitroso", "gas:N2O"),
        ("metano fóssil", "gas:CH4_fossil"),
        ("CH4 biogênico", "gas:CH4_non_fossil"),
        ("non-fossil methane", "gas:CH4_non_fossil"),
        ("PFC-14", "refrigerant:CF4"),  # a fluorinated gas keeps its leak: mass × GWP too
        ("gas:CH4_fossil", "gas:CH4_fossil"),
        ("R-410A", "refrigerant:R-410A"),  # a library name keeps its activity
    ],
)
def test_the_calculator_reads_a_bare_gas_as_its_direct_emission(text, activity):
    assert resolve_activity(text).id == activity


def test_a_bare_gas_is_no_activity_for_the_inventory_reader():
    # find_activity reads inventory labels: a 'CO2' column is no activity datum.
    assert find_activity("CO2") is None and find_activity("N2O") is None
    assert not any(a.method == "direct_gas" for a in activities())
    with pytest.raises(UnknownActivityError):
        resolve_activity("CO2 biogênico")  # no GWP: reported apart, never × 1


def test_a_gas_is_given_by_mass():
    with pytest.raises(UnitError):
        estimate("gas:CH4", 100, "m³", date_or_year=2024)


def test_diesel_a_has_no_biodiesel_in_any_year():
    # 50,000 L × 840 kg/m³ = 42,000 kg × 10,100 kcal/kg × 4.1868 kJ/kcal = 1.77604056 TJ
    # (BEN); Table 2.3 (manufacturing): CO2 74,100, CH4 3, N2O 0.6 kg/TJ ->
    # 131,604.60 + 5.32812 × 28 + 1.06562 × 265 = 132,036.15 kg CO2e.
    energy_tj = 42_000 * 10100 * 4186.8 / 1e12
    expected_t = energy_tj * (74100 + 3 * 28 + 0.6 * 265) / 1000
    assert expected_t == pytest.approx(132.03615, rel=1e-6)
    for year in (2010, 2024, 2025):  # 2010: before any biodiesel share the library has
        result = estimate("diesel_a_stationary", 50_000, "L", date_or_year=year)
        assert result.tco2e == pytest.approx(expected_t)
        assert result.biogenic_co2_t == 0
        assert not any(u.key == "diesel_b.biodiesel_share" for u in result.factors)
    assert find_activity("diesel B0").id == "diesel_a_road"
    assert find_activity("diesel").id == "diesel_road"  # a bare diesel is the pump's B


@pytest.mark.parametrize(
    ("text", "year"),
    [
        ("burned last year", 2025),
        ("no ano passado", 2025),
        ("no ano anterior", 2025),
        ("this year", 2026),
        ("neste ano", 2026),
        ("ano retrasado", 2024),
        ("the year before last", 2024),
        ("in the last years", None),
        ("em 2024", None),
    ],
)
def test_a_year_named_relative_to_today_is_a_calendar_year(text, year):
    assert relative_year(text, date(2026, 1, 15)) == year


def test_the_explanation_shows_quantity_times_factor_with_its_source():
    result = estimate("natural_gas_stationary", 1000, "m³", date_or_year=2024)
    text = result.explain("pt")
    assert "1.000 m³ × 8.800 kcal/m³ (PCI; Balanço Energético Nacional (BEN)" in text
    assert "(densidade;" not in text  # a PCI per volume needs none
    # the table's locator in the reader's language; the title as published
    assert "× 56.100 kg CO2/TJ (fator CO2;" in text and "Tabela 2.3" in text
    assert "2006 IPCC Guidelines for National Greenhouse Gas Inventories" in text
    assert "t CO2e." in text
    english = result.explain("en")
    assert "1,000 m³ × 8,800 kcal/m³ (NCV;" in english and "Total in scope (AR5)" in english


# --- the chat tool ----------------------------------------------------------------------------


def test_the_tool_returns_the_computation_or_a_bilingual_error():
    text = calculate_emissions.invoke(
        {"atividade": "R-410A", "quantidade": "10", "unidade": "kg", "data_ou_ano": 2024}
    )
    assert "19,235 t CO2e" in text and "GWP AR5" in text
    error = calculate_emissions.invoke(
        {"atividade": "xarope", "quantidade": 1, "unidade": "L", "data_ou_ano": "2024"}
    )
    assert error.startswith("Erro: Atividade desconhecida") and "\nError: Unknown" in error
    assert read_number("1.000,5") == 1000.5 and read_number("1,000.5") == 1000.5


def test_an_analyst_calls_the_tool_and_cites_its_computation(user, session):
    call = AIMessage(
        content="",
        tool_calls=[
            {
                "name": "calcular_emissoes",
                "args": {"atividade": "dolomita", "quantidade": 1000, "unidade": "t",
                         "data_ou_ano": 2024},
                "id": "c1",
            }
        ],
    )  # fmt: skip
    fast, slow = configure(
        {
            ROUTER: ["Cálculo.\nNext agent: Analista de Poluentes"],
            ORCHESTRATOR: ["477,32 t CO2.\nNext agent: Guardrail de Saída"],
            GUARDRAIL: ["Aprovado."],
        },
        {POLLUTANTS_ANALYST: [call, "477,32 t CO2.\nNext agent: Orquestrador"]},
    )
    events = list(AekoMessenger(user).stream("Quanto emite 1.000 t de dolomita?", session))
    first, second = slow.calls_for(POLLUTANTS_ANALYST)
    assert "calcular_emissoes" in first.tools
    assert "- calcular_emissoes: Calcule emissões" in first.messages[0].text
    assert "= 477,320 t CO2e" in second.messages[-1].text  # the computation went back
    (called,) = [e for e in events if isinstance(e, ToolCalled)]
    (returned,) = [e for e in events if isinstance(e, ToolReturned)]
    assert (called.agent, called.tool) == (POLLUTANTS_ANALYST, "calcular_emissoes")
    assert not returned.error and "IPCC" in returned.output
    assert "calcular_emissoes" not in fast.calls_for(ROUTER)[0].messages[0].text


def test_the_tool_is_bound_to_the_analysts_in_both_flows(user, session):
    _fast, slow = configure(
        {
            ROUTER: ["Alternativas.\nNext agent: Analista de Gases Verdes"],
            ORCHESTRATOR: ["HVO.\nNext agent: Guardrail de Saída"],
            GUARDRAIL: ["Aprovado."],
        },
        {GREEN_GASES_ANALYST: ["HVO.\nNext agent: Orquestrador"]},
    )
    AekoMessenger(user).send_message("Alternativas ao diesel?", session)
    # In chat the analyst may hold other tools too (the knowledge base): the calculator is one.
    assert "calcular_emissoes" in slow.calls_for(GREEN_GASES_ANALYST)[0].tools
    model = ScriptedChatModel(
        model_name="fake",
        script={
            INVENTORY_ANALYST: ["Lido.\nNext agent: Analista de Poluentes"],
            POLLUTANTS_ANALYST: ["P.\nNext agent: Coordenador de Melhoria Contínua"],
            GREEN_GASES_ANALYST: ["G.\nNext agent: Coordenador de Melhoria Contínua"],
            COORDINATOR: [PLAN],
        },
    )
    Aeko.config(fast_model=model, slow_model=model)
    markdown = "| Fonte | t CO2e |\n|---|---|\n| Caldeira | 10 |"
    AekoInventoryAnalyzer().analyze(markdown, id_external_inventory=1)
    # Beside it, the arithmetic calculator (figures of more than one step); the coordinator
    # has only that one: it computes with what it was given and converts no activity data.
    for analyst in (INVENTORY_ANALYST, POLLUTANTS_ANALYST, GREEN_GASES_ANALYST):
        assert model.calls_for(analyst)[0].tools == ("calcular_emissoes", "calcular")
    assert model.calls_for(COORDINATOR)[0].tools == ("calcular",)
