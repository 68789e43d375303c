"""Is every number of an answer backed by something the run read?

The guardrail sends a draft back when it states a number that no tool result, attached
inventory, reference table or the user's own words contain. A model may round what it read
(48.976,59 → "49 mil" or "48.977"), and it may write it in either language's notation; it may
not produce a figure that appears nowhere.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.dto import AekoSource

# A number that stands alone: not the "2" of CO2, the "410" of R-410A or the "5" of AR5.
_NUMBER = re.compile(
    r"(?<![\w\-/.,])(\d{1,3}(?:[.,\u00a0 ]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?)"
    r"(?![\w\-])(\s*(?:mil\b|thousand\b|milh[oõ]es\b|milh[aã]o\b|million\b|mi\b))?",
    re.IGNORECASE,
)
_SCALE = {"mil": 1e3, "thousand": 1e3, "mi": 1e6, "million": 1e6}
# Counts and ordinals an answer needs without a source: "3 fontes", "Escopo 1", "item 2".
_FREE_UP_TO = 10


@dataclass(frozen=True)
class Stated:
    raw: str  # as written, with its scale word
    values: tuple[float, ...]  # every reading of it (1.240 is 1240 in pt and 1.24 in en)
    decimals: tuple[int, ...]  # the decimals each reading was written with


@dataclass(frozen=True)
class Backing:
    """A text the run read, and the sources an answer cites when it quotes from it."""

    text: str
    sources: tuple[AekoSource, ...] = ()
    # A text the answer was written from as a whole (a knowledge-base entry a tool returned)
    # is cited whether or not it holds a number; a reference table only when quoted.
    read_whole: bool = False


def stated_numbers(text: str) -> list[Stated]:
    found = []
    for match in _NUMBER.finditer(text):
        digits, scale_word = match.group(1), (match.group(2) or "").strip().lower()
        scale = _SCALE.get(scale_word, 1e6) if scale_word else 1.0  # milhões, milhão
        readings = _readings(digits)
        found.append(
            Stated(
                raw=match.group(0).strip(),
                values=tuple(value * scale for value, _ in readings),
                decimals=tuple(places for _, places in readings),
            )
        )
    return found


def _readings(digits: str) -> list[tuple[float, int]]:
    """The values a written number can mean, with the decimals it shows in each reading."""
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
        readings.append((float(".".join(parts)), places))
    return list(dict.fromkeys(readings)) or [(float(re.sub(r"\D", "", plain) or 0), 0)]


def unbacked(draft: str, backing: Sequence[Backing]) -> list[str]:
    """The numbers of ``draft`` that nothing in ``backing`` supports, as written."""
    known = sorted({v for text in backing for n in stated_numbers(text.text) for v in n.values})
    missing = []
    for stated in stated_numbers(draft):
        if _free(stated) or any(
            _supports(value, places, known)
            for value, places in zip(stated.values, stated.decimals, strict=True)
        ):
            continue
        missing.append(stated.raw)
    return list(dict.fromkeys(missing))


def used_backing(draft: str, backing: Sequence[Backing]) -> list[Backing]:
    """For each number of the draft, the first backing text that supports it: the user's
    words before the tools, the tools before the reference tables, so a figure an entry or a
    tool returned is not credited to a table that happens to hold it too. A year names a
    period more than it quotes a figure, so it singles out no text."""
    drafted = [n for n in stated_numbers(draft) if not _small(n) and not _year(n)]
    known = [sorted({v for n in stated_numbers(item.text) for v in n.values}) for item in backing]
    used: dict[int, Backing] = {}
    for stated in drafted:
        for item, values in zip(backing, known, strict=True):
            if any(
                _supports(value, places, values)
                for value, places in zip(stated.values, stated.decimals, strict=True)
            ):
                used.setdefault(id(item), item)
                break
    return [item for item in backing if id(item) in used]


def _year(stated: Stated) -> bool:
    return stated.decimals == (0,) and all(1900 <= v <= 2100 for v in stated.values)


def _small(stated: Stated) -> bool:
    # Any reading a count could have ("1,000" is also 1,0): too common to single a text out.
    return any(v.is_integer() and 0 <= v <= _FREE_UP_TO for v in stated.values)


def _free(stated: Stated) -> bool:
    return all(v.is_integer() and 0 <= v <= _FREE_UP_TO for v in stated.values)


def _supports(value: float, places: int, known: Iterable[float]) -> bool:
    """``value``, written with ``places`` decimals, is a known number or a rounding of one."""
    tolerance = 0.5 * 10**-places + 1e-9
    for candidate in known:
        if abs(candidate - value) <= tolerance or _rounded_to_power(candidate, value, places):
            return True
    return False


def _rounded_to_power(candidate: float, value: float, places: int) -> bool:
    """48.976,59 rounded to 49.000, or to 48.980: two significant digits at least."""
    if places or value == 0 or candidate == 0:
        return False
    magnitude = math.floor(math.log10(abs(value)))
    for power in range(1, magnitude):  # keep two significant digits at least
        step = 10**power
        if value % step == 0 and round(candidate / step) * step == value:
            return True
    return False


def cited_sources(answer: str, backing: Sequence[Backing]) -> list[AekoSource]:
    """The sources an answer stands on: every text read as a whole (the knowledge-base entries
    a tool returned), and each other source whose text supports a number of the answer. In
    the order read, each once."""
    used = {id(item) for item in used_backing(answer, backing)}
    cited: dict[str, AekoSource] = {}
    for item in backing:
        if item.read_whole or id(item) in used:
            for source in item.sources:
                cited.setdefault(source.ref, source)
    return list(cited.values())
