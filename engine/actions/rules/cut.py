"""What a rule finds on its rows (``Cut``), before it becomes an ``Action``, and the share of
the activity it is computed at.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from engine.actions.rules.errors import RuleError
from engine.actions.rules.texts import RULE_TEXTS
from engine.formatting import number
from engine.measures.catalogue import Alternative
from engine.texts import Both

Share = tuple[float, float]  # the low and the high share of the activity, as fractions


def share_range(measure: Alternative, share: float | None) -> Share:
    """The measure's range of the activity it reaches, or the one share a what-if chose."""
    if share is None:
        return measure.applied_min_pct / 100, measure.applied_max_pct / 100
    if not 0 <= share <= 1 or math.isnan(share):
        shown = Both(number(share * 100, 1), number(share * 100, 1, "en"))
        raise RuleError(RULE_TEXTS.both("share_out_of_range", share=shown))
    return share, share


@dataclass(frozen=True)
class Cut:
    """What a rule found, before it becomes an Action."""

    rows: pd.DataFrame  # the rows it acts on
    baseline: float
    low: float
    high: float
    basis: dict[str, str]
    kpi: dict[str, str]
    refs_tco2e: pd.Series | None = None  # the figure each row shows, when not t CO2e
    scope2_method: str | None = None
    biogenic: float = 0.0
    grid_low: float = 0.0
    grid_high: float = 0.0
    scope3_low: float = 0.0  # the carrier's emissions a modal shift adds to Scope 3
    scope3_high: float = 0.0
    scope3_category: int | None = None
    share: Share = (1.0, 1.0)
