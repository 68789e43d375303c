"""Sessions and their turns. A turn is never lost nor doubled:

- ``begin_turn`` records the question as pending before the engine runs;
- ``complete_turn`` appends the answer with one atomic ``$push`` + ``$set`` of ``updated_at``;
- ``reject_turn`` records a rejected run outside ``messages[]``, so the conversation the
  agents replay stays clean;
- both are idempotent by the run id (``applied_runs``), so a retry after a timeout is a no-op.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from engine.dto import AekoConversationSummary, AekoMessage, AekoSession
from store.documents import from_db, object_id, to_db
from store.errors import NotFoundError
from store.indexes import BY_ID, SESSION_BY_USER
from store.repositories.base import NEWEST_FIRST, Repository, guarded, now
from store.text_search import matching

_APPLIED_RUNS_KEPT = 500  # enough for any retry window; keeps the document small
_LIST_PROJECTION = {"name": 1, "created_at": 1, "updated_at": 1, "id_user": 1}
SEARCHED = ("name", "messages.input", "messages.output")  # what a search reads
_SESSION_PROJECTION = {
    "applied_runs": 0,
    "pending": 0,
    "rejected": 0,
    "turn_meta": 0,
    "summary": 0,
    "attached_inventory": 0,
}


@dataclass(frozen=True)
class SessionSummary:
    id: str
    name: str
    created_at: datetime | None
    updated_at: datetime | None


@dataclass(frozen=True)
class PendingTurn:
    run_id: str
    input: str
    submitted_at: datetime


@dataclass(frozen=True)
class RejectedTurn:
    run_id: str
    input: str
    submitted_at: datetime
    reasons: str
    guardrail_retries: int


@dataclass(frozen=True)
class SessionDocument:
    """A conversation with everything kept beside its turns, from one read."""

    session: AekoSession
    turn_meta: dict[datetime, dict]
    pending: list[PendingTurn]
    rejected: list[RejectedTurn]
    summary: AekoConversationSummary | None
    attached_inventory: str | None


class SessionRepository(Repository):
    collection = "session"

    @guarded
    def create(self, name: str) -> AekoSession:
        stamp = now()
        session = AekoSession(
            id_user=str(self.user_id), name=name, created_at=stamp, updated_at=stamp
        )
        inserted = self.col.insert_one(to_db(session.model_dump(by_alias=True)))
        session.id = str(inserted.inserted_id)
        return session

    @guarded
    def get(self, session_id: str) -> AekoSession:
        document = self.col.find_one(self._one(session_id), _SESSION_PROJECTION, hint=BY_ID)
        if document is None:
            raise NotFoundError("sessão / session")
        return AekoSession.model_validate(from_db(document))

    @guarded
    def read(self, session_id: str) -> SessionDocument:
        """The whole conversation in one round trip: turns, their meta, pending and rejected
        runs, summary and attachment (the chat page reads nothing else of it)."""
        document = self.col.find_one(self._one(session_id), {"applied_runs": 0}, hint=BY_ID)
        if document is None:
            raise NotFoundError("sessão / session")
        return SessionDocument(
            session=AekoSession.model_validate(
                from_db({k: v for k, v in document.items() if k not in _SESSION_PROJECTION})
            ),
            turn_meta=_turn_meta(document),
            pending=_pending(document),
            rejected=_rejected(document),
            summary=_summary(document),
            attached_inventory=document.get("attached_inventory"),
        )

    @guarded
    def list(self, limit: int = 50) -> list[SessionSummary]:
        """Newest first, without the turns."""
        cursor = self.col.find(self._mine(), _LIST_PROJECTION, hint=SESSION_BY_USER)
        cursor = cursor.sort(NEWEST_FIRST).limit(limit)
        return [
            SessionSummary(
                str(d["_id"]), d.get("name", ""), d.get("created_at"), d.get("updated_at")
            )
            for d in cursor
        ]

    @guarded
    def list_full(self, limit: int = 200) -> list[AekoSession]:
        """Newest first, with their turns, in one query (for search and export)."""
        cursor = self.col.find(self._mine(), _SESSION_PROJECTION, hint=SESSION_BY_USER)
        cursor = cursor.sort(NEWEST_FIRST).limit(limit)
        return [AekoSession.model_validate(from_db(document)) for document in cursor]

    @guarded
    def search(self, query: str = "", *, skip: int = 0, limit: int = 20) -> list[AekoSession]:
        """Newest first, with their turns, those whose name or turns hold ``query`` (accent-
        and case-insensitive), in the database: ``skip`` and ``limit`` page through them."""
        filter_ = self._mine(**matching(query, SEARCHED))
        cursor = self.col.find(filter_, _SESSION_PROJECTION, hint=SESSION_BY_USER)
        cursor = cursor.sort(NEWEST_FIRST).skip(skip).limit(limit)
        return [AekoSession.model_validate(from_db(document)) for document in cursor]

    @guarded
    def rename(self, session_id: str, name: str) -> bool:
        result = self.col.update_one(self._one(session_id), {"$set": {"name": name}}, hint=BY_ID)
        return result.matched_count == 1

    @guarded
    def delete(self, session_id: str) -> bool:
        return self.col.delete_one(self._one(session_id), hint=BY_ID).deleted_count == 1

    @guarded
    def begin_turn(self, session_id: str, run_id: str, question: str) -> PendingTurn:
        """Record the question before the engine runs: a crash cannot lose it."""
        turn = PendingTurn(run_id, question, now())
        result = self.col.update_one(
            {
                **self._one(session_id),
                "pending.run_id": {"$ne": run_id},
                "applied_runs": {"$ne": run_id},
            },
            {
                "$push": {
                    "pending": {
                        "run_id": run_id,
                        "input": question,
                        "submitted_at": turn.submitted_at,
                    }
                }
            },
            hint=BY_ID,
        )
        if result.matched_count == 0 and not self.col.count_documents(
            self._one(session_id), hint=BY_ID
        ):
            raise NotFoundError("sessão / session")
        return turn

    @guarded
    def complete_turn(
        self, session_id: str, run_id: str, message: AekoMessage, meta: dict | None = None
    ) -> bool:
        """Append the answered turn, once. False when this run was already applied.

        ``meta`` (verdict, cost, agents...) goes to ``turn_meta`` beside ``messages[]``,
        keyed by the turn's ``submitted_at``: the turn itself keeps the reference's fields.
        """
        extra = {
            "turn_meta": {**(meta or {}), "run_id": run_id, "submitted_at": message.submitted_at}
        }
        result = self.col.update_one(
            self._unapplied(session_id, run_id),
            {
                "$push": {"messages": message.model_dump(), **self._applied(run_id), **extra},
                "$pull": {"pending": {"run_id": run_id}},
                "$set": {"updated_at": message.submitted_at},
            },
            hint=BY_ID,
        )
        return result.modified_count == 1

    @guarded
    def reject_turn(
        self, session_id: str, run_id: str, question: str, *, reasons: str, guardrail_retries: int
    ) -> bool:
        """Record a run the guardrail rejected, outside the conversation, once."""
        record = {
            "run_id": run_id,
            "input": question,
            "submitted_at": now(),
            "reasons": reasons,
            "guardrail_retries": guardrail_retries,
        }
        result = self.col.update_one(
            self._unapplied(session_id, run_id),
            {
                "$push": {"rejected": record, **self._applied(run_id)},
                "$pull": {"pending": {"run_id": run_id}},
            },
            hint=BY_ID,
        )
        return result.modified_count == 1

    @guarded
    def summary(self, session_id: str) -> AekoConversationSummary | None:
        """The running summary of the session's older turns, under its own field."""
        document = self.col.find_one(self._one(session_id), {"summary": 1}, hint=BY_ID) or {}
        return _summary(document)

    @guarded
    def save_summary(self, session_id: str, summary: AekoConversationSummary) -> bool:
        """Keep a summary only if it covers more turns than the stored one."""
        query = {
            **self._one(session_id),
            "$or": [{"summary": None}, {"summary.covered_turns": {"$lt": summary.covered_turns}}],
        }
        result = self.col.update_one(query, {"$set": {"summary": summary.model_dump()}}, hint=BY_ID)
        return result.modified_count == 1

    @guarded
    def attach(self, session_id: str, inventory_id: str | None) -> bool:
        """Attach a saved inventory to the conversation (None detaches it). It lives beside
        the session's reference fields, like ``summary``."""
        result = self.col.update_one(
            self._one(session_id), {"$set": {"attached_inventory": inventory_id}}, hint=BY_ID
        )
        return result.matched_count == 1

    @guarded
    def attachment(self, session_id: str) -> str | None:
        """The id of the inventory attached to the conversation, if any."""
        document = (
            self.col.find_one(self._one(session_id), {"attached_inventory": 1}, hint=BY_ID) or {}
        )
        return document.get("attached_inventory")

    @guarded
    def turn_meta(self, session_id: str) -> dict[datetime, dict]:
        """What the app recorded beside each turn, by the turn's ``submitted_at``."""
        document = self.col.find_one(self._one(session_id), {"turn_meta": 1}, hint=BY_ID) or {}
        return _turn_meta(document)

    @guarded
    def set_feedback(self, session_id: str, submitted_at: datetime, score: int | None) -> bool:
        """The user's thumbs on an answer, beside the turn it rates."""
        result = self.col.update_one(
            {**self._one(session_id), "turn_meta.submitted_at": submitted_at},
            {"$set": {"turn_meta.$.feedback": score}},
            hint=BY_ID,
        )
        return result.matched_count == 1

    @guarded
    def pending_turns(self, session_id: str) -> list[PendingTurn]:
        document = self.col.find_one(self._one(session_id), {"pending": 1}, hint=BY_ID) or {}
        return _pending(document)

    @guarded
    def rejected_turns(self, session_id: str) -> list[RejectedTurn]:
        document = self.col.find_one(self._one(session_id), {"rejected": 1}, hint=BY_ID) or {}
        return _rejected(document)

    def _one(self, session_id: str) -> dict:
        return self._mine(_id=object_id(session_id, "sessão / session"))

    def _unapplied(self, session_id: str, run_id: str) -> dict:
        return {**self._one(session_id), "applied_runs": {"$ne": run_id}}

    @staticmethod
    def _applied(run_id: str) -> dict:
        return {"applied_runs": {"$each": [run_id], "$slice": -_APPLIED_RUNS_KEPT}}


def _turn_meta(document: dict) -> dict[datetime, dict]:
    return {m["submitted_at"]: m for m in document.get("turn_meta") or []}


def _pending(document: dict) -> list[PendingTurn]:
    return [
        PendingTurn(p["run_id"], p["input"], p["submitted_at"])
        for p in document.get("pending") or []
    ]


def _rejected(document: dict) -> list[RejectedTurn]:
    return [
        RejectedTurn(
            r["run_id"],
            r["input"],
            r["submitted_at"],
            r.get("reasons", ""),
            r.get("guardrail_retries", 0),
        )
        for r in document.get("rejected") or []
    ]


def _summary(document: dict) -> AekoConversationSummary | None:
    stored = document.get("summary")
    return AekoConversationSummary.model_validate(stored) if stored else None
