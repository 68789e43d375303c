"""The catalogue of reduction measures: lower-carbon options per source, fuel or gas, each with
its typical reduction range and the reference behind it (``data/measures.csv``).

The CSV is the one place a range is written. The offline analyst answers from it, and the
agents' prompts render it (and every worked example that applies a range to tonnes) when they
are built, so an edit to a row changes every text that cites it.

Each row also says how the plan's engine (``engine.actions.rules``) computes the measure on an
inventory's rows: its mechanism, the scopes it acts in, the share of the matched activity it
reaches, its substitute (fuel, gas or efficiency ratio), its lead time and, when a company has
quoted them, its costs. The shipped file carries no costs: they are the company's own quotes,
laid over by id from a costs CSV (``read_costs_csv``).
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from decimal import ROUND_HALF_UP, Decimal
from functools import cache, cached_property, lru_cache
from importlib import resources
from pathlib import Path
from typing import Literal

from engine.errors import AekoError, LocalizedError
from engine.formatting import number
from engine.protocol import fold
from engine.texts import LANGS, Both, Texts

# The same alias as engine.offline.language's: importing that one from here would run
# engine.offline's package init, which imports this module back through the offline agents.
Language = Literal["pt", "en"]

_COLUMNS = (
    "id", "match", "source_pt", "source_en", "alternative_pt", "alternative_en",
    "reduction_min_pct", "reduction_max_pct", "basis_pt", "basis_en", "reference",
    "mechanism", "scopes", "applied_min_pct", "applied_max_pct",
)  # fmt: skip
# Blank or absent, these mean: no condition, a year of lead time, cost unknown.
_OPTIONAL = (
    "reference_en", "substitute", "context", "lead_time_years",
    "capex_brl_per_tco2e", "opex_brl_per_tco2e", "lifetime_years", "cost_source",
)  # fmt: skip
COST_COLUMNS = (
    "measure_id", "capex_brl_per_tco2e", "opex_brl_per_tco2e", "lifetime_years", "cost_source",
)  # fmt: skip
# engine.actions.model.Mechanism's values, repeated so the prompts' import of this module does
# not load the actions package (a test keeps the two equal).
MECHANISMS = (
    "fuel_switch", "efficiency", "refrigerant", "sf6_free", "market_instrument",
    "electrification", "activity_cut", "modal_shift",
)  # fmt: skip
BIOGENIC_SUFFIX = ":biogenic"  # a fuel_switch substitute burning a fossil fuel's molecule
_TEXTS = Texts(
    "engine.measures.catalogue",
    {
        "reference": {"pt": "Referência", "en": "Reference"},
        "to": {"pt": "a", "en": "to"},
        # What is wrong with a measures or costs CSV, said at the line and column it is.
        "where": {
            "pt": "{source}, linha {line}{column}: {problem}",
            "en": "{source}, line {line}{column}: {problem}",
        },
        "column": {"pt": ", coluna '{column}'", "en": ", column '{column}'"},
        "empty_file": {"pt": "o arquivo está vazio", "en": "the file is empty"},
        "empty_cell": {"pt": "está vazio", "en": "is empty"},
        "missing_column": {
            "pt": "falta a coluna; as colunas são: {columns}",
            "en": "the column is missing; the columns are: {columns}",
        },
        "not_a_number": {
            "pt": "'{value}' não é um número (ex.: 250 ou -120.5)",
            "en": "'{value}' is not a number (e.g. 250 or -120.5)",
        },
        "not_whole": {
            "pt": "'{value}' não é um inteiro ≥ {minimum}",
            "en": "'{value}' is not a whole number ≥ {minimum}",
        },
        "cost_repeated": {
            "pt": "'{key}' repetido (já na linha {line})",
            "en": "'{key}' repeated (already on line {line})",
        },
        "cost_unknown_measure": {
            "pt": "nenhuma medida '{key}' no catálogo",
            "en": "no measure '{key}' in the catalogue",
        },
        "id_repeated": {
            "pt": "'{key}' repetido (já na linha {line}): os ids são únicos",
            "en": "'{key}' repeated (already on line {line}): ids are unique",
        },
        "no_keywords": {"pt": "sem palavras-chave", "en": "no keywords"},
        "range": {
            "pt": "{key}: a faixa {low}–{high}% não está dentro de 0–100",
            "en": "{key}: range {low}–{high}% is not within 0–100",
        },
        "mechanism": {
            "pt": "'{mechanism}' desconhecido: use {known}",
            "en": "unknown '{mechanism}': use {known}",
        },
        "share": {
            "pt": "{key}: a parcela {low}–{high}% não está dentro de 0–100",
            "en": "{key}: share {low}–{high}% is not within 0–100",
        },
        "scopes": {
            "pt": "'{text}' não é uma lista de escopos (ex.: 1 ou 1|3)",
            "en": "'{text}' is not a list of scopes (e.g. 1 or 1|3)",
        },
        "market_scope": {
            "pt": "um instrumento de mercado atua só no escopo 2",
            "en": "a market instrument acts in scope 2 only",
        },
        "substitute.fuel_switch": {
            "pt": "informe a chave do combustível substituto na biblioteca de fatores "
            "(ex.: biodiesel, ethanol, wood, natural_gas{suffix})",
            "en": "give the substitute fuel's key in the factor library "
            "(e.g. biodiesel, ethanol, wood, natural_gas{suffix})",
        },
        "substitute.refrigerant": {
            "pt": "informe o gás novo com GWP conhecido (ex.: R-32, R-290, R-744, R-1234ze(E))",
            "en": "give the new gas, with a known GWP (e.g. R-32, R-290, R-744, R-1234ze(E))",
        },
        "substitute.electrification": {
            "pt": "informe a razão de eficiência: MWh elétricos por MWh de combustível (ex.: 0.3)",
            "en": "give the efficiency ratio: MWh of electricity per MWh of fuel (e.g. 0.3)",
        },
        "negative_capex": {
            "pt": "o investimento não pode ser negativo (uma economia vai em opex)",
            "en": "an investment cannot be negative (a saving goes in opex)",
        },
        "capex_lifetime": {
            "pt": "há investimento (capex) sem vida útil: informe os anos",
            "en": "there is an investment (capex) with no lifetime: give the years",
        },
    },
)


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
        to = _TEXTS("to", language)
        return f"{number(self.low, 0, language)} {to} {number(self.high, 0, language)}"


@dataclass(frozen=True)
class Costs:
    """A company's quote for a measure, per t CO2e a year it abates; None is unknown."""

    capex_brl_per_tco2e: float | None = None  # investment per t CO2e/yr of abatement
    opex_brl_per_tco2e: float | None = None  # yearly running cost per t CO2e/yr; < 0 a saving
    lifetime_years: int | None = None
    cost_source: str = ""

    @property
    def known(self) -> bool:
        return self.capex_brl_per_tco2e is not None or self.opex_brl_per_tco2e is not None


@dataclass(frozen=True)
class Alternative:
    key: str
    keywords: tuple[str, ...]
    source: dict[str, str]
    alternative: dict[str, str]
    reduction_min_pct: int
    reduction_max_pct: int
    basis: dict[str, str]
    reference: str  # as a Portuguese answer cites it
    # How the engine computes it; None for a row only the prompts cite.
    mechanism: str | None = None
    scopes: tuple[int, ...] = ()
    # The share of the matched activity the measure reaches (B100 in 20–100% of the diesel):
    # a planning range, not the life-cycle percentage above.
    applied_min_pct: float = 100.0
    applied_max_pct: float = 100.0
    substitute: str = ""  # fuel key, new gas, or electricity per unit of fuel energy
    context: tuple[str, ...] = ()  # one must appear in the row's source (chiller, vehicle)
    lead_time_years: int = 1
    costs: Costs = field(default_factory=Costs)
    # The reference as an English answer cites it ("v. 2, ch. 2, table 2.3"); blank when the
    # Portuguese one reads the same in both languages.
    reference_en: str = ""

    def cited(self, language: Language) -> str:
        """The reference in the answer's language."""
        return self.reference_en if language == "en" and self.reference_en else self.reference

    def in_context(self, text: str) -> bool:
        """Whether the row's text meets the measure's condition (none: always)."""
        return not self.context or _contains(text, self.context)

    def span(self, language: Language = "pt") -> str:
        """The range as the prompts write it: '40% a 70%'."""
        return f"{self.reduction_min_pct}% {_TEXTS('to', language)} {self.reduction_max_pct}%"

    def describe(self, language: Language) -> str:
        return (
            f"{self.alternative[language]}: {self.reduction_min_pct}–{self.reduction_max_pct}% "
            f"({self.basis[language]} {_TEXTS('reference', language)}: {self.cited(language)})"
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
        reference = _TEXTS("reference", language)
        return f"{head}. {self.basis[language]} {reference}: {self.cited(language)}."


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

    def with_costs(self, costs: Mapping[str, Costs]) -> Catalogue:
        """The catalogue with a company's quotes laid over by measure id; ids it does not
        hold are ignored (a quote for a measure the catalogue dropped changes nothing)."""
        return Catalogue(
            tuple(replace(row, costs=costs[row.key]) if row.key in costs else row for row in self)
        )

    def render(self, language: Language = "pt", *, detailed: bool = True) -> str:
        """The whole catalogue as prompt text, one line per option, in the CSV's order; the
        short form (ranges only) is for agents that check ranges rather than propose them."""
        return "\n".join(row.line(language, detailed=detailed) for row in self.rows)

    def matching(self, text: str) -> list[Alternative]:
        """Every option whose source keywords appear in ``text`` (a fuel, source or gas
        name). Keywords longer than three letters also match with the spaces taken out, so
        'R 410 A' and 'HFC134a' find their rows; short ones ('gn', 'glp') must stand alone."""
        return [option for option in self.rows if _contains(text, option.keywords)]

    def relevant(self, question: str) -> list[Alternative]:
        """The options a question asks about, the most pertinent first (CSV order on ties).

        A question is looser than a row's source name: its words are inflected ("lagoas",
        "boilers"), Portuguese or English, and say what it would switch to as often as what
        it burns. So a keyword matches by word stems too (``_stems``), and among the matched
        options those whose own words the question also uses ("wood chips" against natural
        gas, "I-REC" against electricity) come first, then those whose condition it meets."""
        asked = _stems(question)
        said = frozenset(asked)
        implied = [term for phrases, term in _STEMMED_ALIASES
                   if any(_phrase_in(phrase, asked, said) for phrase in phrases)]  # fmt: skip
        asked += tuple(stem for term in implied for stem in ("|", *term))
        present = frozenset(asked)
        haystack = _normal(question)
        compact = haystack.replace(" ", "")
        scored: list[tuple[float, int, Alternative]] = []
        for index in self._index.candidates(present):
            option, words = self.rows[index], self._index.words[index]
            if not (
                any(_phrase_in(stems, asked, present) for stems in words.keywords)
                or any(
                    needle in haystack or (long and bare in compact)
                    for needle, bare, long in words.coded
                )
            ):
                continue
            named = len(words.own & present)
            # A condition the question does not meet (a chiller's gas, asked about a car)
            # outweighs a word in common: the planner would not apply that option either.
            fits = 0.0
            if option.context:
                met = _contains(question, option.context) or any(
                    _phrase_in(stems, asked) for stems in words.context
                )
                fits = 1.0 if met else -2.0
            scored.append((2.0 * named + fits, -index, option))
        scored.sort(key=lambda item: (item[0], item[1]), reverse=True)
        return [option for _, _, option in scored]

    @cached_property
    def _index(self) -> _WordIndex:
        # Built once per catalogue: a chat turn asks ``relevant`` of the same rows up to three
        # times (the guardrail, its request, the citations), over 100 rows each.
        return _WordIndex.of(self.rows)


@dataclass(frozen=True)
class _RowWords:
    keywords: tuple[tuple[str, ...], ...]  # each keyword, stemmed
    # Keywords with a digit, matched by letters as ``_contains`` does: normalised, without its
    # spaces, and whether it is long enough to match with spaces out ("R 410 A").
    coded: tuple[tuple[str, str, bool], ...]
    own: frozenset[str]  # the option's own words, not those it shares with its source
    context: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class _WordIndex:
    """What ``Catalogue.relevant`` reads of each row, stemmed once, and which rows a stem can
    start a keyword of: a question is checked against the few rows its words could name."""

    words: tuple[_RowWords, ...]
    by_first_stem: Mapping[str, tuple[int, ...]]
    always: frozenset[int]  # rows with a coded keyword, found by letters, not stems

    @classmethod
    def of(cls, rows: tuple[Alternative, ...]) -> _WordIndex:
        words, by_first, always = [], {}, set()
        for index, option in enumerate(rows):
            keywords = tuple(_stems(keyword) for keyword in option.keywords)
            # Spaces out only for a gas's code ("R 410 A"): a word's letters inside another
            # word name nothing ("waste" in "wastewater").
            coded = tuple(
                (needle, needle.replace(" ", ""), len(needle.strip()) > 3)
                for k in option.keywords
                if any(c.isdigit() for c in k)
                for needle in (_normal(k),)
            )
            # "boilers" is the gas's use, not a sign the question means the biomass boiler.
            source = " ".join((option.source["pt"], option.source["en"], *option.keywords))
            own = _content(f"{option.alternative['pt']} {option.alternative['en']}")
            context = tuple(_stems(word) for word in option.context)
            words.append(_RowWords(keywords, coded, frozenset(own - _content(source)), context))
            for stems in keywords:
                if stems:
                    by_first.setdefault(stems[0], []).append(index)
            if coded:
                always.add(index)
        return cls(
            tuple(words),
            {stem: tuple(indices) for stem, indices in by_first.items()},
            frozenset(always),
        )

    def candidates(self, present: frozenset[str]) -> list[int]:
        """The rows, in CSV order, a keyword of which starts with a stem in ``present``."""
        found = set(self.always)
        for stem in present:
            found.update(self.by_first_stem.get(stem, ()))
        return sorted(found)


def names_any(text: str, keywords: tuple[str, ...]) -> bool:
    """Whether ``text`` names one of ``keywords``, as a measure's keywords are matched
    (accents and case ignored, whole words)."""
    return _contains(text, keywords)


def _contains(text: str, keywords: tuple[str, ...]) -> bool:
    haystack = _normal(text)
    compact = haystack.replace(" ", "")
    for keyword in keywords:
        needle = _normal(keyword)
        if needle in haystack or (len(needle.strip()) > 3 and needle.replace(" ", "") in compact):
            return True
    return False


@lru_cache(maxsize=65_536)  # a plan matches the same row texts against every measure
def _normal(text: str) -> str:
    return " " + re.sub(r"[^a-z0-9]+", " ", fold(text)).strip() + " "


# Portuguese and English plural endings (the first that fits is taken): what a stem drops
# so "lagoas"/"lagoa", "emissões"/"emissão", "boilers"/"boiler" and "viagens"/"viagem" meet.
_ENDINGS = (("oes", "ao"), ("aes", "ao"), ("ais", "al"), ("eis", "el"), ("ies", "y"),
            ("ns", "m"), ("res", "r"), ("zes", "z"))  # fmt: skip


@lru_cache(maxsize=65_536)  # a language's words are few; texts repeat them
def _stem(word: str) -> str:
    """A light stem, the same for both languages: plural, gender and English verb endings off
    and doubled letters single, so that cognates meet ("effluent"/"efluentes")."""
    if len(word) > 4 and not word.isdigit():
        for ending, replacement in _ENDINGS:
            if word.endswith(ending):
                word = word[: -len(ending)] + replacement
                break
        else:
            if word.endswith("s") and not word.endswith(("ss", "us", "is")):
                word = word[:-1]
        if len(word) > 5 and word.endswith("ing"):
            word = word[:-3]
        elif len(word) > 4 and word.endswith("ed"):
            word = word[:-2]
        elif len(word) >= 5 and word[-1] in "aeo":
            word = word[:-1]
    return re.sub(r"([a-z])\1", r"\1", word)


@lru_cache(maxsize=4096)  # the keywords and option texts, stemmed once per process
def _stems(text: str) -> tuple[str, ...]:
    return tuple(_stem(word) for word in _normal(text).split())


def _phrase_in(
    phrase: tuple[str, ...], words: tuple[str, ...], present: frozenset[str] | None = None
) -> bool:
    """Whether the stemmed keyword occurs in the stemmed question as consecutive words
    (``present``: the set of those words, when the caller has it)."""
    size = len(phrase)
    if not size or phrase[0] not in (words if present is None else present):
        return False  # most keywords: one look-up, no slicing
    if size == 1:
        return True
    return any(words[i : i + size] == phrase for i in range(len(words) - size + 1))


# What a question says in place of a source's name: Scope 2 is purchased electricity, and
# an instrument or a generation scheme only ever acts on it. Questions only: an inventory row
# names its source, and a purchased-steam row in Scope 2 is no electricity.
_ALIASES = (
    (("escopo 2", "scope 2", "conta de luz", "conta de energia", "electricity bill",
      "power bill", "mercado livre", "free market", "mercado cativo", "i-rec", "i-recs",
      "irec", "ppa", "ppas", "geracao distribuida", "distributed generation", "autoproducao",
      "autoprodutor", "self-production", "painel solar", "paineis solares", "solar panels",
      "fotovoltaica", "photovoltaic", "kwh", "mwh"), "eletricidade electricity"),
    # A cement plant's question is about its kiln's fuel too, which a row names by the fuel.
    (("cimento", "cement", "cimenteira", "clinquer", "clinker", "forno de cimento",
      "cement kiln"), "coque de petroleo"),
)  # fmt: skip
_STEMMED_ALIASES = tuple(
    (tuple(_stems(phrase) for phrase in phrases), _stems(term)) for phrases, term in _ALIASES
)


# Words an option's text shares with any question about it: they say nothing of which
# option the question means.
_COMMON = frozenset(_stem(word) for word in (
    "com", "sem", "para", "por", "pela", "pelo", "das", "dos", "nas", "nos", "uma", "que",
    "mais", "menos", "the", "and", "with", "for", "from", "into", "of", "or", "in", "on",
    "to", "its", "their", "when", "where", "new", "own", "use", "used", "uso",
    "emissao", "emissoes", "emission", "emissions", "reducao", "reduction", "reduce",
    "baixo", "low", "lower", "carbono", "carbon", "co2", "energia", "energy",
))  # fmt: skip


def _content(text: str) -> set[str]:
    return {stem for stem in _stems(text) if len(stem) > 2 and stem not in _COMMON}


class MeasureFileError(LocalizedError, AekoError, ValueError):
    """A measures or costs CSV that cannot be read: names its line and column, in Portuguese
    and English, as a factor CSV's errors do. A ValueError too: the catalogue's callers have
    always caught a bad edit as one."""

    code = "measure_file"

    def __init__(self, source_name: str, line: int, column: str | None, problem: Both) -> None:
        self.source_name = source_name
        self.line = line
        self.column = column
        where = _TEXTS.both("column", column=column) if column else ""
        super().__init__(
            _TEXTS.both("where", source=source_name, line=line, column=where, problem=problem)
        )


def read_catalogue(path: Path) -> Catalogue:
    """A catalogue from any CSV with the columns of ``data/measures.csv``."""
    return read_catalogue_csv(path.read_bytes(), str(path))


def read_catalogue_csv(data: bytes, name: str) -> Catalogue:
    """A user's catalogue (the columns of ``data/measures.csv``); MeasureFileError names the
    line and column of the first cell that cannot be used."""
    return _parse_catalogue(_decode(data), name)


def read_costs_csv(data: bytes, name: str, catalogue: Catalogue | None = None) -> dict[str, Costs]:
    """A company's quotes by measure id (``COST_COLUMNS``), to lay over a catalogue. With
    ``catalogue``, an id it does not hold is an error: a typo would otherwise drop a quote
    without a word."""
    table = _Table.read(_decode(data), name, COST_COLUMNS[:4], COST_COLUMNS)
    found: dict[str, Costs] = {}
    lines: dict[str, int] = {}
    for row in table.rows:
        key = row.text("measure_id", required=True)
        if key in lines:
            raise row.error("measure_id", "cost_repeated", key=key, line=lines[key])
        if catalogue is not None and key not in {option.key for option in catalogue}:
            raise row.error("measure_id", "cost_unknown_measure", key=key)
        lines[key] = row.line
        found[key] = _costs(row)
    return found


@cache
def shipped_catalogue() -> Catalogue:
    """The shipped catalogue, read once per process."""
    path = resources.files("engine.measures").joinpath("data").joinpath("measures.csv")
    return _parse_catalogue(path.read_text(encoding="utf-8"), "measures.csv")


# --- reading CSVs -------------------------------------------------------------------------


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252")  # Excel on Windows saves CSV in this encoding


@dataclass(frozen=True)
class _Row:
    """One data line of a CSV, with what an error needs to name it."""

    name: str
    line: int
    cells: dict[str, str]
    semicolon: bool  # Excel in Portuguese: ';' between cells and decimal commas

    def error(self, column: str | None, problem: str, /, **values: object) -> MeasureFileError:
        """The error at this line and ``column``: ``problem`` is a key of the table."""
        return MeasureFileError(self.name, self.line, column, _TEXTS.both(problem, **values))

    def text(self, column: str, *, required: bool = False) -> str:
        value = self.cells.get(column, "").strip()
        if required and not value:
            raise self.error(column, "empty_cell")
        return value

    def number(self, column: str, *, required: bool = False) -> float | None:
        text = self.text(column, required=required)
        if not text:
            return None
        if self.semicolon:  # '1.234,5': the dot groups thousands, the comma is the decimal
            text = text.replace(".", "").replace(",", ".")
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not math.isfinite(value):
            raise self.error(column, "not_a_number", value=self.text(column))
        return value

    def whole(self, column: str, *, required: bool = False, minimum: int = 0) -> int | None:
        value = self.number(column, required=required)
        if value is None:
            return None
        if not value.is_integer() or value < minimum:
            raise self.error(column, "not_whole", value=self.text(column), minimum=minimum)
        return int(value)


@dataclass(frozen=True)
class _Table:
    rows: tuple[_Row, ...]

    @classmethod
    def read(
        cls, text: str, name: str, required: tuple[str, ...], known: tuple[str, ...]
    ) -> _Table:
        """The data lines of ``text``; a line starting with '#' is a comment (a sample file
        says what it is there), blank lines are skipped, line numbers stay the file's."""
        if not text.strip():
            raise MeasureFileError(name, 1, None, _TEXTS.both("empty_file"))
        lines = text.splitlines(keepends=True)
        kept = "".join("\n" if line.lstrip().startswith("#") else line for line in lines)
        first = next((line for line in kept.splitlines() if line.strip()), "")
        semicolon = first.count(";") > first.count(",")
        reader = csv.reader(io.StringIO(kept), delimiter=";" if semicolon else ",")
        header: list[str] | None = None
        rows: list[_Row] = []
        for cells in reader:
            if not any(cell.strip() for cell in cells):
                continue
            if header is None:
                header = [cell.strip().lower() for cell in cells]
                for column in required:
                    if column not in header:
                        raise MeasureFileError(
                            name,
                            reader.line_num,
                            column,
                            _TEXTS.both("missing_column", columns=",".join(known)),
                        )
                continue
            record = {
                column: cells[index] if index < len(cells) else ""
                for index, column in enumerate(header)
            }
            rows.append(_Row(name, reader.line_num, record, semicolon))
        if header is None:
            raise MeasureFileError(name, 1, None, _TEXTS.both("empty_file"))
        return cls(tuple(rows))


def _parse_catalogue(text: str, name: str) -> Catalogue:
    table = _Table.read(text, name, _COLUMNS, (*_COLUMNS, *_OPTIONAL))
    rows: list[Alternative] = []
    lines: dict[str, int] = {}
    for row in table.rows:
        key = row.text("id", required=True)
        if key in lines:
            raise row.error("id", "id_repeated", key=key, line=lines[key])
        lines[key] = row.line
        rows.append(_alternative(row, key))
    return Catalogue(tuple(rows))


def _alternative(row: _Row, key: str) -> Alternative:
    keywords = tuple(k.strip() for k in row.text("match", required=True).split("|") if k.strip())
    if not keywords:
        raise row.error("match", "no_keywords")
    low, high = (row.whole(c, required=True) for c in ("reduction_min_pct", "reduction_max_pct"))
    assert low is not None and high is not None
    # A range is printed into prompts and applied to tonnes: a reversed or out-of-bounds
    # one would turn into a wrong number in every answer, so the edit fails here instead.
    if not 0 <= low <= high <= 100:
        raise row.error("reduction_max_pct", "range", key=key, low=low, high=high)
    mechanism = row.text("mechanism", required=True)
    if mechanism not in MECHANISMS:
        raise row.error("mechanism", "mechanism", mechanism=mechanism, known=", ".join(MECHANISMS))
    applied = [row.number(c, required=True) for c in ("applied_min_pct", "applied_max_pct")]
    applied_low, applied_high = (float(value or 0.0) for value in applied)
    # The share of the activity a measure reaches: a measure that reaches none is no measure.
    if not 0 <= applied_low <= applied_high <= 100 or applied_high == 0:
        raise row.error(
            "applied_max_pct", "share", key=key, low=f"{applied_low:g}", high=f"{applied_high:g}"
        )
    lead = row.whole("lead_time_years")
    return Alternative(
        key=key,
        keywords=keywords,
        # The row's own words, read from its *_pt and *_en columns (data, not the product's).
        source={lang: row.text(f"source_{lang}", required=lang == "pt") for lang in LANGS},
        alternative={
            lang: row.text(f"alternative_{lang}", required=lang == "pt") for lang in LANGS
        },
        reduction_min_pct=low,
        reduction_max_pct=high,
        basis={lang: row.text(f"basis_{lang}") for lang in LANGS},
        reference=row.text("reference"),
        reference_en=row.text("reference_en"),
        mechanism=mechanism,
        scopes=_scopes(row, mechanism),
        applied_min_pct=applied_low,
        applied_max_pct=applied_high,
        substitute=_substitute(row, mechanism),
        context=tuple(k.strip() for k in row.text("context").split("|") if k.strip()),
        lead_time_years=1 if lead is None else lead,
        costs=_costs(row),
    )


def _scopes(row: _Row, mechanism: str) -> tuple[int, ...]:
    text = row.text("scopes", required=True)
    parts = [part for part in re.split(r"[|;/, ]+", text) if part]
    if not parts or any(part not in ("1", "2", "3") for part in parts):
        raise row.error("scopes", "scopes", text=text)
    scopes = tuple(sorted({int(part) for part in parts}))
    # An instrument changes the market-based Scope 2 figure and nothing else.
    if mechanism == "market_instrument" and scopes != (2,):
        raise row.error("scopes", "market_scope")
    return scopes


def _substitute(row: _Row, mechanism: str) -> str:
    """The substitute the mechanism needs, checked against the data the rule will read."""
    value = row.text("substitute")
    check: dict[str, Callable[[str], bool]] = {
        "fuel_switch": _known_fuel,
        "refrigerant": _known_gas,
        "electrification": _ratio,
    }
    if mechanism not in check:
        return value
    if value and check[mechanism](value):
        return value
    shown = f"'{value}': " if value else ""
    problem = shown + _TEXTS.both(f"substitute.{mechanism}", suffix=BIOGENIC_SUFFIX)
    raise MeasureFileError(row.name, row.line, "substitute", problem)


def _known_fuel(value: str) -> bool:
    # Imported here: the prompts import this module, and the factor library is only needed
    # when a catalogue is read.
    from engine.emissions.factors import default_library

    fuel = value.removesuffix(BIOGENIC_SUFFIX)
    gases = ("CO2", "CO2_biogenic")
    return any(
        key.startswith(f"{fuel}@") and any(default_library().has(key, gas) for gas in gases)
        for key in default_library().factor_keys()
    )


def _known_gas(value: str) -> bool:
    from engine.measures.refrigerants import substitute_gwp

    return all(substitute_gwp(value, gwp_set) is not None for gwp_set in ("AR4", "AR5", "AR6"))


def _ratio(value: str) -> bool:
    try:
        ratio = float(value.replace(",", "."))
    except ValueError:
        return False
    return math.isfinite(ratio) and ratio > 0


def _costs(row: _Row) -> Costs:
    capex = row.number("capex_brl_per_tco2e")
    opex = row.number("opex_brl_per_tco2e")
    lifetime = row.whole("lifetime_years", minimum=1)
    if capex is not None and capex < 0:
        raise row.error("capex_brl_per_tco2e", "negative_capex")
    # Annualising an investment needs its life: without one the cost per tonne is unknown,
    # which the file's author should know now rather than find as a blank in the plan.
    if capex and lifetime is None:
        raise row.error("lifetime_years", "capex_lifetime")
    return Costs(capex, opex, lifetime, row.text("cost_source"))


def table() -> tuple[Alternative, ...]:
    return shipped_catalogue().rows


def alternatives_for(text: str) -> list[Alternative]:
    """Every shipped option a question or text names a source of, the most pertinent
    first (``Catalogue.relevant``)."""
    return shipped_catalogue().relevant(text)
