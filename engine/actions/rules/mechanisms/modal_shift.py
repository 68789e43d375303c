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
from engine.actions.rules.text import short_names, span, tonnes, tonnes_range
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
    kpi = {
        "pt": f"{source['pt']}: t·km transferidas para ferrovia ou cabotagem (% das t·km "
        "rodoviárias)",
        "en": f"{source['en']}: t·km moved to rail or coastal shipping (% of road t·km)",
    }
    shares = span((low_share, high_share), "pt"), span((low_share, high_share), "en")
    if scope == 3:
        basis = {
            "pt": f"Frete rodoviário contratado (escopo 3, categoria 4): t CO2e das linhas "
            f"({tonnes(baseline, 'pt')}) × parcela transferida {shares[0]} × {measure.span('pt')} "
            f"a menos por t·km = {tonnes_range(low, high, 'pt')} t CO2e/ano, dentro da mesma "
            f"categoria ({measure.basis['pt'].rstrip('.')}).",
            "en": f"Road freight bought (Scope 3, category 4): the rows' t CO2e "
            f"({tonnes(baseline, 'en')}) × share shifted {shares[1]} × {measure.span('en')} less "
            f"per t·km = {tonnes_range(low, high, 'en')} t CO2e/yr, within the same category "
            f"({measure.basis['en'].rstrip('.')}).",
        }
        return Cut(share=(low_share, high_share), rows=counted, baseline=baseline, low=low,
                   high=high, basis=basis, kpi=kpi)  # fmt: skip
    carrier_low, carrier_high = gross_low - low, gross_high - high
    carrier = (
        f"{number(100 - measure.reduction_max_pct, 0, 'pt')}–"
        f"{number(100 - measure.reduction_min_pct, 0, 'pt')}%"
    )
    basis = {
        "pt": f"Caminhões próprios (escopo 1): t CO2e das linhas ({tonnes(baseline, 'pt')}) × "
        f"parcela transferida {shares[0]} = {tonnes_range(gross_low, gross_high, 'pt')} t CO2e a "
        "menos no escopo 1; a transportadora (ferrovia ou cabotagem) emite, pelas mesmas "
        f"t·km, {carrier} do caminhão ({measure.span('pt')} a menos por t·km): "
        f"{tonnes_range(carrier_low, carrier_high, 'pt')} t CO2e a mais no escopo 3, categoria 4 "
        f"(transporte a montante). Efeito líquido: {tonnes_range(low, high, 'pt')} t CO2e/ano "
        f"({measure.basis['pt'].rstrip('.')}). Logística interna (pátio, empilhadeiras, pás "
        "carregadeiras) não muda de modal e fica fora.",
        "en": f"Own trucks (Scope 1): the rows' t CO2e ({tonnes(baseline, 'en')}) × share shifted "
        f"{shares[1]} = {tonnes_range(gross_low, gross_high, 'en')} t CO2e less in Scope 1; the "
        f"carrier (rail or coastal shipping) emits, for the same t·km, {carrier} of the "
        f"truck's ({measure.span('en')} less per t·km): "
        f"{tonnes_range(carrier_low, carrier_high, 'en')} t CO2e more in Scope 3, category 4 "
        f"(upstream transportation). Net effect: {tonnes_range(low, high, 'en')} t CO2e/yr "
        f"({measure.basis['en'].rstrip('.')}). Internal logistics (yard trucks, forklifts, "
        "loaders) cannot shift mode and is left out.",
    }
    return Cut(
        share=(low_share, high_share),
        rows=counted,
        baseline=baseline,
        low=low,
        high=high,
        basis=basis,
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
