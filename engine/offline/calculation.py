"""Calculation questions, read offline: "my trucks burn 120,000 L of diesel: how much CO2e?".

A calculation needs three things in the question: a quantity, its unit and an activity the
factor library knows. When all three are there the offline analyst computes with the
library (through the ``calcular_emissoes`` tool when it is bound), never from its FAQ.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from engine.emissions.activities import ActivityInfo, activities, refrigerant
from engine.emissions.calculator import estimate
from engine.emissions.errors import EmissionsError
from engine.emissions.factors import FactorLibrary
from engine.formatting import read_number
from engine.inventory.gwp import canonical_gas
from engine.protocol import fold

# A number as people write it in either language: 120.000 / 120,000 / 1,5 / 1.5 / 120 mil.
NUMBER = r"(?P<number>\d{1,3}(?:[.,\s]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?)"
SCALE = r"(?:\s*(?P<scale>mil|thousand|milh(?:ao|oes)|million|k)\b)?"
_UNITS = {
    "l": "L", "litro": "L", "litros": "L", "liter": "L", "liters": "L", "litre": "L",
    "litres": "L", "m3": "m³", "m³": "m³", "metros cubicos": "m³", "cubic meters": "m³",
    "kg": "kg", "quilos": "kg", "quilogramas": "kg", "kilograms": "kg", "t": "t",
    "ton": "t", "tonelada": "t", "toneladas": "t", "tonne": "t", "tonnes": "t", "tons": "t",
    "mwh": "MWh", "kwh": "kWh", "gwh": "GWh", "gj": "GJ", "tj": "TJ", "gal": "gal",
    "galoes": "gal", "gallons": "gal",
}  # fmt: skip
_UNIT = "|".join(sorted((re.escape(u) for u in _UNITS), key=len, reverse=True))
_QUANTITY = re.compile(rf"{NUMBER}{SCALE}\s*(?P<unit>{_UNIT})(?![a-z0-9])", re.IGNORECASE)
_YEAR = re.compile(r"\b(19[89]\d|20\d\d)\b")
SCALES = {"mil": 1e3, "thousand": 1e3, "k": 1e3, "milhao": 1e6, "milhoes": 1e6,
           "million": 1e6}  # fmt: skip

# How the activity is used, when the fuel alone does not say: the words around it.
_USE_CUES = {
    "road": ("caminh", "truck", "frota", "fleet", "carro", "car ", "cars", "veicul", "vehicle",
             "onibus", "bus", "van", "moto", "rodovi", "road"),
    "offroad": ("trator", "tractor", "maquina", "machine", "escavadeira", "excavator",
                "empilhadeira", "forklift", "colheitadeira", "harvester", "off-road"),
    "stationary": ("caldeira", "boiler", "forno", "furnace", "kiln", "gerador", "generator",
                   "aquecedor", "heater", "secador", "dryer", "estacion", "stationary"),
}  # fmt: skip


# The library's uses each cue stands for, the most likely first.
_USES = {
    "road": ("road",),
    "offroad": ("offroad",),
    "stationary": ("manufacturing", "commercial", "energy", "residential"),
}


@dataclass(frozen=True)
class CalculationAsk:
    activity: str  # the library's activity id
    quantity: float
    unit: str
    year: int


def read_calculation(question: str, today: date | None = None) -> CalculationAsk | None:
    """The calculation a question asks for, or None when it lacks a quantity, a unit or an
    activity the library knows."""
    match = _QUANTITY.search(question)
    if match is None:
        return None
    try:
        quantity = read_number(match.group("number"))
    except ValueError:
        return None
    scale = fold(match.group("scale") or "")
    quantity *= SCALES.get(scale, 1.0)
    unit = _UNITS[fold(match.group("unit"))]
    activity = _activity_in(question)
    if activity is None:
        return None
    years = [int(y) for y in _YEAR.findall(question)]
    year = years[-1] if years else (today or date.today()).year
    return CalculationAsk(activity.id, quantity, unit, year)


def _activity_in(question: str) -> ActivityInfo | None:
    """The library activity the question names: its longest name or synonym in the text,
    narrowed by how the fuel is used (a truck's diesel is not a boiler's)."""
    text = f" {fold(question)} "
    gas = _refrigerant_in(question)
    if gas is not None:
        return refrigerant(gas)
    named: list[tuple[int, ActivityInfo]] = []
    for activity in activities():
        for folded in activity.labels:  # already folded: id, names, synonyms
            if len(folded) >= 2 and _names(folded, text):
                named.append((len(folded), activity))
    if not named:
        return None
    longest = max(size for size, _ in named)
    chosen = next(a for size, a in named if size == longest)
    use = next((u for u, cues in _USE_CUES.items() if any(c in text for c in cues)), None)
    if use is None or chosen.fuel is None or chosen.use in _USES[use]:
        return chosen
    # The same fuel burnt the way the words around it say ("diesel no gerador").
    same_fuel = [a for a in activities() if a.fuel == chosen.fuel and a.use in _USES[use]]
    return min(same_fuel, key=lambda a: _USES[use].index(a.use)) if same_fuel else chosen


def _names(label: str, text: str) -> bool:
    return re.search(rf"(?<![a-z0-9]){re.escape(label)}(?![a-z0-9])", text) is not None


def _refrigerant_in(question: str) -> str | None:
    for word in re.findall(r"\b(?:R|HFC|HCFC|CFC)[- ]?\d[\w\-]*\b", question, re.IGNORECASE):
        gas = canonical_gas(word)
        if gas is not None:
            return gas
    return None


def answer_calculation(ask: CalculationAsk, lang: str, factors: FactorLibrary | None = None) -> str:
    """The computation shown in full, or why it cannot be done, in the user's language."""
    try:
        result = estimate(
            ask.activity, ask.quantity, ask.unit, date_or_year=ask.year, factors=factors
        )
    except EmissionsError as error:
        return error.message(lang)
    return result.explain(lang)


def tool_arguments(ask: CalculationAsk) -> dict[str, object]:
    """The ``calcular_emissoes`` call that computes ``ask``."""
    return {
        "atividade": ask.activity,
        "quantidade": ask.quantity,
        "unidade": ask.unit,
        "data_ou_ano": ask.year,
    }
