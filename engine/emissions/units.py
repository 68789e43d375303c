"""Units through pint: one registry for the package, Brazilian spellings, cached conversions.

    to(1, "m³", "L")          -> 1000.0
    to(2, "mil litros", "m**3") -> 2.0
    dimension("kWh")          -> "energy"

Pint parses a unit string in tens of microseconds: fine once per distinct unit, far too slow
per row. Every conversion factor is therefore cached per (unit, target), and the batch path
converts a whole column with one multiplication.
"""

from __future__ import annotations

import re
from functools import lru_cache

import pint

from engine.emissions.errors import UnitError
from engine.protocol import fold
from engine.texts import Texts

_TEXTS = Texts(
    "engine.emissions.units",
    {
        "percent_per_year": {"pt": "%/ano", "en": "%/year"},
        "biogenic_co2": {"pt": "CO2 biogênico", "en": "biogenic CO2"},
    },
)

# on_redefinition="ignore": the calorie below replaces pint's thermochemical one on purpose.
REGISTRY = pint.UnitRegistry(on_redefinition="ignore", cache_folder=None)
# The National Energy Balance (BEN), the source of every kcal value here, uses the
# International Table calorie (4.1868 J: 1 tep = 10^7 kcal = 41.868 GJ), not pint's
# thermochemical 4.184 J. A 0.07% difference, but a source's number must mean what it says.
REGISTRY.define("calorie = 4.1868 * joule = cal = international_calorie")
REGISTRY.define("litro = liter")
REGISTRY.define("tonelada = metric_ton")
REGISTRY.define("tkm = metric_ton * kilometer")
REGISTRY.define("fraction = 1")

Quantity = REGISTRY.Quantity

# The physical dimensions an activity can be measured in, by pint dimensionality.
_DIMENSIONS = {
    REGISTRY.parse_expression(reference).dimensionality: name
    for reference, name in (
        ("liter", "volume"),
        ("kilogram", "mass"),
        ("joule", "energy"),
        ("tkm", "mass_distance"),
        ("fraction", "fraction"),
    )
}

# Spellings people type that pint reads otherwise or not at all. Keys are folded
# (lower case, no accents). 'mwh' in pint's strict reading would be a milliwatt-hour, a unit
# no inventory uses; 'mil' is pint's thousandth of an inch, here it is the Portuguese
# thousand ("mil litros").
_ALIASES = {
    "l": "liter", "lt": "liter", "lts": "liter", "litro": "liter", "litros": "liter",
    "liter": "liter", "liters": "liter", "litre": "liter", "litres": "liter",
    "m3": "meter**3", "m³": "meter**3", "metro cubico": "meter**3", "metros cubicos": "meter**3",
    "t": "metric_ton", "ton": "metric_ton", "tons": "metric_ton", "tonne": "metric_ton",
    "tonnes": "metric_ton", "tonelada": "metric_ton", "toneladas": "metric_ton",
    "kg": "kilogram", "quilo": "kilogram", "quilos": "kilogram", "quilograma": "kilogram",
    "quilogramas": "kilogram",
    "kwh": "kilowatt_hour", "mwh": "megawatt_hour", "gwh": "gigawatt_hour",
    "mj": "megajoule", "gj": "gigajoule", "tj": "terajoule",
    "t.km": "tkm", "t km": "tkm", "t*km": "tkm", "tku": "tkm",
}  # fmt: skip
_THOUSAND = re.compile(r"^(?:mil|10\^3|10\*\*3|10³)\s+(?P<unit>.+)$")
_LITRE = re.compile(r"\bl\b")
_LETTER = re.compile(r"[A-Za-z%]")
_POWER = re.compile(r"(?<=[A-Za-z])(?P<power>[23])(?![0-9])")  # m3 -> m**3, km2 -> km**2


def _pint_text(unit: str) -> str:
    text = unit.strip().replace("³", "**3").replace("²", "**2").replace("·", "*")
    return _POWER.sub(r"**\g<power>", text)


@lru_cache(maxsize=4096)
def parse_unit(unit: str) -> pint.Quantity:
    """The unit as a pint quantity (magnitude 1, or 1000 for 'mil litros'); UnitError if
    pint cannot read it."""
    if not isinstance(unit, str) or not unit.strip():
        raise UnitError(str(unit))
    scale = 1.0
    # Matched before folding: NFKD would turn '10³' into '103'.
    thousand = _THOUSAND.match(" ".join(unit.lower().split()))
    if thousand:
        scale, unit = 1000.0, unit.strip().split(None, 1)[1]
    folded = fold(unit)
    text = _ALIASES.get(folded) or _ALIASES.get(folded.replace(" ", "")) or _pint_text(unit)
    try:
        parsed = REGISTRY.parse_expression(text)
    except Exception as error:  # pint raises several types (syntax, undefined, tokenizer)
        raise UnitError(unit) from error
    if not isinstance(parsed, pint.Quantity) or not _LETTER.search(text):
        raise UnitError(unit)  # a bare number ("1000") is no unit
    return parsed * scale


@lru_cache(maxsize=4096)
def conversion_factor(unit: str, target: str) -> float:
    """How many ``target`` one ``unit`` is; UnitError naming ``unit`` when they differ in
    dimension."""
    source = parse_unit(unit)
    goal = parse_unit(target)
    try:
        exact = float((source / goal).to("dimensionless").magnitude)
    except pint.DimensionalityError as error:
        raise UnitError(unit, expected=dimension(target)) from error
    # Pint's float arithmetic leaves 999.9999999999999 L in a m³; every unit definition is
    # an exact decimal, so 15 significant digits give back the exact factor.
    return float(f"{exact:.15g}")


@lru_cache(maxsize=4096)
def normalize(unit: str) -> tuple[float, str]:
    """(scale, pint's own short spelling): 'mil litros' -> (1000.0, 'L'), 'm3' -> (1.0,
    'm ** 3'). The chain combines units in pint expressions; a user's spelling ('lts',
    'mil litros') is only readable alone, so it is normalised first."""
    parsed = parse_unit(unit)
    text = _LITRE.sub("L", format(parsed.units, "~"))  # pint writes the litre 'l'
    return float(parsed.magnitude), text


def to(quantity: float, unit: str, target: str, *, row: object | None = None) -> float:
    """``quantity`` in ``unit`` expressed in ``target``; the error names ``row`` when given."""
    try:
        return quantity * conversion_factor(unit, target)
    except UnitError as error:
        raise error.at_row(row) if row is not None else error from None


@lru_cache(maxsize=4096)
def dimension(unit: str) -> str:
    """'volume', 'mass', 'energy', 'mass_distance', 'fraction', or pint's dimensionality."""
    dimensionality = parse_unit(unit).dimensionality
    return _DIMENSIONS.get(dimensionality, str(dimensionality))


def pretty(unit: str) -> str:
    """A unit as a reader writes it: 'kg/m**3' -> 'kg/m³'."""
    text = unit.replace(" ** ", "**")
    return text.replace("**3", "³").replace("**2", "²").replace("^3", "³").replace("^2", "²")


# The gas a factor's mass is of, written in its unit ("kg/TJ" of CH4 is "kg CH4/TJ").
_GASES_IN_UNIT = frozenset({"CO2", "CH4", "N2O", "CO2_biogenic"})
_MASSES = ("g", "kg", "t")


def unit_label(unit: str, gas: str = "-", lang: str = "pt") -> str:
    """A factor's unit as people write it, in ``lang``: 'kg/m**3' -> 'kg/m³', 'kg/TJ' of
    CH4 -> 'kg CH4/TJ', 't/MWh' of CO2 -> 't CO2/MWh', 'percent' and 'fraction' -> '%'
    (a fraction's value shown ×100), 'percent/year' -> '%/ano' ('%/year')."""
    text = pretty(unit.strip())
    if text in ("percent", "fraction"):
        return "%"
    if text == "percent/year":
        return _TEXTS("percent_per_year", lang)
    if text in ("-", "1", "unit", "dimensionless"):
        return ""
    mass, slash, per = text.partition("/")
    if gas in _GASES_IN_UNIT and mass.strip() in _MASSES:
        named = _TEXTS("biogenic_co2", lang) if gas == "CO2_biogenic" else gas
        mass = f"{mass.strip()} {named}"
    return f"{mass}{slash}{per}"
