"""Is every number of an answer backed by something the run read?

The guardrail sends a draft back, and a plan goes back to its coordinator once, when it states
a number the run cannot account for. The rules, all of them here:

1. **Read.** A number is backed when a text the run read holds it: a tool result, the attached
   inventory, a reference table, the computed actions, the question, the context, the date.
   It may be written in either language's notation (48.976,59 / 48,976.59).
2. **Rounded.** ...or when it is such a number rounded as written: "48.977", "49 mil",
   "1,5 milhão" (a number is as precise as its last written digit; at least two significant
   digits kept, so "50.000" does not stand for 48.976,59).
3. **One step of arithmetic.** ...or when one step over numbers read gives it, within the
   precision it is written with: a sum of two or three, a difference, a ratio or a per-unit
   division, a share or a change in %, a product (an activity times a factor or a GWP), a
   percentage read applied to a number read ("reduzir 42%" of a scope, or what is left after
   it), a change of unit by 10³ or 10⁶. Anything longer comes from the calculator tool, whose
   result is then read.
4. **The figures a sentence names.** One step over the numbers on the lines of what was read
   that share the sentence's rarest words ("a caldeira de Campinas ... do escopo 1" names the
   Campinas boiler's row and Scope 1's line) is judged among those few numbers, so
   "74% do escopo 1" is the boiler over Scope 1 however many other ratios the run read.
5. **Not by chance.** An arithmetic match counts only when it is specific: within 20 times the
   number's precision on either side, at most two results of that kind of step fall (four
   among the few figures a sentence names). Where results are dense (many numbers read, a
   coarse figure such as "86%" against hundreds of ratios), a made-up figure would match by
   chance more than one time in ten, so the match proves nothing and the number stays
   unbacked. A whole number with trailing zeros is judged exact first (700 ± 0,5), then as a
   rounding (700 ± 5). Money (R$ …) is never a mass changed in unit.
6. **Bounded.** Pairs are formed over the first 150 numbers read and triples over the first
   40, in the order the run read them (the user's words and the tools first), so the check
   costs milliseconds whatever the run read.
7. **Free.** Small counts and ordinals (0 to 10: "3 fontes", "Escopo 1") need no source, and
   neither do the numbers of laws and articles ("Lei nº 15.042", "arts. 29–30") or the days
   of dates in words. A date's year is a year: "01/08/2025" backs, and needs, 2025. Years,
   durations ("100 anos") and those names are never operands. A draft's numbers are read in
   the draft's own notation when its unambiguous numbers agree on one.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

import numpy as np

from engine.dto import AekoSource
from engine.protocol import fold
from engine.texts import Texts

# A number that stands alone: not the "2" of CO2, the "410" of R-410A or the "5" of AR5.
_NUMBER = re.compile(
    r"(?<![\w\-/.,])(\d{1,3}(?:[.,\u00a0 ]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?)"
    r"(?![\w\-])(\s*(?:mil\b|thousand\b|milh[oõ]es\b|milh[aã]o\b|million\b|mi\b))?",
    re.IGNORECASE,
)
# A calendar date: only its year is a figure (the day and month are counts).
_DATE = re.compile(
    r"(?<![\w/.\-])(?:\d{1,2}[/.\-]\d{1,2}[/.\-](?P<dmy>\d{4})|(?P<ymd>\d{4})-\d{1,2}-\d{1,2})"
    r"(?![\w/\-])"
)
_PERCENT = re.compile(r"\s*(?:%|por\s*cento\b|percent\b|p\.p\.|pontos? percentua)", re.I)
# What makes the number after it a name: "Lei nº 15.042", "arts. 29–30", "Decreto 11.075".
_IDENTIFIER = re.compile(
    r"(?:\bn[º°o]\.?|\bn\.º|\barts?\.|§|\blei|\bdecreto|\bportaria|\bresolu\w+)"
    r"\s*(?:\d[\d.]*\s*[–\-,e]\s*)?$",
    re.I,
)
_MONTHS = (
    "janeiro|fevereiro|março|marco|abril|maio|junho|julho|agosto|setembro|outubro|novembro|"
    "dezembro|january|february|march|april|may|june|july|august|september|october|november|"
    "december"
)
# A day of a date in words ("11 de dezembro de 2024", "December 11"): a count, not a figure.
_DAY_AFTER = re.compile(rf"\s*(?:º|°)?\s+(?:de\s+)?(?:{_MONTHS})\b", re.I)
_DAY_BEFORE = re.compile(rf"\b(?:{_MONTHS})\s+$", re.I)
# The words that open a name or a date in words, as _IDENTIFIER and _DAY_BEFORE read them:
# those two are searched only in the windows before a number where one of these starts,
# because searched everywhere their anchoring at the window's end makes them try every
# position (most of the cost of reading a text's numbers).
_NAME_WORDS = ("nº", "n°", "no", "n.º", "art", "§", "lei", "decreto", "portaria", "resolu",
               *_MONTHS.split("|"))  # fmt: skip
# Characters whose case folding re.IGNORECASE reads beyond str.lower(): a text holding one
# is searched in every window, as before.
_FOLDS_APART = frozenset("ſKİı")
# "100 anos", "12 months": a duration, which no one-step figure is computed from.
_DURATION = re.compile(
    r"\s*(?:anos?|years?|meses|m[eê]s|months?|dias?|days?|horas?|hours?)\b", re.I
)
# "R$ 2,5 milhões": money, which a change of unit of a mass never gives.
_MONEY = re.compile(r"(?:R\$|US\$|\$|€|£|BRL|USD|EUR)\s*$")
_SCALE = {"mil": 1e3, "thousand": 1e3, "mi": 1e6, "million": 1e6}
# Counts and ordinals an answer needs without a source: "3 fontes", "Escopo 1", "item 2".
_FREE_UP_TO = 10

# Rules 4 to 6 of the module's docstring.
_WINDOW = 20  # how many precisions on either side the specificity of a match is judged over
_MAX_NEAR = 2  # results of one kind of step allowed in that window for a match to count
_MAX_NEAR_NAMED = 4  # the same among the few numbers a sentence names
_MAX_PAIR_OPERANDS = 150
_MAX_TRIPLE_OPERANDS = 40
_NAMED_LINES = 8  # the lines a sentence names, best first
_NAMED_SHARE = 0.4  # ...each scoring at least this share of the best line's score
# The digest and the tools label their lines in Portuguese: an English sentence names them
# through their English words.
_LABEL_WORDS = {"scope": "escopo", "scopes": "escopo", "plant": "unidade", "plants": "unidade",
                "facility": "unidade", "facilities": "unidade", "site": "unidade",
                "sites": "unidade", "gases": "gas"}  # fmt: skip
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_WORD = re.compile(r"[a-z][a-z0-9\-]{3,}")


@dataclass(frozen=True)
class Stated:
    raw: str  # as written, with its scale word
    values: tuple[float, ...]  # every reading of it (1.240 is 1240 in pt and 1.24 in en)
    decimals: tuple[int, ...]  # the decimals each reading was written with
    percent: bool = False  # followed by "%": a share, a change or a target
    scale: float = 1.0  # "mil", "milhões": the precision of the digits is scaled too
    date: bool = False  # the year of a calendar date
    identifier: bool = False  # "Lei nº 15.042", "11 de dezembro": a name or a day
    duration: bool = False  # "100 anos": backed when read, never an operand
    money: bool = False  # "R$ 2,5 milhões"
    notations: tuple[str, ...] = ()  # "pt" or "en", the notation of each reading


@dataclass(frozen=True)
class Backing:
    """A text the run read, and the sources an answer cites when it quotes from it."""

    text: str
    sources: tuple[AekoSource, ...] = ()
    # A text the answer was written from as a whole (a knowledge-base entry a tool returned)
    # is cited whether or not it holds a number; a reference table only when quoted.
    read_whole: bool = False


def stated_numbers(text: str) -> list[Stated]:
    return [stated for _, _, stated in _located(text)]


# A turn reads the same texts again and again (its question, history and tool results are
# checked by the guardrail, its request and the citations; the history again next turn), and
# what a text states never changes: read once, kept for the next ask (Stated is frozen).
@lru_cache(maxsize=512)
def _located(text: str) -> tuple[tuple[int, int, Stated], ...]:
    """Each number of ``text`` with where it stands, in reading order."""
    found: list[tuple[int, int, Stated]] = []
    plain = text
    for match in _DATE.finditer(text):
        year = float(match.group("dmy") or match.group("ymd"))
        stated = Stated(raw=match.group(0), values=(year,), decimals=(0,), date=True)
        found.append((match.start(), match.end(), stated))
        plain = f"{plain[: match.start()]}{' ' * len(match.group(0))}{plain[match.end() :]}"
    named_from = _name_word_starts(plain)
    for match in _NUMBER.finditer(plain):
        digits, scale_word = match.group(1), (match.group(2) or "").strip().lower()
        scale = _SCALE.get(scale_word, 1e6) if scale_word else 1.0  # milhões, milhão
        values, decimals, notations = _read_as(digits, scale)
        window = max(0, match.start() - 24)
        before = plain[window : match.start()]
        named = named_from is None or (
            bisect_left(named_from, window) < bisect_left(named_from, match.start())
        )
        stated = Stated(
            raw=match.group(0).strip(),
            values=values,
            decimals=decimals,
            percent=bool(_PERCENT.match(plain, match.end())),
            scale=scale,
            identifier=bool(
                (named and (_IDENTIFIER.search(before) or _DAY_BEFORE.search(before)))
                or (not scale_word and _DAY_AFTER.match(plain, match.end()))
            ),
            duration=bool(_DURATION.match(plain, match.end())),
            money=bool(_MONEY.search(before)),
            notations=notations,
        )
        found.append((match.start(), match.start() + len(match.group(0).rstrip()), stated))
    return tuple(sorted(found, key=lambda item: item[0]))


def _name_word_starts(text: str) -> list[int] | None:
    """Where the words of _NAME_WORDS start in ``text``, sorted; None when its lower case
    does not keep its positions or re.IGNORECASE folds a character of it apart."""
    lower = text.lower()
    if len(lower) != len(text) or not _FOLDS_APART.isdisjoint(text):
        return None
    starts = []
    for word in _NAME_WORDS:
        at = lower.find(word)
        while at >= 0:
            starts.append(at)
            at = lower.find(word, at + 1)
    return sorted(starts)


_TEXTS = Texts("engine.grounding", {"unverified": {"pt": "não verificado", "en": "unverified"}})


def mark_unverified(text: str, numbers: Sequence[str], lang: str = "pt") -> str:
    """``text`` with each of ``numbers`` (as ``unbacked`` wrote them) followed by a mark a
    reader sees: the answer is kept, the figure is not vouched for."""
    wanted = set(numbers)
    if not wanted:
        return text
    mark = f" ({_TEXTS('unverified', lang)})"
    pieces, last = [], 0
    for _, end, stated in _located(text):
        if stated.raw not in wanted:
            continue
        tail = _PERCENT.match(text, end)  # "70%" is marked after its sign
        cut = tail.end() if tail and text[end : tail.end()].strip() == "%" else end
        pieces += [text[last:cut], mark]
        last = cut
    return "".join(pieces) + text[last:]


@lru_cache(maxsize=4096)  # texts repeat their figures ("1.240", "23,5"), turn after turn
def _read_as(
    digits: str, scale: float
) -> tuple[tuple[float, ...], tuple[int, ...], tuple[str, ...]]:
    """A written number's readings as Stated holds them: values (scaled), decimals, notations."""
    readings = _readings(digits)
    return (
        tuple(value * scale for value, _, _ in readings),
        tuple(places for _, places, _ in readings),
        tuple(notation for _, _, notation in readings),
    )


@lru_cache(maxsize=4096)
def _readings(digits: str) -> tuple[tuple[float, int, str], ...]:
    """The values a written number can mean, with the decimals it shows in each reading and
    the notation ("pt": 1.234,5; "en": 1,234.5) that reads it so."""
    plain = digits.replace("\u00a0", " ")
    if " " in plain:  # "48 976,59": a space only ever groups thousands
        plain = plain.replace(" ", "")
    readings = []
    for thousands, decimal in ((".", ","), (",", ".")):
        if (
            thousands in plain
            and decimal in plain
            and plain.index(thousands) > plain.index(decimal)
        ):
            continue  # "1,234.5" read the pt way is not a number
        parts = plain.replace(thousands, "").split(decimal)
        if len(parts) > 2 or not all(p.isdigit() for p in parts if p) or not parts[0]:
            continue
        if thousands in plain and not re.fullmatch(
            rf"\d{{1,3}}(?:{re.escape(thousands)}\d{{3}})+(?:{re.escape(decimal)}\d+)?", plain
        ):
            continue  # "12.34" is not a grouped thousand
        places = len(parts[1]) if len(parts) == 2 else 0
        readings.append((float(".".join(parts)), places, "pt" if decimal == "," else "en"))
    if not readings:
        return ((float(re.sub(r"\D", "", plain) or 0), 0, "any"),)
    if len(readings) == 2 and readings[0][:2] == readings[1][:2]:
        return ((*readings[0][:2], "any"),)  # "1240": both notations read it alike
    return tuple(readings)


# Texts consulted only for the numbers nothing read before them supports: the reference
# tables, which come last and which matching an answer against costs more than the rest.
Later = Callable[[], Sequence[Backing]]


def unbacked(draft: str, backing: Sequence[Backing], later: Later | None = None) -> list[str]:
    """The numbers of ``draft`` that nothing in ``backing`` supports, as written; ``later``'s
    texts are read after ``backing``'s, and only when a number is not read there as written
    (arithmetic then runs over them all)."""
    read = [stated_numbers(item.text) for item in backing]
    known = _known(read)
    sentences = _sentences(draft)
    notation = _notation(stated_numbers(draft))
    # Rules 1, 2 and 7 first: what is read as written, rounded or free needs nothing else.
    pending = [
        (sentence, stated, readings)
        for sentence, numbers in sentences
        for stated in numbers
        if not _read_as_written(stated, readings := _readings_in(stated, notation), known)
    ]
    if pending and later is not None:
        extra = [item for item in later() if item.text]
        if extra:
            backing = [*backing, *extra]
            read += [stated_numbers(item.text) for item in extra]
            known = _known(read)
            pending = [p for p in pending if not _read_as_written(p[1], p[2], known)]
    steps: _Steps | None = None
    lines: _Lines | None = None
    named: dict[str, _Steps] = {}  # per sentence
    missing = []
    for sentence, stated, readings in pending:
        if not (stated.date or _year(stated)):
            lines = lines or _Lines(backing)
            if sentence not in named:
                # The sentence's other numbers that were read count among those it names.
                named[sentence] = _Steps(
                    [lines.named(sentence) + _read_in(sentence, known, notation)],
                    triples=False,
                    near=_MAX_NEAR_NAMED,
                )
            steps = steps or _Steps(read)
            if any(
                named[sentence].derive(value, places, stated) or steps.derive(value, places, stated)
                for value, places in readings
            ):
                continue
        missing.append(stated.raw)
    return list(dict.fromkeys(missing))


def _sentences(draft: str) -> list[tuple[str, list[Stated]]]:
    """The draft's sentences, each with the numbers it states. The numbers are read in the
    whole draft, once: the citations read the same text after the guardrail's check (and a
    unit, scale or month on the next line is read with its number, as the citations read it)."""
    located = _located(draft)
    gaps = [(gap.start(), gap.end()) for gap in _SENTENCE.finditer(draft)]
    sentences: list[tuple[str, list[Stated]]] = []
    start, taken = 0, 0
    for end, after in [*gaps, (len(draft), len(draft))]:
        numbers = []
        while taken < len(located) and located[taken][0] < end:
            numbers.append(located[taken][2])
            taken += 1
        sentences.append((draft[start:end], numbers))
        start = after
    return sentences


def _known(read: Sequence[Sequence[Stated]]) -> list[float]:
    return sorted({v for text in read for n in text for v in n.values})


def _read_as_written(
    stated: Stated, readings: Sequence[tuple[float, int]], known: Sequence[float]
) -> bool:
    return (
        _free(stated)
        or stated.identifier
        or any(_supports(value, places, known, stated.scale) for value, places in readings)
    )


def _read_in(sentence: str, known: Sequence[float], notation: str | None) -> list[Stated]:
    return [
        stated
        for stated in stated_numbers(sentence)
        if any(_supports(v, p, known, stated.scale) for v, p in _readings_in(stated, notation))
    ]


def _readings_in(stated: Stated, notation: str | None) -> list[tuple[float, int]]:
    """The readings of a drafted number in the draft's own notation, when it has one."""
    every = list(zip(stated.values, stated.decimals, strict=True))
    written = stated.notations or ("any",) * len(every)
    kept = [r for r, n in zip(every, written, strict=True) if notation in (None, "any", n)]
    return kept or every


class _Lines:
    """Rule 4: the lines of what the run read, each with its numbers and its words."""

    def __init__(self, backing: Sequence[Backing]) -> None:
        self._lines: list[tuple[frozenset[str], list[Stated]]] = []
        for item in backing:
            for line in item.text.splitlines():
                numbers = stated_numbers(line)
                if numbers:
                    self._lines.append((frozenset(_WORD.findall(fold(line))), numbers))
        counts: dict[str, int] = {}
        for words, _ in self._lines:
            for word in words:
                counts[word] = counts.get(word, 0) + 1
        self._weight = {word: 1 / count for word, count in counts.items()}

    def named(self, sentence: str) -> list[Stated]:
        """The numbers on the lines that share the sentence's rarest words, best first."""
        words = {_LABEL_WORDS.get(w, w) for w in _WORD.findall(fold(sentence))}
        # Rare shared words count most; a short line (a name and its figure) is more about
        # the name than a long one that merely mentions it.
        scored = [
            (sum(self._weight[w] for w in words & line_words) / math.sqrt(len(line_words) or 1), i)
            for i, (line_words, _) in enumerate(self._lines)
        ]
        ranked = sorted((s for s in scored if s[0] > 0), key=lambda s: -s[0])[:_NAMED_LINES]
        # Lines that name the sentence's words nearly as well as the best one, no weaker ones.
        best = [s for s in ranked if s[0] >= _NAMED_SHARE * ranked[0][0]]
        return [n for _, index in best for n in self._lines[index][1]]


def _notation(numbers: Sequence[Stated]) -> str | None:
    """The notation a text writes its numbers in, when its unambiguous ones agree: then
    "8.492" in a Portuguese answer is eight thousand, not eight and a half."""
    seen = {
        stated.notations[0]
        for stated in numbers
        if len(stated.notations) == 1 and stated.notations[0] != "any"
    }
    return seen.pop() if len(seen) == 1 else None


@lru_cache(maxsize=256)  # the reference tables a turn may cite are the same every turn
def _values_in(text: str) -> tuple[float, ...]:
    """Every value the numbers of ``text`` can be read as, sorted (read-only: cached)."""
    return tuple(sorted({v for n in stated_numbers(text) for v in n.values}))


def used_backing(
    draft: str, backing: Sequence[Backing], later: Later | None = None
) -> list[Backing]:
    """For each number of the draft, the first backing text that supports it: the user's
    words before the tools, the tools before the reference tables, so a figure an entry or a
    tool returned is not credited to a table that happens to hold it too. A year names a
    period more than it quotes a figure, so it singles out no text. ``later``'s texts come
    after ``backing``'s, read only for the numbers none of those supports."""
    # A figure repeated in the draft is looked up once: the same text backs it each time.
    drafted = {
        (n.values, n.decimals, n.scale): n
        for n in stated_numbers(draft)
        if not _small(n) and not _year(n)
    }.values()
    used: dict[int, Backing] = {}
    unmatched = _credit(drafted, backing, used)
    if unmatched and later is not None:
        extra = [item for item in later() if item.text]
        _credit(unmatched, extra, used)
        backing = [*backing, *extra]
    return [item for item in backing if id(item) in used]


def _credit(
    drafted: Iterable[Stated], backing: Sequence[Backing], used: dict[int, Backing]
) -> list[Stated]:
    """Credit each drafted number to the first text of ``backing`` that supports it, into
    ``used``; return the numbers none supports. Every text's values are looked up at once, in
    one sorted list of (value, the text's place in ``backing``)."""
    merged = sorted(
        (value, place) for place, item in enumerate(backing) for value in _values_in(item.text)
    )
    values = [value for value, _ in merged]
    unmatched = []
    for stated in drafted:
        first = min(
            (
                merged[i][1]
                for value, places in zip(stated.values, stated.decimals, strict=True)
                for i in _near(values, value, places, stated.scale)
            ),
            default=None,
        )
        if first is None:
            unmatched.append(stated)
        else:
            used.setdefault(id(backing[first]), backing[first])
    return unmatched


def _year(stated: Stated) -> bool:
    return stated.date or (
        stated.decimals == (0,)
        and stated.scale == 1
        and all(1900 <= v <= 2100 for v in stated.values)
    )


def _small(stated: Stated) -> bool:
    # Any reading a count could have ("1,000" is also 1,0): too common to single a text out.
    return any(v.is_integer() and 0 <= v <= _FREE_UP_TO for v in stated.values)


def _free(stated: Stated) -> bool:
    return not stated.date and all(v.is_integer() and 0 <= v <= _FREE_UP_TO for v in stated.values)


def _precision(value: float, places: int, scale: float = 1.0) -> float:
    """Half the step of the last digit written: 9.430,5 → 0,05; "13 mil" → 500; 49.000 → 500
    (trailing zeros may be a rounding, down to two significant digits)."""
    if places:
        return 0.5 * 10**-places * scale
    if value == 0:
        return 0.5
    digits = round(value / scale)
    zeros = len(str(digits)) - len(str(digits).rstrip("0"))
    magnitude = math.floor(math.log10(abs(value)))
    power = math.floor(math.log10(scale)) + zeros
    return 0.5 * 10 ** max(0, min(power, magnitude - 1))


def _supports(value: float, places: int, known: Sequence[float], scale: float = 1.0) -> bool:
    """``value``, written with ``places`` decimals, is a known number or a rounding of one."""
    return bool(_near(known, value, places, scale))


def _near(known: Sequence[float], value: float, places: int, scale: float) -> list[int]:
    """Where in ``known`` (sorted) the numbers ``value`` may be a rounding of stand. Only the
    few near it are compared, each exactly (the window is a hair wider than the tolerance,
    for float rounding)."""
    tolerance = _precision(value, places, scale) + 1e-9
    margin = tolerance + 1e-9 * abs(value)
    low = bisect_left(known, value - margin)
    high = bisect_right(known, value + margin, low)
    return [i for i in range(low, high) if abs(known[i] - value) <= tolerance]


class _Steps:
    """Rules 3 to 5: the results of one step of arithmetic over the numbers a run read.

    Each kind of step is judged on its own (rule 4). A share is a part over a whole, and a
    whole is a number the run read that other numbers it read add up to, or the largest of
    its text (its total): "86% do escopo 1" is 8.120,5 over 9.430,5 = 8.120,5 + 1.310,0,
    not any of the hundreds of ratios between unrelated figures.
    """

    def __init__(
        self, read: Sequence[Sequence[Stated]], *, triples: bool = True, near: int = _MAX_NEAR
    ) -> None:
        self._near = near
        operands: dict[float, None] = {}
        percents: dict[float, None] = {}
        largest: set[float] = set()
        for text in read:
            values = []
            for stated in text:
                if _year(stated) or stated.identifier or stated.duration:
                    continue  # years, names, days and durations are not figures
                target = percents if stated.percent else operands
                for value in stated.values:
                    if value > _FREE_UP_TO or (value > 0 and not value.is_integer()):
                        target.setdefault(value, None)
                        values += [] if stated.percent else [value]
            if values:
                largest.add(max(values))
        magnitudes = np.array(list(operands)[:_MAX_PAIR_OPERANDS], dtype=float)
        shares = np.array(list(percents)[:_MAX_PAIR_OPERANDS], dtype=float)
        plain: dict[str, np.ndarray] = {}
        percent: dict[str, np.ndarray] = {}
        sums = np.array([])
        if len(magnitudes) >= 2:
            i, j = np.triu_indices(len(magnitudes), k=1)
            a, b = magnitudes[i], magnitudes[j]
            small, large = np.minimum(a, b), np.maximum(a, b)
            sums = a + b
            plain.update(sum=sums, difference=large - small, product=a * b)
            plain["ratio"] = np.concatenate([large / small, small / large])
            percent["change"] = np.concatenate(
                [100 * (large - small) / small, 100 * (large - small) / large]
            )
        few = magnitudes[:_MAX_TRIPLE_OPERANDS] if triples else magnitudes[:0]
        if len(few) >= 3:
            triples = np.array(list(combinations(range(len(few)), 3)))
            plain["sum of three"] = few[triples].sum(axis=1)
            sums = np.concatenate([sums, plain["sum of three"]])
        if len(magnitudes):
            plain["unit"] = np.concatenate([magnitudes * f for f in (1e3, 1e6, 1e-3, 1e-6)])
            wholes = magnitudes[[v in largest or _is_sum(v, sums) for v in magnitudes]]
            parts = magnitudes[:, None]
            ratio = np.where(parts < wholes[None, :], parts / wholes[None, :], np.nan).ravel()
            ratio = ratio[~np.isnan(ratio)]
            percent.update(share=100 * ratio, rest=100 * (1 - ratio))
        if len(magnitudes) and len(shares):
            plain["percent of"] = np.outer(magnitudes, shares / 100).ravel()
            plain["percent off"] = np.outer(magnitudes, 1 - shares / 100).ravel()
        if len(shares) >= 2:
            i, j = np.triu_indices(len(shares), k=1)
            percent["sum of shares"] = shares[i] + shares[j]
            percent["difference of shares"] = np.abs(shares[i] - shares[j])
        if len(shares):
            percent["rest of a share"] = 100 - shares[shares < 100]
        self._plain = {k: np.unique(np.round(r, 9)) for k, r in plain.items() if len(r)}
        self._percent = {k: np.unique(np.round(r, 9)) for k, r in percent.items() if len(r)}

    def derive(self, value: float, places: int, stated: Stated) -> bool:
        """One kind of step gives ``value``, and specifically (rule 4). A whole number with
        trailing zeros is judged first as exact (700 is 700 ± 0,5) and then as a rounding
        (700 ± 5), each with the window of its own precision."""
        kinds = self._percent if stated.percent else self._plain
        exact = 0.5 * 10**-places * stated.scale
        loose = _precision(value, places, stated.scale)
        for name, results in kinds.items():
            if stated.money and name == "unit":
                continue  # a mass in t is not R$ in thousands
            for precision in dict.fromkeys((exact, loose)):
                if _specific(results, value, precision, self._near):
                    return True
        return False


def _specific(results: np.ndarray, value: float, precision: float, near: int) -> bool:
    tolerance = precision + 1e-9
    low, high = np.searchsorted(results, [value - tolerance, value + tolerance])
    if high <= low:
        return False
    window = _WINDOW * precision
    near_low, near_high = np.searchsorted(results, [value - window, value + window])
    return near_high - near_low <= near


def _is_sum(value: float, sums: np.ndarray) -> bool:
    """``value`` is what two or three other numbers read add up to, to its last digit."""
    return bool(len(sums)) and bool(np.any(np.abs(sums - value) <= 1e-6 * value + 0.051))


def cited_sources(
    answer: str, backing: Sequence[Backing], later: Later | None = None
) -> list[AekoSource]:
    """The sources an answer stands on: every text read as a whole (the knowledge-base entries
    a tool returned), and each other source whose text supports a number of the answer. In
    the order read, each once. ``later``'s texts (the reference tables) are cited only when
    they hold a number that none of ``backing`` does."""
    used = used_backing(answer, backing, later)
    ids, read = {id(item) for item in used}, {id(item) for item in backing}
    cited: dict[str, AekoSource] = {}
    for item in (*backing, *(item for item in used if id(item) not in read)):
        if item.read_whole or id(item) in ids:
            for source in item.sources:
                cited.setdefault(source.ref, source)
    return list(cited.values())
