"""The inventory's facts as plain text: what the digest shows when it fits, and what
``consultar_inventario`` returns with ``view=`` beyond it.

One renderer per view, so a figure reads the same in the digest and in the tool's result.
Every figure goes through ``engine.formatting`` in Brazilian notation (1.234,5), which is
what ``engine.grounding.stated_numbers`` reads back when a model cites it. Text from the
workbook (sheet, facility and source names, findings quoting them) is untrusted: it comes
out on one line, without table bars, code marks or angle brackets (``plain``).
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

import pandas as pd

from engine.formatting import number, percent
from engine.gases.gwp import GWP_SETS, gwp_label
from engine.inventory import analytics
from engine.inventory import fields as F
from engine.inventory.findings import Finding, rows_text
from engine.inventory.query import VIEWS, View

if TYPE_CHECKING:
    from engine.inventory.inventory import Inventory
    from engine.inventory.reconcile import Evidence, SheetCheck

TOOL = "consultar_inventario"
# The facts are what the agents read, written in Portuguese only like the rest of the digest:
# these words have no English side, so they are no bilingual table.
STATUS_WORDS = {
    "reconciled": "conferido",
    "unverified": "sem totais para conferir",
    "ambiguous": "unidade NÃO provada (ambígua)",
    "conflict": "NÃO confere",
}
# What each view returns, as the digest's closing line and the tool's docstring say it.
VIEW_WORDS: dict[View, str] = {
    "findings": "todos os apontamentos de qualidade dos dados",
    "gases": "a massa de cada gás (t de gás e t CO2e)",
    "gwp_sets": "o total e cada escopo em AR4, AR5 e AR6",
    "facility_scope": "cada unidade (instalação) × escopo, a base do SBCE",
    "sheets": "a situação de cada aba e a evidência de cada unidade de medida",
}
TOOL_LINE = (
    f"Além deste resumo, {TOOL} devolve filtros, somas por campo (group_by) e as maiores "
    "linhas; com view: "
    + "; ".join(f'"{view}" = {what}' for view, what in VIEW_WORDS.items())
    + " (os filtros valem para gases, gwp_sets e facility_scope)."
)
TOOL_LINE_SHORT = f"Mais em {TOOL} (view: {', '.join(VIEWS)}; ou group_by e filtros)."
_SELF_KINDS = {
    "row_totals": "coluna de total ≠ soma das colunas por gás",
    "total_rows": "linha de total ≠ soma das linhas",
    "subtotals": "subtotal ≠ soma dos itens",
    "views": "aba ≠ outra aba com os mesmos dados",
}
_UNSAFE = re.compile(r"[\x00-\x1f\x7f`|<>]")
_UNSAFE_AS = {"|": "/", "<": "‹", ">": "›", "`": "'"}
_SCOPES = {"1": "Escopo 1", "2": "Escopo 2", "3": "Escopo 3", analytics.UNKNOWN: "sem escopo"}


def plain(text: object, size: int) -> str:
    """Workbook text as one safe line of at most ``size`` characters."""
    cleaned = _UNSAFE.sub(lambda m: _UNSAFE_AS.get(m.group(0), " "), str(text))
    cleaned = " ".join(cleaned.split())
    return cleaned if len(cleaned) <= size else cleaned[: size - 1] + "…"


def count(n: int) -> str:
    """A count in the same notation as the figures: 11.169 linhas."""
    return number(int(n), 0)


def mass(tonnes: float) -> str:
    """t of a gas: three decimals; below 0,01 t (a few kilograms of SF6 or NF3) three
    significant digits, up to six decimals, so a small mass never reads as 0,000."""
    if not tonnes or not math.isfinite(tonnes) or abs(tonnes) >= 0.01:
        return number(tonnes, 3)
    return number(tonnes, min(6, 2 - math.floor(math.log10(abs(tonnes)))))


# --- findings ---------------------------------------------------------------------------------


def finding_lines(findings: list[Finding], limit: int | None = None, chars: int = 240) -> list[str]:
    shown = findings if limit is None else findings[:limit]
    return [f"- [{plain(f.sheet or 'geral', 60)}] {plain(f.message_pt, chars)}" for f in shown]


def more_findings(hidden: int) -> str:
    return f'- …e mais {count(hidden)} apontamentos: {TOOL} com view="findings" devolve todos.'


# --- gases ------------------------------------------------------------------------------------


def gas_table(gases: pd.DataFrame, limit: int | None = None) -> list[str]:
    """Every gas of the total by name (``analytics.gas_masses``), with its mass and t CO2e;
    past ``limit`` rows the rest in one row that still names each gas."""
    lines = ["| gás | t de gás | t CO2e | % |", "|---|---:|---:|---:|"]
    shown = gases if limit is None else gases.head(limit)
    for row in shown.itertuples(index=False):
        lines.append(
            f"| {plain(row.gas, 40)} | {_mass_cell(row)} | {number(row.tco2e)} | "
            f"{percent(row.share)} |"
        )
    rest = gases.iloc[len(shown) :]
    if len(rest):
        names = plain(", ".join(str(g) for g in rest["gas"]), 160)
        lines.append(
            f"| demais gases ({len(rest)}: {names}) | — | {number(rest['tco2e'].sum())} | "
            f"{percent(rest['share'].sum())} |"
        )
    return lines


def _mass_cell(row) -> str:
    if row.mass_rows == 0:
        return "—"  # reported in CO2e only: no mass to show
    text = mass(row.t_gas)
    return (
        text
        if row.mass_rows == row.rows
        else f"{text} (em {count(row.mass_rows)} de {count(row.rows)} linhas)"
    )


def memo_lines(memo: pd.DataFrame, biogenic_t: float) -> list[str]:
    """What stays beside the total, gas by gas (``analytics.memo_gases``): biogenic CO2,
    Montreal Protocol gases and market-based Scope 2 (beside the location-based figure,
    never added)."""
    parts = [f"CO2 biogênico {mass(biogenic_t)} t"] if biogenic_t else []
    for row in memo.itertuples(index=False):
        gas = plain(row.gas, 40)
        if row.reporting == F.SCOPE2_MARKET:
            label = f"{gas} do Escopo 2 por escolha de compra (ao lado, nunca somado)"
        elif pd.isna(row.t_gas):
            label = f"{gas}, parte do Protocolo de Montreal"
        else:
            label = f"{gas} (Protocolo de Montreal)"
        amount = "" if pd.isna(row.t_gas) else f"{mass(row.t_gas)} t de gás = "
        parts.append(f"{label}: {amount}{number(row.memo_tco2e)} t CO2e")
    return [f"Fora do total: {'; '.join(parts)}."] if parts else []


# --- other GWP sets ---------------------------------------------------------------------------


def set_totals(
    inventory: Inventory, table: pd.DataFrame, *, every_set: bool = False
) -> list[analytics.SetTotal]:
    """``table`` under each GWP set the inventory can compute; ``every_set`` includes its
    own (the tool), else only the others (the digest)."""
    sets = [s for s in GWP_SETS if every_set or s != inventory.gwp_set]
    return [
        analytics.total_under(table, s, inventory.ch4_origin, stated=inventory.gwp_set)
        for s in sets
    ]


def gwp_lines(
    inventory: Inventory, totals: list[analytics.SetTotal], *, by_scope: bool = True
) -> list[str]:
    """The same masses times each set's GWPs (``set_totals``). Without ``by_scope`` (the
    digest) each set's total alone: its scope figures sit a few tonnes from the inventory's
    own, and a reader (or the grounding check) told "Escopo 1" twice over cannot tell which
    one a difference of scopes was taken from; the tool's view gives them per scope."""
    origin = inventory.ch4_origin
    if not totals or not any(t.recomputed_rows or t.rescaled_rows for t in totals):
        return [
            "A planilha traz só t CO2e, sem massa por gás: o total não pode ser refeito em "
            "outro conjunto de GWP."
        ]
    lines = []
    for result in totals:
        used = " (o do inventário)" if result.gwp_set == inventory.gwp_set else ""
        scopes = "; ".join(
            f"{_SCOPES.get(scope, scope)}: {number(t)}"
            for scope, t in sorted(result.by_scope.items())
            if by_scope
        )
        line = (
            f"- {gwp_label(result.gwp_set, origin)}{used}: {number(result.total_tco2e)} t CO2e"
            + (f" ({scopes})" if scopes else "")
        )
        beside = []
        if result.scope2_market_tco2e is not None:
            beside.append(f"Escopo 2 por escolha de compra {number(result.scope2_market_tco2e)}"
                          " (ao lado, nunca somado)")  # fmt: skip
        if result.montreal_tco2e:
            beside.append(f"Protocolo de Montreal {number(result.montreal_tco2e)} (fora do total)")
        if result.without_gwp:
            beside.append(f"sem GWP neste conjunto: {plain(', '.join(result.without_gwp), 120)}")
        lines.append(line + (f"; {'; '.join(beside)}" if beside else "") + ".")
    other = next((t for t in totals if t.gwp_set != inventory.gwp_set), totals[0])
    fixed = other.fixed_rows
    note = "Mesmas massas de gás × GWP de cada conjunto (IPCC, 100 anos)"
    if other.rescaled_rows:
        note += (f"; {count(other.rescaled_rows)} linhas em t CO2e de um gás nomeado refeitas "
                 "pela razão entre o GWP do conjunto e o do inventário")  # fmt: skip
    if fixed:
        note += (f"; {count(fixed)} linhas trazem só t CO2e da planilha e entram iguais em "
                 "todos os conjuntos")  # fmt: skip
    return [*lines, note + "."]


# --- installations by scope -------------------------------------------------------------------


def facility_scope_table(frame: pd.DataFrame, limit: int | None = None) -> list[str]:
    """t CO2e per installation and scope (``analytics.facility_scope``); Scope 2 by location
    (in the total) and by market (beside it) in their own columns, never added."""
    if frame.empty:
        return []
    # Scope 1 always (what the SBCE judges); the other columns where a row has them.
    columns = [("1", "Escopo 1")] + [
        (key, name)
        for key, name in (
            (analytics.SCOPE2_LOCATION, "Escopo 2 (localização)"),
            (analytics.SCOPE2_MARKET, "Escopo 2 (escolha de compra, fora do total)"),
            ("3", "Escopo 3"),
            (analytics.UNKNOWN, "sem escopo"),
        )
        if frame[key].notna().any()
    ]
    lines = [
        "| unidade | " + " | ".join(name for _, name in columns) + " | total |",
        "|---|" + "---:|" * (len(columns) + 1),
    ]
    shown = frame if limit is None else frame.head(limit)
    for _, row in shown.iterrows():
        name = (
            "(unidade não informada)" if row["facility"] == analytics.UNKNOWN else row["facility"]
        )
        cells = [number(row[key]) if pd.notna(row[key]) else "—" for key, _ in columns]
        lines.append(f"| {plain(name, 50)} | " + " | ".join(cells) + f" | {number(row['total'])} |")
    rest = frame.iloc[len(shown) :]
    if len(rest):
        cells = [number(rest[key].sum()) if rest[key].notna().any() else "—" for key, _ in columns]
        lines.append(f"| demais unidades ({len(rest)}) | " + " | ".join(cells)
                     + f" | {number(rest['total'].sum())} |")  # fmt: skip
    return lines


# --- sheets -----------------------------------------------------------------------------------


def why(check: SheetCheck) -> str:
    """Why a sheet stands as it does, in words: the workbook's own totals that do not add
    up, a physically impossible reading, a unit nothing proves, or how many of its own
    checks agree; '' when the status says it all."""
    if check.status == "conflict":
        failing = [e for e in check.evidence if e.kind in _SELF_KINDS and e.agreeing < e.compared]
        said = [
            f"{_SELF_KINDS[e.kind]} em {count(e.compared - e.agreeing)} de {count(e.compared)}"
            + (f" (linhas: {rows_text(e.bad_rows, 6)})" if e.bad_rows else "")
            for e in failing
        ]
        if said:
            return "os totais da própria planilha não fecham: " + "; ".join(said)
        if any(e.kind == "plausibility" for e in check.evidence):
            return "valores fisicamente impossíveis para a atividade (não é erro de soma)"
        return "a conferência da planilha consigo mesma não fecha"
    if check.status == "ambiguous":
        columns = ", ".join(f"'{plain(u.column, 40)}'" for u in check.units if not u.proven)
        return f"unidade não informada em {columns or 'alguma coluna'}: lida como t até a escolha"
    if check.status == "unverified" or not check.checks:
        return ""  # the status says it; a sheet checked by another says so in its evidence
    return (
        f"{count(check.agreeing)} de {count(check.checks)} conferências da planilha "
        "consigo mesma fecham"
    )


def library_line(check: SheetCheck) -> str:
    """The workbook's emissions against our factor library: a finding on the factors, never
    a fault of the workbook's own arithmetic."""
    activity = _activity(check)
    if activity is None:
        return ""
    if activity.agreeing == activity.compared:
        return (f"as emissões da planilha conferem com a biblioteca de fatores em "
                f"{count(activity.agreeing)} de {count(activity.compared)} linhas")  # fmt: skip
    differ = activity.compared - activity.agreeing
    return (
        f"a biblioteca de fatores difere das emissões da planilha em {count(differ)} de "
        f"{count(activity.compared)} linhas: apontamento sobre fatores, não erro de soma da "
        "planilha"
    )


def _activity(check: SheetCheck) -> Evidence | None:
    return next((e for e in check.evidence if e.kind == "activity" and e.compared), None)


def disagrees_with_library(check: SheetCheck) -> bool:
    activity = _activity(check)
    return activity is not None and activity.agreeing < activity.compared


def sheet_lines(checks: list[SheetCheck], *, detail: bool = False) -> list[str]:
    """Each sheet: its status and why, the factor library's comparison, and each emission
    column's unit with where it was read. ``detail`` adds the evidence in full (the tool)."""
    lines = []
    for check in checks:
        reason = why(check)
        parts = [
            f"{STATUS_WORDS[check.status]}: {reason}" if reason else STATUS_WORDS[check.status]
        ]
        if library := library_line(check):
            parts.append(library)
        if check.units:
            parts.append(f"unidades: {_units_text(check)}")
        if check.rows:
            parts.append(f"{count(check.rows)} linhas de dados")
        if detail and check.message_pt:
            parts.append(f"evidência: {plain(check.message_pt, 900).rstrip('.')}")
        lines.append(f"- {plain(check.sheet, 60)}: " + "; ".join(parts) + ".")
    return lines


def more_sheets(hidden: int) -> str:
    return f'- …e mais {count(hidden)} abas: {TOOL} com view="sheets" devolve todas.'


def _units_text(check: SheetCheck) -> str:
    """Columns read in the same unit from the same place are named together."""
    same: dict[tuple[str, str], list[str]] = {}
    for unit in check.units:
        same.setdefault((unit.unit, unit.where_pt), []).append(f"'{plain(unit.column, 40)}'")
    return "; ".join(
        f"{', '.join(columns[:6])}{' e mais ' + str(len(columns) - 6) if len(columns) > 6 else ''}"
        f" em {plain(unit, 20)} ({plain(where, 120)})"
        for (unit, where), columns in same.items()
    )
