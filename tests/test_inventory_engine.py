"""The inventory flow reads a bounded digest and may query the full table with a tool."""

from langchain_core.messages import AIMessage

from engine import Aeko, AekoInventoryAnalyzer, ToolCalled, ToolReturned
from engine.agents.catalog import (
    COORDINATOR,
    GREEN_GASES_ANALYST,
    INVENTORY_ANALYST,
    POLLUTANTS_ANALYST,
)
from engine.formatting import number
from engine.inventory import DEFAULT_DIGEST_CHARS, load_inventory
from engine.models.scripted import ScriptedChatModel
from tests import inventory_fixtures as fx

PLAN = (
    "## Problema definido\nDiesel.\n\n## Método\nHVO.\n\n## Raciocínio\nReduz.\nNext agent: Nenhum"
)


def _configure(**script):
    model = ScriptedChatModel(
        model_name="fake",
        script={
            INVENTORY_ANALYST: ["Lido.\nNext agent: Analista de Poluentes"],
            POLLUTANTS_ANALYST: ["P.\nNext agent: Coordenador de Melhoria Contínua"],
            GREEN_GASES_ANALYST: ["G.\nNext agent: Coordenador de Melhoria Contínua"],
            COORDINATOR: [PLAN],
            **script,
        },
    )
    Aeko.config(fast_model=model, slow_model=model)
    return model


def test_an_ingested_inventory_reaches_the_agents_as_its_digest():
    inv = load_inventory(fx.as_csv(fx.long_table(5_000)), filename="grande.csv")
    model = _configure()
    AekoInventoryAnalyzer().analyze(inv, id_external_inventory=1)
    request = model.calls_for(INVENTORY_ANALYST)[0].messages[-1].text
    assert inv.digest() in request
    assert len(request) < DEFAULT_DIGEST_CHARS + 500
    assert model.calls_for(INVENTORY_ANALYST)[0].tools == (
        "consultar_inventario",
        "calcular_emissoes",
        "calcular",
    )
    # The coordinator computes, it does not query: its figures come from what it was given.
    assert model.calls_for(COORDINATOR)[0].tools == ("calcular",)


def test_a_markdown_table_over_the_budget_is_digested_not_pasted():
    inv = load_inventory(fx.as_csv(fx.long_table(3_000)), filename="t.csv")
    markdown = fx.long_table(3_000).to_markdown(index=False)
    assert len(markdown) > DEFAULT_DIGEST_CHARS
    model = _configure()
    AekoInventoryAnalyzer().analyze(markdown, id_external_inventory=1)
    request = model.calls_for(INVENTORY_ANALYST)[0].messages[-1].text
    assert len(request) < DEFAULT_DIGEST_CHARS + 500
    total_line = next(line for line in inv.digest().splitlines() if line.startswith("Total:"))
    assert total_line in request  # the same total the ingestion computes from the file


def test_small_markdown_is_passed_as_it_is_without_the_tool():
    markdown = "| Fonte | Gás | t CO2e |\n|---|---|---|\n| Caldeira | CO2 | 10 |"
    model = _configure()
    AekoInventoryAnalyzer().analyze(markdown, id_external_inventory=1)
    call = model.calls_for(INVENTORY_ANALYST)[0]
    assert markdown in call.messages[-1].text
    # the calculators, never the inventory tool
    assert call.tools == ("calcular_emissoes", "calcular")


def test_analysts_query_the_run_s_own_inventory_with_the_tool():
    data, expected = fx.ghg_program_workbook()
    inv = load_inventory(data, filename="programa.xlsx")
    query = AIMessage(
        content="",
        tool_calls=[{"name": "consultar_inventario", "args": {"group_by": "gas"}, "id": "q1"}],
    )
    _configure(**{POLLUTANTS_ANALYST: [query, "CO2 domina.\nNext agent: Coordenador de "
                                               "Melhoria Contínua"]})  # fmt: skip
    events = list(AekoInventoryAnalyzer().stream(inv, id_external_inventory=1))
    called = [e for e in events if isinstance(e, ToolCalled)]
    returned = [e for e in events if isinstance(e, ToolReturned)]
    assert [(e.agent, e.tool) for e in called] == [(POLLUTANTS_ANALYST, "consultar_inventario")]
    assert not returned[0].error
    co2 = number(expected.per_gas_t["CO2"])  # CO2's GWP is 1: its t CO2e are its tonnes
    assert f"| CO2 | {co2} |" in returned[0].output and "AR5" in returned[0].output
    assert events[-1].result.method == "HVO."
