"""A layout Brazilian inventories use: per-gas mass columns for combustion and one t CO2e
column for the fluorinated gases together ("HFCs e SF6 (tCO2e)"), the row's own gas written
in its fuel/gas cell (R-404A, SF6). Each such row is its own gas: refrigerants are the HFC
rows without SF6, "fluorinated gases" are all of them.

Expected figures come from the cells written here and the IPCC GWP tables (AR5 WG1 Table
8.A.1, AR6 WG1 Table 7.SM.7), with R-404A's composition from ASHRAE Standard 34.
"""

from __future__ import annotations

import math

import pytest

from engine import Aeko, AekoMessenger, AekoSession, AekoUser
from engine.formatting import number
from engine.inventory import load_inventory
from engine.offline import OfflineAnalyst
from tests import inventory_fixtures as fx

USER = AekoUser(_id="64b8f0a1c9e1a2b3c4d5e6c1", id_external_user=1, role="", usecase="")
AR5 = {"CH4": 28, "N2O": 265, "HFC-125": 3170, "HFC-143a": 4800, "HFC-134a": 1300,
       "SF6": 23500}  # fmt: skip
AR6 = {"CH4": 27.9, "N2O": 273, "HFC-125": 3740, "HFC-143a": 5810, "HFC-134a": 1530,
       "SF6": 25200}  # fmt: skip
R404A = {"HFC-125": 0.44, "HFC-143a": 0.52, "HFC-134a": 0.04}


def _gwp(gas: str, table: dict[str, float]) -> float:
    if gas == "R-404A":
        return sum(share * table[part] for part, share in R404A.items())
    return table[gas]


# Masses of F-gas leaked (t); the sheet states only their t CO2e under AR5.
LEAKS = [
    ("Câmara fria", "R-404A", 0.08),
    ("Chiller", "HFC-134a", 0.03),
    ("Disjuntor", "SF6", 0.002),
]
HEADER = ["Fonte emissora", "Combustível / gás", "CO2 fóssil (t)", "CH4 (t)", "N2O (t)",
          "HFCs e SF6 (tCO2e)", "Total (tCO2e)"]  # fmt: skip
BOILER = ["Caldeira", "Gás natural", 2000.0, 0.04, 0.004]


def _rows() -> list[list]:
    boiler_total = BOILER[2] + BOILER[3] * AR5["CH4"] + BOILER[4] * AR5["N2O"]
    rows = [[*BOILER, None, round(boiler_total, 4)]]
    for source, gas, mass in LEAKS:
        co2e = round(mass * _gwp(gas, AR5), 4)
        rows.append([source, gas, None, None, None, co2e, co2e])
    return rows


@pytest.fixture(scope="module")
def inventory():
    data = fx.xlsx({"Escopo 1": [["GWP: IPCC AR5"], HEADER, *_rows()]})
    return load_inventory(data, filename="fgas.xlsx")


def _answer(question: str, inventory) -> str:
    analyst = OfflineAnalyst()
    Aeko.config(fast_model=analyst, slow_model=analyst)
    session = AekoSession(_id="64b8f0a1c9e1a2b3c4d5e6c2", id_user=USER.id, name="fgas")
    response = AekoMessenger(USER).send_message(question, session, inventory=inventory)
    assert not response.unverified, response.unverified
    return response.message.output


def test_each_row_under_the_family_column_is_its_own_gas(inventory):
    table = inventory.current
    leaks = table[table["source"].isin([s for s, _, _ in LEAKS])]
    assert sorted(leaks["gas"]) == sorted(["R-404A", "HFC134a", "SF6"])
    assert inventory.total_tco2e == pytest.approx(math.fsum(r[-1] for r in _rows()), abs=1e-3)


def test_refrigerants_are_the_hfc_rows_without_sf6(inventory):
    text = _answer("Quanto emitem os gases refrigerantes do inventário?", inventory)
    hfcs = math.fsum(m * _gwp(g, AR5) for _, g, m in LEAKS if g != "SF6")
    assert f"{number(hfcs, 1, 'pt')} t CO2e" in text
    assert f"R-404A: {number(0.08 * _gwp('R-404A', AR5), 1, 'pt')} t CO2e" in text


def test_fluorinated_gases_are_every_one_of_them(inventory):
    text = _answer("How much do the fluorinated gases in this inventory weigh?", inventory)
    for _, gas, mass in LEAKS:
        assert f"{number(mass * _gwp(gas, AR5), 1, 'en')} t CO2e" in text, gas
