"""What the knowledge base cannot hold, however well an entry matches: values not published.

The base holds published rules and values (the GWPs of AR4 to AR6, how MCTI publishes the SIN
factor, the SBCE's thresholds). A question asking for a value of a year still to come, for
the GWPs of an IPCC report not yet out, or for the market price of allowances, credits or
certificates has no answer there, even when an entry on the same subject scores high: serving
that entry would pass a published value off as the one asked for. These are recognised by
what the question asks, not by its subject, so they hold for any entry.

Which years are still to come depends on the day the question is asked: that day is the
run's (the temporal context the models read, ``engine.agents.system_prompt``), passed in,
never read from the wall clock here, so an answer about next year does not change on
1 January in the middle of a test or of a run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from engine.protocol import fold

if TYPE_CHECKING:
    from datetime import date

GapKind = Literal["report", "price", "future", "allocation", "date"]

# The latest IPCC assessment report published (AR6, 2021–2023); the AR7 cycle's reports are
# not out yet, so no GWP of theirs exists to quote.
LATEST_IPCC_REPORT = 6

_REPORT = re.compile(r"(?<![a-z0-9])ar-?(?P<number>\d{1,2})(?![0-9])")  # not "ar 9 mil BTU"
_ORDINAL_REPORT = re.compile(
    r"(?:setimo|oitavo|seventh|eighth) (?:relatorio|assessment report|report)"
)
# A price asked for (or its cost) ...
_PRICE = re.compile(
    r"(?<![a-z])(?:preco|precos|cotacao|price|prices|priced|pricing|quanto (?:custa|custara|"
    r"vai custar|valera|vale)|how much (?:is|are|does|do|will|would)\b.*\bcost|cost of|"
    r"custo d[aeo]s?|valor de mercado|market value)(?![a-z])"
)
# ... of something traded on a carbon market: a price of diesel is not a market gap.
_TRADED = re.compile(
    r"(?<![a-z])(?:cbe|cbes|cotas?|allowances?|creditos?|credits?|certificados?|certificates?|"
    r"crves?|cbios?|cbam|i-?recs?|eua|euas|ets)(?![a-z])"
)
_YEAR = re.compile(r"(?<![0-9])(?:19|20)\d{2}(?![0-9])")
# A value asked for a future year: said in the future tense, or naming the kind of figure the
# base quotes (a factor, a price, a cap) rather than a goal ("the 2030 target" is published).
_FUTURE_ASK = re.compile(
    r"(?<![a-z])(?:will|shall|going to|forecast|projected|expected|sera|serao|vai|vao|ira|"
    r"irao|devera|deverao|previs[a-z]*|projec[a-z]*|fator|factor|preco|price|valor|value|teto|"
    r"cap|limite|limit|gwp)(?![a-z])"
)


# How many allowances the SBCE will hand out, or how far a cap or the CRVE share will go,
# is set by National Allocation Plans not published yet: asked as an amount to come, with
# or without a year, it has no answer in the base.
_ALLOCATED = re.compile(
    r"(?<![a-z])(?:cbes?|cotas?|allowances?|crves?|aloca[a-z]*|allocat[a-z]*)(?![a-z])"
)
_AMOUNT = re.compile(
    r"(?<![a-z])(?:how many|how much|quantas|quantos|quanto|quanta|qual sera|quais serao|"
    r"what will|what share|what percentage|que percentual|qual percentual|qual o percentual|"
    r"qual o limite|qual o teto)(?![a-z])"
)
_TO_COME = re.compile(
    r"(?<![a-z])(?:will|shall|going to|sera|serao|vai|vao|ira|irao|devera|deverao|"
    r"receber[a-z]*|receive[sd]?|first commitment period|primeiro periodo de compromisso)"
    r"(?![a-z])"
)


_FUTURE_TENSE = re.compile(
    r"(?<![a-z])(?:will|shall|going to|sera|serao|vai|vao|ira|irao|devera|deverao)(?![a-z])"
)


# The exact day something still to come will happen is set by an act not issued yet: the base
# holds the schedules published (phases, deadlines in force), never a day announced later.
_EXACT_DATE = re.compile(
    r"(?<![a-z])(?:data exata|data precisa|dia exato|exact date|exact day|precise date|"
    r"specific date|data especifica)(?![a-z])"
)


def in_future_tense(question: str) -> bool:
    """Whether the question asks what will be ("quais serão as regras finais", "on what date
    will it open"): what is still to come is what an entry on its subject does not hold."""
    return _FUTURE_TENSE.search(fold(question)) is not None


@dataclass(frozen=True)
class Gap:
    """Why the base has no answer: the kind, and what it names (the year, the report)."""

    kind: GapKind
    detail: str = ""


def unpublished(question: str, today: date | None) -> Gap | None:
    """The gap a question asks about, or None when the base may hold its answer.

    ``today`` is the run's date; without one (a caller outside a run) no year counts as
    still to come, and only unpublished reports and market prices are gaps."""
    text = fold(question)
    report = _REPORT.search(text)
    if report and int(report.group("number")) > LATEST_IPCC_REPORT:
        return Gap("report", f"AR{int(report.group('number'))}")
    if _ORDINAL_REPORT.search(text):
        return Gap("report", f"AR{LATEST_IPCC_REPORT + 1}")
    if _PRICE.search(text) and _TRADED.search(text):
        return Gap("price")
    if (
        _ALLOCATED.search(text)
        and _AMOUNT.search(text)
        and _TO_COME.search(text)
        and not _YEAR.search(text)  # a year is judged below, against the run's date
    ):
        return Gap("allocation")
    if _EXACT_DATE.search(text) and in_future_tense(text):
        return Gap("date")
    if today is None:
        return None
    future = sorted(y for y in map(int, _YEAR.findall(text)) if y > today.year)
    if future and _FUTURE_ASK.search(text):
        return Gap("future", str(future[0]))
    return None


# For the knowledge tool: why nothing is returned, for a model to say so in its own words.
NOTES: dict[GapKind, str] = {
    "report": "O relatório do IPCC pedido ({detail}) ainda não foi publicado; a base traz os "
    "GWPs do AR4, AR5 e AR6. / The IPCC report asked about ({detail}) has not been published "
    "yet; the base holds the AR4, AR5 and AR6 GWPs.",
    "price": "A base não registra nem prevê preços de cotas, créditos ou certificados. / The "
    "base neither records nor forecasts prices of allowances, credits or certificates.",
    "future": "A pergunta pede um valor de {detail}, ainda não publicado. / The question asks "
    "for a value for {detail}, not published yet.",
    "date": "A data exata pedida ainda não foi definida nem publicada. / The exact date asked "
    "for has not been set or published yet.",
    "allocation": "As quantidades de cotas, tetos e o percentual de CRVE do SBCE saem dos Planos "
    "Nacionais de Alocação, ainda não publicados. / The SBCE's allowance amounts, caps and "
    "CRVE share come from National Allocation Plans not published yet.",
}
