"""What a question asks for, from its words: the offline router's classifier."""

from __future__ import annotations

import re
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
        "substitu",
        "alternativ",
        "trocar",
        "troca ",
        "replace",
        "switch",
        "verde",
        "green",
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
)
_ORDER: tuple[Intent, ...] = ("plan", "green", "pollutants", "concept")
_WEIGHT: dict[Intent, int] = {"plan": 2}  # asking for a plan is asking for a plan


def _hits(text: str, cues: tuple[str, ...]) -> int:
    """Distinct cues found; one inside another ('refrigerant' in 'refrigerante') counts once."""
    found = [cue for cue in cues if cue in text]
    return sum(not any(cue != other and cue in other for other in found) for cue in found)


def classify(question: str) -> Intent:
    text = f" {fold(question)} "
    text = re.sub(r"\s+", " ", text)
    hits = {intent: _hits(text, cues) * _WEIGHT.get(intent, 1) for intent, cues in _CUES.items()}
    in_domain = any(cue in text for cue in _DOMAIN) or any(hits.values())
    if not in_domain:
        return "out_of_scope"
    best = max(_ORDER, key=lambda intent: (hits[intent], -_ORDER.index(intent)))
    return best if hits[best] else "concept"
