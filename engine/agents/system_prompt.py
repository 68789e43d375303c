"""Renders an agent's system prompt from its prompt module, its tools and the routing table."""

import re
from collections.abc import Sequence
from datetime import date, datetime

from engine.agents.catalog import GUARDRAIL, SPEC_BY_NAME
from engine.agents.prompts.base import AgentPrompt
from engine.dto import AekoTool
from engine.graph.routing import NO_AGENT, Flow, successors_for_prompt

_WEEKDAYS = ("segunda-feira", "terça-feira", "quarta-feira", "quinta-feira", "sexta-feira",
             "sábado", "domingo")  # fmt: skip


def render_system_prompt(prompt: AgentPrompt, flow: Flow, tools: Sequence[AekoTool]) -> str:
    """Everything but the temporal context, which changes with the day and goes last."""
    sections = [
        f"# Persona\n{prompt.persona}",
        f"# Escopo\n{prompt.scope}",
        "# Tarefas\n" + "\n".join(f"- {task}" for task in prompt.tasks),
        "# Ferramentas Disponiveis\n" + _tools_section(tools),
        "# Agentes Disponiveis\n" + _agents_section(prompt.agent, flow),
        f"# Formato da Resposta\n{prompt.response_format}",
    ]
    examples = [example for example in prompt.examples if example.flow == flow]
    if examples:
        rendered = "\n\n".join(
            f"## Exemplo {index}\nEntrada:\n{example.request}\n\nResposta:\n{example.answer}"
            for index, example in enumerate(examples, start=1)
        )
        sections.append(f"# Exemplos\n{rendered}")
    return "\n\n".join(sections)


def temporal_context(now: datetime) -> str:
    return (
        "# Contexto Temporal\n"
        f"Hoje é {_WEEKDAYS[now.weekday()]}, {now:%d/%m/%Y} (UTC). "
        "Use esta data para julgar o que é recente, prazos e anos-base."
    )


_TODAY = re.compile(r"Hoje é [^,]+, (\d{2})/(\d{2})/(\d{4}) \(UTC\)")


def temporal_date(temporal: str) -> date | None:
    """The run's date, read back from the temporal context ``temporal_context`` rendered:
    what the models read as today is what the engine's own date checks use, so no part of a
    run asks the wall clock again (None when the run carries no temporal context)."""
    found = _TODAY.search(temporal)
    if found is None:
        return None
    day, month, year = map(int, found.groups())
    return date(year, month, day)


def _tools_section(tools: Sequence[AekoTool]) -> str:
    if not tools:
        return "Nenhuma ferramenta: responda com o que está no contexto recebido."
    return "\n".join(tool.to_prompt_line() for tool in tools)


def _agents_section(agent: str, flow: Flow) -> str:
    if agent == GUARDRAIL:
        return (
            "Você não encaminha para ninguém: seu veredito decide se a resposta sai ou volta "
            "ao Roteador. Não escreva linha `Next agent`."
        )
    successors = successors_for_prompt(flow, agent)
    if not successors:
        return (
            "Você encerra o fluxo: ninguém vem depois de você. "
            f"Termine com a linha `Next agent: {NO_AGENT}`."
        )
    lines = [f"- {name}: {SPEC_BY_NAME[name].role}" for name in successors]
    lines.append(
        "Termine a resposta com uma última linha `Next agent: <nome>`, com o nome exato de "
        "um dos agentes acima, acentos incluídos. Essa linha é protocolo interno: nunca a "
        "mencione no texto."
    )
    return "\n".join(lines)
