"""A conversation as Markdown: its name, then each turn's date, question and answer."""

from __future__ import annotations

from application.exports.labels import language, one_line
from application.exports.markdown import md_literal
from application.safe_text import sanitize
from engine.dto import AekoSession
from engine.texts import Texts

__all__ = ["conversation_markdown"]

# "chat" is what the chat page is titled (components.i18n "chat_title"), kept here because
# the application layer never imports components.
_TEXTS = Texts(
    "application.exports.conversation",
    {
        "chat": {"pt": "Chat ESG", "en": "ESG chat"},
        "untitled": {"pt": "Conversa", "en": "Conversation"},
    },
)


def conversation_markdown(session: AekoSession, *, lang: str) -> str:
    """Every field is sanitized: the name and the questions are user text, the answers model
    text, and a link or tag in any of them must not come back live in the file."""
    code = language(lang)
    name = md_literal(one_line(session.name)) or _TEXTS("untitled", code)
    lines = [f"# {name}", ""]
    for turn in session.messages:
        lines += [
            f"**{_TEXTS('chat', code)} – {turn.submitted_at:%d/%m/%Y %H:%M}**",
            "",
            _quoted(sanitize(turn.input).strip()),
            "",
            sanitize(turn.output).strip(),
            "",
        ]
    return "\n".join(lines)


def _quoted(text: str) -> str:
    """Every line of the question inside the quote, not only its first."""
    return "\n".join(f"> {line}".rstrip() for line in (text or "").split("\n"))
