"""Properties of the calculator that hold for any quantity, unit, date and GWP set.

On a small factor file written here (round numbers), so a change to the shipped data
cannot hide a change in the mechanics.
"""

import csv
from datetime import date, timedelta
from pathlib import Path

import globalwarmingpotentials
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.emissions import COLUMNS, estimate, estimate_rows, read_factor_csv

HEADER = ",".join(COLUMNS)
CSV = f"""{HEADER}
diesel@road,CO2,74100,kg/TJ,GLOBAL,,,IPCC test,,2006,,
diesel@road,CH4,3.9,kg/TJ,GLOBAL,,,IPCC test,,2006,,
diesel@road,N2O,3.9,kg/TJ,GLOBAL,,,IPCC test,,2006,,
biodiesel@road,CO2_biogenic,70800,kg/TJ,GLOBAL,,,IPCC test,,2006,,
diesel.density,-,840,kg/m**3,GLOBAL,,,test,,2020,,
diesel.ncv,-,43,GJ/t,GLOBAL,,,test,,2006,,
biodiesel.density,-,880,kg/m**3,GLOBAL,,,test,,2020,,
biodiesel.ncv,-,27,GJ/t,GLOBAL,,,test,,2006,,
diesel_b.biodiesel_share,-,10,percent,BR,2022-01-01,2023-03-31,CNPE test,,2022,,
diesel_b.biodiesel_share,-,12,percent,BR,2023-04-01,2024-02-29,CNPE test,,2023,,
diesel_b.biodiesel_share,-,14,percent,BR,2024-03-01,2025-07-31,CNPE test,,2023,,
diesel_b.biodiesel_share,-,15,percent,BR,2025-08-01,,CNPE test,,2025,,
natural_gas@manufacturing,CO2,56100,kg/TJ,GLOBAL,,,IPCC test,,2006,,
natural_gas@manufacturing,CH4,1,kg/TJ,GLOBAL,,,IPCC test,,2006,,
natural_gas@manufacturing,N2O,0.1,kg/TJ,GLOBAL,,,IPCC test,,2006,,
natural_gas.ncv,-,48,GJ/t,GLOBAL,,,test,,2006,,
natural_gas.density,-,0.7,kg/m**3,GLOBAL,,,test,,2020,,
electricity@grid,CO2,0.05,t/MWh,BR,2022-01-01,2025-12-31,MCTI test,,2025,,
carbonate:dolomite,CO2,0.47732,t/t,GLOBAL,,,IPCC test,,2006,,
"""
LIBRARY = read_factor_csv(CSV.encode(), source_name="properties.csv", user=False)
# The same library with no biodiesel in diesel: the "unblended" computation.
PURE = read_factor_csv(
    CSV.replace(",percent,", ",percent,").replace("-,10,", "-,0,").replace("-,12,", "-,0,")
    .replace("-,14,", "-,0,").replace("-,15,", "-,0,").encode(),
    source_name="pure.csv",
    user=False,
)  # fmt: skip

ACTIVITIES = {  # activity -> units it may come in
    "diesel_road": ("L", "m³", "kg", "t", "GJ"),
    "natural_gas_stationary": ("m³", "kg", "GJ", "MWh"),
    "electricity_grid": ("kWh", "MWh", "GJ"),
    "carbonate:dolomite": ("kg", "t"),
    "refrigerant:R-410A": ("kg", "t"),
    "refrigerant:R-404A": ("kg",),
    "refrigerant:HFC134a": ("kg",),
    "gas:N2O": ("kg", "t"),
    "gas:CH4": ("kg", "t"),
    "gas:SF6": ("kg",),
}
GWP_SETS = ("AR4", "AR5", "AR6")

quantities = st.floats(min_value=0.001, max_value=1e7, allow_nan=False, allow_infinity=False)
days = st.dates(min_value=date(2022, 1, 1), max_value=date(2025, 12, 31))
periods = st.one_of(
    days,
    days.map(lambda d: f"{d.year}-{d.month:02d}"),
    st.integers(min_value=2022, max_value=2025),
)
activity_units = st.sampled_from(sorted(ACTIVITIES)).flatmap(
    lambda a: st.tuples(st.just(a), st.sampled_from(ACTIVITIES[a]))
)


def _close(a: float, b: float) -> bool:
    return a == pytest.approx(b, rel=1e-9, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(activity_units, quantities, periods, st.sampled_from(GWP_SETS))
def test_emissions_are_linear_in_the_quantity(activity_unit, quantity, period, gwp_set):
    activity, unit = activity_unit
    one = estimate(activity, 1, unit, date_or_year=period, gwp_set=gwp_set, factors=LIBRARY)
    many = estimate(activity, quantity, unit, date_or_year=period, gwp_set=gwp_set,
                    factors=LIBRARY)  # fmt: skip
    assert _close(many.tco2e, quantity * one.tco2e)
    assert _close(many.biogenic_co2_t, quantity * one.biogenic_co2_t)
    assert many.gases_t.keys() == one.gases_t.keys()
    for gas, tonnes in many.gases_t.items():
        assert _close(tonnes, quantity * one.gases_t[gas])


@settings(max_examples=40, deadline=None)
@given(quantities, periods, st.sampled_from(["diesel_road", "natural_gas_stationary"]))
def test_a_cubic_metre_is_a_thousand_litres(quantity, period, activity):
    cubic = estimate(activity, quantity, "m³", date_or_year=period, factors=LIBRARY)
    litres = estimate(activity, quantity * 1000, "L", date_or_year=period, factors=LIBRARY)
    thousand = estimate(activity, quantity, "mil litros", date_or_year=period, factors=LIBRARY)
    for other in (litres, thousand):
        assert _close(cubic.tco2e, other.tco2e)
        assert _close(cubic.biogenic_co2_t, other.biogenic_co2_t)


@settings(max_examples=40, deadline=None)
@given(quantities, st.sampled_from(["kg", "t"]))
def test_a_tonne_is_a_thousand_kilograms_and_a_mwh_3_6_gj(quantity, unit):
    scale = 1000 if unit == "t" else 1
    by_mass = estimate("dolomita", quantity, unit, date_or_year=2024, factors=LIBRARY)
    in_kg = estimate("dolomita", quantity * scale, "kg", date_or_year=2024, factors=LIBRARY)
    assert _close(by_mass.tco2e, in_kg.tco2e)
    mwh = estimate("energia elétrica", quantity, "MWh", date_or_year=2024, factors=LIBRARY)
    gj = estimate("energia elétrica", quantity * 3.6, "GJ", date_or_year=2024, factors=LIBRARY)
    assert _close(mwh.tco2e, gj.tco2e)


@settings(max_examples=60, deadline=None)
@given(quantities, days)
def test_a_blend_is_its_parts_computed_unblended(litres, day):
    """Fossil CO2 of diesel B = pure diesel for the fossil litres; its biogenic CO2 = pure
    biodiesel for the bio litres (the share valid that day)."""
    share = next(
        s for start, s in ((date(2025, 8, 1), 0.15), (date(2024, 3, 1), 0.14),
                           (date(2023, 4, 1), 0.12), (date(2022, 1, 1), 0.10))
        if day >= start
    )  # fmt: skip
    blend = estimate("diesel_road", litres, "L", date_or_year=day, factors=LIBRARY)
    fossil = estimate("diesel_road", litres * (1 - share), "L", date_or_year=day, factors=PURE)
    bio_tj = litres * share / 1000 * 880 * 27 / 1e6  # the bio litres, by density and NCV
    assert _close(blend.gases_t["CO2"], fossil.gases_t["CO2"])
    assert fossil.biogenic_co2_t == 0
    assert _close(blend.biogenic_co2_t, bio_tj * 70800 / 1000)
    # CH4 and N2O: both parts, the bio part with diesel's factor per TJ.
    assert _close(blend.gases_t["CH4"], fossil.gases_t["CH4"] + bio_tj * 3.9 / 1000)


def _independent_gwp(gas: str, gwp_set: str) -> float:
    """From the IPCC reports' tables as the globalwarmingpotentials package has them, and
    the blends' mass fractions written here: not through engine.gases.gwp."""
    blends = {"R-410A": {"HFC32": 0.5, "HFC125": 0.5},
              "R-404A": {"HFC125": 0.44, "HFC143a": 0.52, "HFC134a": 0.04}}  # fmt: skip
    if gas in blends:
        return sum(share * _independent_gwp(part, gwp_set) for part, share in blends[gas].items())
    if gas == "CO2":
        return 1.0
    if gas == "CH4" and gwp_set == "AR6":
        return 27.9  # AR6 WG1 Table 7.SM.7, the general value
    return float(globalwarmingpotentials.as_frame().loc[gas, f"{gwp_set}GWP100"])


@settings(max_examples=60, deadline=None)
@given(activity_units, quantities, periods, st.sampled_from(GWP_SETS))
def test_tco2e_is_the_sum_of_each_gas_times_its_gwp(activity_unit, quantity, period, gwp_set):
    activity, unit = activity_unit
    result = estimate(activity, quantity, unit, date_or_year=period, gwp_set=gwp_set,
                      factors=LIBRARY)  # fmt: skip
    expected = sum(t * _independent_gwp(gas, gwp_set) for gas, t in result.gases_t.items())
    assert _close(result.tco2e, expected)
    if activity.startswith("refrigerant:"):
        blend = activity.split(":", 1)[1]
        kg = quantity * (1000 if unit == "t" else 1)
        assert _close(result.tco2e, kg / 1000 * _independent_gwp(blend, gwp_set))


# AR6 WG1 Table 7.15: methane by origin; the other sets have one methane value.
_AR6_CH4_BY_ORIGIN = {"gas:CH4_fossil": 29.8, "gas:CH4_non_fossil": 27.0}


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(["gas:N2O", "gas:CH4", "gas:CH4_fossil", "gas:CH4_non_fossil", "gas:SF6",
                     "gas:NF3", "gas:CO2", "gas:R-404A"]),
    quantities,
    st.sampled_from(["kg", "t"]),
    st.sampled_from(GWP_SETS),
)  # fmt: skip
def test_a_gas_emitted_as_such_is_its_mass_times_its_gwp(activity, quantity, unit, gwp_set):
    result = estimate(activity, quantity, unit, date_or_year=2024, gwp_set=gwp_set,
                      factors=LIBRARY)  # fmt: skip
    tonnes = quantity / (1 if unit == "t" else 1000)
    gas = activity.split(":", 1)[1].removesuffix("_non_fossil").removesuffix("_fossil")
    gwp = _AR6_CH4_BY_ORIGIN.get(activity) if gwp_set == "AR6" else None
    assert _close(result.tco2e, tonnes * (gwp or _independent_gwp(gas, gwp_set)))
    assert result.biogenic_co2_t == 0


@settings(max_examples=15, deadline=None)
@given(st.lists(st.tuples(activity_units, quantities, periods), min_size=1, max_size=30))
def test_the_batch_path_equals_the_one_by_one_path(rows):
    records = [{"activity": a, "unit": u, "quantity": q, "period": p} for (a, u), q, p in rows]
    table = estimate_rows(records, factors=LIBRARY).table
    for i, record in enumerate(records):
        single = estimate(record["activity"], record["quantity"], record["unit"],
                          date_or_year=record["period"], factors=LIBRARY)  # fmt: skip
        assert _close(table["tco2e"].iloc[i], single.tco2e)


def test_every_day_of_a_share_change_is_covered():
    """The shares are contiguous: any day from 2022 on has exactly one."""
    day = date(2022, 1, 1)
    while day <= date(2025, 12, 31):
        estimate("diesel_road", 1, "L", date_or_year=day, factors=LIBRARY)
        day += timedelta(days=17)


# --- the shipped blend shares --------------------------------------------------------------
# Read from blends.csv's cells with the csv module: what the file says, not what the
# library makes of it.
BLENDS = Path(__file__).resolve().parent.parent / "engine/emissions/data/blends.csv"


def _blend_rows() -> dict[str, list[tuple[date, date | None, float]]]:
    rows: dict[str, list[tuple[date, date | None, float]]] = {}
    with BLENDS.open(encoding="utf-8") as f:
        for row in csv.DictReader(f):
            end = date.fromisoformat(row["valid_to"]) if row["valid_to"] else None
            rows.setdefault(row["key"], []).append(
                (date.fromisoformat(row["valid_from"]), end, float(row["value"]))
            )
    return rows


def _shares_on(key: str, day: date) -> list[float]:
    return [
        share
        for start, end, share in _blend_rows()[key]
        if start <= day and (end is None or day <= end)
    ]


@pytest.mark.parametrize("key", ["diesel_b.biodiesel_share", "gasoline_c.ethanol_share"])
def test_blend_shares_tile_every_day_from_the_first_row_to_the_last(key):
    """No gap, no overlap: every day from the first row's start to the last row's start
    (the last row is open-ended) has exactly one share."""
    rows = _blend_rows()[key]
    first = min(start for start, _, _ in rows)
    last = max(start for start, _, _ in rows)
    assert sum(end is None for _, end, _ in rows) == 1  # only the latest row is open
    day = first
    while day <= last:
        assert len(_shares_on(key, day)) == 1, day
        day += timedelta(days=1)


@settings(max_examples=60, deadline=None)
@given(st.dates(min_value=date(2014, 11, 1), max_value=date(2026, 12, 31)))
def test_the_diesel_share_used_is_the_one_blends_csv_has_for_the_day(day):
    (expected,) = _shares_on("diesel_b.biodiesel_share", day)
    result = estimate("diesel_road", 1000, "L", date_or_year=day)
    (used,) = [u for u in result.factors if u.key == "diesel_b.biodiesel_share"]
    assert used.value == expected
