"""What a user may still spend today, shared by every app process: one document per user and
UTC day, changed only by single-document atomic updates.

``{_id: "<user>:<YYYY-MM-DD>", id_user, day, committed_pusd, spent_pusd,
reservations: {<run_id>: pusd}, settled: {<run_id>: pusd}}``

- A run *reserves* its allowance before it starts: one ``find_one_and_update`` filtered on
  ``committed_pusd <= cap - amount`` and the run id neither reserved nor settled, which
  ``$inc``-s ``committed_pusd`` and ``$set``-s ``reservations.<run_id>``. Two processes
  racing for the last remainder: the server applies one update, the other's filter no
  longer matches. A second reserve under the same run id changes nothing.
- When it ends it is *settled* at what it actually cost (its usage record's cap cost; the
  engine keeps each call's worst case within the reservation, and a settle does not assume
  it did): ``committed += actual - reserved``,
  ``spent += actual``, the reservation moves to ``settled``. Filtered on the reservation's
  value and on ``settled.<run_id>`` being absent, so a second settle changes nothing.
- A run that reserved nothing (it started while the database was away) is settled the
  same way, with nothing to release.

So ``committed == spent + sum(open reservations)`` always, and ``committed`` is one field, so
the cap is a plain filter. Amounts are integers, in picodollars (1e-12 US$): ``$inc`` on
floats drifts, and a drifting sum could let a filter pass that exact arithmetic refuses.
Actual costs round up, so a cap never counts less than was spent.

``settled`` is what makes every usage record count exactly once, whoever writes it:
``reconcile`` settles the day's usage records that no run settled (written from the outbox
after an outage, by the journal replay of runs cut by a stopped app, or by a process that
died after its usage write), and ``settle_stale`` does it for every user's open
reservations. A reservation whose run left no usage record stays counted (conservative)
until the day ends.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from bson.int64 import Int64
from pymongo import ReturnDocument

from store.indexes import BY_ID, SPENDING_BY_DAY, USAGE_BY_RUN, USAGE_BY_USER
from store.repositories.base import Repository, guarded, now
from store.repositories.usage import _cap_cost as cap_cost_of

# What a usage record's cost against a cap is read from (``usage._cap_cost``).
COST_FIELDS = {"run_id": 1, "cap_cost_usd": 1, "cost_usd": 1, "input_tokens": 1,
               "output_tokens": 1}  # fmt: skip

PICO = 10**12  # picodollars per US$


def to_pusd(usd: float, *, up: bool = True) -> int:
    """US$ as picodollars: rounded up (a cost, never counted as less) or to the nearest
    (a cap). ``round(.., 3)`` first, so 0.3 * 1e12 = 299999999999.99994 stays 0.3."""
    scaled = round(max(usd, 0.0) * PICO, 3)
    return math.ceil(scaled) if up else round(scaled)


def to_usd(pusd: int) -> float:
    return pusd / PICO


def day_key(day: date) -> str:
    return day.isoformat()


@dataclass(frozen=True)
class DaySpending:
    """One user's day as the database holds it."""

    day: str
    committed_pusd: int = 0  # spent + open reservations: what a cap counts
    spent_pusd: int = 0
    reservations: dict[str, int] = field(default_factory=dict)
    settled: dict[str, int] = field(default_factory=dict)

    @property
    def committed_usd(self) -> float:
        return to_usd(self.committed_pusd)

    @property
    def spent_usd(self) -> float:
        return to_usd(self.spent_pusd)

    @property
    def held_usd(self) -> float:
        """What runs in progress hold of the allowance."""
        return to_usd(self.committed_pusd - self.spent_pusd)

    def knows(self, run_id: str) -> bool:
        return run_id in self.reservations or run_id in self.settled

    @classmethod
    def of(cls, document: dict[str, Any] | None, day: str) -> DaySpending:
        if not document:
            return cls(day)
        return cls(
            day=document.get("day", day),
            committed_pusd=int(document.get("committed_pusd", 0)),
            spent_pusd=int(document.get("spent_pusd", 0)),
            reservations={k: int(v) for k, v in (document.get("reservations") or {}).items()},
            settled={k: int(v) for k, v in (document.get("settled") or {}).items()},
        )


@dataclass(frozen=True)
class Reservation:
    """What a run holds: ``pusd`` of the ``day``'s allowance (0 when the run id had ended)."""

    run_id: str
    day: str
    pusd: int
    after: DaySpending

    @property
    def usd(self) -> float:
        return to_usd(self.pusd)


class CapReached(Exception):
    """Nothing left to reserve; ``day`` says whether it is spent or held by other runs."""

    def __init__(self, day: DaySpending) -> None:
        super().__init__(day.day)
        self.day = day


_MAX_ATTEMPTS = 20  # each failed attempt means another run reserved or settled meanwhile


class SpendingRepository(Repository):
    """Bound to one user, except for ``settle_stale`` (every user's open reservations),
    which an unbound repository (``user_id=None``) runs."""

    collection = "spending"

    def _id(self, day: str, user_id: Any = None) -> str:
        return f"{user_id or self.user_id}:{day}"

    def _ensure(self, day: str) -> None:
        self.col.update_one(
            {"_id": self._id(day)},
            {
                "$setOnInsert": {
                    "id_user": self.user_id,
                    "day": day,
                    "committed_pusd": Int64(0),
                    "spent_pusd": Int64(0),
                    "reservations": {},
                    "settled": {},
                }
            },
            upsert=True,
        )

    @guarded
    def day(self, day: date) -> DaySpending:
        key = day_key(day)
        return DaySpending.of(self.col.find_one({"_id": self._id(key)}), key)

    @guarded
    def reserve(
        self,
        day: date,
        run_id: str,
        *,
        cap_usd: float,
        most_usd: float,
        waiting: dict[str, float] | None = None,
    ) -> Reservation:
        """Hold ``min(what is left, most_usd)`` of the day's ``cap_usd`` for ``run_id``.

        ``waiting``: usage (run id → US$) journalled in this process's outbox and not yet in
        the database; what of it the day does not know counts against the cap too. Raises
        ``CapReached`` when nothing is left. Idempotent per run id."""
        _check_run_id(run_id)
        key = day_key(day)
        self._ensure(key)
        cap, most = to_pusd(cap_usd, up=False), to_pusd(most_usd, up=False)
        for _ in range(_MAX_ATTEMPTS):
            current = DaySpending.of(self.col.find_one({"_id": self._id(key)}), key)
            if run_id in current.reservations:
                return Reservation(run_id, key, current.reservations[run_id], current)
            if run_id in current.settled:
                return Reservation(run_id, key, 0, current)  # it ended: nothing more to spend
            queued = sum(
                to_pusd(cost) for rid, cost in (waiting or {}).items() if not current.knows(rid)
            )
            room = cap - queued
            amount = min(room - current.committed_pusd, most)
            if amount <= 0:
                raise CapReached(current)
            document = self.col.find_one_and_update(
                {
                    "_id": self._id(key),
                    "committed_pusd": {"$lte": room - amount},
                    f"reservations.{run_id}": {"$exists": False},
                    f"settled.{run_id}": {"$exists": False},
                },
                {
                    "$inc": {"committed_pusd": Int64(amount)},
                    "$set": {f"reservations.{run_id}": Int64(amount)},
                },
                return_document=ReturnDocument.AFTER,
                hint=BY_ID,
            )
            if document is not None:
                return Reservation(run_id, key, amount, DaySpending.of(document, key))
        raise CapReached(current)  # contended beyond reason: refuse rather than overspend

    @guarded
    def settle(self, day: date | str, run_id: str, actual_usd: float) -> DaySpending:
        """Count what ``run_id`` cost on ``day`` and release what it held (nothing, if it
        reserved nothing). A second settle of the same run changes nothing."""
        _check_run_id(run_id)
        key = day if isinstance(day, str) else day_key(day)
        self._ensure(key)
        return self._settle(self._id(key), key, run_id, to_pusd(actual_usd))

    def _settle(self, _id: str, key: str, run_id: str, actual: int) -> DaySpending:
        for _ in range(_MAX_ATTEMPTS):
            current = DaySpending.of(self.col.find_one({"_id": _id}), key)
            if run_id in current.settled:
                return current
            held = current.reservations.get(run_id)
            reserved: dict[str, Any] = {"$exists": False} if held is None else {"$eq": Int64(held)}
            change: dict[str, Any] = {
                "$inc": {"committed_pusd": Int64(actual - (held or 0)),
                         "spent_pusd": Int64(actual)},
                "$set": {f"settled.{run_id}": Int64(actual)},
            }  # fmt: skip
            if held is not None:
                change["$unset"] = {f"reservations.{run_id}": ""}
            document = self.col.find_one_and_update(
                {"_id": _id, f"reservations.{run_id}": reserved,
                 f"settled.{run_id}": {"$exists": False}},
                change,
                return_document=ReturnDocument.AFTER,
                hint=BY_ID,
            )  # fmt: skip
            if document is not None:
                return DaySpending.of(document, key)
        return current

    @guarded
    def reconcile(self, day: date) -> DaySpending:
        """Settle the day's usage records that no run settled, at what each record says it
        cost; a run reserved yesterday and recorded after midnight counts on yesterday."""
        key, before = day_key(day), day_key(day - timedelta(days=1))
        start = datetime(day.year, day.month, day.day, tzinfo=now().tzinfo)
        records = list(
            self.db["usage"].find(
                {"id_user": self.user_id, "created_at": {"$gte": start}},
                COST_FIELDS,
                hint=USAGE_BY_USER,
            )
        )
        known = {
            document["_id"]: DaySpending.of(document, document.get("day", ""))
            for document in self.col.find({"_id": {"$in": [self._id(key), self._id(before)]}})
        }
        today = known.get(self._id(key)) or DaySpending(key)
        yesterday = known.get(self._id(before)) or DaySpending(before)
        for record in records:
            run_id = record.get("run_id")
            if not isinstance(run_id, str) or not _valid_run_id(run_id):
                continue
            if run_id in today.settled or run_id in yesterday.settled:
                continue
            target = before if run_id in yesterday.reservations else key
            self._ensure(target)
            actual = to_pusd(cap_cost_of(record))
            settled = self._settle(self._id(target), target, run_id, actual)
            if target == key:
                today = settled
        return today

    @guarded
    def settle_stale(self, older_than: timedelta) -> int:
        """Settle the open reservations (every user's, today's and yesterday's) of runs whose
        usage record was written more than ``older_than`` ago: their owner died, or lost the
        database, between the usage write and the settle. Returns how many it settled."""
        today = now().date()
        days = [day_key(today - timedelta(days=1)), day_key(today)]
        cutoff = now() - older_than
        query: dict[str, Any] = {"day": {"$in": days}}
        if self.user_id is not None:
            query["id_user"] = self.user_id
        settled = 0
        for document in list(self.col.find(query, hint=SPENDING_BY_DAY)):
            if document.get("id_user") is None or not document.get("reservations"):
                continue
            key = document.get("day", "")
            for run_id in list((document.get("reservations") or {}).keys()):
                record = self.db["usage"].find_one(
                    {"id_user": document["id_user"], "run_id": run_id},
                    {**COST_FIELDS, "created_at": 1},
                    hint=USAGE_BY_RUN,
                )
                if record is None or _aware(record.get("created_at")) > cutoff:
                    continue
                actual = to_pusd(cap_cost_of(record))
                before = DaySpending.of(self.col.find_one({"_id": document["_id"]}), key)
                after = self._settle(document["_id"], key, run_id, actual)
                settled += run_id not in before.settled and run_id in after.settled
        return settled


def _aware(value: Any) -> datetime:
    if not isinstance(value, datetime):
        return datetime.max.replace(tzinfo=now().tzinfo)
    return value if value.tzinfo else value.replace(tzinfo=now().tzinfo)


def _valid_run_id(run_id: str) -> bool:
    """A run id is a key of the document: no dots, no leading ``$``, not empty."""
    return bool(run_id) and "." not in run_id and not run_id.startswith("$") and "\0" not in run_id


def _check_run_id(run_id: str) -> None:
    if not _valid_run_id(run_id):
        raise ValueError(f"not a run id a spending document can key: {run_id!r}")
