"""``AekoInventoryAnalyzer``: an inventory in, an improvement plan out."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING
from uuid import uuid4

from engine.actions import build_plan_actions
from engine.actions.brief import actions_brief
from engine.actions.model import PlanActions, Target
from engine.agents.catalog import COORDINATOR
from engine.agents.system_prompt import temporal_context
from engine.budget import BudgetTracker, RunBudget
from engine.dto import AekoImprovementPlan
from engine.errors import MalformedAgentOutputError
from engine.events import EngineEvent, RunFinished
from engine.graph import durable
from engine.graph.state import RunState
from engine.inventory import DEFAULT_DIGEST_CHARS, Inventory, InventoryError
from engine.inventory.loader import load_markdown_inventory
from engine.measures.catalogue import Catalogue, Costs
from engine.runtime import RUNTIME
from engine.texts import Lang, lang_of

if TYPE_CHECKING:
    from langgraph.checkpoint.base import BaseCheckpointSaver


class AekoInventoryAnalyzer:
    def __init__(self) -> None:
        self._context = ""

    def set_context(self, context: str) -> None:
        """The previous report, read by every agent of the next analyses."""
        self._context = context

    def analyze(
        self,
        inventory: str | Inventory,
        *,
        id_external_inventory: int,
        checkpointer: BaseCheckpointSaver | None = None,
        thread_id: str | None = None,
        language: Lang = "pt",
    ) -> AekoImprovementPlan:
        """Run the inventory flow to the end. The plan's usage is on ``plan.usage``.

        ``inventory`` is Markdown (the reference contract) or an ingested ``Inventory``. The
        agents read the inventory's digest, never a table larger than the digest budget, and
        the analysts may query the full table with a tool. ``checkpointer``, ``thread_id``
        and ``language``: as for ``stream``.
        """
        events = self._events(
            inventory,
            id_external_inventory,
            Planning(),
            checkpointer=checkpointer,
            thread_id=thread_id,
            language=language,
            live=False,  # read to its end: no reader waits for events while an agent runs
        )
        for event in events:
            if isinstance(event, RunFinished):
                return event.result  # type: ignore[return-value]
        raise AssertionError("the inventory stream ended without a result")  # pragma: no cover

    def stream(
        self,
        inventory: str | Inventory,
        *,
        id_external_inventory: int,
        budget: RunBudget | None = None,
        run_id: str | None = None,
        target: Target | None = None,
        catalogue: Catalogue | None = None,
        costs: Mapping[str, Costs] | None = None,
        checkpointer: BaseCheckpointSaver | None = None,
        thread_id: str | None = None,
        language: Lang = "pt",
    ) -> Iterator[EngineEvent]:
        """Yield the run's events; the last one carries the plan, with ``plan.actions``: the
        reductions the engine computed under GHG Protocol rules from the measure
        ``catalogue`` (the shipped one by default) and the user's ``costs``, scheduled
        against ``target`` when given, with each installation's SBCE readiness. The
        coordinator writes its prose around them; a number of the plan that nothing the run
        read supports sends it back once, and then is listed on ``plan.unverified_numbers``.

        Raises MalformedAgentOutputError when the coordinator never writes the three
        sections, after the events of every attempt were yielded; a
        budget breach raises ``AekoBudgetExceededError`` with what was spent.

        ``checkpointer`` (a LangGraph ``BaseCheckpointSaver``) makes the analysis durable on
        ``thread_id`` (by default ``run_id``): streamed again on that thread after it was
        cut, it resumes from its last finished agent (engine.graph.durable).

        ``language`` (``"pt"`` or ``"en"``) is the one the agents and the plan's text are
        written in; the plan's three headings stay the protocol's (``PLAN_HEADINGS``), which
        a reader translates by its own interface language.
        """
        planning = Planning(target, catalogue, costs)
        return self._events(
            inventory,
            id_external_inventory,
            planning,
            budget=budget,
            run_id=run_id,
            checkpointer=checkpointer,
            thread_id=thread_id,
            language=language,
            live=True,
        )

    def _events(
        self,
        inventory: str | Inventory,
        id_external_inventory: int,
        planning: Planning,
        *,
        live: bool,
        budget: RunBudget | None = None,
        run_id: str | None = None,
        checkpointer: BaseCheckpointSaver | None = None,
        thread_id: str | None = None,
        language: Lang = "pt",
    ) -> Iterator[EngineEvent]:
        run_id = run_id or uuid4().hex
        thread = durable.Thread(checkpointer, thread_id or run_id) if checkpointer else None
        events = self._run(
            inventory,
            id_external_inventory,
            RUNTIME.tracker(budget),
            run_id,
            planning,
            thread=thread,
            live=live,
            language=lang_of(language),
        )
        log = RUNTIME.run_log
        return log.follow(run_id, "inventory", events) if log else events

    def _run(
        self,
        inventory: str | Inventory,
        id_external_inventory: int,
        tracker: BudgetTracker,
        run_id: str,
        planning: Planning,
        *,
        thread: durable.Thread | None = None,
        live: bool = True,
        language: Lang = "pt",
    ) -> Iterator[EngineEvent]:
        ingested, request = _agent_view(inventory)
        saved = thread.saved() if thread else None
        state: RunState = {
            "request": request,
            "context": self._context,
            "temporal": (saved or {}).get("temporal") or temporal_context(datetime.now(UTC)),
            "language": language,
            "attempt": 1,
        }
        readable = ingested or _small_table(request)
        # A resumed run keeps the actions its agents already read (the start year moves
        # with the clock).
        computed = saved.get("plan_actions") if saved else planning.compute(readable)
        if computed is not None and readable is not None:
            state["plan_actions"] = computed
            state["actions_text"] = actions_brief(computed)
            # The figures a plan may quote of the inventory itself (totals, shares, Pareto).
            state["inventory_digest"] = readable.digest(DEFAULT_DIGEST_CHARS)
        final = yield from RUNTIME.run(
            "inventory",
            state,
            budget=tracker,
            inventory=ingested,
            live=live,
            **durable.run_args(thread),
        )
        if final.get("plan_missing"):
            raise MalformedAgentOutputError(
                COORDINATOR, tuple(final["plan_missing"]), attempts=final.get("rewrites", 0) + 1
            )
        fields = final["plan_fields"]
        plan = AekoImprovementPlan(
            id_external_inventory=id_external_inventory,
            defined_problem=fields["defined_problem"],
            method=fields["method"],
            reasoning=fields["reasoning"],
            unverified_numbers=list(final.get("plan_unbacked") or ()),
        )
        plan._usage = tracker.usage
        plan._agents_called = list(final.get("agents_called", []))
        plan._actions = computed
        yield RunFinished(run_id=run_id, result=plan)


@dataclass(frozen=True)
class Planning:
    """What the plan's actions are computed with."""

    target: Target | None = None
    catalogue: Catalogue | None = None
    costs: Mapping[str, Costs] | None = None

    def compute(self, inventory: Inventory | None) -> PlanActions | None:
        if inventory is None:
            return None
        start = None
        if self.target is not None:
            # Work can start next year at the earliest, and never before the inventory's.
            latest = int(inventory.year) if inventory.year else self.target.base_year
            start = max(latest, self.target.base_year, datetime.now(UTC).year) + 1
        return build_plan_actions(
            inventory,
            target=self.target,
            catalogue=self.catalogue,
            costs=self.costs,
            start_year=start,
        )


def _small_table(markdown: str) -> Inventory | None:
    """A Markdown inventory small enough to be read as is still gets its actions computed."""
    try:
        return load_markdown_inventory(markdown)
    except InventoryError:
        return None


def _agent_view(inventory: str | Inventory) -> tuple[Inventory | None, str]:
    """What the agents read: small Markdown as it is; anything bigger as its digest."""
    if isinstance(inventory, Inventory):
        return inventory, inventory.digest(DEFAULT_DIGEST_CHARS)
    if len(inventory) <= DEFAULT_DIGEST_CHARS:
        return None, inventory
    try:
        ingested = load_markdown_inventory(inventory)
    except InventoryError:
        note = "\n…(inventário cortado no limite de tamanho: a tabela não pôde ser lida)"
        return None, inventory[: DEFAULT_DIGEST_CHARS - len(note)] + note
    return ingested, ingested.digest(DEFAULT_DIGEST_CHARS)
