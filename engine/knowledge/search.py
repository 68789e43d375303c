"""Search of Aeko's knowledge base (data/knowledge_base.toml): BM25 (bm25s) over stemmed,
accent-folded words, one index per language.

Each question is scored against the index of its own language, so a Portuguese question is
stemmed and stopworded as Portuguese and matched against the Portuguese text. A number is
glued to the word it qualifies ("escopo 1" -> ``escop_1``): on its own "1" means nothing,
and without that "scope 1" would score the entries that merely mention a category 1 or 12.

A BM25 score is only comparable within one query, so whether the base knows the answer is
judged by how much of the question the entries found cover (terms weighted by IDF), not by
the raw score alone: a question made of ESG words that no entry puts together stays
unanswered. Nor does one asking for a value the base cannot hold (engine.knowledge.gaps).

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

from engine.knowledge.gaps import Gap, unpublished
from engine.protocol import fold

if TYPE_CHECKING:  # only a type: engine.offline imports this package, never the reverse
    from datetime import date

    from engine.offline.language import Language

SOURCE_LABEL = {"pt": "Fonte", "en": "Source"}

# Words that frame a question ("explain", "o que significa") but never pick an entry.
_QUESTION_WORDS = {
    "pt": "explique explica explicar defina definir definicao significa significado quer dizer "
    "fale falar sobre conte entender entendo saber sei gostaria poderia pode podem favor "
    "resumo resuma breve simples exemplo vs versus afinal ai entao quais funciona tratar trato "
    "lidar considerar entra entram entrar aparece aparecem",
    "en": "explain explanation define definition meaning mean means tell know understand "
    "please briefly brief simple terms example vs versus whats s does can could would "
    "should also treat handle deal show shows appear appears goes",
}
_STOPWORDS = {
    "pt": frozenset(fold(w) for w in [*STOPWORDS_PORTUGUESE, *_QUESTION_WORDS["pt"].split()]),
    "en": frozenset(fold(w) for w in [*STOPWORDS_EN_PLUS, *_QUESTION_WORDS["en"].split()]),
}
# A number still belongs to the word before these ("escopos 1 e 2", "scope 1 or 2").
_CONJUNCTIONS = frozenset({"e", "ou", "and", "or"})
# Spellings the stemmer does not bring together.
_ALIASES = {
    "pt": {"cat": "categoria", "irecs": "irec"},
    "en": {"cat": "category", "gases": "gas"},
}
# Words that say what the whole base is about ("inventário de GEE"): they pick no entry, and
# the entries that happen to repeat them most would otherwise outrank the one asked for.
_FRAME = {"pt": "gee ghg inventario inventarios", "en": "ghg inventory inventories"}
# A one-letter prefix is part of the word: "I-REC" is one term, not "rec" ("r-410a" keeps
# its number apart, see tokens()).
_PREFIX = re.compile(r"(?<![a-z0-9])([a-z])-(?=[a-z])")
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
MIN_INFORMATION = 0.35  # IDF they must match: "emissões" alone names no entry
SECOND_RATIO = 0.55  # a second entry must score at least this share of the best's
SECOND_DISTINCT = 3  # ... and name a term of the question at most this many headings name


@dataclass(frozen=True)
class Entry:
    id: str
    title: dict[str, str]
    answer: dict[str, str]
    source: str

    def text(self, lang: Language) -> str:
        """The entry as the user reads it: title, answer, and where it comes from."""
        return (
            f"**{self.title[lang]}**\n\n{self.answer[lang]}\n\n"
            f"{SOURCE_LABEL[lang]}: {self.source} [{self.id}]"
        )


@dataclass(frozen=True)
class Retrieval:
    """What the base holds on a question: its entries (two at most by default), best first,
    with their BM25 scores; no entries when the match is too weak to answer from, or when the
    question asks for a value no entry can hold (``gap`` says which)."""

    entries: tuple[Entry, ...]
    scores: tuple[float, ...]
    gap: Gap | None = None

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
    folded = _PREFIX.sub(r"\1", fold(text.replace("₂", "2")))
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
        if word in stopwords or len(word) < 2:
            if word not in _CONJUNCTIONS:
                anchor = ""
            continue
        anchor = stemmer.stemWord(word)
        terms.append(anchor)
    return terms


@cache
def _load() -> list[dict]:
    path = resources.files("engine.knowledge").joinpath("data", "knowledge_base.toml")
    with path.open("rb") as handle:
        return tomllib.load(handle)["entry"]


@cache
def entries() -> tuple[Entry, ...]:
    return tuple(
        Entry(
            id=item["id"],
            title={"pt": item["title_pt"], "en": item["title_en"]},
            answer={"pt": item["answer_pt"].strip(), "en": item["answer_en"].strip()},
            source=item["source"],
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
    bodies, headings = [], []
    for item in _load():
        title = tokens(item[f"title_{lang}"], lang)
        keywords = [t for keyword in item[f"keywords_{lang}"] for t in tokens(keyword, lang)]
        headings.append(title * _TITLE_REPEAT + keywords)
        bodies.append(tokens(item[f"answer_{lang}"], lang))
    body, heading = bm25s.BM25(), bm25s.BM25()
    body.index(bodies, show_progress=False)
    heading.index(headings, show_progress=False)
    documents = tuple(frozenset(h + b) for h, b in zip(headings, bodies, strict=True))
    named = tuple(map(frozenset, headings))
    frequency = Counter(term for document in documents for term in document)
    heading_frequency = Counter(term for terms in named for term in terms)
    return _Index(body, heading, documents, named, frequency, heading_frequency)


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
    found = _both(question, lang, limit)
    if found.weak:
        asking = asking_part(question)
        if asking and asking != question:
            found = _both(asking, lang, limit)
    return found


def asking_part(message: str) -> str:
    """The sentences of ``message`` that ask (a question mark, or a question word or a
    request to explain at their start); empty when none does."""
    parts = [part.strip() for part in _PART.split(message) if part.strip()]
    asking = [part for part in parts if part.endswith("?") or _ASKS.search(fold(part))]
    return " ".join(asking)


def _both(question: str, lang: Language, limit: int) -> Retrieval:
    found = _search(question, lang, limit)
    if found.weak:
        found = _search(question, "en" if lang == "pt" else "pt", limit)
    return found


def _search(question: str, lang: Language, limit: int) -> Retrieval:
    """Entries rank by BM25 score times coverage (the IDF-weighted share of the question's
    terms the entry holds), so an entry that answers the whole question outranks one that
    repeats a single word of it often. Another joins the best when its own score is close
    (SECOND_RATIO) and its title or keywords name a distinctive part of the question the
    best's do not (SECOND_DISTINCT), as in "scope 1 vs scope 3 category 4". Together they
    must score MIN_SCORE, cover MIN_COVERAGE and match MIN_INFORMATION, or nothing is kept.
    """
    index = _index(lang)
    frame = _frame(lang)
    query = [t for t in dict.fromkeys(tokens(question, lang)) if t not in frame]  # each once
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
    best = max(range(len(scores)), key=lambda i: (scores[i] * coverage[i], -i))
    chosen = [best]
    for other in sorted(range(len(scores)), key=lambda i: (-scores[i], i)):
        # Up to two even when fewer are asked for: whether the base answers at all does
        # not depend on how many entries the caller shows.
        if len(chosen) >= max(limit, 2) or scores[other] < SECOND_RATIO * scores[best]:
            break
        # A second concept of the question: a term the other entry's heading names, the
        # best's does not, and few headings name ("scope 1", not "inventory" or "emissions").
        new = {term for term in query if term in index.headings[other]} - index.headings[best]
        if other != best and any(index.heading_frequency[t] <= SECOND_DISTINCT for t in new):
            chosen.append(other)
    # Judged on what the chosen entries hold together: "GWP vs biogenic CO2" is answered
    # by two entries, neither of which covers the question alone.
    held = frozenset().union(*(index.documents[i] for i in chosen))
    information = sum(index.idf(term) for term in query if term in held)
    if (
        scores[best] < MIN_SCORE
        or information / total < MIN_COVERAGE
        or information < MIN_INFORMATION
    ):
        return Retrieval((), ())
    found, shown = entries(), chosen[:limit]
    return Retrieval(tuple(found[i] for i in shown), tuple(round(scores[i], 3) for i in shown))
