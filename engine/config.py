"""``Aeko``: the configuration facade. The engine reads no environment: callers pass it all."""

from __future__ import annotations

from engine.constants import (
    DEFAULT_FAST_MODEL,
    DEFAULT_MAX_RETRIES,
    DEFAULT_MAX_TOKENS,
    DEFAULT_REPORT_MAX_TOKENS,
    DEFAULT_REQUEST_TIMEOUT_S,
    DEFAULT_SLOW_MODEL,
)
from engine.models.factory import ModelSettings, ModelSpec
from engine.runtime import RUNTIME


class Aeko:
    @staticmethod
    def config(
        api_key: str | None = None,
        *,
        fast_model: ModelSpec | None = None,
        slow_model: ModelSpec | None = None,
        max_tokens: int | None = None,
        report_max_tokens: int | None = None,
        request_timeout: float | None = None,
        max_retries: int | None = None,
    ) -> None:
        """Configure the process-wide engine; the agents are rebuilt on the next run.

        ``fast_model`` and ``slow_model`` take a Gemini model id or a ready LangChain chat
        model; ``api_key`` may be omitted only when both are models.
        """
        RUNTIME.configure(
            ModelSettings(
                api_key=api_key,
                fast_model=DEFAULT_FAST_MODEL if fast_model is None else fast_model,
                slow_model=DEFAULT_SLOW_MODEL if slow_model is None else slow_model,
                max_tokens=DEFAULT_MAX_TOKENS if max_tokens is None else max_tokens,
                report_max_tokens=(
                    DEFAULT_REPORT_MAX_TOKENS if report_max_tokens is None else report_max_tokens
                ),
                request_timeout=(
                    DEFAULT_REQUEST_TIMEOUT_S if request_timeout is None else request_timeout
                ),
                max_retries=DEFAULT_MAX_RETRIES if max_retries is None else max_retries,
            )
        )

    @staticmethod
    def is_configured() -> bool:
        return RUNTIME.settings is not None

    @staticmethod
    def model_names() -> tuple[str, str] | None:
        """The configured fast and slow models' names (never the key); None if unconfigured."""
        settings = RUNTIME.settings
        if settings is None:
            return None
        return _name(settings.fast_model), _name(settings.slow_model)

    @staticmethod
    def reset() -> None:
        """Restore every default and clear the registered tools."""
        RUNTIME.reset()


def _name(model: ModelSpec) -> str:
    return (
        model if isinstance(model, str) else str(getattr(model, "model_name", type(model).__name__))
    )
