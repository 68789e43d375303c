"""Numbers as people type them (1.234,56 or 1,234.56) and mass units, to tonnes."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pandas as pd

from engine.protocol import fold

# Units of mass, to tonnes. Matched on the folded header or cell, as whole words. A count word
# before a ton ("million metric tons", "milhões de toneladas", "mil t") scales it: national and
# state workbooks state their unit that way in a title line.
_TON = r"(?:metric )?(?:tons?|tonnes?|toneladas?|t)"
_MASS_UNITS: tuple[tuple[str, float], ...] = (
    (rf"(?:millions?|milhoes|milhao) (?:of |de )?{_TON}|mmt|megatoneladas?|megatonnes?", 1e6),
    (rf"(?:thousands?|milhares) (?:of |de )?{_TON}|mil {_TON}", 1e3),
    (r"kt|gg|quilotoneladas?|kilotonnes?", 1e3),
    (r"t|ton|tons|tonne|tonnes|toneladas?|metric tons?|mt", 1.0),
    (r"kg|quilos?|quilogramas?|kilograms?", 1e-3),
    (r"g|gramas?|grams?", 1e-6),
)
_UNIT_PATTERNS = [
    (re.compile(rf"(?<![a-z0-9])(?:{pattern})(?=$|[^a-z]|co2)"), factor)
    for pattern, factor in _MASS_UNITS
]
_MEGATONNE = re.compile(r"(?<![A-Za-z])Mt(?![a-z])")  # case matters: 'mt' is a metric ton
UNIT_NAMES = {1e6: "Mt", 1e3: "Gg", 1.0: "t", 1e-3: "kg", 1e-6: "g"}  # as a person reads them
UNIT_FACTORS = {name: factor for factor, name in UNIT_NAMES.items()}


def mass_factor(text: object) -> float | None:
    """Tonnes per unit named in a header or a unit cell; None when it names no mass unit."""
    found = mass_unit(text)
    return found[0] if found else None


def mass_unit(text: object) -> tuple[float, str] | None:
    """Tonnes per unit named in ``text`` and the words that name it ('(Gg)', 'million metric
    tons'), for a unit's evidence; None when it names no mass unit."""
    if not isinstance(text, str) or not text.strip():
        return None
    megatonne = _MEGATONNE.search(text)
    if megatonne:
        return 1e6, megatonne.group(0)
    folded = fold(text)
    for pattern, factor in _UNIT_PATTERNS:
        match = pattern.search(folded)
        if match:
            return factor, match.group(0)
    return None


_NUMBER_CHARS = re.compile(r"[^0-9,.\-+()eE]")
_PLAIN_NUMBER = re.compile(r"^[-+]?\d*\.?\d+(?:[eE][-+]?\d+)?$")


def _has_text(column: pd.Series) -> bool:
    kind = pd.api.types.infer_dtype(column, skipna=True)
    return kind not in ("floating", "integer", "mixed-integer-float", "decimal", "empty")


def _number_text(column: pd.Series) -> tuple[pd.Series, pd.Series, pd.Series]:
    """The text cells of a column, cleaned; which were text; which were in parentheses."""
    is_text = pd.Series(  # isinstance at C speed, not a lambda per cell
        np.fromiter(
            map(isinstance, column.to_numpy(dtype=object), itertools.repeat(str)),
            dtype=bool,
            count=len(column),
        ),
        index=column.index,
    )
    text = column[is_text].astype(str).str.strip()
    text = text.str.replace("\u00a0", "", regex=False).str.replace(" ", "", regex=False)
    negative = text.str.match(r"^\(.*\)$")
    text = text.str.replace(_NUMBER_CHARS, "", regex=True).str.strip("()")
    return text, is_text, negative


def decimal_votes(column: pd.Series) -> tuple[int, int]:
    """How many text numbers can only be Brazilian (1.234,5) and only English (1,234.5).

    '1.234' or '12,345' could be either and vote for neither.
    """
    if pd.api.types.is_numeric_dtype(column) or not _has_text(column):
        return 0, 0
    if len(column) <= _SMALL:  # value by value: see _small_to_numbers
        brazilian = english = 0
        seen: dict[str, tuple[bool, bool]] = {}
        for value in column:
            if isinstance(value, str):
                if value not in seen:
                    seen[value] = _votes(_clean_text(value)[0])
                b, e = seen[value]
                brazilian, english = brazilian + b, english + e
        return brazilian, english
    text, _, _ = _number_text(column)
    return _text_votes(text)


def _text_votes(text: pd.Series) -> tuple[int, int]:
    """``decimal_votes`` of a column's cleaned text cells (``_number_text``), once per
    distinct text (pandas' string methods on these fall back to Python per cell anyway)."""
    brazilian = english = 0
    seen: dict[str, tuple[bool, bool]] = {}
    for value in text:
        if value not in seen:
            seen[value] = _votes(value)
        b, e = seen[value]
        brazilian, english = brazilian + b, english + e
    return brazilian, english


def to_numbers(column: pd.Series, *, decimal_comma: bool = True) -> pd.Series:
    """Coerce a column to floats; text that is not a number becomes NaN.

    Text numbers follow the column's own evidence (``decimal_votes``) and, where the column
    has none, ``decimal_comma``: the convention of the table it came from.
    """
    if pd.api.types.is_numeric_dtype(column):
        return column.astype("float64")
    if not _has_text(column):  # numbers in an object column: no text to read
        return _as_floats(column)
    if len(column) <= _SMALL:
        small = _small_to_numbers(column, decimal_comma)
        if small is not None:
            return small
    numeric = pd.to_numeric(column, errors="coerce").astype("float64")
    text, is_text, negative = _number_text(column)
    if text.empty:
        return numeric
    brazilian, english = _text_votes(text)  # decimal_votes, without cleaning the text again
    comma = brazilian > english if brazilian != english else decimal_comma
    if comma:
        text = text.str.replace(".", "", regex=False).str.replace(",", ".", regex=False)
    else:
        text = text.str.replace(",", "", regex=False)
    parsed = pd.to_numeric(text.where(text.str.match(_PLAIN_NUMBER)), errors="coerce")
    parsed = parsed.where(~negative, -parsed)
    result = numeric.copy()
    result[is_text] = parsed.astype("float64")
    return result


_TYPED = frozenset({float, int, type(None)})


def typed_numbers(frame: pd.DataFrame, columns: list[str]) -> np.ndarray | None:
    """The columns as one float array when every cell is a typed number or a blank: what
    ``to_numbers`` gives each of them then (no text, so no convention), in one conversion
    instead of one a column (a national sheet has 31 year columns). None otherwise."""
    if not columns:
        return None
    block = frame[columns]
    if any(dtype != np.dtype(object) for dtype in block.dtypes):
        return None
    cells = block.to_numpy(dtype=object)
    if not set(map(type, cells.ravel())) <= _TYPED:  # text, bools, dates: column by column
        return None
    return np.array(cells, dtype="float64")


def _as_floats(column: pd.Series) -> pd.Series:
    """An object column of numbers and blanks as floats: numpy's conversion, a fifth of
    ``pd.to_numeric``'s time (called thousands of times on a national workbook); anything
    numpy refuses (pd.NA...) goes through pandas."""
    try:
        values = np.array(column.to_numpy(dtype=object), dtype="float64")
    except (TypeError, ValueError):
        return pd.to_numeric(column, errors="coerce").astype("float64")
    return pd.Series(values, index=column.index, name=column.name)


# A column this short is read value by value: pandas' string methods cost milliseconds a call
# whatever the length (thousands of calls for a workbook of small tables), Python microseconds.
_SMALL = 2_000
_NUMBER_CHARS_RE = re.compile(r"[^0-9,.\-+()eE]")
_PLAIN_NUMBER_RE = re.compile(r"^[-+]?\d*\.?\d+(?:[eE][-+]?\d+)?$")
_SINGLE_SEPARATOR = re.compile(r"^[-+]?(\d*)[.,](\d+)$")


def _clean_text(value: str) -> tuple[str, bool]:
    text = value.strip().replace("\u00a0", "").replace(" ", "")
    negative = bool(re.match(r"^\(.*\)$", text))
    return _NUMBER_CHARS_RE.sub("", text).strip("()"), negative


def may_be_number(value: object) -> bool:
    """Whether ``to_numbers`` could read the cell as a number under either convention (a
    blank never; a typed value other than a number is left to it)."""
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return False
    if not isinstance(value, str):
        return True
    text, _ = _clean_text(value)
    comma, point = text.replace(".", "").replace(",", "."), text.replace(",", "")
    return bool(_PLAIN_NUMBER_RE.match(comma) or _PLAIN_NUMBER_RE.match(point))


def _votes(text: str) -> tuple[bool, bool]:
    """``decimal_votes`` for one cleaned text: (only Brazilian, only English)."""
    commas, dots = text.count(","), text.count(".")
    last_comma = text.rfind(",") > text.rfind(".")
    single = _SINGLE_SEPARATOR.match(text)
    decimal_single = bool(single) and (
        len(single.group(2)) != 3 or single.group(1) == "0" or len(single.group(1)) > 3
    )
    brazilian = (
        (commas > 0 and dots > 0 and last_comma)
        or (commas == 1 and dots == 0 and decimal_single)
        or (dots > 1 and commas == 0)
    )
    english = (
        (commas > 0 and dots > 0 and not last_comma)
        or (dots == 1 and commas == 0 and decimal_single)
        or (commas > 1 and dots == 0)
    )
    return brazilian, english


def _small_to_numbers(column: pd.Series, decimal_comma: bool) -> pd.Series | None:
    """``to_numbers`` value by value, the same rules; None for a column holding anything but
    text, numbers and blanks (dates...), which the pandas path reads."""
    cleaned: dict[str, tuple[str, bool]] = {}
    brazilian = english = 0
    for value in column:
        if isinstance(value, str):
            if value not in cleaned:
                cleaned[value] = _clean_text(value)
            b, e = _votes(cleaned[value][0])
            brazilian, english = brazilian + b, english + e
        elif not (value is None or isinstance(value, int | float)) or isinstance(value, bool):
            return None
    comma = brazilian > english if brazilian != english else decimal_comma
    out = np.empty(len(column), dtype="float64")
    for i, value in enumerate(column):
        if isinstance(value, str):
            text, negative = cleaned[value]
            text = text.replace(".", "").replace(",", ".") if comma else text.replace(",", "")
            number = float(text) if _PLAIN_NUMBER_RE.match(text) else np.nan
            out[i] = -number if negative else number
        elif value is None:
            out[i] = np.nan
        else:
            out[i] = float(value)
    return pd.Series(out, index=column.index, name=column.name)


def finite(values: pd.Series) -> pd.Series:
    return values.where(np.isfinite(values))
