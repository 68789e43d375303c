"""Token counts for the models that run here (scripted, offline): about four characters a
token, never zero, so they account like a provider's model does."""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import BaseMessage
from langchain_core.messages.ai import UsageMetadata


def estimated_usage(messages: Sequence[BaseMessage], answer: str) -> UsageMetadata:
    prompt = sum(len(message.text) for message in messages) // 4 + 1
    output = len(answer) // 4 + 1
    return {"input_tokens": prompt, "output_tokens": output, "total_tokens": prompt + output}
