"""Calculation questions, read offline: "my trucks burn 120,000 L of diesel: how much CO2e?".

A calculation needs three things in the question: a quantity, its unit and an activity the
factor library knows (a fuel, grid electricity, a carbonate, a refrigerant, or a gas emitted
as such: "500 kg of N2O"). When all three are there the offline analyst computes with the
library (through the ``calcular_emissoes`` tool when it is bound), never from its FAQ. The
year ("in 2024", "last year"), the GWP set ("AR6") and a blend ("B14", "E30") named in the
question are honoured: a named blend is computed at its own share, fossil and bio parts apart,
not at the period's mandatory share nor as the pure biofuel.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from engine.emissions.activities import (
    ActivityInfo,
    activities,
    ch4_origin_in,
    direct_gas,
    find_activity,
    find_gas,
    refrigerant,
)
from engine.emissions.calculator import estimate
from engine.emissions.explain import num
from engine.emissions.factors import FactorLibrary
from engine.emissions.periods import relative_year
from engine.emissions.units import dimension
from engine.errors import LocalizedError
from engine.formatting import read_number
from engine.gases.gwp import DEFAULT_GWP_SET, canonical_gas
from engine.protocol import fold
from engine.texts import Texts

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
# "AR6", "AR-5", "sixth assessment report", "quinto relatório": the GWP set asked for. Any
# digit is read, so "AR7" gets the calculator's "unknown set" instead of a silent AR5.
_GWP_SET = re.compile(r"(?<![a-z0-9])ar[\s-]?(?P<digit>\d)(?![0-9])")
_GWP_REPORT = re.compile(
    r"(?P<ordinal>fourth|fifth|sixth|quarto|quinto|sexto)\s+(?:ipcc\s+)?"
    r"(?:assessment|relatorio)"
)
_ORDINALS = {"fourth": "AR4", "quarto": "AR4", "fifth": "AR5", "quinto": "AR5",
             "sixth": "AR6", "sexto": "AR6"}  # fmt: skip
# The gas a mass is of: "500 kg of N2O", "1 tonelada de metano fóssil" (up to four words).
_GAS_AFTER = re.compile(
    r"\s*(?:(?:de|do|da|of)\s+)?(?P<words>[^\W_][\w-]*(?:[ \t]+[^\W_][\w-]*){0,3})"
)
_BIOGENIC_CO2 = re.compile(
    r"(?:co2|dioxido de carbono|carbon dioxide)\s+biogen|biogen\w*\s+(?:co2|carbon dioxide)"
)
# A mass of CO2 is most often the user's own total ("we emit 5,000 t of CO2"): it is a
# calculation only when the question asks to convert it.
_CONVERSION_CUES = ("co2e", "co2 e", "co2eq", "co2-eq", "equivalen", "gwp")
# Diesel A (no biodiesel) as Brazilians write it; case-sensitive, as "diesel a year" is not.
_DIESEL_A = re.compile(r"\b[Dd]iesel A\b")
# A blend by its Brazilian code: B<n> is diesel with n% biodiesel, E<n> gasoline with n%
# ethanol (by volume). B0 and B100 are fuels of their own in the library (diesel A,
# biodiesel), so only 1–99 names a share.
_BLEND_CODE = re.compile(r"(?<![A-Za-z0-9-])(?P<letter>[BbEe])-?(?P<share>\d{1,2})(?![\w,.]?\d|\w)")
_BLEND_FUEL = {"b": "diesel", "e": "gasoline"}
_GRADE = re.compile(r"s-?\d+$")
# ... read as a blend only right after the quantity ("L de B14") or beside its fuel's name
# ("diesel B14", "B14 diesel"), so "B3" the exchange or a table's "E2" stays what it is.
_BLEND_CONTEXT = {"diesel": re.compile(r"diesel"), "gasoline": re.compile(r"gasolin|petrol")}
# Electricity named without a library name ("3,400 MWh bought from the utility"): an amount in
# watt-hours and one of these words.
_ELECTRIC_UNITS = ("kWh", "MWh", "GWh")
_ELECTRIC_CUE = re.compile(
    r"(?<![a-z])(?:grid|rede|sin(?![a-z])|eletric|electric|energia|energy|power|luz"
    r"|concessionaria|distribuidora|utility)"
)

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
    gwp_set: str = DEFAULT_GWP_SET
    bio_share: float | None = None  # a blend the question names ("B14": 0.14)


def read_calculation(question: str, today: date | None = None) -> CalculationAsk | None:
    """The calculation a question asks for, or None when it lacks a quantity, a unit or an
    activity the library knows (the first one, when it asks for several)."""
    asks = read_calculations(question, today)
    return asks[0] if asks else None


def read_calculations(question: str, today: date | None = None) -> list[CalculationAsk]:
    """Every calculation a question asks for, in its order (a fuel and an electricity
    consumption in one sentence are two). A quantity's activity is read from its own clause,
    the words up to the next quantity, else the words since the previous one (a list written
    "fuel: amount; fuel: amount"), so one quantity never takes another's fuel. The year and
    GWP set are the question's."""
    question = _amounts_in_words(question)
    matches = list(_QUANTITY.finditer(question))
    year = _year_in(question, today or date.today())
    gwp_set = _gwp_set_in(question)
    asks: list[CalculationAsk] = []
    for index, match in enumerate(matches):
        try:
            quantity = read_number(match.group("number"))
        except ValueError:
            continue
        quantity *= SCALES.get(fold(match.group("scale") or ""), 1.0)
        unit = _UNITS[fold(match.group("unit"))]
        if len(matches) == 1:
            clauses = [(question, match.end())]
        else:
            after_end = matches[index + 1].start() if index + 1 < len(matches) else len(question)
            before_start = matches[index - 1].end() if index else 0
            after = question[match.start() : after_end]
            before = question[before_start : match.end()]
            clauses = [(after, match.end() - match.start()), (before, len(before))]
        for clause, end in clauses:
            blend = _blend_in(clause, end)
            activity = _activity_in(clause, unit, end, blend[0] if blend else None)
            if activity is not None and (len(matches) == 1 or dimension(unit) in activity.units):
                asks.append(
                    CalculationAsk(
                        activity.id,
                        quantity,
                        unit,
                        year,
                        gwp_set,
                        blend[1] if blend and activity.blend else None,
                    )
                )
                break
    return asks


# Half a unit or one unit written in words: "meia tonelada", "meio quilo", "half a tonne".
_HALF = re.compile(
    r"(?<![A-Za-zÀ-ÿ])(?:mei[oa]|half an?|half of an?)\s+(?=(?:tonelada|quilo|litro|metro "
    r"cubico|metro cúbico|tonne|ton|kilo|litre|liter|cubic met)\w*)",
    re.IGNORECASE,
)


def _amounts_in_words(question: str) -> str:
    """The question with a half written as a figure ("meia tonelada" -> "0,5 tonelada"), so
    it reads as the quantity it is (every offset used later is into this text)."""
    return _HALF.sub(lambda m: "0.5 " if m.group(0)[0] in "hH" else "0,5 ", question)


def _blend_in(question: str, quantity_end: int) -> tuple[str, float] | None:
    """The fuel and bio share of a blend the question names by its code ("B14"), or None."""
    for found in _BLEND_CODE.finditer(question):
        fuel = _BLEND_FUEL[found["letter"].lower()]
        share = int(found["share"])
        between = fold(question[quantity_end : found.start()]).split()
        right_after = found.start() >= quantity_end and len(between) <= 2
        # A sulphur grade sits between the fuel and the code: "diesel S10 B14".
        before = [w for w in fold(question[: found.start()]).split() if not _GRADE.match(w)][-1:]
        after = fold(question[found.end() :]).split()[:1]
        beside = _BLEND_CONTEXT[fuel].search(" ".join(before + after)) is not None
        if 1 <= share <= 99 and (right_after or beside):
            return fuel, share / 100
    return None


def _year_in(question: str, today: date) -> int:
    """The year the question names ("em 2024"), or names relative to today ("last year" is
    the previous calendar year); the current year when it names none."""
    years = [int(y) for y in _YEAR.findall(question)]
    if years:
        return years[-1]
    relative = relative_year(question, today)
    return relative if relative is not None else today.year


def _gwp_set_in(question: str) -> str:
    """The GWP set the question names ("pelo AR6"), else the default (AR5, the Brazilian GHG
    Protocol Program's)."""
    text = fold(question)
    found = _GWP_SET.search(text)
    if found is not None:
        return f"AR{found['digit']}"
    report = _GWP_REPORT.search(text)
    return _ORDINALS[report["ordinal"]] if report is not None else DEFAULT_GWP_SET


def _activity_in(
    question: str, unit: str, quantity_end: int, blend_fuel: str | None = None
) -> ActivityInfo | None:
    """The library activity the question names: a refrigerant, a gas the quantity is a mass
    of, else its longest name or synonym in the text that fits the unit, narrowed by how the
    fuel is used (a truck's diesel is not a boiler's). A blend named by its code is that
    fuel's blend, whatever else the words name ("B14 biodiesel blend" is diesel B)."""
    text = f" {fold(question)} "
    gas = _refrigerant_in(question)
    if gas is not None:
        return refrigerant(gas)
    if dimension(unit) == "mass":
        direct = _gas_after(question, quantity_end)
        if direct is not None:
            return direct
    named: list[tuple[int, ActivityInfo]] = []
    for activity in activities():
        for folded in activity.labels:  # already folded: id, names, synonyms
            if len(folded) >= 2 and _names(folded, text):
                named.append((len(folded), activity))
    diesel_a = find_activity("diesel_a_road") if _DIESEL_A.search(question) else None
    if diesel_a is not None:
        named.append((len("diesel a"), diesel_a))
    # "12.000 MWh" is not of the diesel the same question mentions in passing.
    fitting = [(size, a) for size, a in named if dimension(unit) in a.units]
    named = fitting or named
    if blend_fuel is not None:
        blends = [a for a in activities() if a.fuel == blend_fuel and a.blend is not None]
        chosen_blend = next((a for _, a in named if a in blends), None) or blends[0]
        named = [(len(blend_fuel), chosen_blend)]
    if not named:
        if unit in _ELECTRIC_UNITS and _ELECTRIC_CUE.search(text):
            return find_activity("electricity_grid")
        return None
    longest = max(size for size, _ in named)
    chosen = next(a for size, a in named if size == longest)
    # "Diesel A para os tratores": the words name the fuel unblended, whatever names the use.
    unblended = (
        next((a for _, a in named if a.fuel == chosen.fuel and a.blend is None), None)
        if chosen.blend and blend_fuel is None
        else None
    )
    chosen = unblended or chosen
    use = next((u for u, cues in _USE_CUES.items() if any(c in text for c in cues)), None)
    if use is None or chosen.fuel is None or chosen.use in _USES[use]:
        return chosen
    # The same fuel burnt the way the words around it say ("diesel no gerador"), and the
    # same blend: pure diesel (B0) in a generator is not the pump's diesel B.
    same_fuel = [
        a
        for a in activities()
        if a.fuel == chosen.fuel and a.blend == chosen.blend and a.use in _USES[use]
    ]
    return min(same_fuel, key=lambda a: _USES[use].index(a.use)) if same_fuel else chosen


def _gas_after(question: str, position: int) -> ActivityInfo | None:
    """The direct emission of the gas named right after a mass ("500 kg of N2O"), or None."""
    found = _GAS_AFTER.match(question, position)
    if found is None:
        return None
    words = found["words"].split()
    folded = fold(" ".join(words))
    if folded.startswith(("co2e", "co2eq", "tco2")):
        return None  # "40.000 t CO2e": an amount already in CO2e, no gas
    if _BIOGENIC_CO2.match(folded):
        return None  # biogenic CO2 is reported apart, never counted × 1
    spans = [words[:size] for size in range(len(words), 0, -1)]
    if _UNBURNT.search(folded):
        # Fugitive natural gas is emitted unburnt (2006 IPCC Guidelines, vol. 2, ch. 4): the
        # gas its words end on ("... natural gas methane") is the mass, not a fuel burnt.
        spans += [words[start:] for start in range(1, len(words))]
    for span in spans:
        activity = find_gas(" ".join(span))
        if activity is not None:
            if activity.gas == "CO2" and not any(c in fold(question) for c in _CONVERSION_CUES):
                return None
            if activity.gas == "CH4" and ch4_origin_in(" ".join(span)) == "general":
                # The origin said elsewhere in the sentence ("... using AR6's value for
                # non-fossil methane") picks AR6's methane GWP all the same (table 7.15).
                origin = ch4_origin_in(question)
                if origin != "general":
                    return direct_gas("CH4", origin)
            return activity
    return None


_UNBURNT = re.compile(r"(?<![a-z])(?:fugitiv|vazad|vazament|leak|vent(?:ed|ing)\b|escap)")


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
    return answer_calculations([ask], lang, factors)


def answer_calculations(
    asks: list[CalculationAsk], lang: str, factors: FactorLibrary | None = None
) -> str:
    """Each computation in full, then, for several, the sum per scope: Scope 2 location-based
    only (the market-based figure needs the user's contracts), biogenic CO2 and Montreal gases
    apart, as the GHG Protocol reports them; a quantity that cannot be computed says why and
    stays out of the sums."""
    texts: list[str] = []
    results = []
    for ask in asks:
        try:
            result = estimate(
                ask.activity,
                ask.quantity,
                ask.unit,
                date_or_year=ask.year,
                gwp_set=ask.gwp_set,
                factors=factors,
                bio_share=ask.bio_share,
            )
        except LocalizedError as error:  # an unknown period or GWP set: said, never guessed
            texts.append(error.message(lang))
            continue
        results.append(result)
        texts.append(result.explain(lang))
    if len(asks) > 1 and len(results) > 1:
        texts.append(_sums(results, lang))
    return "\n\n".join(texts)


_TEXTS = Texts(
    "engine.offline.calculation",
    {
        "scope": {"pt": "Escopo {n}", "en": "Scope {n}"},
        "location": {"pt": " (localização)", "en": " (location-based)"},
        "sums": {
            "pt": "Soma das estimativas (GWP {gwp}): ",
            "en": "Sum of the estimates (GWP {gwp}): ",
        },
        "biogenic": {
            "pt": " CO2 biogênico, à parte e fora dos escopos: {t} t.",
            "en": " Biogenic CO2, apart and outside the scopes: {t} t.",
        },
    },
)


def _sums(results: list, lang: str) -> str:
    by_scope: dict[int, float] = {}
    for result in results:
        by_scope[result.scope] = by_scope.get(result.scope, 0.0) + result.tco2e
    gwp = results[0].gwp_set
    parts = [
        f"{_TEXTS('scope', lang, n=s)}{_TEXTS('location', lang) if s == 2 else ''}"
        f": {num(v, lang, digits=5)} t CO2e"
        for s, v in sorted(by_scope.items())
    ]
    total = sum(by_scope.values())
    line = _TEXTS("sums", lang, gwp=gwp) + "; ".join(parts)
    if len(by_scope) > 1:
        line += f"; total: {num(total, lang, digits=5)} t CO2e"
    line += "."
    biogenic = sum(r.biogenic_co2_t for r in results)
    if biogenic:
        line += _TEXTS("biogenic", lang, t=num(biogenic, lang))
    return line


def tool_arguments(ask: CalculationAsk) -> dict[str, object]:
    """The ``calcular_emissoes`` call that computes ``ask``."""
    return {
        "atividade": ask.activity,
        "quantidade": ask.quantity,
        "unidade": ask.unit,
        "data_ou_ano": ask.year,
        "conjunto_gwp": ask.gwp_set,
    } | ({} if ask.bio_share is None else {"teor_bio": round(ask.bio_share * 100, 4)})
