"""Emission factors as data: one validated row per value, with its source and validity.

Every file of ``data/`` and every file a user uploads has the same twelve columns::

    key,gas,value,unit,region,valid_from,valid_to,document,table,year,url,note

A lookup picks, among the factors for (key, gas) whose validity covers the whole period:
the user's over the library's, then the region asked (BR) over GLOBAL, then the narrowest
validity (a month's grid factor over the year's).
"""

from __future__ import annotations

import csv
import io
import math
import re
import tomllib
from collections.abc import Iterable, Iterator
from datetime import date
from functools import cache
from importlib import resources
from typing import Any

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from pydantic import model_validator as _model_validator
from pydantic_core import PydanticCustomError

from engine.emissions.errors import FactorFileError, UnitError
from engine.emissions.periods import Period
from engine.emissions.units import parse_unit
from engine.texts import Both, Texts

COLUMNS = ("key", "gas", "value", "unit", "region", "valid_from", "valid_to",
           "document", "table", "year", "url", "note")  # fmt: skip
REQUIRED_COLUMNS = ("key", "gas", "value", "unit", "document")
PROPERTY = "-"  # the gas of a property: a density, a calorific value, a blend share
GASES = ("CO2", "CH4", "N2O", "CO2_biogenic", PROPERTY)
_GAS_SPELLINGS = {gas.casefold(): gas for gas in GASES} | {
    "co2 biogenic": "CO2_biogenic",
    "co2_biogenico": "CO2_biogenic",
    "co2 biogenico": "CO2_biogenic",
}
DEFAULT_REGION = "BR"
GLOBAL = "GLOBAL"
# Keys whose annual factor is, by its publisher's method, the arithmetic mean of the twelve
# monthly ones: MCTI/SIRENE's SIN average factor (its published 2011, 2023 and 2024 annual
# figures equal the mean of their months). A year with only monthly rows still gets its
# annual factor, computed, not a refusal: analysts report consumption per year.
_ANNUAL_IS_MONTHLY_MEAN = frozenset({"electricity@grid"})


class Factor(BaseModel):
    """One value of one source. ``user`` marks a factor the user brought."""

    model_config = ConfigDict(frozen=True, str_strip_whitespace=True)

    key: str = Field(min_length=1)
    gas: str
    value: float
    unit: str
    region: str = GLOBAL
    valid_from: date | None = None
    valid_to: date | None = None
    document: str = Field(min_length=1)
    table: str = ""
    year: int | None = None
    url: str = ""
    note: str = ""
    user: bool = False

    @field_validator("valid_from", "valid_to", "year", mode="before")
    @classmethod
    def _empty_is_open(cls, value: Any) -> Any:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("gas")
    @classmethod
    def _known_gas(cls, value: str) -> str:
        gas = _GAS_SPELLINGS.get(value.casefold())
        if gas is None:
            raise PydanticCustomError(
                "gas", "unknown gas {gas}: use one of {known}", {"gas": value, "known": GASES}
            )
        return gas

    @field_validator("value")
    @classmethod
    def _finite_non_negative(cls, value: float) -> float:
        if not math.isfinite(value) or value < 0:
            raise PydanticCustomError("value", "must be a finite number ≥ 0", {})
        return value

    @field_validator("unit")
    @classmethod
    def _readable_unit(cls, value: str) -> str:
        try:
            parse_unit(value)
        except UnitError:
            raise PydanticCustomError(
                "unit", "pint cannot read the unit {unit}", {"unit": value}
            ) from None
        return value

    @field_validator("region")
    @classmethod
    def _upper_region(cls, value: str) -> str:
        return value.upper() or GLOBAL

    @_model_validator(mode="after")
    def _ordered_validity(self) -> Factor:
        if self.valid_from and self.valid_to and self.valid_from > self.valid_to:
            raise PydanticCustomError(
                "validity",
                "valid_from {start} is after valid_to {end}",
                {"start": str(self.valid_from), "end": str(self.valid_to)},
            )
        return self

    def covers(self, period: Period) -> bool:
        return (self.valid_from is None or self.valid_from <= period.start) and (
            self.valid_to is None or period.end <= self.valid_to
        )

    @property
    def validity(self) -> str:
        """'2024-03-01 – 2025-07-31', '2024-03-01 –' or '' when always valid."""
        if self.valid_from is None and self.valid_to is None:
            return ""
        start = self.valid_from.isoformat() if self.valid_from else ""
        end = self.valid_to.isoformat() if self.valid_to else ""
        return f"{start} – {end}".strip()

    @property
    def source(self) -> str:
        """'document, table (year)': how an answer cites the factor."""
        return self.source_in("en")

    def source_in(self, lang: str = "pt") -> str:
        """The citation in ``lang``: the title as published, our words around it in the
        language (data/source_words.toml); 'en' is the factor file's own text."""
        document, table = self.document, self.table
        if lang.lower().startswith("pt"):
            document, table = portuguese_document(document), portuguese_table(table)
        text = ", ".join(part for part in (document, table) if part)
        return f"{text} ({self.year})" if self.year else text

    def _span(self) -> int:
        if self.valid_from is None or self.valid_to is None:
            return 1 << 30  # open validity: the widest
        return (self.valid_to - self.valid_from).days


@cache
def _source_words() -> dict[str, Any]:
    text = (
        resources.files("engine.emissions")
        .joinpath("data/source_words.toml")
        .read_text(encoding="utf-8")
    )
    words = tomllib.loads(text)
    patterns = [(re.compile(k), v) for k, v in words.get("table_patterns", {}).items()]
    return {"document": words.get("document", {}), "table": words.get("table", {}),
            "patterns": patterns}  # fmt: skip


def portuguese_document(document: str) -> str:
    """A factor's document in Portuguese: its title as published, our words translated."""
    return _source_words()["document"].get(document, document)


def portuguese_table(table: str) -> str:
    """A factor's table ('Table 3.2.1', 'monthly factor 2024-06') in Portuguese."""
    words = _source_words()
    if table in words["table"]:
        return words["table"][table]
    for pattern, replacement in words["patterns"]:
        if pattern.fullmatch(table):
            return pattern.sub(replacement, table)
    return table


class FactorLibrary:
    """An immutable set of factors, indexed by (key, gas)."""

    def __init__(self, factors: Iterable[Factor] = ()) -> None:
        self._factors = tuple(factors)
        self._index: dict[tuple[str, str], list[Factor]] = {}
        for factor in self._factors:
            self._index.setdefault((factor.key, factor.gas), []).append(factor)
        # The batch path asks the same (key, gas, region, period) for every group.
        self._memo: dict[tuple[str, str, str, Period], Factor | None] = {}

    @property
    def factors(self) -> tuple[Factor, ...]:
        return self._factors

    def __len__(self) -> int:
        return len(self._factors)

    def __iter__(self) -> Iterator[Factor]:
        return iter(self._factors)

    def __repr__(self) -> str:
        users = sum(f.user for f in self._factors)
        return f"FactorLibrary({len(self._factors)} factors, {users} user's)"

    def factor_keys(self) -> set[str]:
        return {key for key, _ in self._index}

    def has(self, key: str, gas: str | None = None) -> bool:
        if gas is not None:
            return (key, gas) in self._index
        return any(k == key for k, _ in self._index)

    def candidates(self, key: str, gas: str, region: str = DEFAULT_REGION) -> list[Factor]:
        """Every factor for (key, gas) that applies in ``region``, best first, any date."""
        region = region.upper()
        found = [f for f in self._index.get((key, gas), ()) if f.region in (region, GLOBAL)]
        return sorted(found, key=lambda f: (not f.user, f.region != region, f._span()))

    def lookup(
        self, key: str, gas: str, period: Period, region: str = DEFAULT_REGION
    ) -> Factor | None:
        """The factor for (key, gas) valid over the whole ``period``, or None."""
        memo_key = (key, gas, region, period)
        if memo_key not in self._memo:
            found = next((f for f in self.candidates(key, gas, region) if f.covers(period)), None)
            if found is None and key in _ANNUAL_IS_MONTHLY_MEAN:
                found = self._mean_of_months(key, gas, period, region)
            self._memo[memo_key] = found
        return self._memo[memo_key]

    def _mean_of_months(self, key: str, gas: str, period: Period, region: str) -> Factor | None:
        """A calendar year's factor as the mean of its twelve monthly factors, when all
        twelve come from one document; None otherwise (a partial year is not an average)."""
        start, end = period.start, period.end
        if (start.month, start.day, end.month, end.day) != (1, 1, 12, 31) or start.year != end.year:
            return None
        months: list[Factor] = []
        for month in range(1, 13):
            first = date(start.year, month, 1)
            last = date(start.year + (month == 12), month % 12 + 1, 1)
            last = date.fromordinal(last.toordinal() - 1)
            factor = next(
                (f for f in self.candidates(key, gas, region)
                 if f.valid_from == first and f.valid_to == last),
                None,
            )  # fmt: skip
            if factor is None:
                return None
            months.append(factor)
        if len({(f.document, f.unit, f.user) for f in months}) != 1:
            return None
        head = months[0]
        mean = sum(f.value for f in months) / 12
        return head.model_copy(
            update={
                "value": round(mean, 4),  # the publisher's precision
                "valid_from": start,
                "valid_to": end,
                "table": f"annual average {start.year}: mean of the 12 monthly factors",
                "note": "computed: the publisher's annual average is the arithmetic mean of "
                "its 12 monthly factors; may differ from its published annual figure in the "
                "4th decimal",
            }
        )

    def pieces(
        self, key: str, gas: str, period: Period, region: str = DEFAULT_REGION
    ) -> list[tuple[Factor, int]] | None:
        """Factors that together cover ``period`` day by day, with the days each covers;
        None when some day has no factor. For values that change inside a year (a blend's
        share): an annual quantity gets the day-weighted share."""
        candidates = self.candidates(key, gas, region)
        days: dict[int, int] = {}
        chosen: dict[int, Factor] = {}
        day = period.start
        while day <= period.end:
            rank = next(
                (i for i, f in enumerate(candidates) if f.covers(Period(day, day, ""))), None
            )
            if rank is None:
                return None
            factor = candidates[rank]
            # Jump to the end of this factor's validity, or to the day before a better
            # ranked factor starts: no per-day loop.
            end = min(factor.valid_to or period.end, period.end)
            for better in candidates[:rank]:
                if better.valid_from and day < better.valid_from <= end:
                    end = date.fromordinal(better.valid_from.toordinal() - 1)
            chosen[id(factor)] = factor
            days[id(factor)] = days.get(id(factor), 0) + (end - day).days + 1
            day = date.fromordinal(end.toordinal() + 1)
        return [(chosen[i], days[i]) for i in chosen]

    def available(self, key: str, gas: str, region: str = DEFAULT_REGION) -> str:
        """The validity the library has for (key, gas), in short: for a PeriodError."""
        found = self.candidates(key, gas, region)
        if any(f.valid_from is None and f.valid_to is None for f in found):
            return "sem prazo / open"
        if len(found) <= 4:
            return ", ".join(sorted(f.validity for f in found))
        starts = [f.valid_from for f in found if f.valid_from]
        ends = [f.valid_to for f in found if f.valid_to]
        first = min(starts).isoformat() if len(starts) == len(found) else ""
        last = max(ends).isoformat() if len(ends) == len(found) else ""
        return f"{first} – {last}".strip()

    def overlay(self, user: FactorLibrary) -> FactorLibrary:
        """This library with ``user``'s factors on top: they win every lookup they match."""
        marked = (f if f.user else f.model_copy(update={"user": True}) for f in user)
        return FactorLibrary((*self._factors, *marked))

    def to_frame(self) -> pd.DataFrame:
        """One row per factor, the twelve columns and ``user``: for a page or an export."""
        return pd.DataFrame([f.model_dump() for f in self._factors], columns=[*COLUMNS, "user"])


# --- reading CSVs -------------------------------------------------------------------------

# What is wrong with a cell of a factor CSV, by pydantic's error type (or our own check's).
_TEXTS = Texts(
    "engine.emissions.factors",
    {
        "gas": {
            "pt": "gás desconhecido '{gas}': use CO2, CH4, N2O, CO2_biogenic ou -",
            "en": "unknown gas '{gas}': use CO2, CH4, N2O, CO2_biogenic or -",
        },
        "value": {
            "pt": "o valor deve ser um número finito ≥ 0",
            "en": "the value must be a finite number ≥ 0",
        },
        "unit": {
            "pt": "unidade que o pint não lê: '{unit}'",
            "en": "a unit pint cannot read: '{unit}'",
        },
        "validity": {
            "pt": "valid_from ({start}) é posterior a valid_to ({end})",
            "en": "valid_from ({start}) is after valid_to ({end})",
        },
        "float_parsing": {
            "pt": "não é um número com ponto decimal (ex.: 74100 ou 0.47732)",
            "en": "is not a number with a decimal point (e.g. 74100 or 0.47732)",
        },
        "float_type": {"pt": "não é um número", "en": "is not a number"},
        "date_from_datetime_parsing": {
            "pt": "não é uma data AAAA-MM-DD",
            "en": "is not a YYYY-MM-DD date",
        },
        "date_parsing": {"pt": "não é uma data AAAA-MM-DD", "en": "is not a YYYY-MM-DD date"},
        "date_type": {"pt": "não é uma data AAAA-MM-DD", "en": "is not a YYYY-MM-DD date"},
        "int_parsing": {"pt": "não é um ano (ex.: 2006)", "en": "is not a year (e.g. 2006)"},
        "int_from_float": {"pt": "não é um ano (ex.: 2006)", "en": "is not a year (e.g. 2006)"},
        "string_too_short": {"pt": "está vazio", "en": "is empty"},
        "missing": {"pt": "está vazio", "en": "is empty"},
        "empty_file": {"pt": "o arquivo está vazio", "en": "the file is empty"},
        "missing_column": {
            "pt": "falta a coluna; as colunas são: {columns}",
            "en": "the column is missing; the columns are: {columns}",
        },
    },
)
_PROBLEMS = frozenset(_TEXTS) - {"empty_file", "missing_column"}


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252")  # Excel on Windows saves CSV in this encoding


def read_factor_csv(data: bytes, *, source_name: str, user: bool = True) -> FactorLibrary:
    """A factor CSV (the library's twelve columns) as a library; FactorFileError names the
    line and column of the first bad cell. A user's file is ``user=True``."""
    text = _decode(data)
    if not text.strip():
        raise FactorFileError(source_name, 1, None, _TEXTS.both("empty_file"))
    first_line = text.splitlines()[0]
    # Excel in Portuguese saves CSV with ';' and decimal commas: accept both, only together.
    semicolon = first_line.count(";") > first_line.count(",")
    reader = csv.reader(io.StringIO(text), delimiter=";" if semicolon else ",")
    header = [cell.strip().lower() for cell in next(reader)]
    for column in REQUIRED_COLUMNS:
        if column not in header:
            raise FactorFileError(
                source_name,
                1,
                column,
                _TEXTS.both("missing_column", columns=",".join(COLUMNS)),
            )
    positions = {name: header.index(name) for name in COLUMNS if name in header}
    factors: list[Factor] = []
    for cells in reader:
        line = reader.line_num
        if not any(cell.strip() for cell in cells):
            continue
        record: dict[str, Any] = {
            name: cells[index].strip() if index < len(cells) else ""
            for name, index in positions.items()
        }
        if semicolon:
            record["value"] = record["value"].replace(",", ".")
        record["user"] = user
        for name in ("region", "table", "url", "note"):
            if not record.get(name):
                record.pop(name, None)  # the model's default
        try:
            factors.append(Factor.model_validate(record))
        except ValidationError as error:
            raise _file_error(source_name, line, record, error) from None
    return FactorLibrary(factors)


def _file_error(
    source_name: str, line: int, record: dict[str, Any], error: ValidationError
) -> FactorFileError:
    first = error.errors()[0]
    kind = first["type"]
    # The validity check spans two cells: name the second, where the user fixes it.
    column = str(first["loc"][0]) if first["loc"] else ("valid_to" if kind == "validity" else None)
    context = {k: str(v) for k, v in (first.get("ctx") or {}).items()}
    cell = record.get(column, "") if column else ""
    shown = f"'{cell}' " if cell not in ("", None) and kind not in ("gas", "unit") else ""
    if kind in _PROBLEMS:
        problem = shown + _TEXTS.both(kind, **context)
    else:
        said = shown + first["msg"]  # pydantic's own words: it speaks English only
        problem = Both(said, said)
    return FactorFileError(source_name, line, column, problem)


@cache
def default_library() -> FactorLibrary:
    """Every CSV of ``engine/emissions/data``, validated once per process."""
    folder = resources.files("engine.emissions").joinpath("data")
    factors: list[Factor] = []
    if folder.is_dir():
        for entry in sorted(folder.iterdir(), key=lambda e: e.name):
            if entry.name.endswith(".csv"):
                library = read_factor_csv(entry.read_bytes(), source_name=entry.name, user=False)
                factors.extend(library.factors)
    return FactorLibrary(factors)
