"""A gas written with its synonym in brackets is that gas: workbooks write "HCFC-22 (R-22)"
or "R-134a (HFC-134a)" (ASHRAE 34 numbers beside the chemical names). A bracket that names
another gas, or no gas, makes no gas of the label."""

from __future__ import annotations

import pytest

from engine.gases.gwp import canonical_gas
from engine.inventory import load_inventory
from tests import inventory_fixtures as fx


@pytest.mark.parametrize(
    ("label", "gas"),
    [("HCFC-22 (R-22)", "R-22"), ("R-134a (HFC-134a)", "HFC-134a"), ("CH4 (metano)", "CH4"),
     ("SF6 (hexafluoreto de enxofre)", "SF6")],
)  # fmt: skip
def test_a_name_and_its_synonym_are_one_gas(label, gas):
    assert canonical_gas(label) == canonical_gas(gas) is not None


@pytest.mark.parametrize("label", ["HFC-134a (R-404A)", "Gás (t)", "Caldeira (CO2)"])
def test_a_bracket_naming_another_gas_or_none_is_no_gas(label):
    assert canonical_gas(label) is None


def test_a_montreal_gas_with_its_synonym_stays_out_of_the_total():
    # GHG Protocol: HCFC-22 is reported apart; its CO2e (AR5 GWP 1,760) only for information
    rows = [["Fonte", "Gás", "Emissões (t)"], ["Caldeira", "CO2", 500.0],
            ["Ar-condicionado antigo", "HCFC-22 (R-22)", 0.02]]  # fmt: skip
    inventory = load_inventory(fx.xlsx({"Escopo 1": rows}), filename="i.xlsx", gwp_set="AR5")
    assert inventory.total_tco2e == pytest.approx(500.0)
    assert inventory.montreal_tco2e == pytest.approx(0.02 * 1760)
