"""The one way text is written in two languages (issue #25): a table of keys, each key
``{"pt": ..., "en": ...}`` with ``str.format`` fields, declared as ``Texts(name, {...})``.

Every table registers itself under its name, so one test (``tests/test_texts.py``) checks all
of them: both languages for every key, neither empty, the same fields in both. A value that
is itself said differently in each language (a number in its own notation, an activity's
name) is passed as ``Both``; a table picks the side of the language it writes.

Errors for the user (``engine.errors.LocalizedError``) carry a ``Both`` made from a table, so
an exception, a page label and an export's word are written, checked and looked up alike.
Why not gettext/Babel catalogues: the texts are few hundred lines per room, reviewed beside
the code that uses them, and the product ships no third language yet; a table is plain
Python that a catalogue could be generated from when one comes.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from string import Formatter
from typing import Literal

Lang = Literal["pt", "en"]
LANGS: tuple[Lang, Lang] = ("pt", "en")

_REGISTRY: dict[str, Texts] = {}


def lang_of(language: str | None) -> Lang:
    """``"pt"``, ``"pt-BR"``, ``"PT"`` -> ``"pt"``; anything else -> ``"en"``."""
    return "pt" if (language or "pt").lower().startswith("pt") else "en"


@dataclass(frozen=True)
class Both:
    """One thing said in each language."""

    pt: str
    en: str

    def __getitem__(self, lang: str) -> str:
        return self.pt if lang_of(lang) == "pt" else self.en

    def __add__(self, other: Both | str) -> Both:
        if isinstance(other, str):
            return Both(self.pt + other, self.en + other)
        return Both(self.pt + other.pt, self.en + other.en)

    def __radd__(self, other: str) -> Both:
        return Both(other + self.pt, other + self.en)

    def map(self, function: object) -> Both:
        """Both sides through ``function`` (a ``str -> str``)."""
        return Both(function(self.pt), function(self.en))  # type: ignore[operator]

    @staticmethod
    def join(separator: Both | str, items: list[Both]) -> Both:
        sep = separator if isinstance(separator, Both) else Both(separator, separator)
        return Both(sep.pt.join(i.pt for i in items), sep.en.join(i.en for i in items))


def fields(template: str) -> set[str]:
    """The names of a template's ``{fields}`` (``{n:,}`` -> ``n``)."""
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in Formatter().parse(template)
            if name}  # fmt: skip


class Texts(Mapping[str, Mapping[str, str]]):
    """A named table of texts. ``texts(key, lang, **values)`` writes one; ``texts.both(key,
    **values)`` writes it in both languages (what an error carries)."""

    def __init__(self, name: str, table: Mapping[str, Mapping[str, str]]) -> None:
        # The module declaring it: the same module imported again (Streamlit's watcher
        # reloads an edited file) replaces its table; another module may not take the name.
        owner = sys._getframe(1).f_globals.get("__name__", "")
        known = _REGISTRY.get(name)
        if known is not None and known.owner != owner:
            raise ValueError(f"a text table named {name!r} exists already ({known.owner})")
        self.name, self.owner = name, owner
        self._table = {key: dict(value) for key, value in table.items()}
        _REGISTRY[name] = self

    def __getitem__(self, key: str) -> Mapping[str, str]:
        return self._table[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._table)

    def __len__(self) -> int:
        return len(self._table)

    def __call__(self, key: str, lang: str, /, **values: object) -> str:
        side = lang_of(lang)
        template = self._table[key][side]
        if not values:
            return template
        picked = {k: (v[side] if isinstance(v, Both) else v) for k, v in values.items()}
        return template.format(**picked)

    def both(self, key: str, /, **values: object) -> Both:
        return Both(self(key, "pt", **values), self(key, "en", **values))


def tables() -> dict[str, Texts]:
    """Every table declared so far (a module's table exists once the module is imported)."""
    return dict(_REGISTRY)
