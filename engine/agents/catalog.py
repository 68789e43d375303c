"""The eight agents: their exact names (also the routing keys), model tier and role."""

from dataclasses import dataclass
from typing import Literal

Tier = Literal["fast", "slow"]

ROUTER = "Roteador"
FAQ = "FAQ"
ORCHESTRATOR = "Orquestrador"
GUARDRAIL = "Guardrail de Saída"
INVENTORY_ANALYST = "Análista de inventários"
POLLUTANTS_ANALYST = "Analista de Poluentes"
GREEN_GASES_ANALYST = "Analista de Gases Verdes"
COORDINATOR = "Coordenador de Melhoria Contínua"


@dataclass(frozen=True)
class AgentSpec:
    name: str
    tier: Tier
    role: str  # Portuguese: it is rendered into the other agents' "available agents" section


AGENTS: tuple[AgentSpec, ...] = (
    AgentSpec(ROUTER, "fast", "Faz a triagem inicial, classifica a intenção e encaminha."),
    AgentSpec(FAQ, "fast", "Responde perguntas conceituais e institucionais diretamente."),
    AgentSpec(ORCHESTRATOR, "fast", "Consolida as análises dos especialistas e responde."),
    AgentSpec(GUARDRAIL, "fast", "Revisa a resposta consolidada antes de ela sair."),
    AgentSpec(INVENTORY_ANALYST, "slow", "Lê o inventário de GEE em si."),
    AgentSpec(POLLUTANTS_ANALYST, "slow", "Analisa os poluentes e gases que mais pesam."),
    AgentSpec(GREEN_GASES_ANALYST, "slow", "Propõe alternativas de gases e fontes mais limpas."),
    AgentSpec(COORDINATOR, "slow", "Escreve o plano de melhoria contínua."),
)

AGENT_NAMES: tuple[str, ...] = tuple(spec.name for spec in AGENTS)
SPEC_BY_NAME: dict[str, AgentSpec] = {spec.name: spec for spec in AGENTS}
SPECIALISTS = frozenset({POLLUTANTS_ANALYST, GREEN_GASES_ANALYST, COORDINATOR, INVENTORY_ANALYST})
