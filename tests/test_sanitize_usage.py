"""Every text a page draws as Markdown goes through one door: ``sanitize`` for what a model
or a user wrote, ``t`` for the interface's own words, or a helper listed below.

The test parses ``pages/`` and ``components/`` with ``ast`` and fails on a Streamlit call that
renders Markdown (``st.markdown``, ``st.error``... and the labels of buttons and expanders)
fed with an f-string or a variable it cannot trace to one of those. A name is traced through
its assignments in the same function (or module): it is safe when every value it is given
is; a function of the same module is traced through its ``return``s. Nothing here runs the
app."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted([*ROOT.glob("pages/*.py"), *ROOT.glob("components/*.py")])

# Calls whose first argument (or ``body``/``label``) Streamlit renders as Markdown.
RENDERS = {
    "markdown", "error", "warning", "info", "success", "caption", "write", "toast",
    "button", "expander", "popover", "download_button", "page_link", "link_button",
    "form_submit_button", "subheader", "header", "title", "tabs", "status",
}  # fmt: skip
TEXT_KEYWORDS = ("body", "label", "tabs", "help")

# Calls whose result is safe to render, and why.
SAFE_CALLS = {
    "sanitize": "the one door for untrusted text (application.safe_text)",
    "t": "the interface's own words (components.i18n); values passed in are checked apart",
    "tn": "components.i18n: t for a count, the count in the language's notation",
    "database_where": "components.database: t() with the data folder or hosts, no credentials",
    "number": "engine.formatting: digits, separators and a sign only",
    "money": "digits, separators and a currency sign only",
    "percent": "digits and a percent sign only",
    "len": "an integer",
    "round": "a number",
    "int": "a number",
    "float": "a number",
    "cost_text": "components.trail: token counts and a cost, numbers only",
    "model_display_name": "components.trail: a model id, through sanitize",
    "totals_line": "components.plan_card: numbers and t() words",
    "language": "'pt' or 'en'",
    "_t": "components.auth's own word table, as t",
    "explain_budget_error": "components.budget: t() words and LocalizedError.message",
    "safe_markdown": "components.plan_card: sanitize, then '$' made literal",
    "plan_title": "engine.protocol: the fixed titles of a plan's three sections",
    "str": "only ever of a number or an id here",
    "_word": "pages/history.py: the pager's fixed words, with a page number",
}
# Attributes read off objects whose text the app itself wrote, and why.
SAFE_ATTRIBUTES = {
    "message": "LocalizedError.message(lang): the app's own bilingual wording",
}


# Values put into t() under these names are numbers, dates or ids, never prose.
NUMERIC_KEYS = {
    "n", "number", "total", "attempt", "runs", "cost", "known", "used", "allowed", "year",
    "count", "low", "high", "mid", "size", "rows", "limit", "done", "turns", "covered",
    "date", "percent", "share", "value", "max", "min", "id", "tin", "tout", "ms", "delay",
    "seconds", "rewrite", "stated", "computed", "range",
}  # fmt: skip


# Values put into t() under these names are the app's own, and why.
APP_KEYS = {
    "where": "the database's folder or hosts from the settings (describe_target drops credentials)",
    "fast": "a model id from the settings",
    "slow": "a model id from the settings",
    "now": "a GWP set name from the loader's fixed list",
    "before": "a GWP set name from the loader's fixed list",
    "gwp": "a GWP set label from the loader's fixed list",
    "missing": "the plan fields the app's schema asked for (MalformedOutputError.missing)",
}


def _numeric(keyword: ast.keyword) -> bool:
    return keyword.arg in NUMERIC_KEYS or keyword.arg in APP_KEYS


def _calls(tree: ast.AST):
    drawers = {"st"} | _containers(tree)
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in RENDERS
            and _root(node.func) in drawers
        ):
            yield node


def _containers(tree: ast.AST) -> set[str]:
    """Names bound to what a Streamlit call returned (``status = st.status(...)``, ``with
    st.expander(...) as box``, ``left, right = st.columns(2)``): they draw as ``st`` does."""
    names: set[str] = set()

    def bind(target: ast.expr) -> None:
        if isinstance(target, ast.Name):
            names.add(target.id)
        elif isinstance(target, ast.Tuple | ast.List):
            for element in target.elts:
                bind(element)

    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and _root(node.value) == "st":
            for target in node.targets:
                bind(target)
        elif isinstance(node, ast.With):
            for item in node.items:
                if item.optional_vars is not None and _root(item.context_expr) == "st":
                    bind(item.optional_vars)
    return names


def _root(node: ast.expr) -> str | None:
    while isinstance(node, ast.Attribute | ast.Subscript):
        node = node.value
    if isinstance(node, ast.Call):
        return _root(node.func)
    return node.id if isinstance(node, ast.Name) else None


def _text_of(call: ast.Call) -> list[ast.expr]:
    found = [k.value for k in call.keywords if k.arg in TEXT_KEYWORDS]
    if call.args and not found:
        found.append(call.args[0])
    return found


class Scope:
    """The assignments of one function (or of the module), by name."""

    def __init__(self, node: ast.AST, parent: Scope | None = None) -> None:
        self.parent = parent
        self.module = parent.module if parent else id(node)
        self.values: dict[str, list[ast.expr | None]] = {}
        for child in _own_nodes(node):
            if isinstance(child, ast.Assign):
                for target in child.targets:
                    self._bind(target, child.value)
            elif (
                isinstance(child, ast.AnnAssign | ast.AugAssign) and child.value is not None
            ) or isinstance(child, ast.NamedExpr):
                self._bind(child.target, child.value)
            elif isinstance(child, ast.For | ast.comprehension):
                self._bind(child.target, None)  # a loop variable: not traced
            elif (
                isinstance(child, ast.Call)
                and isinstance(child.func, ast.Attribute)
                and child.func.attr in {"append", "extend", "insert"}
                and isinstance(child.func.value, ast.Name)
                and child.args
            ):  # a list grown item by item: each item is one of its values
                item = child.args[-1]
                if child.func.attr == "extend":  # extend(items): each item of ``items``
                    item = ast.Starred(value=item)
                self._bind(child.func.value, item)
            elif isinstance(child, ast.With):
                for item in child.items:
                    if item.optional_vars is not None:
                        self._bind(item.optional_vars, None)
        if isinstance(node, ast.FunctionDef | ast.Lambda):
            for arg in [*node.args.args, *node.args.kwonlyargs, *node.args.posonlyargs]:
                self.values.setdefault(arg.arg, []).append(None)

    def _bind(self, target: ast.expr, value: ast.expr | None) -> None:
        if isinstance(target, ast.Name):
            self.values.setdefault(target.id, []).append(value)
        elif isinstance(target, ast.Tuple | ast.List):
            values = value.elts if isinstance(value, ast.Tuple | ast.List) else None
            for n, element in enumerate(target.elts):  # a, b = x, y: element by element
                self._bind(
                    element, values[n] if values and len(values) == len(target.elts) else None
                )

    def lookup(self, name: str) -> list[ast.expr | None] | None:
        if name in self.values:
            return self.values[name]
        return self.parent.lookup(name) if self.parent else None


def _own_nodes(node: ast.AST):
    """The nodes of ``node``'s body, not those of the functions defined inside it."""
    stack = list(ast.iter_child_nodes(node))
    while stack:
        child = stack.pop()
        yield child
        if not isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            stack.extend(ast.iter_child_nodes(child))


def safe(node: ast.expr | None, scope: Scope, seen: frozenset[str] = frozenset()) -> bool:
    if node is None:
        return False
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.JoinedStr):
        return all(safe(part, scope, seen) for part in node.values)
    if isinstance(node, ast.FormattedValue):
        # A format spec (":.1f", ":%d/%m/%Y") formats a number or a date.
        return node.format_spec is not None or safe(node.value, scope, seen)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return safe(node.left, scope, seen) and safe(node.right, scope, seen)
    if isinstance(node, ast.BoolOp):
        return all(safe(value, scope, seen) for value in node.values)
    if isinstance(node, ast.IfExp):
        return safe(node.body, scope, seen) and safe(node.orelse, scope, seen)
    if isinstance(node, ast.Call):
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        if name == "join" and isinstance(func, ast.Attribute):
            return all(safe(arg, scope, seen) for arg in node.args) and safe(
                func.value, scope, seen
            )
        if name == "get" and isinstance(func, ast.Attribute):  # table.get(key, default)
            return safe(func.value, scope, seen) and all(
                safe(arg, scope, seen) for arg in node.args[1:]
            )
        if name == "sub" and isinstance(func, ast.Attribute) and len(node.args) == 2:
            return all(safe(arg, scope, seen) for arg in node.args)  # pattern.sub(new, text)
        if name == "t":  # the words are the app's; what is put into them is checked
            return all(safe(k.value, scope, seen) or _numeric(k) for k in node.keywords)
        if name in SAFE_CALLS or name in SAFE_ATTRIBUTES:
            return True
        if isinstance(func, ast.Name) and func.id in FUNCTIONS.get(scope.module, {}):
            marker = f"{func.id}()"
            if marker in seen:
                return True
            function = FUNCTIONS[scope.module][func.id]
            inner = Scope(function, _module_scope(scope))
            returns = [n.value for n in _own_nodes(function) if isinstance(n, ast.Return)]
            return bool(returns) and all(safe(r, inner, seen | {marker}) for r in returns)
        return False
    if isinstance(node, ast.GeneratorExp | ast.ListComp):
        return safe(node.elt, scope, seen)
    if isinstance(node, ast.DictComp):
        return safe(node.value, scope, seen)
    if isinstance(node, ast.List | ast.Tuple):
        return all(safe(element, scope, seen) for element in node.elts)
    if isinstance(node, ast.Starred):
        return safe(node.value, scope, seen)
    if isinstance(node, ast.Dict):
        return all(safe(value, scope, seen) for value in node.values)
    if isinstance(node, ast.Subscript):  # an item of a table whose every entry is safe
        return safe(node.value, scope, seen)
    if isinstance(node, ast.Name):
        if node.id in seen:
            return True
        values = scope.lookup(node.id)
        return bool(values) and all(safe(v, scope, seen | {node.id}) for v in values)
    return False


# The functions defined at the top of each module, by the module's id.
FUNCTIONS: dict[int, dict[str, ast.FunctionDef]] = {}


def _module_scope(scope: Scope) -> Scope:
    while scope.parent is not None:
        scope = scope.parent
    return scope


def findings(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    FUNCTIONS[id(tree)] = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    module = Scope(tree)
    scopes: dict[ast.AST, Scope] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            scopes[node] = Scope(node, module)
    found = []
    for function, scope in [(tree, module), *scopes.items()]:
        for child in _own_nodes(function) if function is not tree else _module_nodes(tree):
            if child in _calls_cache(tree):
                for text in _text_of(child):
                    if not safe(text, scope):
                        where = f"{path.relative_to(ROOT)}:{child.lineno}"
                        found.append(f"{where} st.{child.func.attr}({ast.unparse(text)})")
    return found


_CALLS: dict[int, set[ast.Call]] = {}


def _calls_cache(tree: ast.AST) -> set[ast.Call]:
    if id(tree) not in _CALLS:
        _CALLS[id(tree)] = set(_calls(tree))
    return _CALLS[id(tree)]


def _module_nodes(tree: ast.AST):
    return _own_nodes(tree)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_rendered_text_goes_through_sanitize_or_a_known_safe_helper(path):
    assert findings(path) == []


def test_the_checker_catches_what_it_must():
    source = """
import streamlit as st
def page(session, reasons):
    label = sanitize(session.name) or "—"
    st.button(label)
    st.error(f"Rejeitada: {reasons}")
    st.markdown(session.name)
    st.expander(f"{t('x')} · {len(session.messages)}")
    name = session.name
    st.caption(name)
"""
    tree = ast.parse(source)
    FUNCTIONS[id(tree)] = {}
    scope = Scope(tree.body[1], Scope(tree))
    verdicts = [all(safe(t, scope) for t in _text_of(c)) for c in _calls(tree)]
    assert verdicts == [True, False, False, True, False]
