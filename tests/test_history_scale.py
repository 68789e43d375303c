"""History and chat with many documents: lists come a page at a time, searched in the
database; a chat rerun reads the session document once. Round trips are counted with a
pymongo ``CommandListener``; nothing here measures wall-clock time (see bench/history.py)."""

import contextlib
import threading
from collections.abc import Iterator

import pytest
from pymongo import monitoring
from streamlit.testing.v1 import AppTest

from engine import AekoImprovementPlan, AekoMessage
from engine.dto import utc_now
from store.client import Store
from store.indexes import ensure_indexes
from tests.app_pages import run_app as _app

# The shell every page shares (components/startup.py, components/context.py): the status
# line's ping and the signed-in user. Counted apart from the page's own reads.
SHELL = {("ping", None), ("findAndModify", "user"), ("find", "user"), ("update", "user")}


class Commands(monitoring.CommandListener):
    """The commands sent while ``recording``, as (name, collection)."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str | None]] = []
        self.recording = False
        self._lock = threading.Lock()

    def started(self, event: monitoring.CommandStartedEvent) -> None:
        if self.recording:
            target = event.command.get(event.command_name)
            with self._lock:
                self.seen.append((event.command_name, target if isinstance(target, str) else None))

    def succeeded(self, event: monitoring.CommandSucceededEvent) -> None:
        pass

    def failed(self, event: monitoring.CommandFailedEvent) -> None:
        pass

    @contextlib.contextmanager
    def record(self) -> Iterator[list[tuple[str, str | None]]]:
        """What is sent inside the block, from an empty list."""
        self.seen.clear()
        self.recording = True
        try:
            yield self.seen
        finally:
            self.recording = False

    def page(self) -> list[tuple[str, str | None]]:
        return [c for c in self.seen if c not in SHELL and c[0] not in {"endSessions"}]


COMMANDS = Commands()
monitoring.register(COMMANDS)  # before the app's client exists: it is created per database


@pytest.fixture
def app_env(app_env, mongo):
    """The app's database as a store, its indexes made."""
    ensure_indexes(app_env)
    return Store(mongo.client, app_env, "test")


def _seed_conversation(store: Store, user_id: str, name: str, turns: int) -> str:
    sessions = store.sessions(user_id)
    session = sessions.create(name)
    for n in range(turns):
        run = f"{name}-{n}"
        sessions.begin_turn(session.id, run, f"Pergunta {n}")
        message = AekoMessage(
            input=f"Pergunta {n}", output=f"Resposta {n}", llm="x", submitted_at=utc_now()
        )
        sessions.complete_turn(session.id, run, message, {"cost_usd": 0.001})
    return session.id


def test_a_chat_rerun_makes_at_most_three_round_trips_for_its_page(app_env):
    user = app_env.users.get_or_create(1)
    for n in range(5):
        _seed_conversation(app_env, user.id, f"Conversa {n}", 2)
    opened = _seed_conversation(app_env, user.id, "Aberta", 3)
    app = _app(session=opened)
    assert "Resposta 2" in "\n".join(m.value for m in app.markdown)
    with COMMANDS.record():
        app.run()  # a rerun of the open conversation, as after any widget change
    assert not app.exception, app.exception
    page = COMMANDS.page()
    assert len(page) <= 3, page
    assert page.count(("find", "session")) == 2  # the sidebar's list and the open document
    assert ("find", "inventory") in page  # the attachment picker's choices


def test_history_pages_through_many_plans_and_searches_in_the_database(app_env):
    user = app_env.users.get_or_create(1)
    plans = app_env.plans(user.id)
    for n in range(45):
        problem = "Caldeira a gás natural" if n % 10 == 0 else f"Frota diesel {n}"
        plans.save(
            AekoImprovementPlan(
                id_external_inventory=n, defined_problem=problem, method="m", reasoning="r"
            ),
            run_id=f"run-{n}",
        )
    history = _app("pages/history.py")
    assert len(_plans(history)) == 20
    older = next(b for b in history.button if b.key == "plans-older")
    older.click().run()
    older = next(b for b in history.button if b.key == "plans-older")
    older.click().run()
    assert not history.exception, history.exception
    assert len(_plans(history)) == 5  # 45 = 20 + 20 + 5
    assert next(b for b in history.button if b.key == "plans-older").disabled
    history.text_input(key="history-search").input("CALDEIRA A GAS").run()  # back to page 1
    assert len(_plans(history)) == 5
    assert "Caldeira a gás natural" in "\n".join(m.value for m in history.markdown)
    assert "Frota diesel" not in "\n".join(m.value for m in history.markdown)


def _plans(app: AppTest) -> list:
    """The plan expanders on the page (the compare expander aside)."""
    return [e for e in app.expander if e.label.startswith(("Plano", "Plan "))]


def test_plan_totals_are_kept_beside_the_plan_and_a_list_reads_no_actions(db_store):
    from application import history
    from application.outbox import Outbox
    from application.workspace import Workspace
    from engine.actions.model import PlanActions

    user = db_store.users.get_or_create(7)
    workspace = Workspace(db_store, user, Outbox(), None)
    saved = []
    for n in range(3):  # saved as older versions did: without totals (the lazy fallback)
        plan = db_store.plans(user.id).save(
            AekoImprovementPlan(
                id_external_inventory=n, defined_problem="p", method="m", reasoning="r"
            ),
            run_id=f"kept-{n}",
        )
        db_store.plan_actions(user.id).save(
            f"kept-{n}", n, PlanActions(inventory_tco2e=100.0, inventory_year=2024)
        )
        saved.append(plan)
    first = history.plans_page(workspace)
    assert [e.totals.actions for e in first.items] == [0, 0, 0] and not first.has_more
    assert all(e.actions is None for e in first.items)  # read on demand: with_actions
    kept = db_store.db.improvement_plan.count_documents({"actions_totals": {"$ne": None}})
    assert kept == 3
    history._actions.clear()  # a new process: nothing kept in memory
    with COMMANDS.record():
        again = history.plans_page(workspace)
    assert [e.totals for e in again.items] == [e.totals for e in first.items]
    assert COMMANDS.seen == [("find", "improvement_plan")]  # one query, no plan_actions
    [entry] = history.with_actions(workspace, again.items[:1])
    assert entry.actions is not None and entry.actions.inventory_tco2e == 100.0
