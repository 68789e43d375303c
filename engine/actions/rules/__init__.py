"""What a measure cuts on the inventory rows it acts on, by GHG Protocol rules: one rule per
mechanism, each turning a catalogue row and the rows it matches into an ``Action``.

The figures come from the inventory and the factor library, never from a model. Each rule is
stated in its own module's docstring, under ``mechanisms``: ``fuel_switch``, ``efficiency``
(with activity_cut), ``modal_shift``, ``refrigerant``, ``sf6_free``, ``market_instrument``
and ``electrification``. Around them:

- ``rows``: the inventory rows an action acts on, named by a key stable across loads of a
  file, and which of them the totals count;
- ``fuels``: the energy a source burnt, read back from its CO2, fossil and biogenic apart;
- ``cut`` and ``text``: what a rule finds, and its figures in the bilingual bases and KPIs;
- ``finance``: every cost of an action (capex, opex, the cost per tonne annualised at
  ``DISCOUNT_RATE``, the payback);
- ``action``: ``compute`` (a measure on its rows) and ``recompute`` (the same action in a
  what-if, through the same rule).
"""

from __future__ import annotations

from engine.actions.rules.action import compute, recompute
from engine.actions.rules.cut import Share
from engine.actions.rules.errors import RuleError
from engine.actions.rules.finance import DISCOUNT_RATE, crf, priced
from engine.actions.rules.mechanisms import RULES, Rule
from engine.actions.rules.mechanisms.efficiency import activity_cut, efficiency
from engine.actions.rules.mechanisms.electrification import (
    MWH_PER_TJ,
    GridFactor,
    electrification,
    grid_factor,
)
from engine.actions.rules.mechanisms.fuel_switch import SOLID_BIOMASS, fuel_switch
from engine.actions.rules.mechanisms.market_instrument import market_instrument
from engine.actions.rules.mechanisms.modal_shift import (
    INTERNAL_LOGISTICS,
    UPSTREAM_TRANSPORT,
    is_internal_logistics,
    modal_shift,
)
from engine.actions.rules.mechanisms.refrigerant import in_scope_gwp, refrigerant
from engine.actions.rules.mechanisms.sf6_free import sf6_free
from engine.actions.rules.rows import (
    COMBUSTION_GASES,
    in_totals,
    is_combustion_gas,
    ref_key,
    row_key,
    row_keys,
    rows_of,
)

__all__ = [
    "COMBUSTION_GASES",
    "DISCOUNT_RATE",
    "INTERNAL_LOGISTICS",
    "MWH_PER_TJ",
    "RULES",
    "SOLID_BIOMASS",
    "UPSTREAM_TRANSPORT",
    "GridFactor",
    "Rule",
    "RuleError",
    "Share",
    "activity_cut",
    "compute",
    "crf",
    "efficiency",
    "electrification",
    "fuel_switch",
    "grid_factor",
    "in_scope_gwp",
    "in_totals",
    "is_combustion_gas",
    "is_internal_logistics",
    "market_instrument",
    "modal_shift",
    "priced",
    "recompute",
    "ref_key",
    "refrigerant",
    "row_key",
    "row_keys",
    "rows_of",
    "sf6_free",
]
