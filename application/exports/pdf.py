"""The plan as an A4 PDF, laid out by fpdf2 itself in the bundled DejaVu fonts.

fpdf2 wraps the text (``write`` for styled runs, ``multi_cell`` for code, ``table`` for
tables); this module only decides fonts, indents and spacing. The DejaVu faces are embedded
(fpdf2 keeps only the glyphs used), so "CO₂", "≥", "—", "“…”" and "→" print as written.
"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from fontTools.ttLib import TTFont
from fpdf import FPDF, FontFace
from fpdf.enums import Align, TextEmphasis, WrapMode, XPos, YPos

from application.exports.actions import ActionSection, action_sections, chart_image
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
    plain,
)
from application.exports.labels import Lang, footer_line, language, one_line, sections, words
from application.exports.markdown import notice_markdown
from engine.actions.model import PlanActions
from engine.dto import AekoImprovementPlan
from engine.inventory.notice import Reading

__all__ = ["plan_pdf"]

_FONT_DIR = Path(__file__).with_name("fonts")
_SANS = "dejavu"
_MONO = "dejavu-mono"
_SANS_FACES = {
    "": "DejaVuSans.ttf",
    "B": "DejaVuSans-Bold.ttf",
    "I": "DejaVuSans-Oblique.ttf",
    "BI": "DejaVuSans-BoldOblique.ttf",
}
_MONO_FACE = "DejaVuSansMono.ttf"

_GREEN = (0x1F, 0x5F, 0x3F)
_TEXT = (30, 30, 30)
_MUTED = (90, 90, 90)
_BODY = 10.5  # pt
_LINE = 5.2  # mm
_INDENT = 6.0  # mm per list or quote level
_MIN_WIDTH = 40.0  # mm: however deep the nesting, text keeps this much room
_CELL_PADDING = (1.2, 1.6)  # mm: top/bottom, left/right
_MIN_CELL_TEXT = 2.5  # mm: the narrowest column's text, however short its words
_MAX_WORD = 45.0  # mm: a longer word wraps inside its cell instead of widening the column
_BULLETS = ("•", "◦", "▪")
_ACTION_TABLE = 7.0  # pt: the action table's cells, eleven columns on a landscape page
_CHART_WIDTH = 200.0  # mm, on a landscape page (257 mm between the margins)


# --------------------------------------------------------------------------------------------
# Glyphs the fonts lack
# --------------------------------------------------------------------------------------------
# A character no bundled face has (CJK, most emoji) is dropped here, before layout, rather
# than drawn from a fallback font: a face covering CJK and emoji would weigh more than the
# whole app, for text an ESG plan in pt/en almost never has. Left to fpdf2, the glyph would
# vanish anyway, after the line was measured with it and with a warning logged per export.
# A missing letter or digit becomes "?" so the reader sees a word was there.


@cache
def _coverage(*files: str) -> frozenset[int]:
    """Code points every one of ``files`` can draw; the cmap alone is read."""
    maps = [set(TTFont(_FONT_DIR / name, lazy=True).getBestCmap()) for name in files]
    return frozenset(set.intersection(*maps))


def _sans() -> frozenset[int]:
    return _coverage(*_SANS_FACES.values())  # a run may be in any of the four styles


def _mono() -> frozenset[int]:
    return _coverage(_MONO_FACE)


def _drawable(text: str, coverage: frozenset[int]) -> str:
    """``text`` with only characters the font can draw (line breaks kept)."""
    if all(char == "\n" or ord(char) in coverage for char in text):
        return text
    out: list[str] = []
    for char in text.replace("\t", "    "):
        if char == "\n" or ord(char) in coverage:
            out.append(char)
        elif unicodedata.category(char)[0] in "LN":
            out.append("?")
    return "".join(out)


# --------------------------------------------------------------------------------------------
# Document
# --------------------------------------------------------------------------------------------


class _PlanPdf(FPDF):
    def __init__(self, footer_text: str, page_label: str) -> None:
        super().__init__(orientation="P", unit="mm", format="A4")
        self._faces: set[tuple[str, str]] = set()
        self.c_margin = 0  # text starts at the margin, as the headings' rules do
        self._footer_text = _drawable(footer_text, _sans())
        self._page_label = _drawable(page_label, _sans())
        # Bold up front: fpdf2's table() checks the headings' face exists before using it.
        self._add_face(_SANS, "")
        self._add_face(_SANS, "B")

    def set_font(
        self, family: str | None = None, style: str | TextEmphasis = "", size: float = 0
    ) -> None:
        # Parsing and subsetting a face is most of an export's time (every added face is
        # embedded, used or not): italic and mono are added only once some text needs them.
        letters = style.style if isinstance(style, TextEmphasis) else str(style)
        self._add_face((family or self.font_family).lower(), "".join(sorted(letters.upper())))
        super().set_font(family, style, size)

    def _add_face(self, family: str, style: str) -> None:
        style = style.replace("U", "")
        faces = {_SANS: _SANS_FACES, _MONO: {"": _MONO_FACE}}.get(family, {})
        name = faces.get(style)
        if name and (family, style) not in self._faces:
            self._faces.add((family, style))
            self.add_font(family, style, _FONT_DIR / name)

    def footer(self) -> None:
        self.set_y(-14)
        self.set_font(_SANS, "", 8)
        self.set_text_color(110, 110, 110)
        self.set_draw_color(200, 200, 200)
        self.line(self.l_margin, self.get_y(), self.w - self.r_margin, self.get_y())
        self.set_y(-12)
        self.cell(0, 6, self._footer_text, align="L")
        self.set_x(self.l_margin)
        # "{nb}" is fpdf2's alias for the page count, filled in when the document closes.
        self.cell(0, 6, self._page_label.format(page=self.page_no(), pages="{nb}"), align="R")


def plan_pdf(
    plan: AekoImprovementPlan,
    *,
    title: str,
    subtitle: str = "",
    lang: str = "pt",
    compress: bool = True,
    actions: PlanActions | None = None,
    reading: Reading | None = None,
) -> bytes:
    """The plan as an A4 PDF; ``compress=False`` leaves the page streams readable. The
    notice of an inventory that is not reconciled (``reading``) comes first; the computed
    ``actions`` (their table, the MACC, the target path, the SBCE readiness) follow the three
    sections on landscape pages."""
    code = language(lang)
    labels = words(code)
    pdf = _PlanPdf(footer_line(plan, code), labels["page"])
    pdf.set_compression(compress)
    pdf.set_margins(20, 18, 20)
    pdf.set_auto_page_break(True, margin=20)
    clean_title = one_line(title)
    pdf.set_title(clean_title)
    pdf.set_author("Aeko Studio")
    pdf.set_creator("Aeko Studio")
    pdf.set_lang("pt-BR" if code == "pt" else "en")
    pdf.set_creation_date(plan.updated_at)
    pdf.add_page()

    pdf.set_font(_SANS, "B", 18)
    pdf.set_text_color(*_GREEN)
    _lines(pdf, clean_title, 8.5)
    if one_line(subtitle):
        pdf.set_font(_SANS, "", 11)
        pdf.set_text_color(*_MUTED)
        _lines(pdf, one_line(subtitle), 6)
    pdf.ln(3)

    writer = _Writer(pdf)
    writer.blocks(parse(notice_markdown(reading, code, plan)), pdf.l_margin)
    for heading, text in sections(plan, code):
        _section_heading(pdf, heading)
        empty = Paragraph((Run(labels["empty"], italic=True),))
        writer.blocks(parse(text) or [empty], pdf.l_margin)
    if actions is not None:
        pdf.add_page(orientation="L")
        writer = _Writer(pdf, table_size=_ACTION_TABLE)
        for part in action_sections(actions, code):
            _action_section(pdf, writer, part, actions, code)
    return bytes(pdf.output())


def _section_heading(pdf: FPDF, heading: str) -> None:
    if pdf.will_page_break(2 + 7 + 2.5 + 2 * _LINE):
        pdf.add_page(same=True)  # a section heading never ends a page
    pdf.ln(2)
    pdf.set_font(_SANS, "B", 14)
    pdf.set_text_color(*_GREEN)
    _lines(pdf, heading, 7)
    pdf.set_draw_color(*_GREEN)
    pdf.line(pdf.l_margin, pdf.get_y(), pdf.w - pdf.r_margin, pdf.get_y())
    pdf.ln(2.5)
    pdf.set_text_color(*_TEXT)


def _action_section(
    pdf: FPDF, writer: _Writer, part: ActionSection, actions: PlanActions, lang: Lang
) -> None:
    _section_heading(pdf, part.heading)
    writer.blocks(parse(part.text), pdf.l_margin)
    image = chart_image(actions, part.chart, lang) if part.chart else None
    if image is not None:
        # Centred; with no y, fpdf2 breaks the page first when the picture would not fit.
        pdf.image(io.BytesIO(image), x=Align.C, w=_CHART_WIDTH, alt_text=part.heading)
        pdf.ln(2.5)
    writer.blocks(parse(part.table), pdf.l_margin)
    if part.note:
        writer.blocks(parse(part.note), pdf.l_margin)


def _lines(pdf: FPDF, text: str, height: float) -> None:
    """One-style text across the whole width, wrapped by fpdf2."""
    pdf.multi_cell(
        0, height, _drawable(text, _sans()), align="L", new_x=XPos.LMARGIN, new_y=YPos.NEXT
    )


# --------------------------------------------------------------------------------------------
# Blocks
# --------------------------------------------------------------------------------------------


class _Writer:
    def __init__(self, pdf: FPDF, *, table_size: float = 9) -> None:
        self.pdf = pdf
        self.right = pdf.w - pdf.r_margin  # the page's width when the writer is made
        self.table_size = table_size  # pt, the cells' text

    def blocks(self, blocks: Sequence[Block], left: float) -> None:
        for block in blocks:
            self.block(block, left)

    def block(self, block: Block, left: float) -> None:
        pdf = self.pdf
        left = min(left, self.right - _MIN_WIDTH)  # fpdf2 raises on a line with no room
        match block:
            case Heading():
                if pdf.will_page_break(1.5 + 6 + 2 * _LINE):
                    pdf.add_page(same=True)  # a subheading never ends a page
                pdf.ln(1.5)
                size = 11.5 if block.level <= 3 else _BODY
                self.runs(block.runs, left, height=6, size=size, bold=True)
                pdf.ln(0.5)
            case Paragraph():
                self.runs(block.runs, left)
                pdf.ln(1.8)
            case ListBlock():
                self.list(block, left, depth=0)
                pdf.ln(1.0)
            case Table():
                self.table(block, left)
                pdf.ln(2.5)
            case Code():
                self.code(block.text, left)
                pdf.ln(1.8)
            case Quote():
                pdf.set_text_color(*_MUTED)
                self.blocks(block.blocks, left + _INDENT)
                pdf.set_text_color(*_TEXT)
            case Rule():
                pdf.set_draw_color(200, 200, 200)
                pdf.line(left, pdf.get_y() + 1, self.right, pdf.get_y() + 1)
                pdf.ln(3)

    def runs(
        self,
        runs: Sequence[Run],
        left: float,
        *,
        height: float = _LINE,
        size: float = _BODY,
        bold: bool = False,
    ) -> None:
        """Styled runs as one paragraph from the current line, wrapped back to ``left``."""
        pdf = self.pdf
        margin = pdf.l_margin
        pdf.set_left_margin(left)  # write() starts each wrapped line at the left margin
        pdf.set_x(max(pdf.get_x(), left))
        for run in runs:
            if run.code:
                pdf.set_font(_MONO, "", size - 1)
                text = _drawable(run.text, _mono())
            else:
                style = ("B" if run.bold or bold else "") + ("I" if run.italic else "")
                pdf.set_font(_SANS, style, size)
                text = _drawable(run.text, _sans())
            pdf.write(height, text)
        pdf.ln(height)
        pdf.set_left_margin(margin)
        pdf.set_x(margin)

    def list(self, block: ListBlock, left: float, depth: int) -> None:
        pdf = self.pdf
        pdf.set_font(_SANS, "", _BODY)
        last = block.start + len(block.items) - 1
        marker_width = pdf.get_string_width(f"{last}.") + 2.5 if block.ordered else 5
        marker_left = min(left + (3 if depth == 0 else 0), self.right - _MIN_WIDTH - marker_width)
        text_left = marker_left + marker_width
        for number, item in enumerate(block.items, start=block.start):
            if pdf.will_page_break(_LINE):
                pdf.add_page(same=True)  # the marker and its item's first line share a page
            pdf.set_font(_SANS, "", _BODY)
            pdf.set_x(marker_left)
            marker = f"{number}." if block.ordered else _BULLETS[min(depth, 2)]
            pdf.cell(marker_width, _LINE, marker)
            first = item[0] if item and isinstance(item[0], Paragraph) else None
            self.runs(first.runs if first else (), text_left)
            for inner in item[1 if first else 0 :]:
                if isinstance(inner, ListBlock):
                    self.list(inner, text_left, depth + 1)
                else:
                    self.block(inner, text_left)
            pdf.ln(0.8)

    def table(self, block: Table, left: float) -> None:
        if not block.header:
            return
        pdf = self.pdf
        width = self.right - left
        widths = _column_widths(pdf, block, width, self.table_size)
        if widths is None:
            # Too many columns for the page: fpdf2 would raise, so the rows go out as text.
            rows = (block.header, *block.rows)
            self.code("\n".join(" | ".join(plain(cell) for cell in row) for row in rows), left)
            return
        pdf.set_font(_SANS, "", self.table_size)
        pdf.set_draw_color(170, 170, 170)
        pdf.set_x(left)
        aligns = tuple((align or "left").upper() for align in block.aligns)
        with pdf.table(
            width=width,
            col_widths=widths,
            align="LEFT",
            text_align=aligns or "LEFT",
            line_height=4.6,
            padding=_CELL_PADDING,
            headings_style=FontFace(emphasis="BOLD", fill_color=(232, 241, 235)),
            repeat_headings=1,
        ) as table:
            for index, cells in enumerate((block.header, *block.rows)):
                row = table.row()
                for runs in cells:
                    # fpdf2 cells are one style: a body cell written all in bold stays bold.
                    strong = index > 0 and any(run.text.strip() for run in runs)
                    strong = strong and all(run.bold for run in runs if run.text.strip())
                    style = FontFace(emphasis="BOLD") if strong else None
                    row.cell(_drawable(plain(runs), _sans()), style=style)
        pdf.set_x(pdf.l_margin)

    def code(self, text: str, left: float) -> None:
        pdf = self.pdf
        pdf.set_font(_MONO, "", 8.5)
        pdf.set_fill_color(244, 244, 244)
        pdf.set_x(left)
        pdf.multi_cell(
            self.right - left,
            4.4,
            _drawable(text, _mono()),
            fill=True,
            padding=(1.5, 2),
            wrapmode=WrapMode.CHAR,
            new_x=XPos.LMARGIN,
            new_y=YPos.NEXT,
        )


def _column_widths(pdf: FPDF, table: Table, width: float, size: float) -> tuple[float, ...] | None:
    """Each column's width in mm: at least its longest word (a header's in bold), so no word
    is cut in two; the rest of ``width`` shared as ``_column_weights`` asks. None when even
    the longest words do not fit side by side."""
    padding = 2 * _CELL_PADDING[1] + 0.4  # and a hair for rounding
    floors = []
    for column in range(len(table.header)):
        longest = _MIN_CELL_TEXT
        for index, row in enumerate((table.header, *table.rows)):
            pdf.set_font(_SANS, "B" if index == 0 else "", size)
            for word in _drawable(plain(row[column]), _sans()).split():
                longest = max(longest, min(pdf.get_string_width(word), _MAX_WORD))
        floors.append(longest + padding)
    if sum(floors) > width:
        return None
    weights = _column_weights(table)
    fixed: dict[int, float] = {}  # columns held at their floor
    while True:
        free = width - sum(fixed.values())
        rest = [i for i in range(len(floors)) if i not in fixed]
        total = sum(weights[i] for i in rest)
        starved = [i for i in rest if free * weights[i] / total < floors[i]]
        if not starved:
            break
        fixed.update((i, floors[i]) for i in starved)
    return tuple(fixed[i] if i in fixed else free * weights[i] / total for i in range(len(floors)))


def _column_weights(table: Table) -> tuple[float, ...]:
    """Columns as wide as their longest text, within bounds, so no column is starved."""
    weights = []
    for column in range(len(table.header)):
        texts = [plain(row[column]) for row in (table.header, *table.rows)]
        longest = max(len(text) for text in texts)
        weights.append(float(min(max(longest, 6), 40)))
    return tuple(weights)
