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
from engine.actions.rules.text import short_names, span, tonnes, tonnes_range
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
    basis = {}
    for lang in ("pt", "en"):
        pt = lang == "pt"
        rule = (
            f"t CO2e das linhas ({tonnes(baseline, lang)}) × {measure.span(lang)} × parcela "
            f"alcançada {span((low_share, high_share), lang)} = "
            f"{tonnes_range(low, high, lang)} t CO2e/ano ({measure.basis[lang].rstrip('.')})."
            if pt
            else f"The rows' t CO2e ({tonnes(baseline, lang)}) × {measure.span(lang)} × share "
            f"reached {span((low_share, high_share), lang)} = "
            f"{tonnes_range(low, high, lang)} t CO2e/yr ({measure.basis[lang].rstrip('.')})."
        )
        if scope == 2:
            rule += (
                " Escopo 2 por localização; o número por mercado também cai, mas não é "
                "somado aqui: os dois métodos nunca se somam."
                if pt
                else " Location-based Scope 2; the market-based figure falls too, but is "
                "not added here: the two methods are never summed."
            )
        basis[lang] = rule
    unit_text = f", {unit}" if unit else ""
    if avoided:
        kpi = {
            "pt": f"{source['pt']}: atividade evitada frente a {year} (%{unit_text})",
            "en": f"{source['en']}: activity avoided against {year} (%{unit_text})",
        }
    else:
        kpi = {
            "pt": f"{source['pt']}: consumo ou emissão por unidade produzida frente a {year} "
            f"(%{unit_text})",
            "en": f"{source['en']}: use or emissions per unit of output against {year} "
            f"(%{unit_text})",
        }
    return Cut(
        share=(low_share, high_share),
        rows=counted,
        baseline=baseline,
        low=low,
        high=high,
        basis=basis,
        kpi=kpi,
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
