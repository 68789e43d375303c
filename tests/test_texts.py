"""One way to write bilingual text (issue #25): every text a user reads in Portuguese or
English comes from an ``engine.texts.Texts`` table, and every table has both languages for
every key, with the same fields in both.

The source scan is what keeps it one way: a dict keyed by "pt" and "en" outside a table, or
a module-level name ending in ``_PT``/``_EN``, is a second way creeping back. Word lists the
offline analyst *recognises* questions by are not text anyone reads; they are listed in
``LEXICONS`` with why."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
from pathlib import Path

import pytest

from engine.texts import LANGS, Both, Texts, fields, lang_of, tables

ROOT = Path(__file__).resolve().parents[1]
ROOMS = ("engine", "application", "components", "store", "pages")

# (file, name assigned): vocabularies matched against what the user typed, per language.
# They hold words to recognise, not sentences to show, and need not say the same thing in
# both languages (each language has its own synonyms).
LEXICONS: dict[tuple[str, str], str] = {
    ("engine/offline/language.py", "_PT"): "words that tell a Portuguese question",
    ("engine/offline/language.py", "_EN"): "words that tell an English question",
    ("engine/offline/intent.py", "_STEMMERS"): "the stemmer of each language",
    ("engine/knowledge/search.py", "_QUESTION_WORDS"): "question words dropped from a search",
    ("engine/knowledge/search.py", "_STOPWORDS"): "stop words each language drops from a search",
    ("engine/knowledge/search.py", "_ALIASES"): "spellings a search folds into the entries' words",
    ("engine/knowledge/search.py", "_GAS_NAMES"): "gas names a search reads as their formula",
    ("engine/knowledge/search.py", "_STEMMER_NAMES"): "the Snowball stemmer of each language",
    ("engine/knowledge/search.py", "_FRAME"): "words every GHG question shares",
    ("engine/formatting.py", "LOCALES"): "the Babel locale of each language (not words)",
}


def _import_everything() -> None:
    for room in ("engine", "application", "components", "store"):
        package = importlib.import_module(room)
        for module in pkgutil.walk_packages(package.__path__, prefix=f"{room}."):
            importlib.import_module(module.name)


def test_every_table_has_both_languages_for_every_key_with_the_same_fields():
    _import_everything()
    found = tables()
    assert len(found) >= 3  # the interface, the engine's errors, the plan's words at least
    problems = []
    for name, table in found.items():
        for key, entry in table.items():
            if set(entry) != set(LANGS):
                problems.append(f"{name}.{key}: languages {sorted(entry)}")
                continue
            if not all(isinstance(entry[lang], str) and entry[lang].strip() for lang in LANGS):
                problems.append(f"{name}.{key}: an empty side")
            elif fields(entry["pt"]) != fields(entry["en"]):
                problems.append(
                    f"{name}.{key}: fields {fields(entry['pt'])} ≠ {fields(entry['en'])}"
                )
    assert not problems, "\n".join(problems)


def _assigned_name(parents: list[ast.AST]) -> str | None:
    for node in reversed(parents):
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            return node.targets[0].id
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            return node.target.id
    return None


def _inside_table(parents: list[ast.AST]) -> bool:
    return any(
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name | ast.Attribute)
        and (node.func.id if isinstance(node.func, ast.Name) else node.func.attr) == "Texts"
        for node in parents
    )


def _writes_words_in_both(node: ast.AST) -> bool:
    """``Both("Atividade desconhecida…", f"Unknown …")``: sentences bypassing a table. A
    Both of values (a number in each notation, a name read from data) is fine."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
        return False
    if node.func.id != "Both":
        return False
    for argument in [*node.args, *(k.value for k in node.keywords)]:
        parts = argument.values if isinstance(argument, ast.JoinedStr) else [argument]
        for part in parts:
            if (
                isinstance(part, ast.Constant)
                and isinstance(part.value, str)
                and re.search(r"[^\W\d_]{3,}", part.value)
            ):
                return True
    return False


_LANG_NAME = re.compile(r"(^|_)(lang|language)$", re.IGNORECASE)


def _is_lang(node: ast.AST) -> bool:
    """``lang``, ``user_language``, ``self.lang``, ``language()``, ``lang_of(x)``: what holds
    or reads the reader's language."""
    if isinstance(node, ast.Call):
        return _is_lang(node.func) or (
            isinstance(node.func, ast.Name) and node.func.id == "lang_of"
        )
    if isinstance(node, ast.Name):
        return bool(_LANG_NAME.search(node.id))
    if isinstance(node, ast.Attribute):
        return bool(_LANG_NAME.search(node.attr))
    return False


def _tests_language(test: ast.AST) -> bool:
    """``lang == "pt"``, ``"en" != language``, ``x.lang == "en"``."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return False
    if not isinstance(test.ops[0], ast.Eq | ast.NotEq):
        return False
    left, right = test.left, test.comparators[0]
    for name, code in ((left, right), (right, left)):
        if _is_lang(name) and isinstance(code, ast.Constant) and code.value in LANGS:
            return True
    return False


def _strings(node: ast.AST) -> list[str]:
    """The string constants an expression writes, its f-strings' and its calls' arguments
    too (``text.replace("Escopo ", "Scope ")`` rewrites words), but not a subscript's key
    (``row["label_en"]`` reads data)."""
    if isinstance(node, ast.Constant):
        return [node.value] if isinstance(node.value, str) else []
    if isinstance(node, ast.Subscript):
        return _strings(node.value)
    return [text for child in ast.iter_child_nodes(node) for text in _strings(child)]


def _has_words(node: ast.AST) -> bool:
    """A word of two letters or more ("Escopo", "de"), not a number format ("," "."), a
    language ("en"), a locale code ("pt_BR") or a date's format ("DD/MM/YYYY")."""
    for text in _strings(node):
        if text in LANGS or re.fullmatch(r"[DMY]+([/.-][DMY]+)*", text):
            continue
        without_locales = re.sub(r"\b[a-z]{2}[_-][A-Z]{2}\b", "", text)
        if re.search(r"[^\W\d_]{2,}", without_locales):
            return True
    return False


def _words_by_language(node: ast.AST) -> bool:
    """``"Escopo" if lang == "pt" else "Scope"``: a sentence picked by language outside a
    table."""
    return (
        isinstance(node, ast.IfExp)
        and _tests_language(node.test)
        and (_has_words(node.body) or _has_words(node.orelse))
    )


def _second_ways(path: Path) -> list[str]:
    return _second_ways_in(path.relative_to(ROOT).as_posix(), path.read_text(encoding="utf-8"))


def _second_ways_in(relative: str, source: str) -> list[str]:
    found: list[str] = []

    def visit(node: ast.AST, parents: list[ast.AST]) -> None:
        if isinstance(node, ast.Dict):
            keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
            if set(LANGS) <= keys and not _inside_table(parents):
                name = _assigned_name(parents)
                if (relative, name) not in LEXICONS:
                    found.append(f"{relative}:{node.lineno} a pt/en dict ({name})")
        if _writes_words_in_both(node) and not relative.startswith("engine/texts"):
            found.append(f"{relative}:{node.lineno} words written in a Both, not a table")
        if _words_by_language(node):
            found.append(f"{relative}:{node.lineno} words picked by `if lang ==`, not a table")
        if isinstance(node, ast.Assign | ast.AnnAssign) and not parents[1:]:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if (
                    isinstance(target, ast.Name)
                    and re.search(r"(^|_)(PT|EN)$", target.id)
                    and (relative, target.id) not in LEXICONS
                ):
                    found.append(f"{relative}:{node.lineno} a per-language name {target.id}")
        for child in ast.iter_child_nodes(node):
            visit(child, [*parents, node])

    visit(ast.parse(source), [])
    return found


@pytest.mark.parametrize("room", ROOMS)
def test_no_room_writes_bilingual_text_a_second_way(room):
    found = [hit for path in sorted((ROOT / room).rglob("*.py")) for hit in _second_ways(path)]
    assert not found, "\n".join(found)


def test_the_scan_finds_words_picked_by_a_language_test():
    source = """
a = "Escopo" if lang == "pt" else "Scope"
b = f"{n} de {gas}" if "en" != user_language else f"{n} of {gas}"
c = "Total" if self.lang == "en" else 0
sep = "," if lang == "pt" else "."
locale = "pt_BR" if language == "pt" else "en_US"
d = "Escopo" if kind == "pt" else "Scope"
other = "en" if lang == "pt" else "pt"
label = row["label_en"] if lang == "en" else row["label"]
date_format = "DD/MM/YYYY" if language() == "pt" else "YYYY-MM-DD"
unit = f"t CO2e/{'yr' if language() == 'en' else 'ano'}"
f = "Escopo" if lang_of(user) == "pt" else "Scope"
e = text.replace("Escopo ", "Scope ") if lang == "en" else text
"""
    found = _second_ways_in("sample.py", source)
    assert [hit.split(" ", 1)[0] for hit in found] == [
        "sample.py:2",
        "sample.py:3",
        "sample.py:4",
        "sample.py:11",
        "sample.py:12",
        "sample.py:13",
    ]
    assert all("if lang ==" in hit for hit in found)


def test_a_table_writes_each_language_and_picks_each_side_of_a_value():
    table = Texts("test-sample", {"n": {"pt": "{n} t de {gas}", "en": "{n} t of {gas}"}})
    both = table.both("n", n=Both("1,5", "1.5"), gas="CO2")
    assert both == Both("1,5 t de CO2", "1.5 t of CO2")
    assert table("n", "pt-BR", n=Both("2,0", "2.0"), gas="CH4") == "2,0 t de CH4"
    assert lang_of("EN") == "en" and lang_of("pt_BR") == "pt" and lang_of(None) == "pt"


def test_two_modules_cannot_share_a_table_name_but_a_module_imported_again_may():
    Texts("test-once", {"a": {"pt": "um", "en": "one"}})
    again = Texts("test-once", {"a": {"pt": "uma", "en": "one"}})  # this module, reloaded
    assert tables()["test-once"] is again and again("a", "pt") == "uma"
    other = compile('Texts("test-once", {})', "elsewhere.py", "eval")
    with pytest.raises(ValueError, match="exists already"):
        eval(other, {"Texts": Texts, "__name__": "elsewhere"})


def test_fields_are_read_as_str_format_reads_them():
    assert fields("{n:,} de {gas} em {where[0]} {{literal}}") == {"n", "gas", "where"}
