"""Whether a table is an activity table, and where it keeps each part of its activity data.

A table is an activity table when it has

- a quantity: a quantity column ("Consumo (L)", "Quantidade") or months (or years) across
  the columns holding quantities;
- a unit: in the quantity's header ("Consumo (L)"), a units row under the header ("L" under
  each month), a unit column, or the text above the table ("Consumo em litros");
- what was consumed: a fuel column, a gas column (refrigerants), a source column naming a
  fuel ("Caminhões diesel"), or the sheet's name or title ("Consumo de diesel");
- when: a date or month column, a year column, months across the columns, or a year in the
  sheet's name, title or file name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from engine.emissions.units import dimension, parse_unit
from engine.inventory import fields as F
from engine.inventory.activity.matching import activity_in
from engine.inventory.fields import month_of_header
from engine.inventory.table import SheetTable

_MIN_TIME_COLUMNS = 2
_ACTIVITY_DIMENSIONS = frozenset({"volume", "mass", "energy", "mass_distance"})

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
    if not named_by and activity_in(context) is None:
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
