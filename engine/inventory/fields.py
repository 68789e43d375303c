"""The canonical schema and how column headers map onto it.

The mapping is data: data/synonyms.csv (Portuguese and English), plus the user's overrides.
Emission columns may also name a gas ("CO2 (t)", "Emissões de CH4 (kg)"): those map to
``emissions_t_gas:<gas>``, or ``emissions_tco2e:<gas>`` when the header says CO2e.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources

from engine.gases.gwp import BIOGENIC_CO2 as BIOGENIC_GAS
from engine.gases.gwp import canonical_gas, is_biogenic
from engine.protocol import fold

SCOPE = "scope"
CATEGORY = "category"
SOURCE = "source"
FACILITY = "facility"
FUEL = "fuel"
QUANTITY = "quantity"
UNIT = "unit"
GAS = "gas"
EMISSIONS_T_GAS = "emissions_t_gas"
EMISSIONS_TCO2E = "emissions_tco2e"
BIOGENIC_CO2 = "biogenic_co2"
YEAR = "year"
EMISSIONS_UNIT = "emissions_unit"
EMISSION_FACTOR = "emission_factor"  # recognised so it is never read as emissions; kept as is
SCOPE2_METHOD = "scope2_method"  # "location" or "market": Scope 2's two methods, never summed
CODE = "code"  # a hierarchical or GPC reference code: I.1.1, 1.A.3.b

FIELDS: tuple[str, ...] = (
    SCOPE, CATEGORY, SOURCE, FACILITY, FUEL, QUANTITY, UNIT, GAS,
    EMISSIONS_T_GAS, EMISSIONS_TCO2E, BIOGENIC_CO2, YEAR, EMISSIONS_UNIT, EMISSION_FACTOR,
    SCOPE2_METHOD, CODE,
)  # fmt: skip
# What each canonical row counts for: only "inventory" rows are in the totals; the others are
# memo figures reported beside them (GHG Protocol; Brazilian GHG Protocol Program).
REPORTING = "reporting"
MEMO_TCO2E = "memo_tco2e"
IN_INVENTORY, BIOGENIC, MONTREAL, SCOPE2_MARKET = (
    "inventory",
    "biogenic",
    "montreal",
    "scope2_market",
)
LOCATION, MARKET = "location", "market"
EMISSION_FIELDS = frozenset({EMISSIONS_T_GAS, EMISSIONS_TCO2E})
_GAS_PRIORITY = 60  # a gas named in a header beats generic words, loses to "CO2e"/"biogenic"


@dataclass(frozen=True)
class _Synonym:
    field: str
    priority: int
    exact: bool
    words: str


@cache
def _synonyms() -> tuple[_Synonym, ...]:
    path = resources.files("engine.inventory").joinpath("data").joinpath("synonyms.csv")
    with path.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    return tuple(
        _Synonym(row["field"], int(row["priority"]), row["match"] == "exact", row["synonym"])
        for row in rows
    )


@lru_cache(maxsize=65_536)  # headers and labels are folded again and again
def words(text: str) -> str:
    """Folded header with punctuation as spaces: 'Emissões (t CO₂e)' -> 'emissoes t co2e'."""
    return " ".join(re.sub(r"[^0-9a-z]+", " ", fold(text.replace("₂", "2"))).split())


@dataclass(frozen=True)
class Match:
    field: str  # a canonical field, or "<emission field>:<gas>"
    priority: int


HEADER_JOIN = " / "  # how the rows of a multi-row header are joined into one name

# A year as inventories write it: in a header ('2020', 'Ano 2021', '2019*'), a cell or a title.
_YEAR_TEXT = r"19[5-9]\d|20\d\d"
_YEAR_HEADER = re.compile(rf"^(?:ano\s*)?({_YEAR_TEXT})\s*[*a-z]?$", re.IGNORECASE)


def is_year(value: object) -> bool:
    """'2021' or 2021.0: a cell that is a year rather than an amount."""
    if isinstance(value, str):
        return re.fullmatch(_YEAR_TEXT, value.strip()) is not None
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value).is_integer() and 1950 <= value <= 2099
    return False


@lru_cache(maxsize=16_384)  # headers are asked about by every step of a sheet's reading
def year_of_header(column: str) -> str | None:
    """'1990', 'Emissões (Gg) / 2020' -> the year the (last row of the) header names."""
    match = _YEAR_HEADER.match(column.rsplit(HEADER_JOIN, 1)[-1].strip())
    return match.group(1) if match else None


def year_in_text(text: str) -> str | None:
    """The first year a sheet name or title mentions: 'Inventário 2024' -> '2024'."""
    found = re.search(rf"\b(?:{_YEAR_TEXT})\b", text)
    return found.group(0) if found else None


@lru_cache(maxsize=16_384)  # a pure function of the text (Match is frozen): asked per step
def match_header(header: str) -> Match | None:
    """The best canonical field for a header, or None.

    A multi-row header ("Emissões (t) / CO2") is matched whole and part by part: the whole
    carries the gas and unit, a part may be the exact name ("Identificação / Unidade").
    """
    parts = [header, *header.split(HEADER_JOIN)] if HEADER_JOIN in header else [header]
    best: Match | None = None
    for part in parts:
        found = _match_text(words(part))
        if found is not None and (best is None or found.priority > best.priority):
            best = found
    return best


_BIOGENIC_PRIORITY = 85  # a biogenic header group beats its gas sub-column's plain match


def _match_text(text: str) -> Match | None:
    if not text:
        return None
    if is_biogenic(text):  # only biogenic CO2 is apart; biogenic CH4 and N2O are in scope
        gas = gas_in_header(re.sub(r"\S*biog\S*", " ", text))
        if gas in (None, "CO2"):
            return Match(BIOGENIC_CO2, _BIOGENIC_PRIORITY)
        field = EMISSIONS_TCO2E if says_co2e(text) else EMISSIONS_T_GAS
        return Match(f"{field}:{gas}", _BIOGENIC_PRIORITY)
    best: Match | None = None
    for synonym in _synonyms():
        if synonym.field == BIOGENIC_CO2:
            continue
        hit = text == synonym.words if synonym.exact else _contains(text, synonym.words)
        if hit:
            priority = synonym.priority + (100 if synonym.exact else 0)
            if best is None or priority > best.priority:
                best = Match(synonym.field, priority)
    gas = gas_in_header(text)
    if gas is None and best is not None and best.field == EMISSIONS_T_GAS:
        # 'Emissões (tCO2)': the unit glued to the gas still names the gas. Only beside a word
        # for emissions: 'Fator (tCO2/MWh)' is a factor, not a mass of CO2.
        gas = _glued_gas(text)
    if gas and (best is None or (best.priority < 100 and best.field != EMISSION_FACTOR)):
        if best is not None and best.field == EMISSIONS_TCO2E:
            return Match(f"{EMISSIONS_TCO2E}:{gas}", best.priority)
        if best is None or best.priority < _GAS_PRIORITY:
            return Match(f"{EMISSIONS_T_GAS}:{gas}", _GAS_PRIORITY)
    return best


def _contains(text: str, phrase: str) -> bool:
    return f" {phrase} " in f" {text} "


def says_co2e(text: str) -> bool:
    return bool(re.search(r"co2 ?eq?\b|equivalente|equivalent", text))


_LOCATION = re.compile(r"localizacao|\blocation\b|\blb\b")
_MARKET = re.compile(r"escolha de compra|(?:baseada em|abordagem de) mercado|\bmarket\b|\bmb\b")
# "Emissões – mercado (tCO2e)": beside emissions, "mercado" alone is the market-based method;
# "mercado livre / cativo / regulado" (ACL, ACR) is how the energy was contracted, not a method.
_MERCADO = re.compile(r"\bmercado\b(?! (?:livre|cativo|regulado|acl|acr)\b)")
_SAYS_EMISSIONS = re.compile(r"\bemisso\w*|\bemissions?\b|\btco2|\bco2e\b")


def scope2_method_of(text: object) -> str | None:
    """'Eletricidade (localização)' -> 'location'; 'escolha de compra' -> 'market'."""
    if not isinstance(text, str) or not text.strip():
        return None
    return _scope2_method_of_text(text)


@lru_cache(maxsize=65_536)  # headers, sheet names and row labels repeat
def _scope2_method_of_text(text: str) -> str | None:
    folded = words(text)
    if _MARKET.search(folded) or (_SAYS_EMISSIONS.search(folded) and _MERCADO.search(folded)):
        return MARKET
    if _LOCATION.search(folded):
        return LOCATION
    return None


@lru_cache(maxsize=16_384)
def gas_in_header(text: str) -> str | None:
    """A gas a header names as a word or two: 'co2 t' -> CO2, 'hfc 134a kg' -> HFC134a."""
    tokens = text.split()
    for size in (3, 2, 1):
        for start in range(len(tokens) - size + 1):
            gas = canonical_gas("".join(tokens[start : start + size]))
            if gas and gas != BIOGENIC_GAS:
                return gas
    return None


_GLUED_UNIT = re.compile(r"^(?:t|kg|g|gg|kt|mt)(co2|ch4|n2o|sf6|nf3)$")


def _glued_gas(text: str) -> str | None:
    """'tco2', 'kgch4': a mass unit written against the gas's formula, with no per-unit
    after it (a rate such as 'tco2 mwh' is a factor)."""
    tokens = text.split()
    for at, token in enumerate(tokens):
        match = _GLUED_UNIT.match(token)
        if match and at == len(tokens) - 1:
            return canonical_gas(match.group(1))
    return None


def base_field(mapped: str | None) -> str | None:
    return mapped.split(":", 1)[0] if mapped else None


def mapped_gas(mapped: str | None) -> str | None:
    return mapped.split(":", 1)[1] if mapped and ":" in mapped else None


def is_known(mapped: str) -> bool:
    return base_field(mapped) in FIELDS


_SCOPE_WORDS = re.compile(r"^(?:escopo|scope|s)?\s*([123])\b")


def parse_scope(value: object) -> str | None:
    """'Escopo 1', 'Scope 3 - cat. 6', '2', 2.0 -> '1', '3', '2', '2'."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        return str(int(value)) if value in (1, 2, 3) else None
    return _scope_of_text(str(value))


@lru_cache(maxsize=65_536)  # a scope column repeats a few values; labels repeat per year
def _scope_of_text(text: str) -> str | None:
    match = _SCOPE_WORDS.match(words(text))
    return match.group(1) if match else None


_GPC = re.compile(r"^\s*(I|II|III|IV|V)\.(\d+)(?:\.(\d+))?\s*$")


def gpc_scope(value: object) -> str | None:
    """The scope of a GPC reference number (Global Protocol for Community-Scale GHG
    Inventories, table 4.1): sectors I and II end in their scope (I.1.2 is Scope 2); in
    waste (III) .1 and .3 are Scope 1 and .2 Scope 3; IPPU (IV) and AFOLU (V) are Scope 1."""
    if not isinstance(value, str):
        return None
    match = _GPC.match(value)
    if not match:
        return None
    sector, last = match.group(1), match.group(3)
    if sector in ("IV", "V"):
        return "1"
    if last is None:
        return None
    if sector in ("I", "II"):
        return last if last in ("1", "2", "3") else None
    return {"1": "1", "2": "3", "3": "1"}.get(last)


@cache
def _categories() -> tuple[tuple[str, str, str, str], ...]:
    path = resources.files("engine.inventory").joinpath("data").joinpath("categories.csv")
    with path.open(encoding="utf-8") as f:
        rows = [
            (r["synonym"], r["scope"], r["category_pt"], r["category_en"])
            for r in csv.DictReader(f)
        ]
    return tuple(sorted(rows, key=lambda row: -len(row[0])))


def category_en(category_pt: str) -> str:
    """The English name of a category the ingestion names in Portuguese."""
    return next((en for _, _, pt, en in _categories() if pt == category_pt), category_pt)


def category_of(text: object) -> tuple[str, str] | None:
    """The GHG Protocol category a name mentions, as (scope, Portuguese name)."""
    if not isinstance(text, str) or not text.strip():
        return None
    return _category_of_text(text)


@lru_cache(maxsize=65_536)  # labels repeat across rows, years and sheets
def _category_of_text(text: str) -> tuple[str, str] | None:
    folded = words(text)
    for synonym, scope, category_pt, _ in _categories():
        if _contains(folded, synonym):
            return scope, category_pt
    return None


# --- months across the columns ------------------------------------------------------------------

_MONTHS = {
    "jan": 1, "janeiro": 1, "january": 1, "fev": 2, "feb": 2, "fevereiro": 2, "february": 2,
    "mar": 3, "marco": 3, "march": 3, "abr": 4, "apr": 4, "abril": 4, "april": 4,
    "mai": 5, "may": 5, "maio": 5, "jun": 6, "junho": 6, "june": 6, "jul": 7, "julho": 7,
    "july": 7, "ago": 8, "aug": 8, "agosto": 8, "august": 8, "set": 9, "sep": 9, "sept": 9,
    "setembro": 9, "september": 9, "out": 10, "oct": 10, "outubro": 10, "october": 10,
    "nov": 11, "novembro": 11, "november": 11, "dez": 12, "dec": 12, "dezembro": 12,
    "december": 12,
}  # fmt: skip
_MONTH = re.compile(r"^([a-z]+)\.?(?:[\s/\-]*((?:19|20)?\d\d))?$")
# A cell that only names a unit: a units row under the header ('t', 'kg', 'L', 'm³', 'MWh').
UNIT_CELL = re.compile(
    r"^(?:%|m3|l|lts?|litros?|liters?|litres?|gal|galoes|nm3|mil(?:l|litros|m3)|tkm|t km|"
    r"mwh|kwh|gwh|gj|mj|tj|tco2e?|kgco2e?|co2e?|gg ?co2e?|t|kg|g|ton|tons|toneladas?|"
    r"tonnes?|gg|kt|mt)$"
)


def is_unit_text(text: object) -> bool:
    """Whether a cell or a header part names only a unit."""
    return isinstance(text, str) and bool(UNIT_CELL.match(words(text)))


@lru_cache(maxsize=16_384)  # every header, at every step of a sheet's reading
def month_of_header(column: str) -> tuple[int, str | None] | None:
    """'Jan', 'janeiro', 'jan/24', 'Jan 2024' -> (1, None / '2024'). A units row joined
    under the month ('Jan / L') names the month all the same."""
    parts = [part.strip() for part in column.split(HEADER_JOIN)]
    last = parts[-2] if len(parts) > 1 and is_unit_text(parts[-1]) else parts[-1]
    folded = words(last)
    match = _MONTH.match(folded.replace(" ", "/", 1) if " " in last else folded)
    if not match or match.group(1) not in _MONTHS:
        return None
    year = match.group(2)
    if year and len(year) == 2:
        year = "20" + year
    return _MONTHS[match.group(1)], year


# A column of dates or months ('Data', 'Mês', 'Competência', 'Data de abastecimento').
_DATE_HEADER = re.compile(
    r"^(?:data|date|mes|month|periodo|period|competencia|mes ano|mes referencia|"
    r"mes de referencia|data de \w+|data da \w+|data do \w+)$"
)


@lru_cache(maxsize=16_384)
def is_date_header(name: str) -> bool:
    return bool(_DATE_HEADER.match(words(name.rsplit(HEADER_JOIN, maxsplit=1)[-1])))
