"""From text to an activity: the fuel, gas or source a table's cells, sheet name or title
name, matched to the factor library's activities, and how the fuel is used.

A fuel column, a gas column (refrigerants), a source column naming a fuel ("Caminhões
diesel") or the sheet's name or title ("Consumo de diesel") says what was consumed. The
equipment a row names, or the sheet's category, says how a fuel is burnt (stationary, road,
off-road); a product the library has no factor for in that use is left uncounted, never
guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from engine.emissions import ActivityInfo, activities, find_activity
from engine.inventory import fields as F
from engine.texts import Both, Texts

# Why a row's activity was not computed, said as the finding that lists it.
_TEXTS = Texts(
    "engine.inventory.activity.matching",
    {
        "other_category": {
            "pt": "'{text}' está em {known}; a biblioteca calcula {name} como {category}",
            "en": "'{text}' is filed under {known}; the library computes {name} as {category}",
        },
        "no_factors_for_use": {
            "pt": "a biblioteca não tem fatores de {name} para {use}",
            "en": "the library has no factors for {name} in {use}",
        },
        "use.stationary": {"pt": "combustão estacionária", "en": "stationary combustion"},
        "use.road": {"pt": "transporte rodoviário", "en": "road transport"},
        "use.offroad": {"pt": "máquinas fora de estrada", "en": "off-road machinery"},
    },
)

_STATIONARY = "Combustão estacionária"
_MOBILE = "Combustão móvel"

# Equipment a row names says how a fuel is used when the fuel's name alone does not: a
# generator burns diesel as stationary combustion, a forklift as off-road machinery.
_USE_WORDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("offroad", re.compile(
        r"\b(?:empilhadeiras?|tratore?s?|escavadeiras?|retroescavadeiras?|carregadeiras?|"
        r"maquinas?|motoniveladoras?|guindastes?|colheitadeiras?|fora de estrada|off ?road|"
        r"forklifts?|tractors?|excavators?|loaders?|machinery|cranes?)\b"
    )),
    ("stationary", re.compile(
        r"\b(?:caldeiras?|fornos?|geradore?s?|grupo gerador|secadore?s?|aquecedore?s?|"
        r"fornalhas?|estufas?|queimadore?s?|estacionari\w*|boilers?|furnaces?|generators?|"
        r"dryers?|kilns?|heaters?|burners?|stationary)\b"
    )),
    ("road", re.compile(
        r"\b(?:caminho\w*|caminhao|veiculos?|carros?|onibus|vans?|automove\w*|frotas?|"
        r"motos?|motocicletas?|pick ?ups?|rodoviari\w*|trucks?|cars?|bus|buses|vehicles?|"
        r"fleets?)\b"
    )),
)  # fmt: skip
_CATEGORY_USE = {_STATIONARY: "stationary", _MOBILE: "road"}


@cache
def _labels() -> tuple[tuple[str, str], ...]:
    """(folded words of a name or synonym, activity id), longest first: the most specific
    name a text contains wins ('calcário dolomítico' over 'calcário')."""
    pairs = {
        (F.words(label), info.id)
        for info in activities()
        for label in (*info.name.values(), *(s for g in info.synonyms.values() for s in g))
        if F.words(label)
    }
    return tuple(sorted(pairs, key=lambda pair: (-len(pair[0]), pair[0])))


@cache
def by_id() -> dict[str, ActivityInfo]:
    return {info.id: info for info in activities()}


@cache
def activity_in(text: str) -> ActivityInfo | None:
    """The activity a text is, or names among other words ('Óleo diesel S10 – frota')."""
    if not text or not text.strip():
        return None
    found = find_activity(text)
    if found is not None:
        return found
    folded = f" {F.words(text)} "
    for label, identifier in _labels():
        if f" {label} " in folded:
            return info_of(identifier)
    return None


def info_of(activity_id: str) -> ActivityInfo | None:
    """The library's activity of an id the rows carry: a listed one, or one the library
    makes on demand from its id ('gas:N2O') that ``activities`` does not list."""
    return by_id().get(activity_id) or find_activity(activity_id)


def activity_names(info: ActivityInfo | None, fallback: object) -> tuple[object, object]:
    """An activity's (pt, en) name for a finding; ``fallback`` twice when it is unknown."""
    return (info.name["pt"], info.name["en"]) if info else (fallback, fallback)


def _fits(info: ActivityInfo, category: str) -> bool:
    """Whether an activity belongs in a sheet of ``category``: fuels in either combustion
    (the use follows the sheet), the others only in their own."""
    if info.category in _CATEGORY_USE:
        return category in _CATEGORY_USE
    return category == info.category


def _use_hint(text: str | None) -> str | None:
    if not text:
        return None
    folded = F.words(text)
    return next((use for use, pattern in _USE_WORDS if pattern.search(folded)), None)


def _product(info: ActivityInfo) -> tuple[object, ...]:
    """What is burnt, whatever the use: the fuel and everything that sets its factors but
    the use. Diesel A (B0) and diesel B share ``fuel = "diesel"``; B splits the volume by
    its biodiesel share (``blend``, ``bio_fuel``) and reports that part's CO2 as biogenic."""
    return (info.fuel, info.method, info.blend, info.bio_fuel, info.properties,
            info.bio_properties, info.fallback_fuel)  # fmt: skip


def _with_use(info: ActivityInfo, use: str | None) -> ActivityInfo | None:
    """The same product (fuel, blend and all: ``_product``) burnt the way ``use`` says;
    None when the library has no factor for that product in that use (a guess, even
    another blend of the same fuel, would be wrong by the factor's whole difference)."""
    if info.fuel is None or use is None:
        return info
    product = _product(info)
    siblings = [a for a in activities() if _product(a) == product]
    if use == "stationary":
        if info.category == _STATIONARY:
            return info
        return next((a for a in siblings if a.category == _STATIONARY), None)
    if info.use == use:
        return info
    return next((a for a in siblings if a.use == use), None)


@dataclass(frozen=True)
class Resolved:
    info: ActivityInfo | None
    text: str  # what named it (or failed to)
    why_pt: str = ""
    why_en: str = ""


def resolve(key: tuple[str, ...], context: str, context_category: str | None) -> Resolved:
    """One distinct (fuel, gas, source, category) of a table: its activity, if any."""
    fuel, gas, source, category = (part or None for part in key)
    text = fuel or gas
    info = activity_in(text) if text else None
    if text is None:
        info = activity_in(source) if source else None
        text = source if info is not None else None
        if info is None:
            info = activity_in(context)
            text = context if info is not None else (source or context)
    if info is None:
        return Resolved(None, text or "")
    row_category = (F.category_of(category) or (None, None))[1] if category else None
    use = (
        _use_hint(fuel)
        or _use_hint(source)
        or _CATEGORY_USE.get(row_category or context_category or "")
    )
    known = row_category or context_category
    if known and not _fits(info, known):
        # A fuel named in a waste or travel sheet ('Resíduos de madeira') is no combustion.
        said = _TEXTS.both(
            "other_category",
            text=text,
            known=Both(known, F.category_en(known)),
            name=Both(info.name["pt"], info.name["en"]),
            category=Both(info.category, info.category_en),
        )
        return Resolved(None, text or "", said.pt, said.en)
    chosen = _with_use(info, use)
    if chosen is None:
        said = _TEXTS.both("no_factors_for_use", name=Both(info.name["pt"], info.name["en"]),
                           use=_TEXTS.both(f"use.{use}"))  # fmt: skip
        return Resolved(None, text or "", said.pt, said.en)
    return Resolved(chosen, text or "")
