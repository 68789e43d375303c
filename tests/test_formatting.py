"""One home for number formatting: Portuguese and English say the same number, rounded alike."""

import decimal
import re
from decimal import Decimal

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.formatting import MISSING, number, percent, read_number

SANE = st.floats(min_value=-1e12, max_value=1e12, allow_nan=False, allow_infinity=False)
DECIMALS = st.integers(min_value=0, max_value=3)


def _from_pt(text: str) -> Decimal:
    return Decimal(text.replace(".", "").replace(",", "."))


def _from_en(text: str) -> Decimal:
    return Decimal(text.replace(",", ""))


def _shape(decimals: int, group: str, point: str) -> re.Pattern[str]:
    fraction = rf"\{point}\d{{{decimals}}}" if decimals else ""
    return re.compile(rf"-?\d{{1,3}}(\{group}\d{{3}})*{fraction}")


@given(SANE, DECIMALS)
def test_portuguese_and_english_say_the_same_rounded_number(value, decimals):
    pt, en = number(value, decimals), number(value, decimals, "en")
    assert _from_pt(pt) == _from_en(en)
    # round() and the text agree on the float, and the text is within half a unit of the
    # last decimal of the exact value (checked in exact decimal arithmetic)
    assert float(_from_pt(pt)) == round(value, decimals)
    assert abs(_from_pt(pt) - Decimal(value)) <= Decimal(5).scaleb(-decimals - 1)


@given(SANE, DECIMALS)
def test_portuguese_groups_with_dots_and_english_with_commas(value, decimals):
    pt, en = number(value, decimals), number(value, decimals, "en")
    assert _shape(decimals, ".", ",").fullmatch(pt), pt
    assert _shape(decimals, ",", ".").fullmatch(en), en
    assert pt == en.translate(str.maketrans(",.", ".,"))


@given(SANE, DECIMALS)
def test_the_rounding_is_the_f_strings_one(value, decimals):
    """Half-even on the float's exact binary value: the texts the digest always showed."""
    expected = f"{value:,.{decimals}f}"
    if _from_en(expected) == 0:
        expected = expected.removeprefix("-")  # no '-0.0'
    assert number(value, decimals, "en") == expected


@given(st.floats(min_value=-100, max_value=100, allow_nan=False), DECIMALS)
def test_a_percentage_is_the_share_times_100_rounded(share, decimals):
    pt, en = percent(share, decimals), percent(share, decimals, "en")
    assert pt.endswith("%") and en.endswith("%")
    assert _from_pt(pt[:-1]) == _from_en(en[:-1])
    assert float(_from_en(en[:-1])) == round(share * 100, decimals)


@pytest.mark.parametrize(
    ("value", "decimals", "pt", "en"),
    [
        (1234.5, 1, "1.234,5", "1,234.5"),
        (1234.5, 0, "1.234", "1,234"),  # half-even, like f"{1234.5:.0f}"
        (-1234567.891, 2, "-1.234.567,89", "-1,234,567.89"),
        (0, 1, "0,0", "0.0"),
        (-0.04, 1, "0,0", "0.0"),  # rounds to zero: no sign
        (0.15, 1, "0,1", "0.1"),  # the float 0.15 is a hair below 0.15
        (2.675, 2, "2,67", "2.67"),
        (999.96, 1, "1.000,0", "1,000.0"),
        (1e15, 0, "1.000.000.000.000.000", "1,000,000,000,000,000"),
        (12_345_678_901_234_567, 0, "12.345.678.901.234.567", "12,345,678,901,234,567"),
        (Decimal("2.675"), 2, "2,68", "2.68"),  # a Decimal is taken as written
        (np.float64(3.25), 1, "3,2", "3.2"),
        (np.int64(1500), 0, "1.500", "1,500"),
    ],
)
def test_numbers(value, decimals, pt, en):
    assert number(value, decimals) == pt
    assert number(value, decimals, lang="en") == en


def test_percentages():
    assert percent(0.256) == "25,6%"
    assert percent(0.256, lang="en") == "25.6%"
    assert percent(0.0375) == "3,8%"  # 0.0375 * 100 == 3.75 in float, as before
    assert percent(-0.0326) == "-3,3%"
    assert percent(12.3456, 2, "en") == "1,234.56%"
    assert percent(1, 0) == "100%"
    assert percent(-1e-9) == "0,0%"


@pytest.mark.parametrize("missing", [None, float("nan"), float("inf"), -np.inf, pd.NA, pd.NaT])
def test_nothing_to_show_is_a_dash(missing):
    assert number(missing) == MISSING == "—"
    assert percent(missing, lang="en") == MISSING


def test_a_huge_value_keeps_every_digit():
    assert number(1e30, 0, "en") == f"{1e30:,.0f}"
    assert number(-1e300, 1, "en") == f"{-1e300:,.1f}"


def test_the_callers_decimal_context_does_not_change_the_text():
    with decimal.localcontext(decimal.Context(prec=5, rounding=decimal.ROUND_UP)):
        assert number(123456789.25, 1) == "123.456.789,2"
        assert number(2.675, 2) == "2,67"
        assert percent(0.25, 0) == "25%"


def test_languages_and_decimals_are_checked():
    assert number(1.5, 1, "pt-BR") == number(1.5, 1, "pt_BR") == "1,5"
    assert number(1.5, 1, "en-US") == "1.5"
    with pytest.raises(ValueError, match="language"):
        number(1.5, 1, "fr")
    with pytest.raises(ValueError, match="decimals"):
        number(1.5, -1)
    with pytest.raises(TypeError):
        number("1.5")  # type: ignore[arg-type]


@given(st.floats(min_value=-1e9, max_value=1e9, allow_nan=False), st.sampled_from([0, 1, 2]))
def test_what_is_written_in_either_language_reads_back(value, decimals):
    for lang in ("pt", "en"):
        text = number(value, decimals, lang)
        assert read_number(text) == pytest.approx(float(text.replace(".", "").replace(",", ".")
                                                         if lang == "pt" else
                                                         text.replace(",", "")))  # fmt: skip


@pytest.mark.parametrize(
    ("typed", "value"),
    [("120.000", 120_000), ("120,000", 120_000), ("1,5", 1.5), ("1.5", 1.5),
     ("1.000,5", 1000.5), ("1,000.5", 1000.5), ("0.500", 0.5), ("120 000", 120_000), (7, 7)],
)  # fmt: skip
def test_numbers_typed_in_either_language(typed, value):
    assert read_number(typed) == value
