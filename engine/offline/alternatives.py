"""Lower-carbon options per source, fuel or gas (data/green_alternatives.csv), with the
typical reduction range and the reference behind each figure."""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from engine.offline.language import Language
from engine.protocol import fold


@dataclass(frozen=True)
class Alternative:
    keywords: tuple[str, ...]
    source: dict[str, str]
    alternative: dict[str, str]
    reduction_min_pct: int
    reduction_max_pct: int
    basis: dict[str, str]
    reference: str

    def describe(self, language: Language) -> str:
        return (
            f"{self.alternative[language]}: {self.reduction_min_pct}–{self.reduction_max_pct}% "
            f"({self.basis[language]} {_REF[language]}: {self.reference})"
        )


_REF = {"pt": "Referência", "en": "Reference"}


@cache
def table() -> tuple[Alternative, ...]:
    path = resources.files("engine.offline").joinpath("data").joinpath("green_alternatives.csv")
    with path.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    return tuple(
        Alternative(
            keywords=tuple(k.strip() for k in row["match"].split("|") if k.strip()),
            source={"pt": row["source_pt"], "en": row["source_en"]},
            alternative={"pt": row["alternative_pt"], "en": row["alternative_en"]},
            reduction_min_pct=int(row["reduction_min_pct"]),
            reduction_max_pct=int(row["reduction_max_pct"]),
            basis={"pt": row["basis_pt"], "en": row["basis_en"]},
            reference=row["reference"],
        )
        for row in rows
    )


def _normal(text: str) -> str:
    return " " + re.sub(r"[^a-z0-9]+", " ", fold(text)).strip() + " "


def alternatives_for(text: str) -> list[Alternative]:
    """Every option whose source keywords appear in ``text`` (a fuel, source or gas name)."""
    haystack = _normal(text)
    compact = haystack.replace(" ", "")
    found = []
    for option in table():
        for keyword in option.keywords:
            needle = _normal(keyword)
            if needle in haystack or (
                len(needle.strip()) > 3 and needle.replace(" ", "") in compact
            ):
                found.append(option)
                break
    return found
