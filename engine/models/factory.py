"""Chat models for the two tiers, from a model id string or a ready LangChain model."""

from __future__ import annotations

from dataclasses import dataclass, field

from langchain_core.language_models import BaseChatModel

from engine.errors import AekoNotConfiguredError

ModelSpec = str | BaseChatModel


@dataclass(frozen=True)
class ModelSettings:
    api_key: str | None = field(repr=False)  # a secret: never in logs or tracebacks
    fast_model: ModelSpec
    slow_model: ModelSpec
    max_tokens: int
    report_max_tokens: int
    request_timeout: float
    max_retries: int

    def validate(self) -> None:
        for label, spec in (("fast_model", self.fast_model), ("slow_model", self.slow_model)):
            if isinstance(spec, str):
                if not spec.strip():
                    raise AekoNotConfiguredError(f"{label} is an empty model id.")
                if not isinstance(self.api_key, str) or not self.api_key.strip():
                    raise AekoNotConfiguredError(
                        f"{label} is the model id {spec!r}, which needs an API key: "
                        "pass api_key to Aeko.config()."
                    )
            elif not isinstance(spec, BaseChatModel):
                raise AekoNotConfiguredError(
                    f"{label} must be a model id string or a LangChain BaseChatModel, "
                    f"not {type(spec).__name__}."
                )
        for label, value in (
            ("max_tokens", self.max_tokens),
            ("report_max_tokens", self.report_max_tokens),
        ):
            if not isinstance(value, int) or value <= 0:
                raise AekoNotConfiguredError(f"{label} must be a positive integer.")


def build_tier_models(settings: ModelSettings, max_tokens: int) -> dict[str, BaseChatModel]:
    """The fast and slow models of one flow, capped at that flow's output tokens.

    A model given as an instance is used as it is: its owner configured it.
    """
    return {
        "fast": _build(settings.fast_model, settings, max_tokens),
        "slow": _build(settings.slow_model, settings, max_tokens),
    }


def _build(spec: ModelSpec, settings: ModelSettings, max_tokens: int) -> BaseChatModel:
    if isinstance(spec, BaseChatModel):
        return spec
    # Imported here: the Google client is slow to import and unused when models are given.
    from langchain_google_genai import ChatGoogleGenerativeAI

    return ChatGoogleGenerativeAI(
        model=spec,
        api_key=settings.api_key,
        max_output_tokens=max_tokens,
        timeout=settings.request_timeout,
        max_retries=settings.max_retries,
    )
