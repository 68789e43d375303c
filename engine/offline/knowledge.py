"""The FAQ's knowledge base (data/knowledge_base.toml), searched with BM25 in either language."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

from rank_bm25 import BM25Okapi

from engine.offline.language import Language
from engine.protocol import fold

_STOPWORDS = frozenset(
    "a o as os de da do das dos e em no na nos nas um uma que qual quais como para por com se "
    "the of and to in on for is are what which how an or with be it its this that".split()
)
MIN_SCORE = 1.0  # below this the base has nothing on the question


@dataclass(frozen=True)
class Entry:
    id: str
    title: dict[str, str]
    answer: dict[str, str]
    source: str


def tokens(text: str) -> list[str]:
    words = re.findall(r"[a-z0-9]+", fold(text.replace("₂", "2")))
    return [_stem(w) for w in words if w not in _STOPWORDS]


def _stem(word: str) -> str:
    """A light plural fold, enough for 'escopos'/'escopo' and 'gases'/'gas' to meet."""
    for suffix in ("oes", "aes", "es", "s"):
        if len(word) > 4 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


@cache
def entries() -> tuple[Entry, ...]:
    path = resources.files("engine.offline").joinpath("data").joinpath("knowledge_base.toml")
    with path.open("rb") as handle:
        raw = tomllib.load(handle)["entry"]
    return tuple(
        Entry(
            id=item["id"],
            title={"pt": item["title_pt"], "en": item["title_en"]},
            answer={"pt": item["answer_pt"].strip(), "en": item["answer_en"].strip()},
            source=item["source"],
        )
        for item in raw
    )


@cache
def _index() -> BM25Okapi:
    path = resources.files("engine.offline").joinpath("data").joinpath("knowledge_base.toml")
    with path.open("rb") as handle:
        raw = tomllib.load(handle)["entry"]
    documents = []
    for item in raw:
        # Titles and keywords count three times: they are what people ask by.
        heading = " ".join([item["title_pt"], item["title_en"], *item["keywords_pt"],
                            *item["keywords_en"]])  # fmt: skip
        documents.append(tokens(f"{heading} {heading} {heading} {item['answer_pt']} "
                                f"{item['answer_en']}"))  # fmt: skip
    return BM25Okapi(documents)


def search(question: str, language: Language) -> tuple[Entry, float] | None:
    """The entry that best answers the question, with its score; None when nothing fits."""
    query = tokens(question)
    if not query:
        return None
    scores = _index().get_scores(query)
    best = max(range(len(scores)), key=lambda i: (scores[i], -i))
    if scores[best] < MIN_SCORE:
        return None
    return entries()[best], float(scores[best])
