"""Which measures a plan proposes: every catalogue row matched to the inventory rows it acts
on, computed by its rule, and at most one measure kept per row.

A measure matches a row by its keywords (``Catalogue.matching``): a gas measure (refrigerant,
SF6) on the row's gas, any other on its source, fuel and category; then its ``context`` (a
chiller, a vehicle) on the row's source, its scopes, and the kind of row its mechanism acts
on (a leak is no fuel; a market instrument acts in Scope 2). Each measure becomes one
candidate per scope. The candidate cutting most (mid reduction; ties: the cheaper per
tonne) is chosen; a candidate sharing rows with a chosen one becomes an alternative for the
rows they share, and is tried again on the rows it has left. So the chosen actions never
act on the same row twice, and their cuts add up.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import pandas as pd

from engine.actions.model import Action
from engine.actions.rules import compute, is_combustion_gas, ref_key, row_keys
from engine.inventory import Inventory
from engine.inventory import fields as F
from engine.measures.catalogue import Alternative, Catalogue, Costs, shipped_catalogue

_GAS_MECHANISMS = frozenset({"refrigerant", "sf6_free"})
_FUEL_MECHANISMS = frozenset({"fuel_switch", "electrification"})


@dataclass(frozen=True)
class _Candidate:
    action: Action
    measure: Alternative
    keys: frozenset[str]

    @property
    def order(self) -> tuple[float, float, str]:
        cost = self.action.cost_per_t_brl
        return (
            -self.action.reduction_mid_tco2e,
            math.inf if cost is None else cost,
            self.action.id,
        )


def propose(
    inventory: Inventory,
    catalogue: Catalogue | None = None,
    costs: Mapping[str, Costs] | None = None,
) -> tuple[list[Action], list[Action]]:
    """(chosen, alternatives) for the inventory's headline year. ``catalogue`` defaults to
    the shipped one; ``costs`` are a company's quotes by measure id, laid over it."""
    measures = catalogue if catalogue is not None else shipped_catalogue()
    if costs:
        measures = measures.with_costs(costs)
    rows = inventory.current
    keys = pd.Series(row_keys(rows), index=rows.index, dtype=object)
    texts = _texts(rows)
    pool: list[_Candidate] = []
    for measure in measures:
        if measure.mechanism is None:
            continue
        scopes = _scopes(measure, rows)
        matched = rows[_matches(measure, rows, texts, scopes)]
        for scope, group in matched.groupby(scopes[matched.index], sort=True):
            candidate = _candidate(measure, inventory, group, keys, int(scope))
            if candidate is not None:
                pool.append(candidate)
    return _choose(pool, inventory, rows, keys)


def matched_rows(measure: Alternative, inventory: Inventory) -> pd.DataFrame:
    """The headline year's rows ``measure`` acts on, every scope."""
    rows = inventory.current
    return rows[_matches(measure, rows, _texts(rows), _scopes(measure, rows))]


def _choose(
    pool: list[_Candidate], inventory: Inventory, rows: pd.DataFrame, keys: pd.Series
) -> tuple[list[Action], list[Action]]:
    chosen: list[Action] = []
    alternatives: list[Action] = []
    taken: set[str] = set()
    while pool:
        pool.sort(key=lambda c: c.order)
        best = pool.pop(0)
        shared = best.keys & taken
        if not shared:
            chosen.append(best.action)
            taken |= best.keys
            continue
        # Another option for rows a chosen action already covers; what it has left is
        # tried again on its own.
        scope = best.action.scope
        on_shared = _candidate(best.measure, inventory, rows[keys.isin(shared)], keys, scope)
        if on_shared is not None:
            alternatives.append(on_shared.action)
        rest = best.keys - taken
        if rest:
            again = _candidate(best.measure, inventory, rows[keys.isin(rest)], keys, scope)
            if again is not None:
                pool.append(again)
    alternatives.sort(key=lambda a: (-a.reduction_mid_tco2e, a.id))
    return chosen, alternatives


def _candidate(
    measure: Alternative, inventory: Inventory, rows: pd.DataFrame, keys: pd.Series, scope: int
) -> _Candidate | None:
    action = compute(measure, inventory, rows, scope=scope)
    if action is None or action.reduction_high_tco2e <= 0:
        return None
    acted = {ref_key(ref) for ref in action.rows}
    # The action's own rows, by the keys of the table: a row it named but did not cut (a
    # source's CH4 under a fuel switch) is still its row, so no other action takes it.
    return _Candidate(action, measure, frozenset(k for k in keys[rows.index] if k in acted))


@dataclass(frozen=True)
class _Texts:
    gas: pd.Series  # what a gas measure's keywords are matched on
    activity: pd.Series  # source, fuel, category: what the others' keywords are matched on
    context: pd.Series  # source, category, facility: what a measure's condition is read on
    combustion: pd.Series | bool  # whether each row's gas is one burning emits


def _texts(rows: pd.DataFrame) -> _Texts:
    def joined(*columns: str) -> pd.Series:
        parts = [rows[c].astype(object).where(rows[c].notna(), "") for c in columns if c in rows]
        if not parts:
            return pd.Series([""] * len(rows), index=rows.index, dtype=object)
        return pd.concat(parts, axis=1).astype(str).agg(" | ".join, axis=1)

    return _Texts(
        gas=joined(F.GAS),
        activity=joined(F.SOURCE, F.FUEL, F.CATEGORY),
        context=joined(F.SOURCE, F.CATEGORY, F.FACILITY),
        combustion=rows[F.GAS].map(is_combustion_gas) if F.GAS in rows else True,
    )


def _each_text(texts: pd.Series, test: Callable[[str], bool]) -> pd.Series:
    """``test`` of each row's text, asked once per distinct text: an inventory repeats its
    sources and fuels row after row, and a plan asks each of a hundred measures."""
    answers = {text: bool(test(text)) for text in texts.unique()}
    return texts.map(answers).astype(bool)


def _scopes(measure: Alternative, rows: pd.DataFrame) -> pd.Series:
    """Each row's scope as the measure reads it. A row the inventory gives no scope (a table
    pasted without one) is taken in the measure's scope when the measure has a single one
    other than 2: a fuel burnt or a gas leaked is Scope 1, a trip Scope 3; Scope 2 has two
    methods and needs the inventory to say which rows are its own."""
    known = rows[F.SCOPE].astype(str) if F.SCOPE in rows else pd.Series("", index=rows.index)
    known = known.where(known.isin(("1", "2", "3")), "")
    if len(measure.scopes) == 1 and measure.scopes[0] != 2:
        return known.where(known != "", str(measure.scopes[0]))
    return known


def _matches(
    measure: Alternative, rows: pd.DataFrame, texts: _Texts, scopes: pd.Series
) -> pd.Series:
    """Whether each row is one the measure acts on: its keywords, condition, scopes and the
    kind of row its mechanism computes."""
    single = Catalogue((measure,))
    gas_measure = measure.mechanism in _GAS_MECHANISMS
    haystack = texts.gas if gas_measure else texts.activity
    keep = _each_text(haystack, single.matching)
    if measure.context:
        keep &= _each_text(texts.context, measure.in_context)
    keep &= scopes.isin({str(s) for s in measure.scopes})
    combustion = texts.combustion
    if gas_measure:
        keep &= ~combustion
    else:
        keep &= combustion
    if measure.mechanism in _FUEL_MECHANISMS:
        keep &= scopes == "1"
    return keep
