"""Reductions computed by GHG Protocol rules, never written by a model: each rule on a small
inventory whose expected figures are computed here by hand from the numbers written, the
planner's invariants on generated inventories, the what-if, and the catalogue and cost files.
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path
from typing import get_args

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assets import SAMPLE_PATH
from engine.actions.model import Action, Mechanism
from engine.actions.planner import matched_rows, propose
from engine.actions.rules import (
    DISCOUNT_RATE,
    MWH_PER_TJ,
    compute,
    crf,
    grid_factor,
    priced,
    recompute,
    ref_key,
    rows_of,
)
from engine.actions.scenario import Scenario, ScenarioError
from engine.actions.scenario import recompute as what_if
from engine.inventory import Inventory, load_inventory
from engine.measures import (
    MECHANISMS,
    Costs,
    MeasureFileError,
    read_catalogue_csv,
    read_costs_csv,
    shipped_catalogue,
)
from tests.inventory_fixtures import xlsx

COSTS_PATH = SAMPLE_PATH.with_name("sample_measure_costs.csv")
SHIPPED_CSV = Path(__file__).parents[1] / "engine" / "measures" / "data" / "measures.csv"
YEAR = 2024
SIN_2024 = 0.0545  # t CO2/MWh: MCTI's annual average SIN factor for 2024 (grid.csv)
AR5 = {"CH4": 28.0, "N2O": 265.0, "HFC134a": 1300.0, "HFC32": 677.0, "HFC125": 3170.0}
R410A = 0.5 * AR5["HFC32"] + 0.5 * AR5["HFC125"]  # 1,923.5
DIESEL_CO2_PER_TJ = 74.1  # t, IPCC 2006 v. 2 ch. 1 table 1.4
BIODIESEL_CO2_PER_TJ = 70.8
LPG_CO2_PER_TJ = 63.1


def workbook(direct=(), energy=(), scope3=(), year=YEAR) -> Inventory:
    """An inventory of three sheets: gases by source (t of each gas), Scope 2 by approach
    (t CO2e) and Scope 3 (t CO2e)."""
    sheets = {}
    if direct:
        header = ["Escopo", "Categoria", "Fonte", "Combustível", "Gás", "Emissões (t)", "Ano"]
        sheets["Diretas"] = [header] + [[*row, year] for row in direct]
    if energy:
        header = ["Escopo", "Categoria", "Fonte", "Abordagem", "Emissões (t CO2e)", "Ano"]
        sheets["Energia"] = [header] + [
            ["2", "Eletricidade", source, approach, value, year]
            for source, approach, value in energy
        ]
    if scope3:
        header = ["Escopo", "Categoria", "Fonte", "Emissões (t CO2e)", "Ano"]
        sheets["Escopo 3"] = [header] + [["3", c, s, v, year] for c, s, v in scope3]
    return load_inventory(xlsx(sheets), filename="plano.xlsx")


def diesel(source: str = "Caminhões – frota", co2: float = 100.0, ch4: float = 0.01):
    return [
        ("1", "Combustão móvel", source, "Óleo diesel", "CO2", co2),
        ("1", "Combustão móvel", source, "Óleo diesel", "CH4", ch4),
        ("1", "Combustão móvel", source, "Óleo diesel", "N2O", ch4 / 2),
    ]


def leak(source: str, gas: str, tonnes: float):
    return ("1", "Emissões fugitivas", source, "", gas, tonnes)


def act(measure_id: str, inventory: Inventory, **kwargs) -> Action | None:
    """The measure's action on the rows it matches (one scope in these inventories)."""
    measure = shipped_catalogue()[measure_id]
    return compute(measure, inventory, matched_rows(measure, inventory), **kwargs)


def by_measure(actions: list[Action]) -> dict[str, Action]:
    return {action.measure_id: action for action in actions}


# --- fuel_switch --------------------------------------------------------------------------


def test_b100_on_diesel_removes_the_replaced_fraction_s_fossil_co2_not_a_life_cycle_range():
    inv = workbook(direct=diesel(co2=100.0, ch4=0.01))
    action = act("diesel_b100", inv)
    assert action is not None and action.mechanism == "fuel_switch" and action.scope == 1
    # Fossil CO2 × the share replaced (20–100%): 20 and 100 t, never 100 × 40–70%.
    assert action.reduction_low_tco2e == pytest.approx(100.0 * 0.20)
    assert action.reduction_high_tco2e == pytest.approx(100.0 * 1.00)
    assert (action.reduction_low_tco2e, action.reduction_high_tco2e) != pytest.approx((40, 70))
    # CH4 and N2O are not credited, but their rows are the action's (no other takes them).
    ch4_n2o = 0.01 * AR5["CH4"] + 0.005 * AR5["N2O"]
    assert action.baseline_tco2e == pytest.approx(100.0 + ch4_n2o)
    assert {ref.gas for ref in action.rows} == {"CO2", "CH4", "N2O"}
    # The biodiesel's own CO2, for the same energy, is biogenic and reported apart (mid share).
    energy_tj = 100.0 / DIESEL_CO2_PER_TJ
    assert action.biogenic_co2_t == pytest.approx(energy_tj * BIODIESEL_CO2_PER_TJ * 0.60)
    assert "40% a 70%" in action.basis["pt"] and "não entra no escopo 1" in action.basis["pt"]
    assert "B100" in action.kpi["pt"] and "B100" in action.kpi["en"]
    assert (action.share_low, action.share_high, action.substitute) == (0.2, 1.0, "biodiesel")


def test_a_what_if_share_goes_back_through_the_rule():
    inv = workbook(direct=diesel(co2=250.0))
    action = act("diesel_b100", inv)
    assert action is not None
    half = recompute(action, inv, share=0.5)
    assert half.id == action.id
    assert half.reduction_low_tco2e == half.reduction_high_tco2e == pytest.approx(125.0)
    assert half.share_low == half.share_high == 0.5
    assert half.biogenic_co2_t == pytest.approx(250.0 / DIESEL_CO2_PER_TJ * 70.8 * 0.5)


def test_a_fossil_substitute_cuts_by_the_ratio_of_the_co2_factors():
    rows = [("1", "Combustão estacionária", "Caldeira", "Óleo combustível", "CO2", 774.0)]
    inv = workbook(direct=rows)
    action = act("fuel_oil_natural_gas", inv)
    assert action is not None and action.biogenic_co2_t == 0
    ratio = 1 - 56.1 / 77.4  # natural gas against fuel oil, t CO2/TJ
    assert action.reduction_low_tco2e == pytest.approx(774.0 * ratio * 0.5)
    assert action.reduction_high_tco2e == pytest.approx(774.0 * ratio * 1.0)


# Wood/wood waste, IPCC 2006 v. 2 ch. 2: kg CH4 and kg N2O per TJ, in manufacturing
# industries and construction (table 2.3) and in commercial/institutional use (table 2.4);
# its CO2 (ch. 1 table 1.4) is 112 t/TJ, biogenic. Natural gas: 56.1 t CO2/TJ; CH4 1 and
# N2O 0.1 kg/TJ in manufacturing, CH4 5 and N2O 0.1 in commercial use. Fuel oil
# (manufacturing): 77.4 t CO2/TJ, CH4 3 and N2O 0.6 kg/TJ.
WOOD = {"manufacturing": (30.0, 4.0), "commercial": (300.0, 4.0)}
WOOD_CO2_PER_TJ = 112.0


def wood_switch(keywords: tuple[str, ...]):
    """The shipped biomass switch (substitute: wood), matched on ``keywords``."""
    return replace(shipped_catalogue()["fuel_oil_biomass"], keywords=keywords)


def test_a_switch_to_wood_adds_its_ch4_and_n2o_and_credits_the_old_fuel_s():
    """Before issue #21 a switch to biomass credited the whole fossil CO2 and ignored CH4
    and N2O, overstating the cut: the substitute's CH4 and N2O stay in Scope 1."""
    tj = 10.0  # a boiler burning 10 TJ of natural gas a year (manufacturing)
    rows = [
        ("1", "Combustão estacionária", "Caldeira", "Gás natural", "CO2", tj * 56.1),
        ("1", "Combustão estacionária", "Caldeira", "Gás natural", "CH4", tj * 1 / 1000),
        ("1", "Combustão estacionária", "Caldeira", "Gás natural", "N2O", tj * 0.1 / 1000),
    ]
    inv = workbook(direct=rows)
    measure = wood_switch(("gas natural",))
    action = compute(measure, inv, matched_rows(measure, inv), share=0.5)
    assert action is not None and action.scope == 1
    # Energy-equivalent: the wood supplies the same 10 TJ (NCV) as the half of the gas it
    # replaces. Cut = 0.5 × 10 × (56,100 + 1 × 28 + 0.1 × 265) kg − 0.5 × 10 × (30 × 28 +
    # 4 × 265) kg = 280,772.5 − 9,500 kg = 271.2725 t.
    ch4, n2o = WOOD["manufacturing"]
    old = 0.5 * tj * (56_100 + 1 * AR5["CH4"] + 0.1 * AR5["N2O"]) / 1000
    new = 0.5 * tj * (ch4 * AR5["CH4"] + n2o * AR5["N2O"]) / 1000
    assert action.reduction_low_tco2e == action.reduction_high_tco2e
    assert action.reduction_low_tco2e == pytest.approx(old - new)
    assert action.reduction_low_tco2e == pytest.approx(271.2725)
    # The wood's CO2 is biogenic, reported apart and never in the cut: 0.5 × 10 TJ × 112 t.
    assert action.biogenic_co2_t == pytest.approx(0.5 * tj * WOOD_CO2_PER_TJ)
    for lang, words in (("pt", ("30,0 kg/TJ CH4", "Table 2.3", "mesma energia (PCI")),
                        ("en", ("30.0 kg/TJ CH4", "Table 2.3", "same energy (NCV"))):  # fmt: skip
        assert all(w in action.basis[lang] for w in words), action.basis[lang]
    assert "not credited" not in action.basis["en"]


def test_wood_in_commercial_use_takes_the_commercial_factors():
    tj = 4.0  # natural gas in a restaurant's kitchen (commercial/institutional use)
    fuel = "Gás natural comercial"
    rows = [
        ("1", "Combustão estacionária", "Cozinha", fuel, "CO2", tj * 56.1),
        ("1", "Combustão estacionária", "Cozinha", fuel, "CH4", tj * 5 / 1000),
        ("1", "Combustão estacionária", "Cozinha", fuel, "N2O", tj * 0.1 / 1000),
    ]
    inv = workbook(direct=rows)
    measure = wood_switch(("gas natural",))
    action = compute(measure, inv, matched_rows(measure, inv), share=1.0)
    ch4, n2o = WOOD["commercial"]  # 300 kg CH4/TJ: ten times manufacturing's
    old = tj * (56_100 + 5 * AR5["CH4"] + 0.1 * AR5["N2O"]) / 1000
    new = tj * (ch4 * AR5["CH4"] + n2o * AR5["N2O"]) / 1000
    assert action is not None
    assert action.reduction_high_tco2e == pytest.approx(old - new)  # 224.9 − 37.84 t


def test_the_shipped_fuel_oil_to_biomass_switch_nets_ch4_and_n2o():
    tj = 20.0
    rows = [
        ("1", "Combustão estacionária", "Caldeira", "Óleo combustível", "CO2", tj * 77.4),
        ("1", "Combustão estacionária", "Caldeira", "Óleo combustível", "CH4", tj * 3 / 1000),
        ("1", "Combustão estacionária", "Caldeira", "Óleo combustível", "N2O", tj * 0.6 / 1000),
    ]
    inv = workbook(direct=rows)
    action = act("fuel_oil_biomass", inv)  # 50–100% of the fuel oil replaced
    ch4, n2o = WOOD["manufacturing"]
    per_all = (
        tj * (77_400 + 3 * AR5["CH4"] + 0.6 * AR5["N2O"]) / 1000
        - tj * (ch4 * AR5["CH4"] + n2o * AR5["N2O"]) / 1000
    )  # 1,551.66 − 38.0 = 1,513.66 t for the whole boiler
    assert action is not None
    assert action.reduction_low_tco2e == pytest.approx(per_all * 0.5)
    assert action.reduction_high_tco2e == pytest.approx(per_all * 1.0)
    # Below the old figure, which was all of the fossil CO2 × the share.
    assert action.reduction_high_tco2e < tj * 77.4


def test_no_wood_switch_where_wood_has_no_factor_for_the_use():
    # A truck burns diesel on the road: the library has no wood factor for road transport.
    inv = workbook(direct=diesel(co2=100.0))
    measure = wood_switch(("diesel",))
    assert compute(measure, inv, matched_rows(measure, inv)) is None


# --- efficiency / activity_cut ------------------------------------------------------------


def test_efficiency_and_activity_cut_are_the_rows_times_the_range_times_the_share():
    inv = workbook(direct=diesel(co2=200.0, ch4=0.0))
    telematics = act("freight_telematics", inv)  # 5–15% of the fleet, reached in 50–100%
    assert telematics is not None and telematics.mechanism == "efficiency"
    assert telematics.reduction_low_tco2e == pytest.approx(200.0 * 0.05 * 0.5)
    assert telematics.reduction_high_tco2e == pytest.approx(200.0 * 0.15 * 1.0)
    waste = workbook(
        scope3=[("Resíduos gerados nas operações", "Resíduos orgânicos do refeitório", 40.0)]
    )
    organic = act("waste_organic", waste)  # 60–90% of the diverted waste, 50–100% diverted
    assert organic is not None and organic.scope == 3
    assert organic.reduction_low_tco2e == pytest.approx(40.0 * 0.60 * 0.5)
    assert organic.reduction_high_tco2e == pytest.approx(40.0 * 0.90 * 1.0)


# --- modal_shift ----------------------------------------------------------------------------
#
# freight_modal_shift: rail or coastal shipping emits 40–75% less per t·km than the diesel
# truck (so 25–60% of it), on 10–30% of the road freight.


def test_a_modal_shift_of_own_trucks_cuts_scope1_and_adds_the_carrier_to_scope3():
    """Before issue #21 the shift was an activity cut of the net % on Scope 1 alone; the
    carrier's emissions were nowhere. Own trucks: Scope 1 falls by the whole share shifted,
    and the carrier's t·km land in Scope 3 category 4."""
    inv = workbook(direct=diesel("Caminhões – frota", co2=1_000.0, ch4=0.01))
    action = act("freight_modal_shift", inv)
    assert action is not None and action.mechanism == "modal_shift" and action.scope == 1
    trucks = 1_000.0 + 0.01 * AR5["CH4"] + 0.005 * AR5["N2O"]  # 1,001.605 t CO2e
    gross = (trucks * 0.10, trucks * 0.30)  # Scope 1 falls by all of what is shifted
    carrier = (gross[0] * (1 - 0.40), gross[1] * (1 - 0.75))  # 60% and 25% of the truck
    assert action.baseline_tco2e == pytest.approx(trucks)
    assert action.scope3_added_low_tco2e == pytest.approx(carrier[0])
    assert action.scope3_added_high_tco2e == pytest.approx(carrier[1])
    assert action.scope3_added_category == 4
    # The net effect: 10% × 40% and 30% × 75% of the trucks.
    assert action.reduction_low_tco2e == pytest.approx(trucks * 0.10 * 0.40)
    assert action.reduction_high_tco2e == pytest.approx(trucks * 0.30 * 0.75)
    assert "categoria 4" in action.basis["pt"] and "category 4" in action.basis["en"]

    totals = what_if(inv, [action], Scenario(selected=(action.id,)))
    assert totals.scope1.before_tco2e == pytest.approx(trucks)
    assert totals.scope1.reduction_low_tco2e == pytest.approx(gross[0])
    assert totals.scope1.reduction_high_tco2e == pytest.approx(gross[1])
    assert totals.scope3.before_tco2e == 0.0
    assert totals.scope3.after_with_low_tco2e == pytest.approx(carrier[0])
    assert totals.scope3.after_with_high_tco2e == pytest.approx(carrier[1])
    assert totals.total.reduction_low_tco2e == pytest.approx(gross[0] - carrier[0])
    assert totals.total.reduction_high_tco2e == pytest.approx(gross[1] - carrier[1])
    note = next(n for n in totals.notes if "modal" in n["en"].lower())
    assert "categoria 4" in note["pt"] and "category 4" in note["en"]


def test_outsourced_road_freight_shifts_within_scope3_category4():
    inv = workbook(scope3=[("Transporte e distribuição a montante", "Frete rodoviário", 200.0)])
    action = act("freight_modal_shift", inv)
    assert action is not None and action.scope == 3
    assert action.reduction_low_tco2e == pytest.approx(200.0 * 0.10 * 0.40)
    assert action.reduction_high_tco2e == pytest.approx(200.0 * 0.30 * 0.75)
    assert action.scope3_added_high_tco2e == 0.0  # the carrier was already category 4


@pytest.mark.parametrize(
    "source",
    [
        "Caminhões de logística interna",
        "Caminhões do pátio",
        "Yard trucks",
        "Caminhão pá carregadeira",
        "Forklift trucks",
    ],
)
def test_internal_logistics_cannot_shift_mode(source):
    """Equipment moving goods inside a site has no road leg to move to rail or water: no
    modal shift is proposed on it, while its diesel stays open to other measures."""
    inv = workbook(direct=diesel(source, co2=500.0))
    assert act("freight_modal_shift", inv) is None
    chosen, alternatives = propose(inv)
    assert "freight_modal_shift" not in {a.measure_id for a in chosen + alternatives}
    assert "diesel_b100" in {a.measure_id for a in chosen + alternatives}


def test_a_modal_shift_acts_only_on_the_road_fleet_beside_internal_logistics():
    inv = workbook(
        direct=diesel("Caminhões – frota", co2=800.0, ch4=0.0)
        + diesel("Caminhões de logística interna", co2=300.0, ch4=0.0)
    )
    action = act("freight_modal_shift", inv)
    assert action is not None
    assert {ref.source for ref in action.rows} == {"Caminhões – frota"}
    assert action.reduction_high_tco2e == pytest.approx(800.0 * 0.30 * 0.75)


# --- refrigerants and SF6 -----------------------------------------------------------------


def test_a_refrigerant_switch_is_the_leak_times_one_minus_the_gwp_ratio():
    inv = workbook(direct=[leak("Split – escritório", "R-410A", 0.010)])
    r32 = act("r410a_r32", inv)
    assert r32 is not None and r32.mechanism == "refrigerant"
    leaked = 0.010 * R410A
    assert r32.baseline_tco2e == pytest.approx(leaked)
    assert r32.reduction_low_tco2e == pytest.approx(leaked * (1 - AR5["HFC32"] / R410A))
    assert r32.reduction_high_tco2e == pytest.approx(0.010 * (R410A - AR5["HFC32"]))
    propane = act("r410a_r290", inv)
    assert propane is not None
    assert propane.reduction_high_tco2e == pytest.approx(leaked * (1 - 3 / R410A))
    # A blend as the new gas: R-513A is 44% HFC-134a and 56% R-1234yf (GWP taken as 1).
    chiller = workbook(direct=[leak("Chiller da climatização", "HFC-134a", 0.020)])
    blend = act("hfc134a_chiller_blend", chiller)
    assert blend is not None
    r513a = 0.44 * AR5["HFC134a"] + 0.56 * 1.0
    assert blend.reduction_high_tco2e == pytest.approx(0.020 * (AR5["HFC134a"] - r513a))


def test_a_changed_refrigerant_goes_back_through_the_rule():
    inv = workbook(direct=[leak("Split", "R-410A", 0.010)])
    propane = act("r410a_r290", inv)
    assert propane is not None
    r32 = recompute(propane, inv, substitute="R-32")
    assert (propane.substitute, r32.substitute, r32.id) == ("R-290", "R-32", propane.id)
    assert r32.reduction_high_tco2e == pytest.approx(0.010 * (R410A - AR5["HFC32"]))
    with pytest.raises(ValueError, match="R-9999"):
        recompute(propane, inv, substitute="R-9999")


def test_an_r22_leak_is_outside_the_totals_and_gets_no_action():
    inv = workbook(direct=[leak("Split antigo", "R-22", 0.004), leak("Split", "R-410A", 0.010)])
    assert inv.montreal_tco2e > 0
    assert act("r22_r290", inv) is None
    chosen, alternatives = propose(inv)
    for action in chosen + alternatives:
        assert all(ref.gas != "HCFC22" for ref in action.rows), action.measure_id
        assert action.measure_id != "r22_r290"
    assert sum(a.reduction_high_tco2e for a in chosen) <= inv.total_tco2e + 1e-9


def test_r404a_rows_get_only_r404a_measures():
    inv = workbook(
        direct=[leak("Câmara fria", "R-404A", 0.006), leak("Split – escritório", "R-410A", 0.009)]
    )
    chosen, alternatives = propose(inv)
    for action in chosen + alternatives:
        gases = {ref.gas for ref in action.rows}
        if action.measure_id.startswith("r404a"):
            assert gases == {"R-404A"}
        if action.measure_id.startswith("r410a"):
            assert gases == {"R-410A"}
    assert {a.measure_id for a in chosen} == {"r404a_r744", "r410a_r290"}


def test_a_chiller_and_a_vehicle_on_hfc134a_get_their_own_options():
    inv = workbook(
        direct=[
            leak("Chiller da climatização industrial", "HFC-134a", 0.038),
            leak("Ar-condicionado automotivo (frota)", "HFC-134a", 0.004),
        ]
    )
    chosen = by_measure(propose(inv)[0])
    assert {ref.source for ref in chosen["hfc134a_chiller_hfo"].rows} == {
        "Chiller da climatização industrial"
    }
    assert {ref.source for ref in chosen["hfc134a_vehicle_hfo"].rows} == {
        "Ar-condicionado automotivo (frota)"
    }
    # No leak is "fleet diesel": the freight measures never touch a refrigerant row.
    assert not any(m.startswith("freight") for m in chosen)


def test_sf6_free_is_all_of_the_sf6_leak_times_the_share():
    inv = workbook(direct=[leak("Disjuntores 138 kV", "SF6", 0.002)])
    action = act("sf6_free", inv)
    assert action is not None
    assert action.reduction_low_tco2e == action.reduction_high_tco2e == pytest.approx(47.0)
    assert recompute(action, inv, share=0.25).reduction_high_tco2e == pytest.approx(11.75)


# --- Scope 2 ------------------------------------------------------------------------------


def test_an_acl_contract_or_irec_cuts_market_based_scope2_only():
    inv = workbook(
        energy=[("Rede SIN", "Localização", 100.0), ("Contrato", "Escolha de compra", 20.0)]
    )
    for measure in ("grid_renewable_contract", "grid_irec"):
        action = act(measure, inv)
        assert action is not None and action.scope == 2 and action.scope2_method == "market"
        assert action.baseline_tco2e == pytest.approx(20.0)  # the market-based figure
        assert action.reduction_low_tco2e == pytest.approx(20.0 * 0.5 * 0.9)
        assert action.reduction_high_tco2e == pytest.approx(20.0)
        totals = what_if(inv, [action], Scenario(selected=(action.id,)))
        assert totals.scope2_location.after_with_high_tco2e == pytest.approx(100.0)  # untouched
        assert totals.scope2_market.after_with_high_tco2e == pytest.approx(0.0)
        assert totals.total.after_with_high_tco2e == pytest.approx(inv.total_tco2e)


def test_with_no_market_figure_the_location_figure_is_the_market_baseline_and_says_so():
    inv = workbook(energy=[("Rede SIN", "Localização", 80.0)])
    assert inv.scope2_market_tco2e is None
    action = act("grid_irec", inv)
    assert action is not None and action.scope2_method == "market"
    assert action.baseline_tco2e == pytest.approx(80.0)
    assert "escolha de compra" in action.basis["pt"] and "purchase-choice" in action.basis["en"]
    totals = what_if(inv, [action], Scenario(selected=(action.id,)))
    assert not totals.scope2_market_reported
    assert totals.scope2_location.after_with_high_tco2e == pytest.approx(80.0)
    assert totals.scope2_market.after_with_high_tco2e == pytest.approx(0.0)


def test_on_site_solar_cuts_location_based_scope2_and_no_scope2_action_cuts_both():
    inv = workbook(
        energy=[("Rede SIN", "Localização", 100.0), ("Contrato", "Escolha de compra", 20.0)]
    )
    chosen, alternatives = propose(inv)
    for action in chosen + alternatives:
        if action.scope == 2:
            assert action.scope2_method in ("location", "market")
    solar = by_measure(chosen)["grid_onsite_solar"]
    assert solar.scope2_method == "location"
    assert solar.reduction_high_tco2e == pytest.approx(100.0 * 0.40)


# --- electrification ----------------------------------------------------------------------


def test_electrification_nets_the_grid_emissions_of_the_new_mwh():
    co2 = 631.0  # t: 10 TJ of LPG at 63.1 t CO2/TJ
    rows = [
        ("1", "Combustão móvel", "Empilhadeiras", "GLP", "CO2", co2),
        ("1", "Combustão móvel", "Empilhadeiras", "GLP", "CH4", 0.05),
    ]
    inv = workbook(direct=rows)
    action = act("lpg_electric", inv)  # 50–100% electrified, 0.35 MWh per MWh of LPG
    assert action is not None and action.mechanism == "electrification"
    assert grid_factor(inv).t_per_mwh == pytest.approx(SIN_2024)
    tco2e = co2 + 0.05 * AR5["CH4"]
    mwh = co2 / LPG_CO2_PER_TJ * MWH_PER_TJ * 0.35
    assert pytest.approx(277.78, abs=0.01) == MWH_PER_TJ
    for share, cut, grid in (
        (0.5, action.reduction_low_tco2e, action.grid_added_low_tco2e),
        (1.0, action.reduction_high_tco2e, action.grid_added_high_tco2e),
    ):
        assert grid == pytest.approx(mwh * share * SIN_2024)
        assert cut == pytest.approx(tco2e * share - mwh * share * SIN_2024)
    totals = what_if(inv, [action], Scenario(selected=(action.id,)))
    assert totals.scope1.after_with_high_tco2e == pytest.approx(0.0, abs=1e-9)
    assert totals.scope2_location.after_with_high_tco2e == pytest.approx(mwh * SIN_2024)
    # A glaze kiln on LPG is no forklift or kitchen: the measure does not reach it.
    kiln = workbook(
        direct=[("1", "Combustão estacionária", "Estufa de esmaltação", "GLP", "CO2", 50.0)]
    )
    assert not propose(kiln)[0]


def test_electrification_never_goes_below_zero_and_says_so():
    rows = [("1", "Combustão móvel", "Empilhadeiras", "GLP", "CO2", 63.1)]
    inv = workbook(direct=rows)
    dirty = replace(shipped_catalogue()["lpg_electric"], substitute="50")
    action = compute(dirty, inv, inv.current)
    assert action is not None
    assert action.reduction_low_tco2e == action.reduction_high_tco2e == 0.0
    assert "limitada a 0" in action.basis["pt"] and "clipped at 0" in action.basis["en"]
    totals = what_if(inv, [action], Scenario(selected=(action.id,)))
    assert totals.total.after_with_high_tco2e == pytest.approx(inv.total_tco2e)


# --- costs --------------------------------------------------------------------------------


def test_crf_and_annualised_cost_and_payback_by_hand():
    growth = 1.08**10
    assert crf(0.08, 10) == pytest.approx(0.08 * growth / (growth - 1))
    assert crf(0.08, 10) == pytest.approx(0.149029, abs=1e-6)
    assert crf(0.0, 4) == 0.25
    assert DISCOUNT_RATE == 0.08
    inv = workbook(direct=[leak("Disjuntores", "SF6", 0.002)])  # 47 t, cut 47–47
    action = act("sf6_free", inv)
    assert action is not None
    quoted = priced(action, Costs(100.0, -20.0, 10, "cotação"))
    assert quoted.capex_brl == pytest.approx(4700.0)
    assert quoted.opex_delta_brl_yr == pytest.approx(-940.0)
    assert quoted.cost_per_t_brl == pytest.approx((4700.0 * crf(0.08, 10) - 940.0) / 47.0)
    assert quoted.payback_years == pytest.approx(5.0)
    assert quoted.lifetime_years == 10 and quoted.cost_source == "cotação"
    no_saving = priced(action, Costs(100.0, 5.0, 10))
    assert no_saving.payback_years is None
    assert no_saving.cost_per_t_brl == pytest.approx(100.0 * crf(0.08, 10) + 5.0)
    unknown = priced(action, Costs())
    assert unknown.capex_brl is None and unknown.opex_delta_brl_yr is None
    assert unknown.cost_per_t_brl is None and unknown.payback_years is None
    half_known = priced(action, Costs(opex_brl_per_tco2e=-10.0))
    assert half_known.cost_per_t_brl is None and half_known.payback_years is None


def test_a_quote_carries_over_a_what_if_per_tonne():
    inv = workbook(direct=[leak("Disjuntores", "SF6", 0.002)])
    action = act("sf6_free", inv, costs=Costs(1000.0, 0.0, 30))
    assert action is not None
    smaller = recompute(action, inv, share=0.5)
    assert smaller.capex_brl == pytest.approx(1000.0 * 23.5)
    assert smaller.cost_per_t_brl == pytest.approx(action.cost_per_t_brl)


def test_the_shipped_catalogue_has_a_mechanism_per_row_and_no_costs():
    assert set(get_args(Mechanism)) == set(MECHANISMS)
    for measure in shipped_catalogue():
        assert measure.mechanism in MECHANISMS, measure.key
        assert measure.scopes and 0 < measure.applied_max_pct <= 100
        assert measure.costs == Costs(), measure.key


# --- files --------------------------------------------------------------------------------


def _shipped_with(**cells: str) -> bytes:
    """The shipped CSV with cells of its first data row (diesel_b100) replaced."""
    lines = SHIPPED_CSV.read_text(encoding="utf-8").splitlines()
    header = lines[0].split(",")
    import csv
    import io

    row = next(csv.reader(io.StringIO(lines[1])))
    for column, value in cells.items():
        row[header.index(column)] = value
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow(row)
    return "\n".join([lines[0], out.getvalue().rstrip("\n"), *lines[2:]]).encode("utf-8")


def test_a_user_catalogue_reads_like_the_shipped_one():
    catalogue = read_catalogue_csv(SHIPPED_CSV.read_bytes(), "meu_catalogo.csv")
    assert catalogue == shipped_catalogue()


@pytest.mark.parametrize(
    ("cells", "column", "pt", "en"),
    [
        ({"mechanism": "magic"}, "mechanism", "desconhecido", "unknown"),
        ({"applied_min_pct": "80", "applied_max_pct": "20"}, "applied_max_pct", "parcela", "share"),
        (
            {"reduction_min_pct": "70", "reduction_max_pct": "40"},
            "reduction_max_pct",
            "faixa",
            "range",
        ),
        ({"scopes": "4"}, "scopes", "escopos", "scopes"),
        ({"substitute": "kryptonite"}, "substitute", "combustível", "fuel"),
        ({"applied_min_pct": "vinte"}, "applied_min_pct", "número", "number"),
        ({"capex_brl_per_tco2e": "100"}, "lifetime_years", "vida útil", "lifetime"),
        (
            {"capex_brl_per_tco2e": "-5", "lifetime_years": "5"},
            "capex_brl_per_tco2e",
            "negativo",
            "negative",
        ),
        ({"id": "diesel_hvo"}, "id", "repetido", "repeated"),
    ],
)
def test_a_bad_catalogue_cell_is_named_by_line_and_column_in_both_languages(cells, column, pt, en):
    with pytest.raises(MeasureFileError) as caught:
        read_catalogue_csv(_shipped_with(**cells), "meu_catalogo.csv")
    error = caught.value
    line = 3 if column == "id" else 2  # a repeated id is named where it repeats
    assert (error.line, error.column) == (line, column)
    assert error.message("pt").startswith(f"meu_catalogo.csv, linha {line}, coluna '{column}'")
    assert error.message("en").startswith(f"meu_catalogo.csv, line {line}, column '{column}'")
    assert pt in error.message("pt") and en in error.message("en")
    assert isinstance(error, ValueError)


def test_a_catalogue_missing_a_column_or_empty_says_so():
    text = SHIPPED_CSV.read_text(encoding="utf-8").replace(",mechanism,", ",mecanismo,", 1)
    with pytest.raises(MeasureFileError, match="column 'mechanism'"):
        read_catalogue_csv(text.encode(), "c.csv")
    with pytest.raises(MeasureFileError, match="empty"):
        read_catalogue_csv(b"  \n", "c.csv")


def test_the_costs_csv_reads_excel_s_portuguese_format_and_comments():
    data = (
        "# cotações da empresa\n"
        "measure_id;capex_brl_per_tco2e;opex_brl_per_tco2e;lifetime_years;cost_source\n"
        "sf6_free;1.234,5;-12,5;30;Fornecedor X\n"
        "grid_irec;;;;\n"
    ).encode("cp1252")
    costs = read_costs_csv(data, "custos.csv", shipped_catalogue())
    assert costs["sf6_free"] == Costs(1234.5, -12.5, 30, "Fornecedor X")
    assert costs["grid_irec"] == Costs()  # explicitly unknown


@pytest.mark.parametrize(
    ("line", "column", "fragment"),
    [
        ("sf6_free,abc,0,30,x", "capex_brl_per_tco2e", "number"),
        ("sf6_free,10,0,2.5,x", "lifetime_years", "whole number"),
        ("unknown_measure,10,0,5,x", "measure_id", "no measure"),
        ("sf6_free,10,0,,x", "lifetime_years", "lifetime"),
        (",10,0,5,x", "measure_id", "empty"),
    ],
)
def test_a_bad_costs_cell_is_named_by_line_and_column(line, column, fragment):
    data = "\n".join(
        ["# comentário", "measure_id,capex_brl_per_tco2e,opex_brl_per_tco2e,lifetime_years,"
         "cost_source", line]
    ).encode()  # fmt: skip
    with pytest.raises(MeasureFileError) as caught:
        read_costs_csv(data, "custos.csv", shipped_catalogue())
    assert (caught.value.line, caught.value.column) == (3, column)
    assert fragment in caught.value.message("en")
    assert "custos.csv, linha 3" in caught.value.message("pt")


def test_a_repeated_costs_id_names_both_lines():
    data = (
        b"measure_id,capex_brl_per_tco2e,opex_brl_per_tco2e,lifetime_years,cost_source\n"
        b"sf6_free,1,0,5,a\nsf6_free,2,0,5,b\n"
    )
    with pytest.raises(MeasureFileError, match=r"line 3.*already on line 2"):
        read_costs_csv(data, "custos.csv")
    with pytest.raises(MeasureFileError, match="column 'opex_brl_per_tco2e'"):
        read_costs_csv(b"measure_id,capex_brl_per_tco2e\nsf6_free,1\n", "custos.csv")


# --- the sample inventory -----------------------------------------------------------------


@pytest.fixture(scope="module")
def sample() -> Inventory:
    return load_inventory(SAMPLE_PATH)


@pytest.fixture(scope="module")
def sample_costs() -> dict[str, Costs]:
    return read_costs_csv(COSTS_PATH.read_bytes(), COSTS_PATH.name, shipped_catalogue())


@pytest.fixture(scope="module")
def sample_plan(sample, sample_costs) -> tuple[list[Action], list[Action]]:
    return propose(sample, costs=sample_costs)


def test_the_sample_costs_are_illustrative_quotes_with_a_saving_and_a_gap(sample_costs):
    header = COSTS_PATH.read_text(encoding="utf-8").splitlines()[:2]
    assert "fictícia" in header[0] and "não são dados de mercado" in header[0]
    assert "not market data" in header[1]
    assert any((c.opex_brl_per_tco2e or 0) < 0 for c in sample_costs.values())
    assert any(not c.known for c in sample_costs.values())


def test_the_sample_s_proposal_is_sane(sample, sample_plan):
    chosen, alternatives = sample_plan
    actions = by_measure(chosen)
    assert {
        "natural_gas_biomethane", "diesel_b100", "grid_renewable_contract", "lpg_electric",
        "r410a_r290", "sf6_free", "hfc134a_chiller_hfo", "hfc134a_vehicle_hfo", "r404a_r744",
        "waste_organic", "waste_recycling", "travel_video", "gasoline_ethanol",
    } <= set(actions)  # fmt: skip
    # The kilns' and dryers' natural gas: all 6 sources, biomethane for 10–50% of it.
    gas = actions["natural_gas_biomethane"]
    fossil = sum(ref.tco2e for ref in gas.rows if ref.gas == "CO2")
    assert gas.reduction_low_tco2e == pytest.approx(fossil * 0.10)
    assert gas.reduction_high_tco2e == pytest.approx(fossil * 0.50)
    assert gas.biogenic_co2_t > 0
    # Electric forklifts and induction cooking: never the glaze kiln on LPG.
    sources = {ref.source for ref in actions["lpg_electric"].rows}
    assert sources == {"Empilhadeiras", "Cozinha do escritório"}
    # The trucks run on B100 in the plan; telematics is the alternative on their rows.
    assert "freight_telematics" in {a.measure_id for a in alternatives}
    # The sample reports no market-based Scope 2: the instrument's baseline is location's.
    contract = actions["grid_renewable_contract"]
    assert contract.scope2_method == "market"
    assert contract.baseline_tco2e == pytest.approx(sample.scope2_location_tco2e)
    # Costs from the sample's quotes: a saving (ACL), and a measure with no quote.
    assert contract.cost_per_t_brl is not None and contract.cost_per_t_brl < 0
    assert actions["hfc134a_vehicle_hfo"].cost_per_t_brl is None
    assert actions["waste_recycling"].cost_per_t_brl is None
    _assert_invariants(sample, chosen, alternatives)


def test_the_sample_what_if_keeps_scope2_methods_and_biogenic_apart(sample, sample_plan):
    chosen, alternatives = sample_plan
    actions = by_measure(chosen)
    b100 = actions["diesel_b100"]
    scenario = Scenario(
        selected=tuple(a.id for a in chosen),
        shares={b100.id: 0.5},
        substitutes={actions["r410a_r290"].id: "R-32"},
    )
    totals = what_if(sample, chosen + alternatives, scenario)
    recomputed = by_measure(list(totals.actions))
    fossil = sum(ref.tco2e for ref in b100.rows if ref.gas == "CO2")
    assert recomputed["diesel_b100"].reduction_high_tco2e == pytest.approx(fossil * 0.5)
    r32 = recomputed["r410a_r290"]
    leaked = sum(ref.tco2e for ref in r32.rows)
    assert r32.reduction_high_tco2e == pytest.approx(leaked * (1 - AR5["HFC32"] / R410A))
    assert totals.scope1.before_tco2e + totals.scope2_location.before_tco2e + (
        totals.scope3.before_tco2e
    ) == pytest.approx(sample.total_tco2e)
    # The total carries location-based Scope 2 only; the contract changes market-based.
    assert totals.total.before_tco2e == pytest.approx(sample.total_tco2e)
    grid = recomputed["lpg_electric"].grid_added_high_tco2e
    assert totals.scope2_location.after_with_high_tco2e == pytest.approx(
        sample.scope2_location_tco2e + grid
    )
    cut = sum(a.reduction_high_tco2e for a in totals.actions if a.scope2_method != "market")
    assert totals.total.after_with_high_tco2e == pytest.approx(sample.total_tco2e - cut)
    assert totals.biogenic_co2_before_t == pytest.approx(sample.biogenic_co2_t)
    assert totals.biogenic_co2_added_t == pytest.approx(
        sum(a.biogenic_co2_t for a in totals.actions)
    )
    assert any("nunca se somam" in note["pt"] for note in totals.notes)
    with pytest.raises(ScenarioError, match="nope"):
        what_if(sample, chosen, Scenario(selected=("nope",)))


# --- invariants on generated inventories ---------------------------------------------------

_DIRECT = [
    ("1", "Combustão móvel", "Caminhões próprios – expedição", "Óleo diesel"),
    ("1", "Combustão móvel", "Pás carregadeiras", "Óleo diesel (B14)"),
    ("1", "Combustão estacionária", "Gerador de emergência", "Óleo diesel"),
    ("1", "Combustão estacionária", "Forno a rolo", "Gás natural"),
    ("1", "Combustão estacionária", "Caldeira de água quente", "Gás natural"),
    ("1", "Combustão móvel", "Empilhadeiras", "GLP"),
    ("1", "Combustão estacionária", "Estufa de esmaltação", "GLP"),
    ("1", "Combustão móvel", "Veículos leves (flex)", "Gasolina C"),
    ("1", "Combustão estacionária", "Caldeira", "Óleo combustível"),
]
_LEAKS = [
    ("Chiller", "HFC-134a"), ("Ar-condicionado automotivo", "HFC-134a"),
    ("Split", "R-410A"), ("Câmara fria", "R-404A"), ("Split antigo", "R-22"),
    ("Câmara antiga", "R-408A"), ("Disjuntores", "SF6"),
]  # fmt: skip
_SCOPE3 = [
    ("Viagens a negócios", "Voos nacionais – curta distância"),
    ("Viagens a negócios", "Voos internacionais – longa distância"),
    ("Resíduos gerados nas operações", "Resíduos orgânicos do refeitório"),
    ("Resíduos gerados nas operações", "Papel e papelão"),
    ("Resíduos gerados nas operações", "Resíduos comuns"),
]
_tonnes = st.floats(min_value=0.001, max_value=5000.0, allow_nan=False)


@st.composite
def inventories(draw) -> Inventory:
    direct = []
    for category_source_fuel in draw(st.lists(st.sampled_from(_DIRECT), max_size=6)):
        scope, category, source, fuel = category_source_fuel
        co2 = draw(_tonnes)
        direct += [
            (scope, category, source, fuel, "CO2", co2),
            (scope, category, source, fuel, "CH4", co2 * draw(st.floats(0, 1e-3))),
            (scope, category, source, fuel, "N2O", co2 * draw(st.floats(0, 1e-4))),
        ]
    for source, gas in draw(st.lists(st.sampled_from(_LEAKS), max_size=5)):
        direct.append(leak(source, gas, draw(st.floats(0.0001, 0.5))))
    if draw(st.booleans()):
        direct.append(("1", "Combustão estacionária", "Caldeira", "Cavaco", "CO2 biogênico", 50))
    energy = []
    if draw(st.booleans()):
        energy.append(("Rede SIN", "Localização", draw(_tonnes)))
        if draw(st.booleans()):
            energy.append(("Contrato", "Escolha de compra", draw(_tonnes)))
    scope3 = [
        (c, s, draw(_tonnes)) for c, s in draw(st.lists(st.sampled_from(_SCOPE3), max_size=4))
    ]
    if not (direct or energy or scope3):
        scope3 = [_SCOPE3[0] + (10.0,)]
    return workbook(direct=direct, energy=energy, scope3=scope3)


def _assert_invariants(inv: Inventory, chosen: list[Action], alternatives: list[Action]):
    tolerance = 1e-6 * max(1.0, inv.total_tco2e)
    current = inv.current
    for action in chosen + alternatives:
        rows = rows_of(inv, action.rows)
        assert len(rows) == len(action.rows), action.id
        # No action cuts more than its rows emit, in the figure it changes.
        if action.scope2_method == "market":
            emitted = sum(ref.tco2e for ref in action.rows)
        else:
            emitted = float(rows["emissions_tco2e"].sum())
        assert action.baseline_tco2e <= emitted + tolerance, action.id
        assert (
            action.reduction_low_tco2e
            <= action.reduction_high_tco2e
            <= (action.baseline_tco2e + tolerance)
        ), action.id
        # Memo items are never cut: no Montreal gas, no biogenic CO2 among an action's rows.
        assert not set(rows.get("reporting", [])) & {"montreal", "biogenic"}, action.id
        # A Scope 2 action changes one method's figure, never both.
        if action.scope == 2:
            assert action.scope2_method in ("location", "market"), action.id
        else:
            assert action.scope2_method is None, action.id
    # The chosen actions act on disjoint rows, and their cuts add up within the totals.
    seen: set[str] = set()
    for action in chosen:
        keys = {ref_key(ref) for ref in action.rows}
        assert not keys & seen, action.id
        seen |= keys
    on_total = sum(a.reduction_high_tco2e for a in chosen if a.scope2_method != "market")
    assert on_total <= inv.total_tco2e + tolerance
    market = sum(a.reduction_high_tco2e for a in chosen if a.scope2_method == "market")
    market_baseline = inv.scope2_market_tco2e
    if market_baseline is None:
        market_baseline = inv.scope2_location_tco2e
    assert market <= market_baseline + tolerance
    assert len(current) >= len(seen)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(inventories())
def test_the_planner_s_invariants_hold_on_generated_inventories(inv):
    chosen, alternatives = propose(inv)
    _assert_invariants(inv, chosen, alternatives)
    totals = what_if(inv, chosen, Scenario(selected=tuple(a.id for a in chosen)))
    # Each method's Scope 2 moves only with its own actions (and new MWh, location side).
    grid = sum(a.grid_added_high_tco2e for a in chosen)
    location_cut = sum(
        a.reduction_high_tco2e for a in chosen if a.scope == 2 and a.scope2_method == "location"
    )
    assert totals.scope2_location.after_with_high_tco2e == pytest.approx(
        max(inv.scope2_location_tco2e - location_cut + grid, 0.0), abs=1e-6
    )
    for figure in (totals.scope1, totals.scope3, totals.total):
        assert figure.after_with_high_tco2e <= figure.after_with_low_tco2e + 1e-9
        assert figure.after_with_low_tco2e <= figure.before_tco2e + 1e-9
    for figure in (totals.scope1, totals.scope2_location, totals.scope2_market, totals.scope3):
        assert figure.after_with_high_tco2e >= 0 and figure.after_with_low_tco2e >= 0
    assert math.isfinite(totals.total.after_with_high_tco2e)


def test_rows_with_no_scope_take_the_measure_s_and_stay_in_the_total_only():
    from engine.inventory import load_markdown_inventory

    inv = load_markdown_inventory(
        "| Fonte | Combustível | Gás | Emissões (t) |\n|---|---|---|---|\n"
        "| Caldeira | Óleo diesel | CO2 | 1240 |\n| Chiller | — | HFC-134a | 0,05 |"
    )
    chosen = by_measure(propose(inv)[0])
    b100 = chosen["diesel_b100"]
    assert b100.scope == 1 and b100.reduction_high_tco2e == pytest.approx(1240.0)
    assert "não informa o escopo" in b100.basis["pt"] and "no scope" in b100.basis["en"]
    totals = what_if(inv, list(chosen.values()), Scenario(selected=(b100.id,)))
    assert totals.scope1.before_tco2e == 0 and totals.scope1.after_with_high_tco2e == 0
    assert totals.unscoped.before_tco2e == pytest.approx(inv.total_tco2e)
    assert totals.total.after_with_high_tco2e == pytest.approx(inv.total_tco2e - 1240.0)
