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
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
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


def causes(error: BaseException, depth: int = 6) -> list[BaseException]:
    """The error and what it was raised from: LangChain wraps a provider's error (a Google
    ``ClientError`` becomes a ``GoogleRateLimitError`` raised ``from`` it) without its
    status or details, which stay on the cause."""
    chain: list[BaseException] = []
    current: BaseException | None = error
    while current is not None and len(chain) < depth and current not in chain:
        chain.append(current)
        current = current.__cause__ or current.__context__
    return chain


def status_code(error: BaseException) -> int | None:
    for cause in causes(error):
        for holder in (cause, getattr(cause, "response", None)):
            for name in ("status_code", "code", "status"):
                value = getattr(holder, name, None)
                if isinstance(value, int) and not isinstance(value, bool) and value >= 100:
                    return value
    return None


def is_retryable(error: BaseException) -> bool:
    code = status_code(error)
    if code is not None:
        return code in _RETRYABLE_STATUS
    # langchain-core's ModelError types say it themselves (rate limit, 5xx, connection...).
    declared = getattr(error, "is_retryable", None)
    if isinstance(declared, bool):
        return declared
    if isinstance(error, TimeoutError | ConnectionError):
        return True
    names = [cls.__name__.lower() for cls in type(error).__mro__]
    return any(marker in name for name in names for marker in _RETRYABLE_NAMES)


def retry_after(error: BaseException) -> float | None:
    """Seconds the server asked us to wait: an error's ``retry_after``, a ``Retry-After``
    header (seconds or an HTTP date), or Google's ``google.rpc.RetryInfo`` ``retryDelay``
    ("37s") in the error details; looked up on the error and on what it was raised from."""
    for cause in causes(error):
        for found in (
            _seconds(getattr(cause, "retry_after", None)),
            _header_delay(getattr(getattr(cause, "response", None), "headers", None)),
            _retry_info_delay(getattr(cause, "details", None)),
        ):
            if found is not None:
                return found
    return None


def provider_message(error: BaseException, limit: int = 300) -> str:
    """The provider's own words about a failure (Google's ``message``), for the log: never
    the request, so never the user's text."""
    for cause in causes(error):
        message = getattr(cause, "message", None)
        if isinstance(message, str) and message:
            return message[:limit]
    return ""


def _seconds(value: Any) -> float | None:
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, dict):  # a protobuf Duration as JSON: {"seconds": 37, "nanos": 0}
        seconds = _seconds(value.get("seconds", 0)) or 0.0
        return seconds + float(value.get("nanos", 0) or 0) / 1e9
    text = str(value).strip().lower()
    try:
        return float(text.removesuffix("s"))  # "37s", "1.5s", "20"
    except ValueError:
        return None


def _header_delay(headers: Any) -> float | None:
    if not headers:
        return None
    try:
        value = headers.get("retry-after") or headers.get("Retry-After")
    except AttributeError:
        return None
    if value is None:
        return None
    seconds = _seconds(value)
    if seconds is not None:
        return seconds
    try:  # Retry-After may be an HTTP date
        when = parsedate_to_datetime(str(value))
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max((when - datetime.now(UTC)).total_seconds(), 0.0)


def _retry_info_delay(details: Any) -> float | None:
    """``retryDelay`` of a ``google.rpc.RetryInfo`` entry in a Google error's JSON."""
    if isinstance(details, list) and len(details) == 1:
        details = details[0]
    if not isinstance(details, dict):
        return None
    error = details.get("error") if isinstance(details.get("error"), dict) else details
    for entry in error.get("details") or ():
        if isinstance(entry, dict) and str(entry.get("@type", "")).endswith("RetryInfo"):
            return _seconds(entry.get("retryDelay"))
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
