"""What a question asks for, from its words: the offline router's classifier."""

from __future__ import annotations

import re
from functools import cache
from typing import Literal

from engine.protocol import fold

Intent = Literal["concept", "pollutants", "green", "plan", "out_of_scope"]

# Folded stems, Portuguese and English. The first intent with the most hits wins; ties go
# to the more specific one (plan > green > pollutants > concept).
_CUES: dict[Intent, tuple[str, ...]] = {
    "plan": (
        "plano",
        "plan ",
        "metas",
        "meta de",
        "target",
        "roadmap",
        "priorizar",
        "prioridade",
        "prioritiz",
        "acao",
        "acoes",
        "action",
        "reduzir em",
        "reduce by",
        "cronograma",
        "melhoria",
        "improvement",
        "estrategia",
        "strategy",
        "descarboniz",
        "decarboni",
    ),
    "green": (
        # Asking how to cut a source's emissions is asking for options; "reduce X by 20%"
        # stays a plan (its cue weighs double).
        "como reduzir",
        "reduzir as emissoes",
        "how to reduce",
        "how can we reduce",
        "how do we reduce",
        "how can i reduce",
        "reduce emissions",
        "cut emissions",
        "mitig",
        "substitu",
        "alternativ",
        "trocar",
        "troca ",
        "replace",
        "switch",
        "verde",
        "green ",  # a whole word: "greenhouse gases" asks for no alternative
        "greener",
        "renovav",
        "renewable",
        "biometano",
        "biomethane",
        "hvo",
        "biodiesel",
        "etanol",
        "ethanol",
        "eletrific",
        "electrif",
        "solar",
        "refrigerante",
        "refrigerant",
        "r-1234",
        "r-744",
        "r-290",
        "r-32",
        "menor impacto",
        "lower carbon",
        "low carbon",
        "limp",
    ),
    "pollutants": (
        "quais gases",
        "which gases",
        "que gases",
        "pesa",
        "pesam",
        "weigh",
        "maior fonte",
        "maiores fontes",
        "biggest",
        "largest",
        "main source",
        "principais fontes",
        "poluent",
        "pollutant",
        "contribu",
        "responde por",
        "quanto emit",
        "emite mais",
        "emitem mais",
        "mais emite",
        "emits most",
        "emits the most",
        "emit the most",
        "emitimos",
        "we emit",
        "how much",
        "quanto pesa",
        "ranking",
        "pareto",
        "hotspot",
        "concentr",
    ),
    "concept": (
        "o que e",
        "o que sao",
        "what is",
        "what s ",
        "what are",
        "defin",
        "diferenca",
        "difference",
        "conceito",
        "concept",
        "explique",
        "explain",
        "significa",
        "mean",
        "como funciona",
        "how does",
        "escopo",
        "scope",
        "gwp",
        "potencial de aquecimento",
        "global warming",
        "biogenic",
        "biogenico",
        "ano base",
        "base year",
        "recalcul",
        "programa brasileiro",
        "registro publico",
        "public registry",
        "fator de emissao",
        "emission factor",
        "ipcc",
        "ar4",
        "ar5",
        "ar6",
        "market-based",
        "location-based",
        "categoria",
        "category",
        "ghg protocol",
        "iso 14064",
        "verificacao",
        "verification",
    ),
}
_DOMAIN = (
    "emiss",
    "emit",
    "gee",
    "ghg",
    "co2",
    "carbon",
    "carbono",
    "ch4",
    "n2o",
    "sf6",
    "hfc",
    "metano",
    "methane",
    "clima",
    "climate",
    "inventar",
    "inventory",
    "escopo",
    "scope",
    "esg",
    "sustentab",
    "sustainab",
    "combust",
    "fuel",
    "energia",
    "energy",
    "eletric",
    "electric",
    "diesel",
    "gas natural",
    "natural gas",
    "glp",
    "lpg",
    "frota",
    "fleet",
    "refriger",
    "aquecimento",
    "warming",
    "descarbon",
    "decarbon",
    "neutral",
    "net zero",
    "credito",
    "offset",
    "compensa",
    "tco2",
    # Carbon-market and reporting instruments are the domain even in a question that names
    # no gas: "Do CBIOs count in the SBCE?"
    "sbce",
    "cbe",
    "crve",
    "cbam",
    "cbio",
    "renovabio",
    "i-rec",
    "irec",
    "mercado de carbono",
    "carbon market",
    "allowance",
    "ipcc",
    "mcti",
)
# Named instruments whose name holds a plan word: a question about them asks what they are,
# not for a plan ("What does the monitoring plan have to contain?").
_INSTRUMENTS = (
    "plano nacional de alocacao",
    "national allocation plan",
    "plano de monitoramento",
    "monitoring plan",
    "plano clima",
    "plano abc",
)
# How a message names the assistant itself ("forget you are an ESG assistant"): that names
# the assistant's domain, not the question's, so it cannot make a question in scope.
_PERSONA = re.compile(
    r"(?<![a-z0-9])(?:(?:assistente|chatbot|bot|consultor|consultora|especialista)"
    r"(?: virtual)? (?:de|em|of|for|on) (?:[a-z0-9-]+ e )?[a-z0-9-]+"
    r"|[a-z0-9-]+ (?:assistant|chatbot|bot|consultant|specialist))(?![a-z0-9])"
)
_ORDER: tuple[Intent, ...] = ("plan", "green", "pollutants", "concept")
_WEIGHT: dict[Intent, int] = {"plan": 2}  # asking for a plan is asking for a plan


@cache
def _pattern(cue: str) -> re.Pattern[str]:
    # A cue starts a word and may end inside one (a stem): "acao" must not fire inside
    # "localizacao", nor "gee" inside "agreement"; a trailing space asks for the whole word.
    return re.compile(r"(?<![a-z0-9])" + re.escape(cue))


def _found(text: str, cue: str) -> bool:
    return _pattern(cue).search(text) is not None


def _hits(text: str, cues: tuple[str, ...]) -> int:
    """Distinct cues found; one inside another ('refrigerant' in 'refrigerante') counts once."""
    found = [cue for cue in cues if _found(text, cue)]
    return sum(not any(cue != other and cue in other for other in found) for cue in found)


def _words(question: str) -> str:
    """Folded words between single spaces; punctuation is a space, so "plan?" ends a word like
    "plan " does. Hyphens stay ("r-410a", "market-based"), and dots inside a number."""
    text = re.sub(r"[^a-z0-9.\-]+|(?<!\d)\.|\.(?!\d)", " ", fold(question))
    return " " + " ".join(text.split()) + " "


def classify(question: str) -> Intent:
    text = _PERSONA.sub(" ", _words(question))
    named = [name for name in _INSTRUMENTS if name in text]
    for name in named:
        text = text.replace(name, " ")
    hits = {intent: _hits(text, cues) * _WEIGHT.get(intent, 1) for intent, cues in _CUES.items()}
    hits["concept"] += len(named)
    in_domain = any(_found(text, cue) for cue in _DOMAIN) or any(hits.values())
    if not in_domain:
        return "out_of_scope"
    best = max(_ORDER, key=lambda intent: (hits[intent], -_ORDER.index(intent)))
    return best if hits[best] else "concept"
