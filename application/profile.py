"""Profile use cases: what the user told us about themselves, what they spent, their memories,
the interface language, and the GWP set their inventories are read with by default.

The agents read the role, the use case and the active memories in every chat turn, so these
are kept trimmed and a memory may carry a last day after which it no longer applies.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time

from application.workspace import Workspace
from engine import AekoUser, AekoUserMemory
from engine.gases.gwp import GwpSet, check_gwp_set
from engine.inventory import DEFAULT_GWP_SET, GWP_SETS
from store import StoreError
from store.repositories import UsageTotals


@dataclass(frozen=True)
class Spending:
    today: UsageTotals  # since midnight UTC: what the daily cap is measured against
    total: UsageTotals


def spending(workspace: Workspace) -> Spending:
    usage = workspace.store.usage(workspace.user.id)
    return Spending(today=usage.totals_today(), total=usage.totals())


def update_profile(workspace: Workspace, *, role: str, usecase: str) -> AekoUser:
    return workspace.store.users.update_profile(
        workspace.user.id, role=role.strip(), usecase=usecase.strip()
    )


def memories(workspace: Workspace) -> list[AekoUserMemory]:
    """Every memory, expired ones included, for the user to review."""
    return workspace.store.memories(workspace.user.id).all()


def remember(
    workspace: Workspace, field: str, description: str, *, last_day: date | None = None
) -> AekoUserMemory | None:
    """Keep a memory; None when its field or description is empty."""
    field, description = field.strip(), description.strip()
    if not field or not description:
        return None
    expires_at = datetime.combine(last_day, time.max, tzinfo=UTC) if last_day else None
    return workspace.store.memories(workspace.user.id).add(
        field, description, expires_at=expires_at
    )


def edit_memory(
    workspace: Workspace, memory_id: str, *, field: str, description: str
) -> AekoUserMemory:
    return workspace.store.memories(workspace.user.id).update(
        memory_id, field=field.strip(), description=description.strip()
    )


def forget(workspace: Workspace, memory_id: str) -> AekoUserMemory:
    """Expire a memory now: kept for the record, no longer read by the agents."""
    return workspace.store.memories(workspace.user.id).expire(memory_id)


def default_gwp_set(workspace: Workspace) -> GwpSet:
    """The set an inventory is read with until the user picks another for that reading: the
    one chosen in the profile, else the product's (AR5). A company reporting under IFRS S2
    (paragraph B21: the latest IPCC assessment, AR6), mandatory for listed companies from
    fiscal 2026 (CVM Resolution 193), sets AR6 here once. With the database away the
    product's default holds: a reading is never refused for want of a preference."""
    try:
        chosen = workspace.store.users.default_gwp_set(workspace.user.id)
    except StoreError:
        return DEFAULT_GWP_SET
    return chosen if chosen in GWP_SETS else DEFAULT_GWP_SET


def set_default_gwp_set(workspace: Workspace, gwp_set: str) -> GwpSet:
    """Keep the user's default set ("AR4", "AR5" or "AR6"); ``UnknownGwpSetError`` for any
    other."""
    chosen = check_gwp_set(gwp_set)
    workspace.store.users.set_default_gwp_set(workspace.user.id, chosen)
    return chosen


LANGUAGES = ("pt", "en")


def language(workspace: Workspace) -> str | None:
    """The interface language kept in the user's profile, so a new browser session opens in
    it; None when the user never chose one or the database is away (the interface's own
    default then holds)."""
    try:
        chosen = workspace.store.users.language(workspace.user.id)
    except StoreError:
        return None
    return chosen if chosen in LANGUAGES else None


def set_language(workspace: Workspace, code: str) -> str:
    """Keep the user's interface language ("pt" or "en"; anything else is Portuguese)."""
    chosen = code if code in LANGUAGES else "pt"
    workspace.store.users.set_language(workspace.user.id, chosen)
    return chosen
