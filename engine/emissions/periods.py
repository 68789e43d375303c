"""The period an activity happened in: a year, a month or a day, as a closed date range.

    parse_period(2024)          -> Period(2024-01-01, 2024-12-31, "2024")
    parse_period("06/2024")     -> Period(2024-06-01, 2024-06-30, "2024-06")
    parse_period("2024-06-15")  -> Period(2024-06-15, 2024-06-15, "2024-06-15")
    relative_year("burned last year", today=date(2026, 5, 1))  -> 2025

A factor applies to a period when its validity covers the whole period; grid factors exist
per month and per year, so the month asks for the monthly one and the year for the annual.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, datetime
from functools import lru_cache

from engine.emissions.errors import PeriodError
from engine.protocol import fold

_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("jan", "janeiro", "january"),
            ("fev", "feb", "fevereiro", "february"),
            ("mar", "marco", "march"),
            ("abr", "apr", "abril", "april"),
            ("mai", "may", "maio"),
            ("jun", "junho", "june"),
            ("jul", "julho", "july"),
            ("ago", "aug", "agosto", "august"),
            ("set", "sep", "sept", "setembro", "september"),
            ("out", "oct", "outubro", "october"),
            ("nov", "novembro", "november"),
            ("dez", "dec", "dezembro", "december"),
        ),
        start=1,
    )
    for name in names
}
_YEAR = re.compile(r"^(?P<year>\d{4})$")
_ISO_MONTH = re.compile(r"^(?P<year>\d{4})[-/.](?P<month>\d{1,2})$")
_MONTH_YEAR = re.compile(r"^(?P<month>\d{1,2})[-/.](?P<year>\d{4})$")
_ISO_DAY = re.compile(r"^(?P<year>\d{4})-(?P<month>\d{1,2})-(?P<day>\d{1,2})(?:[ t].*)?$")
_BR_DAY = re.compile(r"^(?P<day>\d{1,2})[/.-](?P<month>\d{1,2})[/.-](?P<year>\d{4})$")
_NAMED_MONTH = re.compile(r"^(?P<name>[a-z]+)\.?(?:\s*(?:de|/|-|\s)\s*)(?P<year>\d{4})$")
_FIRST_YEAR, _LAST_YEAR = 1900, 2100
# Years named relative to today, folded: "last year" is the previous calendar year, never
# the last twelve months (a factor is per calendar year).
_RELATIVE_YEARS = tuple(
    (re.compile(rf"(?<![a-z])(?:{'|'.join(phrases)})(?![a-z])"), offset)
    for offset, phrases in (
        (-2, ("year before last", "ano retrasado")),
        (-1, ("last year", "previous year", "prior year", "ano passado",
              "ano anterior")),
        (0, ("this year", "current year", "este ano", "neste ano", "esse ano", "nesse ano",
             "ano atual", "ano corrente", "ano vigente")),
    )
)  # fmt: skip


@dataclass(frozen=True, order=True)
class Period:
    start: date
    end: date
    label: str  # ISO: "2024", "2024-06" or "2024-06-15"

    @property
    def days(self) -> int:
        return (self.end - self.start).days + 1

    def __str__(self) -> str:
        return self.label


def year_period(year: int) -> Period:
    _check_year(year, str(year))
    return Period(date(year, 1, 1), date(year, 12, 31), f"{year:04d}")


def month_period(year: int, month: int) -> Period:
    _check_year(year, f"{year}-{month}")
    if not 1 <= month <= 12:
        raise PeriodError(f"{year}-{month}")
    last = calendar.monthrange(year, month)[1]
    return Period(date(year, month, 1), date(year, month, last), f"{year:04d}-{month:02d}")


def day_period(day: date) -> Period:
    _check_year(day.year, day.isoformat())
    return Period(day, day, day.isoformat())


def _check_year(year: int, shown: str) -> None:
    if not _FIRST_YEAR <= year <= _LAST_YEAR:
        raise PeriodError(shown)


def relative_year(text: str, today: date) -> int | None:
    """The calendar year a text names relative to ``today`` ("last year", "ano passado",
    "este ano"), or None when it names none."""
    folded = fold(text)
    for pattern, offset in _RELATIVE_YEARS:
        if pattern.search(folded):
            return today.year + offset
    return None


def parse_period(value: date | int | str | Period) -> Period:
    """A year, a month or a day from a date, an int year or a text; PeriodError otherwise."""
    if isinstance(value, Period):
        return value
    if isinstance(value, datetime):
        return day_period(value.date())
    if isinstance(value, date):
        return day_period(value)
    if isinstance(value, bool):
        raise PeriodError(str(value))
    if isinstance(value, int):
        return year_period(value)
    if isinstance(value, float) and value.is_integer():
        return year_period(int(value))  # a year read from a spreadsheet cell: 2024.0
    if isinstance(value, str):
        return _parse_text(value)
    raise PeriodError(str(value))


@lru_cache(maxsize=4096)
def _parse_text(text: str) -> Period:
    folded = fold(text)
    try:
        if match := _YEAR.match(folded):
            return year_period(int(match["year"]))
        if match := _ISO_MONTH.match(folded) or _MONTH_YEAR.match(folded):
            return month_period(int(match["year"]), int(match["month"]))
        if match := _ISO_DAY.match(folded) or _BR_DAY.match(folded):
            # Brazilian order (dd/mm/yyyy) for slashes: the product's users are Brazilian.
            day = date(int(match["year"]), int(match["month"]), int(match["day"]))
            return day_period(day)
        if (match := _NAMED_MONTH.match(folded)) and match["name"] in _MONTHS:
            return month_period(int(match["year"]), _MONTHS[match["name"]])
    except ValueError as error:  # 2024-02-30
        raise PeriodError(text) from error
    raise PeriodError(text)
