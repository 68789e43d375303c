"""History use cases: the user's conversations and plans, listed, searched, renamed, deleted.

Search is accent- and case-insensitive (``fold``), over a conversation's name and turns and
over a plan's three sections.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from application.workspace import Workspace
from engine import AekoImprovementPlan, AekoSession
from engine.protocol import fold
from store.repositories import SessionSummary

HISTORY_LIMIT = 200
T = TypeVar("T")


def recent_conversations(workspace: Workspace, limit: int = 30) -> list[SessionSummary]:
    return workspace.store.sessions(workspace.user.id).list(limit=limit)


def find_conversations(
    workspace: Workspace, query: str = "", limit: int = HISTORY_LIMIT
) -> list[AekoSession]:
    found = workspace.store.sessions(workspace.user.id).list_full(limit=limit)
    return _matching(found, query, _conversation_text)


def find_plans(
    workspace: Workspace, query: str = "", limit: int = HISTORY_LIMIT
) -> list[AekoImprovementPlan]:
    found = workspace.store.plans(workspace.user.id).list(limit=limit)
    return _matching(found, query, _plan_text)


def _matching(found: list[T], query: str, text_of: Callable[[T], str]) -> list[T]:
    wanted = fold(query)
    return [item for item in found if wanted in text_of(item)] if wanted else found


def rename_conversation(workspace: Workspace, session_id: str, name: str) -> bool:
    name = " ".join(name.split())[:80]
    return bool(name) and workspace.store.sessions(workspace.user.id).rename(session_id, name)


def delete_conversation(workspace: Workspace, session_id: str) -> bool:
    return workspace.store.sessions(workspace.user.id).delete(session_id)


def delete_plan(workspace: Workspace, plan_id: str) -> bool:
    return workspace.store.plans(workspace.user.id).delete(plan_id)


def _conversation_text(session: AekoSession) -> str:
    turns = (f"{turn.input} {turn.output}" for turn in session.messages)
    return fold(" ".join([session.name, *turns]))


def _plan_text(plan: AekoImprovementPlan) -> str:
    return fold(" ".join([plan.defined_problem, plan.method, plan.reasoning]))
