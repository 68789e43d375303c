"""sf6_free: all of the SF6 leak × the share replaced (SF6-free equipment emits no
fluorinated greenhouse gas).
"""

from __future__ import annotations

import pandas as pd

from engine.actions.rules.cut import Cut, share_range
from engine.actions.rules.rows import as_text, column, in_totals, numbers
from engine.actions.rules.text import in_both, span, tonnes, tonnes_range
from engine.actions.rules.texts import RULE_TEXTS, as_dict
from engine.inventory import Inventory
from engine.inventory import fields as F
from engine.measures.catalogue import Alternative


def sf6_free(
    measure: Alternative, inventory: Inventory, rows: pd.DataFrame, *, share: float | None = None
) -> Cut | None:
    counted = in_totals(rows)
    counted = counted[[as_text(g).upper() == "SF6" for g in column(counted, F.GAS)]]
    if counted.empty:
        return None
    low_share, high_share = share_range(measure, share)
    baseline = float(numbers(counted, F.EMISSIONS_TCO2E).sum())
    basis = RULE_TEXTS.both(
        "sf6.basis",
        baseline=in_both(tonnes, baseline),
        share=in_both(span, (low_share, high_share)),
        cut=in_both(tonnes_range, baseline * low_share, baseline * high_share),
    )
    kpi = RULE_TEXTS.both("sf6.kpi")
    return Cut(
        share=(low_share, high_share),
        rows=counted,
        baseline=baseline,
        low=baseline * low_share,
        high=baseline * high_share,
        basis=as_dict(basis),
        kpi=as_dict(kpi),
    )
