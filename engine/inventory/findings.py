"""Data-quality findings: what the analyst should check, in Portuguese and English."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Finding:
    code: str
    message_pt: str
    message_en: str
    sheet: str = ""
    rows: tuple[int, ...] = ()  # 1-based sheet rows

    def message(self, language: str = "pt") -> str:
        return self.message_pt if language.lower().startswith("pt") else self.message_en


def rows_text(rows: Sequence[int], limit: int = 8) -> str:
    shown = ", ".join(str(r) for r in rows[:limit])
    return shown + (f" (+{len(rows) - limit})" if len(rows) > limit else "")
