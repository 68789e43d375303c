"""Sanitized Markdown read as blocks: the one parse the DOCX and PDF writers both walk.

markdown-it-py does the reading (CommonMark plus tables). Its flat token stream becomes a
small tree of frozen dataclasses, so each writer is a plain recursive walk and never sees a
token. Links keep only their text and images are dropped: no URL reaches an export even if
the sanitizer in front of this ever lets one through.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from markdown_it import MarkdownIt
from markdown_it.token import Token

__all__ = [
    "Block",
    "Code",
    "Heading",
    "ListBlock",
    "Paragraph",
    "Quote",
    "Rule",
    "Run",
    "Table",
    "parse",
    "plain",
]

# html off: a tag is text, never markup. The entity rule off: sanitize() writes "<" as
# "&lt;", and decoding it here would bring "<script>" back into the DOCX and the PDF.
_MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table").disable("entity")

# Models write "• item" as often as "- item"; CommonMark only knows the latter.
_BULLET_GLYPH = re.compile(r"(?m)^([ \t]*)[•▪◦][ \t]+")

Align = Literal["left", "center", "right"]


@dataclass(frozen=True)
class Run:
    """A piece of inline text in one style; "\n" in ``text`` is a hard line break."""

    text: str
    bold: bool = False
    italic: bool = False
    code: bool = False


Inline = tuple[Run, ...]


@dataclass(frozen=True)
class Heading:
    level: int  # 1..6, as written
    runs: Inline


@dataclass(frozen=True)
class Paragraph:
    runs: Inline


@dataclass(frozen=True)
class ListBlock:
    ordered: bool
    start: int  # the first item's number; 1 for bullets
    items: tuple[tuple[Block, ...], ...]


@dataclass(frozen=True)
class Table:
    header: tuple[Inline, ...]
    rows: tuple[tuple[Inline, ...], ...]  # each as wide as the header
    aligns: tuple[Align | None, ...]


@dataclass(frozen=True)
class Code:
    text: str


@dataclass(frozen=True)
class Quote:
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class Rule:
    pass


Block = Heading | Paragraph | ListBlock | Table | Code | Quote | Rule


def parse(text: str) -> list[Block]:
    """The blocks of already sanitized Markdown ``text``."""
    tokens = _MARKDOWN.parse(_BULLET_GLYPH.sub(r"\1- ", text or ""))
    blocks, _ = _blocks(tokens, 0, until=None)
    return blocks


def plain(runs: Sequence[Run]) -> str:
    """The text of some runs, without any style."""
    return "".join(run.text for run in runs)


def _blocks(tokens: list[Token], index: int, until: str | None) -> tuple[list[Block], int]:
    """Blocks from ``tokens[index]`` up to the ``until`` token; returns the index after it."""
    blocks: list[Block] = []
    while index < len(tokens):
        token = tokens[index]
        kind = token.type
        if kind == until:
            return blocks, index + 1
        if kind == "heading_open":
            blocks.append(Heading(int(token.tag[1:]), _runs(tokens[index + 1])))
            index += 3
        elif kind == "paragraph_open":
            blocks.append(Paragraph(_runs(tokens[index + 1])))
            index += 3
        elif kind in ("bullet_list_open", "ordered_list_open"):
            block, index = _list(tokens, index)
            blocks.append(block)
        elif kind == "blockquote_open":
            inner, index = _blocks(tokens, index + 1, until="blockquote_close")
            blocks.append(Quote(tuple(inner)))
        elif kind == "table_open":
            block, index = _table(tokens, index)
            blocks.append(block)
        elif kind in ("fence", "code_block"):
            blocks.append(Code(token.content.rstrip("\n")))
            index += 1
        elif kind == "hr":
            blocks.append(Rule())
            index += 1
        else:
            index += 1  # html_block cannot occur with html off; anything new is skipped
    return blocks, index


def _list(tokens: list[Token], index: int) -> tuple[ListBlock, int]:
    opening = tokens[index]
    ordered = opening.type == "ordered_list_open"
    start = int(opening.attrGet("start") or 1) if ordered else 1
    items: list[tuple[Block, ...]] = []
    index += 1
    while tokens[index].type == "list_item_open":
        item, index = _blocks(tokens, index + 1, until="list_item_close")
        items.append(tuple(item))
    return ListBlock(ordered, start, tuple(items)), index + 1  # past the list's close


def _table(tokens: list[Token], index: int) -> tuple[Table, int]:
    rows: list[list[Inline]] = []
    aligns: list[Align | None] = []
    index += 1
    while tokens[index].type != "table_close":
        token = tokens[index]
        if token.type == "tr_open":
            rows.append([])
        elif token.type in ("th_open", "td_open"):
            if token.type == "th_open":
                aligns.append(_align(token))
            rows[-1].append(_runs(tokens[index + 1]))
        index += 1
    header, *body = rows or [[]]
    width = len(header)
    body = [(row + [()] * width)[:width] for row in body]
    return Table(tuple(header), tuple(tuple(row) for row in body), tuple(aligns)), index + 1


def _align(token: Token) -> Align | None:
    style = str(token.attrGet("style") or "")
    for align in ("left", "center", "right"):
        if style.endswith(align):
            return align
    return None


def _runs(inline: Token) -> Inline:
    """Inline children as styled runs; neighbours in one style are merged."""
    runs: list[Run] = []
    bold = italic = 0

    def add(text: str, code: bool = False) -> None:
        if not text:
            return
        run = Run(text, bold > 0, italic > 0, code)
        last = runs[-1] if runs else None
        if last and (last.bold, last.italic, last.code) == (run.bold, run.italic, code):
            runs[-1] = Run(last.text + text, run.bold, run.italic, code)
        else:
            runs.append(run)

    for child in inline.children or ():
        kind = child.type
        if kind == "strong_open":
            bold += 1
        elif kind == "strong_close":
            bold -= 1
        elif kind == "em_open":
            italic += 1
        elif kind == "em_close":
            italic -= 1
        elif kind == "text":
            add(child.content)
        elif kind == "code_inline":
            add(child.content, code=True)
        elif kind == "softbreak":
            add(" ")
        elif kind == "hardbreak":
            add("\n")
        # link_open/link_close: the link's text stays, its target never leaves the token.
        # image: dropped with its alt text. html_inline cannot occur with html off.
    return tuple(runs)
