"""The offline plan names each GHG Protocol scope in the language of the question: "Escopo 1"
in Portuguese, "Scope 1" in English, and a row whose scope the workbook left blank as not
stated, never a Portuguese word inside an English answer."""

from __future__ import annotations

import pytest

from engine.agents.catalog import COORDINATOR
from engine.agents.request import AgentRequest
from engine.inventory import load_markdown_inventory
from engine.offline.agents import coordinator

# Scope 1: 1 240 t of the boiler's diesel; Scope 2: 800 t of grid electricity; the chiller's
# 0.05 t of HFC-134a (GWP 1 300, AR5) is 65 t, its scope left blank. Total 2 105 t.
_TABLE = (
    "| Escopo | Fonte | Combustível | Gás | Emissões (t) |\n|---|---|---|---|---|\n"
    "| 1 | Caldeira | Óleo diesel | CO2 | 1240 |\n"
    "| 2 | Rede | Eletricidade | CO2 | 800 |\n"
    "|  | Chiller | — | HFC-134a | 0,05 |"
)


def _plan(question: str) -> str:
    request = AgentRequest(
        agent=COORDINATOR,
        flow="chat",
        successors=(),
        question=question,
        inventory=load_markdown_inventory(_TABLE),
    )
    return coordinator(request)


@pytest.mark.parametrize(
    ("question", "scopes", "foreign"),
    [
        (
            "Monte um plano para reduzir as emissões das caldeiras",
            "Por escopo: Escopo 1: 1.240,0 t CO2e (58,9%); Escopo 2: 800,0 t CO2e (38,0%); "
            "(não informado): 65,0 t CO2e (3,1%).",
            "Scope 1",
        ),
        (
            "Draft an improvement plan for our boilers",
            "By scope: Scope 1: 1,240.0 t CO2e (58.9%); Scope 2: 800.0 t CO2e (38.0%); "
            "(not stated): 65.0 t CO2e (3.1%).",
            "Escopo 1",
        ),
    ],
)
def test_the_plan_names_each_scope_in_the_question_s_language(question, scopes, foreign):
    plan = _plan(question)
    assert scopes in plan
    assert foreign not in plan
