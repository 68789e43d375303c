"""``estimar_reducoes``: the reductions the catalogue's measures would bring to the run's
inventory, computed under GHG Protocol rules (engine.actions), for an analyst to quote rather
than apply life-cycle percentages to Scope 1 tonnes itself."""

from __future__ import annotations

from langchain_core.runnables import RunnableConfig
from langchain_core.tools import tool

from engine.dto import AekoSource
from engine.inventory.tool import INVENTORY_KEY

TOOL_NAME = "estimar_reducoes"


@tool(TOOL_NAME, response_format="content_and_artifact")
def estimate_reductions(config: RunnableConfig) -> tuple[str, list[AekoSource]]:
    """Calcula as reduções (t CO2e/ano, faixa baixa–alta) das medidas do catálogo da Aeko que
    se aplicam ao inventário desta conversa, pelas regras do GHG Protocol: troca de
    combustível retira o CO2 fóssil da fração substituída (CO2 biogênico à parte), contratos
    de energia mudam só o escopo 2 por escolha de compra, gases do Protocolo de Montreal
    ficam fora. Devolve a tabela de ações, com linhas, custos conhecidos e indicadores."""
    from engine.actions import build_plan_actions, render
    from engine.measures.catalogue import shipped_catalogue

    inventory = (config.get("configurable") or {}).get(INVENTORY_KEY)
    if inventory is None:
        return "Nenhum inventário anexado a esta conversa.", []
    plan = build_plan_actions(inventory)
    text = f"{render.summary_text(plan, 'pt')}\n\n{render.actions_table(plan, 'pt')}"
    catalogue = {row.key: row for row in shipped_catalogue()}
    sources: dict[str, AekoSource] = {}
    for action in plan.actions:
        measure = catalogue.get(action.measure_id)
        sources.setdefault(
            action.measure_id,
            AekoSource(
                kind="knowledge",
                ref=f"measure:{action.measure_id}",
                label=f"{action.source['pt']} → {action.measure['pt']}",
                citation=measure.reference if measure else "",
            ),
        )
    name = inventory.source_name or "inventário"
    sources["inventory"] = AekoSource(
        kind="inventory", ref=f"{name}|ações", label=f"{name}: linhas das ações", citation=name
    )
    return text, list(sources.values())
