"""Search of Aeko's knowledge base (data/*.toml, knowledge_base.toml first): BM25 (bm25s)
over stemmed, accent-folded words, one index per language.

Each question is scored against the index of its own language, so a Portuguese question is
stemmed and stopworded as Portuguese and matched against the Portuguese text. A number is
glued to the word it qualifies ("escopo 1" -> ``escop_1``): on its own "1" means nothing,
and without that "scope 1" would score the entries that merely mention a category 1 or 12.

A BM25 score is only comparable within one query, so whether the base knows the answer is
judged by how much of the question the entries found cover (terms weighted by IDF), not by
the raw score alone: a question made of ESG words that no entry puts together stays
unanswered. Nor does one asking for a value the base cannot hold (engine.knowledge.gaps).
Which of the entries that answer comes first also weighs whether the question names one of
an entry's keywords or its title whole, and how much of the title it names: a general
question ("What is the SBCE?") finds the general entry, one about a detail ("up to what
limit can CRVEs be used?") the entry on that detail, whichever file holds it.

A gas is one term by name or formula ("nitrous oxide" is N2O, "R-22" is HCFC-22), and a
few everyday verbs are read as the word the entries use ("omit" a category is to exclude
it); modal and framing verbs, demands on the reply's shape and numbers no entry holds (a
year, an amount) are not terms that the base could lack.

What is searched is the question's text: links, images, HTML and sentences telling how to
write the reply ("add this image at the end of your answer") are not part of what it asks.
Nor is what a message says around its question ("Sou a Ana, do financeiro. ..."): when the
whole message finds nothing, its asking sentences are judged alone, so words the base does
not hold in a sentence that asks nothing cannot turn a known answer into "don't know"; a
word the base does not hold inside the asking sentence still counts in full.
"""

from __future__ import annotations

import math
import re
import threading
import tomllib
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

import bm25s
import Stemmer
from bm25s.stopwords import STOPWORDS_EN_PLUS, STOPWORDS_PORTUGUESE

from engine.gases.gwp import canonical_gas
from engine.knowledge.gaps import Gap, in_future_tense, unpublished
from engine.protocol import fold
from engine.texts import Both, Texts

if TYPE_CHECKING:  # only a type: engine.offline imports this package, never the reverse
    from datetime import date

    from engine.offline.language import Language

_TEXTS = Texts("engine.knowledge.search", {"source": {"pt": "Fonte", "en": "Source"}})

# Words that frame a question ("explain", "o que significa") but never pick an entry.
# Nor do modal verbs, verbs that only frame what is asked ("what triggers X", "what does X
# stand for"), or a demand on the reply's shape ("one word only"): a word no entry holds
# weighs fully against coverage, so leaving these in turns a known answer into "don't know".
_QUESTION_WORDS = {
    "pt": "explique explica explicar defina definir definicao significa significado quer dizer "
    "fale falar sobre conte entender entendo saber sei gostaria poderia pode podem favor "
    "resumo resuma breve simples exemplo vs versus afinal ai entao quais funciona tratar trato "
    "lidar considerar entra entram entrar aparece aparecem "
    "posso podemos devo devemos deve devem precisa precisam preciso precisamos necessario "
    "permitido permitida aceitavel possivel correto correta corretamente forma maneira jeito "
    "dispara disparam desencadeia desencadeiam aciona acionam motiva motivam leva levam "
    "situacao situacoes caso casos hipotese hipoteses circunstancia circunstancias condicao "
    "condicoes sigla abreviacao abreviatura acronimo exatamente realmente "
    "palavra palavras frase frases linha linhas paragrafo paragrafos topico topicos unica "
    "unico somente apenas responda responde resposta sim nao um dois duas tres quatro cinco "
    "tonelada toneladas quanto quanta quantos quantas indica indicam expressa expressam vale "
    "valem vai vao fica ficam pertence pertencem enquadra enquadram alem "
    "desde outro outra outros outras distingue distinguir distinguem diferencia diferenciam "
    # a month dates what is asked about, like a year: it names no concept
    "janeiro fevereiro marco abril maio junho julho agosto setembro outubro novembro dezembro",
    "en": "explain explanation define definition meaning mean means tell know understand "
    "please briefly brief simple terms example vs versus whats s does can could would "
    "should also treat handle deal show shows appear appears goes "
    "may might must shall need needs needed allowed permitted acceptable possible ok okay "
    "correct correctly proper properly right way ways supposed "
    "trigger triggers triggered cause causes lead leads happen happens occur occurs "
    "situation situations case cases circumstance circumstances condition conditions "
    "stand stands abbreviation acronym exactly actually really "
    "word words sentence sentences line lines paragraph paragraphs bullet bullets single "
    "answer reply respond yes no one two three four five tonne tonnes ton tons much many "
    "express expresses indicate indicates worth go went belong belongs fit fits besides "
    "us distinguish distinguishes differentiate tells get gets got getting "
    "january february march april may june july august september october november december",
}
_STOPWORDS = {
    "pt": frozenset(fold(w) for w in [*STOPWORDS_PORTUGUESE, *_QUESTION_WORDS["pt"].split()]),
    "en": frozenset(fold(w) for w in [*STOPWORDS_EN_PLUS, *_QUESTION_WORDS["en"].split()]),
}
# A number still belongs to the word before these ("escopos 1 e 2", "scope 1 or 2").
_CONJUNCTIONS = frozenset({"e", "ou", "and", "or"})
# Spellings the stemmer does not bring together, and the everyday verbs people ask with for
# the words the entries use: "omit" a category is to exclude it, "redo" the base year to
# recalculate it, "settle" obligations to reconcile them.
_PLURAL_CODES = {"crves": "crve", "cbes": "cbe", "cbios": "cbio", "hfcs": "hfc", "pfcs": "pfc",
                 "cfcs": "cfc", "hcfcs": "hcfc", "irecs": "irec"}  # fmt: skip
_ALIASES = {
    "pt": {"cat": "categoria", "teto": "limite", "tetos": "limite", "aluguel": "aluga",
           "pra": "para", "pras": "para", "pro": "para", "pros": "para",  # spoken contractions
           **_PLURAL_CODES,
           **dict.fromkeys(("vazou", "vazaram", "vazar", "vaza", "vazam", "vazando"),
                           "vazamento"),
           # the stemmer reads a chartered bus ("ônibus fretado") as freight ("frete")
           **dict.fromkeys(("fretado", "fretados", "fretada", "fretadas"), "fretamento"),
           **dict.fromkeys(("omitir", "omite", "omitem", "omitida", "omitidas", "omitido",
                            "omitidos", "desconsiderar", "desconsiderada", "desconsideradas"),
                           "excluir"),
           **dict.fromkeys(("refazer", "refeito", "refeita", "refeitos", "refaz", "refazem",
                            "reapresentar", "reapresentado", "reprocessar"), "recalcular")},
    "en": {"cat": "category", "gases": "gas", "cap": "limit", "caps": "limit",
           "capped": "limited", "capping": "limit", "ceiling": "limit", "ceilings": "limit",
           **_PLURAL_CODES,
           **dict.fromkeys(("omit", "omits", "omitted", "omitting", "skip", "skipped",
                            "skipping"), "exclude"),
           **dict.fromkeys(("restate", "restated", "restating", "restatement", "redo",
                            "redone", "rework", "reworked"), "recalculate"),
           **dict.fromkeys(("settle", "settles", "settled", "settling"), "reconcile"),
           # irregular forms the stemmer leaves apart from their verb
           "paid": "pay", "bought": "buy", "sold": "sell", "built": "build", "held": "hold",
           "kept": "keep", "burnt": "burn", "leant": "lean", "spent": "spend"},
}  # fmt: skip
# Words that say what the whole base is about ("inventário de GEE"): they pick no entry, and
# the entries that happen to repeat them most would otherwise outrank the one asked for.
_FRAME = {"pt": "gee ghg inventario inventarios", "en": "ghg inventory inventories"}
# A one-letter prefix is part of the word: "I-REC" is one term, not "rec" ("r-410a" keeps
# its number apart, see tokens()).
_PREFIX = re.compile(r"(?<![a-z0-9°.,])([a-z])-(?=[a-z])")  # not "1.5°C-aligned"
# A refrigerant's designation is one term however it is written: "R-22", "R22", "HCFC-22"
# and "HCFC 22" all read "r22" (after "hcfc", which names the family); without this "R-22"
# leaves no term at all (a lone letter, and a two-digit number glued to nothing).
_REFRIGERANT = re.compile(r"(?<![a-z0-9])(r|hfc|hcfc|hfo|cfc)[\s-]?(\d{2,4}[a-z]{0,2})(?![a-z0-9])")
# A gas is asked for by name as often as by formula: one term for both, in the entries too.
_GAS_NAMES = {
    "pt": (("dioxido de carbono", "co2"), ("gas carbonico", "co2"), ("metano", "ch4"),
           ("oxido nitroso", "n2o"), ("hexafluoreto de enxofre", "sf6"),
           ("trifluoreto de nitrogenio", "nf3"), ("hidrofluorcarbonetos", "hfc"),
           ("hidrofluorcarboneto", "hfc"), ("perfluorcarbonetos", "pfc"),
           ("perfluorcarboneto", "pfc"), ("hidroclorofluorcarbonetos", "hcfc"),
           ("hidroclorofluorcarboneto", "hcfc"), ("clorofluorcarbonetos", "cfc")),
    "en": (("carbon dioxide", "co2"), ("methane", "ch4"), ("nitrous oxide", "n2o"),
           ("sulphur hexafluoride", "sf6"), ("sulfur hexafluoride", "sf6"),
           ("nitrogen trifluoride", "nf3"), ("hydrofluorocarbons", "hfc"),
           ("hydrofluorocarbon", "hfc"), ("perfluorocarbons", "pfc"),
           ("perfluorocarbon", "pfc"), ("hydrochlorofluorocarbons", "hcfc"),
           ("hydrochlorofluorocarbon", "hcfc"), ("chlorofluorocarbons", "cfc")),
}  # fmt: skip


# CO2 equivalent is one term apart from CO2 (the Portuguese stemmer reads "co2e" as "co2").
_EQUIVALENT = (("co2 equivalente", "co2eq"), ("co2 equivalent", "co2eq"), ("tco2e", "co2eq"),
               ("co2e", "co2eq"), ("co2-eq", "co2eq"), ("tco2eq", "co2eq"))  # fmt: skip
_FORMULAS = dict(_GAS_NAMES["pt"] + _GAS_NAMES["en"] + _EQUIVALENT)  # in either language
_GAS_NAME = re.compile(r"(?<![a-z0-9])(?:" + "|".join(map(re.escape, _FORMULAS)) + r")(?![a-z0-9])")
_STEMMER_NAMES = {"pt": "portuguese", "en": "english"}
_WORD = re.compile(r"[a-z0-9]+")
_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_URL = re.compile(r"(?:https?://|www\.)\S+", re.IGNORECASE)
_HTML = re.compile(r"<[^<>]*>")
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
# A sentence about the reply itself ("at the end of your answer add..."), on folded text.
_ABOUT_THE_REPLY = re.compile(
    r"(?:your|sua|tua) (?:answer|reply|response|resposta)|(?:of|in|to) the (?:answer|reply|"
    r"response)|(?:na|da|a) resposta(?![a-z])"
)
_BREAK = re.compile(r"[()\[\]{}?!;]")
# Where a message's sentences (and a "Pergunta: ..." after a colon) start.
_PART = re.compile(r"(?<=[?!;])\s+|(?<=[.:])\s+")
# How an asking sentence starts, folded: a question word or a request to explain.
_ASKS = re.compile(
    r"^(?:o que|que|qual|quais|como|quando|onde|por que|porque|quanto|quanta|quantos|quantas|"
    r"quem|existe|existem|ha|devo|devemos|posso|podemos|explique|explica|defina|descreva|fale|"
    r"me explique|me diga|diga|what|which|how|when|where|why|who|whose|is|are|does|do|can|"
    r"should|must|explain|define|describe|tell me)(?![a-z])"
)
# Titles and keywords are what people ask by: they are a field of their own, scored apart
# from the answer and weighted up, and the title counts more than the keywords within it.
_TITLE_REPEAT = 2
HEADING_WEIGHT = 2.0

# Calibrated on the questions in tests/test_knowledge_search.py (see _search()).
MIN_SCORE = 2.0  # a best score under this matched a word or two in passing
MIN_COVERAGE = 0.5  # share of the question (by IDF) the entries kept must hold
# Relaxed, a whole keyword or title that is this share of the question (by IDF) answers it
# whatever the rest is: "developer" named in passing in an injection is not.
NAMED_SHARE = 0.25
MIN_INFORMATION = 0.35  # IDF they must match: "emissões" alone names no entry
# A question whose words the base lacks still gets its answer when the entries hold
# MIN_COVERAGE of the terms the base knows (words it never saw left out), at least
# KNOWN_TERMS of them, weighing KNOWN_INFORMATION together (about three uncommon concepts:
# "frete", "pagar", "escopo 3"). Off-topic questions share one to three words with the
# base ("capital", "banco", "conta").
KNOWN_TERMS = 4
KNOWN_INFORMATION = 5.0
PHRASE_WEIGHT = 1.5  # how much naming a whole keyword of the entry multiplies its rank
TITLE_WEIGHT = 1.0  # ... and the share of its title's terms the question holds
SECOND_RATIO = 0.55  # a second entry must score at least this share of the best's
# ... and name a term of the question that few headings name: at most this share of the
# entries (3 of the first 45), so that adding entries on a theme keeps "scope 1" distinctive.
SECOND_DISTINCT = 0.075


@dataclass(frozen=True)
class Entry:
    id: str
    title: Both
    answer: Both
    # The citation in each language: an English answer cites "chapter 9", not "cap. 9";
    # official titles (a Brazilian law's) are as published in both.
    source: Both

    def text(self, lang: Language) -> str:
        """The entry as the user reads it: title, answer, and where it comes from."""
        return (
            f"**{self.title[lang]}**\n\n{self.answer[lang]}\n\n"
            f"{_TEXTS('source', lang)}: {self.source[lang]} [{self.id}]"
        )


@dataclass(frozen=True)
class Retrieval:
    """What the base holds on a question: its entries (two at most by default), best first,
    with their BM25 scores; no entries when the match is too weak to answer from, or when the
    question asks for a value no entry can hold (``gap`` says which)."""

    entries: tuple[Entry, ...]
    scores: tuple[float, ...]
    gap: Gap | None = None
    matched: int = 0  # how many distinct terms of the question the entries hold
    named: bool = False  # whether the question names a title or keyword of the best whole

    @property
    def weak(self) -> bool:
        return not self.entries


@dataclass(frozen=True)
class _Index:
    body: bm25s.BM25  # the answers
    heading: bm25s.BM25  # titles and keywords: a field of its own, weighted up
    documents: tuple[frozenset[str], ...]  # every term of each entry
    headings: tuple[frozenset[str], ...]  # the terms of each entry's title and keywords
    document_frequency: Counter[str]
    heading_frequency: Counter[str]  # how many entries name each term in their heading
    phrases: tuple[tuple[frozenset[str], ...], ...]  # each entry's title and keywords, whole
    titles: tuple[frozenset[str], ...]  # the terms of each entry's title

    def idf(self, term: str) -> float:
        # Lucene's IDF; a term no entry has gets the rarest value, so it weighs fully
        # against coverage (the question asks about something the base does not hold).
        count, frequency = len(self.documents), self.document_frequency.get(term, 0)
        return math.log(1 + (count - frequency + 0.5) / (frequency + 0.5))


_local = threading.local()  # a Snowball stemmer is not safe to share between threads


def _stemmer(lang: Language) -> Stemmer.Stemmer:
    stemmers = getattr(_local, "stemmers", None)
    if stemmers is None:
        stemmers = _local.stemmers = {}
    if lang not in stemmers:
        stemmers[lang] = Stemmer.Stemmer(_STEMMER_NAMES[lang])
    return stemmers[lang]


def _spelling(word: str, lang: Language) -> str:
    word = _ALIASES[lang].get(word, word)
    if lang == "pt" and len(word) > 4 and word.endswith("oes"):
        # Folded, "emissões" stems apart from "emissão" (emisso/emissa): one form for both.
        return word[:-3] + "ao"
    return word


def tokens(text: str, lang: Language) -> list[str]:
    """The terms BM25 sees: folded ("CO₂" -> "co2", "emissões" -> "emissoes"), without
    stopwords, stemmed, with short numbers glued to the word they qualify."""
    stopwords, stemmer = _STOPWORDS[lang], _stemmer(lang)
    terms: list[str] = []
    anchor, end = "", 0  # the stem a following number qualifies; where the last word ended
    folded = _REFRIGERANT.sub(_refrigerant, fold(text.replace("₂", "2")))
    folded = _GAS_NAME.sub(lambda m: _FORMULAS[m.group()], folded)
    folded = _PREFIX.sub(r"\1", folded)
    for match in _WORD.finditer(folded):
        if _BREAK.search(folded, end, match.start()):
            anchor = ""  # "escopo 1 (2024)": a bracket or a new sentence ends the phrase
        end = match.end()
        word = _spelling(match.group(), lang)
        if word.isdigit():
            if anchor:
                terms.append(f"{anchor}_{word}")
            if len(word) >= 3:  # a year or a standard's number tells on its own
                terms.append(word)
            continue
        stem = stemmer.stemWord(word) if len(word) >= 2 else ""
        if word in stopwords or not stem or stem in _framing(lang):
            if word not in _CONJUNCTIONS:
                anchor = ""
            continue
        anchor = stem
        terms.append(anchor)
    return terms


@cache
def _framing(lang: Language) -> frozenset[str]:
    """The stems of the framing words: "expressed" frames a question as "express" does, and
    "maneiras" as "maneira", without listing every inflection."""
    stemmer = Stemmer.Stemmer(_STEMMER_NAMES[lang])  # its own: the cache is shared
    return frozenset(stemmer.stemWord(fold(w)) for w in _QUESTION_WORDS[lang].split())


def _refrigerant(match: re.Match[str]) -> str:
    family, number = match.groups()
    return f"r{number}" if family == "r" else f"{family} r{number}"


BASE_FILE = "knowledge_base.toml"


def data_files() -> list[str]:
    """The knowledge files: the base first, then every other ``*.toml`` of data/ by name, so
    an entry's position (a tie-breaker in ranking) does not depend on the file system."""
    folder = resources.files("engine.knowledge").joinpath("data")
    others = sorted(
        item.name
        for item in folder.iterdir()
        if item.name.endswith(".toml") and item.name != BASE_FILE
    )
    return [BASE_FILE, *others]


@cache
def _load() -> list[dict]:
    folder = resources.files("engine.knowledge").joinpath("data")
    items: list[dict] = []
    for name in data_files():
        with folder.joinpath(name).open("rb") as handle:
            items += tomllib.load(handle).get("entry", [])
    return items


@cache
def entries() -> tuple[Entry, ...]:
    return tuple(
        Entry(
            id=item["id"],
            title=Both(item["title_pt"], item["title_en"]),
            answer=Both(item["answer_pt"].strip(), item["answer_en"].strip()),
            # No fallback to the Portuguese citation: an entry without ``source_en`` fails
            # here, at load, rather than an English answer quoting Portuguese words.
            source=Both(item["source"], item["source_en"]),
        )
        for item in _load()
    )


_indexes: dict[str, _Index] = {}
_building = threading.Lock()


def _index(lang: Language) -> _Index:
    """The language's index, built on first use and kept for the process (the lock keeps
    concurrent first questions from building it twice)."""
    index = _indexes.get(lang)
    if index is None:
        with _building:
            index = _indexes.get(lang)
            if index is None:
                index = _indexes[lang] = _build(lang)
    return index


def _build(lang: Language) -> _Index:
    bodies, headings, phrases, titles = [], [], [], []
    frame = _frame(lang)
    for item in _load():
        title = tokens(item[f"title_{lang}"], lang)
        whole = [frozenset(tokens(text, lang)) - frame
                 for text in (item[f"title_{lang}"], *item[f"keywords_{lang}"])]  # fmt: skip
        phrases.append(tuple(p for p in whole if p))
        titles.append(frozenset(title) - frame)
        # Each keyword term once, and none the title already holds: an entry whose keywords
        # repeat "SBCE" in five phrasings is no more about the SBCE than the one titled so.
        keywords = dict.fromkeys(t for k in item[f"keywords_{lang}"] for t in tokens(k, lang))
        headings.append(title * _TITLE_REPEAT + [t for t in keywords if t not in title])
        bodies.append(tokens(item[f"answer_{lang}"], lang))
    body, heading = bm25s.BM25(), bm25s.BM25()
    body.index(bodies, show_progress=False)
    heading.index(headings, show_progress=False)
    documents = tuple(frozenset(h + b) for h, b in zip(headings, bodies, strict=True))
    named = tuple(map(frozenset, headings))
    frequency = Counter(term for document in documents for term in document)
    heading_frequency = Counter(term for terms in named for term in terms)
    return _Index(
        body,
        heading,
        documents,
        named,
        frequency,
        heading_frequency,
        tuple(phrases),
        tuple(titles),
    )


def _all_known(query: list[str]) -> bool:
    """Whether every term of the question is one some entry holds, in either language: a
    term none holds ("unobtainium", "Marte") may be just what the base lacks."""
    held = [_index(lang).document_frequency for lang in ("pt", "en")]
    return all(any(frequency.get(term, 0) for frequency in held) for term in query)


def _answers_what_is_known(query: list[str], held: frozenset[str], index: _Index) -> bool:
    """Whether the entries hold most of what the base knows of the question (MIN_COVERAGE of
    it), and that is a question's worth: several of its concepts (KNOWN_TERMS,
    KNOWN_INFORMATION).

    Words no entry holds ("queijos", "supermercados") weigh fully against coverage, and in a
    long question told with the user's own nouns they sink an entry that holds every
    concept asked ("frete", "pagamos", "categoria do escopo 3"). The words the base lacks
    decide only when the question's known part is thin: an off-topic question shares a
    word or two with the base, not several concepts an entry puts together.
    """
    known = [term for term in query if index.document_frequency.get(term, 0)]
    matched = [term for term in known if term in held]
    weight = sum(index.idf(term) for term in known)
    return (
        len(matched) >= KNOWN_TERMS
        and sum(index.idf(term) for term in matched) >= KNOWN_INFORMATION
        and sum(index.idf(term) for term in matched) >= MIN_COVERAGE * weight
    )


def _scores(bm25: bm25s.BM25, query: list[str]) -> list[float]:
    known = [term for term in query if term in bm25.vocab_dict]
    if not known:  # bm25s wants at least one term it knows
        return [0.0] * bm25.scores["num_docs"]
    return [float(score) for score in bm25.get_scores(known)]


def _share(terms: Iterable[str], of: frozenset[str], index: _Index, total: float) -> float:
    return sum(index.idf(term) for term in terms if term in of) / total


@cache
def _frame(lang: Language) -> frozenset[str]:
    return frozenset(tokens(_FRAME[lang], lang))


def plain_question(question: str) -> str:
    """What the question asks, without markup or directions on the reply: images, URLs and
    HTML go, a Markdown link keeps its text, and a sentence about the reply ("add this image
    at the end of your answer") goes unless it is all there is."""
    text = _IMAGE.sub(" ", question)
    text = _LINK.sub(r"\1", text)
    text = _HTML.sub(" ", _URL.sub(" ", text))
    sentences = [s for s in _SENTENCE.split(text) if s.strip()]
    asked = [s for s in sentences if not _ABOUT_THE_REPLY.search(fold(s))]
    return " ".join(asked or sentences)


def search(question: str, lang: Language, limit: int = 2, today: date | None = None) -> Retrieval:
    """The entries that answer ``question`` (written in ``lang``), best first.

    A short question ("Base year vs recalculation") can read as either language, and the
    detection settles a tie on Portuguese: when the question's own index finds nothing, the
    other language's gets its turn.
    """
    question = plain_question(question)
    gap = unpublished(question, today)  # today: the run's date, never the wall clock
    if gap is not None:
        return Retrieval((), (), gap)
    if _unknown_designation(question):
        return Retrieval((), ())
    asking = asking_part(question)
    named = without_names(question)
    # The whole message, then its asking sentences, then without proper names; only when
    # none of them is covered is a known part enough (``_answers_what_is_known``), the asking
    # sentences first: a preface about the user ("I'm Tom from finance") must not pick the
    # entry a question told with everyday nouns would have found.
    # The whole message, then its asking sentences, then without proper names. Only when
    # none of them is covered is a known part enough (``_answers_what_is_known``): first for
    # the whole message when its best entry is named in it (a message telling that the
    # company pays the haulier names category 4's "frete que pagamos", which "and which
    # category is it?" alone does not), then the asking sentences, then the rest; so a
    # preface about the user ("I'm Tom from finance") does not pick the entry of the
    # question that follows it.
    found = _both(question, lang, limit)
    if not found.weak:
        return found
    # What is still to come, that no entry covers, is what none holds.
    future = in_future_tense(question)
    if not future:
        whole = _both(question, lang, limit, relaxed=True)
        if whole.named:
            return whole
    parts = [t for t in (asking, named, without_preface(question)) if t and t != question]
    for text in parts:
        found = _both(text, lang, limit)
        if not found.weak:
            return found
    for text in [] if future else [*parts, question]:
        # A name taken out may be the very thing asked about ("diesel on Mars"): without
        # it, a keyword named whole is not enough.
        found = _both(text, lang, limit, relaxed=True, by_name=text != named)
        if not found.weak:
            return found
    return found


# A refrigerant or fluorinated gas by its designation: "R-410A", "HFC-134a", "HFO 1234ze".
_DESIGNATION = re.compile(
    r"(?<![A-Za-z0-9$])(?:R|HFC|HCFC|CFC|PFC|HFO)[- ]?\d{2,4}[A-Za-z]{0,2}(?![A-Za-z0-9])",
    re.IGNORECASE,
)


def _unknown_designation(question: str) -> bool:
    """Whether the question names a gas by a designation that neither the GWP tables nor
    any entry holds: the value asked is one the base does not have, and the entries on
    other refrigerants would answer a question not asked."""
    for found in _DESIGNATION.finditer(question):
        word = found.group(0)
        if canonical_gas(word) is not None:
            continue
        terms = [t for lang in ("pt", "en") for t in tokens(word, lang)]
        held = [_index(lang).document_frequency for lang in ("pt", "en")]
        if not any(frequency.get(t, 0) for frequency in held for t in terms):
            return True
    return False


# A capitalised word inside a sentence ("o escopo 1 da Alice", "Acme's boilers").
_NAME = re.compile(r"(?<=[\w,] )[A-ZÀ-Ý][a-zà-ÿ]{2,}(?:'s)?(?![\w-])")


def without_names(question: str) -> str:
    """The question without the proper names no entry holds: a person's or company's name
    asks about no concept, so it must not count as one the base lacks. A capitalised term
    the base knows ("Protocolo de Montreal") stays."""

    def keep(match: re.Match[str]) -> str:
        word = match.group(0).removesuffix("'s")
        known = any(
            _index(lang).document_frequency.get(term, 0)
            for lang in ("pt", "en")
            for term in tokens(word, lang)
        )
        return match.group(0) if known else " "

    return _NAME.sub(keep, question)


# A preface set off by a dash or a colon near the start: "Ana, ID 4411 — what is ...".
_PREFACE = re.compile(r"^(?P<preface>[^?!.\n]{1,60}?)\s+[—–-]\s+|^(?P<colon>[^?!.\n:]{1,60}):\s+")


def without_preface(question: str) -> str:
    """The question without a preface that holds no term any entry knows (a name, a badge
    or ticket number before a dash): it tells who asks, not what; empty when there is none."""
    found = _PREFACE.match(question)
    if found is None:
        return ""
    preface = found.group("preface") or found.group("colon") or ""
    known = any(
        _index(lang).document_frequency.get(term, 0)
        for lang in ("pt", "en")
        for term in tokens(preface, lang)
    )
    return "" if known else question[found.end() :]


def asking_part(message: str) -> str:
    """The sentences of ``message`` that ask (a question mark, or a question word or a
    request to explain at their start); empty when none does."""
    parts = [part.strip() for part in _PART.split(message) if part.strip()]
    asking = [part for part in parts if part.endswith("?") or _ASKS.search(fold(part))]
    return " ".join(asking)


def _both(
    question: str, lang: Language, limit: int, relaxed: bool = False, by_name: bool = True
) -> Retrieval:
    found = _search(question, lang, limit, relaxed, by_name)
    if found.weak:
        found = _search(question, "en" if lang == "pt" else "pt", limit, relaxed, by_name)
    return found


def _search(
    question: str, lang: Language, limit: int, relaxed: bool = False, by_name: bool = True
) -> Retrieval:
    """Entries rank by BM25 score times coverage (the IDF-weighted share of the question's
    terms the entry holds), so an entry that answers the whole question outranks one that
    repeats a single word of it often. Another joins the best when its own score is close
    (SECOND_RATIO) and its title or keywords name a distinctive part of the question the
    best's do not (SECOND_DISTINCT), as in "scope 1 vs scope 3 category 4". Together they
    must score MIN_SCORE, cover MIN_COVERAGE (or, ``relaxed``, hold what the base knows of the
    question: ``_answers_what_is_known``) and match MIN_INFORMATION, or nothing is kept.
    """
    index = _index(lang)
    frame = _frame(lang)
    query = [t for t in dict.fromkeys(tokens(question, lang)) if t not in frame]  # each once
    # A number no entry holds is an amount or a date ("our 2022 base year"), not a concept
    # the base lacks: it does not count against coverage (gaps.py judges future years).
    query = [t for t in query if not t.isdigit() or t in index.document_frequency]
    if not any(term in index.document_frequency for term in query):
        return Retrieval((), ())
    scores = [
        body + HEADING_WEIGHT * heading
        for body, heading in zip(
            _scores(index.body, query), _scores(index.heading, query), strict=True
        )
    ]
    total = sum(index.idf(term) for term in query)
    coverage = [_share(query, document, index, total) for document in index.documents]
    # An entry that names a whole keyword or its title inside the question ("SBCE", "CRVE
    # limit", "base year") is about what was asked; one that only shares its words, among
    # the other concepts its heading names, is about something next to it.
    asked = frozenset(query)
    named = [
        _share(frozenset().union(*(p for p in whole if p <= asked)), asked, index, total)
        for whole in index.phrases
    ]
    # Of two entries that both answer, the one whose title is mostly what was asked is the
    # general one ("What is the SBCE?"); one whose title adds a detail is about the detail.
    focus = [len(title & asked) / len(title) if title else 0.0 for title in index.titles]
    rank = [
        score * cover * (1 + PHRASE_WEIGHT * name) * (1 + TITLE_WEIGHT * aim)
        for score, cover, name, aim in zip(scores, coverage, named, focus, strict=True)
    ]
    best = max(range(len(scores)), key=lambda i: (rank[i], -i))
    distinct = max(3, int(SECOND_DISTINCT * len(scores)))
    chosen = [best]
    for other in sorted(range(len(scores)), key=lambda i: (-scores[i], i)):
        # Up to two even when fewer are asked for: whether the base answers at all does
        # not depend on how many entries the caller shows.
        if len(chosen) >= max(limit, 2) or scores[other] < SECOND_RATIO * scores[best]:
            break
        # A second concept of the question: a term the other entry's heading names, the
        # best's does not, and few headings name ("scope 1", not "inventory" or "emissions").
        # The other must name it whole ("scope 1"), not hold its words among other concepts.
        whole = frozenset().union(*(p for p in index.phrases[other] if p <= asked))
        new = whole - index.headings[best]
        if other != best and any(index.heading_frequency[t] <= distinct for t in new):
            chosen.append(other)
    # Judged on what the chosen entries hold together: "GWP vs biogenic CO2" is answered
    # by two entries, neither of which covers the question alone.
    held = frozenset().union(*(index.documents[i] for i in chosen))
    information = sum(index.idf(term) for term in query if term in held)
    if (
        scores[best] < MIN_SCORE
        or information < MIN_INFORMATION
        or (
            information / total < MIN_COVERAGE
            and not (relaxed and _answers_what_is_known(query, held, index))
            # An entry's keyword or title named whole ("Programa Brasileiro GHG Protocol")
            # says what is asked however many other words surround it (a name, slang, a
            # request about the reply): the share they take is no sign the base lacks it.
            and not (relaxed and by_name and named[best] >= NAMED_SHARE and _all_known(query))
        )
    ):
        return Retrieval((), ())
    # Two concepts asked together are shown by how much of the question each answers.
    if len(chosen) > 1:
        chosen.sort(key=lambda i: (-scores[i] * coverage[i], i))
    found, shown = entries(), chosen[:limit]
    return Retrieval(
        tuple(found[i] for i in shown),
        tuple(round(scores[i], 3) for i in shown),
        matched=sum(term in held for term in query),
        named=named[best] > 0,
    )
