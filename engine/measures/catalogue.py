"""The catalogue of reduction measures: lower-carbon options per source, fuel or gas, each with
its typical reduction range and the reference behind it (``data/measures.csv``).

The CSV is the one place a range is written. The offline analyst answers from it, and the
agents' prompts render it (and every worked example that applies a range to tonnes) when they
are built, so an edit to a row changes every text that cites it.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Literal

from engine.formatting import number
from engine.protocol import fold

# The same alias as engine.offline.language's: importing that one from here would run
# engine.offline's package init, which imports this module back through the offline agents.
Language = Literal["pt", "en"]

_COLUMNS = (
    "id", "match", "source_pt", "source_en", "alternative_pt", "alternative_en",
    "reduction_min_pct", "reduction_max_pct", "basis_pt", "basis_en", "reference",
)  # fmt: skip
_REF = {"pt": "Referência", "en": "Reference"}
_TO = {"pt": "a", "en": "to"}


@dataclass(frozen=True)
class Avoided:
    """t CO2e a measure avoids per year, as whole tonnes (the prompts' examples show no
    decimals); the bounds add up so a plan's total is the sum of the lines a reader sees."""

    low: int
    high: int

    def __add__(self, other: Avoided) -> Avoided:
        return Avoided(self.low + other.low, self.high + other.high)

    def text(self, language: Language = "pt") -> str:
        if self.low == self.high:
            return number(self.low, 0, language)
        return f"{number(self.low, 0, language)} {_TO[language]} {number(self.high, 0, language)}"


@dataclass(frozen=True)
class Alternative:
    key: str
    keywords: tuple[str, ...]
    source: dict[str, str]
    alternative: dict[str, str]
    reduction_min_pct: int
    reduction_max_pct: int
    basis: dict[str, str]
    reference: str

    def span(self, language: Language = "pt") -> str:
        """The range as the prompts write it: '40% a 70%'."""
        return f"{self.reduction_min_pct}% {_TO[language]} {self.reduction_max_pct}%"

    def describe(self, language: Language) -> str:
        return (
            f"{self.alternative[language]}: {self.reduction_min_pct}–{self.reduction_max_pct}% "
            f"({self.basis[language]} {_REF[language]}: {self.reference})"
        )

    def avoided(self, tonnes: float, share_pct: float = 100) -> Avoided:
        """What replacing ``share_pct`` of a source emitting ``tonnes`` avoids. Decimal keeps
        2.310 × 25% × 60% at exactly 346,5, which rounds up as a reader rounding by hand would;
        a float product can land just below the half and round the other way."""
        exact = Decimal(str(tonnes)) * Decimal(str(share_pct)) / 100
        low, high = (exact * pct / 100 for pct in (self.reduction_min_pct, self.reduction_max_pct))
        return Avoided(whole_tonnes(low), whole_tonnes(high))

    def account(
        self, tonnes: float, share_pct: float | None = None, language: Language = "pt"
    ) -> str:
        """The sum a worked example shows, '2.310 × 30% × 70% a 100% = 485 a 693': the
        source's t CO2e, the share replaced (when not all of it), the range, the t avoided."""
        share = "" if share_pct is None else f" × {number(share_pct, 0, language)}%"
        avoided = self.avoided(tonnes, 100 if share_pct is None else share_pct)
        return (
            f"{number(tonnes, 0, language)}{share} × {self.span(language)} = "
            f"{avoided.text(language)}"
        )

    def line(self, language: Language = "pt", *, detailed: bool = True) -> str:
        """One catalogue line: source → option and the range, then (detailed) its basis and
        its reference."""
        head = f"- {self.source[language]} → {self.alternative[language]}: {self.span(language)}"
        if not detailed:
            return head
        return f"{head}. {self.basis[language]} {_REF[language]}: {self.reference}."


def whole_tonnes(value: float | Decimal) -> int:
    """Whole tonnes, halves up, as a reader rounding by hand would (346,5 → 347)."""
    exact = value if isinstance(value, Decimal) else Decimal(str(value))
    return int(exact.quantize(Decimal(1), rounding=ROUND_HALF_UP))


@dataclass(frozen=True)
class Catalogue:
    rows: tuple[Alternative, ...]

    def __post_init__(self) -> None:
        keys = [row.key for row in self.rows]
        repeated = sorted({key for key in keys if keys.count(key) > 1})
        if repeated:
            raise ValueError(f"measure ids must be unique; repeated: {repeated}")

    def __iter__(self) -> Iterator[Alternative]:
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, key: str) -> Alternative:
        for row in self.rows:
            if row.key == key:
                return row
        raise KeyError(f"no measure {key!r} in the catalogue")

    def render(self, language: Language = "pt", *, detailed: bool = True) -> str:
        """The whole catalogue as prompt text, one line per option, in the CSV's order; the
        short form (ranges only) is for agents that check ranges rather than propose them."""
        return "\n".join(row.line(language, detailed=detailed) for row in self.rows)

    def matching(self, text: str) -> list[Alternative]:
        """Every option whose source keywords appear in ``text`` (a fuel, source or gas
        name). Keywords longer than three letters also match with the spaces taken out, so
        'R 410 A' and 'HFC134a' find their rows; short ones ('gn', 'glp') must stand alone."""
        haystack = _normal(text)
        compact = haystack.replace(" ", "")
        found = []
        for option in self.rows:
            for keyword in option.keywords:
                needle = _normal(keyword)
                if needle in haystack or (
                    len(needle.strip()) > 3 and needle.replace(" ", "") in compact
                ):
                    found.append(option)
                    break
        return found


def _normal(text: str) -> str:
    return " " + re.sub(r"[^a-z0-9]+", " ", fold(text)).strip() + " "


def read_catalogue(path: Path) -> Catalogue:
    """A catalogue from any CSV with the columns of ``data/measures.csv``."""
    with path.open(encoding="utf-8", newline="") as handle:
        return _parse(csv.DictReader(handle), str(path))


def _parse(reader: csv.DictReader[str], where: str) -> Catalogue:
    missing = [c for c in _COLUMNS if c not in (reader.fieldnames or ())]
    if missing:
        raise ValueError(f"{where}: missing columns {missing}")
    rows = []
    for row in reader:
        low, high = int(row["reduction_min_pct"]), int(row["reduction_max_pct"])
        # A range is printed into prompts and applied to tonnes: a reversed or out-of-bounds
        # one would turn into a wrong number in every answer, so the edit fails here instead.
        if not 0 <= low <= high <= 100:
            raise ValueError(f"{where}: {row['id']}: range {low}–{high}% is not within 0–100")
        rows.append(
            Alternative(
                key=row["id"],
                keywords=tuple(k.strip() for k in row["match"].split("|") if k.strip()),
                source={"pt": row["source_pt"], "en": row["source_en"]},
                alternative={"pt": row["alternative_pt"], "en": row["alternative_en"]},
                reduction_min_pct=low,
                reduction_max_pct=high,
                basis={"pt": row["basis_pt"], "en": row["basis_en"]},
                reference=row["reference"],
            )
        )
    return Catalogue(tuple(rows))


@cache
def shipped_catalogue() -> Catalogue:
    """The shipped catalogue, read once per process."""
    path = resources.files("engine.measures").joinpath("data").joinpath("measures.csv")
    with path.open(encoding="utf-8", newline="") as handle:
        return _parse(csv.DictReader(handle), "measures.csv")


def table() -> tuple[Alternative, ...]:
    return shipped_catalogue().rows


def alternatives_for(text: str) -> list[Alternative]:
    """Every shipped option whose source keywords appear in ``text``."""
    return shipped_catalogue().matching(text)
