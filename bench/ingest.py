"""Ingestion end to end: read + map + analytics + digest, wall time and peak memory.

    .venv/bin/python -m bench.ingest [--suite workbooks|sizes|all] [--warm 5] [--only NAME ...]
    .venv/bin/python -m bench.ingest --suite sizes [--rows 1000 10000 100000]

Each measurement runs in a fresh process, so its peak RSS is its own. Prints one JSON object.

``workbooks`` (the default, issue #21): the time to import the loader (fresh processes,
median of 5), then per workbook its first load in a fresh process (cold) and the median of
``--warm`` more in the same process (warm): the real MCTI workbooks in ``tests/data/`` when
present, the shipped sample, and generated ones (``bench/workbooks.py``: a national workbook
of one sheet per year, an EPA-like facility summary, 100,000 long-format rows).

``sizes``: generated long tables of ``--rows`` rows as .xlsx and .csv, a wide workbook, activity
data, and a decompression bomb (300 MB of sheet XML in about 1.3 MB): how long the refusal
takes and what the process held meanwhile.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

from bench import workbooks
from engine.inventory import InventoryError, load_inventory
from engine.inventory.analytics import GROUPABLE
from engine.inventory.reader import forget_checked_archives
from tests.inventory_fixtures import as_csv, as_xlsx, long_table

ROOT = Path(__file__).resolve().parents[1]
REAL = sorted((ROOT / "tests" / "data").glob("estim_6a_ed_1990-2020_*.xlsx"))
SAMPLE = ROOT / "assets" / "sample_inventory.xlsx"
GENERATED: dict[str, tuple[str, Callable[[], bytes]]] = {
    "national_one_sheet_per_year": ("national_1990-2020.xlsx", workbooks.national_by_year),
    "epa_direct_emitters_7000": ("ghgp_direct_emitters.xlsx", workbooks.epa_direct_emitters),
    "long_100000_rows": ("long_100000.xlsx", workbooks.long_rows),
}
IMPORTS = ("import engine.inventory", "from engine.inventory import load_inventory")


def _end_to_end(path: str) -> dict:
    """Load, then what the inventory page shows: totals by every field, Pareto, year over
    year and the digest. Wall and CPU seconds (the CPU time moves less on a shared machine)."""
    forget_checked_archives()  # a warm run still checks its archive, as a new upload does
    started, cpu = time.perf_counter(), time.process_time()
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
        "end_to_end_cpu_s": round(time.process_time() - cpu, 3),
        "digest_chars": len(digest),
    }


def measure_one(path: str, warm: int = 0) -> dict:
    """The first end-to-end run in this process (cold: the loader's caches are empty) and,
    with ``warm``, the medians of that many more."""
    cold = _end_to_end(path)
    if warm <= 0 or "refused" in cold:
        return cold
    runs = [_end_to_end(path) for _ in range(warm)]
    result = {key: cold[key] for key in ("canonical_rows", "total_tco2e", "status")}
    result |= {f"cold_{key}": cold[key] for key in ("load_s", "end_to_end_s")}
    for key in ("load_s", "end_to_end_s", "end_to_end_cpu_s"):
        result[f"warm_{key}"] = round(statistics.median(run[key] for run in runs), 3)
    result["warm_end_to_end_s_runs"] = [run["end_to_end_s"] for run in runs]
    return result


def measure_imports(repeat: int = 5) -> dict:
    """Each statement in ``repeat`` fresh interpreters, timed inside (interpreter start-up
    excluded): the median wall and CPU seconds, and every run's wall seconds."""
    result = {}
    for statement in IMPORTS:
        code = (f"import time; t, c = time.perf_counter(), time.process_time(); {statement}; "
                "print(time.perf_counter() - t, time.process_time() - c)")  # fmt: skip
        runs = []
        for _ in range(repeat):
            output = subprocess.run(
                [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
            )
            runs.append(tuple(float(x) for x in output.stdout.split()))
        result[statement] = {
            "median_s": round(statistics.median(wall for wall, _ in runs), 3),
            "median_cpu_s": round(statistics.median(cpu for _, cpu in runs), 3),
            "runs_s": [round(wall, 3) for wall, _ in runs],
        }
    return result


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


def run_in_child(path: Path, warm: int = 0) -> dict:
    process = subprocess.Popen(
        [sys.executable, "-m", "bench.ingest", "--one", str(path), "--warm", str(warm)],
        stdout=subprocess.PIPE,
        cwd=ROOT,
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


def workbook_suite(folder: Path, warm: int, only: list[str] | None) -> dict:
    paths = {path.stem: path for path in [*REAL, SAMPLE]}
    for name, (filename, build) in GENERATED.items():
        if only and name not in only:
            continue
        paths[name] = folder / filename
        paths[name].write_bytes(build())
    results = {}
    for name, path in paths.items():
        if not only or name in only:
            results[name] = run_in_child(path, warm)
    return results


def size_suite(folder: Path, sizes: list[int]) -> dict:
    results: dict[str, dict] = {}
    for rows in sizes:
        table = long_table(rows)
        for kind, payload in (("xlsx", as_xlsx(table)), ("csv", as_csv(table))):
            path = folder / f"inventory_{rows}.{kind}"
            path.write_bytes(payload)
            results[f"{rows}_rows_{kind}"] = run_in_child(path)
    wide_rows = max(sizes)
    path = folder / f"wide_{wide_rows}.xlsx"
    path.write_bytes(as_xlsx(wide_table(wide_rows)))
    results[f"{wide_rows}_rows_xlsx_wide_with_total_column"] = run_in_child(path)
    for monthly in (False, True):
        dated = "monthly" if monthly else "daily"
        path = folder / f"activity_{dated}_{wide_rows}.xlsx"
        table = activity_table(wide_rows, monthly=monthly)
        path.write_bytes(as_xlsx(table, sheet_name="Consumo 2024"))
        results[f"{wide_rows}_rows_xlsx_activity_data_{dated}"] = run_in_child(path)
    path = folder / "bomb_300mb.xlsx"
    path.write_bytes(decompression_bomb(300))
    results["decompression_bomb_300mb_refused"] = run_in_child(path)
    digests = {}
    for rows in (5_000, 50_000):
        path = folder / f"digest_{rows}.csv"
        path.write_bytes(as_csv(long_table(rows)))
        digests[rows] = len(load_inventory(path).digest())
    results["digest_chars_5000_vs_50000"] = {
        "5000": digests[5_000],
        "50000": digests[50_000],
        "ratio": round(digests[50_000] / digests[5_000], 3),
    }
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--suite", choices=("workbooks", "sizes", "all"), default="workbooks")
    parser.add_argument("--rows", type=int, nargs="*", default=[1_000, 10_000, 100_000])
    parser.add_argument("--warm", type=int, default=5)
    parser.add_argument("--only", nargs="*", help="workbook names (file stems or generated)")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure_one(args.one, args.warm)))
        return
    results: dict[str, object] = {
        "machine": {
            "python": platform.python_version(),
            "pandas": pd.__version__,
            "cpus": os.cpu_count(),
            "load_average_at_start": [round(x, 2) for x in os.getloadavg()],
        }
    }
    with tempfile.TemporaryDirectory() as folder:
        if args.suite in ("workbooks", "all"):
            results["import"] = measure_imports()
            results["workbooks"] = workbook_suite(Path(folder), args.warm, args.only)
        if args.suite in ("sizes", "all"):
            results["sizes"] = size_suite(Path(folder), args.rows)
    results["machine"]["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
