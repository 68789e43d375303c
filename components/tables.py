"""Tables whose numbers stay numbers: a column of t CO2e sorts as numbers, and reads 1.234,5
in Portuguese and 1,234.5 in English (``st.column_config.NumberColumn`` formats only in
the browser's locale, or in English)."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd
from pandas.io.formats.style import Styler

from components.i18n import number


def numeric(values: object) -> pd.Series:
    """Numbers (None as missing), never text: what a table column of amounts holds."""
    return pd.to_numeric(pd.Series(values, dtype=object), errors="coerce").astype(float)


def localized(frame: pd.DataFrame, decimals: Mapping[str, int]) -> Styler:
    """``frame`` with the numeric ``decimals`` columns shown in the interface language's
    notation (a missing value as '—'); the cells keep their numbers, so sorting is numeric."""
    formats = {
        column: (lambda value, places=places: number(value, places))
        for column, places in decimals.items()
        if column in frame.columns
    }
    return frame.style.format(formats)
