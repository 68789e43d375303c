"""A total row is met within its own rounding: the absolute allowance is the step the total
is written in (at most 0.01), so a total stated to five decimals is not "met" by a sum a
thousand times larger that 0.01 would have let pass; a total rounded to two decimals still
meets cells written to four."""

from __future__ import annotations

from engine.inventory import load_inventory
from tests import inventory_fixtures as fx

HEADER = ["Fonte", "Gás", "Emissões (Gg)"]


def _status(rows: list[list]) -> str:
    return load_inventory(fx.xlsx({"Escopo 1": [HEADER, *rows]}), filename="i.xlsx").status


def test_a_total_to_five_decimals_is_not_met_by_a_sum_a_thousand_times_larger():
    # 0.00001 Gg of N2O stated as the total; the cell above says 0.01 Gg (kg read as Gg)
    rows = [["Caldeira", "N2O", 0.01], ["Total", None, 0.00001]]
    assert _status(rows) == "conflict"


def test_the_same_sheet_with_its_true_cell_is_reconciled():
    rows = [["Caldeira", "N2O", 0.00001], ["Total", None, 0.00001]]
    assert _status(rows) == "reconciled"


def test_a_total_rounded_to_two_decimals_meets_cells_written_to_four():
    rows = [["Caldeira 1", "CH4", 0.1234], ["Caldeira 2", "CH4", 0.2288],
            ["Total", None, 0.35]]  # fmt: skip
    assert _status(rows) == "reconciled"
