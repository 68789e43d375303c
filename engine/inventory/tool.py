"""``consultar_inventario``: the analysts' window on the canonical table, beyond the digest.

The inventory of the run travels in the run's config (``configurable["inventory"]``), so
one tool serves concurrent runs without shared state.
"""

from __future__ import annotations

from typing import Literal

import pandas as pd
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import tool

from engine.formatting import number, percent
from engine.inventory import fields as F
from engine.protocol import fold

TOOL_NAME = "consultar_inventario"
INVENTORY_KEY = "inventory"
_MAX_OUTPUT_CHARS = 3_000
Field = Literal["scope", "gas", "category", "facility", "source", "fuel", "year"]


@tool(TOOL_NAME)
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
) -> str:
    """Consulta a tabela canônica do inventário além do resumo. Filtre por trecho do valor
    (scope, gas, category, facility, source, fuel, year), agrupe por um campo (group_by)
    somando t CO2e, ou, sem group_by, liste as top_n maiores linhas."""
    inventory = (config.get("configurable") or {}).get(INVENTORY_KEY)
    if inventory is None:
        return "Nenhum inventário estruturado nesta análise."
    table: pd.DataFrame = inventory.table
    filters = {"scope": scope, "gas": gas, "category": category, "facility": facility,
               "source": source, "fuel": fuel, "year": year}  # fmt: skip
    for field_name, wanted in filters.items():
        if wanted is None or field_name not in table:
            continue
        needle = fold(str(wanted))
        table = table[table[field_name].map(lambda v, n=needle: n in fold(str(v or "")))]
    top_n = max(1, min(int(top_n), 50))
    total = float(table[F.EMISSIONS_TCO2E].sum())
    lines = [f"{len(table)} linhas; total {number(total)} t CO2e ({inventory.gwp_set})."]
    if group_by:
        grouped = table.groupby(table[group_by].fillna("(não informado)"))[F.EMISSIONS_TCO2E]
        sums = grouped.sum().sort_values(ascending=False).head(top_n)
        lines += [f"| {group_by} | t CO2e | % |", "|---|---:|---:|"]
        lines += [
            f"| {value} | {number(t)} | {percent(t / total) if total else '—'} |"
            for value, t in sums.items()
        ]
    else:
        columns = ["sheet", "row", F.SCOPE, F.SOURCE,
                   F.FACILITY, F.GAS, F.EMISSIONS_T_GAS, F.EMISSIONS_TCO2E]  # fmt: skip
        top = table.nlargest(top_n, F.EMISSIONS_TCO2E)[columns]
        lines.append("| aba | linha | escopo | fonte | unidade | gás | t gás | t CO2e |")
        lines.append("|---|---:|---|---|---|---|---:|---:|")
        for values in top.itertuples(index=False):
            *labels, mass, co2e = values
            cells = [str(v) if v is not None and not pd.isna(v) else "—" for v in labels]
            cells += [number(mass, 3), number(co2e)]  # a missing mass shows as "—"
            lines.append("| " + " | ".join(cells) + " |")
    text = "\n".join(lines)
    return text if len(text) <= _MAX_OUTPUT_CHARS else text[:_MAX_OUTPUT_CHARS] + "\n…"
