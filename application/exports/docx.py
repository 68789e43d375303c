"""The plan as a Word document (A4): real headings, list styles, tables and a page footer."""

from __future__ import annotations

import io
from collections.abc import Sequence
from datetime import datetime

from docx import Document
from docx.document import Document as DocxDocument
from docx.enum.section import WD_ORIENT, WD_SECTION
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import Mm, Pt, RGBColor
from docx.text.paragraph import Paragraph as DocxParagraph

from application.exports.actions import action_sections, chart_image, computed_blocks
from application.exports.blocks import (
    Block,
    Code,
    Heading,
    ListBlock,
    Paragraph,
    Quote,
    Rule,
    Run,
    Table,
    parse,
)
from application.exports.labels import TEXTS, Lang, footer_line, language, one_line, sections
from application.exports.markdown import notice_markdown
from engine.actions.model import PlanActions
from engine.dto import AekoImprovementPlan
from engine.inventory.notice import Reading

__all__ = ["plan_docx"]

_GREY = RGBColor(0x6B, 0x6B, 0x6B)
_MONO = "Consolas"
_CHART_WIDTH = Mm(200)  # on the landscape pages: 253 mm between the margins
_CHART_HEIGHT = Mm(150)  # of the 170 mm between them, leaving room for the heading
_ACTION_TABLE_SIZE = Pt(8)
_ALIGN = {
    "left": WD_ALIGN_PARAGRAPH.LEFT,
    "center": WD_ALIGN_PARAGRAPH.CENTER,
    "right": WD_ALIGN_PARAGRAPH.RIGHT,
}


def plan_docx(
    plan: AekoImprovementPlan,
    *,
    title: str,
    subtitle: str = "",
    lang: str = "pt",
    actions: PlanActions | None = None,
    reading: Reading | None = None,
) -> bytes:
    """The plan as a Word document: title, subtitle, the notice of an inventory that is not
    reconciled (``reading``), the three sections, then the computed ``actions`` on landscape
    pages (their table, the MACC, the target path, the SBCE readiness), a footer on every
    page."""
    code = language(lang)
    document = Document()
    section = document.sections[0]
    section.page_width, section.page_height = Mm(210), Mm(297)
    section.left_margin = section.right_margin = Mm(22)
    section.top_margin, section.bottom_margin = Mm(20), Mm(20)
    document.styles["Normal"].font.size = Pt(10.5)

    clean_title = one_line(title)
    properties = document.core_properties
    properties.title = clean_title
    properties.subject = one_line(subtitle)
    properties.author = properties.last_modified_by = "Aeko Studio"
    properties.created = properties.modified = _naive(plan.updated_at)
    properties.revision = 1
    properties.language = "pt-BR" if code == "pt" else "en"

    document.add_heading(clean_title, level=0)
    if one_line(subtitle):
        document.add_paragraph(one_line(subtitle), style="Subtitle")
    writer = _Writer(document)
    writer.blocks(parse(notice_markdown(reading, code, plan)))
    computed = computed_blocks(actions, code) if actions is not None else None
    for heading, text in sections(plan, code, computed):
        document.add_heading(heading, level=1)
        blocks = parse(text)
        if not blocks:
            document.add_paragraph(TEXTS("empty", code)).runs[0].italic = True
        writer.blocks(blocks)

    footer = section.footer.paragraphs[0]
    footer.text = ""
    run = footer.add_run(footer_line(plan, code) + "  ·  ")
    run.font.size, run.font.color.rgb = Pt(8), _GREY
    _add_page_field(footer)
    if actions is not None:  # after the footer: the landscape section inherits it
        _add_actions(document, actions, code)

    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def _add_actions(document: DocxDocument, actions: PlanActions, lang: Lang) -> None:
    """The action sections on landscape pages: an eleven-column table needs the width. The
    new section's footer is linked to the first one's."""
    section = document.add_section(WD_SECTION.NEW_PAGE)
    section.orientation = WD_ORIENT.LANDSCAPE
    section.page_width, section.page_height = Mm(297), Mm(210)
    writer = _Writer(document, table_size=_ACTION_TABLE_SIZE)
    for part in action_sections(actions, lang):
        document.add_heading(part.heading, level=1)
        writer.blocks(parse(part.text))
        image = chart_image(actions, part.chart, lang) if part.chart else None
        if image is not None:
            document.add_picture(io.BytesIO(image), width=_chart_width(image))
            document.paragraphs[-1].alignment = WD_ALIGN_PARAGRAPH.CENTER
        writer.blocks(parse(part.table))
        if part.note:
            writer.blocks(parse(part.note))


def _chart_width(image: bytes) -> Mm:
    """``_CHART_WIDTH``, or less for a picture that would be taller than ``_CHART_HEIGHT``
    (the MACC, with its bar names above the plot, is about as tall as it is wide)."""
    width_px, height_px = int.from_bytes(image[16:20], "big"), int.from_bytes(image[20:24], "big")
    if not width_px or not height_px:
        return _CHART_WIDTH
    return Mm(min(_CHART_WIDTH.mm, _CHART_HEIGHT.mm * width_px / height_px))


class _Writer:
    def __init__(self, document: DocxDocument, table_size: Pt | None = None) -> None:
        self.document = document
        self.table_size = table_size  # the cells' font size; None: the body's

    def blocks(self, blocks: Sequence[Block], depth: int = 0, quoted: bool = False) -> None:
        for block in blocks:
            self.block(block, depth, quoted)

    def block(self, block: Block, depth: int, quoted: bool) -> None:
        match block:
            case Heading():
                # The sections are Heading 1: a field's own headings sit below them.
                heading = self.document.add_heading("", level=2 if block.level <= 3 else 3)
                _add_runs(heading, block.runs)
            case Paragraph():
                style = "Quote" if quoted else None
                _add_runs(self.document.add_paragraph(style=style), block.runs)
            case ListBlock():
                self.list(block, depth, quoted)
            case Table():
                self.table(block)
            case Code():
                run = self.document.add_paragraph().add_run(block.text)
                run.font.name, run.font.size = _MONO, Pt(9)
            case Quote():
                self.blocks(block.blocks, depth, quoted=True)
            case Rule():
                pass  # the section headings already divide the page; a rule adds nothing

    def list(self, block: ListBlock, depth: int, quoted: bool) -> None:
        level = min(depth, 2)  # the template has three list styles of each kind
        kind = "Number" if block.ordered else "Bullet"
        style = f"List {kind}" if level == 0 else f"List {kind} {level + 1}"
        num_id = _new_numbering(self.document, style, block.start) if block.ordered else None
        for item in block.items:
            first = item[0] if item and isinstance(item[0], Paragraph) else None
            paragraph = self.document.add_paragraph(style=style)
            if num_id is not None:
                _set_numbering(paragraph, num_id)
            if first is not None:
                _add_runs(paragraph, first.runs)
            for inner in item[1 if first is not None else 0 :]:
                if isinstance(inner, Paragraph):
                    more = "List Continue" if level == 0 else f"List Continue {level + 1}"
                    _add_runs(self.document.add_paragraph(style=more), inner.runs)
                else:
                    self.block(inner, depth + 1, quoted)

    def table(self, block: Table) -> None:
        if not block.header:
            return
        table = self.document.add_table(rows=1 + len(block.rows), cols=len(block.header))
        table.style = self.document.styles["Table Grid"]
        _repeat_as_header(table.rows[0])
        for row_index, cells in enumerate((block.header, *block.rows)):
            for column, runs in enumerate(cells):
                paragraph = table.rows[row_index].cells[column].paragraphs[0]
                _add_runs(paragraph, runs, bold=row_index == 0, size=self.table_size)
                align = block.aligns[column] if column < len(block.aligns) else None
                if align:
                    paragraph.alignment = _ALIGN[align]
        self.document.add_paragraph()  # Word glues a following table or text to this one


def _add_runs(
    paragraph: DocxParagraph, runs: Sequence[Run], *, bold: bool = False, size: Pt | None = None
) -> None:
    for piece in runs:
        run = paragraph.add_run(piece.text)  # python-docx turns "\n" into a line break
        run.bold, run.italic = (piece.bold or bold) or None, piece.italic or None
        if size is not None:
            run.font.size = size
        if piece.code:
            run.font.name = _MONO


def _new_numbering(document: DocxDocument, style: str, start: int) -> int:
    """A new instance of the style's numbering, so each list counts from its own start."""
    numbering = document.part.numbering_part.numbering_definitions._numbering
    style_num_id = document.styles[style].element.pPr.numPr.numId.val
    abstract_id = numbering.num_having_numId(style_num_id).abstractNumId.val
    num = numbering.add_num(abstract_id)
    num.add_lvlOverride(ilvl=0).add_startOverride(max(start, 0))
    return int(num.numId)


def _set_numbering(paragraph: DocxParagraph, num_id: int) -> None:
    numbering = paragraph._p.get_or_add_pPr().get_or_add_numPr()
    numbering.get_or_add_ilvl().val = 0
    numbering.get_or_add_numId().val = num_id


def _repeat_as_header(row) -> None:
    """The header row repeats at the top of every page the table runs onto."""
    marker = OxmlElement("w:tblHeader")
    marker.set(qn("w:val"), "true")
    row._tr.get_or_add_trPr().append(marker)


def _add_page_field(paragraph: DocxParagraph) -> None:
    run = paragraph.add_run()
    run.font.size, run.font.color.rgb = Pt(8), _GREY
    for kind, text in (("begin", None), (None, "PAGE"), ("end", None)):
        if kind:
            element = OxmlElement("w:fldChar")
            element.set(qn("w:fldCharType"), kind)
        else:
            element = OxmlElement("w:instrText")
            element.set(qn("xml:space"), "preserve")
            element.text = text
        run._r.append(element)


def _naive(moment: datetime) -> datetime:
    return moment.replace(tzinfo=None) if moment.tzinfo else moment
