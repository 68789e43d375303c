"""Portuguese or English, from the words of a message (or the user's stated preference)."""

from __future__ import annotations

import re
from typing import Literal

from engine.protocol import fold

Language = Literal["pt", "en"]

_PT = frozenset(
    "que qual quais como onde quando porque por para com sem uma um os as do da dos das no na "
    "nos nas ao aos meu minha nossa nosso nossos nossas e o a de em se mais menos muito sao "
    "esta estao isso isto ser tem temos fazer reduzir emissoes gases plano empresa "
    "diferenca entre escopo voce voces pode podem devo explique conta contam foram foi "
    "quem quanto quantos quantas ha seu sua seus suas".split()
)
_EN = frozenset(
    "the what which how where when why for with without an a of in on to is are do does our "
    "my we can should could and or more less much this that these those be have has make "
    "reduce emissions gases plan company difference between scope you your explain counts "
    "count does did were was who whose there their it its much many".split()
)
# Short words both languages write ("a", "as", "do", "no"...) tell nothing either way.
_AMBIGUOUS = _PT & _EN | {"as", "do", "no", "on", "me", "se"} & (_PT | _EN)
_PT = _PT - _AMBIGUOUS
_EN = _EN - _AMBIGUOUS
# Spellings one language has and the other lacks, for a message whose function words tie
# ("Process heat electrification", "Fossil share B14"): English th/sh/w/y/k, -tion, -ing;
# Portuguese nh/lh, -ção/-ções (folded -cao/-coes), -ão.
_EN_SPELLING = re.compile(r"th|sh|w|y|k|tion$|ing$|ness$|ee|oo")
_PT_SPELLING = re.compile(r"nh|lh|cao$|coes$|ao$|oes$|ii|qu[ei]")
_PREFERENCE = re.compile(r"(idioma|lingua|language)[^:\n]*:\s*(?P<value>[^\n]+)", re.IGNORECASE)


def detect_language(text: str, default: Language = "pt") -> Language:
    return told_language(text) or default


def told_language(text: str) -> Language | None:
    """The text's language from words only one language uses; None when they tie."""
    words = re.findall(r"[a-z]+", fold(text))
    pt = sum(word in _PT for word in words)
    en = sum(word in _EN for word in words)
    # ã, õ, ç break a tie only: an English question names Brazilian places and plants
    # ("the boilers at Maceió", "our São Luís plant") in their own spelling.
    if pt == en and re.search(r"[ãõç]", text.lower()):
        return "pt"
    if pt == en:
        # Names and codes ("CO2", "I-REC", "GWP") say nothing: only words of 4+ letters.
        long = [word for word in words if len(word) >= 4]
        pt = sum(_PT_SPELLING.search(word) is not None for word in long)
        en = sum(_EN_SPELLING.search(word) is not None for word in long)
    if pt == en:
        return None
    return "pt" if pt > en else "en"


def preferred_language(context: str) -> Language | None:
    """A language the user asked for in a memory, e.g. '- idioma: prefere inglês'."""
    match = _PREFERENCE.search(context)
    if not match:
        return None
    value = fold(match.group("value"))
    if re.search(r"\b(ingles|english|en)\b", value):
        return "en"
    if re.search(r"\b(portugues|portuguese|pt)\b", value):
        return "pt"
    return None
