"""One repository per collection. Every one but ``UserRepository`` is bound to one user and
scopes every read and write by that user's id."""

from store.repositories.inventories import InventoryRecord, InventoryRepository
from store.repositories.memories import MemoryRepository
from store.repositories.plan_actions import PlanActionsRepository
from store.repositories.plans import PlanRepository
from store.repositories.runs import RunRepository
from store.repositories.sessions import PendingTurn, RejectedTurn, SessionRepository, SessionSummary
from store.repositories.spending import DaySpending, Reservation, SpendingRepository
from store.repositories.usage import UsageRepository, UsageTotals
from store.repositories.users import UserRepository

__all__ = [
    "DaySpending",
    "InventoryRecord",
    "InventoryRepository",
    "MemoryRepository",
    "PendingTurn",
    "PlanActionsRepository",
    "PlanRepository",
    "RejectedTurn",
    "Reservation",
    "RunRepository",
    "SessionRepository",
    "SessionSummary",
    "SpendingRepository",
    "UsageRepository",
    "UsageTotals",
    "UserRepository",
]
