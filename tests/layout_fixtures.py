"""Hand-built workbooks in the layouts real GHG files use, with totals computed independently.

Each public builder returns ``(bytes, filename, Expected)``. The ``Expected`` numbers come from
the very source numbers the builder wrote, with exact ``Decimal`` arithmetic and GWPs read
straight from the ``globalwarmingpotentials`` package (AR5 = column ``AR5GWP100``, AR6 CH4 =
27.9). Nothing here imports the ingestion engine: the fixtures describe inputs, never the code
under test. ``self_check()`` re-reads every file that was written (openpyxl / csv only) and
recomputes the totals a second way, so a wrong fixture fails on its own.

Layouts (what each one makes an ingestion engine handle is in ``Expected.layout``):

- ``brazil_program_results``: Programa Brasileiro GHG Protocol style corporate workbook.
- ``gpc_city_export``: GPC (Global Protocol for Community-Scale GHG Inventories) city export.
- ``national_inventory`` / ``national_inventory_without_ar5``: MCTI "Estimativas Anuais" /
  UNFCCC summary style, years across columns, hierarchical IPCC codes, Gg.
- ``facility_regulatory_summary``: US EPA GHGRP "Direct Emitters" style facility sheet.
- ``cp1252_semicolon_csv``: Windows-1252, ``;``-separated CSV with decimal commas.
- ``contradicting_total_row``: a workbook whose stated Total disagrees with its rows.
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cache

import openpyxl
from openpyxl.styles import Alignment, Font
from openpyxl.worksheet.worksheet import Worksheet

D = Decimal
ZERO = D(0)

# --------------------------------------------------------------------------------------------
# GWPs: straight from the globalwarmingpotentials package (never from the engine)
# --------------------------------------------------------------------------------------------

_GWP_COLUMNS = {"SAR": "SARGWP100", "AR4": "AR4GWP100", "AR5": "AR5GWP100", "AR6": "AR6GWP100"}

#: Refrigerant blends as mass fractions (ASHRAE 34 compositions), components as the package
#: names them.
BLENDS: dict[str, dict[str, Decimal]] = {
    "R-410A": {"HFC32": D("0.5"), "HFC125": D("0.5")},
    "R-404A": {"HFC125": D("0.44"), "HFC143a": D("0.52"), "HFC134a": D("0.04")},
}

#: How the gases written in the fixtures are named in the engine's canonical table.
CANONICAL: dict[str, str] = {
    "CO2": "CO2",
    "CH4": "CH4",
    "N2O": "N2O",
    "SF6": "SF6",
    "HFC-134a": "HFC134a",
    "R-410A": "R-410A",
    "R-404A": "R-404A",
    "R-22": "HCFC22",
}

#: Facility summaries report "HFC emissions" already in t CO2e without naming the species.
#: The name the table gives such a mixed-HFC column is an engine decision; this is the one
#: these fixtures expect (change it here if the engine settles on another).
GENERIC_HFC = "HFCs"

#: Gases controlled by the Montreal Protocol: memo items, never in an inventory total.
MONTREAL = frozenset({"R-22"})


@cache
def _gwp_frame():
    import globalwarmingpotentials

    return globalwarmingpotentials.as_frame()


def gwp(gas: str, gwp_set: str = "AR5") -> Decimal:
    """100-year GWP of a gas as written in a fixture ("CO2", "HFC-134a", "R-410A", "R-22")."""
    if gas == "CO2":
        return D(1)
    if gas in BLENDS:
        return sum((share * gwp(part, gwp_set) for part, share in BLENDS[gas].items()), ZERO)
    species = {"R-22": "HCFC22"}.get(gas, gas.replace("-", ""))
    return D(str(float(_gwp_frame().loc[species, _GWP_COLUMNS[gwp_set]])))


def _f(value: Decimal) -> float:
    return float(value)


def _floats(mapping: dict[str, Decimal]) -> dict[str, float]:
    return {key: float(value) for key, value in mapping.items() if value != 0}


# --------------------------------------------------------------------------------------------
# What a correct ingestion must find
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Expected:
    """What a correct ingestion must report for one fixture, derived from what was written."""

    #: What the layout makes the engine handle (header rows, units, subtotals, traps).
    layout: str
    #: Headline total: latest year, location-based Scope 2, no biogenic CO2, no Montreal gases.
    total_tco2e: float
    #: t CO2e per canonical gas name over the headline rows (gases adding nothing omitted),
    #: or None when the file gives no gas split (t CO2e only).
    gases: dict[str, float] | None
    #: t CO2e per scope ("1"/"2"/"3"), or None when the file carries no scope at all.
    scopes: dict[str, float] | None = None
    biogenic_co2_t: float = 0.0
    montreal_tco2e: float = 0.0
    #: Location-based Scope 2, or None when not checked for this layout.
    scope2_location_tco2e: float | None = None
    #: Market-based Scope 2; None means the file has none (the engine must say None too).
    scope2_market_tco2e: float | None = None
    year: str | None = None
    years: tuple[str, ...] = ()
    #: t CO2e per year (all years), for layouts with years across columns.
    by_year: dict[str, float] = field(default_factory=dict)
    #: SheetCheck.status per sheet that holds emissions.
    sheet_status: dict[str, str] = field(default_factory=dict)
    #: Inventory.status.
    status: str = "reconciled"
    #: sheet -> (stated_tco2e, computed_tco2e) for sheets in conflict.
    conflicts: dict[str, tuple[float, float]] = field(default_factory=dict)
    #: Column as written -> the numbers written in it (must be numeric in inventory.table).
    numeric_columns: dict[str, tuple[float, ...]] = field(default_factory=dict)
    gwp_set: str = "AR5"
    #: For files that cannot be read in ``gwp_set``: sheets the error message must name.
    sheets_named_in_error: tuple[str, ...] = ()


Built = tuple[bytes, str, Expected]


class _Tally:
    """Exact running totals of t CO2e by scope and by gas, plus memo items."""

    def __init__(self) -> None:
        self.scopes: dict[str, Decimal] = defaultdict(lambda: ZERO)
        self.gases: dict[str, Decimal] = defaultdict(lambda: ZERO)
        self.biogenic_co2 = ZERO
        self.montreal = ZERO

    def add(self, scope: str | None, gas: str, tco2e: Decimal) -> None:
        if scope is not None:
            self.scopes[scope] += tco2e
        self.gases[CANONICAL.get(gas, gas)] += tco2e

    @property
    def total(self) -> Decimal:
        return sum(self.gases.values(), ZERO)


def _save(workbook: openpyxl.Workbook) -> bytes:
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def _title(ws: Worksheet, row: int, text: str, last_column: int, *, bold: bool = True) -> None:
    ws.cell(row=row, column=1, value=text).font = Font(bold=bold)
    ws.merge_cells(start_row=row, start_column=1, end_row=row, end_column=last_column)


def _number(value: Decimal | str | None) -> float | str | None:
    """A cell value: Decimal -> float, notation keys / error codes stay text."""
    if isinstance(value, Decimal):
        return float(value)
    return value


def _sum(values: Iterable[Decimal | str | None]) -> Decimal:
    return sum((v for v in values if isinstance(v, Decimal)), ZERO)


# --------------------------------------------------------------------------------------------
# a. Programa Brasileiro GHG Protocol style corporate workbook
# --------------------------------------------------------------------------------------------

_FOSSIL = "Emissões fósseis (t)"
_BIOGENIC = "Emissões biogênicas (t)"
_TOTAL_CO2E = "Emissões totais (t CO2e)"
_GASES = ("CO2", "CH4", "N2O")

# (unidade, fonte, combustível, quantidade, unidade de medida,
#  fóssil CO2, CH4, N2O, biogênico CO2, CH4, N2O)   None = blank cell, "#N/A" = error cell
_Combustion = tuple[str | None, ...]

_STATIONARY: list[_Combustion] = [
    ("Fábrica Campinas", "Caldeira 1", "Gás natural", "1250000", "m³",
     "2487.5000", "0.0445", "0.0045", None, None, None),
    ("Fábrica Campinas", "Gerador de emergência", "Óleo diesel (B12)", "45000", "litros",
     "103.0788", "0.0042", "0.0008", "13.1274", "0.0005", "0.0001"),
    ("Fábrica Recife", "Forno de secagem", "Lenha", "850", "t",
     None, None, None, "1485.1200", "0.3978", "0.0530"),
    ("Fábrica Recife", "Caldeira 2", "GLP", "#N/A", "t",
     "358.2000", "0.0057", "0.0006", None, None, None),
]  # fmt: skip

_MOBILE: list[_Combustion] = [
    ("Frota própria", "Caminhões", "Óleo diesel (B12)", "180000", "litros",
     "412.3968", "0.0236", "0.0213", "52.5096", "0.0032", "0.0029"),
    ("Frota própria", "Carros flex", "Gasolina C (E27)", "35000", "#N/A",
     "58.8910", "0.0207", "0.0068", "15.3020", "0.0062", "0.0005"),
    ("Frota própria", "Carros flex", "Etanol hidratado", "22000", "litros",
     None, None, None, "32.7800", "0.0081", "0.0004"),
    ("Centro de distribuição", "Empilhadeiras", "GLP", "9.5", "t",
     "28.3575", "0.0045", "0.0001", None, None, None),
]  # fmt: skip

_WASTE: list[_Combustion] = [
    ("Fábrica Campinas", "ETE própria (anaeróbia)", "Efluente industrial", "48000", "m³",
     None, None, None, None, "2.3500", "0.0120"),
    ("Fábrica Recife", "Compostagem", "Resíduos orgânicos", "620", "t",
     None, None, None, "18.4000", "0.4800", "0.0360"),
    ("Fábrica Recife", "Aterro próprio", "Resíduos orgânicos", "1400", "t",
     None, None, None, None, "4.1000", None),
    ("Fábrica Campinas", "Incineração", "Resíduos plásticos", "#N/A", "t",
     "12.6000", "0.0001", "0.0021", None, None, None),
]  # fmt: skip

# (unidade, equipamento, gás, emissão em t do gás)
_FUGITIVE = [
    ("Fábrica Campinas", "Chiller central", "HFC-134a", "0.0850"),
    ("Escritório São Paulo", "Splits", "R-410A", "0.0240"),
    ("Subestação Campinas", "Disjuntores", "SF6", "0.0012"),
    ("Fábrica Recife", "Câmara fria antiga", "R-22", "0.0450"),
]

# (unidade, MWh, fator t CO2/MWh)
_ELECTRICITY_LOCATION = [
    ("Fábrica Campinas", "8450", "0.0385"),
    ("Fábrica Recife", "5120", "0.0385"),
    ("Escritório São Paulo", "380", "0.0385"),
]
_ELECTRICITY_MARKET = [
    ("Fábrica Campinas", "8450", "0"),  # I-REC renováveis
    ("Fábrica Recife", "5120", "0.0611"),
    ("Escritório São Paulo", "380", "0.0385"),
]

_INTRO = [
    "Inventário de emissões de gases de efeito estufa",
    "Elaborado conforme as Especificações do Programa Brasileiro GHG Protocol.",
    "Cada aba traz uma categoria de fonte; as emissões estão em toneladas de cada gás e em "
    "toneladas de CO2 equivalente (GWP de 100 anos do AR5 do IPCC).",
    "As emissões de CO2 de origem biogênica são relatadas à parte e não entram nos escopos; "
    "CH4 e N2O da queima de biomassa entram no escopo correspondente.",
    "O Escopo 2 é contabilizado pela abordagem baseada na localização; a abordagem de escolha "
    "de compra é relatada à parte.",
    "Gases controlados pelo Protocolo de Montreal (ex.: R-22) não entram no total do inventário.",
]


def _combustion_tco2e(row: _Combustion, gwp_set: str) -> Decimal:
    f_co2, f_ch4, f_n2o, _b_co2, b_ch4, b_n2o = (D(v) if v else ZERO for v in row[5:])
    return f_co2 + (f_ch4 + b_ch4) * gwp("CH4", gwp_set) + (f_n2o + b_n2o) * gwp("N2O", gwp_set)


def _two_row_header(
    ws: Worksheet,
    top: int,
    singles: Sequence[str],
    groups: Sequence[tuple[str, Sequence[str]]],
    trailing: Sequence[str],
) -> int:
    """Write a two-row merged header at ``top``; return the number of columns."""
    column = 1
    for name in singles:
        ws.cell(row=top, column=column, value=name)
        ws.merge_cells(start_row=top, start_column=column, end_row=top + 1, end_column=column)
        column += 1
    for name, subs in groups:
        ws.cell(row=top, column=column, value=name)
        if len(subs) > 1:
            ws.merge_cells(
                start_row=top, start_column=column, end_row=top, end_column=column + len(subs) - 1
            )
        for offset, sub in enumerate(subs):
            ws.cell(row=top + 1, column=column + offset, value=sub)
        column += len(subs)
    for name in trailing:
        ws.cell(row=top, column=column, value=name)
        ws.merge_cells(start_row=top, start_column=column, end_row=top + 1, end_column=column)
        column += 1
    for row in ws.iter_rows(min_row=top, max_row=top + 1):
        for cell in row:
            cell.font = Font(bold=True)
            cell.alignment = Alignment(horizontal="center", wrap_text=True)
    return column - 1


def _combustion_sheet(
    wb: openpyxl.Workbook,
    name: str,
    *,
    title: str,
    singles: Sequence[str],
    rows: Sequence[_Combustion],
    gwp_set: str,
    subtotals: bool,
) -> None:
    ws = wb.create_sheet(name)
    width = len(singles) + 7
    _title(ws, 1, title, width)
    _title(ws, 2, "Programa Brasileiro GHG Protocol — resultados por fonte", width, bold=False)
    _two_row_header(ws, 4, singles, [(_FOSSIL, _GASES), (_BIOGENIC, _GASES)], [_TOTAL_CO2E])
    at = 6

    def write(values: Sequence[object]) -> None:
        nonlocal at
        for column, value in enumerate(values, start=1):
            if value is not None:
                ws.cell(row=at, column=column, value=value)
        at += 1

    def sums(chunk: Sequence[_Combustion]) -> list[object]:
        gases = [_sum(D(r[i]) if r[i] else None for r in chunk) for i in range(5, 11)]
        total = sum((_combustion_tco2e(r, gwp_set) for r in chunk), ZERO)
        return [float(v) for v in gases] + [float(total)]

    groups: dict[str, list[_Combustion]] = {}
    for row in rows:
        groups.setdefault(row[0], []).append(row)
    for facility, chunk in groups.items():
        for row in chunk:
            quantity = row[3] if row[3] == "#N/A" else float(D(row[3]))
            gases = [float(D(v)) if v else None for v in row[5:]]
            write([row[0], row[1], row[2], quantity, row[4], *gases,
                   float(_combustion_tco2e(row, gwp_set))])  # fmt: skip
        if subtotals:
            write([f"Subtotal — {facility}", None, None, None, None, *sums(chunk)])
    at += 1
    write(["Total", None, None, None, None, *sums(rows)])


def _fugitive_sheet(wb: openpyxl.Workbook, gwp_set: str) -> None:
    ws = wb.create_sheet("Emissões fugitivas")
    _title(ws, 1, "Emissões fugitivas — refrigeração, ar-condicionado e equipamentos", 5)
    _title(ws, 2, "Programa Brasileiro GHG Protocol — resultados por fonte", 5, bold=False)
    _two_row_header(
        ws, 4, ["Unidade", "Equipamento", "Gás ou composto"], [("Emissões", ("t", "t CO2e"))], []
    )
    at = 6
    kyoto = ZERO
    for facility, equipment, gas, tonnes in _FUGITIVE:
        tco2e = D(tonnes) * gwp(gas, gwp_set)
        for column, value in enumerate(
            [facility, equipment, gas, float(D(tonnes)), float(tco2e)], start=1
        ):
            ws.cell(row=at, column=column, value=value)
        if gas not in MONTREAL:
            kyoto += tco2e
        at += 1
    at += 1
    ws.cell(row=at, column=1, value="Total")
    ws.cell(row=at, column=5, value=float(kyoto))
    ws.cell(
        row=at + 2,
        column=1,
        value="* R-22 (HCFC-22) é gás controlado pelo Protocolo de Montreal: relatado à parte, "
        "fora do total do inventário.",
    )


def _electricity_sheet(
    wb: openpyxl.Workbook, name: str, title: str, factor_label: str, rows: Sequence[tuple]
) -> None:
    ws = wb.create_sheet(name)
    _title(ws, 1, title, 5)
    _title(ws, 2, "Programa Brasileiro GHG Protocol — Escopo 2", 5, bold=False)
    _two_row_header(
        ws,
        4,
        ["Unidade"],
        [("Consumo", ("Energia elétrica (MWh)", factor_label)), ("Emissões (t)", ("CO2",))],
        [_TOTAL_CO2E],
    )
    at = 6
    total = ZERO
    for facility, mwh, factor in rows:
        co2 = D(mwh) * D(factor)
        total += co2
        for column, value in enumerate(
            [facility, float(D(mwh)), float(D(factor)), float(co2), float(co2)], start=1
        ):
            ws.cell(row=at, column=column, value=value)
        at += 1
    at += 1
    ws.cell(row=at, column=1, value="Total")
    ws.cell(row=at, column=4, value=float(total))
    ws.cell(row=at, column=5, value=float(total))


_PROGRAM_SHEETS = {
    "stationary": "Combustão estacionária",
    "mobile": "Combustão móvel",
    "fugitive": "Emissões fugitivas",
    "location": "Eletricidade (localização)",
    "market": "Eletr. escolha de compra",
    "waste": "Resíduos e efluentes líquidos",
}


def brazil_program_results(gwp_set: str = "AR5") -> Built:
    """A corporate inventory as the Brazilian GHG Protocol Program tool lays it out."""
    wb = openpyxl.Workbook()
    intro = wb.active
    intro.title = "Introdução"
    for row, text in enumerate(_INTRO, start=1):
        intro.cell(row=row, column=1, value=text)
    _combustion_sheet(
        wb, _PROGRAM_SHEETS["stationary"], title="Combustão estacionária",
        singles=["Unidade", "Fonte de emissão", "Combustível", "Quantidade consumida",
                 "Unidade de medida"],
        rows=_STATIONARY, gwp_set=gwp_set, subtotals=True,
    )  # fmt: skip
    _combustion_sheet(
        wb, _PROGRAM_SHEETS["mobile"], title="Combustão móvel",
        singles=["Unidade", "Frota / tipo de veículo", "Combustível", "Consumo",
                 "Unidade de medida"],
        rows=_MOBILE, gwp_set=gwp_set, subtotals=False,
    )  # fmt: skip
    _fugitive_sheet(wb, gwp_set)
    _electricity_sheet(
        wb, _PROGRAM_SHEETS["location"],
        "Eletricidade — abordagem baseada na localização (location-based)",
        "Fator de emissão médio do SIN (t CO2/MWh)", _ELECTRICITY_LOCATION,
    )  # fmt: skip
    _electricity_sheet(
        wb, _PROGRAM_SHEETS["market"],
        "Eletricidade — abordagem de escolha de compra (market-based)",
        "Fator de emissão do fornecimento contratado (t CO2/MWh)", _ELECTRICITY_MARKET,
    )  # fmt: skip
    _combustion_sheet(
        wb, _PROGRAM_SHEETS["waste"],
        title="Resíduos sólidos e efluentes líquidos (tratamento próprio)",
        singles=["Unidade", "Tipo de tratamento", "Resíduo ou efluente", "Quantidade",
                 "Unidade de medida"],
        rows=_WASTE, gwp_set=gwp_set, subtotals=False,
    )  # fmt: skip

    tally = _Tally()
    for rows in (_STATIONARY, _MOBILE, _WASTE):
        for row in rows:
            f_co2, f_ch4, f_n2o, b_co2, b_ch4, b_n2o = (D(v) if v else ZERO for v in row[5:])
            tally.add("1", "CO2", f_co2)
            tally.add("1", "CH4", (f_ch4 + b_ch4) * gwp("CH4", gwp_set))
            tally.add("1", "N2O", (f_n2o + b_n2o) * gwp("N2O", gwp_set))
            tally.biogenic_co2 += b_co2
    for _facility, _equipment, gas, tonnes in _FUGITIVE:
        tco2e = D(tonnes) * gwp(gas, gwp_set)
        if gas in MONTREAL:
            tally.montreal += tco2e
        else:
            tally.add("1", gas, tco2e)
    location = sum((D(mwh) * D(f) for _u, mwh, f in _ELECTRICITY_LOCATION), ZERO)
    market = sum((D(mwh) * D(f) for _u, mwh, f in _ELECTRICITY_MARKET), ZERO)
    tally.add("2", "CO2", location)

    expected = Expected(
        layout=(
            "Intro prose sheet without a table. Data sheets: title row 1 and subtitle row 2 "
            "(merged across), blank row 3, TWO-ROW MERGED header in rows 4-5: identification "
            "columns merged vertically, groups 'Emissões fósseis (t)' and 'Emissões biogênicas "
            "(t)' merged over CO2/CH4/N2O sub-columns (so two columns are named 'CO2' on row 5), "
            "and 'Emissões totais (t CO2e)' merged vertically (= fossil CO2 + all CH4/N2O x GWP, "
            "biogenic CO2 excluded: the breakdown must not be added to it). Data from row 6. "
            "'Combustão estacionária' has a 'Subtotal — <unidade>' row after each facility; "
            "every data sheet ends with a blank row and a 'Total' row (never data). #N/A error "
            "cells in 'Quantidade consumida' (Fábrica Recife GLP), 'Unidade de medida' "
            "(Gasolina C) and 'Quantidade' (incineração). 'Emissões fugitivas' has the gas per "
            "row and a group 'Emissões' over 't' / 't CO2e'; its R-22 row is a Montreal memo "
            "left out of the sheet's Total, explained by a footnote row. Electricity sheets: "
            "group 'Consumo' over MWh and the factor, group 'Emissões (t)' over CO2, plus "
            "'Emissões totais (t CO2e)' (same number as CO2). Scope 2 = location sheet only; "
            "'Eletr. escolha de compra' is market-based, reported beside. Waste CH4/N2O sit "
            "under the biogenic group and count in Scope 1 at full GWP."
        ),
        total_tco2e=_f(tally.total),
        gases=_floats(tally.gases),
        scopes=_floats(tally.scopes),
        biogenic_co2_t=_f(tally.biogenic_co2),
        montreal_tco2e=_f(tally.montreal),
        scope2_location_tco2e=_f(location),
        scope2_market_tco2e=_f(market),
        year=None,
        sheet_status=dict.fromkeys(_PROGRAM_SHEETS.values(), "reconciled"),
        status="reconciled",
        gwp_set=gwp_set,
    )
    return _save(wb), "inventario_programa_ghg.xlsx", expected


# --------------------------------------------------------------------------------------------
# b. GPC city inventory export
# --------------------------------------------------------------------------------------------

# GWP set: the GPC (WRI/C40/ICLEI 2014, v1.1 2021) reports each gas in mass and the total in
# CO2e with 100-year IPCC GWPs, the assessment report used being stated with the inventory.
# These exports use AR5 (the xlsx variant states it in its note row). Per-gas masses are kg.
GPC_GWP_SET = "AR5"

# (GPC ref, sector, sub-sector, scope (from the GPC reference table), CO2 kg, CH4 kg, N2O kg)
# A notation key replaces a number where there is none: NO not occurring, IE included
# elsewhere, NE not estimated, NA not applicable, C confidential.
_GPC_ROWS: list[tuple[str, str, str, str, str, str, str]] = [
    ("I.1.1", "Stationary Energy", "Residential buildings", "1", "48250000", "4820", "96"),
    ("I.1.2", "Stationary Energy", "Residential buildings", "2", "31600000", "2150", "410"),
    ("I.1.3", "Stationary Energy", "Residential buildings", "3", "2370000", "160", "30"),
    ("I.2.1", "Stationary Energy", "Commercial and institutional buildings and facilities",
     "1", "21800000", "1950", "42"),
    ("I.2.2", "Stationary Energy", "Commercial and institutional buildings and facilities",
     "2", "27400000", "1870", "355"),
    ("I.3.1", "Stationary Energy", "Manufacturing industries and construction", "1",
     "C", "C", "C"),
    ("I.4.1", "Stationary Energy", "Energy industries", "1", "NO", "NO", "NO"),
    ("I.5.1", "Stationary Energy", "Agriculture, forestry and fishing activities", "1",
     "NE", "NE", "NE"),
    ("I.8.1", "Stationary Energy", "Fugitive emissions from oil and natural gas systems", "1",
     "NE", "312000", "NA"),
    ("II.1.1", "Transportation", "On-road transportation", "1", "96400000", "8900", "4100"),
    ("II.1.2", "Transportation", "On-road transportation", "2", "1250000", "90", "20"),
    ("II.2.1", "Transportation", "Railways", "1", "IE", "IE", "IE"),
    ("II.4.1", "Transportation", "Aviation", "1", "NO", "NO", "NO"),
    ("III.1.1", "Waste", "Solid waste disposal", "1", "NA", "1845000", "NA"),
    ("III.1.2", "Waste", "Solid waste disposal", "3", "NA", "412000", "NA"),
    ("III.4.1", "Waste", "Wastewater treatment and discharge", "1", "NA", "96500", "7800"),
    ("IV.1", "Industrial Processes and Product Use", "Industrial processes", "1",
     "5600000", "NO", "NO"),
    ("V.1", "Agriculture, Forestry and Other Land Use", "Livestock", "1",
     "NA", "212000", "1250"),
    ("V.2", "Agriculture, Forestry and Other Land Use", "Land", "1", "-18500000", "NO", "NO"),
    ("V.3", "Agriculture, Forestry and Other Land Use",
     "Aggregate sources and non-CO2 emission sources on land", "1", "820000", "NO", "3400"),
]  # fmt: skip

_NOTATION_KEYS = frozenset({"NO", "IE", "NE", "NA", "C"})


def _kg(value: str) -> Decimal | str:
    return value if value in _NOTATION_KEYS else D(value)


def _gpc_row_tco2e(co2: str, ch4: str, n2o: str) -> Decimal | str:
    masses = {"CO2": _kg(co2), "CH4": _kg(ch4), "N2O": _kg(n2o)}
    numbers = {g: m for g, m in masses.items() if isinstance(m, Decimal)}
    if not numbers:
        keys = set(masses.values())
        return keys.pop() if len(keys) == 1 else "NE"
    return sum((kg / 1000 * gwp(g, GPC_GWP_SET) for g, kg in numbers.items()), ZERO)


def _plain(value: Decimal | str) -> str:
    """A number as a plain CSV string ('48250', '-18500', '134.96'); keys stay as they are."""
    if isinstance(value, str):
        return value
    return format(value.normalize(), "f")


def gpc_city_export(units: str = "header") -> Built:
    """A GPC city inventory export: per-gas kg, total t CO2e, notation keys, a removal row.

    ``units="header"``: a CSV whose headers carry the unit ("CO2 (kg)").
    ``units="row"``: an xlsx with title rows, a header row, a units row below it ("kg",
    "tCO2e") and a final "Total" row.
    """
    if units not in ("header", "row"):
        raise ValueError("units must be 'header' or 'row'")
    tally = _Tally()
    rows_out = []
    for ref, sector, subsector, scope, co2, ch4, n2o in _GPC_ROWS:
        for gas, value in (("CO2", co2), ("CH4", ch4), ("N2O", n2o)):
            kg = _kg(value)
            if isinstance(kg, Decimal):
                tally.add(scope, gas, kg / 1000 * gwp(gas, GPC_GWP_SET))
        rows_out.append(
            (ref, sector, subsector, _kg(co2), _kg(ch4), _kg(n2o), _gpc_row_tco2e(co2, ch4, n2o))
        )

    if units == "header":
        name = "gpc_city_inventory.csv"
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\r\n")
        writer.writerow(["GPC Reference Number", "Sector", "Sub-sector", "CO2 (kg)", "CH4 (kg)",
                         "N2O (kg)", "Total Emissions (tCO2e)"])  # fmt: skip
        for row in rows_out:
            writer.writerow([*row[:3], *(_plain(v) for v in row[3:])])
        data = buffer.getvalue().encode("utf-8")
        sheet = name
        layout = (
            "UTF-8 CSV, ',' separated, header in row 1, one row per GPC reference number "
            "(I.1.1 ... V.3). Units are in the header: 'CO2 (kg)', 'CH4 (kg)', 'N2O (kg)' are "
            "kilograms of each gas; 'Total Emissions (tCO2e)' is tonnes CO2e (AR5) and equals "
            "sum(kg/1000 x GWP) of the row: never add it to the gas columns. Notation keys "
            "(NO, IE, NE, NA, C) replace numbers in gas and total cells; I.8.1 mixes keys and "
            "a number. V.2 (Land) is a removal: negative CO2 and a negative total. Scope comes "
            "from the reference number (I/II x.y.1 -> 1, x.y.2 -> 2, I/II x.y.3 -> 3, "
            "III x.y.2 -> 3, IV and V -> 1). No subtotal rows."
        )
    else:
        name = "gpc_city_inventory.xlsx"
        sheet = "GPC BASIC+"
        wb = openpyxl.Workbook()
        ws = wb.active
        ws.title = sheet
        _title(ws, 1, "City of Exampleville — GPC BASIC+ community GHG inventory", 7)
        _title(
            ws, 2,
            "Emissions of each gas in kilograms; total in tonnes CO2e (IPCC AR5, 100-year GWP)",
            7, bold=False,
        )  # fmt: skip
        for column, value in enumerate(
            ["GPC ref. no.", "Sector", "Sub-sector", "CO2", "CH4", "N2O", "Total Emissions"], 1
        ):
            ws.cell(row=4, column=column, value=value).font = Font(bold=True)
        for column, value in enumerate(["kg", "kg", "kg", "tCO2e"], start=4):
            ws.cell(row=5, column=column, value=value)
        at = 6
        for row in rows_out:
            for column, value in enumerate(row, start=1):
                ws.cell(row=at, column=column, value=_number(value))
            at += 1
        at += 1
        ws.cell(row=at, column=1, value="Total")
        for column in range(4, 8):
            ws.cell(row=at, column=column, value=float(_sum(r[column - 1] for r in rows_out)))
        data = _save(wb)
        layout = (
            "xlsx, sheet 'GPC BASIC+': title row 1, note row 2 (states kg and AR5), blank row 3, "
            "header row 4 ('GPC ref. no.', 'Sector', 'Sub-sector', 'CO2', 'CH4', 'N2O', 'Total "
            "Emissions') with the UNITS IN ROW 5 below it ('kg' x3, 'tCO2e'). Data rows 6..25, "
            "blank row, then a 'Total' row (sums of every column: never data). Same content, "
            "notation keys, negative V.2 removal and scope rules as the CSV variant."
        )

    expected = Expected(
        layout=layout,
        total_tco2e=_f(tally.total),
        gases=_floats(tally.gases),
        scopes=_floats(tally.scopes),
        year=None,
        sheet_status={sheet: "reconciled"},
        status="reconciled",
        gwp_set=GPC_GWP_SET,
    )
    return data, name, expected


# --------------------------------------------------------------------------------------------
# c. National inventory summary (MCTI "Estimativas Anuais" / UNFCCC CRF summary style)
# --------------------------------------------------------------------------------------------

NATIONAL_YEARS = ("1990", "2000", "2005", "2010", "2015", "2020")

# code -> name; a code is a parent when another code starts with it plus "."
_NATIONAL_TREE = [
    ("1", "Energia"),
    ("1.A", "Queima de combustíveis"),
    ("1.A.1", "Indústrias de energia"),
    ("1.A.2", "Indústrias de transformação e construção"),
    ("1.A.3", "Transporte"),
    ("1.A.4", "Outros setores"),
    ("1.B", "Emissões fugitivas"),
    ("1.B.1", "Combustíveis sólidos"),
    ("1.B.2", "Petróleo e gás natural"),
    ("2", "Processos industriais e uso de produtos"),
    ("2.A", "Indústria mineral"),
    ("2.B", "Indústria química"),
    ("2.C", "Indústria metalúrgica"),
    ("3", "Agropecuária"),
    ("3.A", "Fermentação entérica"),
    ("3.B", "Manejo de dejetos animais"),
    ("3.C", "Cultivo de arroz"),
    ("3.D", "Solos agrícolas"),
    ("4", "Uso da terra, mudança do uso da terra e florestas"),
    ("4.A", "Mudança de uso da terra"),
    ("4.B", "Remoções em áreas protegidas"),
    ("5", "Resíduos"),
    ("5.A", "Disposição de resíduos sólidos"),
    ("5.D", "Tratamento de efluentes"),
]

# 2020 leaf values in Gg of each gas; None = notation key in the sheet ("NO"/"NA").
_NATIONAL_2020: dict[str, dict[str, str | None]] = {
    "CO2": {"1.A.1": "62450.125", "1.A.2": "81230.450", "1.A.3": "196870.300",
            "1.A.4": "28410.775", "1.B.1": "1120.040", "1.B.2": "14560.600",
            "2.A": "24310.250", "2.B": "3520.810", "2.C": "44780.330",
            "3.A": None, "3.B": None, "3.C": None, "3.D": "21340.500",
            "4.A": "998420.125", "4.B": "-412300.500", "5.A": None, "5.D": None},
    "CH4": {"1.A.1": "4.310", "1.A.2": "31.250", "1.A.3": "12.870", "1.A.4": "48.120",
            "1.B.1": "18.420", "1.B.2": "95.330", "2.A": None, "2.B": "2.610",
            "2.C": "6.140", "3.A": "12840.450", "3.B": "610.220", "3.C": "402.130",
            "3.D": "38.510", "4.A": "1290.880", "4.B": None, "5.A": "2860.910",
            "5.D": "1010.340"},
    "N2O": {"1.A.1": "0.720", "1.A.2": "3.410", "1.A.3": "9.880", "1.A.4": "1.920",
            "1.B.1": None, "1.B.2": "0.050", "2.A": None, "2.B": "1.340", "2.C": "0.210",
            "3.A": None, "3.B": "31.560", "3.C": None, "3.D": "498.770",
            "4.A": "58.330", "4.B": None, "5.A": None, "5.D": "17.420"},
}  # fmt: skip

# each earlier year = 2020 value x factor (exact decimals, quantized to the Gg-thousandth)
_NATIONAL_TREND = {"1990": "0.62", "2000": "0.78", "2005": "0.91", "2010": "0.97", "2015": "1.04"}
_NATIONAL_KEYS = {"CO2": "NO", "CH4": "NA", "N2O": "NO"}


def _national_leaves() -> dict[str, dict[str, dict[str, Decimal | None]]]:
    """gas -> code -> year -> Gg (None where the sheet shows a notation key)."""
    table: dict[str, dict[str, dict[str, Decimal | None]]] = {}
    for gas, codes in _NATIONAL_2020.items():
        table[gas] = {}
        for code, text in codes.items():
            per_year: dict[str, Decimal | None] = {}
            for year in NATIONAL_YEARS:
                if text is None:
                    per_year[year] = None
                elif year == "2020":
                    per_year[year] = D(text)
                else:
                    per_year[year] = (D(text) * D(_NATIONAL_TREND[year])).quantize(D("0.001"))
            table[gas][code] = per_year
    return table


def _is_parent(code: str) -> bool:
    return any(other.startswith(code + ".") for other, _ in _NATIONAL_TREE)


def _is_child(code: str, parent: str) -> bool:
    return code.startswith(parent + ".") and code.count(".") == parent.count(".") + 1


def _is_leaf(code: object) -> bool:
    return code in dict(_NATIONAL_TREE) and not _is_parent(str(code))


def _node_value(
    values: dict[str, dict[str, Decimal | None]], code: str, year: str
) -> Decimal | None:
    if not _is_parent(code):
        return values[code][year]
    children = [_node_value(values, other, year) for other, _ in _NATIONAL_TREE
                if _is_child(other, code)]  # fmt: skip
    numbers = [c for c in children if c is not None]
    return sum(numbers, ZERO) if numbers else None


def _co2e_values(
    leaves: dict[str, dict[str, dict[str, Decimal | None]]], gwp_set: str
) -> dict[str, dict[str, Decimal | None]]:
    out: dict[str, dict[str, Decimal | None]] = {}
    for code in leaves["CO2"]:
        out[code] = {}
        for year in NATIONAL_YEARS:
            parts = [
                leaves[gas][code][year] * gwp(gas, gwp_set)
                for gas in ("CO2", "CH4", "N2O")
                if leaves[gas][code][year] is not None
            ]
            out[code][year] = sum(parts, ZERO) if parts else None
    return out


def _national_sheet(
    wb: openpyxl.Workbook,
    name: str,
    title: str,
    values: dict[str, dict[str, Decimal | None]],
    notation_key: str,
) -> None:
    ws = wb.create_sheet(name)
    width = 3 + len(NATIONAL_YEARS)
    _title(ws, 1, title, width)
    _title(ws, 2, "Brasil — estimativas anuais por setor (categorias do IPCC)", width, bold=False)
    header = ["Código", "Setor", *(int(y) for y in NATIONAL_YEARS), "Variação 2005–2020 (%)"]
    for column, value in enumerate(header, start=1):
        ws.cell(row=4, column=column, value=value).font = Font(bold=True)
    at = 5
    for code, label in _NATIONAL_TREE:
        ws.cell(row=at, column=1, value=code)
        ws.cell(row=at, column=2, value=("   " * code.count(".")) + label)
        for offset, year in enumerate(NATIONAL_YEARS):
            value = _node_value(values, code, year)
            cell_value = notation_key if value is None else float(value)
            ws.cell(row=at, column=3 + offset, value=cell_value)
        start, end = _node_value(values, code, "2005"), _node_value(values, code, "2020")
        if start and end is not None:
            change = ((end - start) / abs(start) * 100).quantize(D("0.1"))
            ws.cell(row=at, column=3 + len(NATIONAL_YEARS), value=float(change))
        if _is_parent(code):
            for cell in ws[at]:
                cell.font = Font(bold=True)
        at += 1
    ws.cell(row=at, column=2, value="Total")
    for offset, year in enumerate(NATIONAL_YEARS):
        tops = [_node_value(values, c, year) for c, _ in _NATIONAL_TREE if "." not in c]
        ws.cell(row=at, column=3 + offset, value=float(_sum(tops)))
    ws.cell(row=at + 2, column=1, value="NO = não ocorre; NA = não se aplica. Valores em Gg.")


def _national_expected_by_year(gwp_set: str) -> dict[str, Decimal]:
    leaves = _national_leaves()
    totals = {}
    for year in NATIONAL_YEARS:
        totals[year] = sum(
            (
                value * 1000 * gwp(gas, gwp_set)
                for gas, codes in leaves.items()
                for value in (per_year[year] for per_year in codes.values())
                if value is not None
            ),
            ZERO,
        )
    return totals


def national_inventory(gwp_set: str = "AR5") -> Built:
    """Years across columns, hierarchical IPCC codes, Gg; one sheet per gas plus CO2e views."""
    leaves = _national_leaves()
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for gas in ("CO2", "CH4", "N2O"):
        _national_sheet(wb, gas, f"Emissões de {gas} por setor (Gg)", leaves[gas],
                        _NATIONAL_KEYS[gas])  # fmt: skip
    for view in ("AR5", "SAR"):
        _national_sheet(
            wb, f"CO2e (GWP-{view})", f"Emissões em CO2e por setor (Gg CO2e, GWP-{view})",
            _co2e_values(leaves, view), "NO",
        )  # fmt: skip

    headline = NATIONAL_YEARS[-1]
    gases = {
        gas: sum(
            (v[headline] * 1000 * gwp(gas, gwp_set) for v in codes.values() if v[headline]),
            ZERO,
        )
        for gas, codes in leaves.items()
    }
    by_year = _national_expected_by_year(gwp_set)
    expected = Expected(
        layout=(
            "Five sheets, each: title row 1, subtitle row 2, blank row 3, header row 4 "
            "'Código', 'Setor', then YEARS ACROSS COLUMNS as numbers 1990 2000 2005 2010 2015 "
            "2020, then 'Variação 2005–2020 (%)' (a percentage, not emissions, not a year). "
            "Rows 5-28 are coded hierarchically 1, 1.A, 1.A.1 ... 5.D; a code with children "
            "(1, 1.A, 1.B, 2, 3, 4, 5) is the SUM OF ITS CHILDREN (a subtotal: never add it "
            "again); names are indented with spaces. Row 29 'Total' (in the Setor column) = sum "
            "of top-level codes. Values in Gg (x1000 for t). 'CO2', 'CH4', 'N2O' hold Gg of "
            "each gas; 'CO2e (GWP-AR5)' and 'CO2e (GWP-SAR)' hold Gg CO2e of the same data under "
            "two GWP sets: views of the same emissions, never added to the gas sheets or to "
            "each other, never multiplied by a GWP (one view family, one SheetCheck). The "
            "'CO2' sheet is Gg of CO2 (a gas sheet, not a CO2e view, though the numbers are "
            "CO2e too). Notation keys NO/NA in cells; 4.B is a negative CO2 removal. A "
            "footnote row follows."
        ),
        total_tco2e=_f(by_year[headline]),
        gases=_floats(gases),
        scopes=None,
        year=headline,
        years=NATIONAL_YEARS,
        by_year={year: _f(value) for year, value in by_year.items()},
        # The two CO2e sheets are one view family: the contract gives the family a single
        # SheetCheck whose name is the engine's choice, so only the gas sheets are named here;
        # Inventory.status covers the family check.
        sheet_status=dict.fromkeys(("CO2", "CH4", "N2O"), "reconciled"),
        status="reconciled",
        gwp_set=gwp_set,
    )
    return _save(wb), "estimativas_anuais_brasil.xlsx", expected


def national_inventory_without_ar5() -> Built:
    """Only CO2e views in SAR and AR4: unreadable as AR5 (the error must name the sheets)."""
    leaves = _national_leaves()
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    sheets = ("CO2e (GWP-SAR)", "CO2e (GWP-AR4)")
    for view, sheet in zip(("SAR", "AR4"), sheets, strict=True):
        _national_sheet(
            wb, sheet, f"Emissões em CO2e por setor (Gg CO2e, GWP-{view})",
            _co2e_values(leaves, view), "NO",
        )  # fmt: skip
    by_year_ar4 = _national_expected_by_year("AR4")
    expected = Expected(
        layout=(
            "Same sheet layout as national_inventory, but only two CO2e views: "
            "'CO2e (GWP-SAR)' and 'CO2e (GWP-AR4)'; no per-gas sheet and no AR5 view. Read as "
            "AR5 it cannot be converted (CO2e is never multiplied by a GWP), so the engine must "
            "raise an InventoryError naming the sheets it found. Read as AR4 its total is the "
            "AR4 sheet's leaf rows."
        ),
        total_tco2e=_f(by_year_ar4[NATIONAL_YEARS[-1]]),
        gases=None,
        year=NATIONAL_YEARS[-1],
        years=NATIONAL_YEARS,
        by_year={year: _f(value) for year, value in by_year_ar4.items()},
        gwp_set="AR5",
        sheets_named_in_error=sheets,
    )
    return _save(wb), "estimativas_co2e_sar_ar4.xlsx", expected


# --------------------------------------------------------------------------------------------
# d. Facility-level regulatory summary (US EPA GHGRP "Direct Emitters" style)
# --------------------------------------------------------------------------------------------

# Column names as the EPA sheet spells them, trailing spaces included.
_GHGRP_GAS_COLUMNS = {
    "CO2 emissions (non-biogenic) ": "CO2",
    "Methane (CH4) emissions ": "CH4",
    "Nitrous Oxide (N2O) emissions ": "N2O",
    "HFC emissions": GENERIC_HFC,
    "SF6 emissions ": "SF6",
}
_GHGRP_TOTAL = "Total reported direct emissions"
_GHGRP_BIOGENIC = "Biogenic CO2 emissions (metric tons)"

# id, name, state, city, lat, lon, NAICS, subparts, CO2, CH4, N2O, HFC, SF6, biogenic
# (t CO2e except biogenic, which is t CO2; None = blank cell as EPA leaves it)
_GHGRP_ROWS = [
    ("1000112", "Riverbend Generating Station", "OH", "Marietta", "39.4153", "-81.4548",
     "221112", "C,D", "4218733.4", "11890.5", "19240.2", None, None, None),
    ("1001547", "Lakeshore Paper Mill", "WI", "Green Bay", "44.5133", "-88.0133",
     "322121", "AA,C,TT", "201455.8", "3120.25", "2450.1", None, None, "1350210.6"),
    ("1002210", "Tri-County Sanitary Landfill", "TX", "Conroe", "30.3119", "-95.4561",
     "562212", "HH", None, "148220.75", None, None, None, "27411.3"),
    ("1003315", "Gulf Coast Refining Co.", "LA", "Lake Charles", "30.2266", "-93.2174",
     "324110", "C,MM-REF,P,Y", "3890112.6", "4210.5", "5630.8", "1210.4", None, None),
    ("1004480", "Northern Cement Plant", "MI", "Alpena", "45.0617", "-83.4328",
     "327310", "C,H", "1920455.25", "1280.75", "3150.6", None, None, None),
    ("1005621", "Valley Semiconductor Fab 2", "AZ", "Chandler", "33.3062", "-111.8413",
     "334413", "C,I", "48210.3", "22.4", "1810.5", "23410.8", "8120.4", None),
    ("1006702", "Hilltop Compressor Station", "PA", "Waynesburg", "39.8965", "-80.1792",
     "486210", "C,W-TRANS", "88215.6", "35120.2", "45.3", None, None, None),
    ("1007003", "Coalinga Peaker Plant", "CA", "Coalinga", "36.1397", "-120.3602",
     "221112", "D,DD", "0", None, None, None, "0", None),
]  # fmt: skip

_GHGRP_HEADER = [
    "Facility Id", "FRS Id", "Facility Name", "City", "State", "Latitude", "Longitude",
    "Primary NAICS Code", "Industry Type (subparts)", _GHGRP_TOTAL, *_GHGRP_GAS_COLUMNS,
    _GHGRP_BIOGENIC,
]  # fmt: skip


def facility_regulatory_summary() -> Built:
    """A facility sheet where every number is already t CO2e and the total is given."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Direct Emitters"
    ws.cell(row=1, column=1, value="Summary of greenhouse gas emissions reported by direct "
            "emitters, by facility")  # fmt: skip
    ws.cell(row=2, column=1, value="All emissions are in metric tons CO2e")
    ws.cell(row=3, column=1, value="Reported emissions exclude biogenic CO2; biogenic CO2 is "
            "shown in its own column, in metric tons of CO2.")  # fmt: skip
    for column, value in enumerate(_GHGRP_HEADER, start=1):
        ws.cell(row=4, column=column, value=value).font = Font(bold=True)

    tally = _Tally()
    for offset, row in enumerate(_GHGRP_ROWS):
        fid, name, state, city, lat, lon, naics, subparts = row[:8]
        gases = [D(v) if v is not None else None for v in row[8:13]]
        biogenic = D(row[13]) if row[13] is not None else None
        total = _sum(gases)
        values = [int(fid), 110000000000 + int(fid), name, city, state, float(D(lat)),
                  float(D(lon)), int(naics), subparts, float(total), *map(_number, gases),
                  _number(biogenic)]  # fmt: skip
        for column, value in enumerate(values, start=1):
            if value is not None:
                ws.cell(row=5 + offset, column=column, value=value)
        for gas, tco2e in zip(_GHGRP_GAS_COLUMNS.values(), gases, strict=True):
            if tco2e is not None:
                tally.add(None, gas, tco2e)
        tally.biogenic_co2 += biogenic or ZERO

    expected = Expected(
        layout=(
            "Sheet 'Direct Emitters': three title/note rows ('All emissions are in metric tons "
            "CO2e' on row 2), header on row 4, data from row 5, no total row. Identification "
            "columns include numbers that are not emissions (Facility Id, FRS Id, Latitude, "
            "Longitude, Primary NAICS Code). 'Total reported direct emissions' is in t CO2e and "
            "equals the sum of the per-gas columns 'CO2 emissions (non-biogenic) ', 'Methane "
            "(CH4) emissions ', 'Nitrous Oxide (N2O) emissions ', 'HFC emissions', 'SF6 "
            "emissions ' (trailing spaces as EPA writes them), which are ALREADY t CO2e: never "
            "multiply by a GWP, never add total + breakdown. 'CO2 emissions (non-biogenic)' "
            "contains the word 'biogenic' but is fossil CO2. 'Biogenic CO2 emissions (metric "
            "tons)' is reported apart. Blank cells where a gas was not reported; one facility "
            "reports 0. 'HFC emissions' names no species: expected under GENERIC_HFC."
        ),
        total_tco2e=_f(tally.total),
        gases=_floats(tally.gases),
        scopes=None,
        biogenic_co2_t=_f(tally.biogenic_co2),
        year=None,
        sheet_status={"Direct Emitters": "reconciled"},
        status="reconciled",
    )
    return _save(wb), "ghgrp_direct_emitters.xlsx", expected


# --------------------------------------------------------------------------------------------
# e. Windows-1252, semicolon-separated CSV with decimal commas
# --------------------------------------------------------------------------------------------

# (unidade, localização, equipamento, gás, carga nominal kg, taxa de vazamento %)
_CP1252_ROWS = [
    ("Fábrica São José", "São José dos Campos/SP", "Chiller 1", "HFC-134a", "1250.00", "8.00"),
    ("Fábrica São José", "São José dos Campos/SP", "Câmara fria", "R-404A", "85.50", "15.00"),
    ("Fábrica São José", "São José dos Campos/SP", "VRF administração", "R-410A", "45.00", "6.50"),
    ("Escritório Florianópolis", "Florianópolis/SC", "Split 24.000 BTU", "R-410A", "2.40",
     "10.00"),
    ("CD Maceió", "Maceió/AL", "Câmara de congelados", "R-404A", "310.00", "12.50"),
    ("Loja Ribeirão Preto", "Ribeirão Preto/SP", "Expositor refrigerado", "R-22", "12.80",
     "20.00"),
    ("CD Maceió", "Maceió/AL", "Chiller logística", "HFC-134a", "2480.00", "4.00"),
]  # fmt: skip


def _br(value: Decimal, places: int = 2) -> str:
    """1250 -> '1.250,00' (Brazilian thousands dot, decimal comma)."""
    text = f"{value:,.{places}f}"
    return text.replace(",", "\x00").replace(".", ",").replace("\x00", ".")


def cp1252_semicolon_csv() -> Built:
    """A refrigerant register exported by Excel in Brazil: cp1252, ';', decimal commas."""
    header = ["Unidade", "Localização", "Descrição do equipamento", "Gás refrigerante",
              "Carga nominal (kg)", "Taxa de vazamento anual (%)", "Escopo",
              "Emissões (t CO2e)"]  # fmt: skip
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=";", lineterminator="\r\n")
    writer.writerow(header)
    tally = _Tally()
    charges = []
    for unit, place, equipment, gas, charge, rate in _CP1252_ROWS:
        tco2e = (D(charge) * D(rate) / 100 * gwp(gas, "AR5") / 1000).quantize(D("0.01"))
        charges.append(float(D(charge)))
        writer.writerow([unit, place, equipment, gas, _br(D(charge)), _br(D(rate)), "Escopo 1",
                         _br(tco2e)])  # fmt: skip
        if gas in MONTREAL:
            tally.montreal += tco2e
        else:
            tally.add("1", gas, tco2e)
    expected = Expected(
        layout=(
            "Windows-1252 bytes (accents: 'Localização', 'Descrição', 'Gás', 'Emissões', "
            "'Florianópolis'), ';' separator, CRLF, header in row 1, decimal comma with dot "
            "thousands ('1.250,00', '2.480,00'; a label also contains '24.000'). 'Carga nominal "
            "(kg)' is the equipment charge, numeric but NOT an emission; 'Taxa de vazamento "
            "anual (%)' is a percentage; 'Emissões (t CO2e)' is the only emissions column, "
            "already t CO2e (rounded to 2 decimals). Scope in a column ('Escopo 1'). The R-22 "
            "row is a Montreal memo, not in the total."
        ),
        total_tco2e=_f(tally.total),
        gases=_floats(tally.gases),
        scopes=_floats(tally.scopes),
        montreal_tco2e=_f(tally.montreal),
        year=None,
        sheet_status={"refrigerantes.csv": "unverified"},
        status="unverified",
        numeric_columns={"Carga nominal (kg)": tuple(charges)},
    )
    return buffer.getvalue().encode("cp1252"), "refrigerantes.csv", expected


# --------------------------------------------------------------------------------------------
# f. A stated Total that contradicts its rows
# --------------------------------------------------------------------------------------------

_CONFLICT_ROWS = [  # (veículo, combustível, litros, t CO2e) rows sum to 26.424,55
    ("Caminhões pesados", "Óleo diesel (B12)", "3112500", "8123.40"),
    ("Caminhões leves", "Óleo diesel (B12)", "2505800", "6540.25"),
    ("Ônibus fretados", "Óleo diesel (B12)", "1996500", "5210.90"),
    ("Vans de entrega", "Gasolina C (E27)", "1845000", "4100.00"),
    ("Carros de apoio", "Gasolina C (E27)", "1102500", "2450.00"),
]
_CONFLICT_STATED = D("23458.01")
_BOILER_ROWS = [("Caldeira A", "Gás natural", "1510000", "3004.90"),
                ("Caldeira B", "Gás natural", "820000", "1631.80")]  # fmt: skip


def _simple_sheet(ws: Worksheet, title: str, header: Sequence[str], rows: Sequence[tuple],
                  stated_total: Decimal) -> None:  # fmt: skip
    _title(ws, 1, title, len(header))
    for column, value in enumerate(header, start=1):
        ws.cell(row=3, column=column, value=value).font = Font(bold=True)
    for offset, (label, fuel, litres, tco2e) in enumerate(rows):
        for column, value in enumerate([label, fuel, float(D(litres)), float(D(tco2e))], 1):
            cell = ws.cell(row=4 + offset, column=column, value=value)
            if column >= 3:
                cell.number_format = "#,##0.00"
    total_row = 4 + len(rows)
    ws.cell(row=total_row, column=1, value="Total").font = Font(bold=True)
    cell = ws.cell(row=total_row, column=4, value=float(stated_total))
    cell.number_format = "#,##0.00"


def contradicting_total_row() -> Built:
    """Two sheets; the mobile one states 23.458,01 while its rows sum to 26.424,55."""
    wb = openpyxl.Workbook()
    mobile = wb.active
    mobile.title = "Combustão móvel"
    _simple_sheet(mobile, "Frota — emissões de Escopo 1",
                  ["Veículo", "Combustível", "Consumo (litros)", "Emissões (t CO2e)"],
                  _CONFLICT_ROWS, _CONFLICT_STATED)  # fmt: skip
    boilers = wb.create_sheet("Combustão estacionária")
    boiler_total = sum((D(r[3]) for r in _BOILER_ROWS), ZERO)
    _simple_sheet(boilers, "Caldeiras — emissões de Escopo 1",
                  ["Equipamento", "Combustível", "Consumo (m³)", "Emissões (t CO2e)"],
                  _BOILER_ROWS, boiler_total)  # fmt: skip
    mobile_rows = sum((D(r[3]) for r in _CONFLICT_ROWS), ZERO)
    total = mobile_rows + boiler_total
    expected = Expected(
        layout=(
            "Two sheets, each: title row 1, blank row 2, one header row 3, data rows, then a "
            "'Total' row directly under the data. 'Emissões (t CO2e)' is already t CO2e (no gas "
            "split). 'Combustão móvel' states Total 23.458,01 while its five rows sum to "
            "26.424,55: the sheet is in conflict (stated vs computed both reported) and the "
            "inventory total uses the rows. 'Combustão estacionária' agrees with its rows. "
            "Scope 1 from the sheet names (combustion categories)."
        ),
        total_tco2e=_f(total),
        gases=None,
        scopes={"1": _f(total)},
        year=None,
        sheet_status={"Combustão móvel": "conflict", "Combustão estacionária": "reconciled"},
        status="conflict",
        conflicts={"Combustão móvel": (_f(_CONFLICT_STATED), _f(mobile_rows))},
    )
    return _save(wb), "frota_total_divergente.xlsx", expected


#: Every layout the tests load, by a short name.
BUILDERS: dict[str, Callable[[], Built]] = {
    "brazil_program": brazil_program_results,
    "gpc_csv_units_in_header": lambda: gpc_city_export("header"),
    "gpc_xlsx_units_row": lambda: gpc_city_export("row"),
    "national_inventory": national_inventory,
    "facility_regulatory": facility_regulatory_summary,
    "cp1252_semicolon": cp1252_semicolon_csv,
    "contradicting_total": contradicting_total_row,
}


# --------------------------------------------------------------------------------------------
# Self-check: re-read what was written (openpyxl / csv only) and recompute a second way
# --------------------------------------------------------------------------------------------


def _close(a: float, b: float, what: str) -> None:
    if abs(a - b) > 1e-6 * max(1.0, abs(a), abs(b)):
        raise AssertionError(f"{what}: {a!r} != {b!r}")


def _rows(ws: Worksheet) -> list[tuple]:
    return list(ws.iter_rows(values_only=True))


def _is_num(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _check_program(data: bytes, expected: Expected) -> None:
    wb = openpyxl.load_workbook(io.BytesIO(data))
    assert wb.sheetnames[0] == "Introdução" and all(len(n) <= 31 for n in wb.sheetnames)
    ch4, n2o = float(gwp("CH4")), float(gwp("N2O"))
    scope1 = biogenic = 0.0
    errors = 0
    for key in ("stationary", "mobile", "waste"):
        ws = wb[_PROGRAM_SHEETS[key]]
        assert ws.cell(5, 6).value == "CO2" and ws.cell(5, 9).value == "CO2"
        assert any(str(r).startswith("F4:H4") for r in ws.merged_cells.ranges)
        data_total = stated = 0.0
        for row in _rows(ws)[5:]:
            label = str(row[0] or "")
            errors += sum(1 for v in row if v == "#N/A")
            if label == "Total":
                stated = row[11]
                continue
            if not _is_num(row[11]) or label.startswith("Subtotal"):
                continue
            g = [v or 0.0 for v in row[5:11]]
            _close(row[11], g[0] + (g[1] + g[4]) * ch4 + (g[2] + g[5]) * n2o, f"{key} row")
            data_total += row[11]
            biogenic += g[3]
        _close(stated, data_total, f"{key} Total row")
        subtotals = [r[11] for r in _rows(ws) if str(r[0] or "").startswith("Subtotal")]
        if subtotals:
            _close(sum(subtotals), stated, f"{key} subtotals")
        scope1 += data_total
    assert errors == 3, errors
    fugitive = wb[_PROGRAM_SHEETS["fugitive"]]
    rows = [r for r in _rows(fugitive)[5:] if r[0] and r[0] not in ("Total",) and _is_num(r[4])]
    memo = sum(r[4] for r in rows if r[2] == "R-22")
    kyoto = sum(r[4] for r in rows if r[2] != "R-22")
    stated = next(r[4] for r in _rows(fugitive) if r[0] == "Total")
    _close(stated, kyoto, "fugitive Total row")
    scope1 += kyoto
    location = next(r[4] for r in _rows(wb[_PROGRAM_SHEETS["location"]]) if r[0] == "Total")
    market = next(r[4] for r in _rows(wb[_PROGRAM_SHEETS["market"]]) if r[0] == "Total")
    _close(scope1, expected.scopes["1"], "scope 1")
    _close(location, expected.scopes["2"], "scope 2")
    _close(scope1 + location, expected.total_tco2e, "total")
    _close(market, expected.scope2_market_tco2e, "market")
    _close(memo, expected.montreal_tco2e, "montreal")
    _close(biogenic, expected.biogenic_co2_t, "biogenic")
    _close(sum(expected.gases.values()), expected.total_tco2e, "gases add up")


def _check_gpc(data: bytes, name: str, expected: Expected) -> None:
    if name.endswith(".csv"):
        records = list(csv.reader(io.StringIO(data.decode("utf-8"))))[1:]
    else:
        ws = openpyxl.load_workbook(io.BytesIO(data)).active
        assert [c.value for c in ws[5]][3:7] == ["kg", "kg", "kg", "tCO2e"]
        table = [r for r in _rows(ws)[5:] if r[0]]
        *records, total_row = table
        assert total_row[0] == "Total"
        _close(total_row[6], expected.total_tco2e, "GPC Total row")
    total = 0.0
    by_gas = defaultdict(float)
    for record in records:
        cells = [None if str(v) in _NOTATION_KEYS else float(v) for v in record[3:7]]
        parts = {
            g: kg / 1000 * float(gwp(g)) for g, kg in zip(_GASES, cells[:3], strict=True) if kg
        }
        if cells[3] is not None:
            _close(cells[3], sum(parts.values()), f"GPC {record[0]} total column")
            total += cells[3]
        for gas, value in parts.items():
            by_gas[gas] += value
    assert any(str(v) in _NOTATION_KEYS for r in records for v in r[3:7])
    assert min(float(r[6]) for r in records if str(r[6]) not in _NOTATION_KEYS) < 0
    _close(total, expected.total_tco2e, "GPC total")
    for gas, value in by_gas.items():
        _close(value, expected.gases[gas], f"GPC {gas}")


def _check_national(data: bytes, expected: Expected) -> None:
    wb = openpyxl.load_workbook(io.BytesIO(data))
    view = "CO2e (GWP-AR5)" if "CO2e (GWP-AR5)" in wb.sheetnames else "CO2e (GWP-AR4)"
    ws = wb[view]
    header = [c.value for c in ws[4]]
    columns = {str(v): i for i, v in enumerate(header) if isinstance(v, int)}
    body = [r for r in _rows(ws)[4:] if r[0] or r[1] == "Total"]
    tree = dict(_NATIONAL_TREE)
    codes = {r[0]: r for r in body if r[0] in tree}
    for code, row in codes.items():  # every parent is the sum of its children
        children = [c for c in codes if _is_child(c, code)]
        for year, index in columns.items():
            if children and _is_num(row[index]):
                kids = [codes[c][index] for c in children if _is_num(codes[c][index])]
                _close(row[index], sum(kids), f"{view} {code} {year}")
    total_row = next(r for r in body if r[1] == "Total")
    for year, index in columns.items():
        leaves = [r[index] for c, r in codes.items() if not _is_parent(c) and _is_num(r[index])]
        _close(sum(leaves) * 1000, expected.by_year[year], f"{view} leaves {year}")
        _close(total_row[index] * 1000, expected.by_year[year], f"{view} Total row {year}")
    _close(expected.by_year[expected.year], expected.total_tco2e, "headline year")
    if view == "CO2e (GWP-AR5)":  # per-gas sheets x AR5 give the same total, a second way
        index = columns[expected.year]
        by_gas = {}
        for gas in ("CO2", "CH4", "N2O"):
            rows = _rows(wb[gas])[4:]
            leaves = [r[index] for r in rows if _is_leaf(r[0]) and _is_num(r[index])]
            by_gas[gas] = sum(leaves) * 1000 * float(gwp(gas))
            _close(by_gas[gas], expected.gases[gas], f"national {gas}")
        _close(sum(by_gas.values()), expected.total_tco2e, "gas sheets x AR5")


def _check_facility(data: bytes, expected: Expected) -> None:
    ws = openpyxl.load_workbook(io.BytesIO(data)).active
    header = [c.value for c in ws[4]]
    index = {name: header.index(name) for name in header}
    total = biogenic = 0.0
    for row in _rows(ws)[4:]:
        parts = [row[index[c]] or 0.0 for c in _GHGRP_GAS_COLUMNS]
        _close(row[index[_GHGRP_TOTAL]], sum(parts), f"facility {row[0]}")
        total += row[index[_GHGRP_TOTAL]]
        biogenic += row[index[_GHGRP_BIOGENIC]] or 0.0
    assert "All emissions are in metric tons CO2e" in [c.value for c in ws["A"]]
    _close(total, expected.total_tco2e, "facility total")
    _close(biogenic, expected.biogenic_co2_t, "facility biogenic")


def _check_cp1252(data: bytes, expected: Expected) -> None:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        raise AssertionError("the cp1252 fixture must not be valid UTF-8")
    rows = list(csv.reader(io.StringIO(data.decode("cp1252")), delimiter=";"))
    header, body = rows[0], rows[1:]
    assert "Carga nominal (kg)" in header and "Localização" in header

    def number(text: str) -> float:
        return float(text.replace(".", "").replace(",", "."))

    names = ("Gás refrigerante", "Carga nominal (kg)", "Emissões (t CO2e)")
    gas, charge, emissions = (header.index(name) for name in names)
    assert any("." in r[charge] and "," in r[charge] for r in body)
    kyoto = sum(number(r[emissions]) for r in body if r[gas] not in MONTREAL)
    memo = sum(number(r[emissions]) for r in body if r[gas] in MONTREAL)
    _close(kyoto, expected.total_tco2e, "cp1252 total")
    _close(memo, expected.montreal_tco2e, "cp1252 montreal")
    assert tuple(number(r[charge]) for r in body) == expected.numeric_columns["Carga nominal (kg)"]


def _check_conflict(data: bytes, expected: Expected) -> None:
    wb = openpyxl.load_workbook(io.BytesIO(data))
    computed_total = 0.0
    for sheet in wb.sheetnames:
        rows = [r for r in _rows(wb[sheet])[3:] if r[0]]
        body = [r[3] for r in rows if r[0] != "Total"]
        stated = next(r[3] for r in rows if r[0] == "Total")
        computed_total += sum(body)
        if sheet in expected.conflicts:
            _close(stated, expected.conflicts[sheet][0], "stated")
            _close(sum(body), expected.conflicts[sheet][1], "computed")
            assert abs(stated - sum(body)) > 1.0
        else:
            _close(stated, sum(body), f"{sheet} agrees")
    _close(computed_total, expected.total_tco2e, "conflict total")


def self_check() -> None:
    """Rebuild every fixture and verify its Expected against the bytes, a second way."""
    assert gwp("CH4", "AR6") == D("27.9") and gwp("CH4", "AR5") == D(28)
    assert gwp("R-410A") == (gwp("HFC32") + gwp("HFC125")) / 2
    assert _br(D("1250")) == "1.250,00" and _br(D("26424.55")) == "26.424,55"
    data, _name, expected = brazil_program_results()
    _check_program(data, expected)
    for units in ("header", "row"):
        data, name, expected = gpc_city_export(units)
        _check_gpc(data, name, expected)
    data, _name, expected = national_inventory()
    _check_national(data, expected)
    data, _name, expected = national_inventory_without_ar5()
    _check_national(data, expected)
    assert set(openpyxl.load_workbook(io.BytesIO(data)).sheetnames) == set(
        expected.sheets_named_in_error
    )
    data, _name, expected = facility_regulatory_summary()
    _check_facility(data, expected)
    data, _name, expected = cp1252_semicolon_csv()
    _check_cp1252(data, expected)
    data, _name, expected = contradicting_total_row()
    _check_conflict(data, expected)
    _close(expected.conflicts["Combustão móvel"][1], 26424.55, "rows sum")
