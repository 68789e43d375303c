"""The inventory digest: what the agents read instead of the whole table, under a hard budget.

Sections come in order of importance and each is cut to fewer rows until the whole fits,
so the digest stops growing once the inventory outgrows the budget.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pandas as pd

from engine.constants import DEFAULT_DIGEST_CHARS
from engine.formatting import number, percent
from engine.inventory import fields as F
from engine.inventory.notice import Reading

if TYPE_CHECKING:
    from engine.inventory.inventory import Inventory

_TRUNCATED = "\n…(resumo cortado no limite de tamanho)"
_STATUS_PT = {
    "reconciled": "conferido",
    "unverified": "sem totais para conferir",
    "ambiguous": "unidade NÃO provada (ambígua)",
    "conflict": "NÃO confere",
}
_ROW_STEPS = (15, 10, 6, 4, 2, 1, 0)
_SAY_IT = "Diga isso ao usuário antes de citar qualquer número deste inventário."
LABELS = {
    F.SCOPE: "escopo", F.GAS: "gás", F.CATEGORY: "categoria", F.FACILITY: "unidade",
    F.SOURCE: "fonte", F.FUEL: "combustível", F.YEAR: "ano",
}  # fmt: skip


def build_digest(inventory: Inventory, max_chars: int = DEFAULT_DIGEST_CHARS) -> str:
    if max_chars < 200:
        raise ValueError("a digest needs at least 200 characters")
    for rows in _ROW_STEPS:
        text = "\n\n".join(section for make in _SECTIONS if (section := make(inventory, rows)))
        if len(text) <= max_chars:
            return text
    return text[: max_chars - len(_TRUNCATED)] + _TRUNCATED


def _header(inv: Inventory, rows: int) -> str:
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
    lines.append(f"Conferência com os totais da planilha: {_STATUS_PT[inv.status]}")
    unproven = [c for c in inv.not_reconciled if c.status in ("conflict", "ambiguous")]
    lines += [f"- {_cut(c.sheet, 40)}: {_cut(c.message_pt, 200)}" for c in unproven[:4]]
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


def _totals(field: str, limit: int | None = None) -> Callable[[Inventory, int], str]:
    def section(inv: Inventory, rows: int) -> str:
        totals = inv.totals_by(field)
        if len(totals) <= 1 and field not in (F.SCOPE, F.GAS):
            return ""
        cap = len(totals) if limit is None else min(limit, max(rows, 3))
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


def _pareto(inv: Inventory, rows: int) -> str:
    if rows == 0:
        return ""
    top = inv.pareto(top=rows)
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


def _year_over_year(inv: Inventory, rows: int) -> str:
    yoy = inv.year_over_year()
    if yoy.empty:
        return ""
    lines = ["## Evolução anual", "| ano | t CO2e | variação |", "|---|---:|---:|"]
    for year, t, change, change_pct in yoy.itertuples(index=False):
        delta = "—" if pd.isna(change) else f"{number(change)} ({percent(change_pct)})"
        lines.append(f"| {year} | {number(t)} | {delta} |")
    return "\n".join(lines)


def _quality(inv: Inventory, rows: int) -> str:
    if not inv.findings:
        return "## Qualidade dos dados\nNenhum problema encontrado."
    cap = max(rows, 3)
    lines = ["## Qualidade dos dados"]
    lines += [f"- [{f.sheet or 'geral'}] {_cut(f.message_pt, 240)}" for f in inv.findings[:cap]]
    if len(inv.findings) > cap:
        lines.append(f"- …e mais {len(inv.findings) - cap} apontamentos.")
    return "\n".join(lines)


def _mapping(inv: Inventory, rows: int) -> str:
    if rows < 4:
        return ""
    lines = ["## Colunas reconhecidas"]
    for sheet, mapping in inv.mapping.items():
        known = [f"{_cut(c, 40)} → {m}" for c, m in mapping.items() if m]
        lines.append(f"- {_cut(sheet, 40)}: {'; '.join(known)}")
    return "\n".join(lines)


def _closing(inv: Inventory, rows: int) -> str:
    return (
        "Para detalhes além deste resumo, use a ferramenta consultar_inventario "
        "(filtros, agrupamentos, somas e maiores linhas)."
    )


def _cut(text: str, size: int) -> str:
    text = " ".join(text.replace("|", "/").split())
    return text if len(text) <= size else text[: size - 1] + "…"


_SECTIONS: tuple[Callable[[Inventory, int], str], ...] = (
    _header,
    _totals(F.SCOPE),
    _totals(F.GAS, limit=12),
    _pareto,
    _totals(F.CATEGORY, limit=12),
    _totals(F.FACILITY, limit=10),
    _year_over_year,
    _quality,
    _mapping,
    _closing,
)
