"""The inventory digest: what the agents read instead of the whole table, under a hard budget.

Sections come in order of importance and each is cut to fewer rows until the whole fits,
so the digest stops growing once the inventory outgrows the budget. The first attempt holds
every fact (every finding, every gas, every installation, every sheet's unit evidence); what
a tighter step leaves out, ``consultar_inventario`` returns (``engine.inventory.facts``),
and the closing line says how to ask for it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

import pandas as pd

from engine.constants import DEFAULT_DIGEST_CHARS
from engine.formatting import number, percent
from engine.inventory import analytics, facts
from engine.inventory import fields as F
from engine.inventory.notice import Reading

if TYPE_CHECKING:
    from engine.inventory.inventory import Inventory

_TRUNCATED = "\n…(resumo cortado no limite de tamanho)"
_ROW_STEPS = (15, 10, 6, 4, 2, 1, 0)
_MIN_READ = 600  # characters of digest worth keeping before the closing line, when cut
_SAY_IT = "Diga isso ao usuário antes de citar qualquer número deste inventário."
LABELS = {
    F.SCOPE: "escopo", F.GAS: "gás", F.CATEGORY: "categoria", F.FACILITY: "unidade",
    F.SOURCE: "fonte", F.FUEL: "combustível", F.YEAR: "ano",
}  # fmt: skip


@dataclass(frozen=True)
class Step:
    """How much each section shows: ``rows`` of its table; ``every`` fact when it fits."""

    rows: int
    every: bool = False


class _Read:
    """The inventory's aggregates, computed once per digest however many steps it tries."""

    def __init__(self, inventory: Inventory) -> None:
        self.inv = inventory
        self._by_field: dict[str, pd.DataFrame] = {}

    @cached_property
    def gases(self) -> pd.DataFrame:
        return analytics.gas_masses(self.inv.current)

    @cached_property
    def memo(self) -> pd.DataFrame:
        return analytics.memo_gases(self.inv.current)

    @cached_property
    def other_sets(self) -> list[analytics.SetTotal]:
        return facts.set_totals(self.inv, self.inv.current)

    @cached_property
    def facility_scope(self) -> pd.DataFrame:
        return analytics.facility_scope(self.inv.current)

    @cached_property
    def pareto(self) -> pd.DataFrame:
        return self.inv.pareto()

    @cached_property
    def year_over_year(self) -> pd.DataFrame:
        return self.inv.year_over_year()

    def totals(self, field: str) -> pd.DataFrame:
        if field not in self._by_field:
            self._by_field[field] = self.inv.totals_by(field)
        return self._by_field[field]


_STEPS = (Step(_ROW_STEPS[0], every=True), *(Step(rows) for rows in _ROW_STEPS))


def build_digest(inventory: Inventory, max_chars: int = DEFAULT_DIGEST_CHARS) -> str:
    if max_chars < 200:
        raise ValueError("a digest needs at least 200 characters")
    read = _Read(inventory)
    for step in _STEPS:
        text = "\n\n".join(section for make in _SECTIONS if (section := make(read, step)))
        if len(text) <= max_chars:
            return text
    # Cut, the digest still ends saying where the rest is, when that leaves room to read.
    tail = _TRUNCATED + "\n" + facts.TOOL_LINE_SHORT
    if max_chars - len(tail) < _MIN_READ:
        tail = _TRUNCATED
    kept = text[: max_chars - len(tail)]
    # At a line's end, so no figure is cut into another number ("12.545,0" into "12.5").
    kept = kept.rsplit("\n", 1)[0] if "\n" in kept else kept
    return kept + tail


def _header(read: _Read, step: Step) -> str:
    inv, rows = read.inv, step.rows
    basis = inv.table["basis"].value_counts().to_dict()
    reported = basis.get("reported", 0)
    # An unproven inventory says so before any number: the agents repeat what they read
    # first. The tightest budget (no rows left) still names the status and two sheets.
    limit, chars = (6, 40) if rows else (2, 30)
    notice = Reading.of(inv).notice("pt", limit=limit, sheet_chars=chars)
    lines = [f"{notice} {_SAY_IT}" if rows else notice] if notice else []
    lines += [
        "# Inventário de emissões (resumo para análise)",
        f"Arquivo: {_cut(inv.source_name, 80)}",
        f"Abas com emissões: {_cut(', '.join(inv.sheets), 300)}",
        f"Linhas canônicas (fonte × gás): {len(inv.table)}",
        f"Conjunto de GWP: {inv.gwp_label('pt')} (IPCC, 100 anos)",
        f"Total: {number(inv.total_tco2e)} t CO2e",
    ]
    if len(inv.years) > 1:
        lines.append(f"Ano do total: {inv.year} (a planilha traz {', '.join(inv.years)})")
    lines.append(f"Conferência com os totais da planilha: {facts.STATUS_WORDS[inv.status]}")
    # Which disagreement it is: the workbook's own totals (a conflict) or our factor library
    # against the workbook's figures (a finding on the factors, whatever the sheet's status).
    unproven = [c for c in inv.not_reconciled if c.status in ("conflict", "ambiguous")]
    lines += [
        f"- {_cut(c.sheet, 40)} ({_cut(facts.why(c), 160)}): {_cut(c.message_pt, 200)}"
        for c in unproven[:4]
    ]
    library = [c for c in inv.reconciliation if facts.disagrees_with_library(c)]
    lines += [f"- {_cut(c.sheet, 40)}: {facts.library_line(c)}." for c in library[:4]]
    market = inv.scope2_market_tco2e
    if market is not None:
        lines.append(
            f"Escopo 2: {number(inv.scope2_location_tco2e)} t CO2e por localização (no total); "
            f"{number(market)} t CO2e por escolha de compra (ao lado, nunca somado)"
        )
    if inv.biogenic_co2_t:
        lines.append(f"CO2 biogênico (fora do total): {number(inv.biogenic_co2_t)} t")
    if inv.montreal_tco2e:
        lines.append(
            f"Gases do Protocolo de Montreal (fora do total): {number(inv.montreal_tco2e)} t CO2e"
        )
    if reported:
        lines.append(
            f"{reported} linhas trazem t CO2e já calculado pela planilha (GWP da origem); "
            "as demais foram calculadas aqui."
        )
    lines.append("Números no formato brasileiro (1.234,5).")
    return "\n".join(lines)


def _totals(field: str, limit: int | None = None) -> Callable[[_Read, Step], str]:
    def section(read: _Read, step: Step) -> str:
        totals = read.totals(field)
        if len(totals) <= 1 and field != F.SCOPE:
            return ""
        cap = len(totals) if limit is None else min(limit, max(step.rows, 3))
        shown = totals.head(cap)
        lines = [f"## Por {LABELS[field]}", f"| {LABELS[field]} | t CO2e | % |", "|---|---:|---:|"]
        lines += [
            f"| {_cut(_label(field, value), 60)} | {number(t)} | {percent(share)} |"
            for value, t, share in shown.itertuples(index=False)
        ]
        if len(totals) > cap:
            rest = totals.iloc[cap:]
            lines.append(f"| outros ({len(rest)}) | {number(rest['tco2e'].sum())} | "
                         f"{percent(rest['share'].sum())} |")  # fmt: skip
        return "\n".join(lines)

    return section


def _label(field: str, value: object) -> str:
    """Scopes read 'Escopo 1', never a bare '1'."""
    if field == F.SCOPE and str(value) in ("1", "2", "3"):
        return f"Escopo {value}"
    return str(value)


def _gases(read: _Read, step: Step) -> str:
    """Every gas by name (SF6, NF3, each HFC and PFC), its mass and its t CO2e; a tight
    budget folds the smallest into one row that still names them."""
    cap = None if step.every else min(12, max(step.rows, 3))
    lines = ["## Por gás", *facts.gas_table(read.gases, cap)]
    lines += facts.memo_lines(read.memo, read.inv.biogenic_co2_t)
    return "\n".join(lines)


def _other_gwp_sets(read: _Read, step: Step) -> str:
    if not step.rows:
        return ""
    lines = facts.gwp_lines(read.inv, read.other_sets, by_scope=False)
    return "\n".join(["## Total em outros conjuntos de GWP", *lines])


def _pareto(read: _Read, step: Step) -> str:
    if step.rows == 0:
        return ""
    top = read.pareto.head(step.rows)
    lines = [
        "## Principais fontes (Pareto)",
        "| fonte | unidade | combustível | gás | t CO2e | % | % acumulado |",
        "|---|---|---|---|---:|---:|---:|",
    ]
    lines += [
        f"| {_cut(str(s), 50)} | {_cut(str(f), 30)} | {_cut(str(fu), 30)} | {g} | {number(t)} | "
        f"{percent(sh)} | {percent(cum)} |"
        for s, f, fu, g, t, sh, cum in top.itertuples(index=False)
    ]
    return "\n".join(lines)


def _facility_scope(read: _Read, step: Step) -> str:
    """Each installation by scope: the SBCE applies per installation, to its Scope 1."""
    rows = read.inv.current
    if F.FACILITY not in rows or rows[F.FACILITY].isna().all():
        return ""
    if not step.every and step.rows < 4:
        return ""
    table = facts.facility_scope_table(read.facility_scope, None if step.every else step.rows)
    if not table:
        return ""
    return "\n".join(["## Por unidade e escopo (o SBCE vale por instalação)", *table])


def _year_over_year(read: _Read, step: Step) -> str:
    yoy = read.year_over_year
    if yoy.empty:
        return ""
    lines = ["## Evolução anual", "| ano | t CO2e | variação |", "|---|---:|---:|"]
    for year, t, change, change_pct in yoy.itertuples(index=False):
        delta = "—" if pd.isna(change) else f"{number(change)} ({percent(change_pct)})"
        lines.append(f"| {year} | {number(t)} | {delta} |")
    return "\n".join(lines)


def _quality(read: _Read, step: Step) -> str:
    inv = read.inv
    if not inv.findings:
        return "## Qualidade dos dados\nNenhum problema encontrado."
    cap = len(inv.findings) if step.every else max(step.rows, 3)
    chars = 400 if step.every else 240
    lines = ["## Qualidade dos dados", *facts.finding_lines(inv.findings, cap, chars)]
    if len(inv.findings) > cap:
        lines.append(facts.more_findings(len(inv.findings) - cap))
    return "\n".join(lines)


def _sheets(read: _Read, step: Step) -> str:
    """Each sheet's status, why, and where each unit was read."""
    checks = read.inv.reconciliation
    if not checks or (not step.every and step.rows < 4):
        return ""
    # The sheets at fault first: a tight digest keeps those.
    ordered = sorted(checks, key=lambda c: c.status == "reconciled")
    shown = ordered if step.every else ordered[: step.rows]
    lines = ["## Abas: conferência e unidades", *facts.sheet_lines(shown)]
    if len(checks) > len(shown):
        lines.append(facts.more_sheets(len(checks) - len(shown)))
    return "\n".join(lines)


def _mapping(read: _Read, step: Step) -> str:
    if step.rows < 4:
        return ""
    lines = ["## Colunas reconhecidas"]
    for sheet, mapping in read.inv.mapping.items():
        known = [f"{_cut(c, 40)} → {m}" for c, m in mapping.items() if m]
        lines.append(f"- {_cut(sheet, 40)}: {'; '.join(known)}")
    return "\n".join(lines)


def _closing(read: _Read, step: Step) -> str:
    return facts.TOOL_LINE if step.rows else facts.TOOL_LINE_SHORT


def _cut(text: str, size: int) -> str:
    return facts.plain(text, size)


_SECTIONS: tuple[Callable[[_Read, Step], str], ...] = (
    _header,
    _totals(F.SCOPE),
    _gases,
    _other_gwp_sets,
    _pareto,
    _totals(F.CATEGORY, limit=12),
    _totals(F.FACILITY, limit=10),
    _facility_scope,
    _year_over_year,
    _quality,
    _sheets,
    _mapping,
    _closing,
)
