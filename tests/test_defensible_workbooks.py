"""Issue #21: numbers you can defend on real and realistic workbooks.

Two public MCTI/SIRENE workbooks (tests/data, provenance in tests/data/README.md) are checked
against figures this file reads from their cells with openpyxl; the layouts of the issue's
table are built by tests/defensible_fixtures.py with totals computed there by hand. No
expectation comes from the code under test.
"""

from __future__ import annotations

import hashlib
import io
import re
from decimal import Decimal
from functools import cache
from pathlib import Path

import openpyxl
import pandas as pd
import pytest
from python_calamine import CalamineWorkbook

from engine.inventory import load_inventory
from tests import defensible_fixtures as df

DATA = Path(__file__).resolve().parent / "data"
REAL = {
    "energia": ("estim_6a_ed_1990-2020_energia.xlsx",
                "84cedd5724e59344a1afea23c3ded089b0640867e500548ee8525646c24c99ba"),
    "ippu": ("estim_6a_ed_1990-2020_ippu.xlsx",
             "48893977003824a772476823283f3edcec37052b28a9e7432632db20594eb251"),
}  # fmt: skip
GG_TO_T = 1000.0
WORKBOOK_ROUNDING = 0.005  # half a percent, the house tolerance for a workbook's rounding
# IPCC AR5 WG1 Ch. 8 Table 8.A.1, GWP-100: what MCTI's "GWP AR5" sheets use.
AR5 = {"CO2": 1, "CH4": 28, "N2O": 265, "HFC-23": 12400, "HFC-32": 677, "HFC-125": 3170,
       "HFC-134a": 1300, "HFC-143a": 4800, "HFC-152a": 138, "HFC-227ea": 3350,
       "HFC-365mfc": 804, "CF4": 6630, "C2F6": 11100, "SF6": 23500}  # fmt: skip
AR5_FOSSIL_CH4 = 30  # same table, methane of fossil origin
REL = 1e-6


# --- the real workbooks, read from their cells -----------------------------------------------


def _code(label: object) -> str | None:
    match = re.match(r"\s*(\d+(?:\.[A-Za-z0-9]+)*)\.", str(label))
    return match.group(1) if match else None


@cache
def _cells(name: str) -> dict[str, tuple[str, list[int], dict[str, dict[int, float]]]]:
    """Per sheet: the header cell A6, the years of row 6, and code -> year -> value (Gg)."""
    book = openpyxl.load_workbook(DATA / REAL[name][0], data_only=True, read_only=True)
    sheets = {}
    for ws in book.worksheets:
        rows = list(ws.iter_rows(values_only=True))
        header = rows[5]
        years = [int(y) for y in header[1:] if y is not None]
        values = {
            _code(row[0]): {y: float(v or 0) for y, v in zip(years, row[1:], strict=False)}
            for row in rows[6:]
            if row and row[0] is not None
        }
        sheets[ws.title] = (str(header[0]), years, values)
    return sheets


def _root(name: str) -> str:
    return next(iter(_cells(name)["CO2e_GWP_AR5"][2]))


def _top_codes(name: str) -> list[str]:
    root = _root(name)
    return [c for c in _cells(name)["CO2e_GWP_AR5"][2] if c.count(".") == root.count(".") + 1]


def _gases(name: str) -> list[str]:
    return [g for g in AR5 if g in _cells(name)]


def _per_gas_co2e(name: str, code: str, year: int, ch4_gwp: int = AR5["CH4"]) -> float:
    """CO2e of a row from the per-gas sheets, as MCTI computes its AR5 view."""
    cells = _cells(name)
    gwp = {**AR5, "CH4": ch4_gwp}
    return sum(cells[g][2][code][year] * gwp[g] for g in _gases(name))


@cache
def _real(name: str):
    return load_inventory(DATA / REAL[name][0])


def _rows_of_year(inventory, year: str) -> pd.DataFrame:
    table = inventory.table
    return table[table["year"].astype(str) == year]


def _row_codes(table: pd.DataFrame) -> pd.Series:
    """The IPCC code of each row: the code field, else the code the label starts with."""
    parsed = pd.Series([None] * len(table), index=table.index, dtype=object)
    for column in ("source", "category"):
        if column in table:
            parsed = parsed.fillna(table[column].map(_code))
    if "code" in table:
        given = table["code"].map(lambda c: str(c).strip().rstrip(".") if pd.notna(c) else None)
        parsed = given.fillna(parsed)
    return parsed


REAL_NAMES = list(REAL)


@pytest.mark.parametrize("name", REAL_NAMES)
def test_real_workbook_is_the_published_file(name):
    data = (DATA / REAL[name][0]).read_bytes()
    assert hashlib.sha256(data).hexdigest() == REAL[name][1]


@pytest.mark.parametrize("name", REAL_NAMES)
def test_real_years_and_headline_year(name):
    _, years, _ = _cells(name)["CO2e_GWP_AR5"]
    assert years == list(range(1990, 2021))  # the header as written
    inventory = _real(name)
    assert inventory.years == [str(y) for y in years]
    assert inventory.year == "2020"


@pytest.mark.parametrize("name", REAL_NAMES)
def test_real_headline_is_the_root_row_in_tonnes(name):
    header, _, values = _cells(name)["CO2e_GWP_AR5"]
    assert header.rstrip().endswith("(Gg)")
    # energy 2020: 392,222.1 Gg -> 392,222,109 t
    expected = values[_root(name)][2020] * GG_TO_T
    assert _real(name).total_tco2e == pytest.approx(expected, rel=WORKBOOK_ROUNDING)


@pytest.mark.parametrize("name", REAL_NAMES)
def test_real_totals_by_year(name):
    _, years, values = _cells(name)["CO2e_GWP_AR5"]
    expected = {str(y): values[_root(name)][y] * GG_TO_T for y in years}
    totals = _real(name).totals_by("year")
    found = dict(zip(totals["year"].astype(str), totals["tco2e"], strict=True))
    assert found == pytest.approx(expected, rel=WORKBOOK_ROUNDING)


@pytest.mark.parametrize("name", REAL_NAMES)
def test_real_top_level_categories(name):
    """Each `1.A.`, `1.B.` … is the sum of the inventory rows under its code.

    The AR5 cell is the expectation, except in energy's `1.B.`: that view row uses AR5's
    fossil-methane GWP (30), while the inventory is built from the per-gas sheets × AR5 (28),
    as the view's own root row is; there the per-gas figure is the expectation."""
    values = _cells(name)["CO2e_GWP_AR5"][2]
    rows = _rows_of_year(_real(name), "2020")
    codes = _row_codes(rows)
    found, expected = {}, {}
    for top in _top_codes(name):
        under = (codes == top) | codes.str.startswith(top + ".", na=False)
        found[top] = float(rows.loc[under, "emissions_tco2e"].sum())
        cell = values[top][2020]
        per_gas = _per_gas_co2e(name, top, 2020)
        fugitive_view = name == "energia" and top == "1.B"
        expected[top] = (per_gas if fugitive_view else cell) * GG_TO_T
    assert found == pytest.approx(expected, rel=WORKBOOK_ROUNDING, abs=1.0)


@pytest.mark.parametrize("name", REAL_NAMES)
def test_real_per_gas_totals_equal_the_gas_sheets_roots(name):
    cells = _cells(name)
    root = _root(name)
    totals = _real(name).totals_by("gas")
    found = dict(zip(totals["gas"], totals["tco2e"], strict=True))
    for gas in ("CO2", "CH4", "N2O"):
        expected = cells[gas][2][root][2020] * AR5[gas] * GG_TO_T
        assert found.get(gas, 0.0) == pytest.approx(expected, rel=WORKBOOK_ROUNDING), gas


def test_energy_workbook_cells_agree_except_the_fugitive_methane_gwp():
    """Engine-free: what the energy workbook's own numbers say, so the next test's claim holds.

    The root `1. Energia` of CO2e_GWP_AR5 equals CO2 + 28·CH4 + 265·N2O in every year, and so
    does every row except the fugitive ones: `1.B.1.` equals CO2 + 30·CH4 + 265·N2O (AR5's
    fossil methane), `1.B.2.` lies between, so `1.B.` exceeds the per-gas figure."""
    values = _cells("energia")["CO2e_GWP_AR5"][2]
    differing = set()
    for code, by_year in values.items():
        for year, cell in by_year.items():
            per_gas = _per_gas_co2e("energia", code, year)
            if abs(per_gas - cell) > WORKBOOK_ROUNDING * abs(cell) + 0.01:
                differing.add(code)
    assert differing == {"1.B", "1.B.1", "1.B.2"}
    for year in range(1990, 2021):
        assert _per_gas_co2e("energia", "1", year) == pytest.approx(values["1"][year], rel=1e-9)
        fossil = _per_gas_co2e("energia", "1.B.1", year, ch4_gwp=AR5_FOSSIL_CH4)
        assert fossil == pytest.approx(values["1.B.1"][year], rel=1e-9)
    # the sheet's children add up to its root within rounding (at most 0.073 %, 2005)
    children = sum(values[c][2005] for c in _top_codes("energia"))
    assert children == pytest.approx(values["1"][2005], rel=WORKBOOK_ROUNDING)


def test_ippu_workbook_cells_agree_everywhere():
    """Engine-free: the IPPU AR5 view is the per-gas sheets × AR5 GWPs, in every cell."""
    values = _cells("ippu")["CO2e_GWP_AR5"][2]
    for code, by_year in values.items():
        for year, cell in by_year.items():
            assert _per_gas_co2e("ippu", code, year) == pytest.approx(cell, rel=1e-9, abs=1e-9)


def test_energy_no_sheet_is_ambiguous_or_in_conflict():
    """The unit is stated ((Gg) in A6), the per-gas sheets agree with their subtotals and the
    headline agrees in both views. The only difference, `1.B` in the AR5 view, is a GWP
    choice the cells prove (fossil methane at 30): a finding, not a red banner."""
    inventory = _real("energia")
    statuses = {check.sheet: check.status for check in inventory.reconciliation}
    assert {s: st for s, st in statuses.items() if st in ("ambiguous", "conflict")} == {}
    for gas in ("CO2", "CH4", "N2O"):
        assert statuses.get(gas) == "reconciled", gas


def test_ippu_every_sheet_reconciled():
    inventory = _real("ippu")
    statuses = {check.sheet: check.status for check in inventory.reconciliation}
    assert statuses and set(statuses.values()) == {"reconciled"}, statuses
    assert inventory.status == "reconciled"


@pytest.mark.parametrize("name", REAL_NAMES)
def test_real_unit_evidence_is_the_label_header(name):
    inventory = _real(name)
    kept = [c for c in inventory.reconciliation if c.sheet in inventory.sheets]
    evidence = [(c.sheet, u.source, u.factor) for c in kept for u in getattr(c, "units", ())]
    assert any(source == "label_header" and factor == 1000.0 for _, source, factor in evidence), (
        evidence
    )


# --- the fixtures of the layouts ---------------------------------------------------

ALL = list(df.BUILDERS)


@cache
def _built(name: str) -> df.Built:
    return df.BUILDERS[name]()


@cache
def _attempt(name: str):
    built = _built(name)
    try:
        return load_inventory(built.data, filename=built.filename), None
    except Exception as error:  # each test of this fixture re-raises it
        return None, error


def _load(name: str):
    inventory, error = _attempt(name)
    if error is not None:
        raise error
    return inventory


def _approx(value: Decimal | float):
    return pytest.approx(float(value), rel=REL, abs=1e-6)


def _gas_groups(totals: pd.DataFrame) -> dict[str, float]:
    found: dict[str, float] = {}
    for gas, tco2e in zip(totals["gas"], totals["tco2e"], strict=True):
        key = gas if gas in ("CO2", "CH4", "N2O") else "other"
        found[key] = found.get(key, 0.0) + float(tco2e)
    return {k: v for k, v in found.items() if abs(v) > 1e-9}


def _nonzero(totals: pd.DataFrame, field: str) -> dict[str, float]:
    return {str(k): float(v) for k, v in zip(totals[field], totals["tco2e"], strict=True)
            if abs(v) > 1e-9}  # fmt: skip


def _floats(mapping: dict[str, Decimal]) -> dict[str, float]:
    return {k: float(v) for k, v in mapping.items() if v != 0}


def test_fixtures_are_what_they_claim():
    """Engine-free: each workbook holds what its builder says (read back with calamine)."""
    for name in ALL:
        built = _built(name)
        book = CalamineWorkbook.from_filelike(io.BytesIO(built.data))
        assert book.sheet_names, name
    # the formula year header carries cached years a reader without formulas sees
    book = CalamineWorkbook.from_filelike(io.BytesIO(_built("i_national_summary_rows").data))
    header = book.get_sheet_by_name("Emissões").to_python()[2]
    assert [int(v) for v in header[1:5]] == [2017, 2018, 2019, 2020]
    assert header[5] == "Var. % 2019-2020"
    # the mobile sheet's litres are three orders of magnitude above its tonnes
    company = _built("a_company_inventory")
    assert company.extra["mobile_litres"] > 400 * company.by_sheet["Combustão móvel"]
    assert Decimal("1923.5") == df.GWP_R410A


@pytest.mark.parametrize("name", [n for n in ALL if _built(n).check_total])
def test_fixture_headline_total(name):
    assert _load(name).total_tco2e == _approx(_built(name).total_tco2e)


@pytest.mark.parametrize("name", [n for n in ALL if _built(n).scopes is not None])
def test_fixture_totals_by_scope(name):
    found = _nonzero(_load(name).totals_by("scope"), "scope")
    assert found == pytest.approx(_floats(_built(name).scopes), rel=REL)


@pytest.mark.parametrize("name", [n for n in ALL if _built(n).gases is not None])
def test_fixture_totals_by_gas(name):
    found = _gas_groups(_load(name).totals_by("gas"))
    assert found == pytest.approx(_floats(_built(name).gases), rel=REL)


@pytest.mark.parametrize("name", [n for n in ALL if _built(n).check_total])
def test_fixture_biogenic_co2_apart(name):
    assert _load(name).biogenic_co2_t == _approx(_built(name).biogenic_co2_t)


@pytest.mark.parametrize("name", [n for n in ALL if _built(n).year is not None])
def test_fixture_headline_year(name):
    assert _load(name).year == _built(name).year


@pytest.mark.parametrize("name", [n for n in ALL if _built(n).by_year])
def test_fixture_totals_by_year(name):
    totals = _load(name).totals_by("year")
    found = dict(zip(totals["year"].astype(str), totals["tco2e"], strict=True))
    assert found == pytest.approx(_floats(_built(name).by_year), rel=REL)


@pytest.mark.parametrize("name", [n for n in ALL if _built(n).by_sheet])
def test_fixture_totals_by_sheet(name):
    rows = _load(name).current
    found = {str(k): float(v) for k, v in rows.groupby("sheet")["emissions_tco2e"].sum().items()
             if abs(v) > 1e-9}  # fmt: skip
    assert found == pytest.approx(_floats(_built(name).by_sheet), rel=REL)


@pytest.mark.parametrize("name", ALL)
def test_fixture_status(name):
    built = _built(name)
    allowed = built.status if isinstance(built.status, tuple) else (built.status,)
    assert _load(name).status in allowed


@pytest.mark.parametrize("name", [n for n in ALL if _built(n).sheet_status])
def test_fixture_sheet_status(name):
    checks = {check.sheet: check.status for check in _load(name).reconciliation}
    found = {sheet: checks.get(sheet, "missing") for sheet in _built(name).sheet_status}
    assert found == _built(name).sheet_status


def test_months_of_litres_are_activity_not_tonnes():
    """301,599 t was the litres summed as t CO2; the sheet's emissions are a few hundred t."""
    built = _built("a_company_inventory")
    rows = _load("a_company_inventory").current
    mobile = float(rows.loc[rows["sheet"] == "Combustão móvel", "emissions_tco2e"].sum())
    assert mobile == _approx(built.by_sheet["Combustão móvel"])
    assert mobile < float(built.extra["mobile_litres"]) / 100


def test_facilities_named_total_are_facilities():
    built = _built("d_facility_summary")
    totals = _load("d_facility_summary").totals_by("facility")
    found = set(totals["facility"].astype(str))
    assert set(built.extra["facilities"]) <= found
    assert "Total" not in found  # the grand total row is a total, not a facility


@pytest.mark.parametrize(
    ("name", "source", "factor"),
    [("c_unit_in_label_header", "label_header", 1000.0),
     ("c_unit_in_title_line", "title", 1e6),
     ("f_no_units_plausible", "plausibility", 1.0)],
)  # fmt: skip
def test_fixture_unit_evidence(name, source, factor):
    evidence = [(u.source, u.factor) for c in _load(name).reconciliation for u in c.units]
    assert (source, factor) in evidence, evidence


def test_unit_in_cell_a1_is_read():
    evidence = [(u.source, u.factor) for c in _load("c_unit_in_cell_a1").reconciliation
                for u in c.units]  # fmt: skip
    assert any(f == 1000.0 and s not in ("default", "plausibility") for s, f in evidence), evidence


def test_scaled_column_conflict_names_the_sheet_the_column_and_differing_figures():
    """Not "stated 26,521.3, computed 26,521.3": the banner names what disagrees."""
    inventory = _load("f_scaled_column")
    (check,) = inventory.conflicts
    assert check.sheet == df.F_SHEET
    assert "CH4" in check.message_en and "CH4" in check.message_pt
    assert check.stated_tco2e is not None
    assert abs(check.stated_tco2e - check.computed_tco2e) > 0.005 * abs(check.stated_tco2e)


def test_facility_rows_counted():
    """Seven facilities, two named "Total …"; the grand total row is not a data row."""
    (check,) = _load("d_facility_summary").reconciliation
    assert check.rows == len(_built("d_facility_summary").extra["facilities"])


@pytest.mark.parametrize("name", ["f_no_units", "f_scaled_column_no_units"])
def test_no_unit_is_never_reconciled(name):
    inventory = _load(name)
    assert inventory.status != "reconciled"
    assert [c.sheet for c in inventory.not_reconciled] == [df.F_SHEET]


def test_ambiguous_sheet_offers_the_units_to_choose():
    (check,) = _load("f_no_units").ambiguous
    assert check.sheet == df.F_SHEET
    assert {"t", "kg"} <= set(check.unit_choices)


@pytest.mark.parametrize(("unit", "divisor"), [("t", 1), ("kg", 1000)])
def test_the_users_unit_decides_an_ambiguous_sheet(unit, divisor):
    built = _built("f_no_units")
    inventory = load_inventory(built.data, filename=built.filename, units={df.F_SHEET: unit})
    assert inventory.total_tco2e == _approx(built.total_tco2e / divisor)
    assert inventory.status == "reconciled"
    sources = {u.source for c in inventory.reconciliation for u in c.units}
    assert "user" in sources
