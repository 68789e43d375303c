"""Retries with exponential backoff and jitter, for the errors worth retrying.

Rate limits (429), server errors (5xx) and timeouts are retried, honouring ``Retry-After``
where the client exposes it; anything else goes straight to the next model of the chain.

The loop (in ``AgentRunner._call``) is hand-written on purpose. LangChain's
ModelRetryMiddleware and ModelFallbackMiddleware only run inside ``create_agent`` (our runner
is not one), offer no hook per retry or per fallback for ModelRetried/ModelFellBack, ignore
Retry-After and call ``time.sleep`` directly. tenacity can do all of it (wait=, before_sleep=,
sleep=), but a working trial made ``_call`` longer (~50 lines against 39): four callbacks on
``RetryCallState``, failures counted from its ``statistics`` dict, for one plain loop.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

_RETRYABLE_STATUS = frozenset({408, 429, 500, 502, 503, 504})
_RETRYABLE_NAMES = (
    "timeout", "timedout", "deadlineexceeded", "toomanyrequests", "ratelimit",
    "resourceexhausted", "serviceunavailable", "internalservererror", "badgateway",
    "connectionerror", "remotedisconnected", "apiconnectionerror",
)  # fmt: skip


@dataclass(frozen=True)
class RetryPolicy:
    max_retries: int = 2
    base_delay_s: float = 0.5
    max_delay_s: float = 20.0
    jitter: float = 0.25  # up to this fraction of the delay, added at random

    def delay(self, attempt: int, retry_after: float | None = None) -> float:
        """Seconds to wait before retry ``attempt`` (1 for the first retry)."""
        if retry_after is not None:
            return min(max(retry_after, 0.0), self.max_delay_s)
        backoff = min(self.base_delay_s * 2 ** (attempt - 1), self.max_delay_s)
        return backoff + random.uniform(0, backoff * self.jitter)


def status_code(error: BaseException) -> int | None:
    for holder in (error, getattr(error, "response", None)):
        for name in ("status_code", "code", "status"):
            value = getattr(holder, name, None)
            if isinstance(value, int):
                return value
    return None


def is_retryable(error: BaseException) -> bool:
    code = status_code(error)
    if code is not None:
        return code in _RETRYABLE_STATUS
    if isinstance(error, TimeoutError | ConnectionError):
        return True
    names = [cls.__name__.lower() for cls in type(error).__mro__]
    return any(marker in name for name in names for marker in _RETRYABLE_NAMES)


def retry_after(error: BaseException) -> float | None:
    """Seconds the server asked us to wait, from the error or its response headers."""
    value: Any = getattr(error, "retry_after", None)
    if value is None:
        headers = getattr(getattr(error, "response", None), "headers", None) or {}
        try:
            value = headers.get("retry-after") or headers.get("Retry-After")
        except AttributeError:
            value = None
    try:
        return float(value) if value is not None else None
    except (TypeError, ValueError):
        return None


def describe(error: BaseException) -> str:
    code = status_code(error)
    return f"{type(error).__name__}{f' ({code})' if code else ''}"


def configured_model_name(model: Any) -> str:
    """A configured model's name: what an event can say before the model has answered."""
    inner = getattr(model, "bound", model)
    for name in ("model_name", "model", "model_id"):
        value = getattr(inner, name, None)
        if isinstance(value, str) and value:
            return value.removeprefix("models/")
    return type(inner).__name__
