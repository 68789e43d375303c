"""Time across the columns, melted into rows: the expected frames are written out by hand
from the small tables below (one row per row and time column that holds a value, the first
time column's rows first, in sheet order; the sheet row of each kept)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from engine.inventory.layout import _melt, reshape_time_columns
from engine.inventory.table import SheetTable

NAN = np.nan


def _numbers(columns: list[str]):
    return lambda series: pd.to_numeric(series, errors="coerce")


def _sheet(body: pd.DataFrame, totals: pd.DataFrame, **extra) -> SheetTable:
    return SheetTable(
        sheet=extra.pop("sheet", "Energia"),
        header_rows=(4,),
        columns=list(body.columns),
        body=body,
        totals=totals,
        title=extra.pop("title", "Emissões de CO2 (t)"),
        **extra,
    )


def _frame(rows: dict[int, list], columns: list[str]) -> pd.DataFrame:
    """Rows keyed by their 1-based sheet row, as the table finder gives them."""
    return pd.DataFrame(list(rows.values()), index=list(rows), columns=columns)


def test_years_across_become_one_row_per_year_in_year_order_then_sheet_order():
    columns = ["Código", "Setor", "1990", "1991", "1992"]
    body = _frame(
        {
            5: ["1.A", "Combustão", 10.0, NAN, 12.0],
            6: ["1.B", "Fugitivas", NAN, NAN, NAN],  # no value in any year: no row
            7: ["2.A", "Cimento", 3.0, 4.0, 5.0],
        },
        columns,
    )
    totals = _frame({8: ["", "Total", 13.0, 4.0, 17.0]}, columns)

    melted = reshape_time_columns(_sheet(body, totals), _numbers)

    assert melted.time_layout == "years"
    value = melted.columns[-1]
    assert value.startswith("Emissões")
    assert melted.columns == ["Código", "Setor", "Ano", value]
    expected = pd.DataFrame(
        {
            # 1990: rows 5 and 7; 1991: row 7 only (row 5 is blank); 1992: rows 5 and 7.
            "Código": ["1.A", "2.A", "2.A", "1.A", "2.A"],
            "Setor": ["Combustão", "Cimento", "Cimento", "Combustão", "Cimento"],
            "Ano": ["1990", "1990", "1991", "1992", "1992"],
            value: [10.0, 3.0, 4.0, 12.0, 5.0],
        }
    )
    pd.testing.assert_frame_equal(melted.body, expected)
    assert melted.sheet_rows.tolist() == [5, 7, 7, 5, 7]
    assert melted.sheet_rows.dtype == np.int64
    assert melted.rows().tolist() == [5, 7, 7, 5, 7]
    # The total row, once per year, keeps its sheet row as its index.
    expected_totals = pd.DataFrame(
        {
            "Código": ["", "", ""],
            "Setor": ["Total", "Total", "Total"],
            "Ano": ["1990", "1991", "1992"],
            value: [13.0, 4.0, 17.0],
        },
        index=[8, 8, 8],
    )
    pd.testing.assert_frame_equal(melted.totals, expected_totals)


def test_a_year_column_that_holds_no_value_anywhere_gives_no_rows():
    columns = ["Setor", "2019", "2020"]
    body = _frame({3: ["Caldeira", NAN, 7.5], 4: ["Forno", NAN, NAN]}, columns)
    totals = _frame({}, columns)

    melted = reshape_time_columns(_sheet(body, totals), _numbers)

    value = melted.columns[-1]
    pd.testing.assert_frame_equal(
        melted.body, pd.DataFrame({"Setor": ["Caldeira"], "Ano": ["2020"], value: [7.5]})
    )
    assert melted.sheet_rows.tolist() == [3]
    assert melted.totals.empty
    assert list(melted.totals.columns) == ["Setor", "Ano", value]


def test_months_summed_per_year_melt_with_the_rows_own_year_column_renamed():
    # Months of 2023 and 2024 across, beside a column 'Ano' that the months overrule: the
    # per-year sums are written out here (jan + fev of each year), as the month branch makes.
    columns = ["Fonte", "Ano", "jan/2023", "fev/2023", "jan/2024"]
    body = _frame(
        {
            10: ["Caldeira", "2022", 1.0, 2.0, 4.0],
            11: ["Gerador", "2022", NAN, NAN, 0.5],
        },
        columns,
    )
    totals = _frame({12: ["Total", "", 1.0, 2.0, 4.5]}, columns)
    values = pd.DataFrame({"2023": [1.0 + 2.0, NAN], "2024": [4.0, 0.5]}, index=body.index)
    summed_totals = pd.DataFrame({"2023": [1.0 + 2.0], "2024": [4.5]}, index=totals.index)
    table = _sheet(body, totals, title="Emissões de CO2 (t) por mês")

    melted = _melt(table, columns[2:], values, summed_totals, "jan/2023", "months")

    assert melted.time_layout == "months"
    value = melted.columns[-1]
    assert melted.columns == ["Fonte", "Ano (original)", "Ano", value]
    expected = pd.DataFrame(
        {
            "Fonte": ["Caldeira", "Caldeira", "Gerador"],
            "Ano (original)": ["2022", "2022", "2022"],
            "Ano": ["2023", "2024", "2024"],
            value: [3.0, 4.0, 0.5],
        }
    )
    pd.testing.assert_frame_equal(melted.body, expected)
    assert melted.sheet_rows.tolist() == [10, 10, 11]
    expected_totals = pd.DataFrame(
        {
            "Fonte": ["Total", "Total"],
            "Ano (original)": ["", ""],
            "Ano": ["2023", "2024"],
            value: [3.0, 4.5],
        },
        index=[12, 12],
    )
    pd.testing.assert_frame_equal(melted.totals, expected_totals)


def test_months_of_one_unnamed_year_beside_the_rows_own_year_add_no_year_column():
    # jan … mar with no year anywhere: one sum per row, and the row's 'Ano' says its year.
    columns = ["Fonte", "Ano", "jan", "fev", "mar"]
    body = _frame(
        {
            4: ["Caldeira", "2021", 1.0, 1.0, 1.0],
            5: ["Forno", "2022", NAN, NAN, NAN],
            6: ["Gerador", "2022", 2.0, NAN, 0.25],
        },
        columns,
    )
    totals = _frame({}, columns)
    values = pd.DataFrame({"": [1.0 + 1.0 + 1.0, NAN, 2.0 + 0.25]}, index=body.index)
    summed_totals = pd.DataFrame({"": pd.Series([], dtype="float64")}, index=totals.index)
    table = _sheet(body, totals, sheet="Combustão", title="Emissões de CO2 (t)")

    melted = _melt(table, columns[2:], values, summed_totals, "jan", "months")

    value = melted.columns[-1]
    assert melted.columns == ["Fonte", "Ano", value]
    expected = pd.DataFrame(
        {"Fonte": ["Caldeira", "Gerador"], "Ano": ["2021", "2022"], value: [3.0, 2.25]}
    )
    pd.testing.assert_frame_equal(melted.body, expected)
    assert melted.sheet_rows.tolist() == [4, 6]
    assert melted.totals.empty


def test_months_with_no_year_and_no_year_column_leave_the_year_missing():
    columns = ["Fonte", "jan", "fev"]
    body = _frame({2: ["Caldeira", 1.5, 2.5], 3: ["Forno", NAN, 1.0]}, columns)
    totals = _frame({}, columns)
    values = pd.DataFrame({"": [1.5 + 2.5, 1.0]}, index=body.index)
    summed_totals = pd.DataFrame({"": pd.Series([], dtype="float64")}, index=totals.index)
    table = _sheet(body, totals, sheet="Combustão", title="Emissões de CO2 (t)")

    melted = _melt(table, columns[1:], values, summed_totals, "jan", "months")

    value = melted.columns[-1]
    assert melted.columns == ["Fonte", "Ano", value]
    assert melted.body["Fonte"].tolist() == ["Caldeira", "Forno"]
    assert melted.body["Ano"].isna().all()
    assert melted.body[value].tolist() == [4.0, 1.0]
    assert melted.sheet_rows.tolist() == [2, 3]
