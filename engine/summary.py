"""The running summary of a long conversation.

Turns older than the replayed window (``SESSION_HISTORY_USAGE``) are folded into a summary
the agents read as context, so a conversation of hundreds of turns keeps what matters at a
bounded prompt size. The summary is extended with the turns it does not cover yet, never
recomputed from scratch; the turns themselves are never altered.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.constants import SESSION_HISTORY_USAGE
from engine.dto import AekoConversationSummary, AekoMessage

SUMMARIZER = "Resumidor"  # the auxiliary agent's name, for attribution and usage
SUMMARY_MAX_CHARS = 2_500
PREVIOUS = "Resumo anterior"
NEW_TURNS = "Turnos a incorporar"

SUMMARY_PROMPT = f"""# Persona
Você é o {SUMMARIZER} da Aeko: condensa conversas de analistas ESG sem perder fatos.

# Tarefas
- Estenda o resumo anterior com os turnos novos; não reescreva o que ele já diz.
- Guarde o que importa para as próximas perguntas: metas, números (t CO2e, %, anos),
  fontes e gases citados, decisões, preferências e pendências do usuário.
- Seja telegráfico: uma linha "- " por fato; no máximo {SUMMARY_MAX_CHARS} caracteres.

# Formato da Resposta
Só a lista de fatos, sem título, sem linha de próximo agente."""


def turns_to_fold(
    messages: Sequence[AekoMessage], summary: AekoConversationSummary | None
) -> tuple[int, list[AekoMessage]]:
    """How many turns the summary should cover, and which of them it does not cover yet."""
    target = max(len(messages) - SESSION_HISTORY_USAGE, 0)
    covered = summary.covered_turns if summary else 0
    if target <= covered:
        return covered, []
    return target, list(messages[covered:target])


def summary_request(summary: AekoConversationSummary | None, turns: Sequence[AekoMessage]) -> str:
    lines = [f"{PREVIOUS}:\n{summary.text if summary else '(nenhum)'}", f"{NEW_TURNS}:"]
    for turn in turns:
        lines.append(f"Usuário: {turn.input}")
        if turn.output:
            lines.append(f"Aeko: {turn.output}")
    return "\n".join(lines)
