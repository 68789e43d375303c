"""Random abstract GHG inventories, and the spreadsheet layouts Brazilian analysts put them in.

``inventories()`` draws an abstract inventory (facilities, sources with a scope and a
Portuguese category, gases, masses in tonnes, one to three years, a unit to render in);
``truth()`` says what a correct ingestion must report for its latest (headline) year; each
``render_*`` function writes the same inventory in one spreadsheet layout and returns
``(bytes, filename)``.

Two knobs on every renderer test that a unit is proven, not picked: ``scale_column`` (a gas,
or a year where the years are the columns) multiplies that column's data cells by 1,000 under
the same stated unit while the check cells (total column, subtotal rows, parent codes, GWP
views) keep the true figures; ``strip_units`` removes every statement of the unit (header
units, units row, unit column, group and title text, the label column's header). Layouts 13-17
are the ones real workbooks broke the loader with: the unit only in a unit column, only in the
label column's header, months of litres beside per-gas emissions (with their own rows and
truth, ``activity_rows``/``activity_truth``), refrigerant recharges (``recharges``/
``recharge_truth``) and facilities named "Total …".

Nothing here imports the ingestion engine: GWPs come from the ``globalwarmingpotentials``
package directly (CO2 = 1).

Numbers. A mass has 2 to 4 significant digits and is a whole number of kilograms
(a multiple of 0.001 t, never below 0.01 t). Every figure a renderer writes goes through
``written()`` (rounded to ``DECIMALS`` places, as a workbook would store it), and the truth is
computed from the written values. Because of the draw, that rounding never changes a figure in
any unit (kg, t, Gg) nor in t CO2e (GWPs have at most one decimal), so every layout of the
same inventory has the same truth, and no written value is ever 0.
"""

from __future__ import annotations

import csv
import io
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from decimal import ROUND_HALF_EVEN, Decimal
from functools import cache, cached_property

import globalwarmingpotentials
import openpyxl
from hypothesis import strategies as st
from openpyxl.utils import get_column_letter

# --------------------------------------------------------------------------------------------
# Vocabulary
# --------------------------------------------------------------------------------------------

#: Gases as the files spell them, in column order.
GASES: tuple[str, ...] = ("CO2", "CH4", "N2O", "SF6", "HFC-134a")
#: Combustion gases: the only ones the fossil/biogenic layout has columns for.
COMBUSTION_GASES: tuple[str, ...] = ("CO2", "CH4", "N2O")
#: How the engine's table names a gas written in a file (``canonical_gas``).
CANONICAL: dict[str, str] = {"HFC-134a": "HFC134a"}
GWP_SETS: tuple[str, ...] = ("AR4", "AR5", "AR6")
#: Tonnes per unit.
TONNES_PER_UNIT: dict[str, Decimal] = {"kg": Decimal("0.001"), "t": Decimal(1), "Gg": Decimal(1000)}
UNITS: tuple[str, ...] = tuple(TONNES_PER_UNIT)
YEARS: tuple[int, ...] = (2021, 2022, 2023, 2024)
DECIMALS = 6
_QUANTUM = Decimal(1).scaleb(-DECIMALS)

FACILITIES: tuple[str, ...] = (
    "Matriz São Paulo",
    "Fábrica Campinas",
    "Centro de Distribuição Recife",
    "Planta Manaus",
)

#: Category -> (scope, gases it can emit, source names).
CATEGORIES: dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]] = {
    "Combustão estacionária": (
        "1",
        ("CO2", "CH4", "N2O"),
        ("Caldeira a gás natural", "Gerador a diesel", "Caldeira a cavaco de madeira"),
    ),
    "Combustão móvel": (
        "1",
        ("CO2", "CH4", "N2O"),
        ("Frota própria a diesel", "Empilhadeiras a GLP", "Veículos leves a etanol"),
    ),
    "Emissões fugitivas": (
        "1",
        ("HFC-134a", "SF6", "CH4"),
        ("Ar-condicionado central", "Disjuntores de alta tensão", "Câmaras frias"),
    ),
    "Eletricidade": ("2", ("CO2", "CH4", "N2O"), ("Energia elétrica comprada (SIN)",)),
    "Viagens a negócios": (
        "3",
        ("CO2", "CH4", "N2O"),
        ("Voos nacionais", "Voos internacionais", "Táxi e aplicativos"),
    ),
}
#: Categories whose sources may also burn biomass (biogenic CO2, CH4, N2O).
BIOGENIC_CATEGORIES = frozenset({"Combustão estacionária", "Combustão móvel"})

#: Powers of ten (of tonnes) a gas's mass is drawn at; the mantissa has 2 to 4 digits.
_EXPONENTS: dict[str, tuple[int, int]] = {
    "CO2": (-2, 2),
    "CH4": (-3, -1),
    "N2O": (-3, -1),
    "SF6": (-3, -2),
    "HFC-134a": (-3, -2),
}

MONTHS_SHORT = ("Jan", "Fev", "Mar", "Abr", "Mai", "Jun", "Jul", "Ago", "Set", "Out", "Nov", "Dez")
MONTHS_LONG = (
    "Janeiro",
    "Fevereiro",
    "Março",
    "Abril",
    "Maio",
    "Junho",
    "Julho",
    "Agosto",
    "Setembro",
    "Outubro",
    "Novembro",
    "Dezembro",
)
#: Seasonal weights (sum 100) a year's mass is split into months with.
_MONTH_WEIGHTS = (9, 8, 9, 8, 8, 7, 7, 8, 8, 9, 9, 10)

ID_COLUMNS = ("Escopo", "Categoria", "Unidade", "Fonte")  # "Unidade" is the facility
NOTES = (
    "Fonte: inventário corporativo, metodologia do Programa Brasileiro GHG Protocol.",
    "Nota: emissões em massa de cada gás; a conversão para CO2e é feita à parte.",
)

# --------------------------------------------------------------------------------------------
# The abstract inventory
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Source:
    facility: str
    scope: str  # "1" / "2" / "3"
    category: str
    name: str

    @property
    def scope_label(self) -> str:
        return f"Escopo {self.scope}"

    @property
    def id_cells(self) -> list[object]:
        return [self.scope_label, self.category, self.facility, self.name]


@dataclass(frozen=True)
class Emission:
    source: Source
    gas: str  # as written, one of GASES
    year: int
    mass_t: Decimal
    biogenic: bool = False


@dataclass(frozen=True)
class DrawnInventory:
    sources: tuple[Source, ...]
    years: tuple[int, ...]  # sorted, consecutive
    unit: str  # the unit the renderers write masses in, one of UNITS
    emissions: tuple[Emission, ...]

    @property
    def latest(self) -> int:
        return max(self.years)

    @property
    def has_biogenic(self) -> bool:
        return any(e.biogenic for e in self.emissions)

    @property
    def gases(self) -> list[str]:
        """Gases present, in ``GASES`` order."""
        present = {e.gas for e in self.emissions}
        return [gas for gas in GASES if gas in present]

    @cached_property
    def _masses(self) -> dict[tuple[Source, str, int, bool], Decimal]:
        return {(e.source, e.gas, e.year, e.biogenic): e.mass_t for e in self.emissions}

    def mass(self, source: Source, gas: str, year: int, biogenic: bool = False) -> Decimal | None:
        return self._masses.get((source, gas, year, biogenic))

    def ordered(self) -> list[Emission]:
        """Emissions by year, then source, then gas (fossil before biogenic)."""
        position = {source: i for i, source in enumerate(self.sources)}
        return sorted(
            self.emissions,
            key=lambda e: (e.year, position[e.source], GASES.index(e.gas), e.biogenic),
        )

    def source_years(self) -> list[tuple[int, Source]]:
        """(year, source) pairs that emit something, by year then source."""
        present = {(e.year, e.source) for e in self.emissions}
        return [(y, s) for y in self.years for s in self.sources if (y, s) in present]

    def source_gases(self) -> list[tuple[Source, str]]:
        """(source, gas) pairs that emit in some year, by source then gas (fossil only)."""
        present = {(e.source, e.gas) for e in self.emissions if not e.biogenic}
        return [(s, g) for s in self.sources for g in GASES if (s, g) in present]


@st.composite
def masses(draw: st.DrawFn, gas: str) -> Decimal:
    """Tonnes: 2 to 4 significant digits, a whole number of kilograms, at least 0.01 t."""
    digits = draw(st.integers(2, 4))
    mantissa = draw(st.integers(10 ** (digits - 1), 10**digits - 1))
    low, high = _EXPONENTS[gas]
    return Decimal(mantissa) * Decimal(10) ** draw(st.integers(low, high))


@st.composite
def inventories(
    draw: st.DrawFn,
    gases: Sequence[str] = GASES,
    *,
    biogenic: bool = False,
    units: Sequence[str] = UNITS,
    max_sources: int = 5,
    max_years: int = 3,
) -> DrawnInventory:
    """A random inventory; ``biogenic=True`` lets combustion sources also burn biomass."""
    categories = [c for c, (_, allowed, _) in CATEGORIES.items() if set(allowed) & set(gases)]
    facilities = draw(st.lists(st.sampled_from(FACILITIES), min_size=1, max_size=3, unique=True))
    first = draw(st.sampled_from(YEARS))
    count = draw(st.integers(1, min(max_years, YEARS[-1] - first + 1)))
    years = tuple(range(first, first + count))
    sources: list[Source] = []
    emissions: list[Emission] = []
    for _ in range(draw(st.integers(1, max_sources))):
        category = draw(st.sampled_from(categories))
        scope, allowed, names = CATEGORIES[category]
        facility = draw(st.sampled_from(facilities))
        name = draw(st.sampled_from(names))
        taken = {(s.facility, s.name) for s in sources}
        base, k = name, 1
        while (facility, name) in taken:
            k += 1
            name = f"{base} {k}"
        source = Source(facility, scope, category, name)
        sources.append(source)
        candidates = [g for g in GASES if g in allowed and g in gases]
        chosen = draw(st.lists(st.sampled_from(candidates), min_size=1, unique=True))
        origins = [False]
        if biogenic and category in BIOGENIC_CATEGORIES and draw(st.booleans()):
            origins.append(True)
        for year in years:
            for gas in (g for g in GASES if g in chosen):
                for bio in origins:
                    emissions.append(Emission(source, gas, year, draw(masses(gas)), bio))
    return DrawnInventory(tuple(sources), years, draw(st.sampled_from(units)), tuple(emissions))


# --------------------------------------------------------------------------------------------
# GWPs, written values, the truth
# --------------------------------------------------------------------------------------------


@cache
def _gwp_frame():
    return globalwarmingpotentials.as_frame()


@cache
def gwp(gas: str, gwp_set: str) -> Decimal:
    """GWP-100 of a gas as written ("CO2", "CH4", "HFC-134a"...), as an exact decimal."""
    if gas == "CO2":
        return Decimal(1)
    value = float(_gwp_frame().loc[gas.replace("-", ""), f"{gwp_set}GWP100"])
    return Decimal(repr(value))


def canonical(gas: str) -> str:
    return CANONICAL.get(gas, gas)


def written(value: Decimal) -> Decimal:
    """A figure as the workbook stores it: rounded to ``DECIMALS`` places."""
    return value.quantize(_QUANTUM, rounding=ROUND_HALF_EVEN)


def in_unit(mass_t: Decimal, unit: str) -> Decimal:
    """A mass in tonnes, as written in ``unit``."""
    return written(mass_t / TONNES_PER_UNIT[unit])


def written_tco2e(mass_t: Decimal, gas: str, gwp_set: str) -> Decimal:
    return written(mass_t * gwp(gas, gwp_set))


@dataclass(frozen=True)
class Truth:
    year: str
    by_scope: dict[str, float]
    by_gas: dict[str, float]  # canonical gas names ("HFC134a")
    total: float
    biogenic_co2_t: float
    #: Exact values, for the generator's own checks.
    exact_by_scope: dict[str, Decimal] = field(repr=False, default_factory=dict)
    exact_by_gas: dict[str, Decimal] = field(repr=False, default_factory=dict)
    exact_total: Decimal = field(repr=False, default=Decimal(0))


def truth(inv: DrawnInventory, gwp_set: str) -> Truth:
    """t CO2e of the latest year by scope and by gas: written mass (in the inventory's unit,
    back to tonnes) x GWP; biogenic CO2 apart, biogenic CH4 and N2O at full GWP."""
    by_scope: dict[str, Decimal] = defaultdict(Decimal)
    by_gas: dict[str, Decimal] = defaultdict(Decimal)
    biogenic_co2 = Decimal(0)
    for e in inv.emissions:
        if e.year != inv.latest:
            continue
        mass_t = in_unit(e.mass_t, inv.unit) * TONNES_PER_UNIT[inv.unit]
        if e.biogenic and e.gas == "CO2":
            biogenic_co2 += mass_t
            continue
        tco2e = mass_t * gwp(e.gas, gwp_set)
        by_scope[e.source.scope] += tco2e
        by_gas[canonical(e.gas)] += tco2e
    total = sum(by_scope.values(), Decimal(0))
    return Truth(
        year=str(inv.latest),
        by_scope={k: float(v) for k, v in by_scope.items()},
        by_gas={k: float(v) for k, v in by_gas.items()},
        total=float(total),
        biogenic_co2_t=float(biogenic_co2),
        exact_by_scope=dict(by_scope),
        exact_by_gas=dict(by_gas),
        exact_total=total,
    )


# --------------------------------------------------------------------------------------------
# Writing helpers
# --------------------------------------------------------------------------------------------


def plain(value: Decimal) -> str:
    """Exact decimal text without exponent or trailing zeros ("1234.5")."""
    text = format(written(value), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def ptbr(value: Decimal, *, thousands: bool = True) -> str:
    """Brazilian number text: 1234.5 -> "1.234,5" (or "1234,5" without thousands)."""
    whole, _, frac = plain(value).partition(".")
    if thousands:
        groups = []
        while len(whole) > 3:
            groups.insert(0, whole[-3:])
            whole = whole[:-3]
        whole = ".".join([whole, *groups])
    return whole + ("," + frac if frac else "")


def _cell(value: Decimal | None) -> float | None:
    return None if value is None else float(written(value))


@dataclass
class Sheet:
    name: str
    rows: list[list[object]] = field(default_factory=list)
    merges: list[str] = field(default_factory=list)


def _xlsx(sheets: Iterable[Sheet]) -> bytes:
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for sheet in sheets:
        ws = wb.create_sheet(sheet.name)
        for row in sheet.rows:
            ws.append(row)
        for cell_range in sheet.merges:
            ws.merge_cells(cell_range)
    buffer = io.BytesIO()
    wb.save(buffer)
    return buffer.getvalue()


def _two_row_header(
    left: Sequence[str], groups: Sequence[tuple[str, Sequence[object]]]
) -> tuple[list[list[object]], list[str]]:
    """Rows 1-2: ``left`` column names merged down both rows; each group label merged across
    its sub-columns in row 1, the sub-column names in row 2."""
    top: list[object] = list(left)
    bottom: list[object] = [None] * len(left)
    merges = [f"{get_column_letter(i)}1:{get_column_letter(i)}2" for i in range(1, len(left) + 1)]
    for label, subs in groups:
        start = len(top) + 1
        top.extend([label] + [None] * (len(subs) - 1))
        bottom.extend(subs)
        if len(subs) > 1:
            merges.append(f"{get_column_letter(start)}1:{get_column_letter(len(top))}1")
    return [top, bottom], merges


def _sum(values: Iterable[Decimal | None]) -> Decimal | None:
    present = [v for v in values if v is not None]
    return sum(present, Decimal(0)) if present else None


def _no_biogenic(inv: DrawnInventory) -> None:
    if inv.has_biogenic:
        raise ValueError("this layout has no place for biogenic emissions")


XLSX = "inventario.xlsx"
Rendered = tuple[bytes, str]

#: What ``scale_column`` multiplies one column's figures by, its stated unit unchanged.
SCALE = Decimal(1000)


def scaled(inv: DrawnInventory, gas: str | None) -> DrawnInventory:
    """``inv`` with every mass of ``gas`` x ``SCALE`` (the column a ``scale_column`` knob
    corrupts); the renderers write their check cells (total column, subtotal and total rows,
    parent codes, GWP views) from the original, so a reader that trusts the stated unit finds
    the checks off by about 1,000 on that gas."""
    if gas is None:
        return inv
    emissions = tuple(
        replace(e, mass_t=e.mass_t * SCALE) if e.gas == gas else e for e in inv.emissions
    )
    return replace(inv, emissions=emissions)


def _unit_text(text: str, unit: str, strip: bool) -> str:
    """``text`` followed by " (<unit>)", or ``text`` alone when the units are stripped."""
    return text if strip else f"{text} ({unit})"


# --------------------------------------------------------------------------------------------
# 1. Long table
# --------------------------------------------------------------------------------------------

LONG_COLUMNS = ("Escopo", "Categoria", "Unidade", "Fonte", "Gás", "Emissões", "Ano")


def _long_rows(
    inv: DrawnInventory, number: Callable[[Decimal], object], strip_units: bool = False
) -> list[list[object]]:
    header = [*LONG_COLUMNS]
    header[5] = _unit_text("Emissões", inv.unit, strip_units)
    rows: list[list[object]] = [header]
    for e in inv.ordered():
        rows.append([*e.source.id_cells, e.gas, number(in_unit(e.mass_t, inv.unit)), e.year])
    return rows


def render_long(
    inv: DrawnInventory,
    *,
    title: bool = False,
    column_order: Sequence[int] | None = None,
    scale_column: str | None = None,
    strip_units: bool = False,
) -> Rendered:
    """Sheet "Inventário": optional title + blank row, then one header row
    (Escopo, Categoria, Unidade, Fonte, Gás, "Emissões (<unit>)", Ano, in ``column_order``)
    and one row per source x gas x year."""
    _no_biogenic(inv)
    order = list(column_order) if column_order is not None else list(range(len(LONG_COLUMNS)))
    long = _long_rows(scaled(inv, scale_column), float, strip_units)
    rows = [[row[i] for i in order] for row in long]
    if title:
        rows = [["Inventário de emissões de gases de efeito estufa"], [], *rows]
    return _xlsx([Sheet("Inventário", rows)]), XLSX


# --------------------------------------------------------------------------------------------
# 2. Wide per-gas mass columns
# --------------------------------------------------------------------------------------------


def _wide_mass_row(
    inv: DrawnInventory, year: int, source: Source, units: dict[str, str]
) -> list[object]:
    values = []
    for gas in inv.gases:
        mass = inv.mass(source, gas, year)
        values.append(None if mass is None else float(in_unit(mass, units[gas])))
    return values


def render_wide_mass(
    inv: DrawnInventory,
    *,
    gas_units: dict[str, str] | None = None,
    scale_column: str | None = None,
    strip_units: bool = False,
) -> Rendered:
    """Sheet "Emissões": header Escopo, Categoria, Unidade, Fonte, Ano, "<gas> (<unit>)" per gas
    present (each gas in its own unit); one row per source x year; blank where a source does
    not emit a gas."""
    _no_biogenic(inv)
    units = {gas: (gas_units or {}).get(gas, inv.unit) for gas in inv.gases}
    header = [*ID_COLUMNS, "Ano", *(_unit_text(g, units[g], strip_units) for g in inv.gases)]
    rows: list[list[object]] = [header]
    data = scaled(inv, scale_column)
    for year, source in inv.source_years():
        rows.append([*source.id_cells, year, *_wide_mass_row(data, year, source, units)])
    return _xlsx([Sheet("Emissões", rows)]), XLSX


# --------------------------------------------------------------------------------------------
# 3. Per-gas CO2e columns and a total column
# --------------------------------------------------------------------------------------------


def render_wide_co2e(
    inv: DrawnInventory, gwp_set: str, *, scale_column: str | None = None, strip_units: bool = False
) -> Rendered:
    """Sheet "Emissões CO2e": header Escopo, Categoria, Unidade, Fonte, Ano,
    "<gas> (t CO2e)" per gas present, "Total (t CO2e)"; one row per source x year; the total
    column is the sum of the row's gas columns. Values computed with ``gwp_set``."""
    _no_biogenic(inv)
    unit = "CO2e" if strip_units else "(t CO2e)"
    header = [*ID_COLUMNS, "Ano", *(f"{gas} {unit}" for gas in inv.gases), f"Total {unit}"]
    rows: list[list[object]] = [header]
    data = scaled(inv, scale_column)
    for year, source in inv.source_years():
        values, stated = [], []
        for gas in inv.gases:
            mass, true_mass = data.mass(source, gas, year), inv.mass(source, gas, year)
            values.append(None if mass is None else written_tco2e(mass, gas, gwp_set))
            stated.append(None if true_mass is None else written_tco2e(true_mass, gas, gwp_set))
        rows.append([*source.id_cells, year, *map(_cell, values), _cell(_sum(stated))])
    return _xlsx([Sheet("Emissões CO2e", rows)]), XLSX


# --------------------------------------------------------------------------------------------
# 4. Fossil / biogenic header groups
# --------------------------------------------------------------------------------------------


def render_fossil_biogenic(
    inv: DrawnInventory, *, scale_column: str | None = None, strip_units: bool = False
) -> Rendered:
    """Sheet "Combustão": two header rows. Row 1: Escopo, Categoria, Unidade, Fonte, Ano
    (each merged over rows 1-2), "Emissões fósseis (<unit>)" merged over 3 columns,
    "Emissões biogênicas (<unit>)" merged over 3 columns. Row 2: CO2, CH4, N2O under each
    group. One row per source x year from row 3; blank where not emitted."""
    if set(inv.gases) - set(COMBUSTION_GASES):
        raise ValueError("the fossil/biogenic layout only has CO2, CH4 and N2O columns")
    rows, merges = _two_row_header(
        [*ID_COLUMNS, "Ano"],
        [
            (_unit_text("Emissões fósseis", inv.unit, strip_units), COMBUSTION_GASES),
            (_unit_text("Emissões biogênicas", inv.unit, strip_units), COMBUSTION_GASES),
        ],
    )
    true_inv, inv = inv, scaled(inv, scale_column)
    for year, source in true_inv.source_years():
        cells: list[object] = [*source.id_cells, year]
        for bio in (False, True):
            for gas in COMBUSTION_GASES:
                mass = inv.mass(source, gas, year, bio)
                cells.append(None if mass is None else float(in_unit(mass, inv.unit)))
        rows.append(cells)
    return _xlsx([Sheet("Combustão", rows, merges)]), XLSX


# --------------------------------------------------------------------------------------------
# 5. Where the unit is written
# --------------------------------------------------------------------------------------------

UNIT_PLACEMENTS = ("header", "group", "units_row", "column")
UNIT_HEADER_FORMATS = ("{gas} ({unit})", "{gas} [{unit}]", "{gas} em {unit}")


def render_units(
    inv: DrawnInventory,
    placement: str,
    *,
    gas_units: dict[str, str] | None = None,
    header_format: str = UNIT_HEADER_FORMATS[0],
    scale_column: str | None = None,
    strip_units: bool = False,
) -> Rendered:
    """Sheet "Emissões", per-gas mass columns, one row per source x year; the unit is
    - "header": in each gas header, ``header_format`` ("CH4 [kg]"), one unit per gas;
    - "group": row 1 Escopo..Ano merged over rows 1-2 and "Emissões (<unit>)" merged over the
      gas columns, row 2 the gas names; data from row 3;
    - "units_row": row 1 Escopo..Ano + gas names, row 2 the unit under each gas column (one
      unit per gas), blank under the others; data from row 3;
    - "column": header Escopo, Categoria, Unidade, Fonte, Ano, "Unidade de medida", gas names;
      the unit cell of each row holds the inventory's unit.
    ``gas_units`` is honoured by "header" and "units_row"; the others use ``inv.unit``.
    ``strip_units``: every placement becomes bare gas names (no units row, no unit column)."""
    _no_biogenic(inv)
    if strip_units:
        return render_wide_mass(inv, scale_column=scale_column, strip_units=True)
    per_gas = placement in ("header", "units_row")
    units = {g: (gas_units or {}).get(g, inv.unit) if per_gas else inv.unit for g in inv.gases}
    left = [*ID_COLUMNS, "Ano"]
    merges: list[str] = []
    if placement == "header":
        rows = [[*left, *(header_format.format(gas=g, unit=units[g]) for g in inv.gases)]]
    elif placement == "group":
        rows, merges = _two_row_header(left, [(f"Emissões ({inv.unit})", inv.gases)])
    elif placement == "units_row":
        rows = [[*left, *inv.gases], [None] * len(left) + [units[g] for g in inv.gases]]
    elif placement == "column":
        rows = [[*left, "Unidade de medida", *inv.gases]]
    else:
        raise ValueError(placement)
    data = scaled(inv, scale_column)
    for year, source in inv.source_years():
        unit_cell = [inv.unit] if placement == "column" else []
        rows.append(
            [*source.id_cells, year, *unit_cell, *_wide_mass_row(data, year, source, units)]
        )
    return _xlsx([Sheet("Emissões", rows, merges)]), XLSX


# --------------------------------------------------------------------------------------------
# 6. Years across the columns
# --------------------------------------------------------------------------------------------

YEAR_MODES = ("gas_column", "sheet_per_gas")


def render_years_across(
    inv: DrawnInventory,
    mode: str,
    *,
    years_as_text: bool = False,
    scale_column: str | None = None,
    strip_units: bool = False,
) -> Rendered:
    """Two header rows; row 2 holds the years (numbers, or text when ``years_as_text``).
    - "gas_column": one sheet "Emissões"; row 1 Escopo, Categoria, Unidade, Fonte, Gás merged
      over rows 1-2 and "Emissões (<unit>)" merged over the year columns; one row per
      source x gas.
    - "sheet_per_gas": one sheet per gas, named as the gas ("CH4", "HFC-134a"); row 1
      Escopo, Categoria, Unidade, Fonte merged over rows 1-2 and "Emissões de <gas> (<unit>)"
      merged over the years; one row per source emitting that gas.
    Blank where a source does not emit in a year."""
    _no_biogenic(inv)
    year_cells = [str(y) if years_as_text else y for y in inv.years]
    data = scaled(inv, scale_column)

    def values(source: Source, gas: str) -> list[object]:
        return [_mass_cell(data, source, gas, year) for year in inv.years]

    if mode == "gas_column":
        rows, merges = _two_row_header(
            [*ID_COLUMNS, "Gás"], [(_unit_text("Emissões", inv.unit, strip_units), year_cells)]
        )
        for source, gas in inv.source_gases():
            rows.append([*source.id_cells, gas, *values(source, gas)])
        return _xlsx([Sheet("Emissões", rows, merges)]), XLSX
    if mode != "sheet_per_gas":
        raise ValueError(mode)
    sheets = []
    for gas in inv.gases:
        rows, merges = _two_row_header(
            list(ID_COLUMNS),
            [(_unit_text(f"Emissões de {gas}", inv.unit, strip_units), year_cells)],
        )
        for source, source_gas in inv.source_gases():
            if source_gas == gas:
                rows.append([*source.id_cells, *values(source, gas)])
        sheets.append(Sheet(gas, rows, merges))
    return _xlsx(sheets), XLSX


def _mass_cell(inv: DrawnInventory, source: Source, gas: str, year: int) -> float | None:
    mass = inv.mass(source, gas, year)
    return None if mass is None else float(in_unit(mass, inv.unit))


# --------------------------------------------------------------------------------------------
# 7. Months across the columns
# --------------------------------------------------------------------------------------------


def split_months(value: Decimal) -> list[Decimal]:
    """A written value split into 12 seasonal parts of ``DECIMALS`` places summing to it."""
    quanta = int(written(value) / _QUANTUM)
    parts = [quanta * w // 100 for w in _MONTH_WEIGHTS[:-1]]
    parts.append(quanta - sum(parts))
    return [Decimal(p) * _QUANTUM for p in parts]


def render_months(
    inv: DrawnInventory,
    *,
    long_names: bool = False,
    scale_column: str | None = None,
    strip_units: bool = False,
) -> Rendered:
    """Sheet "Mensal": row 1 Escopo, Categoria, Unidade, Fonte, Gás, Ano merged over rows 1-2
    and "Emissões mensais (<unit>)" merged over 12 month columns; row 2 the months (Jan..Dez,
    or Janeiro..Dezembro). One row per source x gas x year; the 12 values sum to the year's
    mass (a month may be 0)."""
    _no_biogenic(inv)
    months = MONTHS_LONG if long_names else MONTHS_SHORT
    rows, merges = _two_row_header(
        [*ID_COLUMNS, "Gás", "Ano"],
        [(_unit_text("Emissões mensais", inv.unit, strip_units), months)],
    )
    for e in scaled(inv, scale_column).ordered():
        parts = split_months(in_unit(e.mass_t, inv.unit))
        rows.append([*e.source.id_cells, e.gas, e.year, *map(float, parts)])
    return _xlsx([Sheet("Mensal", rows, merges)]), XLSX


# --------------------------------------------------------------------------------------------
# 8. Hierarchically coded rows
# --------------------------------------------------------------------------------------------


def source_codes(inv: DrawnInventory) -> dict[Source, tuple[str, str, str]]:
    """Source -> (scope code "1", category code "1.A", source code "1.A.2")."""
    codes: dict[Source, tuple[str, str, str]] = {}
    for scope in sorted({s.scope for s in inv.sources}):
        categories = [c for c in CATEGORIES if any(s.category == c for s in inv.sources)]
        letters = iter("ABCDEFGH")
        for category in categories:
            members = [s for s in inv.sources if s.category == category and s.scope == scope]
            if not members:
                continue
            letter = next(letters)
            for k, source in enumerate(members, 1):
                codes[source] = (scope, f"{scope}.{letter}", f"{scope}.{letter}.{k}")
    return codes


def render_coded(
    inv: DrawnInventory,
    *,
    numeric_scope_codes: bool = False,
    scale_column: str | None = None,
    strip_units: bool = False,
) -> Rendered:
    """Sheet "Inventário": header Código, Descrição, Unidade, Ano, "<gas> (<unit>)" per gas.
    For each year, rows ordered by code: "1" (description "Escopo 1"), "1.A" (the category),
    "1.A.1" (a source; Unidade = facility), ... Rows with a one- or two-level code are
    subtotals (per gas) of the rows below them; only three-level rows are data. Scope codes are
    numbers (1, 2, 3) when ``numeric_scope_codes``, else text."""
    _no_biogenic(inv)
    codes = source_codes(inv)
    gas_headers = (_unit_text(g, inv.unit, strip_units) for g in inv.gases)
    header = ["Código", "Descrição", "Unidade", "Ano", *gas_headers]
    rows: list[list[object]] = [header]
    data = scaled(inv, scale_column)

    def sums(year: int, members: list[Source]) -> list[object]:
        return [_cell(_sum(_written_mass(inv, s, g, year) for s in members)) for g in inv.gases]

    for year in inv.years:
        for scope in sorted({s.scope for s in inv.sources}):
            in_scope = [s for s in inv.sources if s.scope == scope]
            scope_code: object = int(scope) if numeric_scope_codes else scope
            rows.append([scope_code, f"Escopo {scope}", None, year, *sums(year, in_scope)])
            category_codes = sorted({codes[s][1] for s in in_scope})
            for category_code in category_codes:
                members = [s for s in in_scope if codes[s][1] == category_code]
                category = members[0].category
                rows.append([category_code, category, None, year, *sums(year, members)])
                for source in sorted(members, key=lambda s: codes[s][2]):
                    cells = [_cell(_written_mass(data, source, g, year)) for g in inv.gases]
                    rows.append([codes[source][2], source.name, source.facility, year, *cells])
    return _xlsx([Sheet("Inventário", rows)]), XLSX


def _written_mass(inv: DrawnInventory, source: Source, gas: str, year: int) -> Decimal | None:
    mass = inv.mass(source, gas, year)
    return None if mass is None else in_unit(mass, inv.unit)


# --------------------------------------------------------------------------------------------
# 9. Total / Subtotal rows and notes
# --------------------------------------------------------------------------------------------


def render_with_totals(
    inv: DrawnInventory,
    *,
    interleaved: bool = True,
    scale_column: str | None = None,
    strip_units: bool = False,
) -> Rendered:
    """Sheet "Emissões": the wide mass layout (header Escopo, Categoria, Unidade, Fonte, Ano,
    "<gas> (<unit>)"...), data rows by year then scope. Per year and scope a row
    "Subtotal Escopo N" (label in the Escopo column, Ano filled, per-gas sums), and per year a
    row "Total" (Ano filled, per-gas sums of that year). ``interleaved``: each subtotal right
    after its scope's rows and each total after its year; otherwise all subtotal and total
    rows after the data. Then a blank row and two note rows ("Fonte: ...", "Nota: ...")."""
    _no_biogenic(inv)
    units = dict.fromkeys(inv.gases, inv.unit)
    header = [*ID_COLUMNS, "Ano", *(_unit_text(g, inv.unit, strip_units) for g in inv.gases)]
    corrupted = scaled(inv, scale_column)
    data: list[list[object]] = []
    checks: list[list[object]] = []

    def sums(year: int, members: Iterable[Source]) -> list[object]:
        members = list(members)
        return [_cell(_sum(_written_mass(inv, s, g, year) for s in members)) for g in inv.gases]

    for year in inv.years:
        emitting = [s for y, s in inv.source_years() if y == year]
        for scope in sorted({s.scope for s in emitting}):
            in_scope = [s for s in emitting if s.scope == scope]
            for source in in_scope:
                data.append(
                    [*source.id_cells, year, *_wide_mass_row(corrupted, year, source, units)]
                )
            subtotal = [f"Subtotal Escopo {scope}", None, None, None, year, *sums(year, in_scope)]
            (data if interleaved else checks).append(subtotal)
        (data if interleaved else checks).append(
            ["Total", None, None, None, year, *sums(year, emitting)]
        )
    rows = [header, *data, *checks, [], *([note] for note in NOTES)]
    return _xlsx([Sheet("Emissões", rows)]), XLSX


# --------------------------------------------------------------------------------------------
# 10. PT-BR numbers written as text
# --------------------------------------------------------------------------------------------


def render_ptbr_text(
    inv: DrawnInventory, *, scale_column: str | None = None, strip_units: bool = False
) -> Rendered:
    """The long table (layout 1, no title, default order) with every emission cell a text
    such as "1.234,567" (thousands ".", decimal ",")."""
    _no_biogenic(inv)
    rows = _long_rows(scaled(inv, scale_column), ptbr, strip_units)
    return _xlsx([Sheet("Inventário", rows)]), XLSX


# --------------------------------------------------------------------------------------------
# 11. cp1252 CSV with ';' and decimal commas
# --------------------------------------------------------------------------------------------


def render_csv(
    inv: DrawnInventory,
    *,
    thousands: bool = False,
    scale_column: str | None = None,
    strip_units: bool = False,
) -> Rendered:
    """The long table as a cp1252 CSV, ';'-separated, CRLF, decimal commas ("1234,567", or
    "1.234,567" when ``thousands``); the year as text."""
    _no_biogenic(inv)
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=";", lineterminator="\r\n")
    number = lambda v: ptbr(v, thousands=thousands)  # noqa: E731
    for row in _long_rows(scaled(inv, scale_column), number, strip_units):
        writer.writerow(row)
    return buffer.getvalue().encode("cp1252"), "inventario.csv"


# --------------------------------------------------------------------------------------------
# 12. Several sheets that are views of the same data
# --------------------------------------------------------------------------------------------


def view_sheet_name(gwp_set: str) -> str:
    return f"CO2e (GWP-{gwp_set})"


def render_views(
    inv: DrawnInventory,
    views: Sequence[str] = ("AR5", "AR4"),
    *,
    scale_column: str | None = None,
    strip_units: bool = False,
) -> Rendered:
    """One mass sheet per gas, named as the gas ("CO2", "HFC-134a"): header Escopo, Categoria,
    Unidade, Fonte, Ano, "Emissões (<unit>)", one row per source x year emitting it. Then one
    sheet per GWP set in ``views``, named "CO2e (GWP-AR5)": header Escopo, Categoria, Unidade,
    Fonte, Gás, Ano, "Emissões (t CO2e)", one row per source x gas x year. Every sheet is a
    view of the same emissions: a reader must never add them together."""
    _no_biogenic(inv)
    sheets = []
    for gas in inv.gases:
        header = [*ID_COLUMNS, "Ano", _unit_text("Emissões", inv.unit, strip_units)]
        rows: list[list[object]] = [header]
        for e in scaled(inv, scale_column).ordered():
            if e.gas == gas:
                rows.append([*e.source.id_cells, e.year, float(in_unit(e.mass_t, inv.unit))])
        sheets.append(Sheet(gas, rows))
    for gwp_set in views:
        rows = [
            [*ID_COLUMNS, "Gás", "Ano", "Emissões CO2e" if strip_units else "Emissões (t CO2e)"]
        ]
        for e in inv.ordered():
            mass_t = in_unit(e.mass_t, inv.unit) * TONNES_PER_UNIT[inv.unit]
            tco2e = written_tco2e(mass_t, e.gas, gwp_set)
            rows.append([*e.source.id_cells, e.gas, e.year, float(tco2e)])
        sheets.append(Sheet(view_sheet_name(gwp_set), rows))
    return _xlsx(sheets), XLSX


def iter_written_numbers(inv: DrawnInventory) -> Iterator[tuple[Decimal, Decimal]]:
    """(exact, written) pairs for every figure a renderer can write from ``inv``, in every
    unit and GWP set: the generator's check that rounding never changes a value."""
    for e in inv.emissions:
        for unit in UNITS:
            exact = e.mass_t / TONNES_PER_UNIT[unit]
            yield exact, in_unit(e.mass_t, unit)
        for gwp_set in GWP_SETS:
            yield e.mass_t * gwp(e.gas, gwp_set), written_tco2e(e.mass_t, e.gas, gwp_set)


# --------------------------------------------------------------------------------------------
# 13. The unit only in a unit column (GPC city export)
# --------------------------------------------------------------------------------------------


def render_unit_column(
    inv: DrawnInventory, gwp_set: str, *, scale_column: str | None = None, strip_units: bool = False
) -> Rendered:
    """Sheet "Emissions": header Escopo, Categoria, Unidade, Fonte, Ano, "<gas> Emissions" per
    gas (kg CO2e, no unit anywhere in their header), "Total Emissions" (t CO2e) and
    "Total Emission Units" = "t CO2e" on every row: the unit column is the only statement of a
    unit. Both "gases in kg, total in t" and "gases in t, total in Gg" pass the row check; only
    the unit column decides. ``strip_units`` drops that column."""
    _no_biogenic(inv)
    header = [*ID_COLUMNS, "Ano", *(f"{g} Emissions" for g in inv.gases), "Total Emissions"]
    if not strip_units:
        header.append("Total Emission Units")
    rows: list[list[object]] = [header]
    data = scaled(inv, scale_column)
    for year, source in inv.source_years():
        kg, stated = [], []
        for gas in inv.gases:
            mass, true_mass = data.mass(source, gas, year), inv.mass(source, gas, year)
            kg.append(None if mass is None else written_tco2e(mass, gas, gwp_set) * 1000)
            stated.append(None if true_mass is None else written_tco2e(true_mass, gas, gwp_set))
        unit = [] if strip_units else ["t CO2e"]
        rows.append([*source.id_cells, year, *map(_cell, kg), _cell(_sum(stated)), *unit])
    return _xlsx([Sheet("Emissions", rows)]), XLSX


# --------------------------------------------------------------------------------------------
# 14. The unit only in the label column's header cell (national inventory, years across)
# --------------------------------------------------------------------------------------------


def label_header(gwp_set: str, strip_units: bool = False) -> str:
    return f"CO₂e (GWP {gwp_set})" + ("" if strip_units else "\n(Gg)")


def render_label_header(
    inv: DrawnInventory, gwp_set: str, *, scale_column: str | None = None, strip_units: bool = False
) -> Rendered:
    """Sheet "Emissões": A1 = "CO₂e (GWP AR5)\\n(Gg)" heads the label column, then the years
    (numbers). Rows are coded labels "1 Escopo 1", "1.A <category>", "1.A.1 <source>
    (<facility>)", one per code, with t CO2e / 1,000 per year; one- and two-level codes are the
    sums of their children. The only statement of the unit is "(Gg)" in A1. ``scale_column``
    is a year (as text): that year's source rows x ``SCALE``, parents unchanged."""
    _no_biogenic(inv)
    codes = source_codes(inv)
    rows: list[list[object]] = [[label_header(gwp_set, strip_units), *inv.years]]

    def gg(members: list[Source], year: int, scale: bool = False) -> float | None:
        parts = [
            written_tco2e(e.mass_t, e.gas, gwp_set)
            for e in inv.emissions
            if e.source in members and e.year == year
        ]
        if not parts:
            return None
        value = sum(parts, Decimal(0)) / 1000 * (SCALE if scale else 1)
        return float(value)

    for scope in sorted({s.scope for s in inv.sources}):
        in_scope = [s for s in inv.sources if s.scope == scope]
        rows.append([f"{scope} Escopo {scope}", *(gg(in_scope, y) for y in inv.years)])
        for category_code in sorted({codes[s][1] for s in in_scope}):
            members = [s for s in in_scope if codes[s][1] == category_code]
            label = f"{category_code} {members[0].category}"
            rows.append([label, *(gg(members, y) for y in inv.years)])
            for source in sorted(members, key=lambda s: codes[s][2]):
                label = f"{codes[source][2]} {source.name} ({source.facility})"
                cells = [gg([source], y, scale_column == str(y)) for y in inv.years]
                rows.append([label, *cells])
    return _xlsx([Sheet("Emissões", rows)]), XLSX


# --------------------------------------------------------------------------------------------
# 15. Months of activity (litres) beside per-gas emissions (company mobile-combustion sheet)
# --------------------------------------------------------------------------------------------

# Diesel A (no biodiesel), per litre: BEN conversion table 840 kg/m³ and 10,100 kcal/kg,
# 1 kcal = 4.1868 kJ -> 0.0355208 GJ/L; IPCC 2006 vol. 2 ch. 3 tables 3.2.1-3.2.2 (road),
# kg/TJ: CO2 74,100, CH4 3.9, N2O 3.9. So about 2.63 kg CO2 per litre.
DIESEL_A_GJ_PER_L = Decimal("0.840") * 10_100 * Decimal("4.1868") / 1_000_000
DIESEL_A_ROAD_KG_PER_TJ = {"CO2": Decimal(74_100), "CH4": Decimal("3.9"), "N2O": Decimal("3.9")}
ACTIVITY_FUEL = "Óleo diesel A"
ACTIVITY_SOURCES = ("Caminhões de entrega", "Caminhão-pipa", "Ônibus fretado da fábrica")


@dataclass(frozen=True)
class ActivityRow:
    source: str
    year: int
    litres: tuple[int, ...]  # 12 months

    def tonnes(self, gas: str) -> Decimal:
        """t of gas, as the sheet writes it (6 decimals)."""
        gj = sum(self.litres) * DIESEL_A_GJ_PER_L
        return written(gj * DIESEL_A_ROAD_KG_PER_TJ[gas] / 1_000_000)


@st.composite
def activity_rows(draw: st.DrawFn) -> tuple[ActivityRow, ...]:
    year = draw(st.sampled_from(YEARS))
    names = draw(st.lists(st.sampled_from(ACTIVITY_SOURCES), min_size=1, unique=True))
    litres = st.lists(st.integers(500, 60_000), min_size=12, max_size=12)
    return tuple(ActivityRow(name, year, tuple(draw(litres))) for name in names)


def activity_truth(rows: Sequence[ActivityRow], gwp_set: str) -> Truth:
    """The workbook's own emission columns are the headline: Scope 1, CO2 + CH4 + N2O."""
    by_gas = {
        gas: sum((r.tonnes(gas) * gwp(gas, gwp_set) for r in rows), Decimal(0))
        for gas in COMBUSTION_GASES
    }
    total = sum(by_gas.values(), Decimal(0))
    return Truth(
        str(rows[0].year),
        {"1": float(total)},
        {g: float(v) for g, v in by_gas.items()},
        float(total),
        0.0,
        {"1": total},
        by_gas,
        total,
    )


def render_activity_months(
    rows: Sequence[ActivityRow], *, scale_column: str | None = None, strip_units: bool = False
) -> Rendered:
    """Sheet "Combustão móvel <year>": title "Combustão móvel – <year>"; row 3 "Fonte",
    "Combustível" merged down, "Consumo de combustível (litros)" merged over jan … dez and
    "Total anual", "Emissões fósseis (t)" over CO2 / CH4 / N2O, "Emissões biogênicas (t)"
    over CO2 (blank: diesel A has none); row 4 the sub-headers. The months hold litres, never
    emissions. ``strip_units`` removes "(t)" from the emission groups (the litres keep
    theirs: plausibility, about 2.6 kg CO2 per litre, proves the tonnes); ``scale_column`` (a
    gas) x ``SCALE`` on that emission column."""
    year = rows[0].year
    months = [m.lower() for m in MONTHS_SHORT]
    header, merges = _two_row_header(
        ["Fonte", "Combustível"],
        [
            ("Consumo de combustível (litros)", [*months, "Total anual"]),
            (_unit_text("Emissões fósseis", "t", strip_units), COMBUSTION_GASES),
            (_unit_text("Emissões biogênicas", "t", strip_units), ["CO2"]),
        ],
    )
    # The header sits under a title and a blank row: shift the merges two rows down.
    merges = [re.sub(r"\d+", lambda m: str(int(m.group()) + 2), cells) for cells in merges]
    body: list[list[object]] = [[f"Combustão móvel – {year}"], [], *header]
    for row in rows:
        emissions = [
            float(row.tonnes(g) * (SCALE if g == scale_column else 1)) for g in COMBUSTION_GASES
        ]
        body.append([row.source, ACTIVITY_FUEL, *row.litres, sum(row.litres), *emissions, None])
    return _xlsx([Sheet(f"Combustão móvel {year}", body, merges)]), XLSX


# --------------------------------------------------------------------------------------------
# 16. Refrigerant recharges in kg per gas (recharged − recovered)
# --------------------------------------------------------------------------------------------

#: Blends by mass fraction (ASHRAE Standard 34).
REFRIGERANT_BLENDS: dict[str, dict[str, str | Decimal]] = {
    "R-410A": {"HFC-32": Decimal("0.5"), "HFC-125": Decimal("0.5")},
    "R-404A": {
        "HFC-125": Decimal("0.44"),
        "HFC-143a": Decimal("0.52"),
        "HFC-134a": Decimal("0.04"),
    },
}
REFRIGERANTS = ("HFC-134a", "R-410A", "R-404A", "HFC-32")
EQUIPMENT = ("Chiller central", "Split da recepção", "Câmara fria", "Balcão refrigerado")


@dataclass(frozen=True)
class Recharge:
    equipment: str
    gas: str
    year: int
    recharged_kg: Decimal
    recovered_kg: Decimal


@st.composite
def recharges(draw: st.DrawFn) -> tuple[Recharge, ...]:
    year = draw(st.sampled_from(YEARS))
    out = []
    for equipment in draw(st.lists(st.sampled_from(EQUIPMENT), min_size=1, unique=True)):
        recharged = Decimal(draw(st.integers(20, 2_000))) / 10  # 2.0 .. 200.0 kg
        recovered = Decimal(draw(st.integers(0, int(recharged * 5)))) / 10  # up to half of it
        out.append(
            Recharge(equipment, draw(st.sampled_from(REFRIGERANTS)), year, recharged, recovered)
        )
    return tuple(out)


def refrigerant_gwp(gas: str, gwp_set: str) -> Decimal:
    parts = REFRIGERANT_BLENDS.get(gas)
    if parts is None:
        return gwp(gas, gwp_set)
    return sum((Decimal(share) * gwp(p, gwp_set) for p, share in parts.items()), Decimal(0))


def recharge_truth(rows: Sequence[Recharge], gwp_set: str) -> Truth:
    """Scope 1: (recharged − recovered) kg / 1,000 x GWP (blends by composition). By gas is
    not compared (a blend may be reported whole or split into its components)."""
    total = sum(
        ((r.recharged_kg - r.recovered_kg) / 1000 * refrigerant_gwp(r.gas, gwp_set) for r in rows),
        Decimal(0),
    )
    return Truth(
        str(rows[0].year), {"1": float(total)}, {}, float(total), 0.0, {"1": total}, {}, total
    )


def render_recharges(
    rows: Sequence[Recharge], *, scale_column: str | None = None, strip_units: bool = False
) -> Rendered:
    """Sheet "Recargas de gases": header Equipamento, Gás refrigerante, Ano, "Recarga (kg)",
    "Recolhido (kg)" (no emission column: the loss is recharged − recovered)."""
    kg = "" if strip_units else " (kg)"
    header = ["Equipamento", "Gás refrigerante", "Ano", f"Recarga{kg}", f"Recolhido{kg}"]
    body: list[list[object]] = [header]
    for r in rows:
        factor = SCALE if scale_column == "Recarga" else 1
        body.append(
            [r.equipment, r.gas, r.year, float(r.recharged_kg * factor), float(r.recovered_kg)]
        )
    return _xlsx([Sheet("Recargas de gases", body)]), XLSX


# --------------------------------------------------------------------------------------------
# 17. Facilities whose names start with "Total" (EPA GHGRP-style facility summary)
# --------------------------------------------------------------------------------------------


def facility_name(source: Source, index: int) -> str:
    """Every other source is run by "Total Energies": a data row whose label starts "Total"."""
    if index % 2 == 0:
        return f"Total Energies Refinery – {source.name} ({source.facility})"
    return f"{source.name} ({source.facility})"


def render_facility_totals(
    inv: DrawnInventory, gwp_set: str, *, scale_column: str | None = None, strip_units: bool = False
) -> Rendered:
    """Sheet "Direct Emitters": header "Facility Name" (first column), Escopo, Categoria, Ano,
    "Total reported direct emissions (t CO2e)", "<gas> emissions (t CO2e)" per gas; the total
    column sums the row. Half the facilities are called "Total Energies Refinery – …"."""
    _no_biogenic(inv)
    unit = "CO2e" if strip_units else "(t CO2e)"
    header = [
        "Facility Name",
        "Escopo",
        "Categoria",
        "Ano",
        f"Total reported direct emissions {unit}",
    ]
    header += [f"{g} emissions {unit}" for g in inv.gases]
    body: list[list[object]] = [header]
    data = scaled(inv, scale_column)
    index = {s: i for i, s in enumerate(inv.sources)}
    for year, source in inv.source_years():
        values, stated = [], []
        for gas in inv.gases:
            mass, true_mass = data.mass(source, gas, year), inv.mass(source, gas, year)
            values.append(None if mass is None else written_tco2e(mass, gas, gwp_set))
            stated.append(None if true_mass is None else written_tco2e(true_mass, gas, gwp_set))
        name = facility_name(source, index[source])
        cells = [name, source.scope_label, source.category, year, _cell(_sum(stated))]
        body.append([*cells, *map(_cell, values)])
    return _xlsx([Sheet("Direct Emitters", body)]), XLSX
