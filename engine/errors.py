"""Every error the engine raises inherits from AekoError, so one except covers it."""

from collections.abc import Sequence
from typing import Any


class AekoError(Exception):
    """Base class of the engine's errors."""


class LocalizedError(Exception):
    """An error whose message is ready for the user, in Portuguese and in English."""

    def __init__(self, message_pt: str, message_en: str) -> None:
        self.message_pt = message_pt
        self.message_en = message_en
        super().__init__(message_en)

    def message(self, language: str = "pt") -> str:
        return self.message_pt if language.lower().startswith("pt") else self.message_en


class AekoNotConfiguredError(AekoError):
    """Aeko.config() was never called, or a model id string came without an API key."""


class UnknownAgentError(AekoError):
    """set_tools() got a key that is not an agent name."""

    def __init__(self, agent: str, known_agents: Sequence[str]) -> None:
        self.agent = agent
        self.known_agents = tuple(known_agents)
        super().__init__(f"Unknown agent {agent!r}. Known agents: {', '.join(self.known_agents)}.")


class MalformedAgentOutputError(AekoError):
    """An agent's answer never matched the shape its prompt demands, even after rewrites."""

    def __init__(self, agent: str, missing: Sequence[str], attempts: int) -> None:
        self.agent = agent
        self.missing = tuple(missing)
        self.attempts = attempts
        super().__init__(
            f"{agent} did not produce the fields {', '.join(self.missing)} "
            f"after {attempts} attempts."
        )


class AekoModelError(AekoError):
    """A model call failed on the primary model and on its fallback."""

    def __init__(self, agent: str, cause: BaseException) -> None:
        self.agent = agent
        super().__init__(f"{agent}: the model call failed ({type(cause).__name__}).")


class AekoBudgetExceededError(AekoError):
    """A run reached one of its caps (model calls, tokens or cost) and was stopped.

    ``usage`` is what the run had already spent; ``limit`` names the cap that was hit.
    """

    def __init__(self, agent: str, limit: str, allowed: float, used: float, usage: Any) -> None:
        self.agent = agent
        self.limit = limit
        self.allowed = allowed
        self.used = used
        self.usage = usage
        super().__init__(
            f"Run budget exceeded before {agent}: {limit} {used:g} of {allowed:g} allowed."
        )
