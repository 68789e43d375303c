"""The shape every agent prompt module fills in."""

from dataclasses import dataclass

from engine.graph.routing import Flow


@dataclass(frozen=True)
class Example:
    """A few-shot example. It obeys the response format, routing line included."""

    request: str
    answer: str
    flow: Flow = "chat"


@dataclass(frozen=True)
class AgentPrompt:
    agent: str
    persona: str
    scope: str
    tasks: tuple[str, ...]
    response_format: str
    examples: tuple[Example, ...]
