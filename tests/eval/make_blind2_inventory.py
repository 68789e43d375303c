"""Writes tests/data/blind2_inventory.xlsx, the workbook the second blind set attaches.

    .venv/bin/python -m tests.eval.make_blind2_inventory

A fictitious packaging maker's 2023 inventory (Embalagens Serra Azul S.A., four sites), laid
out unlike the sample or the first blind workbook: a cover sheet, English headers on Scopes 1
and 3, Portuguese on Scope 2, units in the headers, gas masses in tonnes with the CO2e
written under IPCC AR6 (methane fossil 29.8 / non-fossil 27.0, AR6 WG1 Table 7.15), biogenic
CO2 in its own column, the Montreal gas (HCFC-22) in a memo table under Scope 1, Scope 2 by
location and market side by side, and a GWP sheet. Activity figures follow IPCC 2006 default
factors and BEN-like heating values so that magnitudes are those of a real mid-size plant.

The file is byte-for-byte deterministic (fixed document dates and zip timestamps), so the
committed copy can be compared with a fresh build.
"""

from __future__ import annotations

import io
import re
import zipfile
from datetime import datetime
from pathlib import Path
from typing import Any

import openpyxl
from openpyxl.styles import Font

OUT = Path(__file__).resolve().parents[2] / "tests" / "data" / "blind2_inventory.xlsx"
YEAR = 2023
# MCTI/SIRENE, annual mean of the SIN's monthly factors for corporate inventories, 2023.
SIN_2023 = 0.0385

# IPCC AR6 WG1 GWP-100 (Table 7.15 / 7.SM.7); R-410A is 50/50 HFC-32/HFC-125 by mass.
GWP = {
    "CO2": 1.0,
    "CH4 fossil": 29.8,
    "CH4 non-fossil": 27.0,
    "N2O": 273.0,
    "HFC-134a": 1530.0,
    "R-410A": 0.5 * 771.0 + 0.5 * 3740.0,
    "SF6": 25200.0,
    "HCFC-22 (R-22)": 1960.0,
}

SCOPE1_HEADER = (
    "Facility",
    "Category",
    "Emission source",
    "Fuel / gas",
    "Fossil / biomass",
    "Activity data",
    "Activity unit",
    "CO2 fossil (t)",
    "CH4 (t)",
    "N2O (t)",
    "HFC / SF6 (t)",
    "Total (tCO2e)",
    "Biogenic CO2 (t) - outside scopes",
)
SCOPE2_HEADER = (
    "Unidade",
    "Eletricidade consumida (MWh)",
    "Fator localização - média anual SIN/MCTI (tCO2/MWh)",
    "Emissões - abordagem por localização (tCO2)",
    "Instrumento contratual",
    "Fator escolha de compra (tCO2/MWh)",
    "Emissões - abordagem de escolha de compra / market-based (tCO2)",
)
SCOPE3_HEADER = (
    "Category (GHG Protocol)",
    "Description",
    "Calculation method",
    "Emissions (tCO2e)",
    "Data quality",
)
MEMO_HEADER = (
    "Facility",
    "Gas",
    "Equipment",
    "Leak / recharge (kg)",
    "GWP AR6",
    "Emissions (tCO2e)",
)

JUN, CAM, PG, SP = "Jundiaí (SP)", "Camaçari (BA)", "Ponta Grossa (PR)", "Escritório São Paulo"


def _fuel(tj: float, co2: float, ch4: float, n2o: float) -> tuple[float, float, float]:
    """t CO2, t CH4, t N2O of ``tj`` TJ burnt with IPCC 2006 factors in kg/TJ."""
    return tj * co2 / 1e3, tj * ch4 / 1e3, tj * n2o / 1e3


def _diesel_b12(litres: float, ch4: float, n2o: float) -> tuple[float, float, float, float]:
    """Diesel S10 with 12% biodiesel (Brazil's blend in 2023): fossil CO2, CH4, N2O and
    the biodiesel's biogenic CO2 (density 0.84 / 0.88 kg/L, NCV 43.0 / 27.0 TJ/Gg)."""
    fossil_tj = litres * 0.88 * 0.84 / 1e6 * 43.0
    bio_tj = litres * 0.12 * 0.88 / 1e6 * 27.0
    co2, ch4_t, n2o_t = _fuel(fossil_tj, 74_100, ch4, n2o)
    bio = bio_tj * 70_800 / 1e3
    return co2, ch4_t + bio_tj * ch4 / 1e3, n2o_t + bio_tj * n2o / 1e3, bio


def scope1_rows() -> list[tuple[Any, ...]]:
    """(facility, category, source, fuel/gas, origin, activity, unit, CO2, CH4, N2O, F-gas,
    biogenic CO2); the total is added by ``_with_total``."""
    ng = 36.84e-6  # TJ per m³ of natural gas (BEN: 8,800 kcal/m³)
    rows: list[tuple[Any, ...]] = []
    co2, ch4, n2o = _fuel(5_000_000 * ng, 56_100, 1, 0.1)
    rows.append(
        (
            JUN,
            "Stationary combustion",
            "Caldeiras 1 e 2 - vapor de processo",
            "Natural gas",
            "fossil",
            5_000_000,
            "m³",
            co2,
            ch4,
            n2o,
            0,
            0,
        )
    )
    co2, ch4, n2o = _fuel(85 * 0.0473 * 1e3 / 1e3, 63_100, 1, 0.1)
    rows.append(
        (
            JUN,
            "Mobile combustion",
            "Empilhadeiras (forklifts)",
            "LPG (GLP)",
            "fossil",
            85,
            "t",
            co2,
            ch4,
            n2o,
            0,
            0,
        )
    )
    co2, ch4, n2o, bio = _diesel_b12(410_000, 3.9, 3.9)
    rows.append(
        (
            JUN,
            "Mobile combustion",
            "Frota própria - caminhões",
            "Diesel S10 (B12)",
            "fossil + biodiesel (B12)",
            410_000,
            "L",
            co2,
            ch4,
            n2o,
            0,
            bio,
        )
    )
    rows.append(
        (
            JUN,
            "Fugitive emissions",
            "Chillers - recarga de fluido",
            "HFC-134a",
            "n/a",
            120,
            "kg",
            0,
            0,
            0,
            0.120,
            0,
        )
    )
    co2, ch4, n2o, bio = _diesel_b12(18_000, 3, 0.6)
    rows.append(
        (
            JUN,
            "Stationary combustion",
            "Gerador de emergência",
            "Diesel S10 (B12)",
            "fossil + biodiesel (B12)",
            18_000,
            "L",
            co2,
            ch4,
            n2o,
            0,
            bio,
        )
    )
    wood_tj = 18_000 * 12.0 / 1e3
    rows.append(
        (
            CAM,
            "Stationary combustion",
            "Caldeira de biomassa",
            "Eucalyptus wood chips",
            "biomass",
            18_000,
            "t",
            0,
            wood_tj * 30 / 1e3,
            wood_tj * 4 / 1e3,
            0,
            wood_tj * 112_000 / 1e3,
        )
    )
    co2, ch4, n2o = _fuel(400 * 40.4 / 1e3, 77_400, 3, 0.6)
    rows.append(
        (
            CAM,
            "Stationary combustion",
            "Caldeira auxiliar",
            "Fuel oil (óleo combustível)",
            "fossil",
            400,
            "t",
            co2,
            ch4,
            n2o,
            0,
            0,
        )
    )
    rows.append(
        (CAM, "Fugitive emissions", "Split AC units", "R-410A", "n/a", 45, "kg", 0, 0, 0, 0.045, 0)
    )
    rows.append(
        (
            CAM,
            "Wastewater treatment",
            "ETE - lagoa anaeróbia (effluent)",
            "Industrial effluent (COD)",
            "non-fossil",
            190,
            "t COD removed",
            0,
            190 * 0.25 * 0.8,
            0,
            0,
            0,
        )
    )
    co2, ch4, n2o = _fuel(1_450_000 * ng, 56_100, 1, 0.1)
    rows.append(
        (
            PG,
            "Stationary combustion",
            "Forno de cal e secadores",
            "Natural gas",
            "fossil",
            1_450_000,
            "m³",
            co2,
            ch4,
            n2o,
            0,
            0,
        )
    )
    rows.append(
        (
            PG,
            "Industrial processes",
            "Forno de cal - calcário de reposição",
            "Limestone (CaCO3)",
            "fossil (carbonate)",
            1_200,
            "t",
            1_200 * 0.440,
            0,
            0,
            0,
            0,
        )
    )
    rows.append(
        (
            PG,
            "Fugitive emissions",
            "Subestação - disjuntores",
            "SF6",
            "n/a",
            3.5,
            "kg",
            0,
            0,
            0,
            0.0035,
            0,
        )
    )
    ethanol_tj = 62_000 * 0.809 / 1e6 * 27.0
    rows.append(
        (
            PG,
            "Mobile combustion",
            "Carros da frota - etanol hidratado",
            "Ethanol (hydrous)",
            "biomass",
            62_000,
            "L",
            0,
            ethanol_tj * 18 / 1e3,
            ethanol_tj * 2 / 1e3,
            0,
            ethanol_tj * 70_800 / 1e3,
        )
    )
    co2, ch4, n2o, bio = _diesel_b12(95_000, 3.9, 3.9)
    rows.append(
        (
            PG,
            "Mobile combustion",
            "Caminhões de pátio",
            "Diesel S10 (B12)",
            "fossil + biodiesel (B12)",
            95_000,
            "L",
            co2,
            ch4,
            n2o,
            0,
            bio,
        )
    )
    return [_rounded(row) for row in rows]


def _rounded(row: tuple[Any, ...]) -> tuple[Any, ...]:
    head, gases = row[:7], row[7:]
    return (*head, *(round(float(value), 4) for value in gases))


def ch4_gwp(origin: str) -> float:
    """The file's rule: methane of biomass and effluents is non-fossil, the rest fossil."""
    return GWP["CH4 non-fossil"] if origin in ("biomass", "non-fossil") else GWP["CH4 fossil"]


def row_total(row: tuple[Any, ...]) -> float:
    origin, fuel = row[4], row[3]
    co2, ch4, n2o, fgas = row[7], row[8], row[9], row[10]
    return round(co2 + ch4 * ch4_gwp(origin) + n2o * GWP["N2O"] + fgas * GWP.get(fuel, 0), 2)


def scope2_rows() -> list[tuple[Any, ...]]:
    """(site, MWh, location factor, location t, instrument, market factor, market t)."""
    rows = (
        (JUN, 28_500, "I-REC (100% solar)", 0.0),
        (CAM, 19_200, "Nenhum (fator médio SIN)", SIN_2023),
        (PG, 41_800, "Contrato ACL eólico 60% + SIN 40%", round(0.4 * SIN_2023, 4)),
        (SP, 310, "Nenhum (fator médio SIN)", SIN_2023),
    )
    return [(site, mwh, SIN_2023, round(mwh * SIN_2023, 3), instrument, factor,
             round(mwh * factor, 3)) for site, mwh, instrument, factor in rows]  # fmt: skip


SCOPE3_ROWS = (
    ("Cat. 1 - Purchased goods and services", "Resinas PE/PP, papel kraft, tintas",
     "Average-data (kg of material x factor)", 38_400.0, "Medium"),
    ("Cat. 4 - Upstream transportation and distribution", "Frete rodoviário de insumos",
     "Distance-based (t.km)", 3_950.0, "Medium"),
    ("Cat. 5 - Waste generated in operations", "Aterro sanitário de aparas e lodo",
     "Waste-type-specific", 1_120.0, "Low"),
    ("Cat. 6 - Business travel", "Voos e hotéis", "Spend/distance", 210.0, "High"),
    ("Cat. 7 - Employee commuting", "Fretado e transporte próprio", "Survey", 640.0, "Low"),
    ("Cat. 9 - Downstream transportation and distribution", "Entrega a clientes (FOB)",
     "Distance-based (t.km)", 2_380.0, "Medium"),
)  # fmt: skip

MEMO_ROWS = (
    (CAM, "HCFC-22 (R-22)", "Chillers antigos (phase-out 2030)", 60.0),
    (JUN, "HCFC-22 (R-22)", "Câmara fria", 25.0),
)


def _bold(sheet: Any, row: int) -> None:
    for cell in sheet[row]:
        cell.font = Font(bold=True)


def build() -> openpyxl.Workbook:
    book = openpyxl.Workbook()
    cover = book.active
    cover.title = "Cover"
    for line in (
        (f"Inventário de Emissões de GEE {YEAR} - Embalagens Serra Azul S.A. (fictitious)",),
        (),
        ("Reporting year / Ano-base", YEAR),
        ("Consolidation approach", "Controle operacional (operational control)"),
        ("GWP set", "IPCC AR6 GWP-100 (WG1, Table 7.15): CH4 fossil 29,8 for fossil fuels "
                    "and blends; CH4 non-fossil 27,0 for biomass, ethanol and effluents; "
                    "N2O 273; see sheet 'GWP AR6'"),
        ("Methodology", "GHG Protocol Corporate Standard, Scope 2 Guidance; Programa "
                        "Brasileiro GHG Protocol; IPCC 2006 Guidelines"),
        ("Facilities / Unidades", f"{JUN}; {CAM}; {PG}; {SP}"),
        ("Scope 2", "Location-based (MCTI SIN annual average 2023, 0,0385 tCO2/MWh) and "
                    "market-based reported side by side - never to be added together"),
        ("Memo items", "Biogenic CO2 and HCFC-22 (R-22, Montreal Protocol) reported "
                       "outside the scopes"),
        ("Verification", "Não verificado por terceira parte (not third-party verified)"),
        ("Prepared by", "Gerência de Sustentabilidade"),
    ):  # fmt: skip
        cover.append(line)
    cover["A1"].font = Font(bold=True)

    s1 = book.create_sheet("Scope 1")
    s1.append(("SCOPE 1 - DIRECT EMISSIONS (t = metric tonnes of each gas; tCO2e with IPCC "
               "AR6 GWP-100)",))  # fmt: skip
    s1.append(())
    s1.append(SCOPE1_HEADER)
    _bold(s1, 3)
    rows = scope1_rows()
    for row in rows:
        s1.append((*row[:11], row_total(row), row[11]))
    sums = [round(sum(row[i] for row in rows), 4) for i in range(7, 11)]
    s1.append(("TOTAL SCOPE 1", None, None, None, None, None, None, *sums,
               round(sum(row_total(row) for row in rows), 2),
               round(sum(row[11] for row in rows), 2)))  # fmt: skip
    _bold(s1, s1.max_row)
    s1.append(())
    s1.append(("MEMO - Montreal Protocol gases (NOT included in Scope 1 or in any total)",))
    s1.append(MEMO_HEADER)
    _bold(s1, s1.max_row)
    gwp22 = GWP["HCFC-22 (R-22)"]
    for site, gas, equipment, kg in MEMO_ROWS:
        s1.append((site, gas, equipment, kg, gwp22, round(kg / 1e3 * gwp22, 2)))

    s2 = book.create_sheet("Escopo 2")
    s2.append((f"Escopo 2 - Energia elétrica adquirida do SIN - {YEAR}",))
    s2.append(())
    s2.append(SCOPE2_HEADER)
    _bold(s2, 3)
    s2_rows = scope2_rows()
    for row in s2_rows:
        s2.append(row)
    s2.append(("Total", sum(r[1] for r in s2_rows), None, round(sum(r[3] for r in s2_rows), 3),
               None, None, round(sum(r[6] for r in s2_rows), 3)))  # fmt: skip
    _bold(s2, s2.max_row)
    s2.append(())
    s2.append(("Nota: as abordagens por localização e por escolha de compra são reportadas "
               "lado a lado e não devem ser somadas.",))  # fmt: skip

    s3 = book.create_sheet("Scope 3")
    s3.append(("SCOPE 3 - OTHER INDIRECT EMISSIONS (tCO2e, AR6)",))
    s3.append(())
    s3.append(SCOPE3_HEADER)
    _bold(s3, 3)
    for row in SCOPE3_ROWS:
        s3.append(row)
    s3.append(("TOTAL SCOPE 3", None, None, sum(r[3] for r in SCOPE3_ROWS), None))
    _bold(s3, s3.max_row)
    s3.append(())
    s3.append(("Categories 2, 3, 8 and 10 to 15 not reported (not relevant or no data yet).",))

    gwp = book.create_sheet("GWP AR6")
    gwp.append(("Gas", "GWP-100 (IPCC AR6)", "Note"))
    _bold(gwp, 1)
    notes = {"R-410A": "50% HFC-32 (771) + 50% HFC-125 (3740)",
             "HCFC-22 (R-22)": "Montreal Protocol gas: memo only"}  # fmt: skip
    for gas, value in GWP.items():
        gwp.append((gas, value, notes.get(gas)))

    fixed = datetime(2024, 3, 15, 9, 0, 0)
    book.properties.created = fixed
    book.properties.modified = fixed
    book.properties.creator = "Gerência de Sustentabilidade"
    book.properties.lastModifiedBy = "Gerência de Sustentabilidade"
    return book


_MODIFIED = re.compile(rb"(<dcterms:modified[^>]*>)[^<]*(</dcterms:modified>)")


def workbook_bytes() -> bytes:
    """The workbook as bytes, with every zip entry's timestamp fixed so builds are equal."""
    raw = io.BytesIO()
    build().save(raw)
    out = io.BytesIO()
    with zipfile.ZipFile(raw) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dest:
        for item in source.infolist():
            info = zipfile.ZipInfo(item.filename, date_time=(2024, 3, 15, 9, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            data = source.read(item.filename)
            if item.filename == "docProps/core.xml":  # openpyxl stamps the save time here
                data = _MODIFIED.sub(rb"\g<1>2024-03-15T09:00:00Z\g<2>", data)
            dest.writestr(info, data)
    return out.getvalue()


def main() -> None:
    OUT.write_bytes(workbook_bytes())
    print(OUT)


if __name__ == "__main__":
    main()
