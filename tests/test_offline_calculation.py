"""Calculation questions offline: read from the words, computed by the factor library
through the calculator tool (seen on the trail), answered in the question's language."""

import pytest

from engine import Aeko, AekoMessenger, AekoSession, AekoUser, ToolCalled, ToolReturned
from engine.emissions import estimate
from engine.emissions.tool import TOOL_NAME
from engine.formatting import number
from engine.inventory.gwp import gwp
from engine.offline import OfflineAnalyst
from engine.offline.calculation import read_calculation

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
    assert not any(isinstance(e, ToolCalled) for e in events)
