"""``Aeko``: the configuration facade. The engine reads no environment: callers pass it all."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from engine.budget import DEFAULT_RUN_DEADLINE_S, RunBudget, set_default_deadline
from engine.constants import (
    DEFAULT_FAST_MODEL,
    DEFAULT_MAX_RETRIES,
    DEFAULT_MAX_TOKENS,
    DEFAULT_REPORT_MAX_TOKENS,
    DEFAULT_REQUEST_TIMEOUT_S,
    DEFAULT_SLOW_MODEL,
)
from engine.models.factory import ModelSettings, ModelSpec, as_specs, spec_name
from engine.models.resilience import RetryPolicy
from engine.runlog import RunLog
from engine.runtime import RUNTIME


def _or(value, default):
    return default if value is None else value


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
        retry_base_delay: float | None = None,
        fast_fallbacks: Sequence[ModelSpec] | None = None,
        slow_fallbacks: Sequence[ModelSpec] | None = None,
        provider_keys: Mapping[str, str] | None = None,
        max_model_calls_per_run: int | None = None,
        max_tokens_per_run: int | None = None,
        run_deadline_s: float | None = DEFAULT_RUN_DEADLINE_S,
        run_log: str | Path | None = None,
        run_log_max_bytes: int | None = None,
        run_log_backups: int | None = None,
        run_log_include_text: bool = False,
    ) -> None:
        """Configure the process-wide engine; the agents are rebuilt on the next run.

        Models are a Gemini model id, a ``provider:model`` id, or a ready LangChain chat
        model; ``api_key`` (Gemini) may be omitted when no Gemini id is used. Each tier
        falls back, in order, to its ``*_fallbacks`` (by default: the other tier's model).
        Provider calls are retried ``max_retries`` times with exponential backoff. A run
        stops before its next model call once ``run_deadline_s`` seconds have passed (None:
        no deadline). The ``run_log`` rotates past ``run_log_max_bytes``, keeping
        ``run_log_backups`` older files, and holds no questions, answers or tool arguments
        unless ``run_log_include_text``.
        """
        settings = ModelSettings(
            api_key=api_key,
            fast_model=_or(fast_model, DEFAULT_FAST_MODEL),
            slow_model=_or(slow_model, DEFAULT_SLOW_MODEL),
            max_tokens=_or(max_tokens, DEFAULT_MAX_TOKENS),
            report_max_tokens=_or(report_max_tokens, DEFAULT_REPORT_MAX_TOKENS),
            request_timeout=_or(request_timeout, DEFAULT_REQUEST_TIMEOUT_S),
            retry=RetryPolicy(
                max_retries=_or(max_retries, DEFAULT_MAX_RETRIES),
                base_delay_s=_or(retry_base_delay, RetryPolicy.base_delay_s),
            ),
            fast_fallbacks=as_specs(fast_fallbacks),
            slow_fallbacks=as_specs(slow_fallbacks),
            provider_keys=dict(provider_keys or {}),
        )
        budget = RunBudget(
            max_model_calls=max_model_calls_per_run,
            max_tokens=max_tokens_per_run,
            deadline_s=run_deadline_s,
        )
        secrets = [api_key, *(provider_keys or {}).values()]
        log = None
        if run_log:
            rotation = {
                key: value
                for key, value in (("max_bytes", run_log_max_bytes), ("backups", run_log_backups))
                if value is not None
            }
            log = RunLog(run_log, secrets, include_text=run_log_include_text, **rotation)
        RUNTIME.configure(settings, budget, log)
        set_default_deadline(run_deadline_s)

    @staticmethod
    def is_configured() -> bool:
        return RUNTIME.settings is not None

    @staticmethod
    def model_names() -> tuple[str, str] | None:
        """The configured fast and slow models' names (never the key); None if unconfigured."""
        settings = RUNTIME.settings
        if settings is None:
            return None
        return spec_name(settings.fast_model), spec_name(settings.slow_model)

    @staticmethod
    def reset() -> None:
        """Restore every default and clear the registered tools."""
        RUNTIME.reset()
        set_default_deadline(DEFAULT_RUN_DEADLINE_S)
