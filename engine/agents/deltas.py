"""An unreviewed answer streamed as the model writes it, without its routing marker.

Agents end their text with a ``Next agent: <name>`` line that only the engine reads. While a
reply streams in, text that may still turn into that marker is held back, and nothing from a
marker on is sent. Once the reply is complete, the rest of the final clean text (what
``split_marker`` keeps) is sent, so the deltas since the last restart always concatenate to
exactly the reply's text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage, message_chunk_to_message
from langchain_core.runnables import Runnable, RunnableConfig

from engine.events import AnswerDelta
from engine.protocol import _MARKER  # the same grammar split_marker removes, to the character

Emit = Callable[[Any], None]

# Every proper beginning of a ``_MARKER`` match up to its colon: a line's tail that fully
# matches this may still become a marker once more text arrives.
_MARKER_BEGINNING = re.compile(
    r"""[ \t]*[*_`>"'\-]*[ \t]*"""
    r"(?:n(?:e(?:x(?:t[ \t]*(?:a(?:g(?:e(?:n(?:t[ \t]*[*_`]*[ \t]*)?)?)?)?)?)?)?)?)?",
    re.IGNORECASE,
)
_MARKER_FIRST = frozenset(" \t*_`>\"-'nN")  # where such a beginning can start
_BLANK_RUN = re.compile(r"\n{3,}")  # split_marker folds these


class AnswerStream:
    """What one agent has shown of its answer; one per ``AgentRunner.run``."""

    def __init__(self, agent: str, emit: Emit, attempt: int = 1) -> None:
        self._agent, self._emit, self._attempt = agent, emit, attempt
        self._reset()

    def _reset(self) -> None:
        self._raw = ""  # the reply so far, as the model wrote it
        self._safe = 0  # raw[:safe] holds no marker and nothing that may become one
        self._marker_seen = False
        self._tool_round = False
        self._sent = ""  # what the deltas since the last restart add up to

    def feed(self, text: str, *, tool_call: bool = False) -> None:
        """The next piece of the reply; a piece carrying a tool call makes it a tool round."""
        if tool_call:
            # A tool round's text is no answer: nothing more is shown, and run() takes back
            # what already was.
            self._tool_round = True
        if self._tool_round or self._marker_seen or not text:
            return
        self._raw += text
        self._safe = self._safe_end()
        self._send(_visible(self._raw[: self._safe]))

    def finish(self, text: str) -> None:
        """The reply is complete and ``text`` is its clean text: send what is still missing.

        What was sent folds runs of blank lines as split_marker does when the reply has a
        marker, as agents' replies do; a reply without one keeps them, and is sent again in
        full after a restart (Markdown draws both alike, but the sum must be exact)."""
        if not text.startswith(self._sent):
            self.restart()
        self._send(text)

    def restart(self) -> None:
        """The reply starts over (a retry, a fallback, a tool round): drop what was shown."""
        if self._sent:
            self._emit(AnswerDelta(agent=self._agent, text="", attempt=self._attempt, restart=True))
        self._reset()

    def _send(self, visible: str) -> None:
        if len(visible) > len(self._sent) and visible.startswith(self._sent):
            delta = visible[len(self._sent) :]
            self._emit(AnswerDelta(agent=self._agent, text=delta, attempt=self._attempt))
            self._sent = visible

    def _safe_end(self) -> int:
        """Where text that may be, or become, a marker starts; it never moves back, because
        a tail that cannot begin a marker cannot begin one once more text follows it."""
        raw = self._raw
        found = _MARKER.search(raw, self._safe)
        if found is not None:
            self._marker_seen = True
            return found.start()
        # A marker never spans lines: only the current line's tail may still grow into one.
        start = max(self._safe, raw.rfind("\n") + 1)
        for index in range(start, len(raw)):
            if raw[index] in _MARKER_FIRST and _MARKER_BEGINNING.fullmatch(raw, index):
                return index
        return len(raw)


def _visible(safe: str) -> str:
    """``safe`` as split_marker would leave it, minus trailing whitespace, which the rest of
    the reply may still fold or strip: so each value is a prefix of the final clean text."""
    return _BLANK_RUN.sub("\n\n", safe).strip()


def streamed_reply(
    model: Runnable,
    messages: Sequence[BaseMessage],
    config: RunnableConfig,
    answer: AnswerStream,
    keywords: Mapping[str, Any] | None = None,
) -> AIMessage:
    """Stream one model call (with its call ``keywords``) into ``answer``; return the whole
    reply, chunks aggregated."""
    whole: AIMessageChunk | None = None
    single: BaseMessage | None = None
    for piece in model.stream(list(messages), config=config, **(keywords or {})):
        if isinstance(piece, AIMessageChunk):
            whole = piece if whole is None else whole + piece
            answer.feed(piece.text, tool_call=bool(piece.tool_call_chunks))
        else:  # a model that cannot stream hands its whole message over once
            single = piece
            answer.feed(piece.text, tool_call=bool(getattr(piece, "tool_calls", None)))
    if whole is not None:
        single = message_chunk_to_message(whole)
    if not isinstance(single, AIMessage):
        raise ValueError(f"the model streamed no message: {single!r}")
    return single
