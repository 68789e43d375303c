"""The offline inventory analyst answers in one language at a time (issue #25): in English its
totals, scopes, largest source and data-quality finding carry no Portuguese word and use English
notation; in Portuguese they read as they always did. The offline plan quotes the finding in
the question's language too."""

from __future__ import annotations

import re

import pytest

from engine.agents.catalog import COORDINATOR, INVENTORY_ANALYST, POLLUTANTS_ANALYST
from engine.agents.request import AgentRequest
from engine.inventory import load_markdown_inventory
from engine.offline.agents import coordinator, inventory_analyst

# Scope 1: 1 240 t CO2 from the boiler's diesel; Scope 2: 800 t CO2 from grid electricity;
# the chiller's 0.05 t of HFC-134a is 65 t CO2e (GWP 1 300, AR5) with its scope left blank, a
# data-quality finding. Total 2 105 t CO2e: 58.9%, 38.0% and 3.1%. No facility is given.
_TABLE = (
    "| Escopo | Fonte | Combustível | Gás | Emissões (t) |\n|---|---|---|---|---|\n"
    "| 1 | Caldeira | Óleo diesel | CO2 | 1240 |\n"
    "| 2 | Rede | Eletricidade | CO2 | 800 |\n"
    "|  | Chiller | — | HFC-134a | 0,05 |"
)
_PORTUGUESE = (
    "Escopo",
    "escopo",
    "Total do inventário",
    "Maior fonte",
    "apontamento",
    "não informado",
    "Qualidade",
    "desconhecido",
    " com ",
    " como ",
)


def _analysis(question: str, flow: str = "chat") -> str:
    request = AgentRequest(
        agent=INVENTORY_ANALYST,
        flow=flow,  # type: ignore[arg-type]
        successors=(POLLUTANTS_ANALYST,),
        question=question,
        inventory=load_markdown_inventory(_TABLE),
    )
    answer = inventory_analyst(request)
    return answer.split("\nNext agent:")[0]  # the protocol's marker is not the answer


def _plan_problem(question: str) -> str:
    request = AgentRequest(
        agent=COORDINATOR,
        flow="chat",
        successors=(),
        question=question,
        inventory=load_markdown_inventory(_TABLE),
    )
    # The "defined problem" section: the inventory's figures and its data-quality finding.
    return coordinator(request).split("\n\n")[0]


def test_the_english_analysis_has_no_portuguese_word_and_english_notation():
    lines = _analysis("Summarize our inventory").splitlines()
    assert lines[:3] == [
        "Inventory total: 2,105.0 t CO2e (GWP AR5).",
        "By scope: Scope 1: 1,240.0 t CO2e (58.9%); Scope 2: 800.0 t CO2e (38.0%); "
        "(not stated): 65.0 t CO2e (3.1%).",
        "Largest source: Caldeira ((not stated), CO2) with 1,240.0 t CO2e (58.9%).",
    ]
    assert lines[3].startswith("Data quality: 1 finding(s), such as: ")
    assert "scope" in lines[3].removeprefix("Data quality: 1 finding(s), such as: ").lower()
    text = "\n".join(lines)
    assert not [word for word in _PORTUGUESE if word in text]
    assert not re.search(r"\d\.\d{3},\d", text)  # no "2.105,0": English groups with commas


@pytest.mark.parametrize(
    ("question", "flow"),
    [("Resuma o nosso inventário", "chat"), ("", "inventory")],  # the inventory flow is PT
)
def test_the_portuguese_analysis_reads_as_before(question, flow):
    lines = _analysis(question, flow).splitlines()
    assert lines[:3] == [
        "Total do inventário: 2.105,0 t CO2e (GWP AR5).",
        "Por escopo: Escopo 1: 1.240,0 t CO2e (58,9%); Escopo 2: 800,0 t CO2e (38,0%); "
        "(não informado): 65,0 t CO2e (3,1%).",
        "Maior fonte: Caldeira ((não informado), CO2) com 1.240,0 t CO2e (58,9%).",
    ]
    assert lines[3].startswith("Qualidade dos dados: 1 apontamento(s), como: Escopo ")
    assert len(lines) == 4


@pytest.mark.parametrize(
    ("question", "quoted", "foreign"),
    [
        (
            "Draft an improvement plan for our boilers",
            "Before fixing targets, correct 1 data-quality finding(s), such as: ",
            _PORTUGUESE,
        ),
        (
            "Monte um plano para reduzir as emissões das caldeiras",
            "Antes de fixar metas, corrija 1 apontamento(s) de qualidade dos dados, como: ",
            ("Scope", "scope", "finding", "not stated", "Unknown"),
        ),
    ],
)
def test_the_plan_quotes_the_finding_in_the_question_s_language(question, quoted, foreign):
    problem = _plan_problem(question)
    assert quoted in problem
    body = problem.split("\n", 1)[1]  # the heading is the protocol's, in Portuguese
    assert not [word for word in foreign if word in body]
