"""A plan's computed side: the actions for the sample inventory (with a 4.2%/yr target and
the sample's cost quotes), the what-if recompute, the two charts as PNG, and the PDF with them.

    .venv/bin/python -m bench.actions [--repeat 5]

Prints one JSON object: for each step the first run and the best of ``--repeat`` (seconds),
and the size of what was built.
"""

from __future__ import annotations

import argparse
import json
import time
from datetime import UTC, datetime

from application.exports import plan_pdf
from application.plan_charts import chart_png, macc_chart, path_chart
from application.planning import default_target, plan_inputs
from assets import SAMPLE_COSTS_PATH, SAMPLE_NAME, SAMPLE_PATH
from engine.actions import build_plan_actions
from engine.actions.scenario import Scenario, recompute
from engine.dto import AekoImprovementPlan
from engine.inventory import load_inventory


def _time(step, repeat: int) -> tuple[dict[str, float], object]:
    started = time.perf_counter()
    result = step()
    first = time.perf_counter() - started
    best = first
    for _ in range(repeat):
        started = time.perf_counter()
        step()
        best = min(best, time.perf_counter() - started)
    return {"first_s": round(first, 4), "best_s": round(best, 4)}, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    repeat = parser.parse_args().repeat
    inventory = load_inventory(SAMPLE_PATH.read_bytes(), filename=SAMPLE_NAME)
    costs = (SAMPLE_COSTS_PATH.name, SAMPLE_COSTS_PATH.read_bytes())
    inputs = plan_inputs(inventory, default_target(inventory), costs=costs)
    results: dict[str, object] = {"inventory_rows": len(inventory.table)}

    def build():
        return build_plan_actions(
            inventory, target=inputs.target, costs=inputs.costs, start_year=2027
        )

    results["build_plan_actions"], actions = _time(build, repeat)
    results["actions"] = len(actions.actions)
    results["alternatives"] = len(actions.alternatives)
    everything = [*actions.actions, *actions.alternatives]
    scenario = Scenario(selected=tuple(a.id for a in actions.actions))
    results["what_if_recompute"], _ = _time(
        lambda: recompute(inventory, everything, scenario), repeat
    )
    results["macc_png"], png = _time(lambda: chart_png(macc_chart(actions, "pt")), repeat)
    results["macc_png_bytes"] = len(png)
    results["path_png"], _ = _time(lambda: chart_png(path_chart(actions, "pt")), repeat)
    plan = AekoImprovementPlan(
        id_external_inventory=1, defined_problem="Problema.", method="Método.",
        reasoning="Raciocínio.", updated_at=datetime(2026, 12, 1, tzinfo=UTC),
    )  # fmt: skip
    results["pdf_with_actions"], pdf = _time(
        lambda: plan_pdf(plan, title="Plano", lang="pt", actions=actions), repeat
    )
    results["pdf_bytes"] = len(pdf)
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
