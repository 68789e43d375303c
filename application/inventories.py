"""Inventory use cases: read an upload, save it, analyse it into a plan that is saved.

Reading is pure (bytes in, ``Inventory`` out), so a page may cache it; ``analyse`` stores the
upload before the run and the plan and its usage after it, through the outbox.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal
from uuid import uuid4

from application.exports import plan_markdown
from application.outbox import Write
from application.planning import PlanInputs
from application.workspace import RunSpending, Workspace
from engine import (
    AekoBudgetExceededError,
    AekoError,
    AekoImprovementPlan,
    AekoInventoryAnalyzer,
    AekoModelError,
    EngineEvent,
    MalformedAgentOutputError,
    RunBudget,
    RunFinished,
)
from engine.emissions import FactorLibrary, activities, default_library, read_factor_csv
from engine.errors import LocalizedError
from engine.inventory import Inventory, list_sheets, load_inventory, loader
from engine.inventory.combine import ADDED_SHEET, added_rows_table, with_added
from engine.inventory.notice import Reading
from engine.texts import Lang
from store import StoreError
from store.repositories import InventoryRecord

if TYPE_CHECKING:
    from langgraph.checkpoint.base import BaseCheckpointSaver

# A user's own factor file: (file name, bytes), kept with the inventory it computed.
FactorFile = tuple[str, bytes]

# The agents read the previous report under this title; their prompts are Portuguese.
_PREVIOUS_REPORT_TITLE = "Relatório anterior"


def sheets(name: str, data: bytes) -> list[str]:
    return list_sheets(data, filename=name)


def table_sheets(name: str, data: bytes) -> list[str]:
    """The sheets a reading takes unless the user picks others: those with a table (a cover
    or an instructions sheet has none)."""
    return loader.table_sheets(data, filename=name)


def own_factors(name: str, data: bytes) -> FactorLibrary:
    """The factor library with a user's CSV on top (their factors win every lookup they
    match); ``FactorFileError`` names the line and column at fault."""
    return default_library().overlay(read_factor_csv(data, source_name=name))


def load(
    name: str,
    data: bytes,
    *,
    sheets: list[str] | None = None,
    gwp_set: str,
    ch4_origin: str,
    overrides: Mapping[str, Mapping[str, str | None]] | None = None,
    factors: FactorFile | None = None,
    added: Sequence[Mapping[str, object]] = (),
    units: Mapping[str, str] | None = None,
) -> Inventory:
    """The upload as a reconciled inventory, activity rows computed with the factor library
    (the user's own factors over the defaults), plus the rows ``added`` from the calculator
    (activity, quantity, unit, period) under a sheet of their own. ``units``: sheet -> the
    unit the user chose for a sheet whose emission columns no evidence proves ("t", "kg",
    "Gg", "Mt"). ``InventoryError`` says what is wrong with the file, ``EmissionsError``
    with the factors."""
    library = own_factors(*factors) if factors else None
    inventory = load_inventory(
        data,
        filename=name,
        sheets=list(sheets) if sheets else None,
        gwp_set=gwp_set,
        ch4_origin=ch4_origin,
        column_overrides={k: dict(v) for k, v in overrides.items()} if overrides else None,
        factors=library,
        units=dict(units) if units else None,
    )
    if not added:
        return inventory
    names = {activity.id: activity.name["pt"] for activity in activities()}
    extra = load_inventory(
        added_rows_table(added, names),
        filename=f"{ADDED_SHEET}.csv",
        gwp_set=gwp_set,
        ch4_origin=ch4_origin,
        factors=library,
    )
    return with_added(inventory, extra)


def original(workspace: Workspace, inventory_id: str) -> bytes:
    """The upload as the user sent it, from GridFS: what a page reopens an analysis with,
    instead of a run keeping the file in memory for as long as it is remembered."""
    return workspace.store.inventories(workspace.user.id).file(inventory_id)


def save_upload(
    workspace: Workspace,
    name: str,
    data: bytes,
    inventory: Inventory,
    *,
    factors: FactorFile | None = None,
    units: Mapping[str, str] | None = None,
) -> InventoryRecord:
    """The upload in the database (GridFS) with how it was read: once per content and
    settings. ``StoreError`` when the database is away."""
    return workspace.store.inventories(workspace.user.id).save(
        name,
        data,
        sheets=inventory.sheets,
        mapping=inventory.mapping,
        summary=summary_of(inventory),
        factors=factors,
        units=dict(units) if units else None,
    )


def previous_plans(workspace: Workspace, limit: int = 20) -> list[AekoImprovementPlan]:
    """The user's latest plans, for the analysis to build on; none when the database is away."""
    try:
        return workspace.store.plans(workspace.user.id).list(limit=limit)
    except StoreError:
        return []


def summary_of(inventory: Inventory) -> dict[str, Any]:
    """What is kept beside the stored upload, to list it without reading it again. Its
    status and the sheets not reconciled (``Reading``) are what a plan of it says first."""
    return {
        "total_tco2e": inventory.total_tco2e,
        "gwp_set": inventory.gwp_set,
        "ch4_origin": inventory.ch4_origin,
        "year": inventory.year,
        "rows": len(inventory.table),
        "by_scope": inventory.totals_by("scope").to_dict("records"),
        **Reading.of(inventory).to_summary(),
    }


def reading_of(workspace: Workspace, plan: AekoImprovementPlan) -> Reading | None:
    """How the inventory a saved plan was made from stood when it was analysed (its status
    and the sheets not reconciled), from the stored upload's summary; None when the upload
    is gone or the database is away (the plan is then shown without the notice)."""
    try:
        record = workspace.store.inventories(workspace.user.id).by_number(
            plan.id_external_inventory
        )
    except StoreError:
        return None
    return Reading.from_summary(record.summary)


PlanStatus = Literal["planned", "budget_exceeded", "malformed", "model_unavailable", "failed"]


@dataclass(frozen=True)
class PlanEnded:
    """How the analysis ended, and whether its plan reached the database already."""

    status: PlanStatus
    run_id: str
    record: InventoryRecord | None = None  # the stored upload, once saved
    plan: AekoImprovementPlan | None = None
    error: Exception | None = None
    saved: bool = True  # False: the plan waits in the outbox for the database


def analyse(
    workspace: Workspace,
    name: str,
    data: bytes,
    inventory: Inventory,
    *,
    previous: AekoImprovementPlan | None = None,
    factors: FactorFile | None = None,
    planning: PlanInputs | None = None,
    run_id: str | None = None,
    units: Mapping[str, str] | None = None,
    record: InventoryRecord | None = None,
    checkpointer: BaseCheckpointSaver | None = None,
    language: Lang = "pt",
) -> Iterator[EngineEvent | PlanEnded]:
    """Save the upload (with the user's factor file and unit choices, if any), run the
    inventory flow, save the plan and the usage. ``run_id`` names the run (a new one by
    default); ``units`` are the units the user chose for ambiguous sheets (``load``'s);
    ``record`` the upload when it is stored already (a worker's run: the page stored it);
    ``checkpointer`` makes the run durable on its id (a worker's take-over resumes it);
    ``language`` is the one the user works in, that the plan is written in.

    Yields the engine's events as they happen, then ``PlanEnded``. Raises
    ``DailyCapReachedError`` before anything is spent when today's allowance is gone.
    """
    run_id = run_id or uuid4().hex
    budget = workspace.run_budget(run_id)
    # The run's usage is recorded once, whatever ends it: an outcome below, or the finally
    # for an exception or an interruption (Streamlit's rerun/stop, a closed stream).
    spending = RunSpending(workspace, run_id, "inventory")
    failure: BaseException | None = None
    try:
        yield from _analysed(
            workspace, name, data, inventory, budget=budget, spending=spending,
            previous=previous, factors=factors, planning=planning, units=units, record=record,
            checkpointer=checkpointer, language=language,
        )  # fmt: skip
    except BaseException as error:
        failure = error
        raise
    finally:
        spending.close(failure)


def _analysed(
    workspace: Workspace,
    name: str,
    data: bytes,
    inventory: Inventory,
    *,
    budget: RunBudget | None,
    spending: RunSpending,
    previous: AekoImprovementPlan | None,
    factors: FactorFile | None,
    planning: PlanInputs | None,
    units: Mapping[str, str] | None = None,
    record: InventoryRecord | None = None,
    checkpointer: BaseCheckpointSaver | None = None,
    language: Lang = "pt",
) -> Iterator[EngineEvent | PlanEnded]:
    """``analyse`` once its budget is known, its usage recorded through ``spending``."""
    store, outbox, user_id = workspace.store, workspace.outbox, workspace.user.id
    run_id = spending.run_id
    try:
        if record is None:
            record = save_upload(workspace, name, data, inventory, factors=factors, units=units)
        spending.inventory_number = record.number
        analyzer = AekoInventoryAnalyzer()
        if previous is not None:
            analyzer.set_context(plan_markdown(previous, title=_PREVIOUS_REPORT_TITLE, lang="pt"))
        plan: AekoImprovementPlan | None = None
        planning = planning or PlanInputs()
        for event in analyzer.stream(
            inventory,
            id_external_inventory=record.number,
            budget=budget,
            run_id=run_id,
            target=planning.target,
            catalogue=planning.catalogue,
            costs=planning.costs,
            checkpointer=checkpointer,
            language=language,
        ):
            spending.observe(event)
            if isinstance(event, RunFinished):
                plan = event.result  # type: ignore[assignment]
            yield event
    except AekoBudgetExceededError as error:  # a deadline too (AekoDeadlineError)
        told = workspace.day_ran_out(run_id, error) or error
        spending.record("budget_exceeded", error.usage)
        yield PlanEnded("budget_exceeded", run_id, record, error=told)
        return
    except MalformedAgentOutputError as error:
        spending.record("malformed", error.usage)
        yield PlanEnded("malformed", run_id, record, error=error)
        return
    except AekoModelError as error:
        spending.model_error(error)
        spending.record("model_unavailable", error.usage)
        yield PlanEnded("model_unavailable", run_id, record, error=error)
        return
    except (LocalizedError, AekoError) as error:  # the database, the inventory, the engine
        spending.record("failed", getattr(error, "usage", None))
        yield PlanEnded("failed", run_id, record, error=error)
        return
    if plan is None:
        spending.record("failed")
        yield PlanEnded("failed", run_id, record, error=AekoError("the run gave no plan"))
        return
    spending.record("plan", plan.usage)
    from application.history import stored_totals

    # The totals History lists go with the plan (and with it into the journal when the
    # database is away), so the first listing never reads the plan's actions.
    totals = stored_totals(plan.actions) if plan.actions is not None else None
    saved = outbox.submit(store, Write.plan(user_id, plan, run_id, totals))
    if plan.actions is not None:
        write = Write.plan_actions(user_id, run_id, record.number, plan.actions)
        saved = outbox.submit(store, write) and saved
    yield PlanEnded("planned", run_id, record, plan, saved=saved)
