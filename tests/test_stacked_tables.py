"""A sheet holding two tables, one under the other: the second is read under its own header
(its columns and its units), not as rows of the first.

The workbooks are written here. Expected figures are summed from the cells below with the
IPCC AR5 GWPs (WG1 Ch. 8, Table 8.A.1): CH4 28, HFC-134a 1,300, HCFC-22 1,760. HCFC-22 is a
Montreal Protocol gas: GHG Protocol reports it apart, never in the total.
"""

from __future__ import annotations

import pytest

from engine.inventory import load_inventory
from engine.inventory.reader import RawSheet
from engine.inventory.table import stacked_parts
from tests import inventory_fixtures as fx

GWP = {"CO2": 1.0, "CH4": 28.0, "HFC-134a": 1300.0, "HCFC-22": 1760.0}

SCOPE_1 = [
    ["Inventário de emissões 2024: escopo 1"],
    [],
    ["Unidade", "Fonte", "Gás", "Emissões (t)"],
    ["Fábrica Norte", "Caldeira a gás", "CO2", 1850.0],
    ["Fábrica Norte", "Caldeira a gás", "CH4", 0.04],
    ["Fábrica Norte", "Câmara fria", "HFC-134a", 0.012],
]
MONTREAL = [
    [],
    [],
    ["Gases do Protocolo de Montreal, informados à parte"],
    ["Unidade", "Equipamento", "Gás", "Massa emitida (kg)"],
    ["Fábrica Norte", "Ar-condicionado antigo", "HCFC-22", 18.0],
    ["Fábrica Norte", "Chiller da expedição", "HCFC-22", 7.5],
]


def _t_co2e(rows: list[list], unit: float) -> float:
    return sum(row[3] * unit * GWP[row[2]] for row in rows if len(row) == 4 and row[2] in GWP)


def test_a_montreal_table_under_scope_1_is_read_in_its_own_unit_and_kept_apart():
    inventory = load_inventory(fx.xlsx({"Escopo 1": SCOPE_1 + MONTREAL}), filename="inv.xlsx")
    assert inventory.total_tco2e == pytest.approx(_t_co2e(SCOPE_1, 1.0))
    table = inventory.table
    montreal = table[table["gas"].astype(str).str.contains("22")]
    # kg, as its own header says, not t as the table above: 25.5 kg, 44.9 t CO2e apart
    assert montreal["memo_tco2e"].sum() == pytest.approx(_t_co2e(MONTREAL, 0.001))
    assert set(montreal["reporting"]) == {"montreal"}
    assert montreal["emissions_tco2e"].fillna(0).sum() == 0
    assert set(montreal["sheet"]) == {"Escopo 1 (2)"}
    assert sorted(montreal["row"]) == [11, 12]  # the rows of the sheet, as a user finds them


def test_a_repeated_header_continues_the_same_table():
    page_break = [[], SCOPE_1[2], ["Fábrica Sul", "Gerador", "CO2", 40.0]]
    raw = RawSheet("Escopo 1", SCOPE_1 + page_break)
    parts = stacked_parts(raw)
    assert len(parts) == 1
    inventory = load_inventory(fx.xlsx({"Escopo 1": SCOPE_1 + page_break}), filename="i.xlsx")
    assert inventory.total_tco2e == pytest.approx(_t_co2e(SCOPE_1, 1.0) + 40.0)


def test_notes_under_a_table_are_no_second_table():
    notes = [[], ["Fonte: medições do fornecedor de gás."], ["Nota: CH4 estimado pelo fator IPCC."]]
    parts = stacked_parts(RawSheet("Escopo 1", SCOPE_1 + notes))
    assert len(parts) == 1
