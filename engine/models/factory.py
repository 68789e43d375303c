"""Chat models for the two tiers, each with its ordered fallback chain.

A model is a ready LangChain chat model or a model id: ``gemini-3.5-flash`` (Gemini, the
default provider) or ``provider:model`` through LangChain's ``init_chat_model``
(``openai:gpt-4.1``, ``anthropic:claude-sonnet-4-5``, ``ollama:llama3.1`` when their
integration package is installed). Clients are built without retries of their own: the
engine retries, with backoff and the server's Retry-After/RetryInfo, and reports each retry
as an event. Gemini counts attempts (``max_retries=1``: one request), the OpenAI and
Anthropic clients count retries (``max_retries=0``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from langchain_core.language_models import BaseChatModel

from engine.errors import AekoNotConfiguredError
from engine.models.resilience import RetryPolicy

ModelSpec = str | BaseChatModel
DEFAULT_PROVIDER = "google_genai"
_KEYLESS_PROVIDERS = frozenset({"ollama"})
_TIERS = ("fast", "slow")
GEMINI_SINGLE_ATTEMPT = 1  # ChatGoogleGenerativeAI(max_retries=1): one request, no retries


@dataclass(frozen=True)
class ModelSettings:
    api_key: str | None = field(repr=False)  # a secret: never in logs or tracebacks
    fast_model: ModelSpec
    slow_model: ModelSpec
    max_tokens: int
    report_max_tokens: int
    request_timeout: float
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    # None: each tier falls back to the other tier's model, as the reference does.
    fast_fallbacks: tuple[ModelSpec, ...] | None = None
    slow_fallbacks: tuple[ModelSpec, ...] | None = None
    provider_keys: Mapping[str, str] = field(default_factory=dict, repr=False)

    def chain(self, tier: str) -> tuple[ModelSpec, ...]:
        primary = self.fast_model if tier == "fast" else self.slow_model
        other = self.slow_model if tier == "fast" else self.fast_model
        fallbacks = self.fast_fallbacks if tier == "fast" else self.slow_fallbacks
        chain = (primary, *(fallbacks if fallbacks is not None else (other,)))
        unique: list[ModelSpec] = []
        for spec in chain:
            if not any(spec is seen or (isinstance(spec, str) and spec == seen) for seen in unique):
                unique.append(spec)
        return tuple(unique)

    def validate(self) -> None:
        for tier in _TIERS:
            for spec in self.chain(tier):
                self._validate_spec(spec)
        for label, value in (("max_tokens", self.max_tokens),
                             ("report_max_tokens", self.report_max_tokens)):  # fmt: skip
            if not isinstance(value, int) or value <= 0:
                raise AekoNotConfiguredError(f"{label} must be a positive integer.")

    def _validate_spec(self, spec: ModelSpec) -> None:
        if isinstance(spec, BaseChatModel):
            return
        if not isinstance(spec, str):
            raise AekoNotConfiguredError(
                f"A model must be a model id string or a LangChain BaseChatModel, "
                f"not {type(spec).__name__}."
            )
        provider, name = split_model_id(spec)
        if not name:
            raise AekoNotConfiguredError(f"{spec!r} is an empty model id.")
        if provider in _KEYLESS_PROVIDERS:
            return
        key = self.api_key if provider == DEFAULT_PROVIDER else self.provider_keys.get(provider)
        if not isinstance(key, str) or not key.strip():
            where = "api_key" if provider == DEFAULT_PROVIDER else f"provider_keys[{provider!r}]"
            raise AekoNotConfiguredError(
                f"The model {spec!r} needs an API key: pass {where} to Aeko.config()."
            )


def split_model_id(spec: str) -> tuple[str, str]:
    provider, _, name = spec.strip().rpartition(":")
    return (provider or DEFAULT_PROVIDER), name.strip()


def build_tier_chains(
    settings: ModelSettings, max_tokens: int
) -> dict[str, tuple[BaseChatModel, ...]]:
    """Each tier's ordered chain: its model, then the fallbacks. Instances are used as given."""
    built: dict[int | str, BaseChatModel] = {}

    def make(spec: ModelSpec) -> BaseChatModel:
        key: int | str = id(spec) if isinstance(spec, BaseChatModel) else spec
        if key not in built:
            built[key] = _build(spec, settings, max_tokens)
        return built[key]

    return {tier: tuple(make(spec) for spec in settings.chain(tier)) for tier in _TIERS}


def _build(spec: ModelSpec, settings: ModelSettings, max_tokens: int) -> BaseChatModel:
    if isinstance(spec, BaseChatModel):
        return spec
    provider, name = split_model_id(spec)
    if provider == DEFAULT_PROVIDER:
        # Imported here: the Google client is slow to import and unused when models are given.
        from langchain_google_genai import ChatGoogleGenerativeAI

        return ChatGoogleGenerativeAI(
            model=name,
            api_key=settings.api_key,
            max_output_tokens=max_tokens,
            timeout=settings.request_timeout,
            # The one attempt, no retry: langchain-google-genai passes this on as the Google
            # SDK's HttpRetryOptions(attempts=...), where 0 has meant "the SDK's default"
            # (several retries with its own backoff, blind to RetryInfo). Our loop retries.
            max_retries=GEMINI_SINGLE_ATTEMPT,
        )
    from langchain.chat_models import init_chat_model

    options: dict = {"max_tokens": max_tokens, "timeout": settings.request_timeout,
                     "max_retries": 0}  # fmt: skip
    if provider in settings.provider_keys:
        options["api_key"] = settings.provider_keys[provider]
    try:
        return init_chat_model(name, model_provider=provider, **options)
    except ImportError as exc:
        raise AekoNotConfiguredError(
            f"The provider {provider!r} needs its LangChain integration: "
            f"pip install 'aeko-studio[{provider.split('_')[0]}]'."
        ) from exc


def spec_name(spec: ModelSpec) -> str:
    if isinstance(spec, str):
        return split_model_id(spec)[1]
    return str(getattr(spec, "model_name", None) or type(spec).__name__)


def as_specs(models: Sequence[ModelSpec] | None) -> tuple[ModelSpec, ...] | None:
    return None if models is None else tuple(models)
