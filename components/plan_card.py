"""The improvement plan as a card: the three sections, sanitized."""

from __future__ import annotations

import streamlit as st

from application.exports import plan_docx, plan_markdown, plan_pdf
from application.safe_text import sanitize
from components.i18n import language, t
from engine import AekoImprovementPlan
from engine.protocol import PLAN_HEADINGS, plan_title


def plan_card(plan: AekoImprovementPlan) -> None:
    with st.container(border=True):
        for field in PLAN_HEADINGS:
            st.markdown(f"#### {plan_title(field, language())}")
            st.markdown(sanitize(getattr(plan, field)))


_BUILDERS = {"md": plan_markdown, "docx": plan_docx, "pdf": plan_pdf}


@st.cache_data(show_spinner=False, max_entries=512)
def _export(kind: str, plan_json: str, title: str, subtitle: str, lang: str) -> str | bytes:
    # Built once per plan, format and language: the history page shows every saved plan on
    # each rerun, and a PDF with its embedded font takes about 0.2 s to lay out.
    plan = AekoImprovementPlan.model_validate_json(plan_json)
    return _BUILDERS[kind](plan, title=title, subtitle=subtitle, lang=lang)


def plan_downloads(plan: AekoImprovementPlan, *, title: str, subtitle: str = "", key: str) -> None:
    """The plan as Markdown, DOCX and PDF, side by side."""
    lang = language()
    plan_json = plan.model_dump_json(by_alias=True)
    stem = f"plano-{plan.id_external_inventory}"
    md_col, docx_col, pdf_col = st.columns(3)
    md_col.download_button(
        t("export_md"),
        _export("md", plan_json, title, subtitle, lang),
        file_name=f"{stem}.md",
        mime="text/markdown",
        key=f"md-{key}",
    )
    docx_col.download_button(
        t("export_docx"),
        _export("docx", plan_json, title, subtitle, lang),
        file_name=f"{stem}.docx",
        key=f"docx-{key}",
    )
    pdf_col.download_button(
        t("export_pdf"),
        _export("pdf", plan_json, title, subtitle, lang),
        file_name=f"{stem}.pdf",
        mime="application/pdf",
        key=f"pdf-{key}",
    )
