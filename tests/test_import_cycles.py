"""The GWPs sit below what reads them, and the estimate's modules depend one way.

engine.inventory imports engine.emissions (its loader computes activity data), and both read
the GWPs: so the GWPs live in engine.gases, which imports neither, and engine.emissions never
reaches engine.inventory while it is imported. Cycles used to be hidden by imports inside
functions (the calculator's ``gwp``, ``Estimate.explain``): none is left in engine/emissions,
and engine/measures reads the GWPs at module level. Checked on the source (module-level
imports, not those under ``if TYPE_CHECKING``) and by importing in each order in a fresh
interpreter.
"""

from __future__ import annotations

import ast
import itertools
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine.emissions", "engine.inventory", "engine.gases.gwp")
# Modules each package may never load while it is imported, directly or through another.
NEVER_REACHES = {
    "engine.gases": ("engine.emissions", "engine.inventory", "engine.measures"),
    "engine.emissions": ("engine.inventory", "engine.measures"),
}


def _module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(node: ast.stmt) -> bool:
    test = node.test if isinstance(node, ast.If) else None
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imported(node: ast.Import | ast.ImportFrom, known: set[str]) -> set[str]:
    """The engine modules an import statement loads: ``from a import b`` loads ``a.b`` when
    that is a module, else ``a``."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names if alias.name in known}
    if node.level or not node.module:
        return set()
    subs = {f"{node.module}.{alias.name}" for alias in node.names}
    found = subs & known
    return found if found else ({node.module} & known)


def _statements(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements run when the module is imported: into ifs and trys, never into the
    bodies of functions and classes' methods, nor into ``if TYPE_CHECKING``."""
    out: list[ast.stmt] = []
    for node in body:
        if isinstance(node, ast.If):
            if not _is_type_checking(node):
                out += _statements(node.body) + _statements(node.orelse)
        elif isinstance(node, ast.Try):
            handlers = [s for h in node.handlers for s in h.body]
            out += _statements(node.body + handlers + node.orelse + node.finalbody)
        elif isinstance(node, ast.ClassDef):
            out += _statements(node.body)
        elif not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            out.append(node)
    return out


def _graph(root: Path) -> dict[str, set[str]]:
    """Module -> the modules its import runs (their parent packages too: importing
    ``a.b.c`` runs ``a/__init__`` and ``a/b/__init__`` first)."""
    paths = {_module_name(p, root): p for p in sorted((root / "engine").rglob("*.py"))}
    known = set(paths)
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        targets: set[str] = set()
        for node in _statements(tree.body):
            if isinstance(node, ast.Import | ast.ImportFrom):
                targets |= _imported(node, known)
        parents = {".".join(t.split(".")[:i]) for t in targets for i in range(1, t.count(".") + 1)}
        graph[name] = ((targets | parents) & known) - {name}
    return graph


def _reach(graph: dict[str, set[str]], start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for nxt in graph.get(todo.pop(), set()) - seen:
            seen.add(nxt)
            todo.append(nxt)
    return seen


def _cycles(graph: dict[str, set[str]], prefixes: tuple[str, ...]) -> list[list[str]]:
    """Each module of ``prefixes`` that its own imports lead back to, with the way back.
    A package's ``__init__`` importing its submodules is no cycle: Python runs the package
    first, and a submodule's implied parent is left out here."""
    inside = {m for m in graph if m.startswith(prefixes)}

    def explicit(module: str) -> set[str]:
        return {t for t in graph[module] & inside if not module.startswith(t + ".")}

    found = []
    for start in sorted(inside):
        paths, seen = [[start]], {start}
        while paths:
            path = paths.pop()
            for nxt in sorted(explicit(path[-1])):
                if nxt == start:
                    found.append([*path, start])
                elif nxt not in seen:
                    seen.add(nxt)
                    paths.append([*path, nxt])
    return found


def _function_imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            for node in ast.walk(function):
                if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    found.append((node.lineno, node.module))
                elif isinstance(node, ast.Import):
                    found += [(node.lineno, alias.name) for alias in node.names]
    return found


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return _graph(ROOT)


@pytest.mark.parametrize("package", sorted(NEVER_REACHES))
def test_importing_a_lower_package_never_loads_what_reads_it(graph, package):
    modules = [m for m in graph if m == package or m.startswith(package + ".")]
    assert modules
    for module in modules:
        bad = sorted(m for m in _reach(graph, module) if m.startswith(NEVER_REACHES[package]))
        assert not bad, f"importing {module} loads {bad}"


def test_the_estimate_and_the_gases_modules_form_no_cycle(graph):
    assert "engine.emissions.explain" in _reach(graph, "engine.emissions.results")
    assert _cycles(graph, ("engine.emissions", "engine.gases")) == []


def test_emissions_and_measures_import_the_gases_at_module_level():
    for path in sorted((ROOT / "engine" / "emissions").glob("*.py")):
        inside = [(n, m) for n, m in _function_imports(path) if m.startswith("engine")]
        assert not inside, f"{path.relative_to(ROOT)} imports inside functions: {inside}"
    for path in sorted((ROOT / "engine" / "measures").glob("*.py")):
        gases = [(n, m) for n, m in _function_imports(path) if m.startswith("engine.gases")]
        assert not gases, f"{path.relative_to(ROOT)} imports the GWPs inside functions: {gases}"


def test_the_checker_sees_a_cycle_and_a_function_level_import(tmp_path):
    package = tmp_path / "engine" / "emissions"
    package.mkdir(parents=True)
    (tmp_path / "engine" / "__init__.py").write_text("")
    (package / "__init__.py").write_text("from engine.emissions.a import x\n")
    (package / "a.py").write_text("from engine.emissions.b import y\nx = 1\n")
    (package / "b.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from engine.emissions.c import z\n"
        "from engine.emissions import a\ny = 2\n"
        "def f():\n    from engine.gases.gwp import gwp\n"
    )
    (package / "c.py").write_text("from engine.emissions.b import y\nz = 3\n")
    graph = _graph(tmp_path)
    assert _cycles(graph, ("engine.emissions",)) == [
        ["engine.emissions.a", "engine.emissions.b", "engine.emissions.a"],
        ["engine.emissions.b", "engine.emissions.a", "engine.emissions.b"],
    ]  # c -> b is no cycle: b reads c only under TYPE_CHECKING
    assert _function_imports(package / "b.py") == [(7, "engine.gases.gwp")]


@pytest.mark.parametrize("order", list(itertools.permutations(PACKAGES)), ids="-".join)
def test_the_packages_import_in_any_order_in_a_fresh_interpreter(order):
    code = (
        "import importlib, sys\n"
        f"for name in {list(order)!r}:\n"
        "    importlib.import_module(name)\n"
        "from engine.emissions import estimate\n"
        "from engine.gases.gwp import gwp\n"
        # R-410A is half HFC-32 (AR5: 677) and half HFC-125 (3170) by mass (ASHRAE 34).
        "print(estimate('R-410A', 1000, 'kg', date_or_year=2024).tco2e, gwp('R-410A', 'AR5'))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    tco2e, value = map(float, done.stdout.split())
    assert value == pytest.approx(0.5 * 677 + 0.5 * 3170)
    assert tco2e == pytest.approx(value)  # 1000 kg = 1 t, times its GWP


@pytest.mark.parametrize(
    ("module", "package"),
    [("engine.gases.gwp", "engine.gases"), ("engine.emissions", "engine.emissions")],
)
def test_a_fresh_import_loads_nothing_above_it(module, package):
    code = (
        f"import sys, {module}\n"
        f"print(sorted(m for m in sys.modules if m.startswith({NEVER_REACHES[package]!r})))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
