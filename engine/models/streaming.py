"""The run metadata of a streamed call, for the models that answer from it.

The offline analyst and the scripted model pick their answer from the call's run metadata,
which ``_generate`` reads from its run manager. langchain-core's ``stream`` (1.8) calls
``_stream`` without a run manager, so these models keep the call's metadata here while they
stream, and ``_stream`` hands ``_generate`` a silent run manager that carries it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from typing import Any
from uuid import uuid4

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import LanguageModelInput
from langchain_core.messages import AIMessageChunk
from langchain_core.runnables import RunnableConfig, ensure_config

_STREAMED: ContextVar[dict[str, Any] | None] = ContextVar("aeko_streamed_metadata", default=None)


@contextmanager
def streaming_call(config: RunnableConfig | None) -> Iterator[None]:
    """Around a model's ``stream``: its ``_stream`` may then read the call's metadata."""
    token = _STREAMED.set(dict(ensure_config(config).get("metadata") or {}))
    try:
        yield
    finally:
        # A stream abandoned by its reader is closed later, maybe from another context,
        # where there is nothing of this call to undo.
        with suppress(ValueError):
            _STREAMED.reset(token)


def stream_run_manager(
    run_manager: CallbackManagerForLLMRun | None,
) -> CallbackManagerForLLMRun | None:
    """The run manager ``_stream`` got, or else one with no handlers carrying the metadata
    of the call being streamed (None outside ``streaming_call``)."""
    if run_manager is not None:
        return run_manager
    metadata = _STREAMED.get()
    if metadata is None:
        return None
    return CallbackManagerForLLMRun(
        run_id=uuid4(), handlers=[], inheritable_handlers=[], metadata=metadata
    )


class StreamsWithMetadata:
    """Mixed into a chat model that answers from its run metadata: its ``stream`` keeps the
    call's metadata where ``stream_run_manager`` finds it."""

    def stream(
        self,
        input: LanguageModelInput,
        config: RunnableConfig | None = None,
        *,
        stop: list[str] | None = None,
        **kwargs: Any,
    ) -> Iterator[AIMessageChunk]:
        with streaming_call(config):
            yield from super().stream(input, config, stop=stop, **kwargs)  # type: ignore[misc]
