"""refrigerant: the leak × (1 − GWP new / GWP old) × the share converted.

Only what is in the totals: a Montreal gas (R-22) is a memo item, so no action credits it,
and a blend's Montreal components (the HCFC-22 in R-408A) are left out of its GWP.
"""

from __future__ import annotations

import pandas as pd

from engine.actions.rules.cut import Cut, share_range
from engine.actions.rules.errors import RuleError
from engine.actions.rules.rows import column, in_totals, is_combustion_gas, numbers
from engine.actions.rules.text import in_both, span, tonnes, tonnes_range
from engine.actions.rules.texts import RULE_TEXTS, as_dict
from engine.formatting import number
from engine.gases.gwp import gwp, is_montreal, split_blend
from engine.inventory import Inventory
from engine.inventory import fields as F
from engine.measures.catalogue import Alternative
from engine.measures.refrigerants import gwp_source, refrigerant_name, substitute_gwp


def in_scope_gwp(gas: str, gwp_set: str) -> float | None:
    """The GWP of the part of a gas the totals count: a blend's Montreal components (the
    HCFC-22 in R-408A) are a memo item, so they are left out."""
    parts = [(part, share) for part, share in split_blend(gas) if not is_montreal(part)]
    values = [(gwp(part, gwp_set), share) for part, share in parts]
    if not values or any(value is None for value, _ in values):
        return None
    return sum(value * share for value, share in values if value is not None)


def refrigerant(
    measure: Alternative, inventory: Inventory, rows: pd.DataFrame, *, share: float | None = None
) -> Cut | None:
    gwp_set = str(inventory.gwp_set)
    new_gwp = substitute_gwp(measure.substitute, gwp_set)
    if new_gwp is None:
        raise RuleError(RULE_TEXTS.both("no_gwp", gas=measure.substitute, gwp_set=gwp_set))
    counted = in_totals(rows)
    counted = counted[[not is_combustion_gas(g) for g in column(counted, F.GAS)]]
    ratios = []
    for gas in column(counted, F.GAS):
        old = in_scope_gwp(str(gas), gwp_set)
        ratios.append(max(0.0, 1 - new_gwp / old) if old else 0.0)
    ratio = pd.Series(ratios, index=counted.index, dtype=float)
    counted, ratio = counted[ratio > 0], ratio[ratio > 0]
    if counted.empty:
        return None
    low_share, high_share = share_range(measure, share)
    tco2e = numbers(counted, F.EMISSIONS_TCO2E)
    baseline = float(tco2e.sum())
    cut = float((tco2e * ratio).sum())
    new = refrigerant_name(measure.substitute) or measure.substitute
    olds = sorted({str(g) for g in column(counted, F.GAS)})
    old_gwps = in_both(
        lambda lang: ", ".join(
            f"{g} {number(in_scope_gwp(g, gwp_set) or 0, 0, lang)}" for g in olds
        )
    )
    source = gwp_source(measure.substitute)
    source_text = f"; {source}" if source else ""
    basis = RULE_TEXTS.both(
        "refrigerant.basis",
        baseline=in_both(tonnes, baseline),
        gwp_set=gwp_set,
        new=new,
        new_gwp=in_both(number, new_gwp, 2),
        old_gwps=old_gwps,
        share=in_both(span, (low_share, high_share)),
        cut=in_both(tonnes_range, cut * low_share, cut * high_share),
        source=source_text,
    )
    kpi = RULE_TEXTS.both("refrigerant.kpi", olds=", ".join(olds), new=new)
    return Cut(
        share=(low_share, high_share),
        rows=counted,
        baseline=baseline,
        low=cut * low_share,
        high=cut * high_share,
        basis=as_dict(basis),
        kpi=as_dict(kpi),
    )
