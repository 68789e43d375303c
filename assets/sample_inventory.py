"""The sample inventory: a fictional Brazilian ceramic-tile maker's 2024 GHG workbook.

"Cerâmica Vale Verde S.A." (plants in Santa Gertrudes/SP and Criciúma/SC, head office in
São Paulo) is laid out like the Brazilian GHG Protocol Program's calculation tool: a prose
"Sobre" sheet, then one sheet per category with a merged title, a two-row merged header,
the data rows, a "Total" row and a "Fonte: ..." note. Every emission is computed here from
activity data and fixed factors (IPCC 2006 defaults, AR5 GWPs), so the numbers and their
totals agree and the workbook is the same on every build.

Run ``python -m assets.sample_inventory`` to rewrite the shipped ``sample_inventory.xlsx``.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import openpyxl
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.utils import get_column_letter

SAMPLE_PATH = Path(__file__).with_name("sample_inventory.xlsx")
SAMPLE_NAME = "cerâmica_vale_verde_inventario_2024.xlsx"

COMPANY = "Cerâmica Vale Verde S.A."
YEAR = 2024

_SG = "Fábrica Santa Gertrudes (SP)"
_CR = "Fábrica Criciúma (SC)"
_SP = "Escritório São Paulo (SP)"

# AR5 GWP-100, as the Brazilian GHG Protocol Program uses; blends from their components.
_GWP = {"CO2": 1.0, "CH4": 28.0, "N2O": 265.0, "HFC-134a": 1300.0, "SF6": 23500.0}
_GWP["R-410A"] = 0.5 * 677.0 + 0.5 * 3170.0  # HFC-32 / HFC-125
_GWP["R-404A"] = 0.44 * 3170.0 + 0.52 * 4800.0 + 0.04 * 1300.0  # HFC-125 / 143a / 134a


@dataclass(frozen=True)
class _Fuel:
    """Tonnes emitted per unit of fuel: fossil CO2, CH4, N2O and biogenic CO2."""

    unit: str
    co2: float
    ch4: float
    n2o: float
    biogenic: float = 0.0


# Stationary use (IPCC 2006 vol. 2 ch. 2, manufacturing; Brazilian heating values).
_STATIONARY_FUELS = {
    "Gás natural": _Fuel("m³", 2.0645e-3, 3.68e-8, 3.68e-9),
    "Cavaco de madeira": _Fuel("t", 0.0, 3.48e-4, 4.64e-5, biogenic=1.2992),
    "GLP": _Fuel("kg", 2.9846e-3, 4.73e-8, 4.73e-9),
    "Óleo diesel (B14)": _Fuel("litros", 2.2386e-3, 1.065e-7, 2.13e-8, biogenic=3.403e-4),
}
# Mobile use (road and off-road defaults; diesel B14 and gasoline C with 27% ethanol).
_MOBILE_FUELS = {
    "Óleo diesel (B14)": _Fuel("litros", 2.2386e-3, 1.15e-7, 1.13e-7, biogenic=3.403e-4),
    "Gasolina C": _Fuel("litros", 1.6148e-3, 4.1e-7, 1.3e-7, biogenic=4.12e-4),
    "Etanol hidratado": _Fuel("litros", 0.0, 3.6e-7, 1.0e-8, biogenic=1.457e-3),
    "GLP": _Fuel("kg", 2.9846e-3, 2.93e-6, 9.5e-9),
}


@dataclass(frozen=True)
class _Sheet:
    name: str
    title: str
    groups: tuple[tuple[str, int, int], ...]  # (text, first column, last column), 1-based
    columns: tuple[str, ...]
    rows: tuple[tuple[object, ...], ...]
    totals: tuple[str, ...]  # the columns the "Total" row sums
    formats: dict[str, str]
    note: str


_IDENT = ("Unidade", "Fonte emissora")
_ACTIVITY = ("Quantidade", "Unidade de medida")
_GASES = ("CO2 (t)", "CH4 (t)", "N2O (t)")
_CO2E_TOTAL = "Emissões totais (t CO2e)"
_BIOGENIC = "CO2 biogênico (t)"
_NOTE_TOOL = (
    "Fonte: fatores de emissão padrão do IPCC (2006) e da Ferramenta de Cálculo do Programa "
    "Brasileiro GHG Protocol; GWP do AR5. Dados de atividade: notas fiscais e medições internas."
)
_GAS_FORMATS = {
    "Quantidade": "#,##0",
    "CO2 (t)": "#,##0.000",
    "CH4 (t)": "0.000000",
    "N2O (t)": "0.000000",
    _CO2E_TOTAL: "#,##0.000",
    _BIOGENIC: "#,##0.000",
}


def _nz(value: float, digits: int) -> float | None:
    """A rounded emission, or None (an empty cell) where the fuel emits none of that gas."""
    rounded = round(value, digits)
    return rounded if rounded else None


def _fuel_rows(
    fuels: dict[str, _Fuel], sources: tuple[tuple[str, str, str, float], ...]
) -> tuple[tuple[object, ...], ...]:
    rows = []
    for facility, source, fuel_name, quantity in sources:
        fuel = fuels[fuel_name]
        co2 = _nz(quantity * fuel.co2, 3)
        ch4 = _nz(quantity * fuel.ch4, 6)
        n2o = _nz(quantity * fuel.n2o, 6)
        co2e = (co2 or 0.0) + (ch4 or 0.0) * _GWP["CH4"] + (n2o or 0.0) * _GWP["N2O"]
        biogenic = _nz(quantity * fuel.biogenic, 3)
        row = (facility, source, fuel_name, quantity, fuel.unit, co2, ch4, n2o)
        rows.append((*row, round(co2e, 4), biogenic))
    return tuple(rows)


def _stationary() -> _Sheet:
    sources = (
        (_SG, "Forno a rolo 1 (queima)", "Gás natural", 2_460_000),
        (_SG, "Forno a rolo 2 (queima)", "Gás natural", 2_185_000),
        (_SG, "Atomizador (spray dryer)", "Gás natural", 2_070_000),
        (_SG, "Secador vertical", "Gás natural", 410_000),
        (_SG, "Estufa de esmaltação", "GLP", 36_500),
        (_SG, "Gerador de emergência", "Óleo diesel (B14)", 6_800),
        (_CR, "Forno a rolo 3 (queima)", "Gás natural", 2_310_000),
        (_CR, "Atomizador (spray dryer)", "Gás natural", 980_000),
        (_CR, "Caldeira de óleo térmico", "Cavaco de madeira", 3_400),
        (_SP, "Cozinha do escritório", "GLP", 2_400),
    )
    return _Sheet(
        name="Combustão estacionária",
        title=f"Escopo 1 – Combustão estacionária – {YEAR}",
        groups=(("Identificação", 1, 3), ("Consumo", 4, 5), ("Emissões (t)", 6, 10)),
        columns=(*_IDENT, "Combustível", *_ACTIVITY, *_GASES, _CO2E_TOTAL, _BIOGENIC),
        rows=_fuel_rows(_STATIONARY_FUELS, sources),
        totals=(*_GASES, _CO2E_TOTAL, _BIOGENIC),
        formats=_GAS_FORMATS,
        note=_NOTE_TOOL,
    )


def _mobile() -> _Sheet:
    sources = (
        (_SG, "Caminhões próprios – expedição", "Óleo diesel (B14)", 468_000),
        (_SG, "Pás carregadeiras – pátio de argila", "Óleo diesel (B14)", 92_400),
        (_SG, "Empilhadeiras", "GLP", 41_600),
        (_SG, "Veículos leves (flex)", "Gasolina C", 7_900),
        (_CR, "Caminhões próprios – expedição", "Óleo diesel (B14)", 286_500),
        (_CR, "Pás carregadeiras – pátio de argila", "Óleo diesel (B14)", 61_800),
        (_CR, "Empilhadeiras", "GLP", 27_300),
        (_CR, "Veículos leves (flex)", "Etanol hidratado", 11_300),
        (_SP, "Veículos leves (flex)", "Gasolina C", 18_200),
        (_SP, "Veículos leves (flex)", "Etanol hidratado", 24_600),
    )
    return _Sheet(
        name="Combustão móvel",
        title=f"Escopo 1 – Combustão móvel – {YEAR}",
        groups=(("Identificação", 1, 3), ("Consumo", 4, 5), ("Emissões (t)", 6, 10)),
        columns=(*_IDENT, "Combustível", *_ACTIVITY, *_GASES, _CO2E_TOTAL, _BIOGENIC),
        rows=_fuel_rows(_MOBILE_FUELS, sources),
        totals=(*_GASES, _CO2E_TOTAL, _BIOGENIC),
        formats=_GAS_FORMATS,
        note=_NOTE_TOOL,
    )


def _fugitive() -> _Sheet:
    sources = (
        (_SG, "Chiller da climatização industrial", "HFC-134a", 38.0),
        (_SG, "Ar-condicionado split – laboratório e escritório", "R-410A", 14.5),
        (_SG, "Disjuntores da subestação 138 kV", "SF6", 1.9),
        (_SG, "Ar-condicionado automotivo (frota)", "HFC-134a", 3.6),
        (_CR, "Ar-condicionado split – escritório", "R-410A", 9.2),
        (_CR, "Câmara fria do refeitório", "R-404A", 6.8),
        (_CR, "Disjuntores da subestação 69 kV", "SF6", 1.2),
        (_SP, "Ar-condicionado VRF – escritório", "R-410A", 21.0),
    )
    rows = tuple(
        (facility, source, gas, kg, round(kg / 1000 * _GWP[gas], 4))
        for facility, source, gas, kg in sources
    )
    return _Sheet(
        name="Emissões fugitivas",
        title=f"Escopo 1 – Emissões fugitivas – {YEAR}",
        groups=(("Identificação", 1, 3), ("Emissões", 4, 5)),
        columns=(*_IDENT, "Gás ou composto", "Emissões (kg)", "Emissões (t CO2e)"),
        rows=rows,
        totals=("Emissões (kg)", "Emissões (t CO2e)"),
        formats={"Emissões (kg)": "#,##0.0", "Emissões (t CO2e)": "#,##0.000"},
        note="Fonte: reposições de fluido registradas nas ordens de manutenção (método de "
        "balanço de massa); GWP do AR5, misturas pela composição em massa.",
    )


def _processes() -> _Sheet:
    sources = (  # t of fired material; t CO2 per t from the carbonate content of each input
        (_SG, "Queima – forno a rolo 1", "Massa cerâmica (argila Corumbataí)", 172_000, 0.0098),
        (_SG, "Queima – forno a rolo 2", "Massa cerâmica (argila Corumbataí)", 158_500, 0.0098),
        (_SG, "Queima de esmaltes e engobes", "Calcita e dolomita", 1_420, 0.4400),
        (_CR, "Queima – forno a rolo 3", "Massa cerâmica (argilas locais)", 176_000, 0.0071),
        (_CR, "Queima de esmaltes e engobes", "Calcita e dolomita", 930, 0.4400),
    )
    rows = []
    for facility, source, material, tonnes, factor in sources:
        co2 = round(tonnes * factor, 3)
        rows.append((facility, source, material, tonnes, "t", factor, co2, co2))
    return _Sheet(
        name="Processos industriais",
        title=f"Escopo 1 – Processos industriais (descarbonatação na queima) – {YEAR}",
        groups=(("Identificação", 1, 3), ("Consumo", 4, 6), ("Emissões (t)", 7, 8)),
        columns=(
            *_IDENT,
            "Insumo",
            *_ACTIVITY,
            "Fator de emissão (t CO2/t)",
            "CO2 (t)",
            _CO2E_TOTAL,
        ),
        rows=tuple(rows),
        totals=("CO2 (t)", _CO2E_TOTAL),
        formats={
            "Quantidade": "#,##0",
            "Fator de emissão (t CO2/t)": "0.0000",
            "CO2 (t)": "#,##0.000",
            _CO2E_TOTAL: "#,##0.000",
        },
        note="Fonte: teor de carbonatos por análise química das massas e esmaltes (laboratório "
        "interno, 2024); CO2 estequiométrico da decomposição de CaCO3 e MgCO3.",
    )


# Location-based grid factors: quarterly means of the SIN's monthly factors (t CO2/MWh).
_SIN_FACTORS = (0.0370, 0.0345, 0.0742, 0.0693)
_ELECTRICITY_MWH = {
    _SG: (8_120.4, 7_985.6, 8_310.2, 7_874.9),
    _CR: (5_460.8, 5_392.1, 5_618.5, 5_207.3),
    _SP: (61.4, 55.2, 58.9, 63.7),
}


def _electricity() -> _Sheet:
    rows = tuple(
        (facility, f"Rede SIN – {quarter}º trimestre", mwh, "MWh", factor, round(mwh * factor, 4))
        for facility, quarters in _ELECTRICITY_MWH.items()
        for quarter, (mwh, factor) in enumerate(zip(quarters, _SIN_FACTORS, strict=True), 1)
    )
    return _Sheet(
        name="Eletricidade (localização)",
        title=f"Escopo 2 – Eletricidade (abordagem de localização) – {YEAR}",
        groups=(("Identificação", 1, 2), ("Consumo", 3, 5), ("Emissões", 6, 6)),
        columns=(*_IDENT, *_ACTIVITY, "Fator de emissão (t CO2/MWh)", "Emissões (t CO2e)"),
        rows=rows,
        totals=("Quantidade", "Emissões (t CO2e)"),
        formats={
            "Quantidade": "#,##0.0",
            "Fator de emissão (t CO2/MWh)": "0.0000",
            "Emissões (t CO2e)": "#,##0.000",
        },
        note="Fonte: faturas das distribuidoras (Elektro e Celesc); fatores médios mensais do "
        "Sistema Interligado Nacional publicados pelo MCTI, agregados por trimestre.",
    )


def _travel() -> _Sheet:
    short, medium, long = (
        "Voos nacionais – curta distância (até 500 km)",
        "Voos nacionais – média distância (500 a 3.700 km)",
        "Voos internacionais – longa distância (acima de 3.700 km)",
    )
    factors = {short: 0.000158, medium: 0.000103, long: 0.000112}  # t CO2e per passenger-km
    sources = (
        (_SP, short, "Congonhas – Curitiba", 142_300),
        (_SP, medium, "Guarulhos – Recife", 611_800),
        (_SP, long, "Guarulhos – Bolonha (feira Cersaie)", 488_600),
        (_SG, medium, "Viracopos – Salvador", 214_500),
        (_CR, short, "Florianópolis – Porto Alegre", 58_700),
        (_CR, long, "Florianópolis – Valência (feira Cevisama)", 97_200),
    )
    rows = tuple(
        (facility, kind, route, pkm, "passageiro.km", factors[kind], round(pkm * factors[kind], 4))
        for facility, kind, route, pkm in sources
    )
    return _Sheet(
        name="Escopo 3 – Viagens",
        title=f"Escopo 3 – Categoria 6: Viagens a negócios (aéreas) – {YEAR}",
        groups=(("Identificação", 1, 3), ("Consumo", 4, 6), ("Emissões", 7, 7)),
        columns=(
            *_IDENT,
            "Trecho típico",
            *_ACTIVITY,
            "Fator de emissão (t CO2e/passageiro.km)",
            "Emissões (t CO2e)",
        ),
        rows=rows,
        totals=("Emissões (t CO2e)",),
        formats={
            "Quantidade": "#,##0",
            "Fator de emissão (t CO2e/passageiro.km)": "0.000000",
            "Emissões (t CO2e)": "#,##0.000",
        },
        note="Fonte: relatório da agência de viagens (bilhetes emitidos em 2024); fatores por "
        "passageiro.km da Ferramenta GHG Protocol para transporte aéreo.",
    )


def _waste() -> _Sheet:
    factors = {  # t CO2e per t landfilled (first-order decay, managed sanitary landfill)
        "Resíduos orgânicos do refeitório": 0.92,
        "Resíduos comuns não recicláveis": 0.58,
        "Madeira de paletes danificados": 0.61,
        "Papel e papelão contaminados": 1.12,
    }
    sources = (
        (_SG, "Resíduos orgânicos do refeitório", 186.4),
        (_SG, "Resíduos comuns não recicláveis", 242.7),
        (_SG, "Madeira de paletes danificados", 96.3),
        (_CR, "Resíduos orgânicos do refeitório", 121.8),
        (_CR, "Resíduos comuns não recicláveis", 168.2),
        (_CR, "Papel e papelão contaminados", 38.5),
        (_SP, "Resíduos comuns não recicláveis", 14.6),
    )
    rows = tuple(
        (facility, waste, "Aterro sanitário", t, "t", factors[waste], round(t * factors[waste], 4))
        for facility, waste, t in sources
    )
    return _Sheet(
        name="Escopo 3 – Resíduos",
        title=f"Escopo 3 – Categoria 5: Resíduos gerados nas operações – {YEAR}",
        groups=(("Identificação", 1, 3), ("Consumo", 4, 6), ("Emissões", 7, 7)),
        columns=(
            *_IDENT,
            "Destinação",
            *_ACTIVITY,
            "Fator de emissão (t CO2e/t)",
            "Emissões (t CO2e)",
        ),
        rows=rows,
        totals=("Quantidade", "Emissões (t CO2e)"),
        formats={
            "Quantidade": "#,##0.0",
            "Fator de emissão (t CO2e/t)": "0.00",
            "Emissões (t CO2e)": "#,##0.000",
        },
        note="Fonte: manifestos de transporte de resíduos (MTR/SINIR) de 2024; fatores da "
        "Ferramenta GHG Protocol para aterro sanitário com captação parcial de metano.",
    )


_SHEETS: tuple[Callable[[], _Sheet], ...] = (
    _stationary, _mobile, _fugitive, _processes, _electricity, _travel, _waste,
)  # fmt: skip

_ABOUT = (
    f"Inventário de emissões de gases de efeito estufa – ano-base {YEAR}",
    "",
    f"Empresa: {COMPANY} (empresa fictícia; dados de demonstração da Aeko Studio)",
    "Setor: fabricação de revestimentos cerâmicos (pisos, porcelanatos e revestimentos de "
    "parede), CNAE 23.42-7",
    f"Unidades inventariadas: {_SG}, {_CR} e {_SP}",
    f"Período: 1º de janeiro a 31 de dezembro de {YEAR}",
    "Limite organizacional: controle operacional (100% das emissões das unidades operadas)",
    "Potenciais de aquecimento global: IPCC, Quinto Relatório de Avaliação (AR5), horizonte de "
    "100 anos",
    "Metodologia: Especificações do Programa Brasileiro GHG Protocol e ABNT NBR ISO 14064-1.",
    "O escopo 2 segue a abordagem baseada em localização (fatores médios do SIN).",
    "As emissões de CO2 biogênico (cavaco de madeira, etanol e a parcela de biodiesel do "
    "diesel B14) são relatadas à parte e não compõem o total do inventário.",
    "Escopo 3 relatado: categoria 5 (resíduos gerados nas operações) e categoria 6 (viagens "
    "a negócios).",
    "",
    "Contato: Coordenação de Sustentabilidade – sustentabilidade@valeverde.example",
)

_TITLE_FONT = Font(bold=True, size=13, color="1F5F3F")
_HEADER_FONT = Font(bold=True)
_GROUP_FILL = PatternFill("solid", fgColor="C6E0B4")
_HEADER_FILL = PatternFill("solid", fgColor="E2EFDA")
_TOTAL_FILL = PatternFill("solid", fgColor="F2F2F2")
_CENTER = Alignment(horizontal="center", vertical="center", wrap_text=True)
_THIN = Side(style="thin", color="A6A6A6")
_BOX = Border(left=_THIN, right=_THIN, top=_THIN, bottom=_THIN)
_FIXED_TIME = datetime(2025, 3, 31, 12, 0, 0)


def _write_about(workbook: openpyxl.Workbook) -> None:
    sheet = workbook.active
    sheet.title = "Sobre"
    for row, line in enumerate(_ABOUT, start=1):
        if line:
            sheet.cell(row=row, column=1, value=line)
    sheet["A1"].font = _TITLE_FONT
    sheet.column_dimensions["A"].width = 120


def _write_sheet(workbook: openpyxl.Workbook, spec: _Sheet) -> None:
    sheet = workbook.create_sheet(spec.name)
    width = len(spec.columns)
    sheet.cell(row=1, column=1, value=spec.title).font = _TITLE_FONT
    sheet.merge_cells(start_row=1, start_column=1, end_row=1, end_column=width)

    group_row, names_row = 3, 4
    for text, first, last in spec.groups:
        cell = sheet.cell(row=group_row, column=first, value=text)
        if last > first:
            sheet.merge_cells(
                start_row=group_row, start_column=first, end_row=group_row, end_column=last
            )
        for column in range(first, last + 1):
            target = sheet.cell(row=group_row, column=column)
            target.fill, target.border = _GROUP_FILL, _BOX
        cell.font, cell.alignment = _HEADER_FONT, _CENTER
    for column, name in enumerate(spec.columns, start=1):
        cell = sheet.cell(row=names_row, column=column, value=name)
        cell.font, cell.fill, cell.alignment, cell.border = (
            _HEADER_FONT, _HEADER_FILL, _CENTER, _BOX,
        )  # fmt: skip
        longest = max(len(str(row[column - 1])) for row in spec.rows)
        letter = get_column_letter(column)
        sheet.column_dimensions[letter].width = min(48, max(12, longest + 2, len(name) // 2 + 4))
    sheet.row_dimensions[names_row].height = 32

    row = names_row
    for values in spec.rows:
        row += 1
        for column, value in enumerate(values, start=1):
            cell = sheet.cell(row=row, column=column, value=value)
            cell.border = _BOX
            number_format = spec.formats.get(spec.columns[column - 1])
            if number_format and isinstance(value, int | float):
                cell.number_format = number_format

    row += 1
    label = sheet.cell(row=row, column=1, value="Total")
    for column in range(1, width + 1):
        cell = sheet.cell(row=row, column=column)
        cell.font, cell.fill, cell.border = _HEADER_FONT, _TOTAL_FILL, _BOX
    for name in spec.totals:
        index = spec.columns.index(name)
        numbers = [r[index] for r in spec.rows if isinstance(r[index], int | float)]
        cell = sheet.cell(row=row, column=index + 1, value=round(math.fsum(numbers), 6))
        cell.number_format = spec.formats.get(name, "#,##0.000")
    label.font = _HEADER_FONT
    sheet.cell(row=row + 2, column=1, value=spec.note).font = Font(italic=True, size=9)
    sheet.freeze_panes = sheet.cell(row=names_row + 1, column=1)


def build_sample_workbook() -> bytes:
    """The sample inventory as .xlsx bytes; the same data on every call."""
    workbook = openpyxl.Workbook()
    workbook.properties.title = f"Inventário GEE {YEAR} – {COMPANY}"
    workbook.properties.creator = "Aeko Studio (dados de demonstração)"
    workbook.properties.created = _FIXED_TIME
    _write_about(workbook)
    for make in _SHEETS:
        _write_sheet(workbook, make())
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def main() -> None:
    SAMPLE_PATH.write_bytes(build_sample_workbook())
    print(f"wrote {SAMPLE_PATH}")


if __name__ == "__main__":
    main()
