"""Whether a provider cut a reply at the output-token cap, read from its finish reason.

Each provider names it its own way; a cut reply must be flagged to the user, never shown as
if complete. Gemini's thinking tokens count against the same cap, so a Gemini reply can be
cut with little or no visible text.
"""

from __future__ import annotations

from typing import Any

# response_metadata key -> the reasons under it that mean "the cap was reached", casefolded.
_CAP_REASONS: dict[str, frozenset[str]] = {
    # OpenAI-compatible APIs say "length"; Gemini says MAX_TOKENS (a string, or an enum).
    "finish_reason": frozenset({"length", "max_tokens"}),
    "stop_reason": frozenset({"max_tokens"}),  # Anthropic
    "done_reason": frozenset({"length"}),  # Ollama
}


def was_truncated(message: Any) -> bool:
    """True when ``message``'s provider reports it stopped at the token cap."""
    metadata = getattr(message, "response_metadata", None) or {}
    return any(
        _capped(_reason(metadata.get(key)), reasons) for key, reasons in _CAP_REASONS.items()
    )


def _reason(value: Any) -> str:
    """An enum by its name (``FinishReason.MAX_TOKENS``), anything else by its text."""
    if value is None:
        return ""
    name = getattr(value, "name", None)
    text = name if isinstance(name, str) else str(value)
    return text.rpartition(".")[2].strip().casefold()


def _capped(reason: str, reasons: frozenset[str]) -> bool:
    # Chunks aggregated with ``+`` concatenate string metadata: a provider that repeats its
    # finish reason on several chunks leaves "lengthlength" on the aggregated reply.
    return bool(reason) and any(
        len(reason) % len(cap) == 0 and reason == cap * (len(reason) // len(cap)) for cap in reasons
    )
