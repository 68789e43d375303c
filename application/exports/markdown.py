"""The plan as one Markdown document: the fields go out as written, once sanitized."""

from __future__ import annotations

import re

from application.exports.actions import action_sections, computed_blocks
from application.exports.labels import (
    TEXTS,
    footer_line,
    language,
    one_line,
    sections,
    unverified_note,
)
from engine.actions.model import PlanActions
from engine.dto import AekoImprovementPlan
from engine.inventory.notice import Reading

__all__ = ["md_literal", "notice_markdown", "plan_markdown"]


def plan_markdown(
    plan: AekoImprovementPlan,
    *,
    title: str,
    subtitle: str = "",
    lang: str = "pt",
    actions: PlanActions | None = None,
    reading: Reading | None = None,
) -> str:
    """Title, subtitle, the notice of an inventory that is not reconciled (``reading``: its
    status and sheets when it was analysed), the three sections, the computed ``actions``
    (their table, the MACC's bars as a table, the target path, the SBCE readiness) and a
    footer."""
    code = language(lang)
    lines = [f"# {md_literal(one_line(title))}", ""]
    if one_line(subtitle):
        lines += [f"*{md_literal(one_line(subtitle))}*", ""]
    notice = notice_markdown(reading, code, plan)
    if notice:
        lines += [notice, ""]
    computed = computed_blocks(actions, code) if actions is not None else None
    for heading, text in sections(plan, code, computed):
        lines += [f"## {heading}", ""]
        body = _demote_headings(text) if text else f"_{TEXTS('empty', code)}_"
        lines += [body, ""]
    for section in action_sections(actions, code) if actions is not None else []:
        lines += [f"## {section.heading}", ""]
        parts = (section.text, section.table, section.note)
        lines += [_demote_headings("\n\n".join(part for part in parts if part)), ""]
    lines += ["---", "", f"_{footer_line(plan, code)}_", ""]
    return "\n".join(lines)


_MD_SPECIAL = re.compile(r"([\\`*_\[\]])")


def md_literal(text: str) -> str:
    """A title or file name shown as written: its '_' and '*' are not emphasis."""
    return _MD_SPECIAL.sub(r"\\\1", text)


def notice_markdown(
    reading: Reading | None, lang: str, plan: AekoImprovementPlan | None = None
) -> str:
    """The notices as bold quoted paragraphs, their sheet names sanitized and literal: an
    inventory that is not reconciled, and the plan's figures with no source; '' for none."""
    notice = reading.notice(language(lang)) if reading is not None else ""
    unverified = unverified_note(plan, language(lang)) if plan is not None else ""
    return "\n\n".join(f"> **{md_literal(one_line(n))}**" for n in (notice, unverified) if n)


def _demote_headings(text: str) -> str:
    """Headings inside a field sit below the section's own: '#' and '##' become '###'."""
    return re.sub(r"(?m)^ {0,3}#{1,2}(?=[ \t])", "###", text)
