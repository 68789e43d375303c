"""Rows a workbook gives only in t CO2e of one named gas, under another GWP set: the figure
was weighed with the inventory's set, so its mass is the figure over that set's GWP and
under another set it is the figure times the ratio of the two GWPs (IPCC AR5, WG1 Ch. 8,
Table 8.A.1; AR6, WG1 Ch. 7, Table 7.SM.7, methane with its origin not given). A row with
no gas (electricity in t CO2e) is the same under every set.

The workbook is written here; each expected figure is worked from its cells below.
"""

from __future__ import annotations

import pytest

from engine import Aeko, AekoMessenger, AekoSession, AekoUser
from engine.formatting import number
from engine.inventory import load_inventory
from engine.inventory.facts import set_totals
from engine.offline import OfflineAnalyst
from tests import inventory_fixtures as fx

AR5 = {"CO2": 1.0, "CH4": 28.0, "N2O": 265.0, "SF6": 23500.0, "HFC-134a": 1300.0}
AR6 = {"CO2": 1.0, "CH4": 27.9, "N2O": 273.0, "SF6": 25200.0, "HFC-134a": 1530.0}
HEADER = ["Fonte", "Gás", "Escopo", "Emissões (tCO2e)"]
ROWS = [
    ["Caldeira a gás", "CO2", "Escopo 1", 2400.0],
    ["Caldeira a gás", "CH4", "Escopo 1", 3.5],
    ["Lagoa anaeróbia", "CH4", "Escopo 1", 640.0],
    ["Subestação", "SF6", "Escopo 1", 47.0],
    ["Chiller", "HFC-134a", "Escopo 1", 26.0],
    ["Eletricidade comprada", None, "Escopo 2", 380.0],
]
USER = AekoUser(_id="64b8f0a1c9e1a2b3c4d5e6a9", id_external_user=1, role="", usecase="")


def _under(table: dict[str, float]) -> float:
    return sum(t * table[g] / AR5[g] if g else t for _, g, _, t in ROWS)


@pytest.fixture(scope="module")
def inventory():
    loaded = load_inventory(fx.xlsx({"Inventário AR5": [HEADER, *ROWS]}), filename="i.xlsx")
    assert loaded.gwp_set == "AR5"
    return loaded


def test_the_inventory_set_keeps_the_figures_as_given(inventory):
    own = next(t for t in set_totals(inventory, inventory.table, every_set=True)
               if t.gwp_set == "AR5")  # fmt: skip
    assert own.total_tco2e == pytest.approx(sum(row[3] for row in ROWS))
    assert own.rescaled_rows == 0


def test_another_set_rescales_each_named_gas_by_the_ratio_of_its_gwps(inventory):
    ar6 = next(t for t in set_totals(inventory, inventory.table) if t.gwp_set == "AR6")
    assert ar6.total_tco2e == pytest.approx(_under(AR6))
    assert ar6.by_scope["2"] == pytest.approx(380.0)  # no gas: the same under every set
    assert ar6.rescaled_rows == 4  # CH4 twice, SF6, HFC-134a; CO2's ratio is 1


def test_the_analyst_gives_scope_1_under_ar6_from_the_rescaled_rows(inventory):
    analyst = OfflineAnalyst()
    Aeko.config(fast_model=analyst, slow_model=analyst)
    session = AekoSession(_id="64b8f0a1c9e1a2b3c4d5e6b9", id_user=USER.id, name="ar6")
    events = list(
        AekoMessenger(USER).stream("Quanto fica o nosso escopo 1 no AR6?", session,
                                   inventory=inventory)
    )  # fmt: skip
    response = events[-1].result
    assert response.approved and not response.unverified
    scope_1 = sum(t * AR6[g] / AR5[g] for _, g, s, t in ROWS if s == "Escopo 1")
    assert f"AR6: {number(scope_1, 1, 'pt')} t CO2e" in response.message.output
