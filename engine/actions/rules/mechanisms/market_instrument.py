"""market_instrument: market-based Scope 2 only (GHG Protocol Scope 2 Guidance, 2015);
location-based is 0.

With no market-based figure in the inventory, the baseline is the location-based figure: with
no contractual instruments, the Brazilian GHG Protocol Program's purchase-choice figure is the
SIN average.
"""

from __future__ import annotations

import pandas as pd

from engine.actions.rules.cut import Cut, share_range
from engine.actions.rules.rows import column, in_totals, location_based, numbers
from engine.actions.rules.text import in_both, span, tonnes, tonnes_range
from engine.actions.rules.texts import RULE_TEXTS, as_dict
from engine.inventory import Inventory
from engine.inventory import fields as F
from engine.measures.catalogue import Alternative


def market_instrument(
    measure: Alternative, inventory: Inventory, rows: pd.DataFrame, *, share: float | None = None
) -> Cut | None:
    scope2 = rows[column(rows, F.SCOPE).astype(str) == "2"]
    market = scope2[column(scope2, F.REPORTING) == F.SCOPE2_MARKET]
    reported = inventory.scope2_market_tco2e is not None
    if not market.empty:
        chosen = market[numbers(market, F.MEMO_TCO2E) > 0]
        figures = numbers(chosen, F.MEMO_TCO2E)
    elif not reported:
        # No market-based figure: with no contractual instruments, the Brazilian program's
        # purchase-choice figure is the grid average, i.e. the location-based figure.
        chosen = location_based(in_totals(scope2))
        figures = numbers(chosen, F.EMISSIONS_TCO2E)
    else:
        return None  # market-based is reported, but not on these rows
    if chosen.empty:
        return None
    low_share, high_share = share_range(measure, share)
    baseline = float(figures.sum())
    low = baseline * low_share * measure.reduction_min_pct / 100
    high = baseline * high_share * measure.reduction_max_pct / 100
    if reported:
        origin = RULE_TEXTS.both("market.reported", baseline=in_both(tonnes, baseline))
    else:
        origin = RULE_TEXTS.both("market.not_reported", baseline=in_both(tonnes, baseline))
    basis = RULE_TEXTS.both(
        "market.basis",
        origin=origin,
        share=in_both(span, (low_share, high_share)),
        measure_span=in_both(measure.span),
        cut=in_both(tonnes_range, low, high),
    )
    kpi = RULE_TEXTS.both("market.kpi")
    return Cut(
        share=(low_share, high_share),
        rows=chosen,
        baseline=baseline,
        low=low,
        high=high,
        basis=as_dict(basis),
        kpi=as_dict(kpi),
        refs_tco2e=figures,
        scope2_method="market",
    )
