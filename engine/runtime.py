"""The one process-wide runtime: configuration, registered tools and the built graphs.

Any write drops the built graphs; the next run rebuilds them. Runs themselves share nothing
but those compiled graphs, so concurrent runs take no lock once the graphs exist.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Generator, Mapping, Sequence
from typing import Any

from engine.actions.tool import estimate_reductions
from engine.agents.catalog import (
    COORDINATOR,
    FAQ,
    GREEN_GASES_ANALYST,
    INVENTORY_ANALYST,
    ORCHESTRATOR,
    POLLUTANTS_ANALYST,
    SPEC_BY_NAME,
)
from engine.agents.prompts import PROMPTS
from engine.agents.runner import AgentRunner
from engine.agents.system_prompt import render_system_prompt, temporal_date
from engine.arithmetic import calculate
from engine.budget import BUDGET_KEY, BudgetTracker, RunBudget
from engine.dto import AekoTool
from engine.emissions.tool import FACTORS_KEY as EMISSION_FACTORS_KEY
from engine.emissions.tool import calculate_emissions
from engine.errors import AekoNotConfiguredError
from engine.graph import durable
from engine.graph.builder import RECURSION_LIMIT, build_graph
from engine.graph.nodes import EVENTS_KEY
from engine.graph.routing import ROUTES, Flow
from engine.graph.state import RunState
from engine.inventory.tool import INVENTORY_KEY, query_inventory
from engine.knowledge.tool import TODAY_KEY, consult_knowledge_base
from engine.models.factory import ModelSettings, build_tier_chains
from engine.runlog import RunLog
from engine.summary import SUMMARIZER, SUMMARY_PROMPT

INVENTORY_TOOL_AGENTS = frozenset({INVENTORY_ANALYST, POLLUTANTS_ANALYST, GREEN_GASES_ANALYST})
INVENTORY_TOOL = AekoTool(
    tool=query_inventory,
    description=(
        "Consulte a tabela completa do inventário quando o resumo não bastar: filtre por "
        "escopo, gás, categoria, unidade, fonte, combustível ou ano; agrupe e some t CO2e; "
        "ou liste as maiores linhas. Com view: findings (todos os apontamentos de qualidade), "
        "gases (massa de cada gás), gwp_sets (total em AR4, AR5 e AR6), facility_scope "
        "(cada instalação × escopo, base do SBCE), sheets (situação e unidades de cada aba). "
        "Cite os números que ela devolver."
    ),
)


# The calculator is bound to the analysts in both flows: a figure computed from activity data
# comes from the factor library, with its sources, never from the model's memory.
EMISSIONS_TOOL_AGENTS = INVENTORY_TOOL_AGENTS
EMISSIONS_TOOL = AekoTool(
    tool=calculate_emissions,
    description=(
        "Calcule emissões a partir de dados de atividade (L de diesel, m³ de gás natural, MWh "
        "de eletricidade, kg de refrigerante, t de calcário): informe atividade, quantidade, "
        "unidade e data ou ano. Cite a conta que ela devolver, com fatores e fontes; não "
        "calcule de cabeça."
    ),
)

# Everyone who writes figures can compute them: the grounding check backs one step of
# arithmetic over what the run read (engine/grounding.py), anything longer must be a result.
ARITHMETIC_TOOL_AGENTS = INVENTORY_TOOL_AGENTS | {COORDINATOR, ORCHESTRATOR}
ARITHMETIC_TOOL = AekoTool(
    tool=calculate,
    description=(
        "Faça aqui toda conta de mais de um passo (somar mais de três números, encadear "
        "soma e porcentagem, aplicar uma meta e depois subtrair): passe a expressão com "
        "ponto decimal, ex. (8120.5 + 1310) / 12400 * 100, e cite o resultado arredondado. "
        "Um número da resposta que não foi lido nem calculado aqui volta como sem fonte."
    ),
)

# The knowledge base answers concepts in chat: the FAQ's whole job, and the analysts' when a
# question mixes a figure with a definition. Its entries come back as the answer's sources.
KNOWLEDGE_TOOL_AGENTS = frozenset({FAQ, POLLUTANTS_ANALYST, GREEN_GASES_ANALYST})
KNOWLEDGE_TOOL = AekoTool(
    tool=consult_knowledge_base,
    description=(
        "Consulte a base de conhecimento da Aeko para conceitos de contabilidade de GEE "
        "(escopos e categorias, GWP, ano-base, CO2 biogênico, normas e programas "
        "brasileiros): passe a pergunta com os termos do usuário. Responda a partir dos "
        "verbetes que ela devolver, citando a fonte de cada um; se ela não encontrar nada, "
        "diga que a base não trata do assunto."
    ),
)


# The green-gases analyst quotes reductions the engine computed, never a life-cycle
# percentage applied to Scope 1 tonnes.
ACTIONS_TOOL = AekoTool(
    tool=estimate_reductions,
    description=(
        "Calcule as reduções das medidas do catálogo para o inventário desta conversa, pelas "
        "regras do GHG Protocol, e cite a tabela que ela devolver (faixas, linhas, custos)."
    ),
)


class Runtime:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._settings: ModelSettings | None = None
        self._tools: dict[str, tuple[AekoTool, ...]] = {}
        self._graphs: dict[tuple[str, bool], Any] = {}
        self._settings_budget = RunBudget()
        self.run_log: RunLog | None = None

    @property
    def settings(self) -> ModelSettings | None:
        return self._settings

    def tracker(self, budget: RunBudget | None) -> BudgetTracker:
        """A run's tracker: the run's own caps, or else the configured per-run defaults."""
        defaults = self._settings_budget
        if budget is None:
            return BudgetTracker(defaults)
        return BudgetTracker(
            RunBudget(
                max_model_calls=budget.max_model_calls
                if budget.max_model_calls is not None
                else defaults.max_model_calls,
                max_tokens=budget.max_tokens
                if budget.max_tokens is not None
                else defaults.max_tokens,
                max_cost_usd=budget.max_cost_usd,
            )
        )

    @property
    def tools(self) -> Mapping[str, Sequence[AekoTool]]:
        return dict(self._tools)

    def configure(
        self,
        settings: ModelSettings | None,
        budget: RunBudget | None = None,
        run_log: RunLog | None = None,
    ) -> None:
        if settings is not None:
            settings.validate()
        with self._lock:
            self._settings = settings
            self._settings_budget = budget or RunBudget()
            self.run_log = run_log
            self._graphs = {}

    def set_tools(self, tools: dict[str, tuple[AekoTool, ...]]) -> None:
        with self._lock:
            self._tools = dict(tools)
            self._graphs = {}

    def reset(self) -> None:
        with self._lock:
            self._settings_budget = RunBudget()
            self.run_log = None
            self._settings = None
            self._tools = {}
            self._graphs = {}

    def graph(self, flow: Flow, *, inventory_tool: bool = False) -> Any:
        """The compiled flow; with ``inventory_tool`` its analysts can query the inventory."""
        key = (flow, inventory_tool)
        built = self._graphs.get(key)
        if built is not None:
            return built
        with self._lock:
            built = self._graphs.get(key)
            if built is None:
                built = self._build(flow, inventory_tool)
                self._graphs = {**self._graphs, key: built}
            return built

    def run(
        self,
        flow: Flow,
        state: RunState,
        *,
        budget: BudgetTracker,
        inventory: Any = None,
        checkpointer: Any = None,
        thread_id: str = "",
        live: bool = True,
    ) -> Generator[Any, None, dict[str, Any]]:
        """Yield the run's events as the nodes emit them; return the final state. With a
        ``checkpointer`` the run is durable on ``thread_id`` (engine.graph.durable).

        ``live=False`` is for a caller that reads the run to its end before it shows anything
        (``send_message``, ``analyze``): the events come after each step instead of as they
        happen, in the same order, and a step of one agent runs in the caller's thread. Live,
        LangGraph runs every node in a pool of threads started for the run, so that a
        node's events reach the reader while it runs (a third of a FAQ turn's overhead with a
        model that answers at once; bench/versus_aeko.py)."""
        final: dict[str, Any] = {}
        config = {
            "recursion_limit": RECURSION_LIMIT[flow],
            "metadata": {"flow": flow},
            "configurable": {
                INVENTORY_KEY: inventory,
                BUDGET_KEY: budget,
                # The inventory's own factors (the user's), for the calculator tool.
                EMISSION_FACTORS_KEY: getattr(inventory, "factors", None),
                # The run's date, for the tools' date checks: the one the models read.
                TODAY_KEY: temporal_date(state.get("temporal", "")),
            },
        }
        graph = self.graph(flow, inventory_tool=inventory is not None)
        if checkpointer is not None:
            return (
                yield from durable.stream(
                    graph,
                    state,
                    config,
                    checkpointer=checkpointer,
                    thread_id=thread_id,
                    budget=budget,
                )
            )
        if not live:
            return (yield from _stepwise(graph, state, config))
        for mode, chunk in graph.stream(state, config, stream_mode=["custom", "values"]):
            if mode == "custom":
                yield chunk
            else:
                final = chunk
        return final

    def _build(self, flow: Flow, inventory_tool: bool) -> Any:
        settings = self._settings
        if settings is None:
            raise AekoNotConfiguredError("Call Aeko.config() before running the engine.")
        cap = settings.report_max_tokens if flow == "inventory" else settings.max_tokens
        chains = build_tier_chains(settings, cap)
        runners = {}
        for agent in ROUTES[flow]:
            tier = SPEC_BY_NAME[agent].tier
            tools = self._tools.get(agent, ())
            if inventory_tool and agent in INVENTORY_TOOL_AGENTS:
                tools = (*tools, INVENTORY_TOOL)
            if inventory_tool and agent == GREEN_GASES_ANALYST:
                tools = (*tools, ACTIONS_TOOL)
            names = {tool.name for tool in tools}
            if agent in EMISSIONS_TOOL_AGENTS and EMISSIONS_TOOL.name not in names:
                tools = (*tools, EMISSIONS_TOOL)
            if agent in ARITHMETIC_TOOL_AGENTS and ARITHMETIC_TOOL.name not in names:
                tools = (*tools, ARITHMETIC_TOOL)
            chat_knowledge = flow == "chat" and agent in KNOWLEDGE_TOOL_AGENTS
            if chat_knowledge and KNOWLEDGE_TOOL.name not in names:
                tools = (*tools, KNOWLEDGE_TOOL)
            runners[agent] = AgentRunner(
                agent,
                render_system_prompt(PROMPTS[agent], flow, tools),
                chains[tier],
                tools=tools,
                retry=settings.retry,
                # Their chat answers go to the user unreviewed: shown as they are written.
                stream=(flow == "chat" and agent in (FAQ, COORDINATOR)),
                max_output_tokens=cap,
            )
        return build_graph(flow, runners)

    def summarizer(self) -> AgentRunner:
        """The runner that folds old turns into the conversation summary (fast tier)."""
        built = self._graphs.get(("summary", False))
        if built is not None:
            return built
        with self._lock:
            settings = self._settings
            if settings is None:
                raise AekoNotConfiguredError("Call Aeko.config() before running the engine.")
            chain = build_tier_chains(settings, settings.max_tokens)["fast"]
            runner = AgentRunner(
                SUMMARIZER,
                SUMMARY_PROMPT,
                chain,
                retry=settings.retry,
                max_output_tokens=settings.max_tokens,
            )
            self._graphs = {**self._graphs, ("summary", False): runner}
            return runner


RUNTIME = Runtime()


def _stepwise(graph: Any, state: RunState, config: dict) -> Generator[Any, None, dict[str, Any]]:
    """The run with its events collected by the nodes and yielded after each step; those of
    a step that failed are yielded before its error, as a live run would have shown them."""
    collected: deque[Any] = deque()
    config["configurable"][EVENTS_KEY] = collected.append  # deque.append: thread-safe
    final: dict[str, Any] = {}
    try:
        for values in graph.stream(state, config, stream_mode="values"):
            final = values
            while collected:
                yield collected.popleft()
    except Exception:
        while collected:
            yield collected.popleft()
        raise
    while collected:
        yield collected.popleft()
    return final
