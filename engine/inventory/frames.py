"""Column helpers the whole ingestion shares."""

from __future__ import annotations

import numpy as np
import pandas as pd


def map_unique(values: pd.Series, func) -> pd.Series:
    """``values.map(func)``, calling ``func`` once per distinct value: inventories repeat.

    The result is of object dtype; a missing value stays missing.
    """
    codes, distinct = pd.factorize(values, use_na_sentinel=True)
    mapped = np.empty(len(distinct) + 1, dtype=object)
    mapped[:-1] = [func(value) for value in distinct]
    mapped[-1] = None  # code -1
    return pd.Series(mapped[codes], index=values.index, name=values.name)
