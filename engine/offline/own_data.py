"""Questions about the user's own figures, answered from the inventory attached to the chat.

The analyst asks the inventory tool (``consultar_inventario``) the question's query, so the
trail shows it and the answer's sources list it; the answer is written from the same query
result (``engine.inventory.query``), so each number it states is one the tool returned or
one the attached inventory's digest shows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.formatting import number, percent
from engine.inventory.fields import category_en, category_of
from engine.inventory.gwp import canonical_gas
from engine.inventory.notice import Reading
from engine.inventory.query import NOT_GIVEN, Field, query
from engine.offline.language import Language
from engine.protocol import fold

if TYPE_CHECKING:
    from engine.inventory import Inventory

_SCOPE = re.compile(r"\b(?:escopo|scope)s?\s*([123])\b")
_FUGITIVE = ("vazament", "leak", "fugitiv", "refrigerant")
_PROCESS = ("descarbonat", "decarbonat", "calcinac", "calcination", "carbonato", "carbonate")
# The breakdown a question asks for, first match wins.
_DIMENSIONS: tuple[tuple[Field, tuple[str, ...]], ...] = (
    ("fuel", ("combustive", "fuel", "insumo")),
    ("facility", ("unidade", "fabrica", "planta", "site", "facility", "plant", "filial")),
    ("source", ("fonte", "source", "equipamento", "equipment", "maior emissor",
                "largest emitter", "emite mais", "emits most", "mais emite")),
    ("category", ("categoria", "category", "categories")),
    ("year", ("por ano", "evolu", "year over year", "each year", "per year", "ano a ano")),
    ("gas", ("gases", "poluente", "pollutant")),
)  # fmt: skip
_BIOGENIC = ("biogenic", "biogenico")
_WORDS = {
    "pt": {"scope": "Escopo", "gas": "gás", "facility": "unidade", "category": "categoria",
           "fuel": "combustível ou insumo", "year": "ano", "source": "fonte",
           "scopes": "escopo", "total": "Total do inventário", "of_total": "do total de",
           "by": "Por", "year_of": "Ano do inventário", "not_given": NOT_GIVEN,
           "biogenic": "CO2 biogênico, relatado à parte e fora do total",
           "none": "Nenhuma linha do inventário anexado atende a esse filtro.",
           "location": "Escopo 2 pelo método de localização (location-based, fator médio do "
                       "SIN)",
           "market": "pelo método de escolha de compra (market-based)",
           "no_market": "o inventário não traz o método de escolha de compra (market-based); "
                        "os dois métodos são relatados lado a lado, nunca somados"},
    "en": {"scope": "Scope", "gas": "gas", "facility": "facility", "category": "category",
           "fuel": "fuel or input", "year": "year", "source": "source", "scopes": "scope",
           "total": "Inventory total", "of_total": "of the total of", "by": "By",
           "year_of": "Inventory year", "not_given": "(not given)",
           "biogenic": "Biogenic CO2, reported apart and outside the total",
           "none": "No row of the attached inventory matches that filter.",
           "location": "Scope 2 by the location-based method (Brazilian grid average)",
           "market": "by the market-based method",
           "no_market": "the inventory has no market-based figure; the two methods are "
                        "reported side by side, never added up"},
}  # fmt: skip


@dataclass(frozen=True)
class Ask:
    """What a question asks of the inventory: filters, a breakdown, the gases it names."""

    group_by: Field
    filters: dict[str, str] = field(default_factory=dict)
    gases: tuple[str, ...] = ()
    biogenic: bool = False

    def tool_arguments(self) -> dict[str, Any]:
        return {"group_by": self.group_by, "top_n": 10, **self.filters}


def read_ask(question: str) -> Ask:
    text = f" {fold(question)} "
    filters: dict[str, str] = {}
    scope = _SCOPE.search(text)
    category = category_of(question)
    if any(cue in text for cue in _FUGITIVE):
        category = ("1", "Emissões fugitivas")
    elif any(cue in text for cue in _PROCESS):
        category = ("1", "Processos industriais")
    if category is not None and not scope:
        filters["category"] = category[1]
    if scope:
        filters["scope"] = scope.group(1)
    named = [g for w in re.findall(r"[\w\-]+", question) if (g := canonical_gas(w)) != "CO2"]
    if "oxido nitroso" in text or "nitrous oxide" in text:
        named.append("N2O")
    gases = tuple(dict.fromkeys(g for g in named if g))
    biogenic = any(cue in text for cue in _BIOGENIC)
    dimension = next((f for f, cues in _DIMENSIONS if any(cue in text for cue in cues)), None)
    if dimension is None:
        if gases or ("category" in filters and category and category[1] == "Emissões fugitivas"):
            dimension = "gas"
        elif "category" in filters:
            dimension = "fuel" if category and category[1] != "Emissões fugitivas" else "source"
        elif scope:
            dimension = "category"
        else:
            dimension = "scope"
    return Ask(group_by=dimension, filters=filters, gases=gases, biogenic=biogenic)


def inventory_query(question: str) -> dict[str, Any]:
    """The inventory tool's arguments for a question about the user's own figures."""
    return read_ask(question).tool_arguments()


def own_data_answer(question: str, inventory: Inventory, lang: Language) -> str:
    """The answer from the query's result; an inventory that is not reconciled is said to
    be so, naming its sheets, before any figure."""
    notice = Reading.of(inventory).notice(lang)
    lines = [notice] if notice else []
    words = _WORDS[lang]
    ask = read_ask(question)
    args = ask.tool_arguments()
    result = query(inventory, group_by=ask.group_by, top_n=args["top_n"], filters=ask.filters)
    if result.rows.empty:
        return "\n".join([*lines, words["none"]])
    whole = number(inventory.total_tco2e, lang=lang)
    subject = _subject(ask, lang)
    if subject:
        share = result.total / inventory.total_tco2e if inventory.total_tco2e else 0.0
        lines.append(
            f"{subject}: {number(result.total, lang=lang)} t CO2e ({percent(share, lang=lang)} "
            f"{words['of_total']} {whole} t CO2e, GWP {inventory.gwp_set})."
        )
    else:
        lines.append(f"{words['total']}: {whole} t CO2e (GWP {inventory.gwp_set}).")
    if result.year:
        lines.append(f"{words['year_of']}: {result.year}.")
    if ask.biogenic:
        biogenic = number(inventory.biogenic_co2_t, lang=lang)
        lines.append(f"{words['biogenic']}: {biogenic} t CO2.")
    groups = result.groups or []
    if ask.gases and ask.group_by == "gas":
        groups = [(gas, t) for gas, t in groups if canonical_gas(gas) in ask.gases] or groups
    listed = "; ".join(
        f"{_value(ask.group_by, value, lang)}: {number(t, lang=lang)} t CO2e "
        f"({percent(t / result.total, lang=lang) if result.total else '—'})"
        for value, t in groups[:5]
    )
    if listed and not (ask.biogenic and not ask.filters):
        heading = words["scopes" if ask.group_by == "scope" else ask.group_by]
        lines.append(f"{words['by']} {heading}: {listed}.")
    if ask.filters.get("scope") == "2" or ask.filters.get("category") == "Eletricidade":
        lines.append(_scope2_methods(inventory, lang))
    note = _NOTES[lang].get(ask.filters.get("category", ""))
    if note:
        lines.append(note)
    return "\n".join(lines)


# What a category's figure means, so a lookup also says how it is counted.
_NOTES = {
    "pt": {"Processos industriais": "São emissões de processo, fora da combustão: o CO2 "
           "liberado na descarbonatação (calcinação) de carbonatos como calcita e dolomita, "
           "relatado no escopo 1.",
           "Emissões fugitivas": "São vazamentos de gases (refrigerantes HFC e SF6 de "
           "equipamentos elétricos), relatados no escopo 1; gases do Protocolo de Montreal, "
           "como o R-22, ficam fora do total."},
    "en": {"Processos industriais": "These are process emissions, not combustion: the CO2 "
           "released when carbonates such as calcite and dolomite are decarbonated "
           "(calcination), reported in scope 1.",
           "Emissões fugitivas": "These are gas leaks (HFC refrigerants and SF6 from electrical "
           "equipment), reported in scope 1; Montreal Protocol gases such as R-22 stay out of "
           "the total."},
}  # fmt: skip


def _subject(ask: Ask, lang: Language) -> str:
    if "scope" in ask.filters:
        return f"{_WORDS[lang]['scope']} {ask.filters['scope']}"
    if "category" in ask.filters:
        name = ask.filters["category"]
        return category_en(name) if lang == "en" else name
    return ""


def _scope2_methods(inventory: Inventory, lang: Language) -> str:
    words = _WORDS[lang]
    location = number(inventory.scope2_location_tco2e or 0.0, lang=lang)
    market = inventory.scope2_market_tco2e
    tail = f"{words['market']}: {number(market, lang=lang)} t CO2e" if market else ""
    return f"{words['location']}: {location} t CO2e; {tail or words['no_market']}."


def _value(dimension: str, value: str, lang: Language) -> str:
    if value == NOT_GIVEN:
        return _WORDS[lang]["not_given"]
    if dimension == "scope":
        return f"{_WORDS[lang]['scope']} {value}"
    if dimension == "category" and lang == "en":
        return category_en(value)
    return value


# Whose figures: the user's own, in the first person, or "the company's". One list for the
# chat with an inventory attached (a lookup in it) and without (an honest "load it first").
OWN_DATA = re.compile(
    r"(?<![a-z])(?:nosso|nossa|nossos|nossas|meu|minha|meus|minhas|our|my|we|us|emitimos|"
    r"consumimos|da empresa|the company|inventario anexado|attached inventory|este inventario|"
    r"this inventory)(?![a-z])"
)
# Asking what to do about the figures is a plan or an alternatives question, not a lookup.
_ADVICE = re.compile(
    r"\b(?:substitu|alternativ|reduzir|reduce|replace|switch|troca|plano|plan\b|plans\b|"
    r"metas?\b|target|como podemos|how can|should we|devemos|recomend|recommend|sbce|"
    r"15\.?042)"
)


def asks_about_attached(question: str) -> bool:
    """A lookup in the user's own figures ("how many tonnes did our boilers release?"), which the
    attached inventory answers; advice about them goes to the analysts that give advice."""
    text = " ".join(re.sub(r"[^a-z0-9.]+", " ", fold(question)).split())
    return OWN_DATA.search(text) is not None and not _ADVICE.search(text)
