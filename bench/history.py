"""History and chat at scale, through Streamlit's AppTest on the embedded server.

    .venv/bin/python -m bench.history [--plans 200] [--conversations 50] [--repeat 3]

    .venv/bin/python -m bench.history --without-totals  # plans saved by older versions

Seeds one user with ``--plans`` saved plans, each with its computed actions (the sample
inventory's, as ``plan_actions`` keeps them), saved through the outbox's writes as an analysis
saves them (``Write.plan`` with the plan's totals, then ``Write.plan_actions``), and
``--conversations`` conversations of six turns. With ``--without-totals`` the plans are saved
without their totals, as older versions did: the first listing of each page then reads the
page's plan actions and keeps their totals. Then times, in seconds (first and best of
``--repeat``): opening History from a new browser session, one keystroke in its search box (a
new query typed: "caldeira"), the next page of plans, and a rerun of the chat page with a
conversation open. Counts the database round trips of each with a pymongo
``CommandListener`` (of the first and of the last repeat). Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import threading
import time
from pathlib import Path

from pymongo import monitoring

ROOT = Path(__file__).resolve().parents[1]
PROBLEM = "Em 2024 a empresa emitiu 48.976,6 t CO₂e (AR5); o gás natural das caldeiras pesa 78%. "
METHOD = "### Metas\n" + "\n".join(f"{i}. Fonte {i}: meta → redução" for i in range(1, 12))
REASONING = "As medidas somam 1.200 a 1.800 t CO₂e por ano, com custo conhecido. " * 12
ANSWER = "O diesel da frota responde por 38% do escopo 1 (1.240 t CO2e, AR5). " * 6


class Commands(monitoring.CommandListener):
    def __init__(self) -> None:
        self.count = 0
        self.names: list[str] = []
        self.recording = False
        self._lock = threading.Lock()

    def started(self, event: monitoring.CommandStartedEvent) -> None:
        if self.recording:
            target = event.command.get(event.command_name)
            with self._lock:
                self.count += 1
                self.names.append(
                    f"{event.command_name} {target if isinstance(target, str) else ''}".strip()
                )

    def succeeded(self, event) -> None:
        pass

    def failed(self, event) -> None:
        pass


COMMANDS = Commands()


def seed(store, plans: int, conversations: int, *, totals: bool = True) -> str:
    """The last conversation's id, after saving the plans (with actions) and conversations."""
    from application.history import stored_totals
    from application.outbox import Write
    from application.planning import default_target, plan_inputs
    from assets import SAMPLE_COSTS_PATH, SAMPLE_NAME, SAMPLE_PATH
    from engine import AekoImprovementPlan, AekoMessage
    from engine.actions import build_plan_actions
    from engine.dto import utc_now
    from engine.inventory import load_inventory

    inventory = load_inventory(SAMPLE_PATH.read_bytes(), filename=SAMPLE_NAME)
    costs = (SAMPLE_COSTS_PATH.name, SAMPLE_COSTS_PATH.read_bytes())
    inputs = plan_inputs(inventory, default_target(inventory), costs=costs)
    actions = build_plan_actions(inventory, target=inputs.target, costs=inputs.costs)
    user = store.users.get_or_create(1)
    kept = stored_totals(actions) if totals else None
    for n in range(plans):
        run_id = f"plan-{n}"
        problem = ("Caldeira a gás natural. " if n % 20 == 0 else f"Frota {n}. ") + PROBLEM
        plan = AekoImprovementPlan(
            id_external_inventory=n + 1, defined_problem=problem, method=METHOD,
            reasoning=REASONING,
        )  # fmt: skip
        # The writes an analysis submits, applied as the outbox applies them.
        Write.plan(user.id, plan, run_id, kept).apply(store)
        Write.plan_actions(user.id, run_id, n + 1, actions).apply(store)
    sessions = store.sessions(user.id)
    for n in range(conversations):
        session = sessions.create(f"Conversa {n}: escopo {n % 3 + 1}")
        for turn in range(6):
            run_id = f"chat-{n}-{turn}"
            sessions.begin_turn(session.id, run_id, f"Pergunta {turn}?")
            message = AekoMessage(
                input=f"Pergunta {turn}?", output=ANSWER, llm="bench", submitted_at=utc_now()
            )
            sessions.complete_turn(session.id, run_id, message, {"cost_usd": 0.001})
    return str(session.id)


def _step(action, repeat: int, prepare=None) -> dict:
    """Time ``action`` (which returns the AppTest it ran) and count its round trips;
    ``prepare`` runs before each, untimed."""
    timings = []
    trips = 0
    names: list[str] = []
    first: list[str] = []
    for n in range(repeat):
        if prepare is not None:
            prepare()
        COMMANDS.count, COMMANDS.names = 0, []
        COMMANDS.recording = True
        started = time.perf_counter()
        app = action()
        timings.append(time.perf_counter() - started)
        COMMANDS.recording = False
        trips, names = COMMANDS.count, COMMANDS.names
        if n == 0:
            first = names
        if app.exception:
            raise SystemExit(f"the page failed: {app.exception}")
    return {
        "first_s": round(timings[0], 3),
        "best_s": round(min(timings), 3),
        "first_round_trips": len(first),
        "first_commands": first,
        "round_trips": trips,
        "commands": names,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--plans", type=int, default=200)
    parser.add_argument("--conversations", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--without-totals", action="store_true", help="save the plans as older versions did"
    )
    args = parser.parse_args()
    monitoring.register(COMMANDS)  # before any client is created

    from streamlit.testing.v1 import AppTest

    from bench.scratch import scratch_store

    uri = os.environ.get("MONGODB_URI") or None
    with scratch_store("history") as (store, data_dir):
        started = time.perf_counter()
        last_session = seed(store, args.plans, args.conversations, totals=not args.without_totals)
        seeded = round(time.perf_counter() - started, 1)
        os.environ.update(
            MONGODB_URI=uri or store.server.uri,
            MONGODB_DB=store.db.name,
            AEKO_DATA_DIR=str(data_dir),
        )
        os.environ.pop("GEMINI_API_KEY", None)
        os.environ.pop("GOOGLE_API_KEY", None)

        def fresh() -> AppTest:
            app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600)
            app.run()  # the chat page, as a browser lands on the app
            return app

        results: dict[str, object] = {
            "plans": args.plans,
            "conversations": args.conversations,
            "plans_saved_with_totals": not args.without_totals,
            "seed_s": seeded,
        }
        holder: dict[str, AppTest] = {}

        def land() -> None:
            holder["app"] = fresh()

        def open_history() -> AppTest:
            return holder["app"].switch_page("pages/history.py").run()

        # A new browser session lands on the chat page (untimed), then opens History.
        results["history_open"] = _step(open_history, args.repeat, prepare=land)
        words = iter(["caldeira", "caldeiras", "caldeir", "frota", "gas natural"] * args.repeat)

        def keystroke() -> AppTest:
            app = holder["app"]
            return app.text_input(key="history-search").input(next(words)).run()

        results["history_search_keystroke"] = _step(keystroke, args.repeat)
        holder["app"].text_input(key="history-search").input("").run()

        def older() -> AppTest:
            app = holder["app"]
            button = next((b for b in app.button if b.key == "plans-older"), None)
            if button is None or button.disabled:  # at the last page: start over
                app.session_state["history-page-plans"] = 0
                return app.run()
            return button.click().run()

        if any(b.key == "plans-older" for b in holder["app"].button):
            results["history_older_page"] = _step(older, args.repeat)

        chat = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600)
        chat.query_params["session"] = last_session
        chat.run()
        results["chat_rerun_open_conversation"] = _step(chat.run, args.repeat)
        print(json.dumps(results, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
