"""One module per agent, in Portuguese: the routing keys and the users are Brazilian.

The modules that cite reduction ranges build their prompt from a measures catalogue
(``engine.measures``); ``PROMPTS`` uses the shipped one, and ``build_prompts`` takes another so
a test can show that an edited range reaches every prompt."""

from engine.agents.prompts import (
    continuous_improvement_coordinator,
    faq,
    green_gases_analyst,
    inventory_analyst,
    orchestrator,
    output_guardrail,
    pollutants_analyst,
    router,
)
from engine.agents.prompts.base import AgentPrompt, Example
from engine.measures import Catalogue, shipped_catalogue


def build_prompts(measures: Catalogue) -> dict[str, AgentPrompt]:
    """Every agent's prompt, with the ranges and worked examples taken from ``measures``."""
    prompts = (
        router.PROMPT,
        faq.PROMPT,
        orchestrator.build(measures),
        output_guardrail.build(measures),
        inventory_analyst.PROMPT,
        pollutants_analyst.PROMPT,
        green_gases_analyst.build(measures),
        continuous_improvement_coordinator.build(measures),
    )
    return {prompt.agent: prompt for prompt in prompts}


PROMPTS: dict[str, AgentPrompt] = build_prompts(shipped_catalogue())

__all__ = ["PROMPTS", "AgentPrompt", "Example", "build_prompts"]
