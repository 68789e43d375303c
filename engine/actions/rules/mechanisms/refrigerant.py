"""refrigerant: the leak × (1 − GWP new / GWP old) × the share converted.

Only what is in the totals: a Montreal gas (R-22) is a memo item, so no action credits it,
and a blend's Montreal components (the HCFC-22 in R-408A) are left out of its GWP.
"""

from __future__ import annotations

import pandas as pd

from engine.actions.rules.cut import Cut, share_range
from engine.actions.rules.errors import RuleError
from engine.actions.rules.rows import column, in_totals, is_combustion_gas, numbers
from engine.actions.rules.text import span, tonnes, tonnes_range
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
        raise RuleError(
            f"O gás '{measure.substitute}' não tem GWP {gwp_set} conhecido.",
            f"The gas '{measure.substitute}' has no known {gwp_set} GWP.",
        )
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
    old_gwps = ", ".join(f"{g} {number(in_scope_gwp(g, gwp_set) or 0, 0, 'pt')}" for g in olds)
    old_gwps_en = ", ".join(f"{g} {number(in_scope_gwp(g, gwp_set) or 0, 0, 'en')}" for g in olds)
    source = gwp_source(measure.substitute)
    source_text = f"; {source}" if source else ""
    basis = {
        "pt": f"Emissão fugitiva das linhas ({tonnes(baseline, 'pt')} t CO2e) × (1 − GWP {gwp_set} "
        f"de {new} {number(new_gwp, 2, 'pt')} ÷ {old_gwps}) × parcela convertida "
        f"{span((low_share, high_share), 'pt')} = "
        f"{tonnes_range(cut * low_share, cut * high_share, 'pt')} t CO2e/ano. Só o que está nos "
        "totais: gases do "
        f"Protocolo de Montreal (R-22) ficam fora dos escopos e não são creditados (IPCC "
        f"{gwp_set}{source_text}).",
        "en": f"The rows' fugitive emissions ({tonnes(baseline, 'en')} t CO2e) × (1 − {gwp_set} "
        f"GWP of {new} {number(new_gwp, 2, 'en')} ÷ {old_gwps_en}) × share converted "
        f"{span((low_share, high_share), 'en')} = "
        f"{tonnes_range(cut * low_share, cut * high_share, 'en')} t CO2e/yr. Only what is in the "
        "totals: Montreal "
        f"Protocol gases (R-22) stay outside the scopes and are not credited (IPCC "
        f"{gwp_set}{source_text}).",
    }
    kpi = {
        "pt": f"kg de {', '.join(olds)} recarregados por ano e % dos equipamentos convertidos "
        f"para {new}",
        "en": f"kg of {', '.join(olds)} recharged a year and % of the equipment converted to {new}",
    }
    return Cut(
        share=(low_share, high_share),
        rows=counted,
        baseline=baseline,
        low=cut * low_share,
        high=cut * high_share,
        basis=basis,
        kpi=kpi,
    )
