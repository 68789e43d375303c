"""Workbooks in real-world layouts, checked against totals the fixtures compute on their own.

The fixtures (tests/layout_fixtures.py) never call the engine; see each ``Expected.layout``
for what a layout makes the loader handle. The API is in the README ("Inventory ingestion").
"""

from functools import cache

import pandas as pd
import pytest

from engine.inventory import InventoryError, load_inventory
from tests import layout_fixtures as lf

REL = 1e-6
ALL = list(lf.BUILDERS)
# Layouts that carry a scope, and a gas split (national and facility summaries carry none).
WITH_SCOPES = [n for n in ALL if lf.BUILDERS[n]()[2].scopes is not None]
WITH_GASES = [n for n in ALL if lf.BUILDERS[n]()[2].gases is not None]


@cache
def _attempt(name: str):
    data, filename, expected = lf.BUILDERS[name]()
    try:
        inventory = load_inventory(data, filename=filename, gwp_set=expected.gwp_set)
    except Exception as error:  # every test of this layout re-raises it
        return None, expected, error
    return inventory, expected, None


def _load(name: str):
    inventory, expected, error = _attempt(name)
    if error is not None:
        raise error
    return inventory, expected


def _approx(value: float):
    return pytest.approx(value, rel=REL, abs=1e-9)


def _nonzero(totals: pd.DataFrame, field: str) -> dict:
    return {key: value for key, value in zip(totals[field], totals["tco2e"], strict=True)
            if abs(value) > 1e-9}  # fmt: skip


def _checks(inventory) -> dict:
    return {check.sheet: check for check in inventory.reconciliation}


def test_fixtures_are_self_consistent():
    """Engine-free: every Expected matches the bytes written, recomputed a second way."""
    lf.self_check()


@pytest.mark.parametrize("name", ALL)
def test_total_tco2e(name):
    inventory, expected = _load(name)
    assert inventory.total_tco2e == _approx(expected.total_tco2e)


@pytest.mark.parametrize("name", WITH_SCOPES)
def test_totals_by_scope(name):
    inventory, expected = _load(name)
    assert _nonzero(inventory.totals_by("scope"), "scope") == pytest.approx(
        expected.scopes, rel=REL
    )


@pytest.mark.parametrize("name", WITH_GASES)
def test_totals_by_gas(name):
    inventory, expected = _load(name)
    assert _nonzero(inventory.totals_by("gas"), "gas") == pytest.approx(expected.gases, rel=REL)


@pytest.mark.parametrize("name", ALL)
def test_biogenic_co2_is_reported_apart(name):
    inventory, expected = _load(name)
    assert inventory.biogenic_co2_t == _approx(expected.biogenic_co2_t)


@pytest.mark.parametrize("name", ALL)
def test_montreal_gases_are_a_memo(name):
    inventory, expected = _load(name)
    assert inventory.montreal_tco2e == _approx(expected.montreal_tco2e)


@pytest.mark.parametrize("name", ALL)
def test_scope2_market_based_is_beside_the_total(name):
    inventory, expected = _load(name)
    if expected.scope2_market_tco2e is None:
        assert inventory.scope2_market_tco2e is None
    else:
        assert inventory.scope2_market_tco2e == _approx(expected.scope2_market_tco2e)


@pytest.mark.parametrize("name", ALL)
def test_memo_rows_add_nothing_to_the_total(name):
    inventory, _ = _load(name)
    table = inventory.table
    memo = table.loc[table["reporting"] != "inventory", "emissions_tco2e"]
    assert memo.fillna(0).abs().sum() == 0


@pytest.mark.parametrize("name", ALL)
def test_headline_year(name):
    inventory, expected = _load(name)
    assert inventory.year == expected.year


@pytest.mark.parametrize("name", ALL)
def test_each_sheet_reconciliation_status(name):
    inventory, expected = _load(name)
    checks = _checks(inventory)
    found = {sheet: checks[sheet].status if sheet in checks else "missing"
             for sheet in expected.sheet_status}  # fmt: skip
    assert found == expected.sheet_status


@pytest.mark.parametrize("name", ALL)
def test_inventory_status(name):
    inventory, expected = _load(name)
    assert inventory.status == expected.status


def test_program_scope2_location_uses_the_location_sheet_only():
    inventory, expected = _load("brazil_program")
    assert inventory.scope2_location_tco2e == _approx(expected.scope2_location_tco2e)
    scopes = inventory.totals_by("scope").set_index("scope")["tco2e"]
    assert scopes["2"] == _approx(expected.scope2_location_tco2e)


def test_national_years_across_columns_become_years():
    inventory, expected = _load("national_inventory")
    assert list(inventory.years) == list(expected.years)
    by_year = inventory.year_over_year().set_index("year")["tco2e"].to_dict()
    assert by_year == pytest.approx(expected.by_year, rel=REL)


def test_national_without_ar5_views_raises_naming_the_sheets():
    data, filename, expected = lf.national_inventory_without_ar5()
    with pytest.raises(InventoryError) as caught:
        load_inventory(data, filename=filename, gwp_set="AR5")
    for sheet in expected.sheets_named_in_error:
        assert sheet in caught.value.message_en
        assert sheet in caught.value.message_pt


def test_national_without_ar5_reads_its_ar4_view_as_written():
    data, filename, expected = lf.national_inventory_without_ar5()
    inventory = load_inventory(data, filename=filename, gwp_set="AR4")
    assert inventory.year == expected.year
    assert inventory.total_tco2e == _approx(expected.total_tco2e)


def test_cp1252_charge_column_is_numeric():
    inventory, expected = _load("cp1252_semicolon")
    sheet = "refrigerantes.csv"
    rows = inventory.table[inventory.table["sheet"] == sheet].drop_duplicates("row")
    for column, written in expected.numeric_columns.items():
        if column in rows.columns:
            values = rows[column]
        else:
            mapped = inventory.mapping[sheet].get(column)
            assert mapped, f"{column!r} was dropped: {inventory.mapping[sheet]}"
            values = rows[mapped.split(":")[0]]
        assert pd.api.types.is_numeric_dtype(values), values.tolist()
        assert sorted(values.tolist()) == pytest.approx(sorted(written), rel=REL)


def test_contradicting_total_row_reports_stated_and_computed():
    inventory, expected = _load("contradicting_total")
    checks = _checks(inventory)
    for sheet, (stated, computed) in expected.conflicts.items():
        assert checks[sheet].status == "conflict"
        assert checks[sheet].stated_tco2e == _approx(stated)
        assert checks[sheet].computed_tco2e == _approx(computed)
