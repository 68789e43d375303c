"""What a figure built on an unproven inventory says first: its status and the sheets at fault.

A plan, an answer, the SBCE readiness and an export of an inventory that is not
``reconciled`` open with this notice, so a number is never repeated without saying that the
workbook's own totals do not prove it. ``Reading`` is what is kept of it beside the stored
upload (its summary), so a saved plan's exports say the same thing later.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.texts import Texts

if TYPE_CHECKING:
    from engine.inventory.inventory import Inventory

_TEXTS = Texts(
    "engine.inventory.notice",
    {
        "status.reconciled": {"pt": "conferido", "en": "reconciled"},
        "status.unverified": {"pt": "sem conferência", "en": "unverified"},
        "status.ambiguous": {"pt": "unidade ambígua", "en": "ambiguous unit"},
        "status.conflict": {"pt": "conflito", "en": "conflict"},
        "notice": {
            "pt": "Atenção: inventário não conferido ({status}).",
            "en": "Note: inventory not reconciled ({status}).",
        },
        "sheets": {"pt": "Abas: {sheets}.", "en": "Sheets: {sheets}."},
        "tail": {
            "pt": "Os números a seguir não estão provados pelos totais da própria planilha.",
            "en": "The figures below are not proven by the workbook's own totals.",
        },
        "more": {"pt": "e mais {n}", "en": "and {n} more"},
    },
)


def _lang(lang: str) -> str:
    return "en" if (lang or "").strip().lower().startswith("en") else "pt"


def status_word(status: str, lang: str = "pt") -> str:
    """'conflito' / 'conflict': a status as a word, never only an icon or a colour."""
    key = f"status.{status}"
    return _TEXTS(key if key in _TEXTS else "status.unverified", _lang(lang))


@dataclass(frozen=True)
class Reading:
    """How an inventory's totals stood when it was read: its status and, for every sheet
    that is not reconciled, the sheet and its status."""

    status: str
    sheets: tuple[tuple[str, str], ...] = ()

    @classmethod
    def of(cls, inventory: Inventory) -> Reading:
        return cls(
            inventory.status,
            tuple((check.sheet, check.status) for check in inventory.not_reconciled),
        )

    @classmethod
    def from_summary(cls, summary: Mapping[str, Any] | None) -> Reading | None:
        """What ``to_summary`` kept; None for a summary without a status (nothing to say)."""
        if not summary or not summary.get("status"):
            return None
        sheets = tuple(
            (str(item.get("sheet", "")), str(item.get("status", "unverified")))
            for item in summary.get("not_reconciled") or ()
            if isinstance(item, Mapping)
        )
        return cls(str(summary["status"]), sheets)

    def to_summary(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "not_reconciled": [{"sheet": sheet, "status": status} for sheet, status in self.sheets],
        }

    @property
    def reconciled(self) -> bool:
        return self.status == "reconciled"

    def notice(self, lang: str = "pt", *, limit: int = 8, sheet_chars: int = 60) -> str:
        """'' for a reconciled inventory; else one short paragraph naming the sheets (at most
        ``limit``, each cut to ``sheet_chars``). The sheet names are the workbook's: the
        caller escapes them for where the text goes."""
        return reading_notice(self.status, self.sheets, lang, limit=limit, sheet_chars=sheet_chars)


def reading_notice(
    status: str,
    sheets: Sequence[tuple[str, str]],
    lang: str = "pt",
    *,
    limit: int = 8,
    sheet_chars: int = 60,
) -> str:
    """The notice of ``Reading.notice`` from its parts."""
    if status == "reconciled":
        return ""
    code = _lang(lang)
    parts = [_TEXTS("notice", code, status=status_word(status, code))]
    if sheets:
        named = [f"{_cut(sheet, sheet_chars)} ({status_word(state, code)})"
                 for sheet, state in sheets[:limit]]  # fmt: skip
        if len(sheets) > limit:
            named.append(_TEXTS("more", code, n=len(sheets) - limit))
        parts.append(_TEXTS("sheets", code, sheets="; ".join(named)))
    parts.append(_TEXTS("tail", code))
    return " ".join(parts)


def _cut(text: str, size: int) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= size else text[: size - 1] + "…"
