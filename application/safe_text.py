"""Untrusted text made safe to show: no images, no links, no URLs, no HTML.

Model-written and uploaded text goes through ``sanitize`` before ``st.markdown`` and before
any export. Paragraphs, headings, lists, **emphasis** and numbers ("1.234,5") are left as
they are. Every pattern is linear: bounded character classes, no nested quantifiers.

Tables go through ``csv_safe_frame`` before ``st.dataframe``, whose toolbar offers a CSV
download: a text cell a spreadsheet would run as a formula gets a leading quote.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

import numpy as np
import pandas as pd
from pandas._libs import lib

# A link target, with at most one level of balanced parentheses (Wikipedia-style URLs).
_TARGET = r"\((?:[^()\n]|\([^()\n]{0,200}\)){0,2000}\)"
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_IMAGE = re.compile(r"!\[[^\[\]\n]{0,1000}\]" + _TARGET)
_INLINE_LINK = re.compile(r"\[([^\[\]\n]{0,1000})\]" + _TARGET)
_REFERENCE_LINK = re.compile(r"\[([^\[\]\n]{0,1000})\]\[[^\]\n]{0,200}\]")
_REFERENCE_DEFINITION = re.compile(r"^[ \t]{0,3}\[[^\]\n]{1,200}\]:[^\n]*$", re.MULTILINE)
_AUTOLINK = re.compile(r"<(?:(?:https?|ftp)://|www\.)[^<>\s]{0,2000}>", re.IGNORECASE)
_PARENTHESIZED_URL = re.compile(
    r"[ \t]?\((?:(?:https?|ftp)://|www\.)[^\s()<>]{0,2000}\)", re.IGNORECASE
)
_URL = re.compile(r"(?:(?:https?|ftp)://|(?<![\w.@/-])www\.)[^\s<>\"'`]{0,2000}", re.IGNORECASE)
_URL_TRAILER = ".,;:!?)]}"
_TAG = re.compile(r"<(/?[A-Za-z!?][^<>\n]{0,2000})>")
_TAG_START = re.compile(r"<(?=[/A-Za-z!?])")
_INNER_SPACES = re.compile(r"(?<=\S)[ \t]{2,}(?=\S)")


def sanitize(text: str) -> str:
    """``text`` without images, links, URLs, raw HTML tags or control characters."""
    if not isinstance(text, str):
        text = "" if text is None else str(text)
    text = _CONTROL.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))
    text = _IMAGE.sub("", text)
    text = _INLINE_LINK.sub(r"\1", text)
    text = _REFERENCE_LINK.sub(r"\1", text)
    text = _REFERENCE_DEFINITION.sub("", text)
    text = _AUTOLINK.sub("", text)
    text = _PARENTHESIZED_URL.sub("", text)
    text = _URL.sub(_keep_trailer, text)
    text = _TAG.sub(r"&lt;\1&gt;", text)
    text = _TAG_START.sub("&lt;", text)
    return _INNER_SPACES.sub(" ", text)


def _keep_trailer(match: re.Match[str]) -> str:
    """A URL goes; the punctuation that ended the sentence after it stays."""
    url = match.group(0)
    return url[len(url.rstrip(_URL_TRAILER)) :]


# What a spreadsheet reads as the start of a formula (OWASP, "CSV Injection"). Tab and CR
# count because some spreadsheets strip them and then see the "=" behind.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
# A signed number written as text ("-3,5", "+12.000,50") is data: no spreadsheet runs it; nor
# a range of two joined by a dash that is no operator ("-13,2 – -5,0", "-2,0–4,5").
_NUMBER = r"[+-]?\d{1,30}(?:[.,\u00a0\u202f ]\d{1,30}){0,10}%?"
_SIGNED_NUMBER = re.compile(rf"{_NUMBER}(?: ?[\u2013\u2014] ?{_NUMBER})?")


def csv_safe(value: Any) -> Any:
    """``value`` with a leading ``'`` if it is text a spreadsheet would run as a formula;
    anything else (numbers, dates, None) as it is."""
    if (
        isinstance(value, str)
        and value.startswith(_FORMULA_START)
        and not _SIGNED_NUMBER.fullmatch(value)
    ):
        return "'" + value
    return value


def csv_safe_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``frame`` whose text cells, column names and index cannot run as formulas
    when the table is downloaded and opened in a spreadsheet. Numeric, boolean and date
    columns are kept with their types."""
    safe = frame.copy()
    for position in range(safe.shape[1]):
        column = safe.iloc[:, position]
        if _is_text(column):
            safe.isetitem(position, _csv_safe_column(column))
    safe.columns = _safe_labels(safe.columns)
    safe.index = _safe_labels(safe.index)
    return safe


def _csv_safe_column(column: pd.Series) -> pd.Series:
    """``column.astype(object).map(csv_safe)``, deciding once per distinct text (a table of
    100,000 rows repeats its labels; only text can change)."""
    cells = column.astype(object).to_numpy(dtype=object)
    is_text = np.fromiter(
        map(isinstance, cells, itertools.repeat(str)), dtype=bool, count=len(cells)
    )
    safe = cells.copy()
    if is_text.any():
        codes, distinct = pd.factorize(cells[is_text])
        safe[is_text] = np.array([csv_safe(text) for text in distinct], dtype=object)[codes]
    # The dtype ``Series.map`` gives its result (``lib.map_infer`` converts the objects the
    # same way): str for text only, int64 for integers only, object otherwise.
    return pd.Series(lib.maybe_convert_objects(safe), index=column.index, name=column.name)


def _is_text(column: pd.Series) -> bool:
    return not (
        pd.api.types.is_numeric_dtype(column)
        or pd.api.types.is_bool_dtype(column)
        or pd.api.types.is_datetime64_any_dtype(column)
        or pd.api.types.is_timedelta64_dtype(column)
    )


def _safe_labels(labels: pd.Index) -> pd.Index:
    if isinstance(labels, pd.MultiIndex) or not _is_text(labels.to_series()):
        return labels
    return pd.Index([csv_safe(label) for label in labels], name=csv_safe(labels.name))
