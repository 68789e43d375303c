"""The computed side of a plan in its exports: the actions, the MACC, the target path and the
SBCE readiness, as sections after the plan's own three.

Each section is sanitized Markdown (the texts come from ``engine.actions.render``, whose
cells quote spreadsheet text: a facility's name is untrusted), plus at most one chart. The
DOCX and PDF writers draw the chart as a PNG; the Markdown export has no image. The MACC's
bars are also printed as a numbered table in the curve's order, so each bar has a name.

A plan's field often quotes those texts (the offline plan's method is the action table, its
reasoning the summary, the target path and the SBCE readiness): ``computed_blocks`` names
them, so each export prints each one once, in its section, and the field says where it went.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Literal

from application.exports.blocks import Table, parse, plain
from application.exports.labels import Lang, block_keys, text_blocks
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
from engine.actions.model import Action, PlanActions, RowRef
from engine.formatting import number
from engine.texts import Texts

__all__ = [
    "ActionSection",
    "ChartKind",
    "action_sections",
    "action_table_rows",
    "chart_image",
    "computed_blocks",
    "macc_table",
]

log = logging.getLogger(__name__)

ChartKind = Literal["macc", "path"]

_TEXTS = Texts(
    "application.exports.actions",
    {
        "actions": {"pt": "Ações", "en": "Actions"},
        "macc": {
            "pt": "Curva de custo marginal de abatimento (MACC)",
            "en": "Marginal abatement cost curve (MACC)",
        },
        "path": {"pt": "Meta e trajetória", "en": "Target and trajectory"},
        "sbce": {"pt": "Prontidão para o SBCE", "en": "SBCE readiness"},
        "macc_intro": {
            "pt": "Cada barra é uma ação: a largura é a sua redução média (t CO2e/ano), "
            "a altura o seu custo anualizado por tonelada (R$/t CO2e), da mais barata à mais "
            "cara. Custo negativo é economia.",
            "en": "Each bar is an action: its width is the mid reduction (t CO2e/yr), "
            "its height the annualised cost per tonne (R$/t CO2e), cheapest first. A negative "
            "cost is a saving.",
        },
        "macc_header": {
            "pt": "| # | Medida | Redução média (t CO2e/ano) | Acumulada (t CO2e/ano) "
            "| R$/t CO2e |",
            "en": "| # | Measure | Mid reduction (t CO2e/yr) | Cumulative (t CO2e/yr) "
            "| R$/t CO2e |",
        },
        "macc_none": {
            "pt": "Nenhuma ação com custo conhecido para desenhar a curva.",
            "en": "No action with a known cost to draw the curve.",
        },
        "unknown": {
            "pt": "Custo desconhecido (fora da curva): {names}.",
            "en": "Cost unknown (not on the curve): {names}.",
        },
        "row": {"pt": "linha {row}", "en": "row {row}"},
        "more_row": {"pt": "+{n} linha", "en": "+{n} row"},
        "more_rows": {"pt": "+{n} linhas", "en": "+{n} rows"},
    },
)


@dataclass(frozen=True)
class ActionSection:
    """One section: ``text``, the chart (none in Markdown), ``table``, ``note``. Every text
    is sanitized Markdown."""

    heading: str
    text: str
    chart: ChartKind | None = None
    table: str = ""
    note: str = ""


def action_sections(
    actions: PlanActions, lang: Lang, *, compact: bool = False
) -> list[ActionSection]:
    """Actions, MACC, target and trajectory (when there is a target), SBCE readiness.
    ``compact`` (a page of fixed width, the PDF): the action table names at most two
    sources per action, the rest counted (``compact_actions_table``)."""
    from engine.actions.render import actions_table, path_text, sbce_text, summary_text

    summary = _clean(summary_text(actions, lang))
    table = compact_actions_table(actions, lang) if compact else actions_table(actions, lang)
    sections = [ActionSection(_TEXTS("actions", lang), f"{summary}\n\n{_clean(table)}")]
    if actions.actions:
        unknown = [sanitize(measure_name(a, lang)) for a in macc_unknown(actions)]
        note = _TEXTS("unknown", lang, names="; ".join(unknown)) if unknown else ""
        drawn = bool(macc_data(actions))
        sections.append(
            ActionSection(
                _TEXTS("macc", lang),
                _TEXTS("macc_intro" if drawn else "macc_none", lang),
                chart="macc" if drawn else None,
                table=macc_table(actions, lang) if drawn else "",
                note=note,
            )
        )
    if actions.target is not None:
        sections.append(
            ActionSection(
                _TEXTS("path", lang),
                _clean(path_text(actions, lang)),
                chart="path" if actions.path else None,
            )
        )
    sbce = _clean(sbce_text(actions.installations, lang))
    sections.append(ActionSection(_TEXTS("sbce", lang), sbce))
    return sections


def compact_actions_table(actions: PlanActions, lang: Lang) -> str:
    """The engine's action table (Markdown) with each action's inventory rows cut to its
    first ``_ROWS_SHOWN`` sources, the rest counted: "+8 linhas" / "+8 rows". The other
    cells, and the note under the table, as the engine writes them."""
    from engine.actions.render import actions_table

    text = actions_table(actions, lang)
    blocks = text_blocks(text)
    if not actions.actions or not blocks:
        return text
    table = next((b for b in parse(blocks[0]) if isinstance(b, Table)), None)
    if table is None or len(table.rows) != len(actions.actions):
        return text
    lines = blocks[0].splitlines()[:2]  # the header and its alignment row, as written
    for row, action in zip(table.rows, actions.actions, strict=True):
        cells = [_cell(plain(cell)) for cell in row]
        cells[1] = _rows_summary(action, lang)
        lines.append("| " + " | ".join(cells) + " |")
    return "\n\n".join(["\n".join(lines), *blocks[1:]])


_ROWS_SHOWN = 2


def _rows_summary(action: Action, lang: Lang) -> str:
    """The first sources an action works on (source · facility · gases), then "+N linhas"
    for the inventory rows not named."""
    grouped: dict[tuple[str, str], list[RowRef]] = {}
    for ref in action.rows:
        source = ref.source or f"{ref.sheet}, {_TEXTS('row', lang, row=ref.row)}"
        grouped.setdefault((source, ref.facility), []).append(ref)
    entries, named = [], 0
    for (source, facility), refs in list(grouped.items())[:_ROWS_SHOWN]:
        gases = ", ".join(dict.fromkeys(ref.gas for ref in refs if ref.gas))
        entries.append(" · ".join(part for part in (source, facility, gases) if part))
        named += len(refs)
    rest = len(action.rows) - named
    if rest > 0:
        entries.append(_TEXTS("more_row" if rest == 1 else "more_rows", lang, n=rest))
    return _cell("; ".join(entries))


def _cell(text: str) -> str:
    return " ".join(text.replace("|", "/").split())


def computed_blocks(actions: PlanActions, lang: Lang) -> dict[str, str]:
    """Every block of the engine's texts these sections print (``block_keys``, in both
    languages: a plan may be written in either), with the heading of the section printing
    it. A plan's field that quotes one (the offline plan's method is the action table, its
    reasoning the summary, the path and the SBCE texts) leaves it to that section."""
    from engine.actions.render import actions_table, path_text, sbce_text, summary_text

    actions_heading, sbce_heading = _TEXTS("actions", lang), _TEXTS("sbce", lang)
    blocks: dict[str, str] = {}
    for code in ("pt", "en"):
        texts = [
            (summary_text(actions, code), actions_heading),
            (actions_table(actions, code), actions_heading),
            (sbce_text(actions.installations, code), sbce_heading),
        ]
        if actions.target is not None:
            texts.append((path_text(actions, code), _TEXTS("path", lang)))
        for text, heading in texts:
            for block in text_blocks(text):
                for key in block_keys(block):
                    blocks.setdefault(key, heading)
    return blocks


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
    lines = [_TEXTS("macc_header", lang), "|" + " --- |" * 5]
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
