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
from engine.actions.rules.text import span, tonnes, tonnes_range
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
        origin = {
            "pt": f"Escopo 2 por mercado, como relatado ({tonnes(baseline, 'pt')} t CO2e)",
            "en": f"Market-based Scope 2, as reported ({tonnes(baseline, 'en')} t CO2e)",
        }
    else:
        origin = {
            "pt": f"Sem escopo 2 por mercado no inventário, a linha de base por mercado é o "
            f"número por localização ({tonnes(baseline, 'pt')} t CO2e): sem instrumentos "
            "contratuais, a escolha de compra do Programa Brasileiro GHG Protocol é a média "
            "do SIN",
            "en": f"With no market-based Scope 2 in the inventory, the market-based baseline "
            f"is the location-based figure ({tonnes(baseline, 'en')} t CO2e): with no contractual "
            "instruments, the Brazilian GHG Protocol Program's purchase-choice figure is the "
            "SIN average",
        }
    basis = {
        "pt": f"{origin['pt']} × consumo coberto {span((low_share, high_share), 'pt')} × "
        f"{measure.span('pt')} = {tonnes_range(low, high, 'pt')} t CO2e/ano, só no escopo 2 "
        "por mercado. O escopo 2 por localização não muda (0): os dois métodos nunca se "
        "somam (GHG Protocol Scope 2 Guidance, 2015).",
        "en": f"{origin['en']} × consumption covered {span((low_share, high_share), 'en')} × "
        f"{measure.span('en')} = {tonnes_range(low, high, 'en')} t CO2e/yr, in market-based "
        "Scope 2 only. Location-based Scope 2 does not change (0): the two methods are never "
        "summed (GHG Protocol Scope 2 Guidance, 2015).",
    }
    kpi = {
        "pt": "MWh cobertos por contrato ou certificados com atributos ambientais "
        "(% do consumo da rede)",
        "en": "MWh covered by contracts or certificates with environmental attributes "
        "(% of grid consumption)",
    }
    return Cut(
        share=(low_share, high_share),
        rows=chosen,
        baseline=baseline,
        low=low,
        high=high,
        basis=basis,
        kpi=kpi,
        refs_tco2e=figures,
        scope2_method="market",
    )
