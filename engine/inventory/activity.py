"""Activity data in the inventory: liters, m³, MWh, kg of refrigerant, t of carbonate.

Most Brazilian inventories start as activity data, not emissions. A table is an activity
table when it has

- a quantity: a quantity column ("Consumo (L)", "Quantidade") or months (or years) across
  the columns holding quantities;
- a unit: in the quantity's header ("Consumo (L)"), a units row under the header ("L" under
  each month), a unit column, or the text above the table ("Consumo em litros");
- what was consumed: a fuel column, a gas column (refrigerants), a source column naming a
  fuel ("Caminhões diesel"), or the sheet's name or title ("Consumo de diesel");
- when: a date or month column, a year column, months across the columns, or a year in the
  sheet's name, title or file name.

Its emissions are computed by ``engine.emissions.estimate_rows`` (one estimate per distinct
activity, unit and period, times the quantities) and become canonical rows with
``basis = "activity"``. A table that carries its own emissions as well keeps them as the
headline: ours are computed beside them and compared per row (``activity`` evidence of the
sheet's ``SheetCheck``); a difference beyond 2% is a finding that names the factors used.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime
from functools import cache

import numpy as np
import pandas as pd

from engine.emissions import (
    ActivityInfo,
    Estimate,
    FactorLibrary,
    FactorUse,
    UnitError,
    activities,
    estimate_rows,
    find_activity,
    leaked_by_mass_balance,
    nearest,
)
from engine.emissions.batch import GAS_PREFIX, MONTREAL_PREFIX
from engine.emissions.errors import PeriodError
from engine.emissions.periods import parse_period
from engine.emissions.units import conversion_factor, dimension, parse_unit, unit_label
from engine.formatting import number, percent
from engine.inventory import fields as F
from engine.inventory.errors import ActivityUnitError
from engine.inventory.fields import month_of_header
from engine.inventory.findings import Finding, rows_text
from engine.inventory.frames import map_unique
from engine.inventory.gwp import BIOGENIC_CO2, Ch4Origin, GwpSet, gwp
from engine.inventory.plausibility import band_for, judge, significant
from engine.inventory.reconcile import Evidence
from engine.inventory.table import SheetTable

ACTIVITY = "activity"  # canonical column: the library's activity id
FACTOR_REF = "factor_ref"  # canonical column: the sources of the factors used
BASIS_ACTIVITY = "activity"
TOLERANCE = 0.02  # ours against the workbook's, per row: beyond this a factor differs
_ABSOLUTE_T = 0.01  # a workbook rounds each cell; below this no difference is meaningful
_MAX_ROW_FINDINGS = 20  # per sheet: the rest are counted in one more finding
_MIN_TIME_COLUMNS = 2
_ACTIVITY_DIMENSIONS = frozenset({"volume", "mass", "energy", "mass_distance"})
_STATIONARY = "Combustão estacionária"
_MOBILE = "Combustão móvel"

# Words that say a table holds activity data, and words that say it holds emissions.
_QUANTITY_WORDS = re.compile(
    r"\b(?:consumo|consumos|consumption|quantidade|quantity|recarga|recargas|recharge\w*|"
    r"compra|compras|purchased?|abastecimento|dados? de atividade|activity data|"
    r"fuel use|energia eletrica|electricity)\b"
)
_EMISSION_WORDS = re.compile(r"\b(?:emiss\w*|emission\w*|tco2\w*|co2 ?e\w*|equivalente)\b")
# A refrigerant taken out of equipment for recovery or disposal, and one put back in.
_RECOVERED = re.compile(
    r"\b(?:recolhid[oa]s?|recuperad[oa]s?|retirad[oa]s?|recovered|recovery|recuperacao|"
    r"recolhimento|reclaimed|removed)\b"
)
_RECHARGED = re.compile(
    r"\b(?:recarga\w*|recarregad[oa]s?|recharge\w*|reposi\w*|repost[oa]s?|reabastec\w*|"
    r"adicionad[oa]s?|refill\w*|"
    r"quantidade|quantity|added|topped)\b"
)
_TOTAL_HEADER = re.compile(r"^(?:total|soma|sum|consumo anual|consumo total|total anual)\b")
_PAREN = re.compile(r"\(([^()]*)\)")
_IN_UNIT = re.compile(r"\b(?:em|in)\s+([^\s,;()]+(?:\s+[^\s,;()]+)?)\s*$", re.IGNORECASE)

# Equipment a row names says how a fuel is used when the fuel's name alone does not: a
# generator burns diesel as stationary combustion, a forklift as off-road machinery.
_USE_WORDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("offroad", re.compile(
        r"\b(?:empilhadeiras?|tratore?s?|escavadeiras?|retroescavadeiras?|carregadeiras?|"
        r"maquinas?|motoniveladoras?|guindastes?|colheitadeiras?|fora de estrada|off ?road|"
        r"forklifts?|tractors?|excavators?|loaders?|machinery|cranes?)\b"
    )),
    ("stationary", re.compile(
        r"\b(?:caldeiras?|fornos?|geradore?s?|grupo gerador|secadore?s?|aquecedore?s?|"
        r"fornalhas?|estufas?|queimadore?s?|estacionari\w*|boilers?|furnaces?|generators?|"
        r"dryers?|kilns?|heaters?|burners?|stationary)\b"
    )),
    ("road", re.compile(
        r"\b(?:caminho\w*|caminhao|veiculos?|carros?|onibus|vans?|automove\w*|frotas?|"
        r"motos?|motocicletas?|pick ?ups?|rodoviari\w*|trucks?|cars?|bus|buses|vehicles?|"
        r"fleets?)\b"
    )),
)  # fmt: skip
_CATEGORY_USE = {_STATIONARY: "stationary", _MOBILE: "road"}


# --- detection --------------------------------------------------------------------------------


@dataclass(frozen=True)
class ActivityPlan:
    """Where a table keeps each part of its activity data."""

    quantity: str | None  # the quantity column, when time does not run across the columns
    time_columns: dict[str, tuple[int | None, str | None]]  # column -> (month, year)
    unit_column: str | None
    column_units: dict[str, str]  # quantity or time column -> the unit its header names
    context_unit: str | None  # the unit the text above the table names
    fuel: str | None  # columns naming what was consumed, by the role they play
    gas: str | None
    source: str | None
    category: str | None
    date_column: str | None
    year_column: str | None
    context: str  # sheet name and title
    context_year: str | None
    total_column: str | None  # a row total beside the months: a check, never a quantity
    mixed: bool  # the table carries its own emissions too
    # A refrigerant's mass taken out for recovery ('Recolhido (kg)'): what leaked is the
    # recharge less it (the library's mass balance, ``leaked_by_mass_balance``).
    recovered: str | None = None
    default_unit: str | None = None  # stated nowhere: kg assumed for refrigerant recharges
    # The workbook's own emission columns by gas ('' for a CO2e or total column): a finding
    # on their figures names the column.
    emission_columns: tuple[tuple[str, str], ...] = ()

    @property
    def quantity_columns(self) -> list[str]:
        return list(self.time_columns) if self.time_columns else [self.quantity or ""]


def plan_activity(
    table: SheetTable,
    mapping: dict[str, str | None],
    file_name: str = "",
    user_unit: str | None = None,
) -> ActivityPlan | None:
    """How to read ``table`` as activity data, or None when it is no activity table.
    ``user_unit`` is the unit the user chose for quantities the file states no unit for."""
    by_field = {m: c for c, m in mapping.items() if m and ":" not in m}
    emission_columns = [
        c for c, m in mapping.items()
        if F.base_field(m) in (F.EMISSIONS_T_GAS, F.EMISSIONS_TCO2E, F.BIOGENIC_CO2)
    ]  # fmt: skip
    context = " ".join(part for part in (table.sheet, table.title) if part)
    quantity = by_field.get(F.QUANTITY) or _unit_named_column(table, mapping)
    quantity, recovered = _recharge_and_recovery(table, mapping, quantity)
    time_columns = _time_columns(table, mapping)
    if quantity is None and not time_columns:
        return None  # no quantity: an emissions table, read as always
    context_unit = _context_unit(table)
    if time_columns and _time_holds_quantities(
        table, time_columns, context_unit, beside_emissions=bool(emission_columns)
    ):
        # An annual consumption column beside the months is their total. Months of litres
        # beside the workbook's own emission columns are the quantities those emissions
        # were computed from: ours check theirs, month by month.
        quantity = recovered = None
    else:
        time_columns = {}
    if quantity is None and not time_columns:
        return None
    columns = list(time_columns) or [quantity]
    column_units = {c: u for c in columns if c and (u := header_unit(c))}
    unit_column = by_field.get(F.UNIT)
    if unit_column is None and not emission_columns:
        # A unit column of masses with no quantity beside it was read as the emissions'
        # unit; beside quantities across the months it is theirs ('kg' of LPG).
        unit_column = by_field.get(F.EMISSIONS_UNIT)
    default_unit = None
    if not (unit_column or column_units or context_unit):
        if not (by_field.get(F.GAS) and quantity and _is_recharge(quantity, recovered)):
            return None
        # Refrigerant recharges are weighed in kg (the cylinder's scale, the IPCC method);
        # with no unit stated anywhere that is an assumption the sheet says, never a proof.
        default_unit = user_unit or "kg"
    total = next((c for c in table.columns if c not in time_columns and c != quantity
                  and c not in emission_columns and _is_total_header(c)), None)  # fmt: skip
    if quantity and time_columns == {} and total == quantity:
        total = None
    if time_columns and quantity is None:
        named = by_field.get(F.QUANTITY)
        total = total or (named if named not in time_columns else None)
    date_column = next((c for c, m in mapping.items() if m is None and F.is_date_header(c)), None)
    plan = ActivityPlan(
        quantity=quantity,
        time_columns=time_columns,
        unit_column=unit_column,
        column_units=column_units,
        context_unit=context_unit,
        fuel=by_field.get(F.FUEL),
        gas=by_field.get(F.GAS),
        source=by_field.get(F.SOURCE),
        category=by_field.get(F.CATEGORY),
        date_column=date_column,
        year_column=by_field.get(F.YEAR),
        context=context,
        context_year=F.year_in_text(context) or F.year_in_text(file_name),
        total_column=total,
        mixed=bool(emission_columns),
        recovered=recovered,
        default_unit=default_unit,
        emission_columns=tuple(
            (F.mapped_gas(mapping[c]) or "", c)
            for c in emission_columns
            if F.base_field(mapping[c]) != F.BIOGENIC_CO2
        ),
    )
    # What was consumed: a column that names it, or the sheet's name or title.
    named_by = [c for c in (plan.fuel, plan.gas, plan.source) if c]
    if not named_by and _activity_in(context) is None:
        return None
    return plan


def _is_total_header(column: str) -> bool:
    """'Total', 'Total anual', or a group's total ('Consumo de combustível (litros) / Total
    anual')."""
    last = column.rsplit(F.HEADER_JOIN, maxsplit=1)[-1]
    return bool(_TOTAL_HEADER.match(F.words(column)) or _TOTAL_HEADER.match(F.words(last)))


def _is_recharge(quantity: str, recovered: str | None) -> bool:
    return bool(recovered or _RECHARGED.search(F.words(quantity)))


def _recharge_and_recovery(
    table: SheetTable, mapping: dict[str, str | None], quantity: str | None
) -> tuple[str | None, str | None]:
    """A refrigerant sheet's recharge column and the column of what was recovered, if any.
    Either header may have won the quantity field ('Quantidade recolhida (kg)'): the one
    that says recovery is never the quantity while a recharge column stands beside it."""
    candidates = [
        c for c in table.columns
        if mapping.get(c) in (None, F.QUANTITY)
        and (dimension_of(header_unit(c) or "") == "mass" or header_unit(c) is None)
    ]  # fmt: skip
    recovered = next((c for c in candidates if _RECOVERED.search(F.words(c))), None)
    if recovered is None:
        return quantity, None
    if quantity in (None, recovered):
        quantity = next(
            (c for c in candidates if c != recovered and _RECHARGED.search(F.words(c))), None
        )
    return (quantity, recovered) if quantity else (None, None)


_UNIT_HEADER_VERBS = re.compile(
    r"^(?P<unit>.+?)(?:\s+(?:consumid[oa]s?|abastecid[oa]s?|comprad[oa]s?|consumed|purchased))?$"
)


def _unit_named_column(table: SheetTable, mapping) -> str | None:
    """A column headed by its unit alone ('Litros', 'kWh', 'm³ consumidos'): the quantity.
    A unit beside other words ('Carga nominal (kg)') names a property, never the quantity."""
    for column in table.columns:
        if mapping.get(column) is not None or month_of_header(column) or F.year_of_header(column):
            continue
        last = column.split(F.HEADER_JOIN)[-1].strip()
        match = _UNIT_HEADER_VERBS.match(last)
        if match and dimension_of(match.group("unit")):
            return column
    return None


def _time_columns(table: SheetTable, mapping) -> dict[str, tuple[int | None, str | None]]:
    """Months (or years) across the columns that no field claims. A month may have won the
    quantity field by its group header ('Consumo de GLP (kg) / jan'): it is a month still."""
    months = {
        c: (m[0], m[1]) for c in table.columns
        if mapping.get(c) in (None, F.QUANTITY) and (m := month_of_header(c))
    }  # fmt: skip
    if len(months) >= _MIN_TIME_COLUMNS:
        return months
    years = {
        c: (None, y) for c in table.columns if mapping.get(c) is None and (y := F.year_of_header(c))
    }
    return years if len(years) >= _MIN_TIME_COLUMNS else {}


def months_hold_quantities(table: SheetTable, columns: list[str]) -> bool:
    """Whether months across the columns hold activity data (litres, m³, MWh, kg of fuel),
    never to be summed as emissions: ``_time_holds_quantities``, judged from the month
    headers alone when the table has emission columns of its own (its title then speaks
    of those)."""
    if len(columns) < _MIN_TIME_COLUMNS:
        return False
    others = [c for c in table.columns if c not in columns]
    beside = any(
        (m := F.match_header(c)) and F.base_field(m.field) in F.EMISSION_FIELDS for c in others
    )
    return _time_holds_quantities(table, columns, _context_unit(table), beside_emissions=beside)


def _time_holds_quantities(
    table: SheetTable, time_columns, context_unit: str | None, *, beside_emissions: bool = False
) -> bool:
    """Months across the columns hold quantities, not emissions: their headers name a unit
    no emission is measured in (L, m³, MWh), or consumption and a unit ('Consumo de GLP
    (kg)'), or the text above says consumption and not emissions. Headers under 'Emissões'
    or naming a gas, and a sheet per gas, hold emissions. Beside the table's own emission
    columns only the months' own headers count: the title then describes both."""
    headers = " ".join(F.words(c) for c in time_columns)
    if _EMISSION_WORDS.search(headers) or F.gas_in_header(F.words(table.sheet)):
        return False
    units = [header_unit(c) for c in time_columns]
    if any(u and dimension_of(u) not in (None, "mass") for u in units):
        return True  # 'Jan / L': a units row of litres is consumption whatever the title
    if _QUANTITY_WORDS.search(headers) and (any(units) or context_unit):
        return True  # 'Consumo de GLP (kg) / jan', 'Recarga (kg) / jan'
    if beside_emissions:
        return False
    text = " ".join(F.words(t) for t in (table.sheet, table.title, *table.context))
    if context_unit and dimension_of(context_unit) not in (None, "mass"):
        return not _EMISSION_WORDS.search(text) or bool(_QUANTITY_WORDS.search(text))
    return bool(_QUANTITY_WORDS.search(f"{headers} {text}")) and not _EMISSION_WORDS.search(text)


@cache
def dimension_of(unit: str) -> str | None:
    """'volume', 'mass', 'energy' or 'mass_distance' for a unit an activity may come in."""
    if not isinstance(unit, str) or not unit.strip() or len(unit) > 20:
        return None
    if re.search(r"co2|ch4|n2o", F.words(unit)):
        return None  # 't CO2e' is how emissions are measured, never consumption
    try:
        parse_unit(unit)
        kind = dimension(unit)
    except Exception:  # pint raises several types; any means "not a unit"
        return None
    return kind if kind in _ACTIVITY_DIMENSIONS else None


@cache
def header_unit(column: str) -> str | None:
    """The activity unit a header names: 'Consumo (L)', 'Jan / m³' (a units row), 'Consumo
    em litros', 'Quantidade recarregada (kg)'."""
    for part in reversed([p.strip() for p in column.split(F.HEADER_JOIN)]):
        for candidate in _unit_candidates(part):
            if dimension_of(candidate):
                return candidate
    return None


def _unit_candidates(text: str) -> list[str]:
    candidates = [text] if len(text) <= 20 else []
    verbs = _UNIT_HEADER_VERBS.match(text)  # 'kWh consumidos'
    if verbs and verbs.group("unit") != text:
        candidates.append(verbs.group("unit"))
    candidates += [m.strip() for m in reversed(_PAREN.findall(text))]
    found = _IN_UNIT.search(text)
    if found:
        candidates += [found.group(1), found.group(1).split()[0]]
    return candidates


def _context_unit(table: SheetTable) -> str | None:
    for line in (table.title, *table.context, table.sheet):
        if not line:
            continue
        for candidate in _unit_candidates(line)[1:] if len(line) <= 20 else _unit_candidates(line):
            if dimension_of(candidate):
                return candidate
    return None


# --- from text to an activity -----------------------------------------------------------------


@cache
def _labels() -> tuple[tuple[str, str], ...]:
    """(folded words of a name or synonym, activity id), longest first: the most specific
    name a text contains wins ('calcário dolomítico' over 'calcário')."""
    pairs = {
        (F.words(label), info.id)
        for info in activities()
        for label in (*info.name.values(), *(s for g in info.synonyms.values() for s in g))
        if F.words(label)
    }
    return tuple(sorted(pairs, key=lambda pair: (-len(pair[0]), pair[0])))


@cache
def _by_id() -> dict[str, ActivityInfo]:
    return {info.id: info for info in activities()}


@cache
def _activity_in(text: str) -> ActivityInfo | None:
    """The activity a text is, or names among other words ('Óleo diesel S10 – frota')."""
    if not text or not text.strip():
        return None
    found = find_activity(text)
    if found is not None:
        return found
    folded = f" {F.words(text)} "
    for label, identifier in _labels():
        if f" {label} " in folded:
            return _by_id().get(identifier) or find_activity(identifier)
    return None


def _fits(info: ActivityInfo, category: str) -> bool:
    """Whether an activity belongs in a sheet of ``category``: fuels in either combustion
    (the use follows the sheet), the others only in their own."""
    if info.category in _CATEGORY_USE:
        return category in _CATEGORY_USE
    return category == info.category


def _use_hint(text: str | None) -> str | None:
    if not text:
        return None
    folded = F.words(text)
    return next((use for use, pattern in _USE_WORDS if pattern.search(folded)), None)


def _product(info: ActivityInfo) -> tuple[object, ...]:
    """What is burnt, whatever the use: the fuel and everything that sets its factors but
    the use. Diesel A (B0) and diesel B share ``fuel = "diesel"``; B splits the volume by
    its biodiesel share (``blend``, ``bio_fuel``) and reports that part's CO2 as biogenic."""
    return (info.fuel, info.method, info.blend, info.bio_fuel, info.properties,
            info.bio_properties, info.fallback_fuel)  # fmt: skip


def _with_use(info: ActivityInfo, use: str | None) -> ActivityInfo | None:
    """The same product (fuel, blend and all: ``_product``) burnt the way ``use`` says;
    None when the library has no factor for that product in that use (a guess, even
    another blend of the same fuel, would be wrong by the factor's whole difference)."""
    if info.fuel is None or use is None:
        return info
    product = _product(info)
    siblings = [a for a in activities() if _product(a) == product]
    if use == "stationary":
        if info.category == _STATIONARY:
            return info
        return next((a for a in siblings if a.category == _STATIONARY), None)
    if info.use == use:
        return info
    return next((a for a in siblings if a.use == use), None)


@dataclass(frozen=True)
class _Resolved:
    info: ActivityInfo | None
    text: str  # what named it (or failed to)
    why_pt: str = ""
    why_en: str = ""


def _resolve(key: tuple[str, ...], context: str, context_category: str | None) -> _Resolved:
    """One distinct (fuel, gas, source, category) of a table: its activity, if any."""
    fuel, gas, source, category = (part or None for part in key)
    text = fuel or gas
    info = _activity_in(text) if text else None
    if text is None:
        info = _activity_in(source) if source else None
        text = source if info is not None else None
        if info is None:
            info = _activity_in(context)
            text = context if info is not None else (source or context)
    if info is None:
        return _Resolved(None, text or "")
    row_category = (F.category_of(category) or (None, None))[1] if category else None
    use = (
        _use_hint(fuel)
        or _use_hint(source)
        or _CATEGORY_USE.get(row_category or context_category or "")
    )
    known = row_category or context_category
    if known and not _fits(info, known):
        # A fuel named in a waste or travel sheet ('Resíduos de madeira') is no combustion.
        return _Resolved(
            None,
            text or "",
            f"'{text}' está em {known}; a biblioteca calcula {info.name['pt']} como "
            f"{info.category}",
            f"'{text}' is filed under {F.category_en(known)}; the library computes "
            f"{info.name['en']} as {info.category_en}",
        )
    chosen = _with_use(info, use)
    if chosen is None:
        use_pt = {"stationary": "combustão estacionária", "road": "transporte rodoviário",
                  "offroad": "máquinas fora de estrada"}[use or ""]  # fmt: skip
        use_en = {"stationary": "stationary combustion", "road": "road transport",
                  "offroad": "off-road machinery"}[use or ""]  # fmt: skip
        return _Resolved(
            None,
            text or "",
            f"a biblioteca não tem fatores de {info.name['pt']} para {use_pt}",
            f"the library has no factors for {info.name['en']} in {use_en}",
        )
    return _Resolved(chosen, text or "")


# --- the rows to compute ----------------------------------------------------------------------


@dataclass
class ActivityRows:
    """One table's activity data and what the library made of it."""

    requests: pd.DataFrame  # one row per quantity: _idx, row, activity, quantity, unit, period
    result: pd.DataFrame | None  # estimate_rows' table, aligned with ``requests``
    estimates: dict[int, Estimate]
    unresolved: pd.DataFrame  # rows naming no known activity: row, text, why
    missing_period: list[int]  # sheet rows with a quantity but no date, month or year
    failures: list[tuple[tuple[int, ...], str, str]]  # (sheet rows, pt, en): no factor
    emission_columns: dict[str, str] = field(default_factory=dict)  # gas ('' CO2e) -> column
    assumed_unit: str | None = None  # the quantities' unit, stated nowhere
    # per sheet row: activity, unit, quantity (``_row_quantities``), summed once
    quantities: pd.DataFrame | None = field(default=None, repr=False, compare=False)

    @property
    def found_any(self) -> bool:
        """Whether any row named an activity the library knows."""
        return bool(len(self.requests) or self.missing_period or self.failures)


def mark_activities(table: pd.DataFrame, rows: ActivityRows) -> None:
    """The activity each of the workbook's own rows was checked as, beside its emissions."""
    by_row = pd.Series(rows.requests["activity"].to_numpy(), index=rows.requests["row"])
    by_row = by_row[~by_row.index.duplicated()]
    table[ACTIVITY] = by_row.reindex(table["row"].to_numpy()).to_numpy()


def _row_keys(
    body: pd.DataFrame, columns: tuple[str | None, ...]
) -> tuple[np.ndarray, list[tuple[str, ...]]]:
    """Each row's code and the distinct (fuel, gas, source, category) texts, read once per
    distinct combination: a sheet repeats them over thousands of rows."""
    if not len(body):
        return np.zeros(0, dtype=np.int64), []
    frame = pd.DataFrame(
        {str(i): body[c].astype(object) if c else "" for i, c in enumerate(columns)},
        index=body.index,
    )
    codes = frame.groupby(list(frame.columns), dropna=False, sort=False).ngroup().to_numpy()
    first = pd.Series(np.arange(len(frame))).groupby(codes).first().to_numpy()
    values = [frame[c].to_numpy(dtype=object)[first] for c in frame.columns]
    keys = [tuple(_cell_text(v) for v in parts) for parts in zip(*values, strict=True)]
    return codes, keys


def _cell_text(value: object) -> str:
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def collect_rows(
    table: SheetTable,
    plan: ActivityPlan,
    parse: Callable[[pd.Series], pd.Series],
    *,
    gwp_set: GwpSet,
    factors: FactorLibrary | None,
    strict: bool,
) -> ActivityRows:
    """Every quantity of the table with its activity, unit and period, computed.

    ``strict`` (a table with no emissions of its own): a unit that cannot be converted is an
    ``ActivityUnitError`` naming the sheet, the row and the unit. Otherwise that row is only
    left unchecked.
    """
    body = table.body
    rows = table.rows()
    codes, keys = _row_keys(body, (plan.fuel, plan.gas, plan.source, plan.category))
    context_category = (F.category_of(table.sheet) or F.category_of(table.title) or (None, None))[1]
    resolutions = [_resolve(key, plan.context, context_category) for key in keys]
    ids = np.array([r.info.id if r.info else None for r in resolutions], dtype=object)
    activity = pd.Series(ids[codes], index=body.index)
    row_units = (
        map_unique(body[plan.unit_column], _cell_text).replace("", None)
        if plan.unit_column
        else pd.Series(None, index=body.index, dtype=object)
    )
    row_periods = _row_periods(body, plan)
    parts = []
    leak_failures: list[tuple[tuple[int, ...], str, str]] = []
    for column in plan.quantity_columns:
        month, year = plan.time_columns.get(column, (None, None))
        quantity = parse(body[column])
        if plan.recovered:
            quantity, negative = _leaked(quantity, parse(body[plan.recovered]))
            if negative.any():
                leak_failures.append(_recovery_failure(rows[negative.to_numpy()], plan))
        stated = plan.column_units.get(column) or plan.context_unit or plan.default_unit
        unit = row_units.fillna(stated)
        if plan.time_columns:
            year = year or row_periods["year"].where(row_periods["year"].notna(), None)
            period = _month_label(year, month) if month else year
        else:
            period = row_periods["period"]
            year = row_periods["year"]
        parts.append(pd.DataFrame({
            "_idx": body.index, "row": rows.to_numpy(), "activity": activity,
            "quantity": quantity, "unit": unit, "period": period, "year": year,
        }, index=body.index))  # fmt: skip
    requests = pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]
    requests = requests.reset_index(drop=True)
    has_quantity = requests["quantity"].notna()
    if plan.time_columns:
        has_quantity &= requests["quantity"] != 0  # an empty month consumed nothing
    named = requests["activity"].notna()
    unresolved = _unresolved(requests[has_quantity & ~named], resolutions, codes, body)
    dated = requests["period"].notna()
    missing_period = sorted({int(r) for r in requests.loc[has_quantity & named & ~dated, "row"]})
    if strict:
        _check_units(requests[has_quantity & named], table.sheet)
    todo = requests[has_quantity & named & dated & requests["unit"].notna()].copy()
    result, estimates, failures = None, {}, []
    if len(todo):
        result, estimates, errors = _estimate(todo, gwp_set, factors)
        failed = result["error"].notna()
        if failed.any():
            failures = _failures(todo[failed], result[failed], errors, table.sheet, strict)
            todo, result = todo[~failed], result[~failed]
    requests = todo
    failures = leak_failures + failures
    return ActivityRows(
        requests, result, estimates, unresolved, missing_period, failures,
        emission_columns=dict(plan.emission_columns),
        assumed_unit=plan.default_unit,
    )  # fmt: skip


def _leaked(recharged: pd.Series, recovered: pd.Series) -> tuple[pd.Series, pd.Series]:
    """kg leaked per row by the library's mass balance (recharged − recovered; a blank
    recovery is none), and the rows that recovered more than they recharged: a data error
    the user fixes, never a negative emission."""
    values, negative = [], []
    for put_in, taken_out in zip(
        recharged.to_numpy(dtype=float), recovered.fillna(0.0).to_numpy(dtype=float), strict=True
    ):
        if np.isnan(put_in):
            values.append(np.nan)
            negative.append(False)
            continue
        try:
            values.append(leaked_by_mass_balance(put_in, taken_out))
            negative.append(False)
        except ValueError:
            values.append(np.nan)
            negative.append(True)
    return (pd.Series(values, index=recharged.index, dtype=float),
            pd.Series(negative, index=recharged.index, dtype=bool))  # fmt: skip


def _recovery_failure(rows: pd.Series, plan: ActivityPlan) -> tuple[tuple[int, ...], str, str]:
    listed = tuple(sorted(int(r) for r in rows))
    column = plan.quantity or ""
    return (
        listed,
        f"a quantidade recolhida ('{plan.recovered}') é maior que a recarregada ('{column}'); "
        "confira os registros.",
        f"the recovered amount ('{plan.recovered}') exceeds the recharged ('{column}'); check "
        "the records.",
    )


def _estimate(todo: pd.DataFrame, gwp_set: GwpSet, factors: FactorLibrary | None):
    """``estimate_rows`` over the distinct (activity, unit, period) of the rows, for a
    quantity of 1, then every row's figures by one multiplication: a sheet repeats its
    fuels, units and months over thousands of rows."""
    keys = todo[["activity", "unit", "period"]].astype(object)
    codes = keys.groupby(list(keys.columns), sort=False, dropna=False).ngroup().to_numpy()
    first = pd.Series(np.arange(len(todo))).groupby(codes).first().to_numpy()
    distinct = keys.iloc[first].assign(quantity=1.0, row=todo["row"].to_numpy()[first])
    batch = estimate_rows(distinct.reset_index(drop=True), gwp_set=gwp_set, factors=factors,
                          errors="collect")  # fmt: skip
    unit_rows = batch.table.iloc[codes].reset_index(drop=True)
    quantity = todo["quantity"].to_numpy(dtype=float)
    scaled = [
        c
        for c in unit_rows.columns
        if c.startswith((GAS_PREFIX, MONTREAL_PREFIX)) or c in ("tco2e", "biogenic_co2_t")
    ]
    result = unit_rows.copy()
    for column in scaled:
        result[column] = unit_rows[column].to_numpy(dtype=float) * quantity
    result.index = todo.index
    return result, batch.estimates, batch.errors


def _month_label(year, month: int):
    if isinstance(year, pd.Series):
        return year.map(lambda y: f"{y}-{month:02d}" if isinstance(y, str) and y else None)
    return f"{year}-{month:02d}" if year else None


def _row_periods(body: pd.DataFrame, plan: ActivityPlan) -> pd.DataFrame:
    """Each row's period ('2024', '2024-03', '2024-03-15') and year, from a date or month
    column, a year column, or the sheet's name, title or file name."""
    year = pd.Series(plan.context_year, index=body.index, dtype=object)
    if plan.year_column:
        own = map_unique(body[plan.year_column], _year_text)
        year = own.where(own.notna(), year)
    period = year.copy()
    if plan.date_column:
        dates = map_unique(body[plan.date_column], _date_label)
        labels = map_unique(dates, lambda d: d if isinstance(d, str) else None)
        months = map_unique(dates, lambda d: d if isinstance(d, int) else None)
        month_only = months.notna() & year.notna()
        period = labels.where(labels.notna(), period)
        if month_only.any():
            pairs = zip(year[month_only], months[month_only], strict=True)
            period[month_only] = [f"{y}-{int(m):02d}" for y, m in pairs]
        from_date = map_unique(labels, lambda d: d[:4] if isinstance(d, str) else None)
        year = from_date.where(from_date.notna(), year)
    return pd.DataFrame({"period": period, "year": year}, index=body.index)


def _year_text(value: object) -> str | None:
    if F.is_year(value):
        return str(int(float(value))) if not isinstance(value, str) else value.strip()
    if isinstance(value, str):
        return F.year_in_text(value)
    if isinstance(value, datetime | date):
        return f"{value.year:04d}"
    return None


def _date_label(value: object) -> str | int | None:
    """A date cell as a period label ('2024-03-15', '2024-03'); a month name alone as its
    number (the year comes from elsewhere); None when it is no date."""
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return None
    if isinstance(value, pd.Timestamp | datetime | date):
        return parse_period(value.date() if isinstance(value, datetime) else value).label
    text = str(value).strip()
    try:
        return parse_period(text).label
    except PeriodError:
        pass
    month = month_of_header(text)
    if month is None:
        return None
    number_, year = month
    return f"{year}-{number_:02d}" if year else number_


def _unresolved(rows: pd.DataFrame, resolutions, codes, body: pd.DataFrame) -> pd.DataFrame:
    if rows.empty:
        return pd.DataFrame(columns=["row", "text", "why_pt", "why_en"])
    positions = body.index.get_indexer(rows["_idx"].to_numpy())
    picked = [resolutions[c] for c in codes[positions]]
    return pd.DataFrame({
        "row": rows["row"].to_numpy(),
        "text": [r.text for r in picked],
        "why_pt": [r.why_pt for r in picked],
        "why_en": [r.why_en for r in picked],
    }).drop_duplicates("row")  # fmt: skip


def _check_units(rows: pd.DataFrame, sheet: str) -> None:
    """Every (activity, unit) pair is checked once; the first row of a bad one is named."""
    if rows.empty:
        return
    missing = rows["unit"].isna()
    if missing.any():
        first = rows[missing].sort_values("row").iloc[0]
        info = _by_id().get(first["activity"])
        names = (info.name["pt"], info.name["en"]) if info else (first["activity"],) * 2
        raise ActivityUnitError(sheet, int(first["row"]), "", *names)
    pairs = rows.drop_duplicates(["activity", "unit"])
    for activity, unit in zip(pairs["activity"], pairs["unit"], strict=True):
        info = _by_id().get(activity) or find_activity(activity)
        if info is None or dimension_of(unit) in info.units:
            continue
        bad = rows[(rows["activity"] == activity) & (rows["unit"] == unit)]
        raise ActivityUnitError(
            sheet, int(bad["row"].min()), str(unit), info.name["pt"], info.name["en"],
            "/".join(info.units),
        )  # fmt: skip


def _failures(
    todo, result, errors, sheet: str, strict: bool
) -> list[tuple[tuple[int, ...], str, str]]:
    """Rows the library could not compute, by reason. A unit error in an activity-only table
    is the user's to fix (raised, naming its first row); no factor for the period is a
    finding, the rows not counted."""
    by_message = {error.message("pt"): error for error in errors.values()}
    failed = []
    for message, rows in todo["row"].groupby(result["error"].to_numpy(), sort=False):
        error = by_message.get(message)
        first = rows.index[rows.argmin()]
        if strict and isinstance(error, UnitError):
            activity, unit = todo.at[first, "activity"], todo.at[first, "unit"]
            info = _by_id().get(activity) or find_activity(activity)
            names = (info.name["pt"], info.name["en"]) if info else (activity, activity)
            raise ActivityUnitError(sheet, int(rows.min()), str(unit), *names,
                                    "/".join(info.units) if info else None)  # fmt: skip
        en = error.message("en") if error is not None else message
        failed.append((tuple(sorted(int(r) for r in rows.unique())), str(message), en))
    return failed


# --- canonical rows ---------------------------------------------------------------------------


def canonical_rows(rows: ActivityRows, base: pd.DataFrame) -> pd.DataFrame:
    """Canonical rows of the computed quantities: one per table row, year and gas.

    ``base`` holds the table's descriptive fields per body row (index = body row). Months
    are added up into their year, as the ingestion does for emissions across the columns.
    Texts are carried as codes and made once per distinct value: a 100k-row sheet has a
    few dozen distinct activities, units and sources.
    """
    if rows.result is None or rows.requests.empty:
        return base.iloc[:0].assign(**{F.GAS: None, F.EMISSIONS_T_GAS: np.nan,
                                       F.EMISSIONS_TCO2E: np.nan, "basis": BASIS_ACTIVITY,
                                       ACTIVITY: None, FACTOR_REF: None})  # fmt: skip
    requests, result = rows.requests, rows.result
    groups = result["group"].to_numpy()
    gases = _gas_columns(result, rows.estimates)
    names = [gas for gas, _, _ in gases]
    frame = pd.DataFrame(
        {gas: np.where(np.isin(groups, applies), result[column].to_numpy(dtype=float), np.nan)
         for gas, column, applies in gases},
        index=requests.index,
    )  # fmt: skip
    frame["_idx"] = requests["_idx"].to_numpy()
    frame["_year"] = requests["year"].astype(object).where(requests["year"].notna(), "")
    frame[F.QUANTITY] = requests["quantity"].to_numpy()
    frame[F.UNIT] = requests["unit"].to_numpy()
    frame[ACTIVITY] = requests["activity"].to_numpy()
    frame["_group"] = groups
    texts: list[str] = []  # every factor_ref text, once
    if requests["_idx"].is_unique:  # one quantity per row: a source text per group and gas
        refs = {gas: _ref_codes(rows.estimates, gas, texts, groups) for gas in names}
    else:  # months across the columns: one row per year, every month's sources
        frame, refs = _by_year(frame, ["_idx", "_year"], names, rows.estimates, texts)
    positions = [np.flatnonzero(frame[gas].notna().to_numpy()) for gas in names]
    at = np.concatenate(positions)
    if not len(at):
        empty = ActivityRows(requests.iloc[:0], None, {}, rows.unresolved, [], [])
        return canonical_rows(empty, base)
    canonical = base.take(base.index.get_indexer(frame["_idx"].to_numpy()[at]))
    gas_codes = np.concatenate([np.full(len(p), i) for i, p in enumerate(positions)])
    canonical[F.GAS] = _texts(names, gas_codes)
    canonical[F.EMISSIONS_T_GAS] = np.concatenate(
        [frame[gas].to_numpy(dtype=float)[p] for gas, p in zip(names, positions, strict=True)]
    )
    canonical[F.EMISSIONS_TCO2E] = np.nan
    canonical[F.QUANTITY] = frame[F.QUANTITY].to_numpy(dtype=float)[at]
    for column in (F.UNIT, F.YEAR, ACTIVITY):
        source = frame["_year"].replace("", None) if column == F.YEAR else frame[column]
        codes, values = pd.factorize(source)
        canonical[column] = _texts(list(values), codes[at])
    activity_codes, activity_ids = codes[at], list(values)  # ACTIVITY came last
    ref_codes = np.concatenate([refs[gas][p] for gas, p in zip(names, positions, strict=True)])
    # Long texts (document titles), a handful of them: a category, not one string per row.
    canonical[FACTOR_REF] = pd.Categorical.from_codes(ref_codes, categories=pd.Index(texts))
    canonical["basis"] = BASIS_ACTIVITY
    _describe(canonical, rows.estimates, activity_codes, activity_ids)
    return canonical


def _texts(values: list, codes: np.ndarray):
    """A text column by codes (-1 = missing): one take, no Python string per row."""
    return pd.array([str(v) for v in values] or [""], dtype="str").take(
        np.asarray(codes, dtype=np.int64), allow_fill=True
    )


def _code_of(text: str, texts: list[str], index: dict[str, int]) -> int:
    if text not in index:
        index[text] = len(texts)
        texts.append(text)
    return index[text]


def _ref_codes(estimates: dict[int, Estimate], gas: str, texts: list[str], groups) -> np.ndarray:
    """Per row, the code of the sources of the factors its group used for ``gas``."""
    index = {t: i for i, t in enumerate(texts)}
    lookup = np.full(max(estimates, default=0) + 2, -1, dtype=np.int64)
    for group, text in _refs_by_group(estimates, gas).items():
        lookup[group] = _code_of(text, texts, index)
    return lookup[np.asarray(groups, dtype=np.int64)]


def _gas_columns(result: pd.DataFrame, estimates: dict[int, Estimate]):
    """(canonical gas, result column, groups it applies to): the batch table fills 0 for an
    activity without that gas, and 0 is no emission of it."""
    found = []
    for column in result.columns:
        if column.startswith(GAS_PREFIX):
            gas = column[len(GAS_PREFIX) :]
            applies = [g for g, e in estimates.items() if gas in e.gases_t]
        elif column.startswith(MONTREAL_PREFIX):
            gas = column[len(MONTREAL_PREFIX) :]
            applies = [g for g, e in estimates.items() if gas in e.montreal_t]
        else:
            continue
        found.append((gas, column, applies))
    bio = [g for g, e in estimates.items() if e.biogenic_co2_t]
    if bio:
        found.append((BIOGENIC_CO2, "biogenic_co2_t", bio))
    return found


def _library_gas(gas: str) -> str:
    return "CO2_biogenic" if gas == BIOGENIC_CO2 else gas


def _factor_uses(estimate: Estimate, gas: str) -> list[FactorUse]:
    """The factors that made one gas of an estimate: its own, and the shared properties
    (density, NCV, blend share) the chain passed through."""
    wanted = _library_gas(gas)
    return [use for use in estimate.factors if use.gas in (wanted, "-")]


def _refs_by_group(estimates: dict[int, Estimate], gas: str) -> dict[int, str]:
    return {
        group: "; ".join(dict.fromkeys(use.source for use in _factor_uses(estimate, gas)))
        for group, estimate in estimates.items()
    }


def _by_year(frame, keys: list[str], gases: list[str], estimates, texts: list[str]):
    """Months of a row added into its year; the sources of every month's factors kept."""
    grouped = frame.groupby(keys, sort=False)
    summed = grouped[[*gases, F.QUANTITY]].sum(min_count=1)
    for gas in gases:  # a gas no month of the row has stays missing, not 0
        summed.loc[grouped[gas].count() == 0, gas] = np.nan
    first = grouped[[F.UNIT, ACTIVITY]].first()
    units = grouped[F.UNIT].nunique()
    first.loc[units > 1, [F.UNIT]] = None  # months in different units: no one quantity
    summed.loc[units > 1, F.QUANTITY] = np.nan
    # The groups a row's months used, as one signature: rows sharing it share their sources.
    distinct = frame[[*keys, "_group"]].drop_duplicates().sort_values("_group")
    signature = distinct.groupby(keys, sort=False)["_group"].agg(tuple).reindex(summed.index)
    codes, signatures = pd.factorize(signature)
    index = {t: i for i, t in enumerate(texts)}
    refs = {}
    for gas in gases:
        by_group = _refs_by_group(estimates, gas)
        per_signature = [
            _code_of(_join_sources([by_group.get(g, "") for g in sig]), texts, index)
            for sig in signatures
        ]
        refs[gas] = np.asarray(per_signature, dtype=np.int64)[codes]
    return pd.concat([summed, first], axis=1).reset_index(), refs


def _join_sources(texts: list[str]) -> str:
    return "; ".join(dict.fromkeys(s for t in texts if t for s in t.split("; ") if s))


def _describe(
    canonical: pd.DataFrame, estimates: dict[int, Estimate], codes: np.ndarray, ids: list[str]
) -> None:
    """Scope, category and Scope 2 method as the library files the activity; the sheet's
    own category and labels where it gives them. ``codes`` index ``ids``, row by row."""
    infos = {e.activity: e for e in estimates.values()}

    def per_row(value) -> pd.Series:
        texts = [value(infos[a]) for a in ids]
        return pd.Series(_texts([t or "" for t in texts], codes), index=canonical.index)

    canonical[F.SCOPE] = per_row(lambda e: str(e.scope)).to_numpy()
    for column, value in (
        (F.CATEGORY, lambda e: e.category),
        (F.FUEL, lambda e: e.name["pt"]),
        (F.SOURCE, lambda e: e.name["pt"]),
    ):
        own = canonical[column]
        missing = own.isna().to_numpy()
        if missing.all():
            canonical[column] = per_row(value).to_numpy()
        elif missing.any():
            canonical[column] = own.where(~missing, per_row(value))
    methods = [infos[a].scope2_method for a in ids]
    if any(methods):
        located = np.array([m is not None for m in methods])[codes]
        method = per_row(lambda e: e.scope2_method)
        canonical[F.SCOPE2_METHOD] = method.where(located, canonical[F.SCOPE2_METHOD])


# --- the workbook's own emissions against ours ------------------------------------------------


def _agrees(ours: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    scale = np.maximum(np.abs(ours), np.abs(theirs))
    return np.abs(ours - theirs) <= np.maximum(_ABSOLUTE_T, TOLERANCE * scale)


def _in_scope(frame: pd.DataFrame) -> pd.Series:
    """t CO2e per (row, gas) outside the biogenic memo: Montreal gases count at their CO2e,
    as a workbook states them."""
    rows = frame[frame[F.REPORTING] != F.BIOGENIC]
    value = rows[F.EMISSIONS_TCO2E].fillna(0.0) + rows[F.MEMO_TCO2E].fillna(0.0)
    return value.groupby([rows["row"], rows[F.GAS].fillna("")]).sum()


def _our_figures(
    rows: ActivityRows, gwp_set: GwpSet, ch4_origin: Ch4Origin
) -> tuple[pd.Series, pd.Series]:
    """Our t CO2e per (row, gas), Montreal gases included at their CO2e as a workbook
    states them, and our biogenic CO2 per row: straight from the batch's columns."""
    result, estimates = rows.result, rows.estimates
    if result is None or rows.requests.empty:
        return pd.Series(dtype=float), pd.Series(dtype=float)
    sheet_rows = rows.requests["row"].to_numpy()
    groups = result["group"].to_numpy()
    parts, biogenic = [], pd.Series(dtype=float)
    for gas, column, applies in _gas_columns(result, estimates):
        mask = np.isin(groups, applies)
        values = result[column].to_numpy(dtype=float)[mask]
        if gas == BIOGENIC_CO2:
            biogenic = pd.Series(values).groupby(sheet_rows[mask]).sum()
            continue
        weight = gwp(gas, gwp_set, ch4_origin)
        parts.append(
            pd.DataFrame(
                {
                    "row": sheet_rows[mask],
                    F.GAS: gas,
                    "t": values * (np.nan if weight is None else weight),
                }
            )
        )
    if not parts:
        return pd.Series(dtype=float), biogenic
    long = pd.concat(parts, ignore_index=True)
    return long.groupby(["row", F.GAS])["t"].sum(), biogenic


def compare(
    rows: ActivityRows, theirs: pd.DataFrame, sheet: str, gwp_set: GwpSet, ch4_origin: Ch4Origin
) -> tuple[Evidence | None, list[Finding]]:
    """Per row, our t CO2e against the workbook's, over the gases it reports; biogenic CO2
    apart. Market-based Scope 2 rows are not compared (ours is location-based)."""
    our_gas, our_bio = _our_figures(rows, gwp_set, ch4_origin)
    if our_gas.empty or theirs.empty:
        return None, []
    their_gas = _in_scope(theirs)
    # Gases both sides name (a per-gas workbook): only those are compared. A workbook with
    # one CO2e figure per row (no gas) is compared with all of ours.
    common = their_gas.index.intersection(our_gas.index)
    common = common[common.get_level_values(1) != ""]
    common_rows = common.get_level_values(0)
    theirs_common = their_gas.loc[common].groupby(common_rows).sum()
    ours_common = our_gas.loc[common].groupby(common_rows).sum()
    theirs_total = their_gas.groupby(level=0).sum()
    ours_total = our_gas.groupby(level=0).sum()
    market = set(theirs.loc[theirs[F.REPORTING] == F.SCOPE2_MARKET, "row"])
    compared = ours_total.index.intersection(theirs_total.index)
    compared = compared[~compared.isin(list(market))] if market else compared
    if not len(compared):
        return None, []
    has_common = compared.isin(theirs_common.index)
    ours_v = np.where(has_common, ours_common.reindex(compared).to_numpy(),
                      ours_total.reindex(compared).to_numpy())  # fmt: skip
    theirs_v = np.where(has_common, theirs_common.reindex(compared).to_numpy(),
                        theirs_total.reindex(compared).to_numpy())  # fmt: skip
    biogenic = theirs[F.REPORTING] == F.BIOGENIC
    their_bio = theirs.loc[biogenic, F.BIOGENIC_CO2].groupby(theirs.loc[biogenic, "row"]).sum()
    bio_t = their_bio.reindex(compared).to_numpy(dtype=float)
    bio_o = our_bio.reindex(compared).fillna(0.0).to_numpy(dtype=float)
    hits = _agrees(ours_v, theirs_v) & (np.isnan(bio_t) | _agrees(bio_o, bio_t))
    row_numbers = [int(r) for r in compared]
    bad = [r for r, ok in zip(row_numbers, hits, strict=True) if not ok]
    findings = []
    position = {r: i for i, r in enumerate(row_numbers)}
    for row in bad[:_MAX_ROW_FINDINGS]:
        i = position[row]
        numbers = (ours_v[i], theirs_v[i], bio_o[i], bio_t[i])
        findings.append(_difference(rows, row, numbers, their_gas, our_gas, sheet))
    if len(bad) > _MAX_ROW_FINDINGS:
        rest = tuple(bad[_MAX_ROW_FINDINGS:])
        findings.append(Finding(
            "activity_factor_differs",
            f"Mais {len(rest)} linhas diferem do cálculo pelos dados de atividade em mais de "
            f"2%: {rows_text(rest)}.",
            f"{len(rest)} more rows differ from the activity-data computation by more than "
            f"2%: {rows_text(rest)}.",
            sheet, rest,
        ))  # fmt: skip
    agreeing, total = int(hits.sum()), len(row_numbers)
    pt = (
        f"As emissões da planilha conferem com o cálculo pelos dados de atividade (biblioteca "
        f"de fatores, tolerância de 2%) em {agreeing} de {total} linhas."
    )
    en = (
        f"The workbook's emissions match the computation from activity data (factor library, "
        f"2% tolerance) in {agreeing} of {total} rows."
    )
    if bad:
        pt += f" Diferem: linhas {rows_text(bad)}."
        en += f" Differ: rows {rows_text(bad)}."
    findings.extend(_implausible(rows, their_gas, compared, sheet))
    # Kind 'activity': the workbook against the factor library, never the workbook against
    # itself; a difference is a finding on the factors, not a conflict of the sheet's reading.
    return Evidence("activity", total, agreeing, pt, en, tuple(bad)), findings


def _row_quantities(rows: ActivityRows) -> pd.DataFrame:
    """Per sheet row: its activity, its unit (None when months differ in unit) and the
    quantity of all its months (computed once per table: every differing row asks)."""
    if rows.quantities is None:
        rows.quantities = _quantities_of(rows)
    return rows.quantities


def _quantities_of(rows: ActivityRows) -> pd.DataFrame:
    requests = rows.requests
    grouped = requests.groupby("row", sort=False)
    frame = grouped.agg(activity=("activity", "first"), unit=("unit", "first"),
                        quantity=("quantity", "sum"))  # fmt: skip
    frame.loc[grouped["unit"].nunique() > 1, "unit"] = None
    return frame


def _stated_basis(their_gas: pd.Series, row: int) -> tuple[str, float]:
    """What a row's implied factor is judged on: the workbook's fossil CO2 when it gives one,
    else all its CO2e (a refrigerant's, a single-figure row's)."""
    if (row, "CO2") in their_gas.index:
        return "CO2", float(their_gas.loc[(row, "CO2")])
    return "", float(their_gas.loc[row].sum())


_TRACE_GASES = frozenset({"CH4", "N2O"})


def _stated_bases(their_gas: pd.Series, rows: pd.Index) -> tuple[np.ndarray, np.ndarray]:
    """``_stated_basis`` for many rows at once: one pass over the series, not two lookups a
    row (100,000 rows took 28 s that way)."""
    frame = their_gas.rename("value").reset_index()
    frame.columns = ["row", "gas", "value"]
    co2 = frame[frame["gas"] == "CO2"].groupby("row")["value"].sum()
    # A row of a long table that holds only a fuel's CH4 or N2O says nothing of its CO2:
    # judged against the CO2 band, 37,000 L of diesel would "imply" 0.02 kg/L.
    # (one vectorised "any gas outside CH4/N2O" per row: a Python lambda per group took 5 s
    # on 100,000 rows)
    trace = ~(~frame["gas"].isin(_TRACE_GASES)).groupby(frame["row"]).any()
    frame = frame[~frame["row"].map(trace).fillna(False).astype(bool)]
    everything = frame.groupby("row")["value"].sum()
    has_co2 = rows.isin(co2.index)
    gas = np.where(has_co2, "CO2", "")
    stated = np.where(
        has_co2,
        co2.reindex(rows).to_numpy(dtype=float),
        everything.reindex(rows).to_numpy(dtype=float),
    )
    return gas, stated


def _implausible(
    rows: ActivityRows, their_gas: pd.Series, compared: pd.Index, sheet: str
) -> list[Finding]:
    """Per activity and unit, the factor the workbook's figures imply against the physical
    band (``plausibility``): 1 t of CO2 per litre is a misread unit whatever the row checks
    say. The finding names the sheet, the column and the implied factor."""
    quantities = _row_quantities(rows).reindex(compared).dropna(subset=["unit", "activity"])
    if quantities.empty:
        return []
    gas, stated = _stated_bases(their_gas, quantities.index)
    quantities["gas"] = gas
    quantities["stated"] = stated
    quantities = quantities[quantities["stated"].notna()]
    findings = []
    for (activity, unit, gas), group in quantities.groupby(["activity", "unit", "gas"]):
        judged = judge(str(activity), str(unit), group["quantity"], group["stated"],
                       gas="" if gas else "CO2e")  # fmt: skip
        if judged is None or judged.plausible:
            continue
        column = rows.emission_columns.get(str(gas)) or ", ".join(
            c for g, c in rows.emission_columns.items() if g or not gas
        )
        info = _by_id().get(str(activity))
        name = (info.name["pt"], info.name["en"]) if info else (str(activity),) * 2
        listed = tuple(int(r) for r in group.index)
        findings.append(Finding(
            "activity_implausible",
            f"Aba '{sheet}', coluna '{column}' ({name[0]}): {judged.message('pt')}. "
            f"{_rows_label(listed, 'pt')}.",
            f"Sheet '{sheet}', column '{column}' ({name[1]}): {judged.message('en')}. "
            f"{_rows_label(listed, 'en')}.",
            sheet, listed,
        ))  # fmt: skip
    return findings


def _factor_comparison(rows: ActivityRows, row: int, their_gas, our_gas, estimate) -> dict:
    """'A planilha usa 2,07 kg CO2/m³ para Gás natural; a biblioteca, 1,89.' per language,
    or empty texts when the row's months differ in unit."""
    quantities = _row_quantities(rows)
    unit, quantity = quantities.at[row, "unit"], float(quantities.at[row, "quantity"])
    gas, theirs = _stated_basis(their_gas, row)
    mine = our_gas.loc[row]
    stated_gases = [g for g in their_gas.loc[row].index if g in mine.index]
    # the same gases on both sides: a long table's CH4 row against our CH4, not our CO2e
    if gas:
        ours = float(mine.get("CO2", np.nan))
    else:  # their one CO2e figure against all of ours, their CH4 row against our CH4
        ours = float(mine.reindex(stated_gases).sum() if stated_gases else mine.sum())
    if unit is None or not quantity or not np.isfinite(ours):
        return {"pt": "", "en": ""}
    band = band_for(estimate.activity, str(unit))
    shown_unit, mass, per = str(unit), "kg", 1.0
    if band is not None:
        shown_unit, mass = band.unit, band.mass
        per = conversion_factor(str(unit), "m**3" if band.unit == "m³" else band.unit)
    scale = 1000.0 if mass == "kg" else 1.0
    theirs_f, ours_f = theirs * scale / (quantity * per), ours * scale / (quantity * per)
    label = f"{mass} {gas or 'CO2e'}/{shown_unit}"
    texts = {}
    for lang in ("pt", "en"):
        a, b = significant(theirs_f, lang), significant(ours_f, lang)
        texts[lang] = (
            f"A planilha usa {a} {label} para {estimate.name['pt']}; a biblioteca, {b}."
            if lang == "pt"
            else f"The workbook uses {a} {label} for {estimate.name['en']}; the library {b}."
        )
    return texts


def _difference(rows, row, numbers, their_gas, our_gas, sheet) -> Finding:  # noqa: PLR0917
    """'Linha 7: Óleo diesel B, 1.000 L → 2,60 t CO2e calculado vs 2,80 t declarado (−7,1%).
    Difere o CO2: fator CO2 74.100 kg/TJ (IPCC ...); PCI ...'"""
    o, t, bio_o, bio_t = numbers
    request = rows.requests[rows.requests["row"] == row].iloc[0]
    group = int(rows.result.loc[request.name, "group"])
    estimate = rows.estimates[group]
    quantity = float(rows.requests.loc[rows.requests["row"] == row, "quantity"].sum())
    gases = _differing_gases(row, their_gas, our_gas)
    if not np.isnan(bio_t) and not _agrees(np.array([bio_o]), np.array([bio_t]))[0]:
        gases.append(BIOGENIC_CO2)
    uses: list[FactorUse] = []
    for gas in gases:
        uses.extend(u for u in _factor_uses(estimate, gas) if u not in uses)
    change = (t - o) / o if o else np.nan
    head = {
        lang: (
            f"{'Linha' if lang == 'pt' else 'Row'} {row}: {estimate.name[lang]}, "
            f"{number(quantity, 0 if quantity.is_integer() else 2, lang)} {request['unit']} → "
            f"{number(o, 2, lang)} t CO2e "
            + ("calculado vs " if lang == "pt" else "computed vs ")
            + f"{number(t, 2, lang)} t CO2e "
            + ("declarado" if lang == "pt" else "stated")
            + (f" ({'+' if change > 0 else ''}{percent(change, 1, lang)})"
               if np.isfinite(change) else "")
        )
        for lang in ("pt", "en")
    }  # fmt: skip
    if not np.isnan(bio_t) and BIOGENIC_CO2 in gases:
        head["pt"] += f"; CO2 biogênico {number(bio_o, 2)} t vs {number(bio_t, 2)} t"
        head["en"] += f"; biogenic CO2 {number(bio_o, 2, 'en')} t vs {number(bio_t, 2, 'en')} t"
    gas_names = {
        "pt": ", ".join(_gas_label(g, "pt") for g in gases),
        "en": ", ".join(_gas_label(g, "en") for g in gases),
    }
    factors = {lang: "; ".join(_factor_text(u, lang) for u in uses) for lang in ("pt", "en")}
    verb = ("Diferem", "differ") if len(gases) > 1 else ("Difere", "differs")
    implied = _factor_comparison(rows, row, their_gas, our_gas, estimate)
    pt = f"{head['pt']}. {implied['pt']} {verb[0]} {gas_names['pt']}: {factors['pt']}."
    en = f"{head['en']}. {implied['en']} {gas_names['en']} {verb[1]}: {factors['en']}."
    pt, en = pt.replace(".  ", ". "), en.replace(".  ", ". ")
    return Finding("activity_factor_differs", pt, en, sheet, (int(row),))


def _differing_gases(row, their_gas, our_gas) -> list[str]:
    """The gases whose figures differ by more than the tolerance; with no gas split in the
    workbook, the gas that weighs most in ours."""
    theirs = their_gas.loc[row] if row in their_gas.index.get_level_values(0) else None
    mine = our_gas.loc[row]
    order = {"CO2": 0, "CH4": 1, "N2O": 2}
    common = sorted((g for g in mine.index if theirs is not None and g in theirs.index),
                    key=lambda g: (order.get(g, 3), g))  # fmt: skip
    if common:
        differ = [
            g for g in common
            if not _agrees(np.array([mine[g]]), np.array([theirs[g]]))[0]
        ]  # fmt: skip
        if differ:
            return differ
    return [str(mine.abs().idxmax())] if len(mine) else []


def _gas_label(gas: str, lang: str) -> str:
    if gas == BIOGENIC_CO2:
        return "o CO2 biogênico" if lang == "pt" else "Biogenic CO2"
    if gas == "CO2":
        return "o CO2 fóssil" if lang == "pt" else "Fossil CO2"
    return f"o {gas}" if lang == "pt" else gas


def _factor_text(use: FactorUse, lang: str) -> str:
    value = number(use.value, _decimals(use.value), lang)
    if use.unit == "percent":
        shown = f"{value}%"
    elif use.unit == "fraction":
        shown = percent(use.value, 1, lang)
    else:
        shown = f"{value} {unit_label(use.unit, lang=lang)}"  # the role names the gas
    mine = (" [fator do usuário]" if lang == "pt" else " [user's factor]") if use.user else ""
    return f"{use.label(lang)} {shown} ({use.source_in(lang)}){mine}"


def _decimals(value: float) -> int:
    if value == 0 or not np.isfinite(value):
        return 0
    magnitude = int(np.floor(np.log10(abs(value))))
    return max(0, min(8, 3 - magnitude))


# --- findings and the factors used ------------------------------------------------------------


def _rows_label(rows: tuple[int, ...], lang: str) -> str:
    if lang == "pt":
        return f"{'Linha' if len(rows) == 1 else 'Linhas'} {rows_text(rows)}"
    return f"{'Row' if len(rows) == 1 else 'Rows'} {rows_text(rows)}"


def row_findings(rows: ActivityRows, sheet: str) -> list[Finding]:
    """Rows not counted: an activity the library does not know, no period, no factor."""
    findings = []
    if not rows.unresolved.empty:
        listed = rows.unresolved
        rows_ = tuple(sorted(int(r) for r in listed["row"]))
        texts = list(dict.fromkeys(listed["text"]))[:5]
        why = {lang: "; ".join(dict.fromkeys(w for w in listed[f"why_{lang}"] if w))
               for lang in ("pt", "en")}  # fmt: skip
        near = {t: nearest(t, 3) for t in texts[:2]} if not why["pt"] else {}
        hint = {
            "pt": " ".join(f"Para '{t}', você quis dizer: "
                           f"{', '.join(a.name['pt'] for a in s)}?" for t, s in near.items()),
            "en": " ".join(f"For '{t}', did you mean: "
                           f"{', '.join(a.name['en'] for a in s)}?" for t, s in near.items()),
        }  # fmt: skip
        names = ", ".join(f"'{t}'" for t in texts)
        findings.append(Finding(
            "activity_unknown",
            f"{_rows_label(rows_, 'pt')} não contada(s): atividade não reconhecida ({names})"
            + (f": {why['pt']}" if why["pt"] else "") + ". " + (hint["pt"] + " " if hint["pt"]
            else "") + "Nada é calculado por aproximação: corrija o nome do combustível ou "
            "envie o fator.",
            f"{_rows_label(rows_, 'en')} not counted: activity not recognised ({names})"
            + (f": {why['en']}" if why["en"] else "") + ". " + (hint["en"] + " " if hint["en"]
            else "") + "Nothing is computed by guesswork: fix the fuel's name or upload the "
            "factor.",
            sheet, rows_,
        ))  # fmt: skip
    if rows.missing_period:
        rows_ = tuple(rows.missing_period)
        findings.append(Finding(
            "activity_without_period",
            f"{_rows_label(rows_, 'pt')} não contada(s): sem data, mês ou ano para escolher os "
            "fatores. Inclua uma coluna de ano ou o ano no nome da aba.",
            f"{_rows_label(rows_, 'en')} not counted: no date, month or year to pick the "
            "factors by. Add a year column or the year to the sheet's name.",
            sheet, rows_,
        ))  # fmt: skip
    if rows.failures:
        rows_ = tuple(sorted({r for failed, _, _ in rows.failures for r in failed}))
        pt = " ".join(dict.fromkeys(m for _, m, _ in rows.failures))
        en = " ".join(dict.fromkeys(m for _, _, m in rows.failures))
        findings.append(Finding(
            "activity_not_computed",
            f"{_rows_label(rows_, 'pt')} não contada(s): {pt}",
            f"{_rows_label(rows_, 'en')} not counted: {en}",
            sheet, rows_,
        ))  # fmt: skip
    if rows.assumed_unit and len(rows.requests):
        rows_ = tuple(sorted({int(r) for r in rows.requests["row"]}))
        unit = rows.assumed_unit
        findings.append(Finding(
            "activity_unit_assumed",
            f"A unidade das quantidades não está escrita em lugar nenhum da aba: lidas como "
            f"{unit}, a unidade usual de recarga de refrigerante. Confira e informe a unidade "
            "no cabeçalho ('Recarga (kg)').",
            f"The quantities' unit is written nowhere on the sheet: read as {unit}, the usual "
            "unit of a refrigerant recharge. Check it and state the unit in the header "
            "('Recharge (kg)').",
            sheet, rows_,
        ))  # fmt: skip
    return findings


FACTOR_COLUMNS = (
    "sheet", "purpose", ACTIVITY, "key", "gas", "role", "value", "unit", "source", "url",
    "validity", "user", "rows", "role_en", "source_pt",
)  # fmt: skip


def factors_used(rows: ActivityRows, sheet: str, purpose: str) -> pd.DataFrame:
    """Each factor the sheet's computation used, once, with how many rows used it:
    ``purpose`` is 'computed' (the rows' emissions) or 'checked' (against the workbook's)."""
    if rows.result is None or rows.requests.empty:
        return pd.DataFrame(columns=list(FACTOR_COLUMNS))
    counts = rows.result["group"].value_counts()
    records: dict[tuple, dict] = {}
    for group, estimate in rows.estimates.items():
        used = int(counts.get(group, 0))
        if not used:
            continue
        for use in estimate.factors:
            key = (estimate.activity, use.key, use.gas, use.role, use.value, use.period, use.user)
            record = records.setdefault(key, {
                "sheet": sheet, "purpose": purpose, ACTIVITY: estimate.activity,
                "key": use.key, "gas": use.gas, "role": use.role, "value": use.value,
                "unit": use.unit, "source": use.source, "url": use.url,
                "validity": use.period, "user": use.user, "rows": 0,
                "role_en": use.role_en, "source_pt": use.source_in("pt"),
            })  # fmt: skip
            record["rows"] += used
    return pd.DataFrame(list(records.values()), columns=list(FACTOR_COLUMNS))
