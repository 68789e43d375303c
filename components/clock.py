"""Today's date for the pages, from one place: the calculator's default year and the year the
chat assumes when a question names none. Tests fix it by replacing ``today``."""

from __future__ import annotations

from datetime import date


def today() -> date:
    return date.today()
