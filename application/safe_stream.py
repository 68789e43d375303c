"""Untrusted text made safe while it streams: what is shown never holds half a link.

``sanitize`` needs a whole construct to recognise it: ``[text](http://…`` is not yet a
link, and a Markdown renderer that completes unterminated syntax as it streams may still
draw one. So complete lines are shown sanitized, and of the line still being written only
the part before anything that may open a link, an image, a URL or an HTML tag.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from application.safe_text import sanitize

# What may open a construct sanitize removes: brackets and "!" (links, images, reference
# definitions), "<" (tags, autolinks), "(" (a URL in parentheses), and a URL's start.
_OPENER = re.compile(r"[\[!<(]|http|ftp|www", re.IGNORECASE)
# The end of a line that may still grow into a URL's start.
_OPENER_TAIL = re.compile(r"(?:h(?:t(?:tp?)?)?|f(?:t)?|w(?:w)?)$", re.IGNORECASE)


def safe_stream(pieces: Iterable[str], *, complete: bool = True) -> Iterator[str]:
    """Yield ``pieces`` made safe as they arrive; what is yielded adds up to the sanitized
    lines of their concatenation. ``complete=False``: the text goes on after the last piece,
    so the line it ends in keeps back what is not settled yet."""
    line = ""  # the line being written, as received
    shown = ""  # what was yielded of it, sanitized
    for piece in pieces:
        line += piece
        *done, line = line.split("\n")
        for finished in done:
            yield _rest(sanitize(finished.rstrip("\r")), shown) + "\n"
            shown = ""
        settled = sanitize(_settled(line))
        rest = _rest(settled, shown)
        if rest:
            yield rest
            shown = settled
    if complete and line:
        rest = _rest(sanitize(line), shown)
        if rest:
            yield rest


def _settled(line: str) -> str:
    """The beginning of an unfinished line that no further text can turn into a link, an
    image, a URL or a tag; trailing blanks wait too, as sanitize may fold them."""
    opener = _OPENER.search(line) or _OPENER_TAIL.search(line)
    return line[: opener.start() if opener else len(line)].rstrip()


def _rest(text: str, shown: str) -> str:
    """What ``text`` adds to the ``shown`` beginning of its line. The sanitized settled part
    of a line is a beginning of the sanitized whole line: sanitize's patterns start at an
    opener, or at blanks just before one, and settled text stops before both."""
    return text[len(shown) :]
