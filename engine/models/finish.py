"""What a provider's finish reason says about a reply: cut at the output-token cap, or
withheld (a safety filter, a recitation stop, a blocked prompt).

Each provider names these its own way. A cut reply must be flagged to the user, never shown
as if complete; a withheld one is no answer at all and must be said so, never shown as an
empty one. Gemini's thinking tokens count against the same cap, so a Gemini reply can be
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

# Reasons for withholding a reply, casefolded, grouped by what the user is told. Gemini
# stops a candidate with one of these (langchain-google-genai keeps the enum's name); a
# prompt Gemini blocks comes back with no candidate and a ``prompt_feedback.block_reason``.
_SAFETY_REASONS = frozenset(
    {
        "safety", "blocklist", "prohibited_content", "spii", "image_safety",
        "image_prohibited_content", "model_armor",  # Gemini
        "content_filter",  # OpenAI-compatible APIs
        "refusal",  # Anthropic
    }
)  # fmt: skip
_RECITATION_REASONS = frozenset({"recitation", "image_recitation"})  # Gemini
_WITHHELD_KEYS = ("finish_reason", "stop_reason")
_NOT_BLOCKED = frozenset({"", "blocked_reason_unspecified"})


def was_truncated(message: Any) -> bool:
    """True when ``message``'s provider reports it stopped at the token cap."""
    metadata = getattr(message, "response_metadata", None) or {}
    return any(
        _one_of(_reason(metadata.get(key)), reasons) for key, reasons in _CAP_REASONS.items()
    )


def withheld_reason(message: Any) -> str | None:
    """Why the provider withheld ``message``'s answer, upper-cased (``"SAFETY"``,
    ``"RECITATION"``, ``"PROHIBITED_CONTENT"``, a prompt's block reason...); None when it
    let the reply through."""
    metadata = getattr(message, "response_metadata", None) or {}
    for key in _WITHHELD_KEYS:
        reason = _reason(metadata.get(key))
        for known in (*_SAFETY_REASONS, *_RECITATION_REASONS):
            if _one_of(reason, frozenset({known})):
                return known.upper()
    feedback = metadata.get("prompt_feedback")
    block = _reason(feedback.get("block_reason") if isinstance(feedback, dict) else None)
    return None if block in _NOT_BLOCKED else block.upper()


def is_recitation(reason: str) -> bool:
    """A reply stopped because it would recite a source word for word, not for safety."""
    return reason.casefold() in _RECITATION_REASONS


def _reason(value: Any) -> str:
    """An enum by its name (``FinishReason.MAX_TOKENS``), anything else by its text."""
    if value is None:
        return ""
    name = getattr(value, "name", None)
    text = name if isinstance(name, str) else str(value)
    return text.rpartition(".")[2].strip().casefold()


def _one_of(reason: str, reasons: frozenset[str]) -> bool:
    # Chunks aggregated with ``+`` concatenate string metadata: a provider that repeats its
    # finish reason on several chunks leaves "lengthlength" on the aggregated reply.
    return bool(reason) and any(
        len(reason) % len(cap) == 0 and reason == cap * (len(reason) // len(cap)) for cap in reasons
    )
