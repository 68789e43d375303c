"""efficiency, activity_cut: the rows' t CO2e × the catalogue's % × the share reached.

Location-based Scope 2 when the rows are Scope 2: a market-based row is a memo, never cut
here, and the two methods are never summed.
"""

from __future__ import annotations

import pandas as pd

from engine.actions.rules.cut import Cut, share_range
from engine.actions.rules.rows import (
    combustion_in_totals,
    location_based,
    main_scope,
    main_unit,
    numbers,
    year_of,
)
from engine.actions.rules.text import in_both, of, short_names, span, tonnes, tonnes_range
from engine.actions.rules.texts import RULE_TEXTS, as_dict
from engine.inventory import Inventory
from engine.inventory import fields as F
from engine.measures.catalogue import Alternative


def _share_of_rows(
    measure: Alternative,
    inventory: Inventory,
    rows: pd.DataFrame,
    *,
    share: float | None,
    avoided: bool,
) -> Cut | None:
    """efficiency and activity_cut: the rows' t CO2e × the catalogue's % × the share."""
    counted = location_based(combustion_in_totals(rows))
    if counted.empty:
        return None
    low_share, high_share = share_range(measure, share)
    baseline = float(numbers(counted, F.EMISSIONS_TCO2E).sum())
    low = baseline * measure.reduction_min_pct / 100 * low_share
    high = baseline * measure.reduction_max_pct / 100 * high_share
    scope = main_scope(counted)
    source = short_names(measure.source)
    year = year_of(inventory)
    unit = main_unit(counted)
    rule = RULE_TEXTS.both(
        "efficiency.basis",
        baseline=in_both(tonnes, baseline),
        measure_span=in_both(measure.span),
        share=in_both(span, (low_share, high_share)),
        cut=in_both(tonnes_range, low, high),
        measure_basis=of(measure.basis).map(lambda text: text.rstrip(".")),
    )
    if scope == 2:
        rule += RULE_TEXTS.both("efficiency.location")
    unit_text = f", {unit}" if unit else ""
    kpi_key = "efficiency.kpi_avoided" if avoided else "efficiency.kpi"
    kpi = RULE_TEXTS.both(kpi_key, source=of(source), year=year, unit=unit_text)
    return Cut(
        share=(low_share, high_share),
        rows=counted,
        baseline=baseline,
        low=low,
        high=high,
        basis=as_dict(rule),
        kpi=as_dict(kpi),
        scope2_method="location" if scope == 2 else None,
    )


def efficiency(
    measure: Alternative, inventory: Inventory, rows: pd.DataFrame, *, share: float | None = None
) -> Cut | None:
    return _share_of_rows(measure, inventory, rows, share=share, avoided=False)


def activity_cut(
    measure: Alternative, inventory: Inventory, rows: pd.DataFrame, *, share: float | None = None
) -> Cut | None:
    return _share_of_rows(measure, inventory, rows, share=share, avoided=True)
