"""Property tests: every spreadsheet layout of a random inventory reconciles with its truth.

For each layout of ``tests/layout_generator.py`` a ``@given`` test renders a drawn inventory,
loads it with ``engine.inventory.load_inventory`` and checks the headline year's totals by
scope and by gas, the headline total, the headline year and the reconciliation status
(README, "Inventory ingestion"). The ``test_generator_*`` tests check the generator on its
own, without the engine: each rendered file is read back by a small layout-aware reader written
here, its internal checks (total column, subtotal rows, parent codes, months, GWP views) are
verified, and the figures are re-summed and compared exactly with ``truth()``.
"""

from __future__ import annotations

import csv
import io
import os
import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import openpyxl
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests import layout_generator as lg

# Under CI the examples are derived from the test itself: the same run every time, so a red
# CI is a regression, not a new draw. Locally hypothesis keeps exploring.
# HYPOTHESIS_MAX_EXAMPLES lowers the draw for a quick run on a busy machine (no conftest
# profile exists, and one registered here would come too late for --hypothesis-profile).
SETTINGS = settings(
    max_examples=int(os.environ.get("HYPOTHESIS_MAX_EXAMPLES", "40")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=bool(os.environ.get("CI")),
    database=None if os.environ.get("CI") else settings.default.database,
)
TOLERANCE = {"rel": 1e-6, "abs": 1e-6}

gwp_sets = st.sampled_from(lg.GWP_SETS)
gas_units = st.fixed_dictionaries({gas: st.sampled_from(lg.UNITS) for gas in lg.GASES})
no_variant = st.just({})


# --------------------------------------------------------------------------------------------
# Reading the rendered files back, independently of the renderers
# --------------------------------------------------------------------------------------------

_TONNES = {"kg": Decimal("0.001"), "t": Decimal(1), "Gg": Decimal(1000)}
_UNIT_IN_TEXT = re.compile(r"(?:\(|\[| em )(kg|t|Gg)(?:\)|\])?$")


@dataclass(frozen=True)
class Fact:
    scope: str
    gas: str  # as written
    year: int
    value: Decimal  # t of gas, or t CO2e when ``co2e``
    co2e: bool = False
    biogenic: bool = False


Grid = list[list[Any]]


def _sheets(data: bytes, filename: str) -> dict[str, Grid]:
    if filename.endswith(".csv"):
        text = data.decode("cp1252")
        assert "\r\n" in text
        return {"csv": [list(r) for r in csv.reader(io.StringIO(text, newline=""), delimiter=";")]}
    wb = openpyxl.load_workbook(io.BytesIO(data))
    return {ws.title: [list(r) for r in ws.iter_rows(values_only=True)] for ws in wb.worksheets}


def _num(cell: Any) -> Decimal | None:
    if cell is None or cell == "":
        return None
    if isinstance(cell, str):
        assert re.fullmatch(r"\d{1,3}(\.\d{3})*(,\d+)?|\d+(,\d+)?", cell), cell
        return Decimal(cell.replace(".", "").replace(",", "."))
    assert isinstance(cell, int | float) and not isinstance(cell, bool), cell
    return Decimal(repr(cell)) if isinstance(cell, float) else Decimal(cell)


def _unit(text: str) -> str:
    match = _UNIT_IN_TEXT.search(text.strip())
    assert match, text
    return match.group(1)


def _scope(label: str) -> str:
    assert re.fullmatch(r"Escopo [123]", label), label
    return label[-1]


def _tonnes(cell: Any, unit: str) -> Decimal | None:
    value = _num(cell)
    return None if value is None else value * _TONNES[unit]


def _read_long(sheets: dict[str, Grid]) -> list[Fact]:
    (grid,) = sheets.values()
    start = next(i for i, row in enumerate(grid) if "Gás" in row)
    header = grid[start]
    col = {name: header.index(name) for name in ("Escopo", "Gás", "Ano")}
    emissions = next(i for i, name in enumerate(header) if str(name).startswith("Emissões"))
    unit = _unit(header[emissions])
    facts = []
    for row in grid[start + 1 :]:
        value = _tonnes(row[emissions], unit)
        assert value, row
        year = int(row[col["Ano"]])
        facts.append(Fact(_scope(row[col["Escopo"]]), row[col["Gás"]], year, value))
    return facts


def _wide_facts(
    rows: Grid, gas_cols: dict[int, str], unit_of: Callable[[list[Any], int], str]
) -> list[Fact]:
    """Rows with Escopo in column 0 and Ano in column 4; one fact per filled gas column."""
    facts = []
    for row in rows:
        for i, gas in gas_cols.items():
            value = _tonnes(row[i], unit_of(row, i))
            if value is not None:
                assert value > 0
                facts.append(Fact(_scope(row[0]), gas, int(row[4]), value))
    return facts


def _read_wide_mass(sheets: dict[str, Grid]) -> list[Fact]:
    (grid,) = sheets.values()
    header = grid[0]
    assert header[4] == "Ano"
    gas_cols = {i: str(h).split()[0] for i, h in enumerate(header) if i > 4}
    return _wide_facts(grid[1:], gas_cols, lambda row, i: _unit(header[i]))


def _read_wide_co2e(sheets: dict[str, Grid]) -> list[Fact]:
    (grid,) = sheets.values()
    header = grid[0]
    assert header[-1] == "Total (t CO2e)"
    gas_cols = {i: str(h).split()[0] for i, h in enumerate(header[:-1]) if i > 4}
    assert all(header[i].endswith("(t CO2e)") for i in gas_cols)
    facts = []
    for row in grid[1:]:
        values = {i: _num(row[i]) for i in gas_cols}
        present = [v for v in values.values() if v is not None]
        assert present and _num(row[-1]) == sum(present), row  # the total column checks out
        scope, year = _scope(row[0]), int(row[4])
        facts += [Fact(scope, gas_cols[i], year, v, co2e=True) for i, v in values.items() if v]
    return facts


def _read_fossil_biogenic(sheets: dict[str, Grid]) -> list[Fact]:
    (grid,) = sheets.values()
    top, sub = grid[0], grid[1]
    assert top[5].startswith("Emissões fósseis") and top[8].startswith("Emissões biogênicas")
    assert top[6] is None and top[7] is None and top[9] is None  # merged group cells
    assert sub[5:] == ["CO2", "CH4", "N2O"] * 2
    facts = []
    for row in grid[2:]:
        for i in range(5, 11):
            biogenic = i >= 8
            value = _tonnes(row[i], _unit(top[8 if biogenic else 5]))
            if value is not None:
                facts.append(Fact(_scope(row[0]), sub[i], int(row[4]), value, biogenic=biogenic))
    return facts


def _read_units(sheets: dict[str, Grid]) -> list[Fact]:
    (grid,) = sheets.values()
    header = grid[0]
    if header[5] == "Unidade de medida":  # unit column
        gas_cols = {i: h for i, h in enumerate(header) if i > 5}
        return _wide_facts(grid[1:], gas_cols, lambda row, i: row[5])
    if grid[1][0] is None and header[5] and header[5].startswith("Emissões"):  # group row
        gas_cols = {i: h for i, h in enumerate(grid[1]) if i > 4}
        return _wide_facts(grid[2:], gas_cols, lambda row, i: _unit(header[5]))
    if grid[1][0] is None:  # units row
        gas_cols = {i: h for i, h in enumerate(header) if i > 4}
        return _wide_facts(grid[2:], gas_cols, lambda row, i: grid[1][i])
    return _read_wide_mass(sheets)  # unit in each header


def _read_years_across(sheets: dict[str, Grid]) -> list[Fact]:
    facts = []
    for name, grid in sheets.items():
        top, sub = grid[0], grid[1]
        first = 5 if top[4] == "Gás" else 4
        assert sub[:first] == [None] * first  # merged down from row 1
        label = top[first]
        unit = _unit(label)
        for row in grid[2:]:
            gas = row[4] if first == 5 else name
            if first == 4:
                assert label == f"Emissões de {name} ({unit})"
            for i in range(first, len(sub)):
                value = _tonnes(row[i], unit)
                if value is not None:
                    facts.append(Fact(_scope(row[0]), gas, int(sub[i]), value))
    return facts


def _read_months(sheets: dict[str, Grid]) -> list[Fact]:
    (grid,) = sheets.values()
    top, sub = grid[0], grid[1]
    assert top[4:6] == ["Gás", "Ano"]
    assert tuple(sub[6:]) in (lg.MONTHS_SHORT, lg.MONTHS_LONG)
    unit = _unit(top[6])
    facts = []
    for row in grid[2:]:
        months = [_tonnes(cell, unit) for cell in row[6:18]]
        assert len(months) == 12 and all(m is not None and m >= 0 for m in months)
        total = sum(months, Decimal(0))
        assert total > 0
        facts.append(Fact(_scope(row[0]), row[4], int(row[5]), total))
    return facts


def _read_coded(sheets: dict[str, Grid]) -> list[Fact]:
    (grid,) = sheets.values()
    header = grid[0]
    assert header[:4] == ["Código", "Descrição", "Unidade", "Ano"]
    gas_cols = {i: str(h).split()[0] for i, h in enumerate(header) if i > 3}
    rows = [(str(row[0]), int(row[3]), row) for row in grid[1:]]
    leaves = [(code, year, row) for code, year, row in rows if code.count(".") == 2]
    facts = []
    for code, year, row in rows:
        children = [r for c, y, r in leaves if y == year and c.startswith(code + ".")]
        for i, gas in gas_cols.items():
            value = _tonnes(row[i], _unit(header[i]))
            if code.count(".") == 2:
                if value is not None:
                    facts.append(Fact(code.split(".")[0], gas, year, value))
                continue
            assert children, code
            parts = [_tonnes(r[i], _unit(header[i])) for r in children]
            parts = [p for p in parts if p is not None]
            assert value == (sum(parts) if parts else None), (code, year, gas)  # subtotal
    return facts


def _read_with_totals(sheets: dict[str, Grid]) -> list[Fact]:
    (grid,) = sheets.values()
    header = grid[0]
    gas_cols = {i: str(h).split()[0] for i, h in enumerate(header) if i > 4}
    data, checks = [], []
    notes = 0
    for row in grid[1:]:
        label = row[0]
        if label is None:
            assert all(cell is None for cell in row)
        elif label.startswith(("Fonte:", "Nota:")):
            notes += 1
        elif label.startswith(("Subtotal", "Total")):
            checks.append(row)
        else:
            assert notes == 0  # notes come after the data
            data.append(row)
    assert notes == 2 and checks
    for row in checks:
        scope = row[0].removeprefix("Subtotal Escopo ") if row[0].startswith("Sub") else None
        members = [r for r in data if r[4] == row[4] and (scope is None or _scope(r[0]) == scope)]
        assert members
        for i in gas_cols:
            parts = [v for r in members if (v := _num(r[i])) is not None]
            assert _num(row[i]) == (sum(parts) if parts else None), (row, i)
    return _wide_facts(data, gas_cols, lambda row, i: _unit(header[i]))


def _read_views(sheets: dict[str, Grid]) -> list[Fact]:
    facts: list[Fact] = []
    views: dict[str, Grid] = {}
    masses: dict[tuple[Any, ...], Decimal] = {}
    for name, grid in sheets.items():
        if name.startswith("CO2e (GWP-"):
            views[name.removeprefix("CO2e (GWP-").removesuffix(")")] = grid
            continue
        assert name in lg.GASES
        header = grid[0]
        unit = _unit(header[5])
        for row in grid[1:]:
            value = _tonnes(row[5], unit)
            assert value
            facts.append(Fact(_scope(row[0]), name, int(row[4]), value))
            masses[(*row[:4], name, int(row[4]))] = value
    assert views and set(views) <= set(lg.GWP_SETS)
    for gwp_set, grid in views.items():
        assert grid[0][-1] == "Emissões (t CO2e)"
        seen = {(*row[:5], int(row[5])): _num(row[6]) for row in grid[1:]}
        assert seen.keys() == masses.keys()  # each view holds the same rows
        for key, tco2e in seen.items():  # ... and agrees with the masses
            assert tco2e == lg.written(masses[key] * lg.gwp(key[4], gwp_set)), key
    return facts


def _resum(facts: list[Fact], gwp_set: str, year: int) -> tuple[dict, dict, Decimal]:
    by_scope: dict[str, Decimal] = defaultdict(Decimal)
    by_gas: dict[str, Decimal] = defaultdict(Decimal)
    biogenic_co2 = Decimal(0)
    for fact in facts:
        if fact.year != year:
            continue
        if fact.biogenic and fact.gas == "CO2":
            biogenic_co2 += fact.value
            continue
        tco2e = fact.value if fact.co2e else fact.value * lg.gwp(fact.gas, gwp_set)
        by_scope[fact.scope] += tco2e
        by_gas[lg.canonical(fact.gas)] += tco2e
    return dict(by_scope), dict(by_gas), biogenic_co2


# --------------------------------------------------------------------------------------------
# The layouts
# --------------------------------------------------------------------------------------------

Render = Callable[[lg.DrawnInventory, str, dict[str, Any]], lg.Rendered]


@dataclass(frozen=True)
class Layout:
    name: str
    inventories: st.SearchStrategy[lg.DrawnInventory]
    variants: st.SearchStrategy[dict[str, Any]]
    render: Render
    read: Callable[[dict[str, Grid]], list[Fact]] | None  # the generator's own reader
    checked: bool  # the layout carries a check of its own: status "reconciled"
    truth: Callable[[Any, str], lg.Truth] = lg.truth
    #: The columns ``scale_column`` may corrupt (gases; years for years-as-columns layouts).
    columns: Callable[[Any], list[str]] = lambda inv: list(inv.gases)
    #: Rows carry activity data that proves the emissions' unit without any statement of it.
    plausibility: bool = False
    #: The file says each figure's gas; a sheet of CO2e alone cannot (its gas is unknown).
    gases_known: bool = True

    @property
    def status(self) -> str:
        return "reconciled" if self.checked else "unverified"


LONG = Layout(
    "long",
    lg.inventories(),
    st.fixed_dictionaries(
        {"title": st.booleans(), "column_order": st.permutations(range(len(lg.LONG_COLUMNS)))}
    ),
    lambda inv, _, v: lg.render_long(inv, **v),
    _read_long,
    checked=False,
)
WIDE_MASS = Layout(
    "wide_mass",
    lg.inventories(),
    st.fixed_dictionaries({"gas_units": gas_units}),
    lambda inv, _, v: lg.render_wide_mass(inv, **v),
    _read_wide_mass,
    checked=False,
)
WIDE_CO2E = Layout(
    "wide_co2e",
    lg.inventories(),
    no_variant,
    lambda inv, gwp_set, v: lg.render_wide_co2e(inv, gwp_set, **v),
    _read_wide_co2e,
    checked=True,
)
FOSSIL_BIOGENIC = Layout(
    "fossil_biogenic",
    lg.inventories(lg.COMBUSTION_GASES, biogenic=True),
    no_variant,
    lambda inv, _, v: lg.render_fossil_biogenic(inv, **v),
    _read_fossil_biogenic,
    checked=False,
)
UNIT_PLACES = Layout(
    "units",
    lg.inventories(),
    st.fixed_dictionaries(
        {
            "placement": st.sampled_from(lg.UNIT_PLACEMENTS),
            "gas_units": gas_units,
            "header_format": st.sampled_from(lg.UNIT_HEADER_FORMATS),
        }
    ),
    lambda inv, _, v: lg.render_units(inv, **v),
    _read_units,
    checked=False,
)
YEARS_ACROSS = Layout(
    "years_across",
    lg.inventories(),
    st.fixed_dictionaries({"mode": st.sampled_from(lg.YEAR_MODES), "years_as_text": st.booleans()}),
    lambda inv, _, v: lg.render_years_across(inv, **v),
    _read_years_across,
    checked=False,
)
MONTHS = Layout(
    "months",
    lg.inventories(),
    st.fixed_dictionaries({"long_names": st.booleans()}),
    lambda inv, _, v: lg.render_months(inv, **v),
    _read_months,
    checked=False,
)
CODED = Layout(
    "coded",
    lg.inventories(),
    st.fixed_dictionaries({"numeric_scope_codes": st.booleans()}),
    lambda inv, _, v: lg.render_coded(inv, **v),
    _read_coded,
    checked=True,
)
TOTAL_ROWS = Layout(
    "total_rows",
    lg.inventories(),
    st.fixed_dictionaries({"interleaved": st.booleans()}),
    lambda inv, _, v: lg.render_with_totals(inv, **v),
    _read_with_totals,
    checked=True,
)
PTBR_TEXT = Layout(
    "ptbr_text",
    lg.inventories(),
    no_variant,
    lambda inv, _, v: lg.render_ptbr_text(inv, **v),
    _read_long,
    checked=False,
)
CSV_CP1252 = Layout(
    "csv_cp1252",
    lg.inventories(),
    st.fixed_dictionaries({"thousands": st.booleans()}),
    lambda inv, _, v: lg.render_csv(inv, **v),
    _read_long,
    checked=False,
)
GWP_VIEWS = Layout(
    "gwp_views",
    lg.inventories(),
    st.fixed_dictionaries(
        {"views": st.lists(st.sampled_from(lg.GWP_SETS), min_size=1, max_size=3, unique=True)}
    ),
    lambda inv, _, v: lg.render_views(inv, **v),
    _read_views,
    checked=True,
)
UNIT_COLUMN = Layout(
    "unit_column",
    lg.inventories(),
    no_variant,
    lambda inv, gwp_set, v: lg.render_unit_column(inv, gwp_set, **v),
    None,
    checked=True,
)
LABEL_HEADER = Layout(
    "label_header",
    lg.inventories(),
    no_variant,
    lambda inv, gwp_set, v: lg.render_label_header(inv, gwp_set, **v),
    None,
    checked=True,
    columns=lambda inv: [str(inv.latest)],
    gases_known=False,  # one CO2e figure per row, as MCTI's CO2e sheets
)
ACTIVITY_MONTHS = Layout(
    "activity_months",
    lg.activity_rows(),
    no_variant,
    lambda rows, _, v: lg.render_activity_months(rows, **v),
    None,
    # Nothing in the workbook checks its emissions: they agree with the litres through our
    # factor library, which proves their unit (plausibility) but is no check of the workbook
    # against itself (issue #21, point 5), so the sheet is "unverified".
    checked=False,
    truth=lg.activity_truth,
    columns=lambda rows: ["CO2"],  # CH4 and N2O are too small to move the row's CO2e by 2%
    plausibility=True,
)
RECHARGES = Layout(
    "refrigerant_recharges",
    lg.recharges(),
    no_variant,
    lambda rows, _, v: lg.render_recharges(rows, **v),
    None,
    checked=False,
    truth=lg.recharge_truth,
    columns=lambda rows: ["Recarga"],
)
TOTAL_NAMES = Layout(
    "total_names",
    lg.inventories(),
    no_variant,
    lambda inv, gwp_set, v: lg.render_facility_totals(inv, gwp_set, **v),
    None,
    checked=True,
)
LAYOUTS = (
    LONG,
    WIDE_MASS,
    WIDE_CO2E,
    FOSSIL_BIOGENIC,
    UNIT_PLACES,
    YEARS_ACROSS,
    MONTHS,
    CODED,
    TOTAL_ROWS,
    PTBR_TEXT,
    CSV_CP1252,
    GWP_VIEWS,
    UNIT_COLUMN,
    LABEL_HEADER,
    ACTIVITY_MONTHS,
    RECHARGES,
    TOTAL_NAMES,
)
READABLE = tuple(layout for layout in LAYOUTS if layout.read is not None)


# --------------------------------------------------------------------------------------------
# The generator on its own (no engine)
# --------------------------------------------------------------------------------------------


@SETTINGS
@given(inv=lg.inventories(lg.COMBUSTION_GASES, biogenic=True) | lg.inventories())
def test_generator_rounding_never_changes_a_written_figure(inv):
    for exact, written in lg.iter_written_numbers(inv):
        assert written == exact and written > 0


@SETTINGS
@given(inv=lg.inventories(lg.COMBUSTION_GASES, biogenic=True) | lg.inventories(), data=st.data())
def test_generator_truth_adds_up(inv, data):
    gwp_set = data.draw(gwp_sets)
    truth = lg.truth(inv, gwp_set)
    assert truth.year == str(max(e.year for e in inv.emissions))
    assert sum(truth.exact_by_scope.values()) == truth.exact_total
    assert sum(truth.exact_by_gas.values()) == truth.exact_total
    # The same total, emission by emission, straight from the drawn masses.
    direct = sum(
        (e.mass_t * lg.gwp(e.gas, gwp_set))
        for e in inv.emissions
        if e.year == inv.latest and not (e.biogenic and e.gas == "CO2")
    )
    assert direct == truth.exact_total > 0
    assert truth.total == pytest.approx(float(direct), rel=1e-12)


@pytest.mark.parametrize("layout", READABLE, ids=lambda layout: layout.name)
@SETTINGS
@given(data=st.data())
def test_generator_renders_what_the_truth_says(layout, data):
    """Read each rendered file back, verify its own checks, re-sum it, compare exactly."""
    inv = data.draw(layout.inventories, label="inv")
    gwp_set = data.draw(gwp_sets, label="gwp_set")
    variant = data.draw(layout.variants, label="variant")
    rendered, filename = layout.render(inv, gwp_set, variant)
    facts = layout.read(_sheets(rendered, filename))
    assert max(f.year for f in facts) == inv.latest
    assert {f.year for f in facts} == set(inv.years)
    by_scope, by_gas, biogenic_co2 = _resum(facts, gwp_set, inv.latest)
    truth = lg.truth(inv, gwp_set)
    assert by_scope == truth.exact_by_scope
    assert by_gas == truth.exact_by_gas
    assert float(biogenic_co2) == truth.biogenic_co2_t


# --------------------------------------------------------------------------------------------
# The engine against every layout
# --------------------------------------------------------------------------------------------

_MISSING = "<missing>"


def _totals(inv: Any, field: str, expected: dict[str, float]) -> dict[str, float]:
    """``totals_by(field)`` as a dict; values absent from the truth are dropped when they add
    nothing (memo rows such as biogenic CO2 have 0 t CO2e)."""
    frame = inv.totals_by(field)
    got = {str(k): float(v) for k, v in zip(frame[field], frame["tco2e"], strict=True)}
    return {k: v for k, v in got.items() if k in expected or abs(v) > TOLERANCE["abs"]}


def _check(layout: Layout, inv: Any, gwp_set: str, variant: dict) -> None:
    from engine.inventory import load_inventory

    rendered, filename = layout.render(inv, gwp_set, variant)
    truth = layout.truth(inv, gwp_set)
    result = load_inventory(rendered, filename=filename, gwp_set=gwp_set)
    problems = []
    if result.total_tco2e != pytest.approx(truth.total, **TOLERANCE):
        problems.append(f"total_tco2e {result.total_tco2e!r}, expected {truth.total!r}")
    by_gas = truth.by_gas if layout.gases_known else {"(não informado)": truth.total}
    for field, expected in (("scope", truth.by_scope), ("gas", by_gas)):
        if not expected:  # the layout's truth does not say (blends reported whole or split)
            continue
        got = _totals(result, field, expected)
        if got != pytest.approx(expected, **TOLERANCE):
            problems.append(f"totals_by({field!r}) {got}, expected {expected}")
    year = getattr(result, "year", _MISSING)
    if year != truth.year:
        problems.append(f"year {year!r}, expected {truth.year!r}")
    status = getattr(result, "status", _MISSING)
    if status != layout.status:
        problems.append(f"status {status!r}, expected {layout.status!r}")
    if getattr(inv, "has_biogenic", False) and result.biogenic_co2_t != pytest.approx(
        truth.biogenic_co2_t, **TOLERANCE
    ):
        problems.append(
            f"biogenic_co2_t {result.biogenic_co2_t!r}, expected {truth.biogenic_co2_t}"
        )
    assert not problems, f"{layout.name} ({filename}, {gwp_set}):\n" + "\n".join(problems)


@SETTINGS
@given(inv=LONG.inventories, gwp_set=gwp_sets, variant=LONG.variants)
def test_long_table(inv, gwp_set, variant):
    _check(LONG, inv, gwp_set, variant)


@SETTINGS
@given(inv=WIDE_MASS.inventories, gwp_set=gwp_sets, variant=WIDE_MASS.variants)
def test_wide_per_gas_mass_columns(inv, gwp_set, variant):
    _check(WIDE_MASS, inv, gwp_set, variant)


@SETTINGS
@given(inv=WIDE_CO2E.inventories, gwp_set=gwp_sets, variant=WIDE_CO2E.variants)
def test_per_gas_co2e_columns_with_a_total_column(inv, gwp_set, variant):
    _check(WIDE_CO2E, inv, gwp_set, variant)


@SETTINGS
@given(inv=FOSSIL_BIOGENIC.inventories, gwp_set=gwp_sets, variant=FOSSIL_BIOGENIC.variants)
def test_fossil_and_biogenic_header_groups(inv, gwp_set, variant):
    _check(FOSSIL_BIOGENIC, inv, gwp_set, variant)


@SETTINGS
@given(inv=UNIT_PLACES.inventories, gwp_set=gwp_sets, variant=UNIT_PLACES.variants)
def test_units_wherever_they_are_written(inv, gwp_set, variant):
    _check(UNIT_PLACES, inv, gwp_set, variant)


@SETTINGS
@given(inv=YEARS_ACROSS.inventories, gwp_set=gwp_sets, variant=YEARS_ACROSS.variants)
def test_years_across_the_columns(inv, gwp_set, variant):
    _check(YEARS_ACROSS, inv, gwp_set, variant)


@SETTINGS
@given(inv=MONTHS.inventories, gwp_set=gwp_sets, variant=MONTHS.variants)
def test_months_across_the_columns(inv, gwp_set, variant):
    _check(MONTHS, inv, gwp_set, variant)


@SETTINGS
@given(inv=CODED.inventories, gwp_set=gwp_sets, variant=CODED.variants)
def test_hierarchical_codes_with_subtotal_parents(inv, gwp_set, variant):
    _check(CODED, inv, gwp_set, variant)


@SETTINGS
@given(inv=TOTAL_ROWS.inventories, gwp_set=gwp_sets, variant=TOTAL_ROWS.variants)
def test_total_subtotal_and_note_rows(inv, gwp_set, variant):
    _check(TOTAL_ROWS, inv, gwp_set, variant)


@SETTINGS
@given(inv=PTBR_TEXT.inventories, gwp_set=gwp_sets, variant=PTBR_TEXT.variants)
def test_ptbr_numbers_written_as_text(inv, gwp_set, variant):
    _check(PTBR_TEXT, inv, gwp_set, variant)


@SETTINGS
@given(inv=CSV_CP1252.inventories, gwp_set=gwp_sets, variant=CSV_CP1252.variants)
def test_cp1252_semicolon_csv_with_decimal_commas(inv, gwp_set, variant):
    _check(CSV_CP1252, inv, gwp_set, variant)


@SETTINGS
@given(inv=GWP_VIEWS.inventories, gwp_set=gwp_sets, variant=GWP_VIEWS.variants)
def test_sheets_that_are_views_of_the_same_data(inv, gwp_set, variant):
    _check(GWP_VIEWS, inv, gwp_set, variant)


@SETTINGS
@given(inv=UNIT_COLUMN.inventories, gwp_set=gwp_sets)
def test_the_unit_stated_only_in_a_unit_column(inv, gwp_set):
    _check(UNIT_COLUMN, inv, gwp_set, {})


@SETTINGS
@given(inv=LABEL_HEADER.inventories, gwp_set=gwp_sets)
def test_the_unit_stated_only_in_the_label_column_header(inv, gwp_set):
    _check(LABEL_HEADER, inv, gwp_set, {})


@SETTINGS
@given(rows=ACTIVITY_MONTHS.inventories, gwp_set=gwp_sets)
def test_months_of_litres_beside_per_gas_emissions(rows, gwp_set):
    _check(ACTIVITY_MONTHS, rows, gwp_set, {})


@SETTINGS
@given(rows=RECHARGES.inventories, gwp_set=gwp_sets)
def test_refrigerant_recharges_in_kg_per_gas(rows, gwp_set):
    _check(RECHARGES, rows, gwp_set, {})


@SETTINGS
@given(inv=TOTAL_NAMES.inventories, gwp_set=gwp_sets)
def test_facilities_named_total_are_data_rows(inv, gwp_set):
    _check(TOTAL_NAMES, inv, gwp_set, {})


# --------------------------------------------------------------------------------------------
# Units are proven, not picked: a corrupted column and a missing unit are never "reconciled"
# --------------------------------------------------------------------------------------------


def _status(layout: Layout, inv: Any, gwp_set: str, variant: dict) -> str:
    from engine.inventory import load_inventory

    rendered, filename = layout.render(inv, gwp_set, variant)
    return load_inventory(rendered, filename=filename, gwp_set=gwp_set).status


def _detectable(layout: Layout, inv: Any, gwp_set: str, column: str) -> bool:
    """Whether x 1,000 on ``column`` moves some check beyond a workbook's rounding (0.5%): a
    total column sums gases whose CO2e may differ by 10^6, so scaling a negligible gas may hide
    inside the total's rounding. Subtotal rows, parent codes and GWP views check gas by gas."""
    if layout not in (WIDE_CO2E, UNIT_COLUMN, TOTAL_NAMES):
        return True
    for year, source in inv.source_years():
        parts = {g: inv.mass(source, g, year) for g in inv.gases}
        co2e = {g: m * lg.gwp(g, gwp_set) for g, m in parts.items() if m is not None}
        if column in co2e and 999 * co2e[column] > Decimal("0.02") * sum(co2e.values()):
            return True
    return False


@pytest.mark.parametrize("layout", LAYOUTS, ids=lambda layout: layout.name)
@SETTINGS
@given(data=st.data())
def test_one_column_scaled_by_1000_under_its_stated_unit_is_never_reconciled(layout, data):
    """A checked layout turns "conflict", and so does one whose activity data makes the
    scaled figure physically impossible (1,000 times the CO2 of its litres); one without
    either cannot tell, and stays what it was ("unverified"), never green."""
    inv = data.draw(layout.inventories, label="inv")
    gwp_set = data.draw(gwp_sets, label="gwp_set")
    variant = data.draw(layout.variants, label="variant")
    column = data.draw(st.sampled_from(layout.columns(inv)), label="scale_column")
    detects = layout.checked or layout.plausibility
    if detects:
        assume(_detectable(layout, inv, gwp_set, column))
    status = _status(layout, inv, gwp_set, {**variant, "scale_column": column})
    assert status != "reconciled", layout.name
    assert status == ("conflict" if detects else layout.status), layout.name


@pytest.mark.parametrize("layout", LAYOUTS, ids=lambda layout: layout.name)
@SETTINGS
@given(data=st.data())
def test_without_any_statement_of_the_unit_a_sheet_is_ambiguous(layout, data):
    """Header units, units row, unit column, group and title text, the label column's header:
    all removed. Then the sheet is "ambiguous" (the user chooses), unless its rows carry
    activity data whose implied factors prove the unit (litres beside tonnes of CO2), in which
    case it reads as if the unit were stated."""
    inv = data.draw(layout.inventories, label="inv")
    gwp_set = data.draw(gwp_sets, label="gwp_set")
    variant = data.draw(layout.variants, label="variant")
    stripped = {**variant, "strip_units": True}
    if layout.plausibility:
        _check(layout, inv, gwp_set, stripped)
        return
    status = _status(layout, inv, gwp_set, stripped)
    assert status == "ambiguous", f"{layout.name}: {status}"


_UNIT_TOKEN = re.compile(
    r"\((?:t|kg|Gg|t CO2e)\)|\[(?:t|kg|Gg)\]| em (?:t|kg|Gg)$|Units?\b|^(?:t|kg|Gg|t CO2e)$"
)


@pytest.mark.parametrize(
    "layout", [x for x in LAYOUTS if not x.plausibility], ids=lambda layout: layout.name
)
@SETTINGS
@given(data=st.data())
def test_generator_strip_units_leaves_no_statement_of_a_unit(layout, data):
    inv = data.draw(layout.inventories, label="inv")
    variant = data.draw(layout.variants, label="variant")
    rendered, filename = layout.render(inv, data.draw(gwp_sets), {**variant, "strip_units": True})
    for name, grid in _sheets(rendered, filename).items():
        for row in grid:
            for cell in row:
                if isinstance(cell, str):
                    assert not _UNIT_TOKEN.search(cell), (name, cell)
