"""sf6_free: all of the SF6 leak × the share replaced (SF6-free equipment emits no
fluorinated greenhouse gas).
"""

from __future__ import annotations

import pandas as pd

from engine.actions.rules.cut import Cut, share_range
from engine.actions.rules.rows import as_text, column, in_totals, numbers
from engine.actions.rules.text import span, tonnes, tonnes_range
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
    basis = {
        "pt": f"Todo o SF6 vazado pelos equipamentos substituídos: {tonnes(baseline, 'pt')} t CO2e "
        f"× parcela substituída {span((low_share, high_share), 'pt')} = "
        f"{tonnes_range(baseline * low_share, baseline * high_share, 'pt')} t CO2e/ano "
        "(equipamento livre de SF6 não emite gás de efeito estufa fluorado).",
        "en": f"All of the SF6 leaked by the equipment replaced: {tonnes(baseline, 'en')} t CO2e "
        f"× share replaced {span((low_share, high_share), 'en')} = "
        f"{tonnes_range(baseline * low_share, baseline * high_share, 'en')} t CO2e/yr "
        "(SF6-free equipment emits no fluorinated greenhouse gas).",
    }
    kpi = {
        "pt": "kg de SF6 recarregados por ano e nº de disjuntores/painéis livres de SF6",
        "en": "kg of SF6 recharged a year and number of SF6-free breakers/switchgear",
    }
    return Cut(
        share=(low_share, high_share),
        rows=counted,
        baseline=baseline,
        low=baseline * low_share,
        high=baseline * high_share,
        basis=basis,
        kpi=kpi,
    )
