"""The layering the README promises, checked on every module's imports.

Arrows point down: pages → components → application → engine / store. The engine is a
library (no Streamlit, no database, no environment); the store persists the engine's DTOs;
the application layer holds the use cases and never draws; pages reach the store only
through its public face (``store`` and ``store.errors``), never its repositories or client.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
UI = {"streamlit", "components", "pages", "app"}

# Each room, and the imports (by dotted prefix) it may never make.
FORBIDDEN = {
    "engine": UI | {"pymongo", "bson", "gridfs", "dotenv", "store", "settings", "application"},
    "store": UI | {"application", "settings"},
    "application": UI | {"settings"},
}
# What the store may take from the engine: its DTOs (the collections' and the plan's computed
# actions, pure pydantic) and its errors, nothing that runs.
# Two pure exceptions, so the store and the engine never disagree: the price table (a usage
# record written before a model's price was known is estimated by the caps' own rule) and
# fold (the history search in the database folds text as the application's matcher does).
STORE_MAY_IMPORT_FROM_ENGINE = {
    "engine.dto", "engine.actions.model", "engine.errors", "engine.pricing", "engine.protocol",
    "engine.texts",  # the one way its errors write both languages
}  # fmt: skip
# Pages talk to the store only through its package root and its errors.
PAGE_STORE_IMPORTS = {"store", "store.errors"}


def _modules(room: str) -> list[Path]:
    found = sorted((ROOT / room).rglob("*.py")) if (ROOT / room).is_dir() else []
    assert found, f"no modules in {room}/"
    return found


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def _hits(name: str, prefixes: set[str]) -> bool:
    return any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes)


@pytest.mark.parametrize("room", sorted(FORBIDDEN))
def test_each_room_imports_only_what_lies_below_it(room):
    for path in _modules(room):
        bad = {name for name in _imports(path) if _hits(name, FORBIDDEN[room])}
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_the_store_takes_only_dtos_and_errors_from_the_engine():
    for path in _modules("store"):
        engine = {name for name in _imports(path) if _hits(name, {"engine"})}
        assert engine <= STORE_MAY_IMPORT_FROM_ENGINE, f"{path.relative_to(ROOT)}: {engine}"


def _store_internals(path: Path) -> set[str]:
    return {n for n in _imports(path) if _hits(n, {"store"}) and n not in PAGE_STORE_IMPORTS}


def test_pages_never_reach_into_the_store():
    for path in _modules("pages"):
        inside = _store_internals(path)
        assert not inside, f"{path.relative_to(ROOT)} imports {sorted(inside)}"


def test_pages_and_components_never_run_the_engine_themselves():
    # Runs start in the application layer, which persists before and after them.
    runners = {"AekoMessenger", "AekoInventoryAnalyzer"}
    for room in ("pages", "components"):
        for path in _modules(room):
            source = path.read_text()
            used = {name for name in runners if name in source}
            assert not used, f"{path.relative_to(ROOT)} runs {sorted(used)} directly"


def test_the_checker_sees_a_forbidden_import(tmp_path):
    # The rules above are only as good as the parser under them.
    module = tmp_path / "bad.py"
    module.write_text(
        "import streamlit as st\nfrom store.client import Store\nfrom store import StoreError\n"
        "from . import sibling\n"
    )
    assert _imports(module) == {"streamlit", "store.client", "store"}
    assert _hits("streamlit", FORBIDDEN["engine"]) and not _hits("streamlit_x", {"streamlit"})
    assert _store_internals(module) == {"store.client"}


def test_engine_reads_no_environment():
    for path in _modules("engine"):
        source = path.read_text()
        for needle in ("os.environ", "getenv(", "load_dotenv"):
            assert needle not in source, f"{path} reads the environment ({needle})"
