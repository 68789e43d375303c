"""``consultar_inventario``: the analysts' window on the canonical table, beyond the digest.

The inventory of the run travels in the run's config (``configurable["inventory"]``), so
one tool serves concurrent runs without shared state.
"""

from __future__ import annotations

import pandas as pd
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import tool

from engine.dto import AekoSource
from engine.formatting import number, percent
from engine.inventory import fields as F
from engine.inventory.query import Field, QueryResult, query

TOOL_NAME = "consultar_inventario"
INVENTORY_KEY = "inventory"
_MAX_OUTPUT_CHARS = 3_000


@tool(TOOL_NAME, response_format="content_and_artifact")
def query_inventory(  # noqa: PLR0917 - each filter is a parameter the model can see
    config: RunnableConfig,
    group_by: Field | None = None,
    top_n: int = 10,
    scope: str | None = None,
    gas: str | None = None,
    category: str | None = None,
    facility: str | None = None,
    source: str | None = None,
    fuel: str | None = None,
    year: str | None = None,
) -> tuple[str, list[AekoSource]]:
    """Consulta a tabela canônica do inventário além do resumo. Filtre por trecho do valor
    (scope, gas, category, facility, source, fuel, year), agrupe por um campo (group_by)
    somando t CO2e, ou, sem group_by, liste as top_n maiores linhas."""
    inventory = (config.get("configurable") or {}).get(INVENTORY_KEY)
    if inventory is None:
        return "Nenhum inventário estruturado nesta análise.", []
    filters = {"scope": scope, "gas": gas, "category": category, "facility": facility,
               "source": source, "fuel": fuel, "year": year}  # fmt: skip
    result = query(inventory, group_by=group_by, top_n=top_n, filters=filters)
    text = render(result, group_by, inventory.gwp_set)
    text = text if len(text) <= _MAX_OUTPUT_CHARS else text[:_MAX_OUTPUT_CHARS] + "\n…"
    asked = {"group_by": group_by, **filters}
    what = ", ".join(f"{k}={v}" for k, v in asked.items() if v is not None) or f"top {top_n}"
    name = inventory.source_name or "inventário"
    source = AekoSource(
        kind="inventory",
        ref=f"{name}|{what}",
        label=f"{name}: {what} ({len(result.rows)} linhas)",
        citation=name,
    )
    return text, [source]


def render(result: QueryResult, group_by: str | None, gwp_set: str) -> str:
    total = result.total
    head = f"{len(result.rows)} linhas; total {number(total)} t CO2e ({gwp_set})."
    lines = [head + (f" Ano {result.year}." if result.year else "")]
    if result.groups is not None:
        lines += [f"| {group_by} | t CO2e | % |", "|---|---:|---:|"]
        lines += [
            f"| {value} | {number(t)} | {percent(t / total) if total else '—'} |"
            for value, t in result.groups
        ]
    elif result.top is not None:
        columns = ["sheet", "row", F.SCOPE, F.SOURCE,
                   F.FACILITY, F.GAS, F.EMISSIONS_T_GAS, F.EMISSIONS_TCO2E]  # fmt: skip
        lines.append("| aba | linha | escopo | fonte | unidade | gás | t gás | t CO2e |")
        lines.append("|---|---:|---|---|---|---|---:|---:|")
        for values in result.top[columns].itertuples(index=False):
            *labels, mass, co2e = values
            cells = [str(v) if v is not None and not pd.isna(v) else "—" for v in labels]
            cells += [number(mass, 3), number(co2e)]  # a missing mass shows as "—"
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)
