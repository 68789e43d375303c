"""Cold start (issue #25): the shell and the chat input come before the slow parts, without
a cycle between the two modules that set a run up, and the database is still there before
anything reads or writes it.

The timings themselves are in bench/cold_start.py and docs/performance.md (no wall clock
here: the machine is shared)."""

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from store import StoreConfig, StoreUnavailableError, connect
from store import embedded as embedded_module
from store.embedded import process_alive, start_in_background, start_or_join
from tests.app_pages import TIMEOUT

ROOT = Path(__file__).resolve().parents[1]


def _imported(path: Path, *, module_level_only: bool) -> set[str]:
    """The absolute modules ``path`` imports when it runs (never those under
    ``if TYPE_CHECKING:``): at module level only, or in its functions too."""
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()

    def visit(node: ast.AST, in_function: bool) -> None:
        counted = not (module_level_only and in_function)
        if isinstance(node, ast.Import) and counted:
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0 and counted:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            return  # for the type checker only: never imported at run time
        for child in ast.iter_child_nodes(node):
            function = isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            visit(child, in_function or function)

    visit(tree, False)
    return names


def _cycle(first: Path, first_name: str, second: Path, second_name: str) -> bool:
    """Whether each module imports the other (at run time: module level or in a function)."""
    return second_name in _imported(first, module_level_only=False) and first_name in _imported(
        second, module_level_only=False
    )


def test_context_and_startup_import_each_other_one_way_only():
    context, startup = ROOT / "components/context.py", ROOT / "components/startup.py"
    assert "components.context" in _imported(startup, module_level_only=True)
    assert "components.startup" not in _imported(context, module_level_only=False)
    assert not _cycle(context, "components.context", startup, "components.startup")


def test_the_cycle_check_sees_an_import_inside_a_function(tmp_path):
    # The cycle this replaced: context imported startup inside current(), at run time.
    a, b = tmp_path / "a.py", tmp_path / "b.py"
    a.write_text("import streamlit\n\ndef current():\n    from pkg.b import start\n")
    b.write_text("from pkg.a import current\n")
    assert _cycle(a, "pkg.a", b, "pkg.b")
    b.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.a import x\n")
    assert not _cycle(a, "pkg.a", b, "pkg.b")


def test_a_fresh_interpreter_loads_the_context_without_the_startup():
    code = "import sys, components.context; print('components.startup' in sys.modules)"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "False"


def test_the_chat_page_draws_its_input_before_it_loads_the_use_cases_and_the_engine():
    # What a newcomer waits for on a cold start: the input, drawn before the modules of the
    # use cases, the engine and the store load and before the context waits for the database.
    tree = ast.parse((ROOT / "pages/chat.py").read_text())
    heavy = ("application", "engine", "store")
    order: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in heavy:
            order.append("heavy import")
        elif "st.chat_input(" in ast.unparse(node):
            order.append("input")
        elif "current()" in ast.unparse(node):
            order.append("context")
    assert "input" in order
    assert order.index("input") < order.index("heavy import")
    assert order.index("input") < order.index("context")


@pytest.fixture
def fresh_folder(tmp_path):
    folder = (tmp_path / "data").resolve()
    yield folder
    embedded_module._BACKGROUND.pop(folder, None)
    embedded_module._BACKGROUND_BEGUN.discard(folder)


def test_a_store_opened_after_a_background_start_uses_that_server_and_reads_its_writes(
    fresh_folder,
):
    start_in_background(fresh_folder)
    start_in_background(fresh_folder)  # a second rerun's call starts nothing more
    store = connect(StoreConfig(data_dir=fresh_folder, db="aeko_cold"))
    try:
        server = store.server
        assert server is not None and server.owned  # ours: stopped with the app, revived
        assert process_alive(server.pid)
        user = store.users.get_or_create(25)
        assert store.users.get_or_create(25).id == user.id
        # The folder's one server: a later start_or_join joins it rather than starting one.
        joined = start_or_join(fresh_folder)
        assert (joined.pid, joined.port) == (server.pid, server.port)
        assert not joined.owned
    finally:
        store.close()  # and stops the server it started


def test_a_background_start_that_failed_is_told_to_the_store_and_the_next_try_starts_anew(
    fresh_folder, monkeypatch
):
    def missing() -> str:
        raise StoreUnavailableError("secantusd-py not installed", embedded=True)

    monkeypatch.setattr(embedded_module, "_executable", missing)
    start_in_background(fresh_folder)
    with pytest.raises(StoreUnavailableError):
        start_or_join(fresh_folder)
    monkeypatch.undo()
    server = start_or_join(fresh_folder)  # the next rerun's attempt: a start of its own
    try:
        assert server.owned and process_alive(server.pid)
    finally:
        server.stop()


def test_a_question_asked_while_the_database_is_away_is_asked_once_it_answers(app_env, monkeypatch):
    # The input shows before the database answers; what is typed then is not lost.
    working = os.environ["MONGODB_URI"]
    monkeypatch.setenv("MONGODB_URI", "mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=300")
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT).run()
    assert app.chat_input and not app.exception
    app.chat_input[0].set_value("O que é escopo 1?").run()
    assert not app.exception
    assert not app.chat_message  # nothing answered, nothing saved: the database is away
    assert app.warning  # and the page says so

    monkeypatch.setenv("MONGODB_URI", working)
    # A rerun through app.py, as the server makes every one (AppTest reruns the page alone).
    app.switch_page("app.py").run()
    assert not app.exception, app.exception
    asked = [m for m in app.chat_message if m.name == "user"]
    assert [m.markdown[0].value for m in asked] == ["O que é escopo 1?"]
    assert app_env["session"].count_documents({}) == 1  # saved once the database answered
