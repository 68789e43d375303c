"""Workbooks in the layouts of issue #21, with the totals a careful analyst computes by hand.

Every builder writes a workbook with openpyxl and returns its bytes together with the expected
figures, computed here with Decimal from the numbers written (never with the engine). Domain
values are cited where they are used; the Brazilian blend shares and grid factors are read
from the text of ``engine/emissions/data/blends.csv`` and ``grid.csv`` (data, not code).
"""

from __future__ import annotations

import csv
import io
import re
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal as D
from pathlib import Path

import openpyxl
from openpyxl.worksheet.worksheet import Worksheet

ZERO = D(0)
MONTHS_PT = ("jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez")
DATA = Path(__file__).resolve().parent.parent / "engine" / "emissions" / "data"

# IPCC AR5 WG1 Ch. 8, Table 8.A.1, GWP-100 without climate-carbon feedback (the set of the
# Brazilian GHG Protocol Program). Fossil methane is 30 in the same table; AR5 here means 28.
GWP_AR5 = {"CO2": D(1), "CH4": D(28), "N2O": D(265), "HFC-32": D(677), "HFC-125": D(3170),
           "HFC-134a": D(1300)}  # fmt: skip
# R-410A is 50 % HFC-32 and 50 % HFC-125 by mass (ASHRAE Standard 34): 0.5·677 + 0.5·3170.
GWP_R410A = D("0.5") * GWP_AR5["HFC-32"] + D("0.5") * GWP_AR5["HFC-125"]  # = 1923.5

# BEN conversion table (Balanço Energético Nacional), as given in issue #21's domain review.
KJ_PER_KCAL = D("4.1868")
NG_KCAL_PER_M3 = D(8800)  # dry natural gas, PCI
DIESEL_KG_PER_L, DIESEL_KCAL_PER_KG = D("0.840"), D(10100)
GASOLINE_A_KG_PER_L, GASOLINE_A_KCAL_PER_KG = D("0.742"), D(10400)
ETHANOL_ANHYDROUS_KG_PER_L, ETHANOL_ANHYDROUS_KCAL_PER_KG = D("0.791"), D(6750)
BIODIESEL_KG_PER_L, BIODIESEL_KCAL_PER_KG = D("0.880"), D(9000)
LPG_KCAL_PER_KG = D(11100)

# IPCC 2006 Vol. 2, kg per TJ (net calorific basis).
# Ch. 1 Table 1.4 (CO2): natural gas 56,100; LPG 63,100; gas/diesel oil 74,100; motor gasoline
# 69,300; biodiesels and biogasoline 70,800 (biogenic, reported apart).
# Ch. 2 Table 2.3 (manufacturing industries and construction): natural gas and LPG CH4 1, N2O 0.1.
# Ch. 3 Table 3.2.2 (road): diesel CH4 3.9, N2O 3.9; motor gasoline, oxidation catalyst, CH4 25,
# N2O 8; "ethanol, cars, Brazil" CH4 18 (N2O not published: the fossil fuel's value stands in,
# as engine/emissions/activities.toml documents for a blend's bio part; biodiesel likewise).
EF = {
    "natural_gas@manufacturing": {"CO2": D(56100), "CH4": D(1), "N2O": D("0.1")},
    "lpg@manufacturing": {"CO2": D(63100), "CH4": D(1), "N2O": D("0.1")},
    "diesel@road": {"CO2": D(74100), "CH4": D("3.9"), "N2O": D("3.9")},
    "biodiesel@road": {"CO2_biogenic": D(70800), "CH4": D("3.9"), "N2O": D("3.9")},
    "gasoline@road": {"CO2": D(69300), "CH4": D(25), "N2O": D(8)},
    "ethanol@road": {"CO2_biogenic": D(70800), "CH4": D(18), "N2O": D(8)},
}


@dataclass(frozen=True)
class Built:
    """A workbook and what a correct reading reports, computed from what was written."""

    data: bytes
    filename: str
    layout: str  # what it makes the loader handle
    total_tco2e: D  # headline: latest year, no biogenic CO2
    scopes: dict[str, D] | None = None  # t CO2e per scope, None when the file has no scope
    gases: dict[str, D] | None = None  # t CO2e per gas; "other" = every other gas together
    biogenic_co2_t: D = ZERO
    year: str | None = None
    by_year: dict[str, D] = field(default_factory=dict)
    status: str | tuple[str, ...] = "reconciled"  # Inventory.status (or the statuses allowed)
    sheet_status: dict[str, str] = field(default_factory=dict)  # SheetCheck.status per sheet
    # per sheet: t CO2e its rows add up to in the headline year
    by_sheet: dict[str, D] = field(default_factory=dict)
    extra: dict[str, object] = field(default_factory=dict)
    # False where no headline is defined until the user decides (a conflict, an ambiguous unit)
    check_total: bool = True


class _Tally:
    def __init__(self) -> None:
        self.scopes: dict[str, D] = {}
        self.gases: dict[str, D] = {}
        self.biogenic = ZERO

    def add(self, scope: str, gas: str, tco2e: D) -> None:
        self.scopes[scope] = self.scopes.get(scope, ZERO) + tco2e
        key = gas if gas in ("CO2", "CH4", "N2O") else "other"
        self.gases[key] = self.gases.get(key, ZERO) + tco2e

    def add_gases(self, scope: str, tonnes: dict[str, D]) -> D:
        """Masses of CO2, CH4, N2O in t -> t CO2e (AR5), tallied; returns the row's t CO2e."""
        row = ZERO
        for gas, mass in tonnes.items():
            tco2e = mass * GWP_AR5[gas]
            self.add(scope, gas, tco2e)
            row += tco2e
        return row

    @property
    def total(self) -> D:
        return sum(self.gases.values(), ZERO)


def _save(wb: openpyxl.Workbook) -> bytes:
    buffer = io.BytesIO()
    wb.save(buffer)
    return buffer.getvalue()


def _f(value: D) -> float:
    return float(value)


def _q(value: D, places: int) -> D:
    return value.quantize(D(1).scaleb(-places))


def _row(ws: Worksheet, at: int, values: Sequence[object], start: int = 1) -> None:
    for column, value in enumerate(values, start=start):
        if value is not None:
            ws.cell(row=at, column=column, value=_f(value) if isinstance(value, D) else value)


# --- domain data read from the library's CSV text (values with their legal sources) ---------


def _dated_value(file: str, key: str, day: date) -> D:
    """The value of ``key`` valid on ``day`` in one of the library's data CSVs."""
    with (DATA / file).open(encoding="utf-8") as f:
        for row in csv.DictReader(f):
            start = date.fromisoformat(row["valid_from"]) if row["valid_from"] else date.min
            end = date.fromisoformat(row["valid_to"]) if row["valid_to"] else date.max
            if row["key"] == key and start <= day <= end:
                return D(row["value"])
    raise LookupError(f"{key} on {day} not in {file}")


def biodiesel_share(year: int, month: int) -> D:
    """Biodiesel in diesel B, % by volume (blends.csv: CNPE resolutions)."""
    return _dated_value("blends.csv", "diesel_b.biodiesel_share", date(year, month, 1))


def ethanol_share(year: int, month: int) -> D:
    """Anhydrous ethanol in gasoline C, % by volume (blends.csv: CIMA resolution, E27)."""
    return _dated_value("blends.csv", "gasoline_c.ethanol_share", date(year, month, 1))


def grid_factor(year: int, month: int) -> D:
    """t CO2/MWh of the Brazilian SIN, monthly average factor (grid.csv: MCTI/SIRENE)."""
    return _dated_value("grid.csv", "electricity@grid", date(year, month, 1))


# --- hand arithmetic: energy content, then IPCC factors --------------------------------------


def _tj(quantity: D, kg_per_unit: D, kcal_per_kg: D) -> D:
    return quantity * kg_per_unit * kcal_per_kg * KJ_PER_KCAL / D(10) ** 9  # kJ -> TJ


def _gases(tj: D, factors: dict[str, D]) -> dict[str, D]:
    return {gas: tj * kg_per_tj / 1000 for gas, kg_per_tj in factors.items()}  # kg -> t


def _merge(*parts: dict[str, D]) -> dict[str, D]:
    out: dict[str, D] = {}
    for part in parts:
        for gas, t in part.items():
            out[gas] = out.get(gas, ZERO) + t
    return out


def natural_gas_t(m3: D) -> dict[str, D]:
    return _gases(m3 * NG_KCAL_PER_M3 * KJ_PER_KCAL / D(10) ** 9, EF["natural_gas@manufacturing"])


def lpg_t(kg: D) -> dict[str, D]:
    return _gases(_tj(kg, D(1), LPG_KCAL_PER_KG), EF["lpg@manufacturing"])


def diesel_b_road_t(litres: D, share_pct: D) -> dict[str, D]:
    """Diesel B: the fossil and the biodiesel volumes, each with its own BEN density and NCV."""
    bio = litres * share_pct / 100
    fossil = _tj(litres - bio, DIESEL_KG_PER_L, DIESEL_KCAL_PER_KG)
    biodiesel = _tj(bio, BIODIESEL_KG_PER_L, BIODIESEL_KCAL_PER_KG)
    return _merge(_gases(fossil, EF["diesel@road"]), _gases(biodiesel, EF["biodiesel@road"]))


def gasoline_c_road_t(litres: D, share_pct: D) -> dict[str, D]:
    """Gasoline C: gasoline A plus anhydrous ethanol, each with its own BEN density and NCV."""
    bio = litres * share_pct / 100
    fossil = _tj(litres - bio, GASOLINE_A_KG_PER_L, GASOLINE_A_KCAL_PER_KG)
    ethanol = _tj(bio, ETHANOL_ANHYDROUS_KG_PER_L, ETHANOL_ANHYDROUS_KCAL_PER_KG)
    return _merge(_gases(fossil, EF["gasoline@road"]), _gases(ethanol, EF["ethanol@road"]))


def _fossil(tonnes: dict[str, D]) -> dict[str, D]:
    return {g: t for g, t in tonnes.items() if g != "CO2_biogenic"}


# --- a. company inventory, one sheet per source ---------------------------------------------

YEAR_A = 2022
_STATIONARY_A = (  # source, fuel, quantity, unit
    ("Caldeira de vapor 1", "Gás natural", D(9_180_000), "m³"),
    ("Caldeira de vapor 2", "Gás natural", D(5_640_000), "m³"),
    ("Forno de secagem", "GLP", D(42_000), "kg"),
)
_MOBILE_A = (  # vehicle, fuel, litres jan..dez
    ("Caminhões de logística interna", "Óleo diesel S10",
     (15820, 14960, 16410, 15230, 16880, 15540, 15990, 17120, 16250, 16730, 15380, 14470)),
    ("Caminhonetes de manutenção", "Óleo diesel S10",
     (2110, 1980, 2240, 2060, 2190, 2020, 2150, 2280, 2130, 2210, 2040, 1890)),
    ("Veículos leves administrativos", "Gasolina C",
     (1850, 1720, 1930, 1810, 1960, 1790, 1880, 2010, 1900, 1940, 1830, 1690)),
)  # fmt: skip
_FUGITIVE_A = (("Câmara fria", "HFC-134a", D("0.085")), ("Chillers", "R-410A", D("0.062")))
_ELECTRICITY_A = (  # consumer unit, MWh jan..dez
    ("Planta industrial", (3420, 3180, 3510, 3290, 3380, 3240, 3310, 3460, 3350, 3490, 3270, 3120)),
    ("Centro de distribuição", (210, 195, 220, 205, 212, 198, 204, 216, 209, 218, 201, 190)),
)


def company_inventory() -> Built:
    """(a) One sheet per source; litres per month beside the mobile combustion's emissions."""
    wb = openpyxl.Workbook()
    intro = wb.active
    intro.title = "Identificação"
    _row(intro, 1, ["Inventário de emissões de GEE — Indústria Exemplo S.A."])
    _row(intro, 2, ["Ano inventariado", YEAR_A])
    tally = _Tally()
    by_sheet: dict[str, D] = {}

    # Stationary: per-gas t, a CO2e total column and a total row.
    ws = wb.create_sheet("Combustão estacionária")
    _row(ws, 1, [f"Combustão estacionária — {YEAR_A}"])
    _row(ws, 3, ["Fonte de emissão", "Combustível", "Consumo", "Unidade", "CO2 (t)", "CH4 (t)",
                 "N2O (t)", "Total (t CO2e)"])  # fmt: skip
    at, sums = 4, {"CO2": ZERO, "CH4": ZERO, "N2O": ZERO, "tco2e": ZERO}
    for source, fuel, quantity, unit in _STATIONARY_A:
        raw = natural_gas_t(quantity) if unit == "m³" else lpg_t(quantity)
        written = {"CO2": _q(raw["CO2"], 3), "CH4": _q(raw["CH4"], 6), "N2O": _q(raw["N2O"], 6)}
        tco2e = tally.add_gases("1", written)
        _row(ws, at, [source, fuel, quantity, unit, *written.values(), tco2e])
        for gas, t in written.items():
            sums[gas] += t
        sums["tco2e"] += tco2e
        at += 1
    _row(ws, at, ["Total", None, None, None, *sums.values()])
    by_sheet[ws.title] = sums["tco2e"]

    # Mobile: litres per month and "Total anual" under a merged group header, then fossil
    # emissions (t) over CO2/CH4/N2O and biogenic emissions (t) over CO2.
    ws = wb.create_sheet("Combustão móvel")
    _row(ws, 1, [f"Combustão móvel — frota própria — {YEAR_A}"])
    _row(ws, 3, ["Veículo / frota", "Combustível", "Consumo de combustível (litros)"])
    ws.merge_cells(start_row=3, start_column=3, end_row=3, end_column=15)
    ws.cell(row=3, column=16, value="Emissões fósseis (t)")
    ws.merge_cells(start_row=3, start_column=16, end_row=3, end_column=18)
    ws.cell(row=3, column=19, value="Emissões biogênicas (t)")
    ws.merge_cells("A3:A4")
    ws.merge_cells("B3:B4")
    _row(ws, 4, [*MONTHS_PT, "Total anual", "CO2", "CH4", "N2O", "CO2"], start=3)
    at, mobile, litres_written = 5, ZERO, ZERO
    for vehicle, fuel, months in _MOBILE_A:
        litres = [D(v) for v in months]
        parts = [
            diesel_b_road_t(v, biodiesel_share(YEAR_A, m))
            if "diesel" in fuel.lower()
            else gasoline_c_road_t(v, ethanol_share(YEAR_A, m))
            for m, v in enumerate(litres, start=1)
        ]
        raw = _merge(*parts)
        fossil = {"CO2": _q(raw["CO2"], 3), "CH4": _q(raw["CH4"], 6), "N2O": _q(raw["N2O"], 6)}
        biogenic = _q(raw["CO2_biogenic"], 3)
        mobile += tally.add_gases("1", fossil)
        tally.biogenic += biogenic
        litres_written += sum(litres, ZERO)
        _row(ws, at, [vehicle, fuel, *litres, sum(litres, ZERO), *fossil.values(), biogenic])
        at += 1
    by_sheet[ws.title] = mobile

    # Fugitive: t of gas and t CO2e, a total row.
    ws = wb.create_sheet("Emissões fugitivas")
    _row(ws, 1, [f"Emissões fugitivas — refrigeração — {YEAR_A}"])
    _row(ws, 3, ["Equipamento", "Gás", "Emissões (t)", "Emissões (t CO2e)"])
    at, fugitive = 4, ZERO
    for equipment, gas, tonnes in _FUGITIVE_A:
        tco2e = tonnes * (GWP_R410A if gas == "R-410A" else GWP_AR5[gas])
        tally.add("1", gas, tco2e)
        fugitive += tco2e
        _row(ws, at, [equipment, gas, tonnes, tco2e])
        at += 1
    _row(ws, at, ["Total", None, None, fugitive])
    by_sheet[ws.title] = fugitive

    # Electricity (location-based): MWh per month under a group header, emissions in t CO2.
    ws = wb.create_sheet("Energia elétrica")
    _row(ws, 1, [f"Escopo 2 — energia elétrica comprada (abordagem de localização) — {YEAR_A}"])
    _row(ws, 3, ["Unidade consumidora", "Consumo de energia elétrica (MWh)"])
    ws.merge_cells(start_row=3, start_column=2, end_row=3, end_column=13)
    ws.cell(row=3, column=14, value="Emissões (t CO2)")
    _row(ws, 4, MONTHS_PT, start=2)
    at, electricity = 5, ZERO
    for unit_name, months in _ELECTRICITY_A:
        co2 = _q(sum((D(v) * grid_factor(YEAR_A, m) for m, v in enumerate(months, 1)), ZERO), 3)
        tally.add("2", "CO2", co2)
        electricity += co2
        _row(ws, at, [unit_name, *[D(v) for v in months], co2])
        at += 1
    by_sheet[ws.title] = electricity

    return Built(
        _save(wb), "inventario_empresa_2022.xlsx",
        "company inventory: months of litres and MWh beside emissions, a sheet per source",
        tally.total, dict(tally.scopes), dict(tally.gases), tally.biogenic, str(YEAR_A),
        # The mobile and electricity sheets carry no total of their emissions: their figures
        # agree with our factor library (a proof of their unit), but nothing in the workbook
        # checks them, so they are unverified, never in conflict (issue #21, point 5).
        status="unverified",
        sheet_status={
            **dict.fromkeys(by_sheet, "reconciled"),
            "Combustão móvel": "unverified",
            "Energia elétrica": "unverified",
        },
        by_sheet=by_sheet,
        extra={"mobile_litres": litres_written},
    )  # fmt: skip


# --- b. GPC city export: per-gas kg CO2e, the total in t CO2e by its unit column -------------

_GPC = (  # GPC ref, sector, sub-sector, scope, CO2 / CH4 / N2O in kg CO2e
    ("I.1.1", "Stationary Energy", "Residential buildings", "1", 96_842_310, 2_113_480, 618_270),
    ("I.1.2", "Stationary Energy", "Residential buildings", "2", 58_210_440, 0, 0),
    ("I.2.1", "Stationary Energy", "Commercial and institutional", "1",
     41_377_900, 905_110, 231_640),
    ("I.2.2", "Stationary Energy", "Commercial and institutional", "2", 64_918_230, 0, 0),
    ("I.3.1", "Stationary Energy", "Manufacturing industries and construction", "1",
     318_450_120, 6_214_870, 1_988_410),
    ("I.3.2", "Stationary Energy", "Manufacturing industries and construction", "2",
     97_603_550, 0, 0),
    ("II.1.1", "Transportation", "On-road", "1", 1_087_330_780, 14_870_220, 11_402_960),
    ("II.2.1", "Transportation", "Railways", "1", 12_884_310, 22_450, 1_350_180),
    ("II.4.3", "Transportation", "Aviation", "3", 61_502_740, 15_880, 1_722_390),
    ("III.1.1", "Waste", "Solid waste disposal", "1", 0, 298_415_660, 0),
    ("III.1.2", "Waste", "Solid waste disposal", "3", 0, 41_290_330, 0),
    ("III.4.1", "Waste", "Wastewater treatment and discharge", "1", 0, 35_018_940, 6_214_050),
)  # fmt: skip


def gpc_city_export() -> Built:
    """(b) Per-gas columns with no unit (kg CO2e); the total in t CO2e by a unit column."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Inventory"
    _row(ws, 1, ["Inventory Year", "GPC ref. no.", "Sector", "Sub-sector", "Scope",
                 "CO2 Emissions", "CH4 Emissions", "N2O Emissions", "Total Emissions",
                 "Total Emission Units"])  # fmt: skip
    tally = _Tally()
    for at, (ref, sector, sub, scope, co2, ch4, n2o) in enumerate(_GPC, start=2):
        for gas, kg in (("CO2", co2), ("CH4", ch4), ("N2O", n2o)):
            tally.add(scope, gas, D(kg) / 1000)  # kg CO2e -> t CO2e
        total_t = D(co2 + ch4 + n2o) / 1000
        _row(ws, at, [2022, ref, sector, sub, int(scope), co2, ch4, n2o, total_t, "t CO2e"])
    return Built(
        _save(wb), "city_gpc_export_2022.xlsx",
        "GPC export: per-gas kg CO2e, 'Total Emissions' in t CO2e by 'Total Emission Units'",
        tally.total, dict(tally.scopes), dict(tally.gases), year="2022",
        status="reconciled", sheet_status={"Inventory": "reconciled"},
    )  # fmt: skip


# --- c. the unit only in the label column's header, in a title line, in cell A1 --------------

_CODED = (  # label, values 2018..2020 (Gg CO2e); leaves only carry numbers here
    ("1. Energia", None),
    ("1.A. Atividades de queima de combustíveis", None),
    ("1.A.1. Indústrias de energia", ("70412.55", "68920.17", "66104.83")),
    ("1.A.3.b. Transporte rodoviário", ("186220.40", "189771.92", "176530.08")),
    ("1.B. Emissões fugitivas", ("19874.31", "20461.41", "20622.43")),
    ("2. Processos industriais", None),
    ("2.A.1. Produção de cimento", ("19540.72", "20110.36", "21874.05")),
    ("2.C. Indústria metalúrgica", ("46312.88", "44208.51", "43991.27")),
)
_CODED_YEARS = ("2018", "2019", "2020")


def _code(label: str) -> str:
    return label.split(" ", 1)[0].rstrip(".")


def _coded_values() -> tuple[list[tuple[str, list[D]]], dict[str, D]]:
    """Every row's values (a parent is the sum of the leaves under its code) and the yearly
    totals (the sum of the leaves), in Gg."""
    leaves = {_code(lab): [D(v) for v in vals] for lab, vals in _CODED if vals is not None}
    rows = []
    for label, _ in _CODED:
        code = _code(label)
        under = [v for c, v in leaves.items() if c == code or c.startswith(code + ".")]
        rows.append((label, [sum(col, ZERO) for col in zip(*under, strict=True)]))
    totals = {y: sum((v[i] for v in leaves.values()), ZERO) for i, y in enumerate(_CODED_YEARS)}
    return rows, totals


def unit_in_label_header() -> Built:
    """(c) `CO₂e (GWP AR5)` newline `(Gg)` in the label column's header, years across."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Emissões"
    _row(ws, 1, ["Estimativas anuais de emissões de gases de efeito estufa"])
    _row(ws, 4, ["CO₂e (GWP AR5)\n(Gg)", *[int(y) for y in _CODED_YEARS]])
    rows, totals = _coded_values()
    for at, (label, values) in enumerate(rows, start=5):
        _row(ws, at, [label, *values])
    by_year = {y: t * 1000 for y, t in totals.items()}  # Gg -> t
    return Built(
        _save(wb), "estimativas_label_header.xlsx",
        "unit only in the label column's header cell (Gg), coded rows skipping levels",
        by_year["2020"], year="2020", by_year=by_year,
        status="reconciled", sheet_status={"Emissões": "reconciled"},
        extra={"unit_source": "label_header", "factor": 1000.0},
    )  # fmt: skip


_STATE = (  # sector, million metric tons CO2e 2019, 2020
    ("Electric power", "12.45", "11.08"),
    ("Transportation", "18.32", "16.71"),
    ("Industry", "9.87", "9.52"),
    ("Commercial", "2.11", "1.94"),
    ("Residential", "3.05", "3.12"),
    ("Agriculture", "4.40", "4.38"),
    ("Waste", "1.21", "1.19"),
)


def unit_in_title_line() -> Built:
    """(c) "Emissions in million metric tons of CO2e" in a title line; a total row."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Emissions by sector"
    _row(ws, 1, ["State greenhouse gas inventory, 2019–2020"])
    _row(ws, 2, ["Emissions in million metric tons of CO2e"])
    _row(ws, 4, ["Sector", 2019, 2020])
    totals = {"2019": ZERO, "2020": ZERO}
    at = 5
    for sector, y19, y20 in _STATE:
        _row(ws, at, [sector, D(y19), D(y20)])
        totals["2019"] += D(y19)
        totals["2020"] += D(y20)
        at += 1
    _row(ws, at, ["Total gross emissions", totals["2019"], totals["2020"]])
    by_year = {y: t * 10**6 for y, t in totals.items()}  # Mt -> t
    return Built(
        _save(wb), "state_inventory.xlsx", "unit only in a title line (million metric tons)",
        by_year["2020"], year="2020", by_year=by_year,
        status="reconciled", sheet_status={"Emissions by sector": "reconciled"},
        extra={"unit_source": "title", "factor": 1e6},
    )  # fmt: skip


_A1 = (  # sector, kt CO2e 2020, 2021
    ("Energia", "4821.6", "5012.3"),
    ("Processos industriais", "1210.4", "1288.9"),
    ("Agropecuária", "3377.0", "3402.5"),
    ("Resíduos", "612.8", "630.1"),
)


def unit_in_cell_a1() -> Built:
    """(c) The unit only in cell A1 ("kt CO2e"), the table below it, a total row."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Dados"
    _row(ws, 1, ["kt CO2e"])
    _row(ws, 3, ["Setor", 2020, 2021])
    totals = {"2020": ZERO, "2021": ZERO}
    at = 4
    for sector, y20, y21 in _A1:
        _row(ws, at, [sector, D(y20), D(y21)])
        totals["2020"] += D(y20)
        totals["2021"] += D(y21)
        at += 1
    _row(ws, at, ["Total", totals["2020"], totals["2021"]])
    by_year = {y: t * 1000 for y, t in totals.items()}  # kt -> t
    return Built(
        _save(wb), "emissoes_estado.xlsx", "unit only in cell A1 (kt CO2e)",
        by_year["2021"], year="2021", by_year=by_year,
        status="reconciled", sheet_status={"Dados": "reconciled"},
        extra={"factor": 1000.0},
    )  # fmt: skip


# --- d. facility summary with facilities named "Total ..." ----------------------------------

_FACILITIES = (  # id, name, state, CO2 (non-biogenic), CH4, N2O in t CO2e
    (1001234, "Total Energies Refinery Port Arthur", "TX", "3812455.2", "9021.5", "7410.1"),
    (1002871, "TOTAL PETROCHEMICALS USA INC", "TX", "1204388.7", "3344.0", "2211.8"),
    (1000415, "Exemplar Cement Plant", "MO", "1488301.9", "512.3", "2705.6"),
    (1003390, "Riverside Generating Station", "OH", "5233018.4", "12411.7", "26880.2"),
    (1004102, "Northern Ammonia Works", "IA", "987450.0", "402.8", "61228.4"),
    (1005567, "Bay Municipal Landfill", "CA", "0.0", "418225.0", "0.0"),
    (1006128, "Totaling Steel Mill", "IN", "2876002.6", "1890.4", "4012.7"),
)


def facility_summary() -> Built:
    """(d) EPA-style facility summary; two facilities' names start with "Total"; a real total."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Direct Emitters"
    _row(ws, 1, ["Summary of 2020 greenhouse gas emissions reported by direct emitters"])
    _row(ws, 2, ["All emissions values are presented in metric tons CO2e."])
    _row(ws, 4, ["Facility Id", "Facility Name", "State", "Total reported direct emissions",
                 "CO2 emissions (non-biogenic) ", "Methane (CH4) emissions ",
                 "Nitrous Oxide (N2O) emissions "])  # fmt: skip
    gases = {"CO2": ZERO, "CH4": ZERO, "N2O": ZERO}
    at = 5
    for fid, name, state, co2, ch4, n2o in _FACILITIES:
        total = D(co2) + D(ch4) + D(n2o)
        gases["CO2"] += D(co2)
        gases["CH4"] += D(ch4)
        gases["N2O"] += D(n2o)
        _row(ws, at, [fid, name, state, total, D(co2), D(ch4), D(n2o)])
        at += 1
    total = sum(gases.values(), ZERO)
    _row(ws, at, [None, "Total", None, total, *gases.values()])
    return Built(
        _save(wb), "ghgrp_2020_summary.xlsx",
        "facility summary: 'Total Energies …' and 'TOTAL PETROCHEMICALS …' are facilities",
        total, gases=gases, year=None,
        status="reconciled", sheet_status={"Direct Emitters": "reconciled"},
        extra={"facilities": tuple(f[1] for f in _FACILITIES)},
    )  # fmt: skip


# --- e. activity workbook: computed through the factor library -----------------------------

YEAR_E = 2022
_E_STATIONARY = (  # source, fuel, quantity, unit
    ("Caldeira de vapor", "Gás natural", D(182_450), "m³"),
    ("Caldeira auxiliar", "Gás natural", D(96_300), "m³"),
    ("Forno de secagem", "GLP", D(6_240), "kg"),
)
_E_GASOLINE = (("Carros da frota administrativa", "Gasolina C", D(14_800)),)
_E_DIESEL = (
    ("Caminhões de entrega", "Óleo diesel S10",
     (4210, 3980, 4350, 4120, 4400, 4050, 4190, 4480, 4260, 4330, 4010, 3870)),
)  # fmt: skip
_E_GRID = (("Fábrica", (612, 580, 634, 598, 620, 587, 601, 641, 615, 628, 594, 566)),)
_E_REFRIGERANT = (  # equipment, gas, recharged kg, recovered kg
    ("Chiller central", "R-410A", D("45.0"), D("5.0")),
    ("Câmara fria", "HFC-134a", D("22.5"), D("0")),
    ("Ar-condicionado split", "R-410A", D("12.0"), D("0")),
)


def activity_workbook() -> Built:
    """(e) Activity data only: m³, kg, litres by month, MWh by month, refrigerant recharges."""
    wb = openpyxl.Workbook()
    tally = _Tally()
    by_sheet: dict[str, D] = {}

    ws = wb.active
    ws.title = "Combustão estacionária"
    _row(ws, 1, [f"Combustão estacionária — consumo de combustíveis — {YEAR_E}"])
    _row(ws, 3, ["Fonte", "Combustível", "Quantidade", "Unidade"])
    sheet_total = ZERO
    for at, (source, fuel, quantity, unit) in enumerate(_E_STATIONARY, start=4):
        tonnes = natural_gas_t(quantity) if unit == "m³" else lpg_t(quantity)
        sheet_total += tally.add_gases("1", tonnes)
        _row(ws, at, [source, fuel, quantity, unit])
    by_sheet[ws.title] = sheet_total

    ws = wb.create_sheet("Combustão móvel")
    _row(ws, 1, [f"Combustão móvel — {YEAR_E}"])
    _row(ws, 3, ["Veículo", "Combustível", "Consumo (L)"])
    sheet_total = ZERO
    for at, (vehicle, fuel, litres) in enumerate(_E_GASOLINE, start=4):
        # one share for the year: E27 held all of 2022 (blends.csv)
        tonnes = gasoline_c_road_t(litres, ethanol_share(YEAR_E, 6))
        sheet_total += tally.add_gases("1", _fossil(tonnes))
        tally.biogenic += tonnes["CO2_biogenic"]
        _row(ws, at, [vehicle, fuel, litres])
    by_sheet[ws.title] = sheet_total

    ws = wb.create_sheet("Diesel frota")
    _row(ws, 1, [f"Consumo de óleo diesel S10 — frota própria — {YEAR_E} (litros)"])
    _row(ws, 3, ["Veículo", "Combustível", *MONTHS_PT])
    sheet_total = ZERO
    for at, (vehicle, fuel, months) in enumerate(_E_DIESEL, start=4):
        for m, v in enumerate(months, start=1):
            tonnes = diesel_b_road_t(D(v), biodiesel_share(YEAR_E, m))
            sheet_total += tally.add_gases("1", _fossil(tonnes))
            tally.biogenic += tonnes["CO2_biogenic"]
        _row(ws, at, [vehicle, fuel, *months])
    by_sheet[ws.title] = sheet_total

    ws = wb.create_sheet("Energia elétrica")
    _row(ws, 1, [f"Consumo de energia elétrica (MWh) — {YEAR_E}"])
    _row(ws, 3, ["Unidade", *MONTHS_PT])
    sheet_total = ZERO
    for at, (site, months) in enumerate(_E_GRID, start=4):
        co2 = sum((D(v) * grid_factor(YEAR_E, m) for m, v in enumerate(months, 1)), ZERO)
        tally.add("2", "CO2", co2)
        sheet_total += co2
        _row(ws, at, [site, *months])
    by_sheet[ws.title] = sheet_total

    ws = wb.create_sheet("Recargas de refrigerante")
    _row(ws, 1, [f"Emissões fugitivas — recargas de gases refrigerantes — {YEAR_E}"])
    _row(ws, 3, ["Equipamento", "Gás", "Recarga (kg)", "Recolhido (kg)"])
    sheet_total = ZERO
    for at, (equipment, gas, recharged, recovered) in enumerate(_E_REFRIGERANT, start=4):
        gwp = GWP_R410A if gas == "R-410A" else GWP_AR5[gas]
        tco2e = (recharged - recovered) / 1000 * gwp  # kg -> t of gas, then × GWP
        tally.add("1", gas, tco2e)
        sheet_total += tco2e
        _row(ws, at, [equipment, gas, recharged, recovered])
    by_sheet[ws.title] = sheet_total

    return Built(
        _save(wb), "dados_de_atividade_2022.xlsx",
        "activity data: natural gas m³, LPG kg, gasoline C L, diesel S10 by month, grid MWh by "
        "month, refrigerant recharges",
        tally.total, dict(tally.scopes), dict(tally.gases), tally.biogenic, str(YEAR_E),
        # no emissions written: nothing of the workbook's own to check the computation against
        status="unverified",
        by_sheet=by_sheet,
    )  # fmt: skip


# --- f. a column scaled ×1,000 under a header that still says t; every unit removed ---------

_F_ROWS = (  # source, CO2, CH4, N2O in t
    ("Caldeira 1", "5210.400", "0.0930", "0.00930"),
    ("Caldeira 2", "3188.250", "0.0568", "0.00568"),
    ("Gerador", "144.870", "0.0058", "0.00117"),
    ("Frota", "612.335", "0.0311", "0.03040"),
    ("Aterro próprio", "0.000", "41.2200", "0.00000"),
)
F_SHEET = "Emissões 2022"


def _f_sheet(*, units: bool, scale_ch4: int = 1) -> tuple[bytes, D]:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = F_SHEET
    _row(ws, 1, ["Emissões por fonte — 2022"])
    header = (["Fonte", "CO2 (t)", "CH4 (t)", "N2O (t)", "Total (t CO2e)"] if units
              else ["Fonte", "CO2", "CH4", "N2O", "Total CO2e"])  # fmt: skip
    _row(ws, 3, header)
    total = ZERO
    sums = [ZERO, ZERO, ZERO, ZERO]
    at = 4
    for source, co2, ch4, n2o in _F_ROWS:
        masses = [D(co2), D(ch4), D(n2o)]
        row_tco2e = masses[0] + masses[1] * GWP_AR5["CH4"] + masses[2] * GWP_AR5["N2O"]
        written = [masses[0], masses[1] * scale_ch4, masses[2], row_tco2e]
        sums = [s + w for s, w in zip(sums, written, strict=True)]
        total += row_tco2e
        _row(ws, at, [source, *written])
        at += 1
    _row(ws, at, ["Total", *sums])
    return _save(wb), total


def stated_units() -> Built:
    data, total = _f_sheet(units=True)
    return Built(
        data,
        "emissoes_2022.xlsx",
        "per-gas t and a CO2e total, units in the header",
        total,
        year=None,
        status="reconciled",
        sheet_status={F_SHEET: "reconciled"},
    )


def scaled_column() -> Built:
    """(f) The CH4 column written ×1,000 while its header still says t: conflict."""
    data, total = _f_sheet(units=True, scale_ch4=1000)
    return Built(
        data,
        "emissoes_2022_ch4_x1000.xlsx",
        "one per-gas column ×1,000 under a header that says t",
        total,
        year=None,
        status="conflict",
        sheet_status={F_SHEET: "conflict"},
        check_total=False,
    )


def no_units() -> Built:
    """(f) Every unit statement removed: t and kg both pass the row checks, nothing decides."""
    data, total = _f_sheet(units=False)
    return Built(
        data,
        "emissoes_2022_sem_unidade.xlsx",
        "no unit anywhere, no activity data",
        total,
        year=None,
        status="ambiguous",
        sheet_status={F_SHEET: "ambiguous"},
        check_total=False,
    )


def scaled_column_no_units() -> Built:
    """(f) The scaled sheet with every unit removed: never reconciled."""
    data, total = _f_sheet(units=False, scale_ch4=1000)
    return Built(
        data,
        "emissoes_2022_ch4_x1000_sem_unidade.xlsx",
        "one column ×1,000 and no unit anywhere",
        total,
        year=None,
        # a mixed reading (CH4 in kg, the rest in t) passes the checks, and so does
        # every reading 1,000 times it: never reconciled
        status=("ambiguous", "conflict"),
        sheet_status={},
        check_total=False,
    )


_PLAUSIBLE = (  # source, litres of diesel S10 (B10 all of 2022), road
    ("Caminhão 01", D(48_200)),
    ("Caminhão 02", D(51_730)),
    ("Caminhão 03", D(39_960)),
)


def no_units_plausible() -> Built:
    """(f) No unit on the emissions, but litres beside them: only t gives ~2.4 kg CO2/L."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Frota"
    _row(ws, 1, ["Frota de caminhões — 2022"])
    _row(ws, 3, ["Veículo", "Combustível", "Consumo (L)", "CO2", "CH4", "N2O", "Total CO2e"])
    tally = _Tally()
    for at, (vehicle, litres) in enumerate(_PLAUSIBLE, start=4):
        raw = diesel_b_road_t(litres, biodiesel_share(2022, 6))
        written = {"CO2": _q(raw["CO2"], 3), "CH4": _q(raw["CH4"], 6), "N2O": _q(raw["N2O"], 6)}
        tco2e = tally.add_gases("1", written)
        _row(ws, at, [vehicle, "Óleo diesel S10", litres, *written.values(), tco2e])
    return Built(
        _save(wb), "frota_2022.xlsx",
        "no emission unit stated; litres beside the emissions prove t by plausibility",
        tally.total, gases=dict(tally.gases), year="2022",
        status="reconciled", sheet_status={"Frota": "reconciled"},
        extra={"unit_source": "plausibility"},
    )  # fmt: skip


# --- g. gas names with subscripts and fossil labels ------------------------------------------

_G_WIDE = (("Caldeira", "1520.300", "0.0271", "0.00271"), ("Frota", "388.120", "0.0198", "0.0194"))


def subscript_gas_headers() -> Built:
    """(g) `CO₂ (t)`, `CH₄ (t)`, `N₂O (t)` headers and a `Total (t CO₂e)` column."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Emissões"
    _row(ws, 1, ["Inventário 2022"])
    _row(ws, 3, ["Fonte", "CO₂ (t)", "CH₄ (t)", "N₂O (t)", "Total (t CO₂e)"])
    tally = _Tally()
    for at, (source, co2, ch4, n2o) in enumerate(_G_WIDE, start=4):
        tco2e = tally.add_gases("1", {"CO2": D(co2), "CH4": D(ch4), "N2O": D(n2o)})
        _row(ws, at, [source, D(co2), D(ch4), D(n2o), tco2e])
    return Built(
        _save(wb),
        "inventario_subscritos.xlsx",
        "gas headers with subscript digits",
        tally.total,
        gases=dict(tally.gases),
        year="2022",
        status="reconciled",
        sheet_status={"Emissões": "reconciled"},
    )


_G_LONG = (  # source, gas as written, canonical gas, t of gas
    ("Caldeira", "CO₂", "CO2", "1520.300"),
    ("Caldeira", "CH₄", "CH4", "0.0271"),
    ("Caldeira", "N₂O", "N2O", "0.00271"),
    ("Forno", "CO2 fóssil", "CO2", "610.450"),
    ("Gerador", "Fossil CO2", "CO2", "42.118"),
    ("Frota", "CO2 (fóssil)", "CO2", "388.120"),
    ("Frota", "CH4 fóssil", "CH4", "0.0198"),
)


def subscript_gas_values() -> Built:
    """(g) A gas column holding `CO₂`, `CH₄`, `N₂O`, "CO2 fóssil", "Fossil CO2", ..."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Emissões por gás"
    _row(ws, 1, ["Inventário 2022"])
    _row(ws, 3, ["Fonte", "Gás", "Emissões (t)"])
    tally = _Tally()
    for at, (source, written, gas, tonnes) in enumerate(_G_LONG, start=4):
        tally.add_gases("1", {gas: D(tonnes)})  # "CH4 fóssil" under AR5 default: 28
        _row(ws, at, [source, written, D(tonnes)])
    return Built(
        _save(wb),
        "inventario_gases.xlsx",
        "gas names with subscripts and 'fóssil'/'fossil' labels in a gas column",
        tally.total,
        gases=dict(tally.gases),
        year="2022",
        status="unverified",
        sheet_status={"Emissões por gás": "unverified"},
    )


# --- h. one sheet per year -------------------------------------------------------------------

_H = {  # year -> rows (source, scope, CO2, CH4, N2O in t)
    "2019": (("Caldeiras", 1, "8120.5", "0.151", "0.0151"), ("Frota", 1, "902.3", "0.044", "0.041"),
             ("Energia elétrica", 2, "1410.8", "0", "0")),
    "2020": (("Caldeiras", 1, "7640.2", "0.142", "0.0142"), ("Frota", 1, "811.9", "0.039", "0.037"),
             ("Energia elétrica", 2, "1288.4", "0", "0")),
    "2021": (("Caldeiras", 1, "8410.7", "0.157", "0.0157"), ("Frota", 1, "955.6", "0.047", "0.044"),
             ("Energia elétrica", 2, "1862.1", "0", "0")),
}  # fmt: skip


def sheet_per_year() -> Built:
    """(h) Sheets "2019", "2020", "2021": the headline is 2021, never the sum."""
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    by_year: dict[str, D] = {}
    latest = _Tally()
    for year, rows in _H.items():
        ws = wb.create_sheet(year)
        _row(ws, 1, [f"Inventário de emissões {year}"])
        _row(ws, 3, ["Fonte", "Escopo", "CO2 (t)", "CH4 (t)", "N2O (t)", "Total (t CO2e)"])
        tally = _Tally()
        sums = [ZERO] * 4
        at = 4
        for source, scope, co2, ch4, n2o in rows:
            masses = [D(co2), D(ch4), D(n2o)]
            tco2e = tally.add_gases(
                str(scope), dict(zip(("CO2", "CH4", "N2O"), masses, strict=True))
            )
            sums = [s + v for s, v in zip(sums, [*masses, tco2e], strict=True)]
            _row(ws, at, [source, scope, *masses, tco2e])
            at += 1
        _row(ws, at, ["Total", None, *sums])
        by_year[year] = tally.total
        latest = tally
    return Built(
        _save(wb), "inventario_por_ano.xlsx", "one sheet per year, named by the year",
        by_year["2021"], dict(latest.scopes), dict(latest.gases), year="2021", by_year=by_year,
        status="reconciled", sheet_status=dict.fromkeys(_H, "reconciled"),
    )  # fmt: skip


# --- i. national layouts: summary rows, change rates, deep codes, formulas, 3-row header ----

_I_YEARS = ("2017", "2018", "2019", "2020")
_I_LEAVES = (  # label, Gg CO2e per year; parents are written as the sum of their leaves
    ("1.A. Queima de combustíveis", ("401220.5", "389410.2", "391877.6", "371600.3")),
    ("1.B. Emissões fugitivas", ("18845.1", "19874.3", "20461.4", "20622.4")),
    ("3.A. Fermentação entérica", ("371020.4", "372880.9", "375410.7", "380215.8")),
    ("3.D.1. Emissões diretas de solos manejados",
     ("121560.0", "124870.3", "129004.6", "133210.9")),
    ("3.D.2.a.iii.1. Deposição atmosférica — fertilizantes",
     ("10230.6", "10654.1", "11002.8", "11540.2")),
    ("3.D.2.a.iii.2. Deposição atmosférica — dejetos", ("8870.2", "8912.6", "9040.3", "9188.0")),
    ("4. Mudança de uso da terra e florestas", ("402300.0", "455010.5", "610230.8", "667140.2")),
)  # fmt: skip
_I_PARENTS = ("1. Energia", "3. Agropecuária", "3.D. Solos manejados",
              "3.D.2. Emissões indiretas", "3.D.2.a.iii. Deposição atmosférica")  # fmt: skip


def _i_rows() -> tuple[list[tuple[str, list[D]]], dict[str, D]]:
    leaves = {_code(lab): (lab, [D(v) for v in vals]) for lab, vals in _I_LEAVES}

    def under(code: str) -> list[D]:
        chosen = [v for c, (_, v) in leaves.items() if c == code or c.startswith(code + ".")]
        return [sum(col, ZERO) for col in zip(*chosen, strict=True)]

    order = ["1. Energia", "1.A.", "1.B.", "3. Agropecuária", "3.A.", "3.D. Solos manejados",
             "3.D.1.", "3.D.2. Emissões indiretas", "3.D.2.a.iii. Deposição atmosférica",
             "3.D.2.a.iii.1.", "3.D.2.a.iii.2.", "4."]  # fmt: skip
    rows: list[tuple[str, list[D]]] = []
    for item in order:
        code = _code(item)
        label = item if item in _I_PARENTS else leaves[code][0]
        rows.append((label, under(code)))
    totals = {y: sum((v[i] for _, v in leaves.values()), ZERO) for i, y in enumerate(_I_YEARS)}
    return rows, totals


def _with_cached_formulas(data: bytes, cached: dict[str, str]) -> bytes:
    """openpyxl writes a formula with an empty cached value; a spreadsheet program stores the
    result too, and readers that do not evaluate formulas (calamine) read that result."""
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            content = source.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                text = content.decode("utf-8")
                for ref, value in cached.items():
                    text, n = re.subn(rf'(<c r="{ref}"[^>]*>(<f>[^<]*</f>))<v\s*/?>(</v>)?',
                                      rf"\1<v>{value}</v>", text)  # fmt: skip
                    if n != 1:
                        raise AssertionError(f"formula cell {ref} not found")
                content = text.encode("utf-8")
            target.writestr(item, content)
    return out.getvalue()


def national_summary_rows() -> Built:
    """(i) Summary rows above the coded sectors, a year header of formulas, `Var. %` after the
    years, deep coded subtotals (`3.D.2.a.iii` over `3.D.2.a.iii.1`)."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Emissões"
    _row(ws, 1, ["Emissões de GEE por setor (Gg CO2e, GWP-AR5)"])
    ws.cell(row=3, column=1, value="Setor")
    ws.cell(row=3, column=2, value=int(_I_YEARS[0]))
    cached = {}
    for i in range(1, len(_I_YEARS)):
        ref, prev = f"{chr(ord('B') + i)}3", f"{chr(ord('B') + i - 1)}3"
        ws[ref] = f"={prev}+1"
        cached[ref] = _I_YEARS[i]
    ws.cell(row=3, column=6, value="Var. % 2019-2020")
    rows, totals = _i_rows()
    without_lulucf = {y: totals[y] - D(_I_LEAVES[-1][1][i]) for i, y in enumerate(_I_YEARS)}

    def change(values: list[D]) -> D | None:
        return _q((values[3] - values[2]) / values[2] * 100, 1) if values[2] else None

    summary = [("Emissões totais", [totals[y] for y in _I_YEARS]),
               ("Emissões totais sem MUT", [without_lulucf[y] for y in _I_YEARS])]  # fmt: skip
    at = 4
    for label, values in [*summary, *rows]:
        _row(ws, at, [label, *values, change(values)])
        at += 1
    data = _with_cached_formulas(_save(wb), cached)
    by_year = {y: t * 1000 for y, t in totals.items()}  # Gg -> t
    return Built(
        data, "emissoes_nacionais.xlsx",
        "summary rows above coded sectors, formula year header, Var. % column, deep codes",
        by_year["2020"], year="2020", by_year=by_year,
        status="reconciled", sheet_status={"Emissões": "reconciled"},
    )  # fmt: skip


_I3 = (("Queima de combustíveis", "9120.44", "0.412", "0.0911"),
       ("Processos industriais", "3310.80", "0.000", "1.2040"),
       ("Tratamento de efluentes", "0.00", "38.610", "0.3320"))  # fmt: skip


def three_row_header() -> Built:
    """(i) A header in three rows: the gas, its GWP, the unit."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Emissões por gás"
    _row(ws, 1, ["Inventário corporativo 2022"])
    _row(ws, 3, ["Fonte", "CO2", "CH4", "N2O", "CO2e"])
    _row(ws, 4, [None, "GWP 1", "GWP 28", "GWP 265", "GWP AR5"])
    _row(ws, 5, [None, "t", "t", "t", "t"])
    tally = _Tally()
    sums = [ZERO] * 4
    at = 6
    for source, co2, ch4, n2o in _I3:
        masses = [D(co2), D(ch4), D(n2o)]
        tco2e = tally.add_gases("1", dict(zip(("CO2", "CH4", "N2O"), masses, strict=True)))
        sums = [s + v for s, v in zip(sums, [*masses, tco2e], strict=True)]
        _row(ws, at, [source, *masses, tco2e])
        at += 1
    _row(ws, at, ["Total", *sums])
    return Built(
        _save(wb),
        "inventario_3_linhas.xlsx",
        "three-row header: gas / GWP / unit",
        tally.total,
        gases=dict(tally.gases),
        year="2022",
        status="reconciled",
        sheet_status={"Emissões por gás": "reconciled"},
    )


BUILDERS: dict[str, Callable[[], Built]] = {
    "a_company_inventory": company_inventory,
    "b_gpc_city_export": gpc_city_export,
    "c_unit_in_label_header": unit_in_label_header,
    "c_unit_in_title_line": unit_in_title_line,
    "c_unit_in_cell_a1": unit_in_cell_a1,
    "d_facility_summary": facility_summary,
    "e_activity_workbook": activity_workbook,
    "f_stated_units": stated_units,
    "f_scaled_column": scaled_column,
    "f_no_units": no_units,
    "f_scaled_column_no_units": scaled_column_no_units,
    "f_no_units_plausible": no_units_plausible,
    "g_subscript_gas_headers": subscript_gas_headers,
    "g_subscript_gas_values": subscript_gas_values,
    "h_sheet_per_year": sheet_per_year,
    "i_national_summary_rows": national_summary_rows,
    "i_three_row_header": three_row_header,
}
