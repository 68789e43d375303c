"""Ingestion end to end: read + map + analytics + digest, wall time and peak memory.

    .venv/bin/python -m bench.ingest [--rows 1000 10000 100000]

Each measurement runs in a fresh process, so its peak RSS is its own. Prints one JSON object.
A decompression bomb (300 MB of sheet XML in about 1.3 MB) is measured too: how long the
refusal takes and what the process held meanwhile.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from engine.inventory import InventoryError, load_inventory
from engine.inventory.analytics import GROUPABLE
from tests.inventory_fixtures import as_csv, as_xlsx, long_table


def measure_one(path: str) -> dict:
    started = time.perf_counter()
    try:
        inventory = load_inventory(path)
    except InventoryError as error:  # a hostile file: the refusal is what is measured
        return {"refused": error.code, "load_s": round(time.perf_counter() - started, 3)}
    loaded = time.perf_counter()
    for field in GROUPABLE:
        inventory.totals_by(field)
    inventory.pareto()
    inventory.year_over_year()
    digest = inventory.digest()
    finished = time.perf_counter()
    return {
        "canonical_rows": len(inventory.table),
        "total_tco2e": round(inventory.total_tco2e, 3),
        "status": inventory.status,
        "load_s": round(loaded - started, 3),
        "end_to_end_s": round(finished - started, 3),
        "digest_chars": len(digest),
    }


def wide_table(rows: int, *, seed: int = 0) -> pd.DataFrame:
    """Per-gas columns in t and kg beside a total in t CO2e (AR5): every row is a check, so
    loading it runs the whole reconciliation (readings, GWP sets, row totals)."""
    rng = np.random.default_rng(seed)
    long = long_table(rows, seed=seed)
    co2 = np.round(rng.uniform(1, 5_000, rows), 3)
    ch4_kg = np.round(rng.uniform(0, 50, rows), 3)
    n2o_kg = np.round(rng.uniform(0, 5, rows), 3)
    return pd.DataFrame(
        {
            "Escopo": long["Escopo"],
            "Categoria": long["Categoria"],
            "Unidade": long["Unidade"],
            "Fonte": long["Fonte"],
            "Ano": long["Ano"],
            "CO2 (t)": co2,
            "CH4 (kg)": ch4_kg,
            "N2O (kg)": n2o_kg,
            "Total (t CO2e)": np.round(co2 + ch4_kg / 1000 * 28 + n2o_kg / 1000 * 265, 4),
        }
    )


def activity_table(rows: int, *, seed: int = 0, monthly: bool = False) -> pd.DataFrame:
    """Activity data only (a fuel card or utility export): facility, source, fuel, a date in
    2024, quantity and unit; no emissions. Every row is computed with the factor library.
    Dated by day, five activities make 1,830 distinct (activity, unit, day) groups; by
    month (``monthly``), 60."""
    rng = np.random.default_rng(seed)
    kinds = np.array(
        [
            ("Caminhões", "Óleo diesel S10", "litros"),
            ("Caldeira", "Gás natural", "m³"),
            ("Forno", "GLP", "kg"),
            ("Rede", "Energia elétrica", "MWh"),
            ("Gerador", "Óleo diesel S500", "L"),
        ],
        dtype=object,
    )
    pick = rng.integers(0, len(kinds), rows)
    days = pd.Timestamp("2024-01-01") + pd.to_timedelta(rng.integers(0, 366, rows), unit="D")
    if monthly:
        days = days.to_period("M").to_timestamp()
    facilities = np.array(["Fábrica Campinas", "Fábrica Recife", "CD Sul"], dtype=object)
    return pd.DataFrame(
        {
            "Unidade": rng.choice(facilities, rows),
            "Fonte": kinds[pick, 0],
            "Combustível": kinds[pick, 1],
            "Data": days.to_pydatetime(),
            "Quantidade": np.round(rng.uniform(1, 5_000, rows), 2),
            "Unidade de medida": kinds[pick, 2],
        }
    )


def decompression_bomb(megabytes: int) -> bytes:
    """A real .xlsx whose sheet is ``megabytes`` MB of one repeated row, deflated a chunk at
    a time (about 250x): the shape of the 1.9 MB file that inflated to 546 MB (#15)."""
    base = as_xlsx(long_table(2))
    row = b'<row><c t="inlineStr"><is><t>' + b"A" * 200 + b"</t></is></c></row>"
    block = row * (1_048_576 // len(row))
    out = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(base)) as source,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target,
    ):
        for info in source.infolist():
            if info.filename != "xl/worksheets/sheet1.xml":
                target.writestr(info, source.read(info))
                continue
            with target.open(info.filename, "w") as sheet:
                sheet.write(b'<worksheet xmlns="http://schemas.openxmlformats.org/'
                            b'spreadsheetml/2006/main"><sheetData>')  # fmt: skip
                for _ in range(megabytes):
                    sheet.write(block)
                sheet.write(b"</sheetData></worksheet>")
    return out.getvalue()


def run_in_child(path: Path) -> dict:
    process = subprocess.Popen(
        [sys.executable, "-m", "bench.ingest", "--one", str(path)],
        stdout=subprocess.PIPE,
        cwd=Path(__file__).resolve().parents[1],
    )
    assert process.stdout is not None
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise RuntimeError(f"measuring {path} failed")
    result = json.loads(output)
    result["peak_rss_mb"] = round(usage.ru_maxrss / 1024, 1)  # Linux reports KiB
    result["file_mb"] = round(path.stat().st_size / 1_048_576, 2)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, nargs="*", default=[1_000, 10_000, 100_000])
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure_one(args.one)))
        return
    results: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as folder:
        for rows in args.rows:
            table = long_table(rows)
            for kind, payload in (("xlsx", as_xlsx(table)), ("csv", as_csv(table))):
                path = Path(folder) / f"inventory_{rows}.{kind}"
                path.write_bytes(payload)
                results[f"{rows}_rows_{kind}"] = run_in_child(path)
        wide_rows = max(args.rows)
        path = Path(folder) / f"wide_{wide_rows}.xlsx"
        path.write_bytes(as_xlsx(wide_table(wide_rows)))
        results[f"{wide_rows}_rows_xlsx_wide_with_total_column"] = run_in_child(path)
        for monthly in (False, True):
            dated = "monthly" if monthly else "daily"
            path = Path(folder) / f"activity_{dated}_{wide_rows}.xlsx"
            table = activity_table(wide_rows, monthly=monthly)
            path.write_bytes(as_xlsx(table, sheet_name="Consumo 2024"))
            results[f"{wide_rows}_rows_xlsx_activity_data_{dated}"] = run_in_child(path)
        path = Path(folder) / "bomb_300mb.xlsx"
        path.write_bytes(decompression_bomb(300))
        results["decompression_bomb_300mb_refused"] = run_in_child(path)
        digests = {}
        for rows in (5_000, 50_000):
            path = Path(folder) / f"digest_{rows}.csv"
            path.write_bytes(as_csv(long_table(rows)))
            digests[rows] = len(load_inventory(path).digest())
    results["digest_chars_5000_vs_50000"] = {
        "5000": digests[5_000],
        "50000": digests[50_000],
        "ratio": round(digests[50_000] / digests[5_000], 3),
    }
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
