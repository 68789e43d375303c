"""What a question asks for, from its words: the offline router's classifier.

Whether a question is about greenhouse gases at all is read from domain words (``_DOMAIN``).
Which of the four in-domain intents it has is ranked by BM25 (bm25s) against labelled
example utterances per intent and language (data/intents.toml): the intent whose closest
examples score highest wins, so a question in words no cue list foresaw still finds the
examples it resembles. The cue lists below decide when no example shares a term with the
question, and settle a close call (``_CLOSE``) between what BM25 and the cues say.
"""

from __future__ import annotations

import re
import threading
import tomllib
from functools import cache
from importlib import resources
from itertools import pairwise
from typing import Literal

import bm25s
import Stemmer

from engine.offline.language import Language, detect_language
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


# --- ranking by example utterances ----------------------------------------------------------

_RANKED: tuple[Intent, ...] = ("concept", "pollutants", "green", "plan")
_STEMMERS = {"pt": "portuguese", "en": "english"}
_NEAREST = 5  # an intent scores by its closest examples: one lucky example is not enough
_local = threading.local()  # a Snowball stemmer is not safe to share between threads
_building = threading.Lock()


@cache
def examples() -> dict[Intent, dict[Language, tuple[str, ...]]]:
    """The labelled utterances of data/intents.toml, by intent and language."""
    path = resources.files("engine.offline").joinpath("data", "intents.toml")
    with path.open("rb") as handle:
        raw = tomllib.load(handle)
    return {intent: {lang: tuple(raw[intent][lang]) for lang in ("pt", "en")}
            for intent in _RANKED}  # fmt: skip


def _stem(word: str, lang: Language) -> str:
    stemmers = getattr(_local, "stemmers", None)
    if stemmers is None:
        stemmers = _local.stemmers = {}
    if lang not in stemmers:
        stemmers[lang] = Stemmer.Stemmer(_STEMMERS[lang])
    return stemmers[lang].stemWord(word)


def utterance_terms(text: str, lang: Language) -> list[str]:
    """Stems and the pairs of neighbouring stems: "o que" or "how to" tell the intent as much
    as the nouns, so function words stay (BM25's IDF weighs down the ones every intent has)."""
    stems = [_stem(word, lang) for word in re.findall(r"[a-z0-9][a-z0-9-]*", fold(text))]
    return stems + [f"{a}_{b}" for a, b in pairwise(stems)]


_indexes: dict[str, tuple[bm25s.BM25, tuple[Intent, ...]]] = {}


def _index(lang: Language) -> tuple[bm25s.BM25, tuple[Intent, ...]]:
    found = _indexes.get(lang)
    if found is None:
        with _building:
            found = _indexes.get(lang)
            if found is None:
                labels, corpus = [], []
                for intent, by_lang in examples().items():
                    for utterance in by_lang[lang]:
                        labels.append(intent)
                        corpus.append(utterance_terms(utterance, lang))
                index = bm25s.BM25()
                index.index(corpus, show_progress=False)
                found = _indexes[lang] = (index, tuple(labels))
    return found


def ranked(question: str, lang: Language | None = None) -> dict[Intent, float]:
    """Each in-domain intent's score: the mean BM25 score of its closest examples."""
    lang = lang or detect_language(question)
    index, labels = _index(lang)
    query = [t for t in dict.fromkeys(utterance_terms(question, lang)) if t in index.vocab_dict]
    if not query:
        return dict.fromkeys(_RANKED, 0.0)
    scores = index.get_scores(query)
    by_intent: dict[Intent, list[float]] = {intent: [] for intent in _RANKED}
    for label, score in zip(labels, scores, strict=True):
        by_intent[label].append(float(score))
    return {intent: sum(sorted(values, reverse=True)[:_NEAREST]) / _NEAREST
            for intent, values in by_intent.items()}  # fmt: skip


# Under this share of the winner's score, the runner-up lost; above it, the cues decide
# between the two. Calibrated on the routing of tests/eval/questions.toml (0.5–1.0 and 1–5
# nearest examples tried; the held-out set agrees).
_CLOSE = 0.7


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
    by_cues = max(_ORDER, key=lambda intent: (hits[intent], -_ORDER.index(intent)))
    by_cues = by_cues if hits[by_cues] else "concept"
    if named:  # a named instrument ("monitoring plan") is a subject, whatever its words
        return by_cues
    scores = ranked(" ".join(text.split()))
    best = max(_RANKED, key=lambda intent: scores[intent])
    if scores[best] <= 0:
        return by_cues
    if by_cues != best and scores[by_cues] >= _CLOSE * scores[best]:
        return by_cues
    return best
