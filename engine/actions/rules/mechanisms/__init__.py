"""One rule per mechanism, each turning a catalogue row and the inventory rows it matches into
a ``Cut``; each module's docstring states its rule."""

from __future__ import annotations

from collections.abc import Callable

from engine.actions.rules.cut import Cut
from engine.actions.rules.mechanisms.efficiency import activity_cut, efficiency
from engine.actions.rules.mechanisms.electrification import electrification
from engine.actions.rules.mechanisms.fuel_switch import fuel_switch
from engine.actions.rules.mechanisms.market_instrument import market_instrument
from engine.actions.rules.mechanisms.modal_shift import modal_shift
from engine.actions.rules.mechanisms.refrigerant import refrigerant
from engine.actions.rules.mechanisms.sf6_free import sf6_free

Rule = Callable[..., Cut | None]
RULES: dict[str, Rule] = {
    "fuel_switch": fuel_switch,
    "efficiency": efficiency,
    "activity_cut": activity_cut,
    "refrigerant": refrigerant,
    "sf6_free": sf6_free,
    "market_instrument": market_instrument,
    "electrification": electrification,
    "modal_shift": modal_shift,
}

__all__ = ["RULES", "Rule"]
