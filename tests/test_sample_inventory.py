"""The shipped sample inventory: loads through the real ingestion, and its totals add up."""

import io
import math

import openpyxl
import pytest

from assets.sample_inventory import SAMPLE_NAME, SAMPLE_PATH, build_sample_workbook
from engine.inventory import load_inventory

DATA_SHEETS = [
    "Combustão estacionária",
    "Combustão móvel",
    "Emissões fugitivas",
    "Processos industriais",
    "Eletricidade (localização)",
    "Escopo 3 – Viagens",
    "Escopo 3 – Resíduos",
]


@pytest.fixture(scope="module")
def built() -> bytes:
    return build_sample_workbook()


@pytest.fixture(scope="module")
def inventory(built):
    return load_inventory(built, filename=SAMPLE_NAME)


def _total_rows(data: bytes) -> dict[str, dict[str, float]]:
    """Per data sheet: the 'Total' row's numbers, by the column names of the header row."""
    workbook = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    totals = {}
    for sheet in workbook.worksheets:
        rows = list(sheet.iter_rows(values_only=True))
        names_row = next(
            (row for row in rows if row and "Unidade" in row and "Fonte emissora" in row), None
        )
        total_row = next((row for row in rows if row and row[0] == "Total"), None)
        if names_row is None or total_row is None:
            continue
        totals[sheet.title] = {
            name: value
            for name, value in zip(names_row, total_row, strict=False)
            if isinstance(name, str) and isinstance(value, int | float)
        }
    workbook.close()
    return totals


def _co2e(sheet_totals: dict[str, float]) -> float:
    (value,) = [v for k, v in sheet_totals.items() if k.startswith("Emissões") and "CO2e" in k]
    return value


def test_every_data_sheet_is_mapped_and_the_prose_sheet_skipped(built, inventory):
    assert openpyxl.load_workbook(io.BytesIO(built)).sheetnames == ["Sobre", *DATA_SHEETS]
    assert inventory.sheets == DATA_SHEETS
    assert set(inventory.skipped_sheets) == {"Sobre"}
    for sheet in DATA_SHEETS:
        fields = set(inventory.mapping[sheet].values())
        assert {"facility", "source"} <= fields, sheet
        if sheet != "Emissões fugitivas":  # refrigerant losses: the mass lost is the datum
            assert {"quantity", "unit"} <= fields, sheet
        else:
            assert "gas" in fields
        assert any(f and f.startswith("emissions_") for f in fields), sheet


def test_three_scopes_with_sensible_shares(inventory):
    scopes = inventory.totals_by("scope").set_index("scope")
    assert set(scopes.index) == {"1", "2", "3"}
    share = scopes["share"]
    assert share["1"] > 0.8 and 0.04 < share["2"] < 0.15 and 0.005 < share["3"] < 0.05
    assert 20_000 < inventory.total_tco2e < 40_000
    categories = inventory.totals_by("category")["category"].tolist()
    assert categories[:2] == ["Combustão estacionária", "Processos industriais"]
    top = inventory.pareto(top=1).iloc[0]
    assert top["fuel"] == "Gás natural" and top["gas"] == "CO2"


def test_no_finding_but_the_skipped_prose_sheet(inventory):
    codes = [finding.code for finding in inventory.findings]
    assert codes == ["sheet_skipped"]
    assert not {"unit_assumed", "total_row_differs", "row_total_differs"} & set(codes)


def test_the_total_is_the_sum_of_the_sheets_total_rows(built, inventory):
    totals = _total_rows(built)
    assert sorted(totals) == sorted(DATA_SHEETS)
    per_sheet = inventory.table.groupby("sheet")["emissions_tco2e"].sum()
    for sheet in DATA_SHEETS:
        assert per_sheet[sheet] == pytest.approx(_co2e(totals[sheet]), abs=0.01), sheet
    stated = math.fsum(_co2e(t) for t in totals.values())
    assert inventory.total_tco2e == pytest.approx(stated, abs=0.05)


def test_biogenic_co2_is_reported_apart(built, inventory):
    totals = _total_rows(built)
    stated = math.fsum(t.get("CO2 biogênico (t)", 0.0) for t in totals.values())
    assert inventory.biogenic_co2_t > 1_000
    assert inventory.biogenic_co2_t == pytest.approx(stated, abs=0.01)
    fossil_co2 = inventory.totals_by("gas").set_index("gas").loc["CO2", "tco2e"]
    assert fossil_co2 < inventory.total_tco2e


def test_the_shipped_file_is_the_fresh_build(built, inventory):
    shipped = load_inventory(SAMPLE_PATH)
    assert shipped.total_tco2e == pytest.approx(inventory.total_tco2e, abs=1e-6)
    assert shipped.biogenic_co2_t == pytest.approx(inventory.biogenic_co2_t, abs=1e-6)
    fresh = inventory.totals_by("scope").set_index("scope")["tco2e"]
    assert shipped.totals_by("scope").set_index("scope")["tco2e"].to_dict() == pytest.approx(
        fresh.to_dict()
    )
    assert _total_rows(SAMPLE_PATH.read_bytes()) == _total_rows(built)


def test_the_build_is_deterministic(built):
    again = build_sample_workbook()

    def values(data: bytes) -> dict[str, list[tuple]]:
        workbook = openpyxl.load_workbook(io.BytesIO(data), read_only=True)
        found = {ws.title: list(ws.iter_rows(values_only=True)) for ws in workbook.worksheets}
        workbook.close()
        return found

    assert values(again) == values(built)
    assert SAMPLE_NAME.endswith(".xlsx")
