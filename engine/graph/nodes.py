"""Graph nodes: each runs one agent, reports it on the event stream, and updates the state.

What an agent's answer *does* to the run (a finding, a draft, a verdict, the plan) lives
here; where the run goes next is decided by engine.graph.routing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from langgraph.config import get_config, get_stream_writer
from langgraph.graph import END

from engine.agents.catalog import (
    COORDINATOR,
    FAQ,
    GREEN_GASES_ANALYST,
    GUARDRAIL,
    INVENTORY_ANALYST,
    ORCHESTRATOR,
    POLLUTANTS_ANALYST,
    ROUTER,
)
from engine.agents.request import AgentRequest
from engine.agents.runner import AgentReply, AgentRunner
from engine.budget import BUDGET_KEY
from engine.constants import GUARD_RAIL_MAX_RETRIES, PLAN_FORMAT_MAX_RETRIES
from engine.dto import AekoUsage
from engine.events import AgentFinished, AgentStarted, GuardrailVerdict, PlanRewriteRequested
from engine.graph import context
from engine.graph.durable import journal_writer, journaled
from engine.graph.routing import Flow, next_node
from engine.graph.state import RunState
from engine.grounding import mark_unverified, unbacked
from engine.inventory.tool import INVENTORY_KEY
from engine.offline.language import detect_language
from engine.protocol import PLAN_HEADINGS, Verdict, parse_plan, read_verdict

# The point the guardrail's verdict gains for figures with no source in the run.
UNBACKED_NUMBERS = (
    "- Números sem fonte nesta execução: {numbers}. Use só números que as ferramentas, o "
    "inventário anexado, as referências ou a pergunta trouxeram, ou um passo de conta sobre "
    "eles; para mais de um passo use calcular; para dados de atividade, calcular_emissoes; "
    "para o inventário, consultar_inventario."
)
# A plan whose only fault is numbers with no source is rewritten once, naming them; then it
# is returned with them listed (plan.unverified_numbers), never thrown away.
UNBACKED_PLAN_REWRITES = 1

Node = Callable[[RunState], dict[str, Any]]


def make_node(flow: Flow, runner: AgentRunner) -> Node:
    return journaled(_make_node(flow, runner))


def _make_node(flow: Flow, runner: AgentRunner) -> Node:
    agent = runner.name
    if flow == "inventory":
        if agent == COORDINATOR:
            return _plan_coordinator(runner)
        return _inventory_analyst(runner)
    if agent == GUARDRAIL:
        return _guardrail(runner)
    if agent == ORCHESTRATOR:
        return _orchestrator(runner)
    if agent in (FAQ, COORDINATOR):
        return _answering_agent(runner)
    if agent in (POLLUTANTS_ANALYST, GREEN_GASES_ANALYST, ROUTER):
        return _routing_agent(runner)
    raise ValueError(f"{agent} takes no part in the {flow} flow")


def _run(
    runner: AgentRunner, state: RunState, request: str, structured: AgentRequest
) -> tuple[AgentReply, Any]:
    """Run the agent on its request: the text a real model reads, and the same as data."""
    emit = journal_writer(event_writer())
    emit(AgentStarted(agent=runner.name, attempt=state.get("attempt", 1)))
    budget = (get_config().get("configurable") or {}).get(BUDGET_KEY)
    attempt = state.get("attempt", 1)
    reply = runner.run(
        request, state["temporal"], emit, budget, structured=structured, attempt=attempt
    )
    return reply, emit


# Where a run read to its end (``send_message``, ``analyze``) collects its events: nobody reads
# them while a node runs, so the graph need not stream them from threads (engine.runtime).
EVENTS_KEY = "events"


def event_writer() -> Callable[[Any], None]:
    """The node's event writer: the run's collector when it has one, else LangGraph's stream."""
    collect = (get_config().get("configurable") or {}).get(EVENTS_KEY)
    return collect if collect is not None else get_stream_writer()


def _chat_request(runner: AgentRunner, state: RunState) -> tuple[str, AgentRequest]:
    text = context.agent_request(state, inventory=False)
    return text, context.structured_request(state, "chat", runner.name, _run_inventory())


def _run_inventory() -> Any:
    """The run's ingested inventory, if any: it travels in the config, like the budget."""
    return (get_config().get("configurable") or {}).get(INVENTORY_KEY)


def _finished(
    emit: Any, runner: AgentRunner, reply: AgentReply, state: RunState, next_agent: str | None
) -> None:
    last = reply.calls[-1]
    emit(
        AgentFinished(
            agent=runner.name,
            text=reply.text,
            next_agent=None if next_agent in (None, END) else next_agent,
            model=last.model,
            input_tokens=sum(call.input_tokens for call in reply.calls),
            output_tokens=sum(call.output_tokens for call in reply.calls),
            duration_ms=sum(call.duration_ms for call in reply.calls),
            attempt=state.get("attempt", 1),
            cost_usd=AekoUsage(calls=reply.calls).cost_usd,
            retries=sum(call.retries for call in reply.calls),
            truncated=reply.truncated,
        )
    )


def _accounting(runner: AgentRunner, reply: AgentReply) -> dict[str, Any]:
    return {"calls": reply.calls, "agents_called": [runner.name], "evidence": list(reply.evidence)}


def _routing_agent(runner: AgentRunner) -> Node:
    """The router and the chat-flow analysts: they name who follows them."""

    def node(state: RunState) -> dict[str, Any]:
        reply, emit = _run(runner, state, *_chat_request(runner, state))
        attempt = state.get("attempt", 1)
        findings = state.get("findings", [])
        ran = frozenset(f["agent"] for f in findings if f["attempt"] == attempt)
        update = _accounting(runner, reply)
        if runner.name != ROUTER:
            ran |= {runner.name}
            update["findings"] = [{"agent": runner.name, "text": reply.text, "attempt": attempt}]
        target = next_node(
            "chat",
            runner.name,
            reply.raw_next,
            ran_this_attempt=ran,
            has_findings=bool(findings),
        )
        update["next"] = target
        _finished(emit, runner, reply, state, target)
        return update

    return node


def _answering_agent(runner: AgentRunner) -> Node:
    """FAQ, and the coordinator in chat: their text is the answer, unreviewed."""

    def node(state: RunState) -> dict[str, Any]:
        reply, emit = _run(runner, state, *_chat_request(runner, state))
        _finished(emit, runner, reply, state, None)
        update = _accounting(runner, reply)
        update.update(answer=reply.text, reviewed=False, approved=False, truncated=reply.truncated)
        if runner.name == COORDINATOR:
            attempt = state.get("attempt", 1)
            update["findings"] = [{"agent": runner.name, "text": reply.text, "attempt": attempt}]
        return update

    return node


def _orchestrator(runner: AgentRunner) -> Node:
    def node(state: RunState) -> dict[str, Any]:
        reply, emit = _run(runner, state, *_chat_request(runner, state))
        _finished(emit, runner, reply, state, GUARDRAIL)
        # The draft's cut, if any, reaches the user only with the draft: on approval.
        update = _accounting(runner, reply)
        return {**update, "draft": reply.text, "draft_truncated": reply.truncated}

    return node


def _guardrail(runner: AgentRunner) -> Node:
    def node(state: RunState) -> dict[str, Any]:
        reply, emit = _run(
            runner,
            state,
            context.guardrail_request(state),
            context.structured_guardrail_request(state),
        )
        reviewed = read_verdict(reply.text)
        loose = unbacked(state.get("draft", ""), context.backing(state), context.references(state))
        verdict = _grounded(reviewed, loose)
        attempt = state.get("attempt", 1)
        last = attempt > GUARD_RAIL_MAX_RETRIES
        # The reviewer approved and only our number check objects, on the last attempt: the
        # answer is shown with those numbers marked rather than lost.
        marked = last and reviewed.approved and not verdict.approved
        approved = verdict.approved or marked
        final = approved or last
        target = END if final else ROUTER
        _finished(emit, runner, reply, state, target)
        emit(
            GuardrailVerdict(
                approved=approved,
                reasons=verdict.reasons,
                attempt=attempt,
                final=final,
                unverified=tuple(loose) if marked else (),
            )
        )
        update = {**_accounting(runner, reply), "reviewed": True, "next": target}
        if approved:
            draft = state.get("draft", "")
            if marked:
                draft = mark_unverified(draft, loose, detect_language(state["request"]))
            update.update(
                approved=True,
                answer=draft,
                unverified=tuple(loose) if marked else (),
                truncated=state.get("draft_truncated", False),
            )
        else:
            update.update(approved=False, answer="", rejections=[verdict.reasons])
            if not final:
                update["attempt"] = attempt + 1
        return update

    return node


def _grounded(verdict: Verdict, loose: list[str]) -> Verdict:
    """Whatever the reviewing model said, a number the run never read sends the draft back:
    the check is the engine's, so it holds for every model."""
    if not loose:
        return verdict
    point = UNBACKED_NUMBERS.format(numbers=", ".join(loose[:8]))
    reasons = verdict.reasons if not verdict.approved else ""
    return Verdict(approved=False, reasons="\n".join(r for r in (reasons, point) if r))


def _inventory_analyst(runner: AgentRunner) -> Node:
    """The inventory flow's analysts: the graph's shape, not their marker, routes them."""

    def node(state: RunState) -> dict[str, Any]:
        reply, emit = _run(
            runner,
            state,
            context.agent_request(
                state, inventory=True, actions=runner.name == GREEN_GASES_ANALYST
            ),
            context.structured_request(state, "inventory", runner.name, _run_inventory()),
        )
        target = COORDINATOR if runner.name != INVENTORY_ANALYST else None
        _finished(emit, runner, reply, state, target)
        finding = {"agent": runner.name, "text": reply.text, "attempt": 1}
        return {**_accounting(runner, reply), "findings": [finding]}

    return node


def _plan_coordinator(runner: AgentRunner) -> Node:
    """Writes the plan. A plan missing a section sends only this agent back, up to
    PLAN_FORMAT_MAX_RETRIES times; a complete plan quoting numbers that nothing the run read
    supports goes back once, naming them, and then stands with them listed."""

    def node(state: RunState) -> dict[str, Any]:
        rewrites = state.get("rewrites", 0)
        missing_before = state.get("plan_missing", ())
        unbacked_before = state.get("plan_unbacked", ())
        inventory = _run_inventory()
        if rewrites:
            request = context.plan_rewrite_request(state, missing_before, unbacked_before[:8])
            structured = context.structured_plan_rewrite(
                state, runner.name, missing_before, inventory, unbacked_before[:8]
            )
        else:
            request = context.agent_request(state, inventory=True, actions=True)
            structured = context.structured_request(state, "inventory", runner.name, inventory)
        reply, emit = _run(runner, state, request, structured)
        plan = parse_plan(reply.text)
        loose: tuple[str, ...] = ()
        if state.get("plan_actions") is not None and not plan.missing:
            backing = context.plan_backing(state, reply.evidence)
            loose = tuple(unbacked(reply.text, backing))
        unbacked_rewrites = state.get("unbacked_rewrites", 0)
        retry = rewrites < PLAN_FORMAT_MAX_RETRIES and bool(
            plan.missing or (loose and unbacked_rewrites < UNBACKED_PLAN_REWRITES)
        )
        target = COORDINATOR if retry else END
        _finished(emit, runner, reply, state, target)
        update = {
            **_accounting(runner, reply),
            "plan_answer": reply.text,
            "plan_fields": plan.fields,
            "plan_missing": plan.missing,
            "plan_unbacked": loose,
            "next": target,
        }
        if retry:
            emit(
                PlanRewriteRequested(
                    missing=plan.missing,
                    headings=tuple(f"## {PLAN_HEADINGS[field]}" for field in plan.missing),
                    rewrite=rewrites + 1,
                    unbacked=loose,
                )
            )
            update["rewrites"] = rewrites + 1
            if loose and not plan.missing:
                update["unbacked_rewrites"] = unbacked_rewrites + 1
        return update

    return node
