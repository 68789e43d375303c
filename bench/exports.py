"""A plan exported as Markdown, DOCX and PDF: wall time per format, and number formatting.

    .venv/bin/python -m bench.exports [--repeat 5]

The plan is the shape the coordinator writes: three sections with subheadings, nested and
numbered lists, an action table and Portuguese text with symbols (CO₂, ≥, →). Prints one
JSON object: per format the first run (which loads the fonts) and the best of ``--repeat``;
then how many numbers per second ``engine.formatting.number`` writes in each language.
"""

from __future__ import annotations

import argparse
import json
import time
from datetime import UTC, datetime

from application.exports import plan_docx, plan_markdown, plan_pdf
from engine.dto import AekoImprovementPlan
from engine.formatting import number

_TABLE = "\n".join(
    ["| Medida | Escopo | Redução (t CO₂e/ano) | Prazo |", "|---|---|---:|---|"]
    + [f"| Medida {i} → eletrificação | 1 | {i * 123},4 a {i * 150},9 | 202{i % 7} |"
       for i in range(1, 13)]
)  # fmt: skip
PLAN = AekoImprovementPlan(
    id_external_inventory=1,
    defined_problem="Em 2024 a empresa emitiu 48.976,6 t CO₂e (AR5); gás natural ≥ 78%.\n\n"
    + "O escopo 2 por localização soma 2.951,1 t CO₂e. " * 20,
    method="### Metas\n"
    + "\n".join(f"{i}. Fonte {i}: meta → redução\n   - KPI mensal" for i in range(1, 16))
    + f"\n\n{_TABLE}",
    reasoning="As medidas somam 1.200 a 1.800 t CO₂e por ano. " * 40,
    updated_at=datetime(2026, 12, 1, tzinfo=UTC),
)


def _time(build, repeat: int) -> dict[str, float]:
    started = time.perf_counter()
    size = len(build())
    first = time.perf_counter() - started
    best = first
    for _ in range(repeat):
        started = time.perf_counter()
        build()
        best = min(best, time.perf_counter() - started)
    return {"first_s": round(first, 4), "best_s": round(best, 4), "bytes": size}


def _numbers_per_second(lang: str, count: int = 20_000) -> int:
    started = time.perf_counter()
    for i in range(count):
        number(i * 1.37, 1, lang)
    return round(count / (time.perf_counter() - started))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    title = "Plano de melhoria — Cerâmica Vale Verde"
    result = {
        fmt: _time(lambda build=build: build(PLAN, title=title, lang="pt"), args.repeat)
        for fmt, build in (("markdown", plan_markdown), ("docx", plan_docx), ("pdf", plan_pdf))
    }
    result["numbers_per_s"] = {lang: _numbers_per_second(lang) for lang in ("pt", "en")}
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
