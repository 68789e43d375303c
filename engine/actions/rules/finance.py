"""What an action costs, all of it here: a company's quotes are per t CO2e a year, so
capex = capex/t × the mid reduction, opex likewise, and the cost per tonne annualises the
capex at ``DISCOUNT_RATE`` over the measure's lifetime (capital recovery factor, ``crf``).
The payback is capex over the yearly saving, when there is one.
"""

from __future__ import annotations

from engine.actions.model import Action
from engine.measures.catalogue import Costs

# A real (inflation-free) rate, so yearly opex quoted in today's reais and an investment made
# now compare on one annual basis. 8% a year sits near the real yield of long Brazilian
# Treasury IPCA+ bonds (NTN-B, about 6–7%) plus a small premium: an ordinary company's cost of
# capital in real terms. A company's own WACC changes every cost per tonne, never a reduction.
DISCOUNT_RATE = 0.08


def crf(rate: float, years: int) -> float:
    """Capital recovery factor: the yearly payment that repays 1 over ``years`` at ``rate``,
    r(1+r)^n / ((1+r)^n − 1); 1/n at a zero rate."""
    if years <= 0:
        raise ValueError("the lifetime must be at least one year")
    if rate == 0:
        return 1 / years
    growth = (1 + rate) ** years
    return rate * growth / (growth - 1)


def priced(action: Action, costs: Costs, rate: float = DISCOUNT_RATE) -> Action:
    """The action with a company's quote applied to its mid reduction. An unknown part stays
    None ("cost unknown"): nothing is filled in."""
    mid = action.reduction_mid_tco2e
    capex = None if costs.capex_brl_per_tco2e is None else costs.capex_brl_per_tco2e * mid
    opex = None if costs.opex_brl_per_tco2e is None else costs.opex_brl_per_tco2e * mid
    per_t = None
    if mid > 0 and capex is not None and opex is not None:
        if capex == 0:
            per_t = opex / mid
        elif costs.lifetime_years:
            per_t = (capex * crf(rate, costs.lifetime_years) + opex) / mid
    payback = None
    if capex is not None and opex is not None and opex < 0:
        payback = capex / -opex
    return action.model_copy(
        update={
            "capex_brl": capex,
            "opex_delta_brl_yr": opex,
            "lifetime_years": costs.lifetime_years,
            "cost_per_t_brl": per_t,
            "payback_years": payback,
            "cost_source": costs.cost_source,
        }
    )


def quote_of(action: Action, fallback: Costs) -> Costs:
    """The per-tonne quote an action was priced with, read back from its totals."""
    mid = action.reduction_mid_tco2e
    if mid <= 0 or (action.capex_brl is None and action.opex_delta_brl_yr is None):
        return fallback
    return Costs(
        capex_brl_per_tco2e=None if action.capex_brl is None else action.capex_brl / mid,
        opex_brl_per_tco2e=(
            None if action.opex_delta_brl_yr is None else action.opex_delta_brl_yr / mid
        ),
        lifetime_years=action.lifetime_years,
        cost_source=action.cost_source,
    )
