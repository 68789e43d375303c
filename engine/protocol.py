"""The text protocol agents speak: routing markers, guardrail verdicts and plan headings.

Models slip: they bold a name, add a full stop, drop an accent, capitalise a heading. Every
reader here is tolerant of such slips, because a run that dies on one after its analysts
were already paid for is the worst outcome the engine can produce.
"""

import re
import unicodedata
from dataclasses import dataclass

from engine.texts import Texts

# "Next agent: X" anywhere on a line, possibly wrapped in markdown emphasis or quotes.
_MARKER = re.compile(
    r"""[ \t]*[*_`>"'\-]*[ \t]*next[ \t]*agent[ \t]*[*_`]*[ \t]*[:：][ \t]*(?P<name>[^\n]*)""",
    re.IGNORECASE,
)
_EMPHASIS = "*_`\"'“”‘’[](){}<>#"
_TRAILING = ".,;:!?-–— \t"


class _Marks(dict):
    """``str.translate``'s table that deletes combining marks, filled in as characters are
    met: a plan folds the same few hundred characters some 90,000 times."""

    def __missing__(self, code: int) -> int | None:
        kept = None if unicodedata.combining(chr(code)) else code
        self[code] = kept
        return kept


_MARKS = _Marks()


def fold(text: str) -> str:
    """Case-, accent- and space-insensitive form of a short label."""
    bare = text if text.isascii() else unicodedata.normalize("NFKD", text).translate(_MARKS)
    return " ".join(bare.casefold().split())


# What every marker holds. A marker never spans lines and its name runs to the end of its
# line, so a line holds at most one: only the lines with these words are searched for it,
# not every position of a long answer (the full pattern's optional lead makes each costly).
_MARKER_WORDS = re.compile(r"next[ \t]*agent", re.IGNORECASE)


def _markers(text: str) -> list[re.Match[str]]:
    """``_MARKER.finditer(text)``, searched only on the lines that may hold a marker."""
    found = []
    searched_to = 0
    for words in _MARKER_WORDS.finditer(text):
        if words.start() < searched_to:
            continue  # the line was searched already
        start = text.rfind("\n", 0, words.start()) + 1
        end = text.find("\n", words.end())
        searched_to = len(text) if end < 0 else end
        if marker := _MARKER.search(text, start, searched_to):
            found.append(marker)
    return found


def split_marker(text: str) -> tuple[str, str | None]:
    """Remove every routing marker from ``text``; return the clean text and the last name."""
    markers = _markers(text)
    if not markers:
        return text.strip(), None
    kept, position = [], 0
    for marker in markers:
        kept.append(text[position : marker.start()])
        position = marker.end()
    kept.append(text[position:])
    clean = re.sub(r"\n{3,}", "\n\n", "".join(kept)).strip()
    return clean, clean_marker_name(markers[-1].group("name"))


def clean_marker_name(raw: str) -> str:
    """The agent name as written after ``Next agent:``, without emphasis or punctuation."""
    return raw.strip().strip(_EMPHASIS).strip(_TRAILING).strip(_EMPHASIS).strip()


# --- guardrail verdict -------------------------------------------------------------------

_APPROVAL_WORDS = ("aprovado", "aprovada", "approved")
_LEADING_NOISE = re.compile(r"^[\s*_`>#\"'“”\-:]*")


@dataclass(frozen=True)
class Verdict:
    approved: bool
    reasons: str


def read_verdict(text: str) -> Verdict:
    """Read the guardrail's answer: approval is an answer that opens with "Aprovado"."""
    clean, _ = split_marker(text)
    head = fold(_LEADING_NOISE.sub("", clean))
    approved = any(
        head.startswith(word) and not head[len(word) : len(word) + 1].isalnum()
        for word in _APPROVAL_WORDS
    )
    reasons = clean
    if not approved:
        # Drop the leading verdict word ("Reprovado:"), keep what the next attempt must fix.
        reasons = re.sub(
            r"^[\s*_`>#\"'“”\-]*(reprovad[oa]|rejeitad[oa]|rejected)[\s*_`:.\-]*",
            "",
            clean,
            flags=re.IGNORECASE,
        ).strip()
    return Verdict(approved=approved, reasons=reasons if not approved else "")


# --- improvement plan headings -----------------------------------------------------------

# The protocol is Portuguese: the coordinator writes these headings, whatever the user's
# language. The English titles are how the same sections are shown and exported in English.
PLAN_HEADINGS: dict[str, str] = {
    "defined_problem": "Problema definido",
    "method": "Método",
    "reasoning": "Raciocínio",
}
_TEXTS = Texts(
    "engine.protocol",
    {
        "plan.defined_problem": {"pt": PLAN_HEADINGS["defined_problem"], "en": "Defined problem"},
        "plan.method": {"pt": PLAN_HEADINGS["method"], "en": "Method"},
        "plan.reasoning": {"pt": PLAN_HEADINGS["reasoning"], "en": "Reasoning"},
    },
)


def plan_title(field: str, lang: str = "pt") -> str:
    """The title of a plan section in ``lang`` ("pt" or "en"): the one home of these words."""
    return _TEXTS(f"plan.{field}", lang)


_HEADING_BY_FOLD = {fold(title): field for field, title in PLAN_HEADINGS.items()}
_HEADING_LINE = re.compile(r"^[ \t]{0,3}#{1,6}[ \t]*(?P<title>[^\n]*?)[ \t]*#*[ \t]*$", re.M)


@dataclass(frozen=True)
class PlanSections:
    fields: dict[str, str]
    missing: tuple[str, ...]  # field names, in heading order


def parse_plan(text: str) -> PlanSections:
    """Split the coordinator's answer at the three plan headings and nowhere else."""
    clean, _ = split_marker(text)
    cuts: list[tuple[int, int, str]] = []
    for match in _HEADING_LINE.finditer(clean):
        title = fold(match.group("title").strip(_EMPHASIS).rstrip(":").strip(_EMPHASIS))
        field = _HEADING_BY_FOLD.get(title)
        if field is not None:
            cuts.append((match.start(), match.end(), field))
    fields: dict[str, str] = {}
    for index, (_, end, field) in enumerate(cuts):
        stop = cuts[index + 1][0] if index + 1 < len(cuts) else len(clean)
        body = clean[end:stop].strip()
        if body and not fields.get(field):
            fields[field] = body
    missing = tuple(field for field in PLAN_HEADINGS if not fields.get(field))
    return PlanSections(fields=fields, missing=missing)
