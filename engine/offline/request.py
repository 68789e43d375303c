"""An agent's prompt, read back into its parts: the offline analyst's eyes."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.agents.catalog import AGENT_NAMES
from engine.graph import context as labels
from engine.offline.language import Language, detect_language, preferred_language

_SECTION = re.compile(r"^(?P<label>[^\n:]{3,80}):\n", re.M)
_KNOWN_LABELS = (
    labels.BUSINESS_CONTEXT, labels.PREVIOUS_REPORT, labels.HISTORY, labels.QUESTION,
    labels.INVENTORY, labels.FINDINGS, labels.GUARDRAIL_POINTS, labels.REVIEW_DRAFT,
    labels.REVIEW_QUESTION, labels.REVIEW_FINDINGS,
)  # fmt: skip


@dataclass(frozen=True)
class Request:
    agent: str
    system: str
    text: str
    sections: dict[str, str] = field(default_factory=dict)

    @property
    def question(self) -> str:
        return self.sections.get(labels.QUESTION) or self.sections.get(labels.REVIEW_QUESTION, "")

    @property
    def language(self) -> Language:
        preferred = preferred_language(self.sections.get(labels.BUSINESS_CONTEXT, ""))
        return preferred or detect_language(self.question or self.text)

    @property
    def findings(self) -> dict[str, str]:
        raw = self.sections.get(labels.FINDINGS) or self.sections.get(labels.REVIEW_FINDINGS, "")
        return split_findings(raw)

    @property
    def draft(self) -> str:
        raw = self.sections.get(labels.REVIEW_DRAFT, "")
        return raw.strip().removeprefix("<<<").removesuffix(">>>").strip()

    @property
    def retry_reasons(self) -> str:
        return self.sections.get(labels.GUARDRAIL_POINTS, "")

    @property
    def successors(self) -> list[str]:
        """The agents this one may hand over to, as its prompt lists them."""
        section = self.system.split("# Agentes Disponiveis", 1)[-1].split("\n# ", 1)[0]
        return [name for name in AGENT_NAMES if f"\n- {name}:" in section]


def read_request(agent: str, system: str, text: str) -> Request:
    cuts = [m for m in _SECTION.finditer(text) if m.group("label") in _KNOWN_LABELS]
    sections = {}
    for index, match in enumerate(cuts):
        end = cuts[index + 1].start() if index + 1 < len(cuts) else len(text)
        sections[match.group("label")] = text[match.end() : end].strip()
    return Request(agent, system, text, sections)


def split_findings(raw: str) -> dict[str, str]:
    names = "|".join(re.escape(name) for name in AGENT_NAMES)
    parts = re.split(rf"^- ({names}): ", raw, flags=re.M)
    return {parts[i]: parts[i + 1].strip() for i in range(1, len(parts) - 1, 2)}
