import pytest

from engine.agents.catalog import AGENT_NAMES, COORDINATOR, GUARDRAIL
from engine.agents.prompts import PROMPTS
from engine.agents.system_prompt import render_system_prompt
from engine.graph.routing import NO_AGENT, ROUTES, flows_of, resolve_name
from engine.protocol import parse_plan, read_verdict, split_marker

CASES = [
    (agent, flow, index, example)
    for agent, prompt in PROMPTS.items()
    for flow in flows_of(agent)
    for index, example in enumerate(e for e in prompt.examples if e.flow == flow)
]


def test_one_prompt_module_per_agent():
    assert set(PROMPTS) == set(AGENT_NAMES)


@pytest.mark.parametrize("agent", AGENT_NAMES)
def test_every_agent_has_examples_in_every_flow_it_takes_part_in(agent):
    for flow in flows_of(agent):
        assert any(example.flow == flow for example in PROMPTS[agent].examples), flow
    assert all(example.flow in flows_of(agent) for example in PROMPTS[agent].examples)


@pytest.mark.parametrize(("agent", "flow", "index", "example"), CASES)
def test_few_shot_examples_follow_the_format_rules_themselves(agent, flow, index, example):
    text, raw_next = split_marker(example.answer)
    assert text, "an example answer must say something"
    assert "http" not in example.answer and "<" not in example.answer
    if agent == GUARDRAIL:
        assert raw_next is None
        head = text.split()[0].strip("*:.").lower()
        assert head in {"aprovado", "reprovado"}
        assert read_verdict(example.answer).approved == (head == "aprovado")
        return
    successors = ROUTES[flow][agent].successors
    assert example.answer.rstrip().splitlines()[-1].startswith("Next agent: ")
    assert resolve_name(raw_next) in (successors or (NO_AGENT,))
    if agent == COORDINATOR:
        assert parse_plan(example.answer).missing == ()


@pytest.mark.parametrize("agent", AGENT_NAMES)
def test_rendered_prompt_has_every_section(agent):
    for flow in flows_of(agent):
        rendered = render_system_prompt(PROMPTS[agent], flow, ())
        for section in (
            "# Persona",
            "# Escopo",
            "# Tarefas",
            "# Ferramentas Disponiveis",
            "# Agentes Disponiveis",
            "# Formato da Resposta",
            "# Exemplos",
        ):
            assert section in rendered
        for successor in ROUTES[flow][agent].successors:
            assert f"- {successor}:" in rendered
