"""What each agent reads: one self-contained request built from the run's state.

Identifiers and expiry dates never get here: only role, usecase, memories, the replayed
turns, the question, the findings so far and the guardrail's last reasons.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from engine.agents.catalog import GUARDRAIL, ORCHESTRATOR
from engine.agents.request import AgentRequest
from engine.agents.system_prompt import temporal_date
from engine.constants import SESSION_HISTORY_USAGE
from engine.dto import AekoMessage, AekoSource, AekoUser, AekoUserMemory, Flow
from engine.graph.routing import successors_for_prompt
from engine.graph.state import RunState
from engine.grounding import Backing
from engine.protocol import PLAN_HEADINGS
from engine.references import reference_backing
from engine.texts import Lang, Texts, lang_of

if TYPE_CHECKING:
    from engine.agents.runner import Evidence
    from engine.inventory import Inventory

# The section labels of a request as a real model reads it. The offline analyst reads the
# structured request instead (engine.agents.request), so rewording these changes nothing there.
BUSINESS_CONTEXT = "Contexto do negócio"
PREVIOUS_REPORT = "Relatório anterior (contexto)"
SUMMARY = "Resumo da conversa anterior"
HISTORY = "Histórico da conversa (mais antigo primeiro)"
QUESTION = "Pergunta do usuário"
ATTACHMENT = "Inventário anexado à conversa (resumo; a tabela está em consultar_inventario)"
CONSULTED = "Fontes consultadas nesta execução (os números da resposta devem vir daqui)"
INVENTORY = "Inventário de emissões (Markdown)"
ACTIONS = (
    "Ações calculadas pelo motor da Aeko (regras do GHG Protocol; use estes números como "
    "estão e não escreva nenhum outro)"
)
FINDINGS = "Análises recebidas até agora"
GUARDRAIL_POINTS = "Pontos apontados pelo Guardrail de Saída na tentativa anterior"
REVIEW_DRAFT = "Revise esta resposta"
REVIEW_QUESTION = "Pergunta original do usuário"
REVIEW_FINDINGS = "Análises recebidas"

_TEXTS = Texts(
    "engine.graph.context",
    {
        # The inventory flow's request is Portuguese, and so are its prompts: a run in another
        # language is told to write in it, and that the headings parse_plan reads stay as they
        # are. A Portuguese run is not told anything: its request reads as it always did.
        "write_in": {
            "pt": "Idioma: escreva a análise e o texto do plano em português, com a notação "
            "numérica brasileira (1.240,5; 58,9%), mas mantenha os títulos das seções "
            "exatamente como as instruções os dão ({headings}) e a linha `Next agent:` como "
            "especificada.",
            "en": "Language: write your analysis and the plan's text in English, with English "
            "number notation (1,240.5; 58.9%), but keep the section headings exactly as the "
            "instructions give them, in Portuguese ({headings}), and the `Next agent:` line "
            "as specified.",
        },
    },
)


def business_context(user: AekoUser, memories: Sequence[AekoUserMemory]) -> str:
    lines = []
    if user.role:
        lines.append(f"Cargo do usuário: {user.role}")
    if user.usecase:
        lines.append(f"Caso de uso: {user.usecase}")
    if memories:
        lines.append("Memórias do usuário:")
        lines.extend(memory.to_prompt_line() for memory in memories)
    return "\n".join(lines)


def history_transcript(messages: Sequence[AekoMessage]) -> str:
    lines = []
    for turn in messages[-SESSION_HISTORY_USAGE:]:
        lines.append(f"Usuário: {turn.input}")
        if turn.output:
            lines.append(f"Aeko: {turn.output}")
    return "\n".join(lines)


def agent_request(state: RunState, *, inventory: bool, actions: bool = False) -> str:
    """The request as a model reads it. ``actions``: the inventory flow's agents that work
    from the engine's computed actions (the green-gases analyst, the coordinator) read them
    too; the others keep to the digest, so their request stays within its budget."""
    parts = []
    if state.get("context"):
        label = PREVIOUS_REPORT if inventory else BUSINESS_CONTEXT
        parts.append(f"{label}:\n{state['context']}")
    if state.get("summary"):
        parts.append(f"{SUMMARY}:\n{state['summary']}")
    if state.get("history"):
        parts.append(f"{HISTORY}:\n{state['history']}")
    if state.get("attachment"):
        parts.append(f"{ATTACHMENT}:\n{state['attachment']}")
    parts.append(f"{INVENTORY if inventory else QUESTION}:\n{state['request']}")
    if inventory and actions and state.get("actions_text"):
        parts.append(f"{ACTIONS}:\n{state['actions_text']}")
    findings = latest_findings(state)
    if findings:
        parts.append(f"{FINDINGS}:\n{findings}")
    if state.get("rejections"):
        parts.append(f"{GUARDRAIL_POINTS}:\n{state['rejections'][-1]}")
    language = run_language(state)
    if inventory and language != "pt":
        headings = ", ".join(f"`## {title}`" for title in PLAN_HEADINGS.values())
        parts.append(_TEXTS("write_in", language, headings=headings))
    return "\n\n".join(parts)


def run_language(state: RunState) -> Lang:
    """The language an inventory run writes in: Portuguese unless it was given another."""
    return lang_of(state.get("language"))


def guardrail_request(state: RunState) -> str:
    parts = [
        f"{REVIEW_DRAFT}:\n<<<\n{state.get('draft', '')}\n>>>",
        f"{REVIEW_QUESTION}:\n{state['request']}",
    ]
    findings = latest_findings(state)
    if findings:
        parts.append(f"{REVIEW_FINDINGS}:\n{findings}")
    consulted = _consulted(state)
    if consulted:
        parts.append(f"{CONSULTED}:\n" + "\n---\n".join(consulted))
    return "\n\n".join(parts)


def _consulted(state: RunState) -> list[str]:
    """What the guardrail is shown the draft may quote: the attachment, then the tools' results."""
    consulted = [item.text for item in state.get("evidence", [])]
    if state.get("attachment"):
        consulted.insert(0, state["attachment"])
    return consulted


def backing(state: RunState) -> list[Backing]:
    """What a chat answer may take a number from, read before the reference tables: the
    user's own words, what the run's tools returned and the attached inventory, in that
    order (a number is credited to the first that holds it). Not the findings: an analyst's
    number is only as good as the source it came from."""
    keys = ("request", "context", "history", "summary", "temporal")
    items = [Backing(state.get(key, "")) for key in keys]
    items += [
        Backing(item.text, item.sources, read_whole=_entries(item.sources))
        for item in state.get("evidence", [])
    ]
    if state.get("attachment"):
        name = state.get("attachment_name") or "inventário anexado"
        digest = AekoSource(kind="inventory", ref=f"{name}|resumo", label=name, citation=name)
        items.append(Backing(state["attachment"], (digest,)))
    return [item for item in items if item.text]


def references(state: RunState) -> Callable[[], tuple[Backing, ...]]:
    """The reference tables' rows the answer and the question name, read after ``backing``
    and only for a number it does not hold (engine.grounding's ``later``)."""
    answer = state.get("answer") or state.get("draft", "")
    return partial(reference_backing, f"{answer}\n{state.get('request', '')}")


def _entries(sources: Sequence[AekoSource]) -> bool:
    return any(source.kind == "knowledge" for source in sources)


def plan_rewrite_request(
    state: RunState, missing: Sequence[str], unbacked: Sequence[str] = ()
) -> str:
    all_headings = "\n".join(f"## {title}" for title in PLAN_HEADINGS.values())
    problems = []
    if missing:
        headings = ", ".join(f"`## {PLAN_HEADINGS[field]}`" for field in missing)
        problems.append(f"Faltaram ou ficaram vazias as seções {headings}.")
    if unbacked:
        problems.append(
            f"Estes números não estão nas ações calculadas nem no inventário: "
            f"{', '.join(unbacked)}. Use só os números recebidos."
        )
    return (
        f"{agent_request(state, inventory=True, actions=True)}\n\n"
        f"Sua resposta anterior:\n<<<\n{state.get('plan_answer', '')}\n>>>\n\n"
        f"{' '.join(problems)} Reescreva o plano completo, atendendo ao pedido original "
        f"acima, com exatamente estes três títulos, nesta ordem, cada um com conteúdo:\n"
        f"{all_headings}"
    )


def plan_backing(state: RunState, evidence: Sequence[Evidence] = ()) -> list[Backing]:
    """What a plan's numbers may come from: the computed actions, the inventory as the
    agents read it, the previous report, the date, and what the run's tools returned (the
    analysts' queries, the coordinator's own calculations: ``evidence`` of this reply)."""
    keys = ("actions_text", "inventory_digest", "request", "context", "temporal")
    items = [Backing(state.get(key, "")) for key in keys if state.get(key)]
    items += [Backing(item.text) for item in (*state.get("evidence", []), *evidence)]
    return [item for item in items if item.text]


def newest_findings(state: RunState) -> dict[str, str]:
    """The newest finding of each agent, in the order the agents first reported."""
    newest: dict[str, str] = {}
    for finding in state.get("findings", []):
        if finding["agent"] != ORCHESTRATOR:
            newest[finding["agent"]] = finding["text"]
    return newest


# --- the same requests as data (engine.agents.request), for models that compute answers ---


def structured_request(
    state: RunState, flow: Flow, agent: str, inventory: Inventory | None = None
) -> AgentRequest:
    """What ``agent_request`` renders, as fields. ``inventory`` is the run's ingested
    ``Inventory``, if any: in the inventory flow ``state["request"]`` is its digest, in chat
    the one attached to the conversation (its digest is ``state["attachment"]``)."""
    inventory_flow = flow == "inventory"
    rejections = state.get("rejections") or []
    if not inventory_flow:
        return AgentRequest(
            agent=agent,
            flow=flow,
            successors=successors_for_prompt(flow, agent),
            question=state["request"],
            context=state.get("context", ""),
            summary=state.get("summary", ""),
            history=state.get("history", ""),
            inventory_text=state.get("attachment", ""),
            inventory=inventory,
            findings=newest_findings(state),
            retry_reasons=rejections[-1] if rejections else "",
            evidence=tuple(item.text for item in state.get("evidence", [])),
            today=temporal_date(state.get("temporal", "")),
        )
    return AgentRequest(
        agent=agent,
        flow=flow,
        successors=successors_for_prompt(flow, agent),
        question="" if inventory_flow else state["request"],
        context=state.get("context", ""),
        summary=state.get("summary", ""),
        history=state.get("history", ""),
        inventory_text=state["request"] if inventory_flow else "",
        inventory=inventory if inventory_flow else None,
        actions=state.get("plan_actions"),
        actions_text=state.get("actions_text", ""),
        findings=newest_findings(state),
        retry_reasons=rejections[-1] if rejections else "",
        language=run_language(state),
    )


def structured_guardrail_request(state: RunState) -> AgentRequest:
    """What ``guardrail_request`` renders: the draft, the question and the findings."""
    return AgentRequest(
        agent=GUARDRAIL,
        flow="chat",
        successors=successors_for_prompt("chat", GUARDRAIL),
        question=state["request"],
        findings=newest_findings(state),
        draft=state.get("draft", ""),
        inventory_text=state.get("attachment", ""),
        evidence=tuple(_consulted(state)),
    )


def structured_plan_rewrite(
    state: RunState,
    agent: str,
    missing: Sequence[str],
    inventory: Inventory | None = None,
    unbacked: Sequence[str] = (),
) -> AgentRequest:
    """What ``plan_rewrite_request`` renders: the original request, the plan to redo, the
    sections it lacked and the numbers it made up."""
    return replace(
        structured_request(state, "inventory", agent, inventory),
        previous_answer=state.get("plan_answer", ""),
        missing_sections=tuple(missing),
        unbacked_numbers=tuple(unbacked),
    )


def latest_findings(state: RunState) -> str:
    """``newest_findings`` as the request text lists them."""
    return "\n".join(f"- {agent}: {text}" for agent, text in newest_findings(state).items())
