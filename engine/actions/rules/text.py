"""Figures as the rules' bilingual bases and KPIs write them: shares, tonnes, ranges and the
short name of a fuel or a substitute.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from engine.actions.rules.cut import Share
from engine.formatting import number
from engine.texts import LANGS, Both


def pct(value: float, lang: str) -> str:
    return f"{number(value * 100, 0, lang)}%"


def span(share: Share, lang: str) -> str:
    low, high = share
    if low == high:
        return pct(low, lang)
    return f"{number(low * 100, 0, lang)}–{pct(high, lang)}"


def tonnes(value: float, lang: str) -> str:
    return number(value, 1, lang)


def tonnes_range(low: float, high: float, lang: str) -> str:
    """'20,0–100,0', or one figure when both ends agree."""
    if tonnes(low, lang) == tonnes(high, lang):
        return tonnes(low, lang)
    return f"{tonnes(low, lang)}–{tonnes(high, lang)}"


def short_names(texts: Mapping[str, str]) -> dict[str, str]:
    """A catalogue row's bilingual name or source, each cut to its short name."""
    return {lang: short(texts[lang]) for lang in LANGS}


def short(text: str) -> str:
    """'Biodiesel B100 (no Brasil, ...)' -> 'Biodiesel B100': the name a KPI line needs."""
    return re.sub(r"\s*\([^)]*\)", "", text).strip() or text


def in_both(write: Callable[..., str], *values: object) -> Both:
    """A figure in each language's notation: ``write(*values, lang)`` for pt and en."""
    return Both(write(*values, "pt"), write(*values, "en"))


def of(texts: Mapping[str, str]) -> Both:
    """A catalogue's bilingual field (a name, a basis) as a value for a table's template."""
    return Both(texts["pt"], texts["en"])
