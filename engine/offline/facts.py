"""The inventory figures an offline analyst reasons from, read off the request it receives.

The engine hands the agents either the ingestion digest or a small Markdown table; both end
up here as the same ``Facts``, with the numbers the ingestion analytics computed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.inventory import InventoryError, load_markdown_inventory
from engine.inventory.digest import br

_DIGEST_TITLE = "# Inventário de emissões (resumo"


@dataclass(frozen=True)
class Share:
    label: str
    tco2e: float
    share: float  # 0..1


@dataclass(frozen=True)
class Source:
    source: str
    facility: str
    fuel: str
    gas: str
    tco2e: float
    share: float
    cumulative: float


@dataclass(frozen=True)
class Facts:
    total_tco2e: float
    gwp_set: str
    by_scope: list[Share] = field(default_factory=list)
    by_gas: list[Share] = field(default_factory=list)
    top_sources: list[Source] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)

    @property
    def total_text(self) -> str:
        return br(self.total_tco2e)


def facts_from_request(text: str) -> Facts | None:
    """The inventory in an agent's request, as a digest or a Markdown table; None if none."""
    if _DIGEST_TITLE in text:
        return _from_digest(text)
    table = _markdown_block(text)
    if table:
        try:
            inventory = load_markdown_inventory(table)
        except InventoryError:
            return None
        return _from_digest(inventory.digest())
    return None


def _number(text: str) -> float:
    return float(text.strip().rstrip("%").replace(".", "").replace(",", "."))


def _rows(section: str) -> list[list[str]]:
    rows = []
    for line in section.splitlines():
        if line.startswith("|") and not re.match(r"^\|[-:| ]+\|$", line):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows[1:]  # without the header row


def _section(text: str, title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    return match.group(1) if match else ""


def _shares(text: str, title: str) -> list[Share]:
    return [
        Share(row[0], _number(row[1]), _number(row[2]) / 100)
        for row in _rows(_section(text, title))
        if len(row) == 3 and not row[0].startswith("outros")
    ]


def _from_digest(text: str) -> Facts | None:
    total = re.search(r"^Total: ([\d.,]+) t CO2e", text, re.M)
    gwp = re.search(r"^Conjunto de GWP: (\w+)", text, re.M)
    if not total:
        return None
    sources = [
        Source(r[0], r[1], r[2], r[3], _number(r[4]), _number(r[5]) / 100, _number(r[6]) / 100)
        for r in _rows(_section(text, "Principais fontes (Pareto)"))
        if len(r) == 7
    ]
    findings = [
        line[2:].split("] ", 1)[-1]
        for line in _section(text, "Qualidade dos dados").splitlines()
        if line.startswith("- ") and not line.startswith("- …")
    ]
    return Facts(
        total_tco2e=_number(total.group(1)),
        gwp_set=gwp.group(1) if gwp else "AR5",
        by_scope=_shares(text, "Por escopo"),
        by_gas=_shares(text, "Por gás"),
        top_sources=sources,
        findings=findings,
    )


def _markdown_block(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip().startswith("|")]
    return "\n".join(lines) if len(lines) >= 3 else ""
