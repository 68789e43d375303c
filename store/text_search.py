"""Accent- and case-insensitive search in the database, as ``engine.protocol.fold`` matches.

SecantusDB has no ``$text``; a ``$regex`` does the same job on both servers. The folded query
becomes a pattern where each letter stands for all its accented forms (``a`` ->
``[aáàâãäå...]``) and each run of spaces for any run of white space; ``$options: "i"`` makes it
case-insensitive. The pattern is escaped: a user's ``(`` or ``*`` is a character, not syntax.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from engine.protocol import fold

# The Latin letters a Portuguese, Spanish or English text may carry, with their accents.
_LATIN = "".join(chr(code) for code in range(0x20, 0x250))


@cache
def _variants() -> dict[str, str]:
    """Each folded letter and every character of ``_LATIN`` that folds to it."""
    found: dict[str, list[str]] = {}
    for char in _LATIN:
        folded = fold(char)
        if len(folded) == 1:
            found.setdefault(folded, []).append(char)
    return {base: "".join(chars) for base, chars in found.items()}


def accent_pattern(query: str) -> str | None:
    """The regex for ``query``, or None when it has nothing to search for."""
    wanted = fold(query)
    if not wanted:
        return None
    variants = _variants()
    parts = []
    for char in wanted:
        if char == " ":
            parts.append(r"\s+")
        elif char in variants and len(variants[char]) > 1:
            parts.append("[" + "".join(re.escape(c) for c in variants[char]) + "]")
        else:
            parts.append(re.escape(char))
    return "".join(parts)


def matching(query: str, fields: tuple[str, ...]) -> dict[str, Any]:
    """A filter matching ``query`` in any of ``fields`` ({} when the query is blank)."""
    pattern = accent_pattern(query)
    if pattern is None:
        return {}
    return {"$or": [{field: {"$regex": pattern, "$options": "i"}} for field in fields]}
