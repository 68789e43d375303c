"""One module per agent, in Portuguese: the routing keys and the users are Brazilian."""

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

PROMPTS: dict[str, AgentPrompt] = {
    module.PROMPT.agent: module.PROMPT
    for module in (
        router,
        faq,
        orchestrator,
        output_guardrail,
        inventory_analyst,
        pollutants_analyst,
        green_gases_analyst,
        continuous_improvement_coordinator,
    )
}

__all__ = ["PROMPTS", "AgentPrompt", "Example"]
