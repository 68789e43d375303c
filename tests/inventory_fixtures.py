"""Builders for inventory uploads that look like what Brazilian ESG analysts really send.

Every builder returns the raw bytes of a file (xlsx, xls, ods, csv, zip, ...). The main
builders also return an :class:`Expected` whose numbers are computed from the very same
source rows the builder wrote, so a test never compares against hand-typed totals.

Nothing here imports the ingestion code; the fixtures only describe the inputs.
"""

import csv
import io
import math
import zipfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cache
from typing import Any

import numpy as np
import openpyxl
import pandas as pd
import xlwt
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter

# --------------------------------------------------------------------------------------------
# GWP helpers
# --------------------------------------------------------------------------------------------

#: Refrigerant blends, as mass fractions of their components (gas keys as written in files).
BLENDS: dict[str, dict[str, float]] = {"R-410A": {"HFC-32": 0.5, "HFC-125": 0.5}}

_GWP_SETS = ("AR4", "AR5", "AR6")


@cache
def _gwp_frame() -> pd.DataFrame:
    import globalwarmingpotentials

    return globalwarmingpotentials.as_frame()


def _gwp_column(gwp_set: str) -> str:
    """Accept "AR5", "ar5" or "AR5GWP100" and return the package's column name."""
    name = gwp_set.strip().upper().removesuffix("GWP100")
    if name not in _GWP_SETS:
        raise ValueError(f"unknown GWP set {gwp_set!r}; use one of {_GWP_SETS}")
    return f"{name}GWP100"


def gwp(gas: str, gwp_set: str) -> float:
    """GWP-100 of a gas as written in the fixtures ("CO2", "HFC-134a", "R-410A", ...)."""
    if gas == "CO2":
        return 1.0
    if gas in BLENDS:
        return math.fsum(share * gwp(part, gwp_set) for part, share in BLENDS[gas].items())
    return float(_gwp_frame().loc[gas.replace("-", ""), _gwp_column(gwp_set)])


def _fsum_by_key(pairs: Iterable[tuple[str, float]]) -> dict[str, float]:
    parts: dict[str, list[float]] = {}
    for key, value in pairs:
        parts.setdefault(key, []).append(value)
    return {key: math.fsum(values) for key, values in parts.items()}


@dataclass(frozen=True)
class Expected:
    """What a correct ingestion must find in a fixture, derived from the rows written."""

    #: Tonnes of each gas over every data row as written (duplicates and negative rows
    #: included; kg converted to t; error cells, biogenic CO2 and already-CO2e columns
    #: excluded). Keys are the gas names as written in the file.
    per_gas_t: dict[str, float]
    #: t CO2e reported directly by the file without a gas split (electricity sheet).
    reported_tco2e: float
    #: Data rows written (header, total, blank and note rows excluded).
    data_rows: int
    #: Error cells written, as (sheet name, A1 reference).
    error_cells: list[tuple[str, str]] = field(default_factory=list)
    #: Sheet whose "Total" row is deliberately wrong ("" when none is).
    wrong_total_sheet: str = ""
    #: Gas column of the wrong total and by how many tonnes it is off.
    wrong_total_gas: str = ""
    wrong_total_delta_t: float = 0.0
    #: Biogenic CO2 (t), reported separately and NOT part of any total.
    biogenic_co2_t: float = 0.0
    #: t CO2e per scope ("1", "2", "3") with AR5 GWPs; rows of unknown scope are left out.
    scopes: dict[str, float] = field(default_factory=dict)
    #: Same as ``per_gas_t`` but with exactly repeated rows counted once.
    per_gas_t_unique: dict[str, float] = field(default_factory=dict)
    #: Sum of a t CO2e column computed by the exporting tool (CSV exports only).
    tool_reported_tco2e: float = 0.0
    duplicate_rows: int = 0
    negative_rows: int = 0
    unknown_scope_rows: int = 0
    company: str = ""
    year: int | None = None
    #: Sheets holding data, and sheets an ingestion must skip (prose only).
    data_sheets: tuple[str, ...] = ()
    skipped_sheets: tuple[str, ...] = ()
    #: Number of header rows (merged group rows + the column-name row) per data sheet.
    header_rows: dict[str, int] = field(default_factory=dict)

    def tco2e(self, gwp_set: str) -> float:
        """Total t CO2e: sum(per-gas t x GWP) + ``reported_tco2e`` (biogenic CO2 excluded)."""
        return math.fsum(
            [t * gwp(gas, gwp_set) for gas, t in self.per_gas_t.items()] + [self.reported_tco2e]
        )


# --------------------------------------------------------------------------------------------
# Cell helpers
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Br:
    """A number the analyst typed as Brazilian-formatted text ("1.234,56")."""

    value: float


@dataclass(frozen=True)
class _Err:
    """An Excel error value (#N/A, #VALUE!, ...); openpyxl stores it as an error cell."""

    code: str


def _plain(value: float) -> str:
    """Shortest exact decimal text of a float, without exponent ("1234.56", "-3.5")."""
    text = format(Decimal(repr(float(value))), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text or "0"


def _fmt_number(value: float, *, decimal: str = ",", thousands: str = ".") -> str:
    """Format like a spreadsheet shows it: ``1234.5`` -> ``"1.234,5"`` in pt-BR."""
    text = _plain(value)
    sign = "-" if text.startswith("-") else ""
    whole, _, frac = text.lstrip("-").partition(".")
    if thousands:
        groups = []
        while len(whole) > 3:
            groups.insert(0, whole[-3:])
            whole = whole[:-3]
        whole = thousands.join([whole, *groups])
    return sign + whole + (decimal + frac if frac else "")


def _br(value: float) -> str:
    return _fmt_number(value, decimal=",", thousands=".")


def _numeric(value: Any) -> float | None:
    """The number a source cell stands for (None for text, blanks and error cells)."""
    if isinstance(value, _Br):
        return value.value
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


# --------------------------------------------------------------------------------------------
# 1. Brazilian GHG Protocol Program calculation workbook
# --------------------------------------------------------------------------------------------

COMPANY = "Metalúrgica Ipê Ltda."
YEAR = 2024
NOTE = "Fonte: fatores de emissão do Programa Brasileiro GHG Protocol, 2024."

_CONTAGEM = "Unidade Contagem (MG)"
_BETIM = "Unidade Betim (MG)"
_SAO_PAULO = "Escritório São Paulo (SP)"
_IDENT = ["Unidade", "Fonte emissora"]
_ACTIVITY = ["Quantidade", "Unidade de medida"]
_GASES_T = ["CO2 (t)", "CH4 (t)", "N2O (t)"]


@dataclass(frozen=True)
class _SheetSpec:
    name: str
    title: str
    scope: str
    #: Merged header cells: (header row offset 0.., first col 1.., last col, row span, text).
    groups: tuple[tuple[int, int, int, int, str], ...]
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    #: Per-gas columns: column name -> (gas key, factor to tonnes).
    gas_columns: Mapping[str, tuple[str, float]]
    #: Long format: the gas of each row is read from this column instead.
    gas_name_column: str | None = None
    total_label: str = "Total"
    co2e_column: str | None = None
    biogenic_column: str | None = None
    #: Columns to break in the Total row: column name -> tonnes added.
    wrong_total: Mapping[str, float] = field(default_factory=dict)

    @property
    def header_rows(self) -> int:
        return 1 + max(offset + span for offset, _, _, span, _ in self.groups)

    @property
    def total_columns(self) -> list[str]:
        extra = [c for c in (self.biogenic_column, self.co2e_column) if c]
        return [*self.gas_columns, *extra]


_STATIONARY = _SheetSpec(
    name="Combustão estacionária",
    title=f"Escopo 1 – Combustão estacionária – {YEAR}",
    scope="1",
    groups=((0, 1, 5, 1, "Identificação"), (0, 6, 8, 1, "Emissões (t)")),
    columns=(*_IDENT, "Combustível", *_ACTIVITY, *_GASES_T),
    rows=(
        (
            _CONTAGEM,
            "Forno de reaquecimento",
            "Gás natural",
            1_250_000,
            "m³",
            2496.25,
            0.0446,
            0.0045,
        ),
        (_CONTAGEM, "Caldeira a vapor", "Óleo combustível", 180.0, "t", 558.02, 0.0216, 0.0043),
        (_BETIM, "Forno de tratamento térmico", "GLP", 42_000, "kg", 123.06, _Err("#N/A"), 0.0002),
        (
            _BETIM,
            "Gerador de emergência",
            "Óleo diesel S10",
            8_500,
            "litros",
            20.12,
            0.0008,
            0.0002,
        ),
        (_SAO_PAULO, "Cozinha do refeitório", "GLP", 3_600, "kg", 10.55, 0.0002, 0.00002),
        (_CONTAGEM, "Secador de moldes", "Gás natural", 96_400.5, "m³", 192.51, 0.0034, 0.0003),
    ),
    gas_columns={"CO2 (t)": ("CO2", 1.0), "CH4 (t)": ("CH4", 1.0), "N2O (t)": ("N2O", 1.0)},
)

_MOBILE = _SheetSpec(
    name="Combustão móvel",
    title=f"Escopo 1 – Combustão móvel – {YEAR}",
    scope="1",
    groups=(
        (0, 1, 3, 2, "Identificação"),
        (0, 4, 5, 2, "Consumo"),
        (0, 6, 9, 1, "Emissões (t)"),
        (1, 6, 8, 1, "Fósseis"),
        (1, 9, 9, 1, "Biogênicas"),
    ),
    columns=(*_IDENT, "Combustível", *_ACTIVITY, *_GASES_T, "CO2 biogênico (t)"),
    rows=(
        (
            _CONTAGEM,
            "Caminhões próprios (frota pesada)",
            "Óleo diesel (B14)",
            _Br(548_250.0),
            "litros",
            _Br(1227.33),
            0.0632,
            0.0621,
            186.57,
        ),
        # "6.200" is six thousand two hundred kg in pt-BR, not six point two.
        (_CONTAGEM, "Empilhadeiras", "GLP", "6.200", "kg", 18.17, 0.0003, _Br(0.0001), None),
        (
            _BETIM,
            "Veículos leves (flex)",
            "Gasolina C",
            _Br(12_480.5),
            "litros",
            20.16,
            0.0074,
            _Err("#VALUE!"),
            4.91,
        ),
        (
            _BETIM,
            "Veículos leves (flex)",
            "Etanol hidratado",
            9_870,
            "litros",
            0,
            0.0036,
            0.0001,
            _Br(14.38),
        ),
        (
            _SAO_PAULO,
            "Veículos da diretoria",
            "Gasolina C",
            _Br(3_150.75),
            "litros",
            _Br(5.09),
            0.0019,
            0.0006,
            1.24,
        ),
        (
            _CONTAGEM,
            "Pá carregadeira (pátio de sucata)",
            "Óleo diesel (B14)",
            21_600,
            "litros",
            48.35,
            0.0025,
            0.0025,
            7.35,
        ),
    ),
    gas_columns={"CO2 (t)": ("CO2", 1.0), "CH4 (t)": ("CH4", 1.0), "N2O (t)": ("N2O", 1.0)},
    biogenic_column="CO2 biogênico (t)",
    wrong_total={"CO2 (t)": 10.0},
)

_FUGITIVE = _SheetSpec(
    name="Emissões fugitivas",
    title=f"Escopo 1 – Emissões fugitivas – {YEAR}",
    scope="1",
    groups=((0, 1, 3, 1, "Identificação"), (0, 4, 4, 1, "Emissões")),
    columns=(*_IDENT, "Gás ou composto", "Emissões (kg)"),
    rows=(
        (_CONTAGEM, "Chiller da central de água gelada", "HFC-134a", 45.0),
        (_CONTAGEM, "Ar-condicionado split – escritório", "R-410A", 12.6),
        (_BETIM, "Ar-condicionado split – vestiários", "R-410A", 6.3),
        (_BETIM, "Disjuntores da subestação", "SF6", 1.2),
        (_SAO_PAULO, "Ar-condicionado automotivo (frota)", "HFC-134a", 2.8),
        (_CONTAGEM, "Extintores de incêndio", "CO2", 18.0),
    ),
    gas_columns={"Emissões (kg)": ("", 0.001)},
    gas_name_column="Gás ou composto",
    total_label="Subtotal",
)

_SIN_FACTOR = 0.0385  # t CO2/MWh, SIN average (location-based).
_ELECTRICITY_MWH = (
    (_CONTAGEM, "Rede SIN – 1º semestre", 8_420.5),
    (_CONTAGEM, "Rede SIN – 2º semestre", 8_105.2),
    (_BETIM, "Rede SIN – ano inteiro", 5_230.8),
    (_SAO_PAULO, "Rede SIN – ano inteiro", 412.6),
)
_ELECTRICITY = _SheetSpec(
    name="Eletricidade (localização)",
    title=f"Escopo 2 – Eletricidade (abordagem de localização) – {YEAR}",
    scope="2",
    groups=(
        (0, 1, 2, 1, "Identificação"),
        (0, 3, 5, 1, "Consumo"),
        (0, 6, 6, 1, "Emissões"),
    ),
    columns=(*_IDENT, *_ACTIVITY, "Fator de emissão (t CO2/MWh)", "Emissões (t CO2e)"),
    rows=tuple(
        (unit, source, mwh, "MWh", _SIN_FACTOR, round(mwh * _SIN_FACTOR, 3))
        for unit, source, mwh in _ELECTRICITY_MWH
    ),
    gas_columns={},
    co2e_column="Emissões (t CO2e)",
)

_DATA_SHEETS = (_STATIONARY, _MOBILE, _FUGITIVE, _ELECTRICITY)

_INTRO_LINES = (
    "Programa Brasileiro GHG Protocol – Ferramenta de cálculo",
    "",
    f"Empresa: {COMPANY}",
    f"Ano inventariado: {YEAR}",
    "",
    "Esta planilha reúne as emissões de gases de efeito estufa da empresa, organizadas por "
    "escopo e categoria conforme as Especificações do Programa Brasileiro GHG Protocol.",
    "Preencha apenas as células em branco das abas de cálculo. Os fatores de emissão são "
    "atualizados anualmente pelo Programa e não devem ser alterados.",
    "As emissões de CO2 biogênico são relatadas separadamente e não compõem o total do inventário.",
    "Dúvidas: equipe de sustentabilidade (sustentabilidade@metalurgicaipe.com.br).",
)

_TITLE_FONT = Font(bold=True, size=13)
_HEADER_FONT = Font(bold=True)
_HEADER_FILL = PatternFill("solid", fgColor="D9E1F2")
_CENTER = Alignment(horizontal="center", vertical="center", wrap_text=True)


def _cell_value(value: Any) -> Any:
    if isinstance(value, _Br):
        return _br(value.value)
    if isinstance(value, _Err):
        return value.code  # openpyxl turns known error codes into error cells
    return value


def _write_sheet(wb: openpyxl.Workbook, spec: _SheetSpec) -> list[tuple[str, str]]:
    """Write one calculation sheet; return the error cells written."""
    ws = wb.create_sheet(spec.name)
    width = len(spec.columns)
    ws.cell(row=1, column=1, value=spec.title).font = _TITLE_FONT
    ws.merge_cells(start_row=1, start_column=1, end_row=1, end_column=width)

    first_header = 3
    for offset, col_from, col_to, span, text in spec.groups:
        row = first_header + offset
        cell = ws.cell(row=row, column=col_from, value=text)
        cell.font, cell.fill, cell.alignment = _HEADER_FONT, _HEADER_FILL, _CENTER
        if col_to > col_from or span > 1:
            ws.merge_cells(
                start_row=row, start_column=col_from, end_row=row + span - 1, end_column=col_to
            )
    names_row = first_header + spec.header_rows - 1
    for col, name in enumerate(spec.columns, start=1):
        cell = ws.cell(row=names_row, column=col, value=name)
        cell.font, cell.fill, cell.alignment = _HEADER_FONT, _HEADER_FILL, _CENTER
        ws.column_dimensions[get_column_letter(col)].width = max(14, len(name) + 2)

    errors: list[tuple[str, str]] = []
    row = names_row
    for row_values in spec.rows:
        row += 1
        for col, value in enumerate(row_values, start=1):
            cell = ws.cell(row=row, column=col, value=_cell_value(value))
            if isinstance(value, _Err):
                errors.append((spec.name, cell.coordinate))
            elif isinstance(value, float):
                cell.number_format = "#,##0.00###"

    row += 1
    ws.cell(row=row, column=1, value=spec.total_label).font = _HEADER_FONT
    for name in spec.total_columns:
        col = spec.columns.index(name)
        written = [_numeric(r[col]) or 0.0 for r in spec.rows]  # error cells count as 0
        total = round(math.fsum(written) + spec.wrong_total.get(name, 0.0), 6)
        cell = ws.cell(row=row, column=col + 1, value=total)
        cell.font, cell.number_format = _HEADER_FONT, "#,##0.00###"

    ws.cell(row=row + 2, column=1, value=NOTE)
    return errors


def _sheet_amounts(spec: _SheetSpec) -> Iterable[tuple[str, float]]:
    """(gas, tonnes) for every numeric per-gas cell of a sheet; error cells are skipped."""
    for row_values in spec.rows:
        for name, (column_gas, factor) in spec.gas_columns.items():
            value = _numeric(row_values[spec.columns.index(name)])
            if value is None:
                continue
            gas = column_gas
            if spec.gas_name_column:  # long format: the gas is named in another column
                gas = row_values[spec.columns.index(spec.gas_name_column)]
            yield gas, value * factor


def _column_total(spec: _SheetSpec, name: str | None) -> float:
    if name is None:
        return 0.0
    col = spec.columns.index(name)
    return math.fsum(v for r in spec.rows if (v := _numeric(r[col])) is not None)


def ghg_program_workbook() -> tuple[bytes, Expected]:
    """An .xlsx shaped like the Programa Brasileiro GHG Protocol calculation workbook.

    Quirks reproduced: a prose-only "Introdução" sheet first; merged titles; two- and
    three-row merged headers; numbers typed as pt-BR text ("1.234,56", and "6.200" meaning
    6200) in "Combustão móvel"; ``#N/A`` and ``#VALUE!`` error cells; a fugitive-emissions
    sheet in long format with masses in kg; an electricity sheet already in t CO2e next to a
    t CO2/MWh factor column; a biogenic CO2 column that must stay out of the totals;
    Total/Subtotal rows (wrong by +10 t CO2 in "Combustão móvel") followed by a blank row
    and a source note.
    """
    wb = openpyxl.Workbook()
    intro = wb.active
    intro.title = "Introdução"
    for row, line in enumerate(_INTRO_LINES, start=1):
        if line:
            intro.cell(row=row, column=1, value=line)
    intro["A1"].font = _TITLE_FONT
    intro.column_dimensions["A"].width = 110

    error_cells: list[tuple[str, str]] = []
    for spec in _DATA_SHEETS:
        error_cells += _write_sheet(wb, spec)
    buf = io.BytesIO()
    wb.save(buf)

    per_gas = _fsum_by_key(pair for spec in _DATA_SHEETS for pair in _sheet_amounts(spec))
    scopes: dict[str, list[float]] = {}
    for spec in _DATA_SHEETS:
        amounts = [t * gwp(gas, "AR5") for gas, t in _sheet_amounts(spec)]
        scopes.setdefault(spec.scope, []).extend([*amounts, _column_total(spec, spec.co2e_column)])
    wrong = next(s for s in _DATA_SHEETS if s.wrong_total)
    ((wrong_column, delta),) = wrong.wrong_total.items()

    expected = Expected(
        per_gas_t=per_gas,
        reported_tco2e=math.fsum(_column_total(s, s.co2e_column) for s in _DATA_SHEETS),
        data_rows=sum(len(s.rows) for s in _DATA_SHEETS),
        error_cells=error_cells,
        wrong_total_sheet=wrong.name,
        wrong_total_gas=wrong.gas_columns[wrong_column][0],
        wrong_total_delta_t=delta,
        biogenic_co2_t=math.fsum(_column_total(s, s.biogenic_column) for s in _DATA_SHEETS),
        scopes={scope: math.fsum(values) for scope, values in scopes.items()},
        per_gas_t_unique=dict(per_gas),
        company=COMPANY,
        year=YEAR,
        data_sheets=tuple(s.name for s in _DATA_SHEETS),
        skipped_sheets=("Introdução",),
        header_rows={s.name: s.header_rows for s in _DATA_SHEETS},
    )
    return buf.getvalue(), expected


# --------------------------------------------------------------------------------------------
# 2. Flat CSV export from another carbon tool
# --------------------------------------------------------------------------------------------

CSV_HEADER_PT = (
    "Escopo",
    "Categoria",
    "Unidade",
    "Fonte",
    "Gás",
    "Emissão (kg)",
    "Emissão (t CO2e)",
)
CSV_HEADER_EN = (
    "Scope",
    "Category",
    "Facility",
    "Source",
    "Gas",
    "Emissions (kg)",
    "Emissions (tCO2e)",
)
_CSV_ENCODINGS = ("cp1252", "utf-8-sig", "utf-8")
_CSV_DELIMITERS = (";", ",", "\t")

_FSP = "Fábrica São Paulo"
_CDC = "Centro de distribuição Campinas"
_EBH = "Escritório Belo Horizonte"
_DIESEL_TRUCKS = ("1", "Combustão móvel", _CDC, "Caminhões a diesel", "CO2", 412_880.5)
#: (scope as written, category, facility, source, gas, kg)
_CSV_ROWS: tuple[tuple[str, str, str, str, str, float], ...] = (
    ("Escopo 1", "Combustão estacionária", _FSP, "Caldeira a gás natural", "CO2", 1_254_300.0),
    ("Escopo 1", "Combustão estacionária", _FSP, "Caldeira a gás natural", "CH4", 22.4),
    ("Escopo 1", "Combustão estacionária", _FSP, "Caldeira a gás natural", "N2O", 2.24),
    _DIESEL_TRUCKS,
    ("1", "Combustão móvel", _CDC, "Caminhões a diesel", "CH4", 18.7),
    _DIESEL_TRUCKS,  # exported twice by the tool: an exact duplicate
    ("1", "Emissões fugitivas", _FSP, "Chiller – recarga de gás", "HFC-134a", 35.0),
    ("1", "Combustão móvel", _CDC, "Estorno de abastecimento (diesel)", "CO2", -3_500.0),
    ("Escopo 2", "Eletricidade (localização)", _FSP, "Rede SIN", "CO2", 98_765.4),
    ("2", "Eletricidade (localização)", _EBH, "Rede SIN", "CO2", 4_321.0),
    ("Scope 3", "Viagens a negócios", _EBH, "Voos nacionais", "CO2", 15_600.0),
    ("Scope 3", "Resíduos", _FSP, "Aterro sanitário", "CH4", 1_840.0),
    ("", "Outros", _FSP, "Geradores de emergência", "N2O", 0.85),
)


def _scope_key(written: str) -> str | None:
    digits = "".join(ch for ch in written if ch.isdigit())
    return digits if digits in {"1", "2", "3"} else None


def export_csv(
    encoding: str = "cp1252", delimiter: str = ";", *, english: bool = False
) -> tuple[bytes, Expected]:
    """A flat per-gas CSV as exported by other carbon-accounting tools.

    Quirks reproduced: scope written as "Escopo 1", "1" or "Scope 3"; one row exported twice;
    one negative (reversal) row; one row with an empty scope; accented text; decimal comma
    and "." thousands separator when the delimiter is ";"; CRLF line endings; encodings
    cp1252 (Excel pt-BR default), utf-8-sig (with BOM) or utf-8. The t CO2e column is what
    the tool computed (kg / 1000 x AR5 GWP, rounded to 4 decimals) for every row.
    """
    if encoding not in _CSV_ENCODINGS:
        raise ValueError(f"encoding must be one of {_CSV_ENCODINGS}")
    if delimiter not in _CSV_DELIMITERS:
        raise ValueError(f"delimiter must be one of {_CSV_DELIMITERS}")
    pt_br = delimiter == ";"

    def number(value: float) -> str:
        return _br(value) if pt_br else _plain(value)

    text = io.StringIO()
    writer = csv.writer(text, delimiter=delimiter, lineterminator="\r\n")
    writer.writerow(CSV_HEADER_EN if english else CSV_HEADER_PT)
    reported = []
    for *labels, gas, kg in _CSV_ROWS:
        tco2e = round(kg / 1000 * gwp(gas, "AR5"), 4)
        reported.append(tco2e)
        writer.writerow([*labels, gas, number(kg), number(tco2e)])

    unique_rows = list(dict.fromkeys(_CSV_ROWS))
    scopes: dict[str, list[float]] = {}
    for scope, *_, gas, kg in _CSV_ROWS:
        if (key := _scope_key(scope)) is not None:
            scopes.setdefault(key, []).append(kg / 1000 * gwp(gas, "AR5"))
    expected = Expected(
        per_gas_t=_fsum_by_key((r[4], r[5] / 1000) for r in _CSV_ROWS),
        reported_tco2e=0.0,
        data_rows=len(_CSV_ROWS),
        scopes={key: math.fsum(values) for key, values in sorted(scopes.items())},
        per_gas_t_unique=_fsum_by_key((r[4], r[5] / 1000) for r in unique_rows),
        tool_reported_tco2e=math.fsum(reported),
        duplicate_rows=len(_CSV_ROWS) - len(unique_rows),
        negative_rows=sum(r[5] < 0 for r in _CSV_ROWS),
        unknown_scope_rows=sum(_scope_key(r[0]) is None for r in _CSV_ROWS),
    )
    return text.getvalue().encode(encoding), expected


# --------------------------------------------------------------------------------------------
# 3. Large, clean, generated inventory (benchmarks)
# --------------------------------------------------------------------------------------------

LONG_COLUMNS = (
    "Escopo",
    "Categoria",
    "Unidade",
    "Fonte",
    "Combustível",
    "Quantidade",
    "Unidade de medida",
    "Gás",
    "Emissões (t)",
    "Ano",
)

FACILITIES = (
    "Unidade Contagem (MG)",
    "Unidade Betim (MG)",
    "Escritório São Paulo (SP)",
    "Centro de distribuição Campinas (SP)",
    "Unidade Joinville (SC)",
    "Unidade Camaçari (BA)",
    "Filial Porto Alegre (RS)",
    "Unidade Manaus (AM)",
)

_NA = "Não se aplica"
# Emission factors, in t of gas per unit of the activity's "Unidade de medida".
_NG = {"CO2": 1.9969e-3, "CH4": 3.56e-8, "N2O": 3.56e-9}  # m³
_FUEL_OIL = {"CO2": 3.114, "CH4": 1.21e-4, "N2O": 2.4e-5}  # t
_DIESEL = {"CO2": 2.603e-3, "CH4": 1.5e-7, "N2O": 1.4e-7}  # litre
_LPG = {"CO2": 2.932e-3, "CH4": 4.6e-8, "N2O": 4.6e-9}  # kg
_GASOLINE = {"CO2": 1.615e-3, "CH4": 5.9e-7, "N2O": 1.9e-7}  # litre
_ETHANOL = {"CH4": 6.3e-7, "N2O": 1.0e-8}  # litre (CO2 is biogenic)
_FIREWOOD = {"CH4": 4.7e-4, "N2O": 6.2e-5}  # t (CO2 is biogenic)
_CHARCOAL = {"CH4": 5.9e-3, "N2O": 1.2e-4}  # t (CO2 is biogenic)
_GRID = {"CO2": 0.0385}  # MWh, SIN average
_ROAD_FREIGHT = {"CO2": 8.5e-5, "CH4": 5e-9, "N2O": 4e-9}  # t.km
_FLIGHT_DOMESTIC = {"CO2": 1.3e-4, "CH4": 1e-9, "N2O": 4e-9}  # passageiro.km
_FLIGHT_INTERNATIONAL = {"CO2": 1.0e-4, "CH4": 1e-9, "N2O": 3e-9}  # passageiro.km
_BUS = {"CO2": 1.0e-3, "CH4": 5e-8, "N2O": 5e-8}  # km
_RECHARGE = 1e-3  # refrigerant recharged = refrigerant emitted, kg -> t

_LongSource = tuple[str, str, str, dict[str, float], float, float]
#: {(scope, category): ((source, fuel, unit of measure, {gas: t per unit}, low, high qty), ...)}
_LONG_SOURCES: dict[tuple[int, str], tuple[_LongSource, ...]] = {
    (1, "Combustão estacionária"): (
        ("Caldeira a vapor", "Gás natural", "m³", _NG, 5e3, 2e5),
        ("Forno de reaquecimento", "Gás natural", "m³", _NG, 1e4, 5e5),
        ("Secador de moldes", "Gás natural", "m³", _NG, 1e3, 5e4),
        ("Queimador da cabine de pintura", "Gás natural", "m³", _NG, 5e2, 2e4),
        ("Forno de fusão", "Óleo combustível", "t", _FUEL_OIL, 5, 300),
        ("Aquecedor de tanque de galvanização", "Óleo combustível", "t", _FUEL_OIL, 1, 80),
        ("Gerador de emergência", "Óleo diesel", "litros", _DIESEL, 100, 2e4),
        ("Cozinha do refeitório", "GLP", "kg", _LPG, 100, 5e3),
        ("Forno de tratamento térmico", "GLP", "kg", _LPG, 1e3, 6e4),
        ("Caldeira a biomassa", "Lenha", "t", _FIREWOOD, 10, 2e3),
        ("Fornalha de secagem", "Carvão vegetal", "t", _CHARCOAL, 5, 500),
    ),
    (1, "Combustão móvel"): (
        ("Caminhões próprios (frota pesada)", "Óleo diesel", "litros", _DIESEL, 1e3, 6e5),
        ("Pá carregadeira", "Óleo diesel", "litros", _DIESEL, 500, 4e4),
        ("Ônibus de funcionários (frota própria)", "Óleo diesel", "litros", _DIESEL, 1e3, 9e4),
        ("Empilhadeiras", "GLP", "kg", _LPG, 200, 2e4),
        ("Veículos leves (flex)", "Gasolina C", "litros", _GASOLINE, 200, 3e4),
        ("Motocicletas de entrega", "Gasolina C", "litros", _GASOLINE, 50, 5e3),
        ("Veículos leves (flex) – etanol", "Etanol hidratado", "litros", _ETHANOL, 200, 3e4),
        ("Rebocador de pátio", "GNV", "m³", _NG, 100, 1e4),
    ),
    (1, "Emissões fugitivas"): (
        ("Chiller da central de água gelada", _NA, "kg", {"HFC-134a": _RECHARGE}, 1, 120),
        ("Ar-condicionado split", _NA, "kg", {"R-410A": _RECHARGE}, 0.5, 30),
        ("Câmara frigorífica", _NA, "kg", {"R-410A": _RECHARGE}, 1, 60),
        ("Ar-condicionado automotivo", _NA, "kg", {"HFC-134a": _RECHARGE}, 0.2, 10),
        ("Bebedouros", _NA, "kg", {"HFC-134a": _RECHARGE}, 0.05, 2),
        ("Disjuntores da subestação", _NA, "kg", {"SF6": _RECHARGE}, 0.1, 5),
        ("Extintores de incêndio", _NA, "kg", {"CO2": _RECHARGE}, 2, 80),
    ),
    (1, "Processos industriais"): (
        ("Eletrodos de grafite do forno elétrico", "Grafite", "t", {"CO2": 3.66}, 1, 50),
        ("Fundente de calcário", "Calcário", "t", {"CO2": 0.44}, 10, 2e3),
    ),
    (2, "Eletricidade (localização)"): (
        ("Consumo da rede – fábrica", "Eletricidade (SIN)", "MWh", _GRID, 500, 2e4),
        ("Consumo da rede – escritório", "Eletricidade (SIN)", "MWh", _GRID, 20, 800),
        ("Consumo da rede – centro de distribuição", "Eletricidade (SIN)", "MWh", _GRID, 50, 3e3),
    ),
    (2, "Energia térmica adquirida"): (("Vapor comprado", "Vapor", "t", {"CO2": 0.21}, 100, 1e4),),
    (3, "Transporte e distribuição (upstream)"): (
        ("Frete rodoviário de insumos", "Óleo diesel", "t.km", _ROAD_FREIGHT, 1e4, 5e6),
    ),
    (3, "Transporte e distribuição (downstream)"): (
        ("Frete rodoviário de produtos", "Óleo diesel", "t.km", _ROAD_FREIGHT, 1e4, 5e6),
    ),
    (3, "Viagens a negócios"): (
        ("Voos nacionais", "Querosene de aviação", "passageiro.km", _FLIGHT_DOMESTIC, 1e3, 5e5),
        (
            "Voos internacionais",
            "Querosene de aviação",
            "passageiro.km",
            _FLIGHT_INTERNATIONAL,
            5e3,
            2e6,
        ),
        ("Táxi e aplicativos", "Gasolina C", "km", {"CO2": 1.3e-4, "CH4": 3e-8}, 100, 5e4),
    ),
    (3, "Deslocamento de funcionários"): (("Ônibus fretado", "Óleo diesel", "km", _BUS, 1e3, 3e5),),
    (3, "Resíduos gerados nas operações"): (
        ("Aterro sanitário", _NA, "t", {"CH4": 0.05}, 10, 2e3),
        ("Compostagem", _NA, "t", {"CH4": 4e-3, "N2O": 2.4e-4}, 5, 500),
        ("Tratamento de efluentes", _NA, "m³", {"CH4": 2.5e-4, "N2O": 1.6e-6}, 1e3, 1e5),
    ),
}


@cache
def _long_vocab() -> dict[str, np.ndarray]:
    """Source table flattened to one entry per (source, gas), plus per-source arrays."""
    src = [
        (scope, category, *entry)
        for (scope, category), entries in _LONG_SOURCES.items()
        for entry in entries
    ]
    n_gases = np.array([len(s[5]) for s in src])
    return {
        "scope": np.array([s[0] for s in src], dtype=np.int64),
        "category": np.array([s[1] for s in src], dtype=object),
        "source": np.array([s[2] for s in src], dtype=object),
        "fuel": np.array([s[3] for s in src], dtype=object),
        "unit": np.array([s[4] for s in src], dtype=object),
        "log_lo": np.log([s[6] for s in src]),
        "log_hi": np.log([s[7] for s in src]),
        "n_gases": n_gases,
        "first_combo": np.concatenate([[0], np.cumsum(n_gases)[:-1]]),
        "gas": np.array([gas for s in src for gas in s[5]], dtype=object),
        "ef": np.array([ef for s in src for ef in s[5].values()]),
        "facility": np.array(FACILITIES, dtype=object),
    }


def long_table(rows: int, *, seed: int = 0) -> pd.DataFrame:
    """A clean long-format inventory (one row per activity and gas), years 2023 and 2024.

    Deterministic for a given ``seed``; built with vectorised numpy so 100 000 rows take a
    fraction of a second. Gas rows of one activity are adjacent and share its quantity.
    """
    if rows < 0:
        raise ValueError("rows must be >= 0")
    v = _long_vocab()
    rng = np.random.default_rng(seed)
    # Each activity yields >= 1 gas row, so `rows` activities always suffice.
    src = rng.integers(0, len(v["scope"]), rows)
    facility = rng.integers(0, len(v["facility"]), rows)
    year = rng.choice(np.array([2023, 2024]), rows)
    span = v["log_hi"][src] - v["log_lo"][src]
    quantity = np.round(np.exp(v["log_lo"][src] + span * rng.random(rows)), 2)

    per_activity = v["n_gases"][src]
    act = np.repeat(np.arange(rows), per_activity)[:rows]
    starts = np.repeat(np.cumsum(per_activity) - per_activity, per_activity)[:rows]
    combo = v["first_combo"][src[act]] + (np.arange(len(act)) - starts)
    src_of_row = src[act]
    return pd.DataFrame(
        {
            "Escopo": v["scope"][src_of_row],
            "Categoria": v["category"][src_of_row],
            "Unidade": v["facility"][facility[act]],
            "Fonte": v["source"][src_of_row],
            "Combustível": v["fuel"][src_of_row],
            "Quantidade": quantity[act],
            "Unidade de medida": v["unit"][src_of_row],
            "Gás": v["gas"][combo],
            "Emissões (t)": np.round(quantity[act] * v["ef"][combo], 6),
            "Ano": year[act].astype(np.int64),
        },
        columns=list(LONG_COLUMNS),
    )


def as_xlsx(df: pd.DataFrame, *, sheet_name: str = "Inventário") -> bytes:
    """Write a DataFrame as a plain one-sheet .xlsx (header in row 1, openpyxl)."""
    wb = openpyxl.Workbook(write_only=True)  # streaming: much faster for 100k rows
    ws = wb.create_sheet(sheet_name)
    ws.append([str(c) for c in df.columns])
    # Column-wise .tolist() yields plain Python values; missing values become empty cells.
    columns = [df[c].astype(object).where(df[c].notna(), None).tolist() for c in df.columns]
    for record in zip(*columns, strict=True):
        ws.append(record)
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def as_csv(
    df: pd.DataFrame,
    *,
    encoding: str = "utf-8",
    delimiter: str = ",",
    decimal: str | None = None,
) -> bytes:
    """Write a DataFrame as CSV bytes; the decimal mark defaults to "," when delimiter is ";"."""
    if decimal is None:
        decimal = "," if delimiter == ";" else "."
    text = df.to_csv(index=False, sep=delimiter, decimal=decimal, lineterminator="\r\n")
    return text.encode(encoding)


# --------------------------------------------------------------------------------------------
# 4. Small hostile or broken inputs
# --------------------------------------------------------------------------------------------

SMALL_COLUMNS = (
    "Unidade",
    "Fonte emissora",
    "Combustível",
    "Quantidade",
    "Unidade de medida",
    "Gás",
    "Emissões (t)",
)
_SMALL_ROWS: tuple[tuple[str, str, str, float, str, str, float], ...] = (
    (_CONTAGEM, "Caldeira a vapor", "Gás natural", 125_000.0, "m³", "CO2", 249.63),
    (_CONTAGEM, "Caldeira a vapor", "Gás natural", 125_000.0, "m³", "CH4", 0.0045),
    (_BETIM, "Gerador de emergência", "Óleo diesel", 8_500.0, "litros", "CO2", 22.13),
    (_SAO_PAULO, "Ar-condicionado split", _NA, 12.6, "kg", "R-410A", 0.0126),
    (_BETIM, "Disjuntores da subestação", _NA, 1.2, "kg", "SF6", 0.0012),
)


def small_table() -> pd.DataFrame:
    """The small inventory table shared by the .ods, .xls and fake-.xlsx builders."""
    return pd.DataFrame(list(_SMALL_ROWS), columns=list(SMALL_COLUMNS))


def empty_file() -> bytes:
    """A zero-byte upload (browser sent the form without a file body)."""
    return b""


def text_pretending_to_be_xlsx() -> bytes:
    """CSV text to be saved under a .xlsx name: the extension lies, the content is text."""
    return as_csv(small_table(), encoding="cp1252", delimiter=";")


def _small_xlsx() -> bytes:
    return as_xlsx(small_table())


def corrupt_xlsx() -> bytes:
    """A valid .xlsx cut in half, like an interrupted download (zip central directory lost)."""
    data = _small_xlsx()
    return data[: len(data) // 2]


def zip_not_a_workbook() -> bytes:
    """A real zip archive (same PK magic as .xlsx) that holds only a text file."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("leia-me.txt", "Segue em anexo o inventário de 2024. Qualquer dúvida, avise.\n")
    return buf.getvalue()


_OLE2_SIGNATURE = bytes.fromhex("D0CF11E0A1B11AE1")


def password_protected_xlsx() -> bytes:
    """Mimics the detection surface of a password-protected .xlsx, not a real one.

    Excel saves encrypted OOXML as an OLE2 compound file (not a zip) holding
    "EncryptionInfo" and "EncryptedPackage" streams. ``msoffcrypto-tool`` is not available,
    so this returns the 8-byte OLE2 signature, a zero-padded 512-byte header and 128-byte
    directory-entry-sized records carrying those stream names in UTF-16LE. That is enough for
    magic-byte and stream-name sniffing; it is not a parseable compound file.
    """
    header = _OLE2_SIGNATURE.ljust(512, b"\x00")
    names = ("Root Entry", "\x06DataSpaces", "EncryptionInfo", "EncryptedPackage")
    entries = b"".join((name + "\x00").encode("utf-16-le").ljust(128, b"\x00") for name in names)
    return header + entries


def no_table_xlsx() -> bytes:
    """A workbook with only prose in column A: a memo pasted into Excel, no table at all."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Observações"
    lines = (
        "Inventário de emissões 2024 – observações da equipe",
        "Os dados da unidade de Betim ainda não foram consolidados.",
        "O consumo de energia elétrica será enviado pela área de facilities em março.",
        "Favor não alterar esta planilha sem falar com a coordenação de sustentabilidade.",
    )
    for row, line in enumerate(lines, start=1):
        ws.cell(row=row, column=1, value=line)
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def _csv_bytes(rows: Iterable[Iterable[Any]], *, encoding: str = "cp1252") -> bytes:
    text = io.StringIO()
    csv.writer(text, delimiter=";", lineterminator="\r\n").writerows(rows)
    return text.getvalue().encode(encoding)


def no_emissions_csv() -> bytes:
    """An activity-data table (cp1252, ";", decimal comma) with no emissions column at all."""
    return _csv_bytes(
        [
            ("Unidade", "Fonte", "Quantidade", "Unidade de medida"),
            (_CONTAGEM, "Caldeira a vapor", "125.000", "m³"),
            (_BETIM, "Gerador de emergência", "8.500,5", "litros"),
            (_SAO_PAULO, "Cozinha do refeitório", "3.600", "kg"),
            (_BETIM, "Consumo de energia elétrica", "5.230,8", "MWh"),
        ]
    )


def formula_injection_csv() -> bytes:
    """A valid inventory CSV (cp1252, ";", decimal comma) with CSV-injection payloads.

    Text cells start with "=", "+", "-" or "@" (spreadsheet formula triggers); the only
    legitimately negative number is "-3,5" in the emissions column (an estorno row).
    """
    return _csv_bytes(
        [
            ("Escopo", "Categoria", "Unidade", "Fonte", "Gás", "Emissões (t)"),
            ("1", "Combustão estacionária", _CONTAGEM, "Caldeira a vapor", "CO2", "249,63"),
            (
                "1",
                "Combustão estacionária",
                _CONTAGEM,
                '=HYPERLINK("http://x","clique")',
                "CH4",
                "0,0045",
            ),
            ("1", "Combustão móvel", _BETIM, "@SUM(A1:A2)", "CO2", "22,13"),
            ("1", "Combustão móvel", _BETIM, "+cmd|' /C calc'!A0", "N2O", "0,0012"),
            (
                "2",
                "Eletricidade (localização)",
                _SAO_PAULO,
                "-2+3+cmd|' /C calc'!A0",
                "CO2",
                "15,88",
            ),
            ("1", "Combustão móvel", _BETIM, "Estorno de abastecimento", "CO2", "-3,5"),
        ]
    )


def ods_workbook() -> bytes:
    """The small table as an OpenDocument spreadsheet (LibreOffice users), via pandas/odf."""
    buf = io.BytesIO()
    with pd.ExcelWriter(buf, engine="odf") as writer:
        small_table().to_excel(writer, sheet_name="Inventário", index=False)
    return buf.getvalue()


def xls_workbook() -> bytes:
    """The small table as a legacy Excel 97-2003 .xls (BIFF8), written cell by cell with xlwt."""
    book = xlwt.Workbook(encoding="utf-8")
    sheet = book.add_sheet("Inventário")
    for col, name in enumerate(SMALL_COLUMNS):
        sheet.write(0, col, name)
    for row, values in enumerate(_SMALL_ROWS, start=1):
        for col, value in enumerate(values):
            sheet.write(row, col, value)
    buf = io.BytesIO()
    book.save(buf)
    return buf.getvalue()


def xlsx(sheets: dict[str, list[list]], merges: dict[str, list[str]] | None = None) -> bytes:
    """A workbook of the given sheets (rows as lists) and merged ranges, as .xlsx bytes."""
    workbook = openpyxl.Workbook()
    workbook.remove(workbook.active)
    for name, rows in sheets.items():
        sheet = workbook.create_sheet(name)
        for row in rows:
            sheet.append(row)
        for cells in (merges or {}).get(name, []):
            sheet.merge_cells(cells)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


# --------------------------------------------------------------------------------------------
# The shipped sample workbook, read from its cells
# --------------------------------------------------------------------------------------------

#: R-404A by mass: HFC-125 44%, HFC-143a 52%, HFC-134a 4% (ASHRAE Standard 34).
SAMPLE_BLENDS: dict[str, dict[str, float]] = {
    **BLENDS,
    "R-404A": {"HFC-125": 0.44, "HFC-143a": 0.52, "HFC-134a": 0.04},
}


def sample_tco2e_by_scope(
    data: bytes, gwp_set: str = "AR5", ch4_gwp: float | None = None
) -> dict[str, float]:
    """t CO2e per scope ("1", "2", "3") of the sample workbook (``scripts/sample_inventory``),
    recomputed from its data cells: each sheet's title says its scope ("Escopo 1 – ..."); per-gas
    mass columns ("CO2 (t)", "CH4 (t)", "N2O (t)"; "Emissões (kg)" beside "Gás ou composto")
    are weighted with ``gwp_set`` (CH4 with ``ch4_gwp`` when given, e.g. AR6 fossil 29.8),
    blends by their composition; sheets with only "Emissões (t CO2e)" keep that figure.
    Biogenic CO2 stays out. For an expectation that must not come from the loader."""
    workbook = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    parts: dict[str, list[float]] = {}

    def weight(gas: str) -> float:
        if gas == "CH4" and ch4_gwp is not None:
            return ch4_gwp
        if gas in SAMPLE_BLENDS:
            return math.fsum(share * weight(p) for p, share in SAMPLE_BLENDS[gas].items())
        return gwp(gas, gwp_set)

    for sheet in workbook.worksheets:
        rows = list(sheet.iter_rows(values_only=True))
        title = str(rows[0][0] or "") if rows else ""
        header = next((r for r in rows if r and r[0] == "Unidade"), None)
        if not title.startswith("Escopo ") or header is None:
            continue
        scope = title.split()[1]
        start = rows.index(header) + 1
        end = next(i for i, r in enumerate(rows) if r and r[0] == "Total")
        for values in rows[start:end]:
            row = dict(zip(header, values, strict=False))
            masses = [(c.split()[0], row[c]) for c in ("CO2 (t)", "CH4 (t)", "N2O (t)") if c in row]
            if masses:
                tco2e = math.fsum((v or 0.0) * weight(gas) for gas, v in masses)
            elif "Emissões (kg)" in row:
                tco2e = row["Emissões (kg)"] / 1000 * weight(row["Gás ou composto"])
            else:
                tco2e = row["Emissões (t CO2e)"]
            parts.setdefault(scope, []).append(tco2e)
    workbook.close()
    return {scope: math.fsum(values) for scope, values in parts.items()}


def sample_headline_tco2e(data: bytes, gwp_set: str = "AR5", ch4_gwp: float | None = None) -> float:
    """The sample's total: the sum of its scopes (Scope 2 is location-based only)."""
    return math.fsum(sample_tco2e_by_scope(data, gwp_set, ch4_gwp).values())


def diesel_b_2024_tco2e(litres: float, use: str) -> tuple[float, float]:
    """(fossil CO2 t, t CO2e AR5) of ``litres`` of diesel B bought over 2024, by hand.

    Biodiesel share by volume, day-weighted over the year: B12 from 1 January to 29 February
    (60 days), B14 from 1 March (306 days) (CNPE). BEN conversion table: diesel A 840 kg/m³ and
    10,100 kcal/kg, biodiesel 880 kg/m³ and 9,000 kcal/kg; 1 kcal = 4.1868 kJ. IPCC 2006
    vol. 2, kg/TJ: CO2 74,100 on the fossil part (biodiesel's CO2 is biogenic, apart); CH4 and
    N2O on all the energy: "road" 3.9 / 3.9 (table 3.2.2), "stationary" (industry) 3 / 0.6
    (table 2.3). AR5: CH4 28, N2O 265."""
    ch4, n2o = {"road": (3.9, 3.9), "stationary": (3.0, 0.6)}[use]
    share = (60 * 0.12 + 306 * 0.14) / 366
    fossil_gj = litres * (1 - share) * 0.840 * 10_100 * 4.1868e-6
    all_gj = fossil_gj + litres * share * 0.880 * 9_000 * 4.1868e-6
    co2 = fossil_gj * 74_100 * 1e-6
    return co2, co2 + all_gj * (ch4 * 28 + n2o * 265) * 1e-6
