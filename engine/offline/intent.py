"""What a question asks for, from its words: the offline router's classifier.

Whether a question is about greenhouse gases at all is read from domain words (``_DOMAIN``).
Which of the four in-domain intents it has is ranked by BM25 (bm25s) against labelled
example utterances per intent and language (data/intents.toml): the intent whose closest
examples score highest wins, so a question in words no cue list foresaw still finds the
examples it resembles. The cue lists below decide when no example shares a term with the
question, and settle a close call (``_CLOSE``) between what BM25 and the cues say.

A question framed as a concept ("what is", "explain") is in the domain only when its subject
is: a domain word, or an entry of the knowledge base that answers it. What a standard or rule
requires, covers or allows is a concept, not a plan nor a comparison of gases; a question
that weighs nothing is not the pollutants analyst's, and one that asks for no option, or how
a source is counted, not the green analyst's.
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

from engine.knowledge.search import search as search_knowledge
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
    # The gases and the standards that name them, and the disclosure rules: "Which gases
    # does the Kyoto Protocol cover?", "What does CVM Resolution 193 require?".
    "greenhouse",
    "efeito estufa",
    "gwp",
    "kyoto",
    "quioto",
    "montreal",
    "cfc",
    "hcfc",
    "pfc",
    "nf3",
    "co2e",
    "cvm",
    "ifrs",
    "issb",
    "tcfd",
    "cdp",
    "pcaf",
    "sbti",
    "science based",
    "science-based",
    "baseadas na ciencia",
    "ghg protocol",
    "iso 14064",
    "sustainability disclosure",
    "divulgacao de sustentabilidade",
    "pegada",
    "footprint",
    # Removals are the other side of the inventory: "forest the company planted".
    "remocao",
    "remocoes",
    "removal",
    "sequestr",
    "reflorest",
    "reforest",
    "afforest",
    "florestamento",
    # The value chain's vocabulary names the inventory without naming a gas.
    "cadeia de valor",
    "value chain",
    "purchased goods",
    "bens e servicos",
    "leased asset",
    "ativos arrendados",
    "base year",
    "ano base",
    "ano-base",
    "fugitiv",
    "biomass",
    "biomassa",
    "biogen",
    "grid factor",
    "grid emission",
    "fator da rede",
    "fator do sin",
)
# A standard, law or initiative named in the question...
_STANDARD = re.compile(
    r"(?<![a-z0-9])(?:kyoto|quioto|montreal|ghg protocol|iso 14064|sbti|science[ -]based targets?"
    r"|metas baseadas na ciencia|cvm|ifrs|issb|tcfd|sbce|lei 15.042|law 15,042|cbam|renovabio"
    r"|programa brasileiro|brazilian (?:ghg )?program(?:me)?|pcaf|corporate standard|padrao "
    r"corporativo|scope 2 guidance|scope 3 standard|protocolo|protocol)(?![a-z0-9])"
)
# ... asked what it requires, covers or allows: a concept, not a plan ("What are the SBTi
# near-term target criteria?") nor a comparison of gases ("Which gases does Kyoto cover?").
_REQUIRES = re.compile(
    r"(?<![a-z])(?:exig[a-z]*|requer[a-z]*|requisit[a-z]*|criteri[a-z]*|abrang[a-z]*|cobre|"
    r"cobrem|inclui|incluem|preve|preveem|determin[a-z]*|estabelec[a-z]*|diz|dizem|permit[a-z]*|"
    r"obrig[a-z]*|regra[s]?|require[sd]?|requirements?|criteria|criterion|covers?|covered|"
    r"includes?|says?|allows?|permits?|mandat[a-z]*|demands?|stipulat[a-z]*|sets out|rules?|"
    r"oblig[a-z]*|ask[s]? for|must|need[s]?|required|when|quando|deve|devem|precisa[m]?|"
    r"expect[s]?|expected|espera[m]?|esperad[oa]s?)(?![a-z])"
)
# Asking for a plan in so many words still asks for a plan, whatever standard it names.
_MAKE = re.compile(
    r"(?<![a-z])(?:monte|crie|elabore|proponha|defina|sugira|faca um|faca uma|ajude-nos|"
    r"build|create|draw up|propose|suggest|design|help us)(?![a-z])"
)
# A question that states its own premise ("If we own 40% of a joint venture, how much of its
# emissions do we report?") asks how the rule applies, not for the inventory's weights.
_SUPPOSES = re.compile(
    r"(?<![a-z])(?:if (?:we|a|an|the|our|my|it|they)|suppose|supposing|imagine|assuming|"
    r"se (?:a|uma|o|um|nossa|nosso|tivermos|temos|possuirmos|formos)|caso|supondo|imagine)"
    r"(?![a-z])"
)
# The green analyst offers lower-carbon options; a question asking for none ("Can we net the
# removals of our forest from the total?") asks how the accounting works.
_OPTIONS = re.compile(
    r"(?<![a-z])(?:cort[a-z]*|cut[a-z]*|substitu[a-z]*|replac[a-z]*|troc[a-z]*|switch[a-z]*|"
    r"opc(?:ao|oes)|options?|descarboni[a-z]*|decarboni[a-z]*|baix[a-z]*|low[a-z]*|"
    r"alternativ[a-z]*|clean[a-z]*|limp[a-z]*|reduz[a-z]*|reduc[a-z]*|diminu[a-z]*|menos|less|"
    r"eletrific[a-z]*|electrif[a-z]*|evit[a-z]*|prevent[a-z]*|avoid[a-z]*|phase out|melhor|"
    r"better|mitig[a-z]*|efficien[a-z]*|eficien[a-z]*|medidas|measures|tecnologi[a-z]*|"
    r"technolog[a-z]*)(?![a-z])"
)
# How a source is counted, reported or claimed is the accounting's question, even when it
# names a lower-carbon source: "How is electricity from our own rooftop solar counted?".
_COUNTED = re.compile(
    r"(?<![a-z])(?:counted|count|reported|report|accounted|account for|treated|classified|"
    r"recorded|disclosed|handled|claim[a-z]*|contabiliz[a-z]*|relatad[a-z]*|reportad[a-z]*|"
    r"tratad[a-z]*|classificad[a-z]*|registrad[a-z]*|declarar|alegar|which scope|what scope|"
    r"qual escopo|que escopo|show up|shows up|appear[a-z]*|aparece[a-z]*|entra|entram|"
    # where an emission goes in the inventory is how it is counted
    r"go(?:es)? (?:in|into) (?:the |our |an? )?(?:inventory|report|total)|"
    r"(?:vai|fica|ficam|vao) (?:no|para o|pro) (?:inventario|relato|total))(?![a-z])"
)
# The pollutants analyst weighs gases and sources; a question weighing nothing ("Which gases
# must the inventory include?", "Can scope 3 categories be left out?") asks a concept.
_WEIGHS = re.compile(
    r"(?<![a-z])(?:pes[ao][a-z]*|weigh[a-z]*|heav[a-z]*|compar[a-z]*|quant[oa]s?|how much|how "
    r"many|maior(?:es)?|mais|most|larg[a-z]*|big[a-z]*|high[a-z]*|top|rank[a-z]*|pareto|"
    r"hotspots?|concentr[a-z]*|contribu[a-z]*|shares?|fatia|participac[a-z]*|represent[a-z]*|"
    r"account for|total|emit[a-z]*|emite[a-z]*|emitem|emitimos|responsible|responde|"
    r"critic[a-z]*|principa[a-z]*|main)(?![a-z])"
)
# Whether something is summed into a total ("e isso conta no total?", "Is it included in the
# total?") is the accounting's yes or no, not a weighing: unless it asks how much.
_INCLUDED = re.compile(
    r"(?<![a-z])(?:soma|somam|somad[oa]s?|entra|entram|inclu[a-z]*|"
    r"conta|contam|count|counts|counted|add|adds|added|included) (?:no|ao|na|nos|in|into|to|"
    r"towards?|toward) (?:o |the )?(?:total|totais)(?![a-z])"
)
_HOW_MUCH = re.compile(r"(?<![a-z])(?:quant[oa]s?|how much|how many)(?![a-z])")
_OURS = re.compile(r"(?<![a-z])(?:nosso|nossa|nossos|nossas|our|we)(?![a-z])")
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
# The concept cues that only frame a question; every other cue names the domain.
_FRAMES = ("o que e", "o que sao", "what is", "what s ", "what are", "defin", "diferenca",
           "difference", "conceito", "concept", "explique", "explain", "significa", "mean",
           "como funciona", "how does")  # fmt: skip
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


def _in_the_base(question: str) -> bool:
    """Whether the knowledge base answers the question: "Does buying cattle from ranches count
    as purchased goods?" names no gas, yet an entry answers it. The base judges a weak match
    itself; one word in common ("the meaning of life", "end of life") is no subject unless it
    is an entry's keyword whole ("PPA")."""
    found = search_knowledge(question, detect_language(question))
    return not found.weak and (found.matched >= 2 or found.named)


# Words for planning anything at all, as opposed to the plan cues of reducing (targets,
# actions, priorities, "reduce by").
_ANY_PLAN = frozenset({"plano", "plan ", "roadmap", "cronograma", "estrategia", "strategy"})
_COMPANY = re.compile(
    r"(?<![a-z])(?:nos|nosso|nossa|nossos|nossas|devemos|podemos|our|we|us|empresa|company|"
    r"companhia|negocio|business|organizac\w*|organi[sz]ation)(?![a-z])"
)


def classify(question: str) -> Intent:
    text = _PERSONA.sub(" ", _words(question))
    named = [name for name in _INSTRUMENTS if name in text]
    for name in named:
        text = text.replace(name, " ")
    hits = {intent: _hits(text, cues) * _WEIGHT.get(intent, 1) for intent, cues in _CUES.items()}
    hits["concept"] += len(named)
    # "What is" or "explain" frames any question: they do not make one about emissions.
    subjects = dict(hits, concept=max(0, hits["concept"] - _hits(text, _FRAMES)))
    # Planning words ("plan", "strategy", "targets") fit a holiday as well: they place a
    # question in the domain beside a subject of it, or when the plan is the company's (the
    # one an emissions analyst is asked about).
    in_domain = (
        any(_found(text, cue) for cue in _DOMAIN)
        or any(value for intent, value in subjects.items() if intent != "plan")
        or any(_found(text, cue) for cue in _CUES["plan"] if cue not in _ANY_PLAN)
        or (subjects["plan"] > 0 and _COMPANY.search(text) is not None)
    )
    if not in_domain and not _in_the_base(question):
        return "out_of_scope"
    by_cues = max(_ORDER, key=lambda intent: (hits[intent], -_ORDER.index(intent)))
    by_cues = by_cues if hits[by_cues] else "concept"
    if named:  # a named instrument ("monitoring plan") is a subject, whatever its words
        return by_cues
    if _STANDARD.search(text) and _REQUIRES.search(text) and not _MAKE.search(text):
        return "concept"  # what a standard or rule requires, covers or allows
    scores = ranked(" ".join(text.split()))
    best = max(_RANKED, key=lambda intent: scores[intent])
    # With no cue in the question a close call goes to "concept", the cues' default, unless
    # the examples' best is the green analyst and the question asks for options ("which
    # options are there for the kiln?"): that is what the green analyst is for.
    asks_options = best == "green" and _OPTIONS.search(text) is not None
    if scores[best] <= 0 or (
        not (asks_options and not hits[by_cues])
        and by_cues != best
        and scores[by_cues] >= _CLOSE * scores[best]
    ):
        best = by_cues
    if best == "pollutants":
        weighs = _WEIGHS.search(text) is not None
        # "Our" asks for the user's weights unless it asks how something is counted.
        ours = _OURS.search(text) is not None and _COUNTED.search(text) is None
        included = _INCLUDED.search(text) is not None and _HOW_MUCH.search(text) is None
        if not (weighs or ours) or _SUPPOSES.search(text) or included:
            return "concept"
    if (
        best == "green"
        and not _OPTIONS.search(text)
        and (not hits["green"] or _COUNTED.search(text))
    ):
        return "concept"  # "How is our rooftop solar counted?" asks for no alternative
    return best
