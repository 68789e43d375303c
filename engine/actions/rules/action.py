"""A measure's action on its rows: the rule of its mechanism, the ``Action`` built from the
cut and priced, and the same action recomputed for a what-if (another share or substitute).
"""

from __future__ import annotations

import hashlib
from dataclasses import replace

import pandas as pd

from engine.actions.model import Action, Mechanism
from engine.actions.rules.cut import Cut
from engine.actions.rules.errors import RuleError
from engine.actions.rules.finance import priced, quote_of
from engine.actions.rules.mechanisms import RULES
from engine.actions.rules.mechanisms.electrification import efficiency_ratio
from engine.actions.rules.rows import has_scope, main_scope, refs, row_keys, rows_of
from engine.actions.rules.text import of
from engine.actions.rules.texts import RULE_TEXTS, as_dict
from engine.emissions import default_library
from engine.inventory import Inventory
from engine.measures.catalogue import (
    BIOGENIC_SUFFIX,
    Alternative,
    Catalogue,
    Costs,
    shipped_catalogue,
)
from engine.measures.refrigerants import substitute_gwp


def _action_id(measure: Alternative, rows: pd.DataFrame) -> str:
    digest = hashlib.sha1("\n".join(sorted(row_keys(rows))).encode("utf-8")).hexdigest()
    return f"{measure.key}@{digest[:10]}"


def _action(measure: Alternative, cut: Cut, costs: Costs, scope: int | None) -> Action:
    # Float products can land a hair above the rows' own figure: the cut never exceeds it.
    low = min(max(cut.low, 0.0), cut.baseline)
    high = min(max(cut.high, 0.0), cut.baseline)
    action = Action(
        id=_action_id(measure, cut.rows),
        measure_id=measure.key,
        measure=dict(measure.alternative),
        source=dict(measure.source),
        mechanism=_mechanism(measure),
        rows=refs(cut.rows, cut.refs_tco2e),
        scope=main_scope(cut.rows) if scope is None else scope,
        scope2_method=cut.scope2_method,  # type: ignore[arg-type]
        baseline_tco2e=cut.baseline,
        reduction_low_tco2e=min(low, high),
        reduction_high_tco2e=max(low, high),
        biogenic_co2_t=max(cut.biogenic, 0.0),
        grid_added_low_tco2e=max(cut.grid_low, 0.0),
        grid_added_high_tco2e=max(cut.grid_high, 0.0),
        scope3_added_low_tco2e=max(cut.scope3_low, 0.0),
        scope3_added_high_tco2e=max(cut.scope3_high, 0.0),
        scope3_added_category=cut.scope3_category,
        share_low=cut.share[0],
        share_high=cut.share[1],
        substitute=measure.substitute,
        lead_time_years=measure.lead_time_years,
        kpi=cut.kpi,
        basis=_scope_note(cut, scope),
    )
    return priced(action, costs)


def _scope_note(cut: Cut, scope: int | None) -> dict[str, str]:
    """The basis, saying so when the scope is the measure's rather than the inventory's."""
    if has_scope(cut.rows) or scope is None:
        return cut.basis
    return as_dict(of(cut.basis) + RULE_TEXTS.both("scope_taken", scope=scope))


def _mechanism(measure: Alternative) -> Mechanism:
    return measure.mechanism  # type: ignore[return-value]  # checked when the CSV is read


def compute(
    measure: Alternative,
    inventory: Inventory,
    rows: pd.DataFrame,
    *,
    share: float | None = None,
    costs: Costs | None = None,
    scope: int | None = None,
) -> Action | None:
    """The action of ``measure`` on ``rows`` (the headline year's, one scope), or None when
    the rule finds nothing in the totals to cut. ``share`` (0–1) replaces the measure's
    applied range with one share; ``costs`` replaces its quote; ``scope`` is the rows' scope
    when the inventory gives none (the planner takes the measure's)."""
    if measure.mechanism is None:
        return None
    cut = RULES[measure.mechanism](measure, inventory, rows, share=share)
    if cut is None:
        return None
    return _action(measure, cut, costs if costs is not None else measure.costs, scope)


def recompute(
    action: Action,
    inventory: Inventory,
    *,
    share: float | None = None,
    substitute: str | None = None,
    catalogue: Catalogue | None = None,
    costs: Costs | None = None,
) -> Action:
    """The same action on the same rows, through the same rule, with a what-if's ``share``
    (0–1) or ``substitute`` (a refrigerant's new gas, a fuel switch's fuel). Its quote per
    tonne carries over (from the action itself when it was priced); the id stays."""
    measures = catalogue if catalogue is not None else shipped_catalogue()
    measure = measures[action.measure_id]
    if substitute:
        measure = replace(measure, substitute=_checked_substitute(measure, substitute))
    rows = rows_of(inventory, action.rows)
    quote = costs if costs is not None else quote_of(action, measure.costs)
    found = compute(measure, inventory, rows, share=share, costs=quote, scope=action.scope)
    if found is None:  # nothing left to cut (the rows changed): the action cuts nothing
        return action.model_copy(
            update={
                "reduction_low_tco2e": 0.0,
                "reduction_high_tco2e": 0.0,
                "biogenic_co2_t": 0.0,
                "grid_added_low_tco2e": 0.0,
                "grid_added_high_tco2e": 0.0,
                "scope3_added_low_tco2e": 0.0,
                "scope3_added_high_tco2e": 0.0,
            }
        )
    return found.model_copy(
        update={"id": action.id, "deadline": action.deadline, "needed_year": action.needed_year}
    )


def _checked_substitute(measure: Alternative, substitute: str) -> str:
    if measure.mechanism == "refrigerant":
        if all(substitute_gwp(substitute, s) is not None for s in ("AR4", "AR5", "AR6")):
            return substitute
    elif measure.mechanism == "fuel_switch":
        fuel = substitute.removesuffix(BIOGENIC_SUFFIX)
        if any(key.startswith(f"{fuel}@") for key in default_library().factor_keys()):
            return substitute
    elif measure.mechanism == "electrification":
        try:
            if efficiency_ratio(substitute) > 0:
                return substitute
        except ValueError:
            pass
    else:
        raise RuleError(RULE_TEXTS.both("no_substitute", measure=measure.key))
    raise RuleError(
        RULE_TEXTS.both("unknown_substitute", measure=measure.key, substitute=substitute)
    )
