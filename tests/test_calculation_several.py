"""A question that gives several quantities gets each one computed and their sum per scope,
and a yearly grid consumption of a year MCTI published only monthly factors for gets the
annual average factor (the mean of the twelve months, MCTI's own method).

Expected values are computed here from the sources' constants, never by the engine: BEN's
8,800 kcal/m³ for dry natural gas, IPCC 2006 Vol. 2 Table 2.3 (56,100 kg CO2, 1 kg CH4 and
0.1 kg N2O per TJ), AR5 GWPs (28, 265) and MCTI/SIRENE's published SIN averages.
"""

import csv
from collections import defaultdict
from pathlib import Path

import pytest

from engine import AekoUser, ToolCalled
from engine.emissions import estimate
from engine.emissions.tool import TOOL_NAME
from engine.offline.calculation import read_calculations
from tests.eval.checks import quantities
from tests.test_offline_calculation import _ask  # the same user, session and analyst

USER = AekoUser(_id="64b8f0a1c9e1a2b3c4d5e6f1", id_external_user=1, role="", usecase="")
GRID_CSV = Path(__file__).resolve().parents[1] / "engine/emissions/data/grid.csv"

KCAL_KJ = 4.1868  # kJ per international table calorie
AR5 = {"CH4": 28, "N2O": 265}


def _natural_gas_t(m3: float) -> float:
    tj = m3 * 8_800 * KCAL_KJ / 1e9
    return tj * (56_100 + 1 * AR5["CH4"] + 0.1 * AR5["N2O"]) / 1_000


@pytest.mark.parametrize(
    "question",
    [
        "Em 2023 a fábrica queimou 250 mil m³ de gás natural na caldeira e consumiu 2.000 MWh "
        "da rede. Quanto isso dá em t CO2e?",
        "Gás natural na caldeira: 250.000 m³; energia da rede: 2.000 MWh (ano de 2023).",
        "In 2023 our site burnt 250,000 m³ of natural gas in boilers and bought 2,000 MWh of "
        "grid power: emissions?",
    ],
)
def test_each_quantity_is_read_with_the_activity_of_its_own_clause(question):
    asks = read_calculations(question)
    assert [(a.activity, a.quantity, a.unit, a.year) for a in asks] == [
        ("natural_gas_stationary", 250_000, "m³", 2023),
        ("electricity_grid", 2_000, "MWh", 2023),
    ]


def test_two_refrigerants_each_keep_their_own_gas():
    asks = read_calculations("Vazaram 12 kg de R-404A e 3 kg de R-134a no ano passado")
    assert [(a.activity, a.quantity) for a in asks] == [
        ("refrigerant:R-404A", 12),
        ("refrigerant:HFC134a", 3),
    ]


def test_the_answer_computes_both_and_sums_them_per_scope_through_the_calculator():
    question = (
        "In 2023 our site burnt 250,000 m³ of natural gas in boilers and bought 2,000 MWh of "
        "grid power: emissions?"
    )
    events, response = _ask(question)
    calls = [e for e in events if isinstance(e, ToolCalled) and e.tool == TOOL_NAME]
    assert len(calls) == 2  # one calculator call per quantity, shown on the trail
    scope1 = _natural_gas_t(250_000)
    scope2 = 2_000 * 0.0385  # MCTI/SIRENE SIN annual average 2023
    found = [q.value for q in quantities(response.message.output, "en")]
    for expected in (scope1, scope2, scope1 + scope2):
        assert any(abs(value - expected) <= 0.005 * expected for value in found), (
            expected,
            found,
        )
    assert not response.unverified


# MCTI/SIRENE's published annual averages of the SIN (t CO2/MWh), for years whose annual cell
# the library does not ship.
@pytest.mark.parametrize(("year", "published"), [(2020, 0.0617), (2021, 0.1264), (2022, 0.0426)])
def test_a_yearly_grid_consumption_uses_the_annual_average_of_its_months(year, published):
    result = estimate("electricity_grid", 1_000, "MWh", date_or_year=year)
    # MCTI averages unrounded months; the library's months are rounded to 4 decimals.
    assert result.tco2e == pytest.approx(1_000 * published, abs=0.1 + 1e-9)


def test_the_published_annual_factors_are_the_mean_of_their_months():
    """The evidence for the method: where the library ships MCTI's annual figure, it is the
    mean of the same year's twelve monthly figures (to MCTI's four decimals)."""
    months: dict[int, list[float]] = defaultdict(list)
    annual: dict[int, float] = {}
    with GRID_CSV.open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            start, end = row["valid_from"], row["valid_to"]
            year = int(start[:4])
            if start.endswith("-01-01") and end.endswith("-12-31"):
                annual[year] = float(row["value"])
            else:
                months[year].append(float(row["value"]))
    assert len(annual) >= 3
    for year, value in annual.items():
        assert len(months[year]) == 12
        assert abs(sum(months[year]) / 12 - value) <= 0.00005 + 1e-12, year


def test_a_partial_year_of_months_is_not_averaged():
    from engine.emissions.factors import FactorLibrary, default_library

    kept = [
        f
        for f in default_library()
        if not (f.key == "electricity@grid" and f.valid_from and f.valid_from.year == 2022
                and f.valid_from.month == 7)
    ]  # fmt: skip
    with pytest.raises(Exception) as refused:
        estimate("electricity_grid", 1_000, "MWh", date_or_year=2022, factors=FactorLibrary(kept))
    assert "2022" in str(refused.value)
