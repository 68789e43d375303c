"""The inventory figures an offline analyst reasons from: the ingestion analytics.

The engine hands the agents either an ingested ``Inventory`` (its digest is what a real
model reads) or a small Markdown table; both end up here as the same ``Facts``, computed
by the inventory's own analytics, never read back from the digest's text.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.inventory import Finding, Inventory, InventoryError, analytics, load_markdown_inventory
from engine.inventory import fields as F
from engine.texts import LANGS, Both, Texts

_TOP_SOURCES = 15  # as many Pareto rows as the digest shows at most

_TEXTS = Texts(
    "engine.offline.facts",
    {
        "scope": {"pt": "Escopo {scope}", "en": "Scope {scope}"},
        # A cell left blank in the workbook; the interface's charts say it alike.
        "unknown": {"pt": "(não informado)", "en": "(not stated)"},
    },
)


@dataclass(frozen=True)
class Share:
    label: Both  # a scope is named in each language; a gas or a name read from data is itself
    tco2e: float
    share: float  # 0..1


@dataclass(frozen=True)
class Source:
    # Read from the data, but a blank cell is named in each language.
    source: Both
    facility: Both
    fuel: Both
    gas: Both
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
    # Each finding as the inventory wrote it in each language: quoted in the answer's.
    findings: list[Both] = field(default_factory=list)


def facts_for(inventory: Inventory | None, markdown: str = "") -> Facts | None:
    """The facts of the run's inventory, else of the Markdown table the caller gave (the
    public API takes Markdown); None when neither holds a readable table."""
    if inventory is None:
        if "|" not in markdown:
            return None
        try:
            inventory = load_markdown_inventory(markdown)
        except InventoryError:
            return None
    return facts_from_inventory(inventory)


def facts_from_inventory(inventory: Inventory) -> Facts:
    sources = [
        Source(_read(s), _read(f), _read(fu), _read(g), float(t), float(share), float(cum))
        for s, f, fu, g, t, share, cum in inventory.pareto(top=_TOP_SOURCES).itertuples(index=False)
    ]
    return Facts(
        total_tco2e=inventory.total_tco2e,
        gwp_set=str(inventory.gwp_set),
        by_scope=_shares(inventory, F.SCOPE),
        by_gas=_shares(inventory, F.GAS),
        top_sources=sources,
        findings=[_one_line(finding) for finding in inventory.findings],
    )


def _one_line(finding: Finding) -> Both:
    # A finding is quoted inside a sentence of the answer, so it reads on one line.
    return Both(*(" ".join(finding.message(lang).split()) for lang in LANGS))


def _shares(inventory: Inventory, field_name: str) -> list[Share]:
    return [
        Share(_label(field_name, value), float(tco2e), float(share))
        for value, tco2e, share in inventory.totals_by(field_name).itertuples(index=False)
    ]


def _label(field_name: str, value: object) -> Both:
    """Scopes read 'Escopo 1' / 'Scope 1', as in the digest, never a bare '1'."""
    if field_name == F.SCOPE and str(value) in ("1", "2", "3"):
        return _TEXTS.both("scope", scope=str(value))
    return _read(value)


def _read(value: object) -> Both:
    if value == analytics.UNKNOWN:
        return _TEXTS.both("unknown")
    return Both(str(value), str(value))
