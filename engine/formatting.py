"""Numbers as a reader of each language writes them: the one home for number formatting.

The engine's digest, its query tool, the offline answers and the UI all format numbers here,
so '1.234,5' in a Portuguese answer and on the page come from the same code. Built on
Babel's CLDR data (``pt`` → pt_BR, ``en`` → en_US):

    number(1234.5)              -> '1.234,5'
    number(1234.5, lang="en")   -> '1,234.5'
    number(-0.04)               -> '0,0'      (a value that rounds to zero has no sign)
    percent(0.256)              -> '25,6%'
    number(None), number(nan)   -> '—'        (also ±inf and pandas' NA/NaT: nothing to show)

Rounding: half-even on the exact binary value of a float, which is what Python's f-strings
and ``round()`` do (so 0.15 → '0,1' and 2.675 → '2,67', because those floats sit just
below the halfway point). Babel alone would first turn the float into ``Decimal(str(x))``
and round *that* half-even (0.15 → '0,2'): a different answer for the same float than the
f-strings this replaced and than ``round(x, n)``. ``Decimal(float)`` is exact, so passing it
keeps every previous output — digest, tool, tests — unchanged (only '-0,0' became '0,0'). A
percentage likewise rounds ``share * 100`` computed in float, as before. The rounding runs in
a private decimal context wide enough for any double, so neither a caller's decimal context
nor a huge value (1e30 keeps all its digits) changes the result.

Speed: the parsed pattern, the Locale and the rounding quantum are cached per
(language, decimals, kind); ``babel.numbers.format_decimal`` would re-parse the pattern and
the locale on every call.
"""

from __future__ import annotations

import decimal
import math
import re
from decimal import Decimal
from functools import cache
from numbers import Integral, Real
from typing import Literal

import pandas as pd
from babel import Locale
from babel.numbers import NumberPattern, parse_pattern

MISSING = "—"
LOCALES = {"pt": "pt_BR", "en": "en_US"}

# Rounding to a few decimals leaves at most 309 + decimals digits (the largest double has 309
# integer digits): 400 digits of precision mean the one quantize below is the only rounding,
# half-even as stated here, whatever the caller's decimal context says.
_EXACT = decimal.Context(prec=400, rounding=decimal.ROUND_HALF_EVEN, Emax=999_999, Emin=-999_999)


# Typed by a person or a model: "1.000,5" and "12,5" are Brazilian; "1,000.5" is English; a
# lone separator before exactly three digits groups thousands ("120.000", "120,000"), unless
# the number starts with 0 ("0.500" is a half in any language).
_BRAZILIAN = re.compile(r"^-?[1-9]\d{0,2}(\.\d{3})+(,\d+)?$|^-?\d+,\d+$")
_ENGLISH_THOUSANDS = re.compile(r"^-?[1-9]\d{0,2}(,\d{3})+(\.\d+)?$")


def read_number(value: float | int | str) -> float:
    """A number as typed in either language, as a float; ValueError when it is none."""
    if isinstance(value, (int, float)):
        return float(value)
    text = str(value).strip().replace(" ", "").replace("\u00a0", "")
    if _BRAZILIAN.match(text) and not _ENGLISH_THOUSANDS.match(text):
        return float(text.replace(".", "").replace(",", "."))
    return float(text.replace(",", ""))


def number(value: object, decimals: int = 1, lang: str = "pt") -> str:
    """``value`` with exactly ``decimals`` decimals, grouped by thousands, in ``lang``."""
    return _format(value, decimals, lang, "number")


def percent(share: object, decimals: int = 1, lang: str = "pt") -> str:
    """A share (0.256) as a percentage ('25,6%' in Portuguese, '25.6%' in English)."""
    return _format(share, decimals, lang, "percent")


def _format(value: object, decimals: int, lang: str, kind: Literal["number", "percent"]) -> str:
    scale = 100 if kind == "percent" else 1
    exact = _exact(value, scale)
    if exact is None:
        return MISSING
    pattern, locale, quantum = _style(lang, decimals, kind)
    rounded = exact.quantize(quantum, context=_EXACT)
    if not rounded:
        rounded = rounded.copy_abs()  # -0.04 → '0,0', not '-0,0'
    if scale != 1:  # a percent pattern multiplies by 100 itself: hand it the share back
        rounded = rounded.scaleb(-2, context=_EXACT)
    # Babel re-normalises the (already rounded) value in the current decimal context (28
    # digits by default): a value with fewer digits passes through exactly, whatever the
    # context's rounding; a longer one is formatted inside _EXACT.
    if rounded.adjusted() + decimals + 4 <= decimal.getcontext().prec:
        return pattern.apply(rounded, locale)
    with decimal.localcontext(_EXACT):
        return pattern.apply(rounded, locale)


def _exact(value: object, scale: int = 1) -> Decimal | None:
    """``value × scale`` exactly, or None when there is nothing to show.

    A float is scaled in float arithmetic (``share * 100``), as the f-strings before did,
    so 0.0375 still shows as '3,8%' (0.0375 * 100 == 3.75 in binary) and not '3,7%' (the
    exact binary 0.0375 is a hair below 3.75%).
    """
    if type(value) is float or (isinstance(value, Real) and not isinstance(value, Integral)):
        number = float(value) * scale  # type: ignore[arg-type]
        return Decimal(number) if math.isfinite(number) else None
    if isinstance(value, Integral):
        return Decimal(int(value) * scale)
    if isinstance(value, Decimal):
        return _EXACT.multiply(value, scale) if value.is_finite() else None
    if value is None or _missing(value):
        return None
    raise TypeError(f"not a number: {value!r}")


def _missing(value: object) -> bool:
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):
        return False


@cache
def _style(lang: str, decimals: int, kind: str) -> tuple[NumberPattern, Locale, Decimal]:
    if isinstance(decimals, bool) or not isinstance(decimals, int) or decimals < 0:
        raise ValueError(f"decimals must be a whole number ≥ 0, not {decimals!r}")
    code = LOCALES.get(lang.lower().replace("-", "_").split("_")[0])
    if code is None:
        raise ValueError(f"unknown language {lang!r}; use one of {', '.join(LOCALES)}")
    locale = Locale.parse(code)
    digits = "#,##0" + ("." + "0" * decimals if decimals else "")
    if kind == "percent":
        standard = locale.percent_formats[None].pattern  # '#,##0%' in pt_BR and en_US
        return parse_pattern(standard.replace("#,##0", digits, 1)), locale, _quantum(decimals)
    return parse_pattern(digits), locale, _quantum(decimals)


def _quantum(decimals: int) -> Decimal:
    return Decimal(1).scaleb(-decimals)
