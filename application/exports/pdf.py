"""The plan as an A4 PDF, laid out by fpdf2 itself in the bundled DejaVu fonts.

fpdf2 wraps the text (``write`` for styled runs, ``multi_cell`` for code, ``table`` for
tables); this module only decides fonts, indents, spacing and the tables' column widths: no
word is cut in two, and the spare width goes where it saves the most lines. A table too wide
for the page is tried at a smaller size, then printed row by row as "header: value" pairs.
The computed action table (landscape, ``compact``: two sources named per action, the rest
counted) joins a row's neighbouring cells of the same words ("custo desconhecido") into one.
The DejaVu faces are embedded (fpdf2 keeps only the glyphs used), so "CO₂", "≥", "—", "“…”"
and "→" print as written.
"""

from __future__ import annotations

import io
import re
import unicodedata
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from fontTools.ttLib import TTFont
from fpdf import FPDF, FontFace
from fpdf.enums import Align, TextEmphasis, WrapMode, XPos, YPos

from application.exports.actions import (
    ActionSection,
    action_sections,
    chart_image,
    computed_blocks,
)
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
from application.exports.labels import TEXTS, Lang, footer_line, language, one_line, sections
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
_CHART_SHRINK = 0.8  # a chart shrinks to fit the rest of a page down to this share of its size
_ACTION_PADDING = (0.9, 1.0)  # mm: the action table's cells, a tighter fit than the body's
_TABLE_SIZES = (0, 1, 2)  # pt less than the writer's size a wide table is tried at, in turn
_MIN_TABLE_SIZE = 6.0  # pt
# A range of figures ("4.186,6–20.932,9") may break after its dash: fpdf2 breaks only at
# spaces and at this zero-width one, which it draws as nothing.
_RANGE_DASH = re.compile(r"(?<=\d)–(?=-?\d)")
_ZWSP = "\u200b"
_STEPS = (1.0, 2.0, 4.0, 8.0, 16.0, 32.0)  # mm a column is tried wider by


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
    pdf = _PlanPdf(footer_line(plan, code), TEXTS("page", code))  # the template, unfilled
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
    computed = computed_blocks(actions, code) if actions is not None else None
    for heading, text in sections(plan, code, computed):
        _section_heading(pdf, heading)
        empty = Paragraph((Run(TEXTS("empty", code), italic=True),))
        writer.blocks(parse(text) or [empty], pdf.l_margin)
    if actions is not None:
        pdf.add_page(orientation="L")
        writer = _Writer(pdf, table_size=_ACTION_TABLE, padding=_ACTION_PADDING, merge=True)
        for part in action_sections(actions, code, compact=True):
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
        _chart(pdf, image, part.heading)
    writer.blocks(parse(part.table), pdf.l_margin)
    if part.note:
        writer.blocks(parse(part.note), pdf.l_margin)


def _chart(pdf: FPDF, image: bytes, alt_text: str) -> None:
    """The picture centred, ``_CHART_WIDTH`` wide unless the page's height asks for less:
    it shrinks to the room left on this page when that keeps most of its size, else it
    starts the next page (and shrinks to that page's height if it must)."""
    width_px, height_px = int.from_bytes(image[16:20], "big"), int.from_bytes(image[20:24], "big")
    ratio = height_px / width_px if width_px else 0.75
    full = pdf.h - pdf.t_margin - pdf.b_margin - 3
    wanted = min(_CHART_WIDTH, full / ratio)
    room = pdf.h - pdf.b_margin - pdf.get_y() - 3
    if room < wanted * ratio * _CHART_SHRINK:
        pdf.add_page(same=True)
        room = full
    width = min(wanted, room / ratio)
    pdf.image(io.BytesIO(image), x=Align.C, w=width, alt_text=alt_text)
    pdf.ln(2.5)


def _lines(pdf: FPDF, text: str, height: float) -> None:
    """One-style text across the whole width, wrapped by fpdf2."""
    pdf.multi_cell(
        0, height, _drawable(text, _sans()), align="L", new_x=XPos.LMARGIN, new_y=YPos.NEXT
    )


# --------------------------------------------------------------------------------------------
# Blocks
# --------------------------------------------------------------------------------------------


class _Writer:
    def __init__(
        self,
        pdf: FPDF,
        *,
        table_size: float = 9,
        padding: tuple[float, float] = _CELL_PADDING,
        merge: bool = False,
    ) -> None:
        self.pdf = pdf
        self.right = pdf.w - pdf.r_margin  # the page's width when the writer is made
        self.table_size = table_size  # pt, the cells' text
        self.padding = padding  # mm: top/bottom, left/right
        self.merge = merge  # neighbouring body cells of the same words become one

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
        """A real table, its columns as wide as their words need (no word is cut), the
        rest of the width given where it saves the most lines. Too wide at the writer's
        size, it is tried smaller; too wide even then, each row is printed as its own
        paragraph of "header: value" pairs. With ``merge``, neighbouring body cells that
        say the same words ("custo desconhecido" under Capex, Opex, R$/t and Payback) are
        one cell across those columns."""
        if not block.header:
            return
        pdf = self.pdf
        width = self.right - left
        spans = _spans(block, self.merge)
        for smaller in _TABLE_SIZES:
            size = max(self.table_size - smaller, _MIN_TABLE_SIZE)
            layout = _Layout(pdf, block, spans, size, self.padding)
            widths = layout.widths(width)
            if widths is not None:
                break
        else:
            self.records(block, left)
            return
        pdf.set_font(_SANS, "", size)
        pdf.set_draw_color(170, 170, 170)
        pdf.set_x(left)
        aligns = tuple((align or "left").upper() for align in block.aligns)
        with pdf.table(
            width=width,
            col_widths=widths,
            align="LEFT",
            text_align=aligns or "LEFT",
            line_height=size * 0.42 + 0.9,  # mm: 4.7 at 9 pt, 3.8 at 7 pt
            padding=self.padding,
            headings_style=FontFace(emphasis="BOLD", fill_color=(232, 241, 235)),
            repeat_headings=1,
        ) as table:
            for index, cells in enumerate((block.header, *block.rows)):
                row = table.row()
                for start, span in spans[index]:
                    runs = cells[start]
                    # fpdf2 cells are one style: a body cell written all in bold stays bold.
                    strong = index > 0 and any(run.text.strip() for run in runs)
                    strong = strong and all(run.bold for run in runs if run.text.strip())
                    style = FontFace(emphasis="BOLD") if strong else None
                    text = _breakable(_drawable(plain(runs), _sans()))
                    align = "CENTER" if span > 1 else None
                    row.cell(text, style=style, colspan=span, align=align)
        pdf.set_x(pdf.l_margin)

    def records(self, block: Table, left: float) -> None:
        """A table too wide for the page, row by row: each a paragraph of its cells, each
        cell after its column's header in bold, wrapped at spaces like any paragraph."""
        headers = [plain(cell).strip() for cell in block.header]
        for cells in block.rows or (tuple(() for _ in headers),):
            runs: list[Run] = []
            for header, cell in zip(headers, cells, strict=False):
                if runs:
                    runs.append(Run("  ·  "))
                runs += [Run(f"{header}: " if header else "", bold=True), Run(plain(cell))]
            self.runs(runs, left, size=self.table_size)
            self.pdf.ln(1.2)

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


def _spans(block: Table, merge: bool) -> list[list[tuple[int, int]]]:
    """Each row's cells as (first column, columns spanned): one column each, unless
    ``merge`` joins a body row's neighbouring cells of the same words (not figures)."""
    rows = (block.header, *block.rows)
    spans: list[list[tuple[int, int]]] = []
    for index, cells in enumerate(rows):
        texts = [" ".join(plain(cell).split()) for cell in cells]
        row: list[tuple[int, int]] = []
        column = 0
        while column < len(texts):
            span = 1
            if merge and index > 0 and any(char.isalpha() for char in texts[column]):
                while column + span < len(texts) and texts[column + span] == texts[column]:
                    span += 1
            row.append((column, span))
            column += span
        spans.append(row)
    return spans


class _Layout:
    """The column widths of a table at one font size: each column at least as wide as its
    longest word (a header's in bold), so no word is cut in two; the rest of the width
    given, a few mm at a time, where it saves the most lines of the whole table (each row
    as tall as its tallest cell), and what saves nothing more shared as
    ``_column_weights`` asks. A cell across several columns sets none of their widths."""

    def __init__(
        self,
        pdf: FPDF,
        table: Table,
        spans: list[list[tuple[int, int]]],
        size: float,
        padding: tuple[float, float],
    ) -> None:
        self.table = table
        self.columns = len(table.header)
        self.rows = len(spans)
        self.room = 2 * padding[1] + 0.4  # and a hair for rounding
        # column -> row -> the cell's lines -> its words' widths; None under a wide cell
        self.cells: list[list[list[list[float]] | None]] = [
            [None] * self.rows for _ in range(self.columns)
        ]
        for index, row in enumerate(spans):
            pdf.set_font(_SANS, "B" if index == 0 else "", size)
            cells = (table.header, *table.rows)[index]
            for column, span in row:
                if span == 1:
                    text = _drawable(plain(cells[column]), _sans())
                    self.cells[column][index] = [
                        [pdf.get_string_width(word) for word in _words(line)]
                        for line in text.split("\n")
                    ]
        pdf.set_font(_SANS, "", size)
        self.space = pdf.get_string_width(" ")

    def widths(self, width: float) -> tuple[float, ...] | None:
        """None when even the longest words do not fit side by side in ``width``."""
        floors = []
        for column in self.cells:
            words = [w for cell in column if cell for line in cell for w in line]
            floors.append(min(max([_MIN_CELL_TEXT, *words]), _MAX_WORD) + self.room)
        if sum(floors) > width:
            return None
        spare = width - sum(floors)
        widths = list(floors)
        lines = [self._lines(c, widths[c]) for c in range(self.columns)]
        while spare > 0.5:
            tallest = [max(lines[c][r] for c in range(self.columns)) for r in range(self.rows)]
            best: tuple[float, int, float, list[int]] | None = None  # lines saved per mm
            for c in range(self.columns):
                others = [
                    max([1, *(lines[o][r] for o in range(self.columns) if o != c)])
                    for r in range(self.rows)
                ]
                for step in (s for s in _STEPS if s <= spare):
                    wider = self._lines(c, widths[c] + step)
                    saved = sum(tallest[r] - max(wider[r], others[r]) for r in range(self.rows))
                    if saved > 0 and (best is None or saved / step > best[0]):
                        best = (saved / step, c, step, wider)
            if best is None:
                break
            _, c, step, wider = best
            widths[c] += step
            lines[c] = wider
            spare -= step
        weights = _column_weights(self.table)
        total = sum(weights)
        return tuple(w + spare * share / total for w, share in zip(widths, weights, strict=True))

    def _lines(self, column: int, width: float) -> list[int]:
        """Each row's line count in ``column`` at ``width`` (1 under a wide cell)."""
        return [
            _wrapped(cell, self.space, width - self.room) if cell else 1
            for cell in self.cells[column]
        ]


def _wrapped(cell: list[list[float]], space: float, width: float) -> int:
    """How many lines a cell's words (their widths, line by line) fill at ``width``."""
    count = 0
    for line in cell:
        count += 1
        filled = 0.0
        for word in line:
            if filled and filled + space + word > width:
                count += 1
                filled = word
            else:
                filled += (space if filled else 0.0) + word
    return count


def _breakable(text: str) -> str:
    """``text`` with a line break allowed after the dash of a range of figures."""
    return _RANGE_DASH.sub("–" + _ZWSP, text)


def _words(text: str) -> list[str]:
    """The pieces of ``text`` a line cannot break inside (``_breakable``'s breaks too)."""
    return [word for word in re.split(r"\s+", _breakable(text).replace(_ZWSP, " ")) if word]


def _column_weights(table: Table) -> tuple[float, ...]:
    """Columns as wide as their cells' mean length, within bounds: a column of long texts
    (an action's inventory rows, its KPI) gets the room a column of figures does not need,
    so its rows wrap to about as many lines as the others' and the table stays short."""
    weights = []
    for column in range(len(table.header)):
        body = [len(plain(row[column])) for row in table.rows] or [len(plain(table.header[column]))]
        weights.append(float(min(max(sum(body) / len(body), 6), 150)))
    return tuple(weights)
