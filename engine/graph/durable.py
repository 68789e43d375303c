"""Durable runs on LangGraph's own checkpointing: a run given a checkpointer (any LangGraph
``BaseCheckpointSaver``) and a thread id saves its state after every superstep, so the same
run started again on that thread after it was cut resumes from its last finished agent: the
agents before it are not called, hence not paid, again.

The engine only accepts the saver; which database holds it is the caller's business
(application/checkpoints.py builds one on MongoDB).

What a resumed run gives back is what the uncut run would have: the events of the agents
that had finished are replayed from the saved state (each node files the events it emitted
with its update, ``events``), then the run goes on live; its usage counts the saved calls
too. A thread whose run had finished replays it whole and calls no model.

Each superstep's checkpoint is written before the next starts (``durability="sync"``): with
LangGraph's default ("async") a process killed mid-run could lose the last finished agent's
checkpoint, and that agent would be paid again.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable, Generator, Iterable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from langgraph.config import get_config
from pydantic import BaseModel

if TYPE_CHECKING:
    from langgraph.checkpoint.base import BaseCheckpointSaver

    from engine.budget import BudgetTracker
    from engine.graph.state import RunState

# In the run's configurable: the nodes file their events with their updates.
JOURNAL_KEY = "journal_events"
THREAD_KEY = "thread_id"  # LangGraph's own key for the checkpointer's thread
DURABILITY = "sync"

_JOURNAL: ContextVar[list[Any] | None] = ContextVar("aeko_node_journal", default=None)


class ThreadMismatchError(ValueError):
    """The thread's saved run answers another request: a thread id is one run's, never
    reused for a new question (that would replay the old answer)."""


@dataclass(frozen=True)
class Thread:
    """Where a durable run is saved: the caller's checkpointer, and the run's thread."""

    checkpointer: BaseCheckpointSaver
    thread_id: str

    def saved(self) -> dict[str, Any] | None:
        return saved_values(self.checkpointer, self.thread_id)


def run_args(thread: Thread | None) -> dict[str, Any]:
    """``Runtime.run``'s keywords for a run on ``thread`` (none: not durable)."""
    if thread is None:
        return {}
    return {"checkpointer": thread.checkpointer, "thread_id": thread.thread_id}


def journaled(node: Callable[[RunState], dict[str, Any]]) -> Callable[[RunState], dict[str, Any]]:
    """``node``, filing the events it emits with its update when the run is durable."""

    def run(state: RunState) -> dict[str, Any]:
        if not (get_config().get("configurable") or {}).get(JOURNAL_KEY):
            return node(state)
        journal: list[Any] = []
        token = _JOURNAL.set(journal)
        try:
            update = node(state)
        finally:
            _JOURNAL.reset(token)
        return {**update, "events": journal}

    run.__name__ = getattr(node, "__name__", "node")
    return run


def journal_writer(emit: Callable[[Any], None]) -> Callable[[Any], None]:
    """The node's stream writer, also filing each event when the node is journaled."""
    journal = _JOURNAL.get()
    if journal is None:
        return emit

    def write(event: Any) -> None:
        journal.append(event)
        emit(event)

    return write


def saved_values(checkpointer: BaseCheckpointSaver, thread_id: str) -> dict[str, Any] | None:
    """The state the thread's run last saved; None for a thread with no run yet."""
    found = checkpointer.get_tuple({"configurable": {THREAD_KEY: thread_id, "checkpoint_ns": ""}})
    if found is None:
        return None
    values = found.checkpoint.get("channel_values") or {}
    return dict(values) if values.get("request") is not None else None


def stream(
    graph: Any,
    state: RunState,
    config: dict[str, Any],
    *,
    checkpointer: BaseCheckpointSaver,
    thread_id: str,
    budget: BudgetTracker,
) -> Generator[Any, None, dict[str, Any]]:
    """Run ``graph`` on the thread: from ``state`` when the thread is new, else from where
    its run stopped. Yield the events (the saved ones first); return the final state."""
    graph = graph.copy({"checkpointer": checkpointer})
    configurable = {**config.get("configurable", {}), THREAD_KEY: thread_id, JOURNAL_KEY: True}
    config = {**config, "configurable": configurable}
    saved = checkpointer.get_tuple(config)
    values = (saved.checkpoint.get("channel_values") or {}) if saved else {}
    if saved is not None and values.get("request") is None:
        # Cut before the first superstep: only LangGraph's input checkpoint, no agent ran.
        # Starting over is free, and input written twice would add its lists twice.
        checkpointer.delete_thread(thread_id)
        saved = None
    start: RunState | None = state
    if saved is not None:
        if values.get("request") != state.get("request"):
            raise ThreadMismatchError(f"thread {thread_id!r} holds another run's request")
        # The saved state, then what the finished branches of the cut superstep wrote (one
        # of two parallel analysts): LangGraph keeps those writes and does not run them again.
        kept = [(channel, value) for _task, channel, value in saved.pending_writes or ()]
        _seed(budget, [*values.get("calls", ()), *_written(kept, "calls")])
        yield from values.get("events", ())
        yield from _written(kept, "events")
        snapshot = graph.get_state(config)
        if not snapshot.next:
            return dict(snapshot.values)
        start = None  # LangGraph's resume: no input, go on from the last checkpoint
    final: dict[str, Any] = {}
    chunks = graph.stream(start, config, stream_mode=["custom", "values"], durability=DURABILITY)
    for mode, chunk in chunks:
        if mode == "custom":
            yield chunk
        else:
            final = chunk
    return final


def saved_types() -> frozenset[type]:
    """Every engine class a saved run state holds, nested ones included: a checkpointer's
    serializer may restore these and nothing else (LangGraph's msgpack allowlist)."""
    from engine.actions.model import PlanActions
    from engine.events import EngineEvent, RunFinished
    from engine.graph.state import RunState

    roots: list[Any] = [RunState, PlanActions, EngineEvent]
    found: set[type] = set()
    while roots:
        hint = roots.pop()
        args = typing.get_args(hint)
        if args:
            roots.extend(args)
            continue
        if not isinstance(hint, type) or hint in found or hint is RunFinished:
            continue
        if hint.__module__.startswith("engine."):
            found.add(hint)
        if issubclass(hint, BaseModel):
            roots.extend(field.annotation for field in hint.model_fields.values())
        elif dataclasses.is_dataclass(hint) or typing.is_typeddict(hint):
            roots.extend(typing.get_type_hints(hint).values())
    return frozenset(found)


def _written(writes: Iterable[tuple[str, Any]], channel: str) -> list[Any]:
    return [item for name, value in writes if name == channel for item in value]


def _seed(budget: BudgetTracker, calls: Iterable[Any]) -> None:
    """What the saved agents spent counts in the resumed run's usage and against its caps."""
    for call in calls:
        budget.record(call)
