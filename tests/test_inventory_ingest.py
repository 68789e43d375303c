"""Ingestion against workbooks and exports shaped like the real tools, and the EPA file."""

from pathlib import Path

import pandas as pd
import pytest

from engine.inventory import (
    GWP_SETS,
    CorruptFileError,
    EmptyFileError,
    FileTooLargeError,
    FormatMismatchError,
    InventoryError,
    NoEmissionsColumnError,
    NoTableFoundError,
    PasswordProtectedError,
    TooManyRowsError,
    UnknownGwpSetError,
    UnsupportedFormatError,
    load_inventory,
)
from tests import inventory_fixtures as fx

EPA = Path(__file__).resolve().parent / "data"  # real public data kept in the repository
EPA_FILE = EPA / "us_epa_ghgrp_2020_sf6_electrical_equipment.csv"


def _per_gas(inv):
    return inv.table.groupby("gas")["emissions_t_gas"].sum().round(9).to_dict()


CANONICAL_NAMES = {"HFC-134a": "HFC134a"}  # how the table names the gases the files spell


def _expected_per_gas(expected):
    return {CANONICAL_NAMES.get(gas, gas): round(t, 9) for gas, t in expected.per_gas_t.items()}


@pytest.fixture(scope="module")
def program():
    data, expected = fx.ghg_program_workbook()
    return load_inventory(data, filename="programa.xlsx"), expected


def test_program_workbook_per_gas_masses_match_what_was_written(program):
    inv, expected = program
    assert _per_gas(inv) == _expected_per_gas(expected)


@pytest.mark.parametrize("gwp_set", GWP_SETS)
def test_program_workbook_total_in_each_gwp_set(gwp_set):
    data, expected = fx.ghg_program_workbook()
    inv = load_inventory(data, filename="programa.xlsx", gwp_set=gwp_set)
    assert inv.gwp_set == gwp_set
    assert inv.totals_by("gas").attrs["gwp_set"] == gwp_set
    assert inv.pareto().attrs["gwp_set"] == gwp_set
    assert inv.total_tco2e == pytest.approx(expected.tco2e(gwp_set), rel=1e-9)
    assert f"Conjunto de GWP: {gwp_set}" in inv.digest()


def test_program_workbook_scopes_biogenic_and_skipped_sheets(program):
    inv, expected = program
    scopes = inv.totals_by("scope").set_index("scope")["tco2e"].to_dict()
    assert scopes == pytest.approx(expected.scopes)
    assert inv.biogenic_co2_t == pytest.approx(expected.biogenic_co2_t)
    assert inv.sheets == list(expected.data_sheets)
    assert set(inv.skipped_sheets) == set(expected.skipped_sheets)
    data_rows = inv.table.drop_duplicates(["sheet", "row"])
    assert len(data_rows) == expected.data_rows


def test_multi_row_merged_headers_are_joined_into_one_name_per_column(program):
    inv, expected = program
    mobile = inv.mapping["Combustão móvel"]
    assert mobile["Emissões (t) / Fósseis / CO2 (t)"] == "emissions_t_gas:CO2"
    assert mobile["Emissões (t) / Biogênicas / CO2 biogênico (t)"] == "biogenic_co2"
    assert mobile["Identificação / Unidade"] == "facility"
    for sheet, rows in expected.header_rows.items():
        depth = max(name.count(" / ") + 1 for name in inv.mapping[sheet])
        assert depth == rows, sheet
    electricity = inv.mapping["Eletricidade (localização)"]
    assert electricity["Consumo / Fator de emissão (t CO2/MWh)"] == "emission_factor"


def test_total_rows_are_kept_apart_and_a_wrong_one_is_reported(program):
    inv, expected = program
    assert set(inv.reported_totals["sheet"]) == set(expected.data_sheets)
    wrong = [f for f in inv.findings if f.code == "total_row_differs"]
    assert [f.sheet for f in wrong] == [expected.wrong_total_sheet]
    assert expected.wrong_total_gas in wrong[0].message_en
    assert "Total" not in set(inv.table["facility"].dropna())


def test_error_cells_are_missing_values_reported_where_they_were(program):
    inv, expected = program
    reported = {(f.sheet, r) for f in inv.findings if f.code == "error_cells" for r in f.rows}
    written = {(sheet, int("".join(c for c in ref if c.isdigit()))) for sheet, ref in
               expected.error_cells}  # fmt: skip
    assert reported == written


def test_picking_sheets_reads_only_those(program):
    data, _ = fx.ghg_program_workbook()
    inv = load_inventory(data, filename="programa.xlsx", sheets=["Emissões fugitivas"])
    assert inv.sheets == ["Emissões fugitivas"]
    assert set(inv.table["gas"]) == {"CO2", "HFC134a", "R-410A", "SF6"}


def test_kilograms_are_converted_to_tonnes(program):
    inv, expected = program
    fugitive = inv.table[inv.table["sheet"] == "Emissões fugitivas"]
    assert fugitive.loc[fugitive["gas"] == "SF6", "emissions_t_gas"].sum() == pytest.approx(
        expected.per_gas_t["SF6"]
    )


@pytest.mark.parametrize("encoding", ["cp1252", "utf-8-sig", "utf-8"])
@pytest.mark.parametrize("delimiter", [";", ",", "\t"])
@pytest.mark.parametrize("english", [False, True])
def test_csv_exports_in_every_encoding_and_delimiter(encoding, delimiter, english):
    data, expected = fx.export_csv(encoding=encoding, delimiter=delimiter, english=english)
    inv = load_inventory(data, filename="export.csv")
    assert _per_gas(inv) == _expected_per_gas(expected)
    assert inv.table["source"].str.contains("Combustão|São Paulo", regex=True).any() or (
        inv.table["facility"].str.contains("São Paulo").any()
    )
    codes = {f.code: f.rows for f in inv.findings}
    assert len(codes["duplicated_rows"]) == expected.duplicate_rows
    assert len(codes["non_positive_emissions"]) == expected.negative_rows
    assert len(codes["unknown_scope"]) == expected.unknown_scope_rows


def test_real_epa_file_totals_equal_its_column_sums():
    frame = pd.read_csv(EPA_FILE)
    inv = load_inventory(EPA_FILE)
    assert inv.total_tco2e == pytest.approx(frame["SF6 emissions "].sum(), rel=1e-12)
    assert inv.total_tco2e == pytest.approx(
        frame["Total reported direct emissions from Electrical Equipment Use"].sum(), rel=1e-12
    )
    assert set(inv.table["gas"]) == {"SF6"}
    assert set(inv.table["basis"]) == {"reported"}  # already CO2e: never multiplied again
    assert len(inv.table) == frame["SF6 emissions "].notna().sum()
    missing = next(f for f in inv.findings if f.code == "rows_without_emissions")
    assert len(missing.rows) == frame["SF6 emissions "].isna().sum()
    by_facility = inv.totals_by("facility").set_index("facility")["tco2e"]
    sums = frame.groupby("Facility Name")["SF6 emissions "].sum()
    top = sums.idxmax()
    assert by_facility[top] == pytest.approx(sums[top])


def test_column_overrides_flat_and_per_sheet():
    data, _ = fx.export_csv()
    plain = load_inventory(data, filename="e.csv")
    column = next(c for c, m in plain.mapping["e.csv"].items() if m == "facility")
    ignored = load_inventory(data, filename="e.csv", column_overrides={column: None})
    assert ignored.mapping["e.csv"][column] is None
    assert ignored.table["facility"].isna().all()
    assert column in ignored.table.columns  # an unmapped column is kept as it was
    per_sheet = load_inventory(data, filename="e.csv",
                               column_overrides={"e.csv": {column: "source"}})  # fmt: skip
    assert per_sheet.mapping["e.csv"][column] == "source"


def test_gas_without_gwp_is_reported_and_left_out():
    text = "Fonte;Gás;Emissões (t)\nCaldeira;CO2;10\nMisterioso;XYZ-99;5\n"
    inv = load_inventory(text.encode(), filename="x.csv")
    assert inv.total_tco2e == pytest.approx(10)
    assert any(f.code == "gas_without_gwp" and "XYZ-99" in f.message_en for f in inv.findings)


def test_formula_like_cells_stay_text_and_are_never_exported_as_formulas():
    inv = load_inventory(fx.formula_injection_csv(), filename="inj.csv")
    sources = set(inv.table["source"])
    assert '=HYPERLINK("http://x","clique")' in sources
    assert "@SUM(A1:A2)" in sources
    markdown = inv.to_markdown()
    for line in markdown.splitlines()[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert not any(c.startswith(("=", "+", "@")) for c in cells)
    assert "'=HYPERLINK" in markdown
    assert inv.table["emissions_t_gas"].min() == pytest.approx(-3.5)  # a number, not text


@pytest.mark.parametrize(("builder", "name"), [(fx.ods_workbook, "t.ods"),
                                               (fx.xls_workbook, "t.xls")])  # fmt: skip
def test_ods_and_xls_are_read(builder, name):
    inv = load_inventory(builder(), filename=name)
    expected = fx.small_table()
    assert len(inv.table) == len(expected)
    assert inv.table["emissions_t_gas"].sum() == pytest.approx(expected["Emissões (t)"].sum())


def test_sources_paths_bytes_and_file_objects(tmp_path):
    data, _ = fx.export_csv()
    path = tmp_path / "export.csv"
    path.write_bytes(data)

    class Upload:  # what st.file_uploader gives: a binary file object with a name
        name = "export.csv"

        def __init__(self, payload):
            self._payload = payload

        def read(self, size=-1):
            return self._payload

    totals = {
        load_inventory(path).total_tco2e,
        load_inventory(data, filename="export.csv").total_tco2e,
        load_inventory(Upload(data)).total_tco2e,
    }
    assert len(totals) == 1


@pytest.mark.parametrize(
    ("payload", "name", "error"),
    [
        (fx.empty_file(), "x.xlsx", EmptyFileError),
        (b"   \n", "x.csv", EmptyFileError),
        (fx.text_pretending_to_be_xlsx(), "x.xlsx", FormatMismatchError),
        (fx.corrupt_xlsx(), "x.xlsx", CorruptFileError),
        (fx.zip_not_a_workbook(), "x.xlsx", FormatMismatchError),
        (fx.password_protected_xlsx(), "x.xlsx", PasswordProtectedError),
        (fx.no_table_xlsx(), "x.xlsx", NoTableFoundError),
        (fx.no_emissions_csv(), "x.csv", NoEmissionsColumnError),
        (b"abc", "x.pdf", UnsupportedFormatError),
        (b"\x00\x01\x02binary", "x.csv", FormatMismatchError),
    ],
)
def test_bad_input_raises_a_specific_bilingual_error(payload, name, error):
    with pytest.raises(error) as caught:
        load_inventory(payload, filename=name)
    assert isinstance(caught.value, InventoryError)
    assert caught.value.message_pt and caught.value.message_en
    assert caught.value.message_pt != caught.value.message_en
    assert caught.value.message("pt") == caught.value.message_pt


def test_no_emissions_error_names_the_columns_seen():
    with pytest.raises(NoEmissionsColumnError) as caught:
        load_inventory(fx.no_emissions_csv(), filename="x.csv")
    assert "Quantidade" in caught.value.message_en
    assert "Fonte" in caught.value.columns_seen


def test_limits_on_size_rows_and_gwp_set():
    data, _ = fx.export_csv()
    with pytest.raises(FileTooLargeError):
        load_inventory(data, filename="x.csv", max_bytes=100)
    with pytest.raises(TooManyRowsError):
        load_inventory(data, filename="x.csv", max_rows=5)
    workbook, _ = fx.ghg_program_workbook()
    with pytest.raises(TooManyRowsError):
        load_inventory(workbook, filename="x.xlsx", max_rows=5)
    with pytest.raises(UnknownGwpSetError):
        load_inventory(data, filename="x.csv", gwp_set="AR9")


def test_pareto_year_over_year_and_compare():
    table = fx.long_table(2_000, seed=3)
    inv = load_inventory(fx.as_csv(table), filename="long.csv")
    pareto = inv.pareto()
    assert pareto["cumulative_share"].iloc[-1] == pytest.approx(1.0)
    assert pareto["tco2e"].is_monotonic_decreasing
    yoy = inv.year_over_year()
    assert list(yoy["year"]) == ["2023", "2024"]
    # The headline is the latest year, never the sum of the years.
    latest = table[table["Ano"] == 2024]
    latest_tco2e = sum(
        t * fx.gwp(gas, "AR5") for gas, t in zip(latest["Gás"], latest["Emissões (t)"], strict=True)
    )
    assert inv.year == "2024"
    assert inv.total_tco2e == pytest.approx(latest_tco2e, rel=1e-9)
    assert yoy.set_index("year")["tco2e"]["2024"] == pytest.approx(inv.total_tco2e)
    by_year = inv.totals_by("year").set_index("year")["tco2e"]
    assert yoy["change"].iloc[1] == pytest.approx(by_year["2024"] - by_year["2023"])
    earlier = load_inventory(fx.as_csv(fx.long_table(2_000, seed=4)), filename="old.csv")
    compared = inv.compare(earlier).set_index("scope")
    assert compared["change"].sum() == pytest.approx(inv.total_tco2e - earlier.total_tco2e)


def test_totals_by_share_and_unknown_field(program):
    inv, _ = program
    for field in ("scope", "gas", "category", "facility", "source"):
        totals = inv.totals_by(field)
        assert totals["tco2e"].sum() == pytest.approx(inv.total_tco2e)
        assert totals["share"].sum() == pytest.approx(1.0)
    with pytest.raises(ValueError, match="cannot group"):
        inv.totals_by("colour")


@pytest.mark.parametrize("budget", [2_000, 12_000])
def test_digest_stays_within_budget_and_stops_growing(budget):
    small = load_inventory(fx.as_csv(fx.long_table(5_000)), filename="a.csv")
    large = load_inventory(fx.as_csv(fx.long_table(50_000)), filename="a.csv")
    small_digest, large_digest = small.digest(budget), large.digest(budget)
    assert len(small_digest) <= budget and len(large_digest) <= budget
    assert len(large_digest) <= 1.2 * len(small_digest)
    assert "Total:" in large_digest and "AR5" in large_digest


def test_error_values_written_as_text_are_missing_and_reported():
    text = "Fonte;Gás;Emissões (t)\nCaldeira;CO2;10\nForno;CO2;#N/A\nGerador;CH4;#VALOR!\n"
    inv = load_inventory(text.encode(), filename="x.csv")
    assert inv.total_tco2e == pytest.approx(10)
    errors = next(f for f in inv.findings if f.code == "error_cells")
    assert errors.rows == (3, 4)


def test_sheet_list_for_the_picker():
    data, expected = fx.ghg_program_workbook()
    from engine.inventory import list_sheets

    assert list_sheets(data, filename="p.xlsx") == ["Introdução", *expected.data_sheets]
    csv_data, _ = fx.export_csv()
    assert list_sheets(csv_data, filename="export.csv") == ["export.csv"]
    with pytest.raises(FormatMismatchError):
        list_sheets(fx.text_pretending_to_be_xlsx(), filename="x.xlsx")
