"""The activities the calculator knows (``activities.toml``) and how a text names one.

    find_activity("Óleo Diesel S10")  -> diesel_road
    find_activity("R410a")            -> refrigerant:R-410A (any gas engine.gases.gwp knows)
    find_activity("gas:CH4_fossil")   -> fossil methane emitted as such: its mass × its GWP
    find_gas("óxido nitroso")         -> gas:N2O (for the calculator; never an inventory label)
    nearest("dieesel")                -> the 3 closest activities, for an error's suggestions

Matching is exact on the folded text (no accents, no case, single spaces): a near miss is
an UnknownActivityError with suggestions, never a guess.
"""

from __future__ import annotations

import csv
import difflib
import re
import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Literal

from engine.gases.gwp import GWP_SETS, canonical_gas, gwp
from engine.protocol import fold
from engine.texts import LANGS, Texts

# The names of the activities made in code (a refrigerant's leak, a gas's own mass); the
# others are the catalogue's data (activities.toml).
_TEXTS = Texts(
    "engine.emissions.activities",
    {
        "refrigerant": {
            "pt": "Gás refrigerante {gas} (emissão fugitiva)",
            "en": "Refrigerant {gas} (fugitive emission)",
        },
        "direct_gas": {
            "pt": "Emissão direta de {gas} (massa do gás)",
            "en": "Direct emission of {gas} (mass of the gas)",
        },
        "gas.fossil": {"pt": "{gas} fóssil", "en": "fossil {gas}"},
        "gas.non_fossil": {"pt": "{gas} não fóssil", "en": "non-fossil {gas}"},
        "direct_category": {
            "pt": "Emissão direta (fonte não informada)",
            "en": "Direct emission (source not given)",
        },
    },
)

Method = Literal[
    "fuel_combustion", "blend_combustion", "electricity", "refrigerant", "carbonate", "direct_gas"
]  # fmt: skip
METHODS: tuple[Method, ...] = (
    "fuel_combustion", "blend_combustion", "electricity", "refrigerant", "carbonate",
    "direct_gas",
)  # fmt: skip
REFRIGERANT_PREFIX = "refrigerant:"
GAS_PREFIX = "gas:"
# AR6 gives methane a value by origin; the id says which one a direct mass is.
_CH4_ORIGIN_SUFFIXES = {"_fossil": "fossil", "_non_fossil": "non_fossil"}
_GREENHOUSE_BASICS = frozenset({"CO2", "CH4", "N2O"})
_NON_FOSSIL = re.compile(r"\b(?:nao|non|not)\W*fossil|biogen|renovavel|renewable")
# Gases that are no refrigerant to leak: a text naming them is not an activity.
_NOT_REFRIGERANTS = frozenset({"CO2", "CH4", "N2O", "CO2 biogênico"})
_WORDS = re.compile(r"[^\W_]+(?:-[^\W_]+)*")


@dataclass(frozen=True)
class ActivityInfo:
    """What a quantity is of: its names, scope and category, and how it is computed."""

    id: str
    name: dict[str, str]
    synonyms: dict[str, tuple[str, ...]]
    scope: int
    category: str  # Portuguese, as the ingestion names categories
    category_en: str
    method: Method
    units: tuple[str, ...]  # dimensions: volume, mass, energy
    use: str | None = None
    fuel: str | None = None
    properties: tuple[str, ...] = ()
    blend: str | None = None
    bio_fuel: str | None = None
    bio_properties: tuple[str, ...] = ()
    fallback_fuel: str | None = None  # CH4/N2O stand-in when the source has none for fuel
    key: str | None = None  # the factor key of electricity and carbonates
    gas: str | None = None  # refrigerants and direct gases: the canonical gas or blend
    ch4_origin: str = "general"  # direct methane: general, fossil or non_fossil (AR6 only)
    labels: tuple[str, ...] = field(default=(), repr=False)  # folded id, names, synonyms

    def __hash__(self) -> int:  # the id is the identity; the name dicts are not hashable
        return hash(self.id)

    def label(self, lang: str = "pt") -> str:
        return self.name["pt" if lang.lower().startswith("pt") else "en"]


def _data_text(name: str) -> str:
    return resources.files("engine.emissions").joinpath(name).read_text(encoding="utf-8")


@cache
def _categories_en() -> dict[str, str]:
    # Read through the ``engine`` package, not ``engine.inventory``: importing that package
    # runs its loader, which imports this one.
    path = resources.files("engine").joinpath("inventory", "data", "categories.csv")
    with path.open(encoding="utf-8") as f:
        return {row["category_pt"]: row["category_en"] for row in csv.DictReader(f)}


def _labels(
    identifier: str, name: dict[str, str], synonyms: dict[str, tuple[str, ...]]
) -> tuple[str, ...]:
    texts = [identifier, *name.values(), *(s for group in synonyms.values() for s in group)]
    return tuple(dict.fromkeys(fold(text) for text in texts))


@cache
def _catalog() -> tuple[dict[str, ActivityInfo], list[str]]:
    document = tomllib.loads(_data_text("activities.toml"))
    categories = _categories_en()
    by_id: dict[str, ActivityInfo] = {}
    for raw in document["activity"]:
        if raw["category"] not in categories:
            raise ValueError(f"activities.toml: {raw['id']} has an unknown category")
        if raw["method"] not in METHODS:
            raise ValueError(f"activities.toml: {raw['id']} has an unknown method")
        synonyms = {lang: tuple(raw.get("synonyms", {}).get(lang, ())) for lang in ("pt", "en")}
        identifier = raw["id"]
        key = raw.get("key") or (identifier if raw["method"] == "carbonate" else None)
        by_id[identifier] = ActivityInfo(
            id=identifier,
            name=dict(raw["name"]),
            synonyms=synonyms,
            scope=int(raw["scope"]),
            category=raw["category"],
            category_en=categories[raw["category"]],
            method=raw["method"],
            units=tuple(raw["units"]),
            use=raw.get("use"),
            fuel=raw.get("fuel"),
            properties=tuple(raw.get("properties") or ([raw["fuel"]] if "fuel" in raw else [])),
            blend=raw.get("blend"),
            bio_fuel=raw.get("bio_fuel"),
            bio_properties=tuple(
                raw.get("bio_properties") or ([raw["bio_fuel"]] if "bio_fuel" in raw else [])
            ),
            fallback_fuel=raw.get("fallback_fuel"),
            key=key,
            labels=_labels(identifier, raw["name"], synonyms),
        )
    return by_id, list(document["refrigerants"]["listed"])


@cache
def _label_index() -> dict[str, str]:
    """Folded id, name or synonym -> activity id. The first activity to claim a label keeps
    it: the TOML's order says which use a bare fuel name means ('diesel' -> road)."""
    index: dict[str, str] = {}
    for activity in activities():
        for label in activity.labels:
            index.setdefault(label, activity.id)
    return index


@cache
def refrigerant(gas: str) -> ActivityInfo:
    """The activity of leaking ``gas``, a canonical name of engine.gases.gwp."""
    identifier = REFRIGERANT_PREFIX + gas
    name = {lang: _TEXTS("refrigerant", lang, gas=gas) for lang in LANGS}
    synonyms: dict[str, tuple[str, ...]] = dict.fromkeys(LANGS, (gas,))
    return ActivityInfo(
        id=identifier,
        name=name,
        synonyms=synonyms,
        scope=1,
        category="Emissões fugitivas",
        category_en=_categories_en()["Emissões fugitivas"],
        method="refrigerant",
        units=("mass",),
        gas=gas,
        labels=_labels(identifier, name, synonyms),
    )


@cache
def direct_gas(gas: str, ch4_origin: str = "general") -> ActivityInfo:
    """A mass of ``gas`` (a canonical name of engine.gases.gwp) emitted as such: "0,5 t
    de N2O". Not in ``activities()``: an inventory row naming only a gas is no activity
    datum, and listing these would make its reader take every "CO2" column for one."""
    origin = ch4_origin if gas == "CH4" else "general"
    suffix = next((s for s, o in _CH4_ORIGIN_SUFFIXES.items() if o == origin), "")
    identifier = f"{GAS_PREFIX}{gas}{suffix}"
    shown = f"gas.{origin}"
    name = {
        lang: _TEXTS(
            "direct_gas", lang, gas=_TEXTS(shown, lang, gas=gas) if shown in _TEXTS else gas
        )
        for lang in LANGS
    }
    synonyms: dict[str, tuple[str, ...]] = dict.fromkeys(LANGS, ())
    if gas in _GREENHOUSE_BASICS:
        # The mass alone does not say the source (process, fugitive, waste, agriculture).
        category, category_en = (_TEXTS("direct_category", lang) for lang in LANGS)
    else:
        # Fluorinated gases reach the air by leaking (switchgear, refrigeration, semiconductors).
        category, category_en = "Emissões fugitivas", _categories_en()["Emissões fugitivas"]
    return ActivityInfo(
        id=identifier,
        name=name,
        synonyms=synonyms,
        scope=1,
        category=category,
        category_en=category_en,
        method="direct_gas",
        units=("mass",),
        gas=gas,
        ch4_origin=origin,
        labels=_labels(identifier, name, synonyms),
    )


def ch4_origin_in(text: str) -> str:
    """The methane origin a text states: 'metano fóssil' -> fossil, 'biogenic methane' ->
    non_fossil, else general."""
    folded = fold(text)
    if _NON_FOSSIL.search(folded):
        return "non_fossil"
    return "fossil" if "fossil" in folded else "general"


def find_gas(text: str) -> ActivityInfo | None:
    """The direct emission of the gas ``text`` names ('N2O', 'metano fóssil', 'SF6'), or None
    when it names no gas with a GWP. For the calculator only, see ``direct_gas``."""
    if not isinstance(text, str) or not text.strip():
        return None
    folded = fold(text)
    # 'metano fóssil' is an alias of CH4, 'CH4 fossil' is not: the origin is read apart.
    bare = re.sub(r"\b(?:nao|non|not)\W*fossil|\bfossil", " ", folded).strip(" -_")
    gas = canonical_gas(bare) or canonical_gas(text)
    if gas is None or not any(gwp(gas, s) is not None for s in GWP_SETS):
        return None  # BIOGENIC_CO2, 'HFCs': no single GWP
    return direct_gas(gas, ch4_origin_in(text))


def _direct_gas_id(text: str) -> ActivityInfo | None:
    """'gas:N2O', 'gas:CH4_fossil' -> their activity."""
    rest = text.strip()[len(GAS_PREFIX) :]
    origin = "general"
    for suffix, named in _CH4_ORIGIN_SUFFIXES.items():
        if rest.endswith(suffix) and canonical_gas(rest[: -len(suffix)]) == "CH4":
            rest, origin = rest[: -len(suffix)], named
    found = find_gas(rest)
    return direct_gas(found.gas, origin) if found is not None and found.gas else None


@cache
def activities() -> list[ActivityInfo]:
    """Every activity the library lists: fuels, grid electricity, carbonates, refrigerants."""
    by_id, listed = _catalog()
    return [*by_id.values(), *(refrigerant(gas) for gas in listed)]


def _refrigerant_gas(text: str) -> str | None:
    gas = canonical_gas(text)
    if gas is None or gas in _NOT_REFRIGERANTS:
        return None
    return gas if any(gwp(gas, s) is not None for s in GWP_SETS) else None


@cache
def _find(folded: str, original: str) -> ActivityInfo | None:
    by_id, _ = _catalog()
    hit = _label_index().get(folded)
    if hit is not None:
        return by_id.get(hit) or next(a for a in activities() if a.id == hit)
    lowered = original.strip()
    if lowered.casefold().startswith(GAS_PREFIX):
        return _direct_gas_id(lowered)
    if lowered.casefold().startswith(REFRIGERANT_PREFIX):
        gas = _refrigerant_gas(lowered[len(REFRIGERANT_PREFIX) :])
        return refrigerant(gas) if gas else None
    gas = _refrigerant_gas(original)
    if gas:
        return refrigerant(gas)
    # "gás refrigerante R-410A", "recarga de R22": one word of the text names the gas.
    gases = {g for word in _WORDS.findall(original) if (g := _refrigerant_gas(word))}
    return refrigerant(gases.pop()) if len(gases) == 1 else None


def find_activity(text: str) -> ActivityInfo | None:
    """The activity an id, name or synonym (PT or EN) names; None when none matches."""
    if not isinstance(text, str) or not text.strip():
        return None
    return _find(fold(text), text)


def nearest(text: str, n: int = 3) -> list[ActivityInfo]:
    """The ``n`` known activities whose names come closest to ``text``: suggestions only."""
    folded = fold(str(text))
    words = {w for w in _WORDS.findall(folded) if len(w) >= 3}
    scored: dict[str, float] = {}
    for activity in activities():
        best = 0.0
        for label in activity.labels:
            score = difflib.SequenceMatcher(None, folded, label).ratio()
            # A shared word ('diesel', 'gas') says more than similar letters.
            if words & set(_WORDS.findall(label)):
                score += 0.5
            best = max(best, score)
        scored[activity.id] = best
    ranked = sorted(scored, key=lambda i: -scored[i])[:n]
    by_id = {a.id: a for a in activities()}
    return [by_id[i] for i in ranked]
