"""The computed side of a plan in its exports: the actions, the MACC, the target path and the
SBCE readiness, as sections after the plan's own three.

Each section is sanitized Markdown (the texts come from ``engine.actions.render``, whose
cells quote spreadsheet text: a facility's name is untrusted), plus at most one chart. The
DOCX and PDF writers draw the chart as a PNG; the Markdown export has no image. The MACC's
bars are also printed as a numbered table in the curve's order, so each bar has a name.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Literal

from application.exports.blocks import Table, parse, plain
from application.exports.labels import Lang
from application.plan_charts import (
    chart_png,
    macc_chart,
    macc_data,
    macc_unknown,
    measure_name,
    measure_name_of,
    path_chart,
)
from application.safe_text import sanitize
from engine.actions.model import PlanActions
from engine.formatting import number

__all__ = [
    "ActionSection",
    "ChartKind",
    "action_sections",
    "action_table_rows",
    "chart_image",
    "macc_table",
]

log = logging.getLogger(__name__)

ChartKind = Literal["macc", "path"]

_WORDS: dict[Lang, dict[str, str]] = {
    "pt": {
        "actions": "Ações",
        "macc": "Curva de custo marginal de abatimento (MACC)",
        "path": "Meta e trajetória",
        "sbce": "Prontidão para o SBCE",
        "macc_intro": "Cada barra é uma ação: a largura é a sua redução média (t CO2e/ano), "
        "a altura o seu custo anualizado por tonelada (R$/t CO2e), da mais barata à mais "
        "cara. Custo negativo é economia.",
        "macc_header": "| # | Medida | Redução média (t CO2e/ano) | Acumulada (t CO2e/ano) "
        "| R$/t CO2e |",
        "macc_none": "Nenhuma ação com custo conhecido para desenhar a curva.",
        "unknown": "Custo desconhecido (fora da curva): {names}.",
    },
    "en": {
        "actions": "Actions",
        "macc": "Marginal abatement cost curve (MACC)",
        "path": "Target and trajectory",
        "sbce": "SBCE readiness",
        "macc_intro": "Each bar is an action: its width is the mid reduction (t CO2e/yr), "
        "its height the annualised cost per tonne (R$/t CO2e), cheapest first. A negative "
        "cost is a saving.",
        "macc_header": "| # | Measure | Mid reduction (t CO2e/yr) | Cumulative (t CO2e/yr) "
        "| R$/t CO2e |",
        "macc_none": "No action with a known cost to draw the curve.",
        "unknown": "Cost unknown (not on the curve): {names}.",
    },
}


@dataclass(frozen=True)
class ActionSection:
    """One section: ``text``, the chart (none in Markdown), ``table``, ``note``. Every text
    is sanitized Markdown."""

    heading: str
    text: str
    chart: ChartKind | None = None
    table: str = ""
    note: str = ""


def action_sections(actions: PlanActions, lang: Lang) -> list[ActionSection]:
    """Actions, MACC, target and trajectory (when there is a target), SBCE readiness."""
    from engine.actions.render import actions_table, path_text, sbce_text, summary_text

    words = _WORDS[lang]
    summary = _clean(summary_text(actions, lang))
    sections = [
        ActionSection(words["actions"], f"{summary}\n\n{_clean(actions_table(actions, lang))}")
    ]
    if actions.actions:
        unknown = [sanitize(measure_name(a, lang)) for a in macc_unknown(actions)]
        note = words["unknown"].format(names="; ".join(unknown)) if unknown else ""
        drawn = bool(macc_data(actions))
        sections.append(
            ActionSection(
                words["macc"],
                words["macc_intro"] if drawn else words["macc_none"],
                chart="macc" if drawn else None,
                table=macc_table(actions, lang) if drawn else "",
                note=note,
            )
        )
    if actions.target is not None:
        sections.append(
            ActionSection(
                words["path"],
                _clean(path_text(actions, lang)),
                chart="path" if actions.path else None,
            )
        )
    sections.append(ActionSection(words["sbce"], _clean(sbce_text(actions.installations, lang))))
    return sections


def action_table_rows(actions: PlanActions, lang: str) -> tuple[list[str], list[list[str]]]:
    """The action table's header and rows as plain text, the very cells the exports print
    (numbers as ``lang`` writes them). For a data frame, where a cell is data, not markup:
    no sanitizing, so a facility named "A&B <1>" reads as written. No actions: no rows."""
    from engine.actions.render import actions_table

    for block in parse(actions_table(actions, lang)):
        if isinstance(block, Table):
            header = [plain(cell) for cell in block.header]
            return header, [[plain(cell) for cell in row] for row in block.rows]
    return [], []


def macc_table(actions: PlanActions, lang: Lang) -> str:
    """The MACC's bars as a Markdown table, in the curve's order."""
    lines = [_WORDS[lang]["macc_header"], "|" + " --- |" * 5]
    for index, row in enumerate(macc_data(actions), start=1):
        name = " ".join(sanitize(measure_name_of(row, lang)).replace("|", "/").split())
        cumulative = f"{number(row['x0'], lang=lang)}–{number(row['x1'], lang=lang)}"
        cells = [
            str(index),
            name,
            number(row["width"], lang=lang),
            cumulative,
            number(row["cost"], 0, lang),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def chart_image(actions: PlanActions, kind: ChartKind, lang: Lang) -> bytes | None:
    """The chart as PNG, or None when it cannot be drawn (the export goes out without it)."""
    chart = macc_chart(actions, lang) if kind == "macc" else path_chart(actions, lang)
    try:
        return chart_png(chart)
    except Exception:  # an export without its picture beats no export at all
        log.warning("could not draw the %s chart as PNG", kind, exc_info=True)
        return None


def _clean(text: str) -> str:
    return sanitize(text or "").strip()
