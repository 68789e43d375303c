"""The "Fontes / Sources" block under an answer: what the run read, never what a model wrote.

Labels and citations come from spreadsheets, factor files and the knowledge base, so they are
shown as sanitized plain text (no links, no images, no HTML)."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from application.safe_text import sanitize
from components.i18n import language, t
from engine import AekoSource

_ICONS = {"knowledge": ":material/menu_book:", "inventory": ":material/table_chart:",
          "factor": ":material/calculate:"}  # fmt: skip


def source_line(source: AekoSource) -> str:
    lang = language()
    label = sanitize(source.label_in(lang))
    cited = sanitize(source.citation_in(lang))
    tail = f" — {cited}" if cited and cited != label else ""
    return f"- {_ICONS.get(source.kind, '')} {label}{tail}"


def sources_block(sources: Sequence[AekoSource]) -> None:
    if not sources:
        return
    with st.container(border=True):
        st.caption(f":material/library_books: **{t('sources')}**")
        st.caption("\n".join(source_line(source) for source in sources))
