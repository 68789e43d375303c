"""Emissions from activity rows through the batch path: wall time per size.

    .venv/bin/python -m bench.emissions [--rows 1000 10000 100000] [--repeat 3]

Rows mix fuels, grid electricity, refrigerants and carbonates, in several units and spellings,
over the 24 months of 2023-2024, with the shipped factor library. Prints one JSON object: the
library's load time, then for each size the best of ``--repeat`` runs (the first run of a
size also pays the per-group estimates' pint parsing, cached for the next).
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
import pandas as pd

from engine.emissions import default_library, estimate_rows

# (activity as a sheet writes it, unit): spellings vary on purpose, each is its own group.
MIX = (
    ("óleo diesel", "L"),
    ("Diesel S10", "L"),
    ("diesel_offroad", "L"),
    ("diesel gerador", "mil litros"),
    ("gás natural", "m³"),
    ("gás natural", "GJ"),
    ("GLP", "kg"),
    ("GLP", "L"),
    ("óleo combustível", "t"),
    ("energia elétrica", "MWh"),
    ("energia elétrica", "kWh"),
    ("R-410A", "kg"),
    ("R-134a", "kg"),
    ("dolomita", "t"),
    ("calcário", "t"),
)
MONTHS = [f"{year}-{month:02d}" for year in (2023, 2024) for month in range(1, 13)]


def activity_rows(rows: int, *, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    kinds = rng.integers(0, len(MIX), rows)
    return pd.DataFrame(
        {
            "activity": [MIX[k][0] for k in kinds],
            "unit": [MIX[k][1] for k in kinds],
            "quantity": np.round(rng.uniform(1, 50_000, rows), 2),
            "period": rng.choice(MONTHS, rows),
        }
    )


def measure(rows: int, repeat: int) -> dict:
    frame = activity_rows(rows)
    timings = []
    result = None
    for _ in range(repeat):
        started = time.perf_counter()
        result = estimate_rows(frame)
        timings.append(time.perf_counter() - started)
    assert result is not None
    best = min(timings)
    return {
        "rows": rows,
        "groups": len(result.estimates),
        "errors": int(result.table["error"].notna().sum()),
        "first_run_s": round(timings[0], 3),
        "seconds": round(best, 3),
        "rows_per_s": round(rows / best),
        "total_tco2e": round(result.total_tco2e, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, nargs="*", default=[1_000, 10_000, 100_000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    started = time.perf_counter()
    factors = len(default_library())
    load = time.perf_counter() - started
    results = {
        "library": {"factors": factors, "load_s": round(load, 3)},
        **{f"{rows}_rows": measure(rows, args.repeat) for rows in args.rows},
    }
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
