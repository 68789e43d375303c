"""Column helpers the whole ingestion shares."""

from __future__ import annotations

import numpy as np
import pandas as pd

# From this many rows the results are inferred once, over the distinct ones, and the rows
# taken from them: building a str column from 100,000 Python strings cost 10 ms a call. On
# shorter columns the take's own overhead costs more (a national workbook: 400 calls on
# 1,350 rows each).
TAKE_FROM = 10_000


def map_unique(values: pd.Series, func) -> pd.Series:
    """``values.map(func)``, calling ``func`` once per distinct value: inventories repeat.

    The dtype is what pandas infers from the results (str for text); a missing value stays
    missing.
    """
    codes, distinct = pd.factorize(values, use_na_sentinel=True)
    if len(values) < TAKE_FROM:
        mapped = np.empty(len(distinct) + 1, dtype=object)
        mapped[:-1] = [func(value) for value in distinct]
        mapped[-1] = None  # code -1
        return pd.Series(mapped[codes], index=values.index, name=values.name)
    missing = bool((codes < 0).any())
    mapped = np.empty(len(distinct) + missing, dtype=object)
    mapped[: len(distinct)] = [func(value) for value in distinct]
    if missing:  # None among the results only when a row holds it: it can change the dtype
        mapped[-1] = None
        codes = np.where(codes < 0, len(distinct), codes)
    result = pd.Series(mapped).take(codes).set_axis(values.index)
    result.name = values.name
    return result
