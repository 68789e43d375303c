"""modal_shift: freight moved from road to rail or water on the long legs.

Own trucks (Scope 1): their emissions fall by the rows' t CO2e × the share shifted, and the
carrier's enter Scope 3 category 4 (GHG Protocol Scope 3 Standard: transport a company buys).
With no tonne-km in the inventory, the carrier's emissions are the shifted road emissions ×
(1 − the catalogue's per tonne-km saving): 40–75% less per t·km than the diesel truck is
25–60% of it (IEA, The Future of Rail, 2019). The action's reduction is the net cut; the Scope
1 fall and the Scope 3 rise are both kept on it. Outsourced road freight (already Scope 3
category 4): the rows × the share × the per tonne-km saving, within that category. Internal
logistics (yard trucks, loaders, forklifts: ``INTERNAL_LOGISTICS``) is left out: it has no
road leg to shift.
"""

from __future__ import annotations

import pandas as pd

from engine.actions.rules.cut import Cut, share_range
from engine.actions.rules.rows import (
    as_text,
    column,
    combustion_in_totals,
    has_scope,
    main_scope,
    numbers,
)
from engine.actions.rules.text import in_both, of, short_names, span, tonnes, tonnes_range
from engine.actions.rules.texts import RULE_TEXTS, as_dict
from engine.formatting import number
from engine.inventory import Inventory
from engine.inventory import fields as F
from engine.measures.catalogue import Alternative, names_any

# Equipment that moves goods inside a site: it has no road leg to move to rail or water, so no
# modal shift acts on it (its fuel stays open to a fuel switch, electrification or efficiency).
INTERNAL_LOGISTICS = (
    "logistica interna", "intralogistica", "movimentacao interna", "transporte interno",
    "frota interna", "uso interno", "patio", "patios", "empilhadeira", "empilhadeiras",
    "pa carregadeira", "pas carregadeiras", "carregadeira", "carregadeiras",
    "retroescavadeira", "trator de patio", "internal logistics", "intralogistics",
    "internal transport", "in-plant", "yard", "yard truck", "yard trucks", "yard tractor",
    "terminal tractor", "forklift", "forklifts", "loader", "loaders", "reach stacker",
)  # fmt: skip
UPSTREAM_TRANSPORT = 4  # Scope 3 category 4, upstream transportation and distribution


def is_internal_logistics(rows: pd.DataFrame) -> pd.Series:
    """Whether each row names equipment that moves goods inside a site (a yard truck, a
    loader, a forklift, "caminhões de logística interna"), by its source and category."""
    found = [
        names_any(f"{as_text(source)} | {as_text(category)}", INTERNAL_LOGISTICS)
        for source, category in zip(column(rows, F.SOURCE), column(rows, F.CATEGORY), strict=True)
    ]
    return pd.Series(found, index=rows.index, dtype=bool)


def modal_shift(
    measure: Alternative, inventory: Inventory, rows: pd.DataFrame, *, share: float | None = None
) -> Cut | None:
    """Freight moved from road to rail or water on the long legs, by the rule above."""
    counted = combustion_in_totals(rows)
    counted = counted[~is_internal_logistics(counted)]
    scope = _rows_scope(counted, measure)
    if counted.empty or scope not in (1, 3):
        return None
    low_share, high_share = share_range(measure, share)
    low_pct, high_pct = measure.reduction_min_pct / 100, measure.reduction_max_pct / 100
    baseline = float(numbers(counted, F.EMISSIONS_TCO2E).sum())
    gross_low, gross_high = baseline * low_share, baseline * high_share
    low, high = gross_low * low_pct, gross_high * high_pct
    source = short_names(measure.source)
    kpi = as_dict(RULE_TEXTS.both("modal.kpi", source=of(source)))
    share_text = in_both(span, (low_share, high_share))
    measure_basis = of(measure.basis).map(lambda text: text.rstrip("."))
    if scope == 3:
        basis = RULE_TEXTS.both(
            "modal.scope3",
            baseline=in_both(tonnes, baseline),
            share=share_text,
            measure_span=in_both(measure.span),
            cut=in_both(tonnes_range, low, high),
            measure_basis=measure_basis,
        )
        return Cut(share=(low_share, high_share), rows=counted, baseline=baseline, low=low,
                   high=high, basis=as_dict(basis), kpi=kpi)  # fmt: skip
    carrier_low, carrier_high = gross_low - low, gross_high - high
    carrier = (
        f"{number(100 - measure.reduction_max_pct, 0, 'pt')}–"
        f"{number(100 - measure.reduction_min_pct, 0, 'pt')}%"
    )
    basis = RULE_TEXTS.both(
        "modal.scope1",
        baseline=in_both(tonnes, baseline),
        share=share_text,
        gross=in_both(tonnes_range, gross_low, gross_high),
        carrier=carrier,
        measure_span=in_both(measure.span),
        carrier_t=in_both(tonnes_range, carrier_low, carrier_high),
        cut=in_both(tonnes_range, low, high),
        measure_basis=measure_basis,
    )
    return Cut(
        share=(low_share, high_share),
        rows=counted,
        baseline=baseline,
        low=low,
        high=high,
        basis=as_dict(basis),
        kpi=kpi,
        scope3_low=carrier_low,
        scope3_high=carrier_high,
        scope3_category=UPSTREAM_TRANSPORT,
    )


def _rows_scope(rows: pd.DataFrame, measure: Alternative) -> int:
    """The rows' scope, or the measure's single scope when the inventory gives them none
    (as the planner reads them)."""
    if not has_scope(rows) and len(measure.scopes) == 1:
        return measure.scopes[0]
    return main_scope(rows)
