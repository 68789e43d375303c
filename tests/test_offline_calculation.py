"""Calculation questions offline: read from the words, computed by the factor library
through the calculator tool (seen on the trail), answered in the question's language."""

from datetime import date

import pytest

from engine import Aeko, AekoMessenger, AekoSession, AekoUser, ToolCalled, ToolReturned
from engine.emissions import estimate
from engine.emissions.tool import TOOL_NAME
from engine.formatting import number
from engine.gases.gwp import gwp
from engine.offline import OfflineAnalyst
from engine.offline.calculation import answer_calculation, read_calculation

USER = AekoUser(_id="64b8f0a1c9e1a2b3c4d5e6f1", id_external_user=1, role="", usecase="")


def _ask(question: str):
    analyst = OfflineAnalyst()
    Aeko.config(fast_model=analyst, slow_model=analyst)
    session = AekoSession(_id="64b8f0a1c9e1a2b3c4d5e6f3", id_user=USER.id, name="calc")
    events = list(AekoMessenger(USER).stream(question, session))
    return events, events[-1].result


@pytest.mark.parametrize(
    ("question", "activity", "quantity", "unit", "year"),
    [
        ("Meus caminhões queimam 120.000 L de diesel por ano", "diesel_road", 120_000, "L", None),
        ("My trucks burn 120,000 L of diesel a year", "diesel_road", 120_000, "L", None),
        ("120 mil litros de diesel no gerador em 2023", "diesel_stationary", 120_000, "L", 2023),
        ("500 L de diesel no trator", "diesel_offroad", 500, "L", None),
        ("1.000 m³ de gás natural na caldeira", "natural_gas_stationary", 1000, "m³", None),
        ("10 kg de R-410A vazaram", "refrigerant:R-410A", 10, "kg", None),
        ("1,5 MWh de energia elétrica em 2024", "electricity_grid", 1.5, "MWh", 2024),
        ("How much CO2 does 1 t of dolomite release?", "carbonate:dolomite", 1, "t", None),
    ],
)
def test_a_calculation_question_is_read_into_activity_quantity_unit_and_year(
    question, activity, quantity, unit, year
):
    ask = read_calculation(question)
    assert ask is not None
    assert (ask.activity, ask.quantity, ask.unit) == (activity, quantity, unit)
    if year is not None:
        assert ask.year == year


@pytest.mark.parametrize(
    "question",
    ["O que é escopo 1?", "Quanto emite a minha empresa?", "What is 10 kg?", "Explique o GWP"],
)
def test_questions_without_quantity_unit_and_activity_are_no_calculation(question):
    assert read_calculation(question) is None


def test_a_leak_is_computed_with_the_tool_and_its_number_is_the_library_s():
    events, response = _ask("10 kg de R-410A vazaram em 2024: quantas t CO2e?")
    calls = [e for e in events if isinstance(e, ToolCalled)]
    assert [c.tool for c in calls] == [TOOL_NAME]
    assert calls[0].arguments["atividade"] == "refrigerant:R-410A"
    assert any(isinstance(e, ToolReturned) and not e.error for e in events)
    # R-410A: half HFC-32, half HFC-125 by mass; AR5 GWPs from the IPCC package.
    expected = 10 / 1000 * (0.5 * gwp("HFC32", "AR5") + 0.5 * gwp("HFC125", "AR5"))
    assert f"{number(expected, 3)} t CO2e" in response.message.output
    assert response.approved


def test_an_english_question_gets_the_computation_in_english():
    _, response = _ask("How much CO2e is 1 MWh of grid electricity in 2024?")
    factor = estimate("electricity_grid", 1, "MWh", date_or_year=2024).tco2e
    output = response.message.output
    assert "Scope 2" in output and "location-based" in output
    assert f"{number(factor, 4, 'en')} t CO2e" in output
    assert "Escopo" not in output


def test_a_calculation_that_cannot_be_done_says_why_instead_of_guessing():
    _, response = _ask("Quanto emite 1 MWh de energia elétrica em 1990?")
    assert "1990" in response.message.output
    assert "t CO2e" not in response.message.output.split("1990", 1)[0]


def test_a_concept_question_calls_no_calculator():
    events, _ = _ask("O que é escopo 1?")
    # The FAQ may consult the knowledge base; the calculator has nothing to compute.
    assert not any(isinstance(e, ToolCalled) and e.tool == TOOL_NAME for e in events)


# --- gases emitted as such, GWP sets, periods, pure diesel, grid without a library name -----

TODAY = date(2026, 5, 10)


@pytest.mark.parametrize(
    ("question", "activity", "quantity", "unit", "gwp_set"),
    [
        ("How many t CO2e are 500 kg of N2O under AR5 GWPs?", "gas:N2O", 500, "kg", "AR5"),
        ("Quanto é 1 tonelada de metano em t CO2e pelo AR6?", "gas:CH4", 1, "t", "AR6"),
        ("2 t de metano fóssil pelo AR6", "gas:CH4_fossil", 2, "t", "AR6"),
        ("1 t of biogenic methane under AR6?", "gas:CH4_non_fossil", 1, "t", "AR6"),
        ("0,5 t de óxido nitroso no AR4", "gas:N2O", 0.5, "t", "AR4"),
        ("3 kg of nitrogen trifluoride, sixth assessment report", "gas:NF3", 3, "kg", "AR6"),
        ("Quanto é 3 t de CO2 em CO2e?", "gas:CO2", 3, "t", "AR5"),
        ("10 kg de R-410A vazaram pelo AR6", "refrigerant:R-410A", 10, "kg", "AR6"),
    ],
)
def test_a_mass_of_a_gas_is_its_direct_emission_in_the_gwp_set_named(
    question, activity, quantity, unit, gwp_set
):
    ask = read_calculation(question, TODAY)
    assert ask is not None
    assert (ask.activity, ask.quantity, ask.unit, ask.gwp_set) == (
        activity,
        quantity,
        unit,
        gwp_set,
    )


@pytest.mark.parametrize(
    "question",
    [
        "Emitimos 5.000 t de CO2 por ano, como reduzir?",  # the user's total, no conversion
        "Emitimos 40.000 t CO2e: como reduzir?",  # already CO2e: no gas to convert
        "10 t de CO2 biogênico em t CO2e?",  # biogenic CO2 is reported apart, never × 1
    ],
)
def test_a_stated_total_or_biogenic_co2_is_no_gas_to_convert(question):
    assert read_calculation(question, TODAY) is None


def test_direct_gas_answers_are_mass_times_the_ipcc_gwp_hand_computed():
    # 0.5 t × 265 (AR5 Table 8.A.1) = 132.5 t CO2e.
    n2o = answer_calculation(read_calculation("500 kg of N2O under AR5?", TODAY), "en")
    assert "132.500 t CO2e" in n2o and "Table 8.A.1" in n2o
    # 1 t × 27.9 (AR6 Table 7.SM.7, origin not given); fossil 29.8 and non-fossil 27.0
    # (Table 7.15) are named beside it.
    methane = answer_calculation(read_calculation("1 t de metano pelo AR6", TODAY), "pt")
    assert "27,900 t CO2e" in methane and "(AR6)" in methane
    assert "29,8" in methane and "Table 7.15" in methane
    fossil = answer_calculation(read_calculation("1 t of fossil methane, AR6", TODAY), "en")
    assert "29.800 t CO2e" in fossil and "Table 7.15" in fossil
    # AR4 Table 2.14: N2O 298 -> 0.5 t × 298 = 149 t CO2e.
    ar4 = answer_calculation(read_calculation("0,5 t de N2O pelo AR4", TODAY), "pt")
    assert "149,000 t CO2e" in ar4 and "(AR4)" in ar4


def test_an_unknown_gwp_set_is_said_never_replaced_by_ar5():
    ask = read_calculation("1 t de metano no AR7", TODAY)
    assert ask is not None and ask.gwp_set == "AR7"
    text = answer_calculation(ask, "pt")
    assert "AR7" in text and "t CO2e" not in text


@pytest.mark.parametrize(
    ("question", "year"),
    [
        ("Queimamos 1.000 L de diesel no ano passado", 2025),
        ("We burned 1,000 L of diesel last year", 2025),
        ("We burned 1,000 L of diesel this year", 2026),
        ("1.000 L de diesel no ano retrasado", 2024),
        ("We burned 1,000 L of diesel last year (2023)", 2023),  # a year written wins
        ("1.000 L de diesel", 2026),
    ],
)
def test_last_year_is_the_previous_calendar_year(question, year):
    assert read_calculation(question, TODAY).year == year


@pytest.mark.parametrize(
    ("question", "activity"),
    [
        (
            "Our backup generators burned 50,000 liters of pure fossil diesel (B0) last year.",
            "diesel_a_stationary",
        ),
        ("50.000 L de diesel B0 na frota", "diesel_a_road"),
        ("Compramos 2.000 L de Diesel A para os tratores", "diesel_a_offroad"),
        ("50.000 L de diesel no gerador", "diesel_stationary"),  # the pump's diesel B
    ],
)
def test_pure_diesel_is_diesel_a_in_the_use_the_words_say(question, activity):
    assert read_calculation(question, TODAY).activity == activity


def test_pure_diesel_has_no_biodiesel_share_hand_computed():
    ask = read_calculation(
        "Our backup generators burned 50,000 liters of pure fossil diesel (B0) last year.", TODAY
    )
    text = answer_calculation(ask, "en")
    # 50,000 L × 0.840 kg/L = 42,000 kg × 10,100 kcal/kg × 4.1868 kJ/kcal = 1.77604 TJ (BEN
    # density and PCI); stationary, manufacturing (IPCC 2006 Vol. 2 Table 2.3): CO2 1.77604 ×
    # 74,100 = 131,604.6 kg; CH4 1.77604 × 3 × 28 = 149.187 kg CO2e; N2O 1.77604 × 0.6 × 265
    # = 282.390 kg CO2e -> 132.036 t CO2e (AR5).
    assert "132.036 t CO2e" in text
    assert "period 2025" in text and "Blend" not in text and "Biogenic" not in text


@pytest.mark.parametrize(
    ("question", "year", "expected"),
    [
        # 12,000 MWh × 0.0545 t CO2/MWh (MCTI, SIN 2024 annual average) = 654 t.
        (
            "We bought 12,000 MWh from the grid in Brazil in 2024. What are our "
            "location-based Scope 2 emissions?",
            2024,
            "654.000 t CO2e",
        ),
        # 5,000 MWh × 0.0385 t CO2/MWh (MCTI, SIN 2023 annual average) = 192.5 t.
        ("Consumimos 5.000 MWh da rede em 2023: qual o escopo 2?", 2023, "192,500 t CO2e"),
        ("Compramos 800 MWh da distribuidora em 2024", 2024, "43,600 t CO2e"),
    ],
)
def test_grid_electricity_is_read_without_its_library_name(question, year, expected):
    ask = read_calculation(question, TODAY)
    assert (ask.activity, ask.year) == ("electricity_grid", year)
    lang = "en" if "We bought" in question else "pt"
    assert expected in answer_calculation(ask, lang)


def test_watt_hours_with_no_electricity_word_are_no_calculation():
    assert read_calculation("What is 100 MWh?", TODAY) is None


def test_the_gas_calculation_goes_through_the_tool_with_the_gwp_set():
    events, response = _ask("How many t CO2e are 500 kg of N2O under AR5 GWPs?")
    calls = [e for e in events if isinstance(e, ToolCalled)]
    assert [c.tool for c in calls] == [TOOL_NAME]
    assert calls[0].arguments["atividade"] == "gas:N2O"
    assert calls[0].arguments["conjunto_gwp"] == "AR5"
    assert "132.500 t CO2e" in response.message.output
