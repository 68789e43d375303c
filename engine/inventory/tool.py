"""``consultar_inventario``: the analysts' window on the canonical table, beyond the digest.

The inventory of the run travels in the run's config (``configurable["inventory"]``), so
one tool serves concurrent runs without shared state. Without ``view`` it filters, groups and
lists rows; with one it returns a fact the digest may have left out (``engine.inventory.facts``:
every finding, gas masses, other GWP sets, installations by scope, sheets and their units).
Its text is plain, with the workbook's words on single lines, and its figures are in the
digest's notation: what the grounding check reads as what the run read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import tool

from engine.dto import AekoSource
from engine.formatting import number, percent
from engine.inventory import analytics, facts
from engine.inventory import fields as F
from engine.inventory.query import LABEL, Field, QueryResult, View, query, select

if TYPE_CHECKING:
    from engine.inventory.inventory import Inventory

TOOL_NAME = facts.TOOL
INVENTORY_KEY = "inventory"
_MAX_OUTPUT_CHARS = 3_000  # a page; the rest on the next pages, never cut mid-line


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
    quality: str | None = None,
    view: View | None = None,
    page: int = 1,
) -> tuple[str, list[AekoSource]]:
    """Consulta a tabela canônica do inventário além do resumo. Filtre por trecho do valor
    (scope, gas, category, facility, source, fuel, year; quality = a qualidade do dado que a
    planilha declara, como "estimado" ou "medido"), agrupe por um campo (group_by)
    somando t CO2e, ou, sem group_by, liste as top_n maiores linhas. Com view:
    "findings" = todos os apontamentos de qualidade dos dados; "gases" = massa de cada gás
    (t de gás e t CO2e) e o que fica fora do total; "gwp_sets" = total e escopos em AR4, AR5
    e AR6; "facility_scope" = t CO2e de cada unidade (instalação) por escopo, Escopo 2 por
    localização e por escolha de compra em colunas separadas; "sheets" = situação de cada aba,
    o porquê e onde cada unidade de medida foi lida. Os filtros valem para gases, gwp_sets e
    facility_scope. Resultado longo: peça a página seguinte com page."""
    inventory = (config.get("configurable") or {}).get(INVENTORY_KEY)
    if inventory is None:
        return "Nenhum inventário estruturado nesta análise.", []
    filters = {"scope": scope, "gas": gas, "category": category, "facility": facility,
               "source": source, "fuel": fuel, "year": year, "quality": quality}  # fmt: skip
    asked = {"view": view, "group_by": None if view else group_by, **filters}
    what = ", ".join(f"{k}={v}" for k, v in asked.items() if v is not None) or f"top {top_n}"
    if view is not None:
        text, count = render_view(inventory, view, filters)
    else:
        result = query(inventory, group_by=group_by, top_n=top_n, filters=filters)
        text, count = render(result, group_by, inventory.gwp_set), len(result.rows)
    text = paged(text, page)
    name = inventory.source_name or "inventário"
    source = AekoSource(
        kind="inventory",
        ref=f"{name}|{what}" + (f"|page={page}" if page > 1 else ""),
        label=f"{name}: {what} ({count} linhas)",
        citation=name,
    )
    return text, [source]


def paged(text: str, page: int = 1, size: int = _MAX_OUTPUT_CHARS) -> str:
    """Page ``page`` of ``text``, in whole lines of at most ``size`` characters in all, with
    how to ask for the next one: a model reads every line, never a figure cut in half."""
    pages: list[list[str]] = [[]]
    used = 0
    for whole in text.splitlines():
        line = whole if len(whole) <= size else whole[: size - 1] + "…"
        if pages[-1] and used + len(line) + 1 > size:
            pages.append([])
            used = 0
        pages[-1].append(line)
        used += len(line) + 1
    if len(pages) == 1:
        return text
    page = max(1, min(int(page), len(pages)))
    lines = pages[page - 1]
    more = f" Peça page={page + 1} para continuar." if page < len(pages) else ""
    return "\n".join([*lines, f"(página {page} de {len(pages)}.{more})"])


def render_view(
    inventory: Inventory, view: View, filters: dict[str, str | None]
) -> tuple[str, int]:
    """One fact of the inventory as text, and how many canonical rows it stands on."""
    if view == "findings":
        findings = inventory.findings
        if not findings:
            return "Qualidade dos dados: nenhum problema encontrado.", len(inventory.table)
        lines = [f"Apontamentos de qualidade dos dados ({facts.count(len(findings))}):"]
        lines += facts.finding_lines(findings, chars=1_000)
        return "\n".join(lines), len(inventory.table)
    if view == "sheets":
        checks = inventory.reconciliation
        lines = [f"Abas com emissões ({len(checks)}): situação, porquê e unidades de medida."]
        lines += facts.sheet_lines(checks, detail=True) or ["Nenhuma aba conferida."]
        return "\n".join(lines), len(inventory.table)
    table, year = select(inventory, filters)
    asked = ", ".join(f"{k}={v}" for k, v in filters.items() if v is not None)
    head = (f"{len(table)} linhas" + (f" ({asked})" if asked else "")
            + (f"; ano {year}" if year else "") + ".")  # fmt: skip
    if table.empty:
        return f"{head} Nenhuma linha atende a esse filtro.", 0
    if view == "gases":
        total = number(table[F.EMISSIONS_TCO2E].sum())
        lines = [f"{head} Total {total} t CO2e ({inventory.gwp_label('pt')})."]
        lines += facts.gas_table(analytics.gas_masses(table))
        biogenic = float(table[F.BIOGENIC_CO2].sum()) if F.BIOGENIC_CO2 in table else 0.0
        lines += facts.memo_lines(analytics.memo_gases(table), biogenic)
    elif view == "gwp_sets":
        totals = facts.set_totals(inventory, table, every_set=True)
        lines = [head, *facts.gwp_lines(inventory, totals)]
    else:
        lines = [f"{head} t CO2e ({inventory.gwp_label('pt')}); o SBCE vale por instalação, "
                 "sobre o Escopo 1 de cada uma."]  # fmt: skip
        frame = analytics.facility_scope(table)
        lines += facts.facility_scope_table(frame) or ["Sem unidades neste inventário."]
    return "\n".join(lines), len(table)


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
        columns = ["sheet", "row", F.SCOPE, LABEL if LABEL in result.top else F.SOURCE,
                   F.FACILITY, F.GAS, F.EMISSIONS_T_GAS, F.EMISSIONS_TCO2E]  # fmt: skip
        lines.append("| aba | linha | escopo | fonte | unidade | gás | t gás | t CO2e |")
        lines.append("|---|---:|---|---|---|---|---:|---:|")
        for values in result.top[columns].itertuples(index=False):
            *labels, mass, co2e = values
            cells = [str(v) if v is not None and not pd.isna(v) else "—" for v in labels]
            cells += [number(mass, 3), number(co2e)]  # a missing mass shows as "—"
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)
