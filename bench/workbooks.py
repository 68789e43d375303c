"""Workbooks for the ingestion bench, generated in the shape of the real ones issue #21 timed
(the files themselves are not ours to ship): a national inventory of one sheet per year and a
facility summary like EPA GHGRP's ``Direct Emitters``. Deterministic for a seed.
"""

from __future__ import annotations

import io
import string

import numpy as np
import openpyxl

from tests.inventory_fixtures import as_xlsx, long_table

# AR5 100-year GWPs (IPCC AR5 WG1, Table 8.7): the CO2e column of the national workbook.
_CH4_AR5 = 28
_N2O_AR5 = 265
_FIRST_YEAR, _LAST_YEAR = 1990, 2020
_SECTORS = ("Energia", "Processos industriais", "Agropecuária", "Uso da terra", "Resíduos")


def _save(workbook: openpyxl.Workbook) -> bytes:
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


# Subtotals are told by their code, as in the MCTI tables: no "Total" in their labels.
_LEVEL_LABELS = (
    lambda code: _SECTORS[int(code) - 1],
    lambda code: f"{_SECTORS[int(code[0]) - 1]}: grupo {code[2]}",
    lambda code: f"{_SECTORS[int(code[0]) - 1]}: atividade {code[2:].replace('.', '')}",
)


def _national_rows(rng: np.random.Generator) -> list[list]:
    """Coded rows four levels deep (``1``, ``1.A``, ``1.A.1``, ``1.A.1.a``) under a ``Total``
    row; every subtotal is the sum of its children, in Gg per gas and CO2e (AR5)."""
    leaves: list[tuple[str, str, np.ndarray]] = []
    for s, sector in enumerate(_SECTORS, start=1):
        for letter in string.ascii_uppercase[:6]:
            for i in range(1, 6):
                for leaf in "abc":
                    gases = np.round(rng.uniform(0, [900.0, 12.0, 0.8]), 3)
                    code = f"{s}.{letter}.{i}.{leaf}"
                    leaves.append((code, f"{sector}: fonte {letter}{i}{leaf}", gases))
    sums: dict[str, np.ndarray] = {}
    for code, _, gases in leaves:
        parts = code.split(".")
        for depth in range(1, len(parts)):
            key = ".".join(parts[:depth])
            sums[key] = sums.get(key, 0) + gases
    rows: list[list] = []

    def row(code: str, label: str, gases: np.ndarray) -> list:
        co2e = gases[0] + _CH4_AR5 * gases[1] + _N2O_AR5 * gases[2]
        return [code, label, *(round(float(g), 3) for g in gases), round(float(co2e), 3)]

    rows.append(row("", "Total", sum(sums[str(s)] for s in range(1, len(_SECTORS) + 1))))
    emitted: set[str] = set()
    for code, label, gases in leaves:
        parts = code.split(".")
        for depth in range(1, len(parts)):
            key = ".".join(parts[:depth])
            if key not in emitted:
                emitted.add(key)
                rows.append(row(key, _LEVEL_LABELS[key.count(".")](key), sums[key]))
        rows.append(row(code, label, gases))
    return rows


def national_by_year(seed: int = 0) -> bytes:
    """One sheet per year 1990 … 2020, each a title line, a header with the unit in every
    gas column (``CO2 (Gg)``) and 636 coded rows: about 1 MB, like the national workbook of
    one sheet per year that took 33 s."""
    rng = np.random.default_rng(seed)
    workbook = openpyxl.Workbook(write_only=True)
    header = ["Código", "Setor", "CO2 (Gg)", "CH4 (Gg)", "N2O (Gg)", "CO2e GWP AR5 (Gg)"]
    for year in range(_FIRST_YEAR, _LAST_YEAR + 1):
        sheet = workbook.create_sheet(str(year))
        sheet.append([f"Emissões de gases de efeito estufa por setor, {year}"])
        sheet.append([])
        sheet.append(header)
        for values in _national_rows(rng):
            sheet.append(values)
    return _save(workbook)


_STATES = ("TX", "LA", "CA", "PA", "OH", "IL", "IN", "OK", "WY", "ND", "NM", "AL", "KY", "WV")
_SUBPARTS = ("C", "C,D", "C,W", "C,HH", "C,Y,MM", "C,AA", "C,H", "C,P,Y", "C,S,TT")
_SECTORS_US = ("Power Plants", "Petroleum and Natural Gas Systems", "Refineries", "Chemicals",
               "Waste", "Metals", "Minerals", "Pulp and Paper", "Other")  # fmt: skip


def epa_direct_emitters(rows: int = 7_000, seed: int = 0) -> bytes:
    """A ``Direct Emitters`` sheet like EPA GHGRP's 2020 summary: two title lines, then
    facilities with their address, NAICS code, sectors and emissions in metric tons CO2e
    (total, CO2, CH4, N2O, HFC, SF6). Some facility names start with "Total" (an oil company),
    as in the real file."""
    rng = np.random.default_rng(seed)
    workbook = openpyxl.Workbook(write_only=True)
    sheet = workbook.create_sheet("Direct Emitters")
    sheet.append(["Summary of 2020 GHGRP Data Reported by Direct Emitters"])
    sheet.append(["All emissions values are presented in metric tons of carbon dioxide equivalent"])
    sheet.append([])
    sheet.append(["Facility Id", "FRS Id", "Facility Name", "City", "State", "Zip Code",
                  "Address", "County", "Latitude", "Longitude", "Primary NAICS Code",
                  "Industry Type (subparts)", "Industry Type (sectors)",
                  "Total reported direct emissions", "CO2 emissions (non-biogenic) ",
                  "Methane (CH4) emissions ", "Nitrous Oxide (N2O) emissions ",
                  "HFC emissions", "SF6 emissions "])  # fmt: skip
    gases = np.round(rng.lognormal([10.0, 7.0, 5.0, 3.0, 2.0], 1.6, (rows, 5)), 1)
    gases[rng.random((rows, 5)) < 0.3] = 0.0
    for index in range(rows):
        owner = "Total Petrochemicals & Refining USA" if index % 500 == 7 else "Facility"
        state = _STATES[index % len(_STATES)]
        values = [round(float(g), 1) for g in gases[index]]
        sheet.append([
            1_000_000 + index, 110_000_000_000 + index * 7, f"{owner} {index:05d} Plant",
            f"City {index % 911}", state, f"{70_000 + index % 9_999:05d}",
            f"{100 + index % 8_000} Industrial Parkway {index}", f"{state} County {index % 97}",
            round(30 + rng.random() * 15, 5), round(-120 + rng.random() * 40, 5),
            211_111 + (index * 37) % 700_000, _SUBPARTS[index % len(_SUBPARTS)],
            _SECTORS_US[index % len(_SECTORS_US)], round(sum(values), 1), *values,
        ])  # fmt: skip
    return _save(workbook)


def long_rows(rows: int = 100_000) -> bytes:
    """The long-format inventory of ``tests.inventory_fixtures`` (one row per activity, gas
    and year), as one .xlsx sheet."""
    return as_xlsx(long_table(rows))
