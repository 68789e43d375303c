"""The attached inventory answering questions about itself, every figure a tool result.

The analyst decides the tool calls a question needs (``consultar_inventario`` with the
filters, grouping or view it asks for; ``calcular`` for a figure of more than one step: a
share, a sum of gases, the total without Scope 3, the gap between two GWP sets) and writes
the answer from the same results: the same query (``engine.inventory.query``), the same
view renderers' data and the same expression evaluator the tools use. So each number the
answer states is one the trail shows, and the grounding check backs it.

What the inventory does not hold (another year, a Scope 3 category it does not report,
costs, a source it has no row of) is said, naming what it does hold.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import pandas as pd

from engine.arithmetic import TOOL_NAME as CALCULATOR
from engine.arithmetic import evaluate
from engine.formatting import number, percent
from engine.gases.gwp import canonical_gas, is_montreal, split_blend
from engine.inventory import analytics
from engine.inventory import fields as F
from engine.inventory.facts import TOOL as INVENTORY
from engine.inventory.notice import Reading
from engine.inventory.query import (
    LABEL,
    NOT_GIVEN,
    QUALITY,
    Field,
    QueryResult,
    View,
    quality_columns,
    query,
    select,
)
from engine.offline import inventory_words as W
from engine.offline.language import Language
from engine.offline.regulation import ALLOWANCES_T, REPORTING_T, SOURCE, sbce_amount

if TYPE_CHECKING:
    from engine.inventory import Inventory


@dataclass(frozen=True)
class ToolUse:
    name: str
    args: dict[str, Any]


@dataclass(frozen=True)
class Reply:
    """The tool calls an answer stands on, the answer, and whether the green-gases analyst
    should follow with the computed reductions (a question about levers)."""

    uses: tuple[ToolUse, ...]
    text: str
    levers: bool = False


@dataclass
class _Trail:
    """Records each tool call while computing what it returns."""

    inventory: Inventory
    uses: list[ToolUse] = field(default_factory=list)

    def query(self, group_by: Field | None = None, top_n: int = 10, **filters: str) -> QueryResult:
        args: dict[str, Any] = {"top_n": top_n, **filters}
        if group_by:
            args = {"group_by": group_by, **args}
        self._add(ToolUse(INVENTORY, args))
        return query(self.inventory, group_by=group_by, top_n=top_n, filters=dict(filters))

    def view(self, view: View, **filters: str) -> None:
        self._add(ToolUse(INVENTORY, {"view": view, **filters}))

    def calc(self, expression: str) -> float:
        self._add(ToolUse(CALCULATOR, {"expressao": expression}))
        return evaluate(expression)

    def _add(self, use: ToolUse) -> None:
        if use not in self.uses:
            self.uses.append(use)


def _raw(value: float) -> str:
    """A figure as the trail shows it (one decimal), in the calculator's notation."""
    return f"{round(value, 1):.1f}"


def _exact(value: float) -> str:
    """A figure for the calculator: one decimal when that is all it has, else four, so a sum
    of several rows is not a sum of their roundings (197,14 + 26 + 19,235 + 6,63 = 249,0)."""
    one = round(value, 1)
    return f"{one:.1f}" if abs(value - one) < 1e-9 else f"{round(value, 4)}"


def _sum(trail: _Trail, figures: list[float]) -> float:
    """Figures added by the calculator when there are several, so the trail shows the sum."""
    if not figures:
        return 0.0
    return trail.calc(" + ".join(_exact(t) for t in figures)) if len(figures) > 1 else figures[0]


def _mass(tonnes: float, lang: Language) -> str:
    """t of a gas as the gases view gives it (three decimals, more below 10 kg), in the
    answer's notation."""
    if tonnes and abs(tonnes) < 0.01:
        return number(tonnes, min(6, 2 - math.floor(math.log10(abs(tonnes)))), lang)
    return number(tonnes, 3, lang)


def _q(text: object, lang: Language) -> str:
    """A label quoted from the workbook: in an English answer it stays in the workbook's
    words, in quotes, so it reads as quoted rather than as the answer's own language."""
    return f"“{text}”" if lang == "en" else str(text)


def inventory_reply(question: str, inventory: Inventory, lang: Language) -> Reply:
    """What the analyst calls and answers for a question about the attached inventory."""
    trail = _Trail(inventory)
    ask = W.read(question, inventory)
    notice = Reading.of(inventory).notice(lang)
    handler = _HANDLERS[ask.kind]
    body = handler(trail, ask, lang)
    text = "\n".join(part for part in (notice, body) if part)
    return Reply(uses=tuple(trail.uses), text=text, levers=ask.kind == "levers")


def _status(status: str, lang: Language) -> str:
    """The inventory's reconciliation status in words; an unknown one as it is."""
    key = f"status.{status}"
    return W.TEXTS(key, lang) if key in W.TEXTS else status


def _note(category: str, lang: Language) -> str | None:
    """What a category's figure means, when the answers explain it."""
    key = f"note.{category}"
    return W.TEXTS(key, lang) if key in W.TEXTS else None


# --- the figures: totals, breakdowns, filters, top-N, shares -----------------------------------


def _figures(trail: _Trail, ask: W.Ask, lang: Language) -> str:
    if ask.missing_topic:
        return _missing_topic(trail, ask, lang)
    if ask.refrigerants:
        return _refrigerants(trail, ask, lang)
    gas = canonical_gas(ask.filters.get("gas", "")) or ask.filters.get("gas", "")
    if gas and is_montreal(gas):
        return _montreal_gas(trail, ask, gas, lang)
    if ask.group_by == "gas" and not ask.gases and "gas" not in ask.filters:
        return _by_gas(trail, ask, lang)
    whole = trail.query("scope")
    if ask.each:
        return _subjects(trail, ask, whole, lang)
    result = trail.query(ask.group_by, ask.top_n, **ask.filters)
    if result.rows.empty:
        return f"{W.TEXTS('none', lang)} {_what_is_there(trail, ask, lang)}"
    if ask.gases:
        return _named_gases(trail, ask, result, whole, lang)
    lines = []
    subject = _subject(ask, lang)
    if subject and whole.total:
        share = trail.calc(f"round({_raw(result.total)} / {_raw(whole.total)} * 100, 1)")
        lines.append(
            f"{subject}: {number(result.total, lang=lang)} t CO2e ({number(share, lang=lang)}% "
            f"{W.TEXTS('of_total', lang)} {number(whole.total, lang=lang)} t CO2e, "
            f"GWP {trail.inventory.gwp_set})."
        )
    else:
        lines.append(
            f"{W.TEXTS('total', lang)}: {number(result.total, lang=lang)} t CO2e "
            f"(GWP {trail.inventory.gwp_set})."
        )
    lines[-1] += _share_of_scope(trail, ask, result.total, lang) + _in_workbook_set(
        trail, ask.filters, lang
    )
    if result.year:
        lines.append(f"{W.TEXTS('year_of', lang)}: {result.year}.")
    lines[1:1] = [m for m in (_gas_mass(trail, ask, gas, lang),) if m]
    if ask.biogenic:
        biogenic = number(trail.inventory.biogenic_co2_t, 3, lang)
        trail.view("gases", **ask.filters)
        lines.append(f"{W.TEXTS('biogenic', lang)}: {biogenic} t CO2.")
    if result.groups is not None and [v for v, _ in result.groups] == [NOT_GIVEN]:
        # Nothing to break down by (Scope 2 rows without categories): by facility instead.
        other: Field = "facility" if ask.group_by != "facility" else "source"
        ask = replace(ask, group_by=other)
        result = trail.query(other, ask.top_n, **ask.filters)
    if result.groups is not None and [v for v, _ in result.groups] != [NOT_GIVEN]:
        listed = _listed(ask.group_by, result, lang, ask.top_n if ask.top_asked else 5)
        if listed:
            heading = W.TEXTS(f"heading.{ask.group_by}", lang)
            top = W.TEXTS("top", lang, n=len(result.groups)) if ask.top_asked else ""
            lines.append(f"{W.TEXTS('by', lang)} {heading}{top}: {listed}.")
            most = ask.top_n if ask.top_asked else 5
            lines += [a for a in (_groups_in_workbook_set(trail, ask, result, lang, most),) if a]
    elif result.top is not None:
        lines.append(_rows_text(result, lang))
    if ask.filters.get("scope") == "2" or ask.filters.get("category") == "Eletricidade":
        lines.append(_scope2_methods(trail.inventory, lang))
        lines += _scope2_why(trail, ask, lang)
    note = _note(ask.filters.get("category", ""), lang)
    if note:
        lines.append(note)
    if ask.year_lacking:
        lines.insert(0, _year_lacking(trail, ask, lang))
    return "\n".join(lines)


def _listed(dimension: Field | None, result: QueryResult, lang: Language, most: int = 5) -> str:
    return "; ".join(
        f"{_value(dimension, value, lang)}: {number(t, lang=lang)} t CO2e "
        f"({percent(t / result.total, lang=lang) if result.total else '—'})"
        for value, t in (result.groups or [])[:most]
    )


def _subjects(trail: _Trail, ask: W.Ask, whole: QueryResult, lang: Language) -> str:
    """Subjects no one filter holds together ("trucks and forklifts"): each one queried,
    then summed by the calculator."""
    found = []
    for field_name, needle, label in ask.each:
        filters = {k: v for k, v in ask.filters.items() if k != field_name}
        result = trail.query("source", ask.top_n, **{**filters, field_name: needle})
        found.append((label, result))
    figures = [r.total for _, r in found]
    together = trail.calc(" + ".join(_raw(t) for t in figures))
    share = trail.calc(f"round({_raw(together)} / {_raw(whole.total)} * 100, 1)")
    listed = "; ".join(
        f"{W.topic_name(label, lang)}: "
        f"{number(r.total, lang=lang)} t CO2e ({_listed('source', r, lang)})"
        for label, r in found
    )
    return W.TEXTS("gases_named", lang,
        listed=listed, together=number(together, lang=lang), share=number(share, lang=lang),
        whole=number(whole.total, lang=lang), gwp=trail.inventory.gwp_set,
    )  # fmt: skip


def _named_gases(
    trail: _Trail, ask: W.Ask, result: QueryResult, whole: QueryResult, lang: Language
) -> str:
    """Each gas the question names, from the by-gas query, and their sum."""
    found = [(g, t) for g, t in result.groups or [] if canonical_gas(g) in ask.gases]
    if not found:
        return f"{W.TEXTS('none', lang)} {_what_is_there(trail, ask, lang, 'gas')}"
    together = (
        trail.calc(" + ".join(_exact(t) for _, t in found)) if len(found) > 1 else found[0][1]
    )
    # A share of what was asked about: of Scope 1 when the question is about Scope 1.
    subject = _subject(ask, lang)
    if subject and result.total:
        whole = result
    share = trail.calc(f"round({_raw(together)} / {_raw(whole.total)} * 100, 1)")
    fossil = W.TEXTS("fossil_co2", lang)  # biogenic CO2 is never here
    listed = "; ".join(
        f"{fossil if g == 'CO2' else W.gas_name(g)}: {number(t, lang=lang)} t CO2e"
        for g, t in found
    )
    absent = [g for g in ask.gases if g not in {canonical_gas(n) for n, _ in found}]
    text = W.TEXTS("gases_named", lang,
        listed=listed, together=number(together, lang=lang), share=number(share, lang=lang),
        whole=number(whole.total, lang=lang), gwp=trail.inventory.gwp_set,
    )  # fmt: skip
    if subject and whole is result:
        text = f"{subject} — {text}"
    if ask.family is not None:
        kind, members = ask.family
        held = [(g, t) for g, t in found if g in members]
        if len(held) > 1:
            family = trail.calc(" + ".join(_exact(t) for _, t in held))
            name = W.TEXTS(f"family_name.{kind}", lang)
            text += " " + W.TEXTS("family_sum", lang,
                family=name[0].upper() + name[1:], total=number(family, lang=lang),
                members=", ".join(W.gas_name(g) for g, _ in held),
            )  # fmt: skip
    if absent:
        text += " " + W.TEXTS("gases_absent", lang, gases=", ".join(absent))
    return text


def _rows_text(result: QueryResult, lang: Language) -> str:
    assert result.top is not None
    items = []
    top = result.top
    for _, row in top.iterrows():
        name = row[LABEL] if LABEL in top else row.get(F.SOURCE)
        where = [_q(row.get(F.FACILITY), lang)] if _sited(row, name) else []
        where += [W.gas_name(row.get(F.GAS))] if _given(row.get(F.GAS)) else []
        place = f" ({', '.join(where)})" if where else ""
        items.append(f"{_q(name, lang)}{place}: {number(row[F.EMISSIONS_TCO2E], lang=lang)} t CO2e")
    return f"{W.TEXTS('rows', lang, n=len(items))}: " + "; ".join(items) + "."


def _given(value: object) -> bool:
    return value is not None and str(value) not in ("", "nan", "None")


def _sited(row: pd.Series, name: object) -> bool:
    """Whether a row's facility is worth saying beside its name (one its label lacks)."""
    site = row.get(F.FACILITY)
    return _given(site) and str(site) not in str(name)


def _refrigerants(trail: _Trail, ask: W.Ask, lang: Language) -> str:
    """Refrigerant gases: HFCs, PFCs and their blends, gas by gas from the gases view, summed
    by the calculator. SF6 (switchgear insulation) and NF3 are not refrigerants; a PFC of an
    industrial process is not one either. Montreal Protocol refrigerants (HCFC-22, R-22) are
    said apart, with their mass and CO2e, outside the total."""
    filters = {k: v for k, v in ask.filters.items() if k != "category"}
    trail.view("gases", **filters)
    table, _ = select(trail.inventory, filters)
    if F.CATEGORY in table and F.GAS in table:
        process = table[F.CATEGORY].fillna("").astype(str) == "Processos industriais"
        table = table[~(process & table[F.GAS].map(lambda g: W.gas_family(g) == "PFC"))]
    gases = analytics.gas_masses(table)
    chosen = gases[gases["gas"].map(W.is_refrigerant)]
    montreal = _montreal_rows(table, W.is_refrigerant)
    if chosen.empty and montreal.empty:
        return f"{W.TEXTS('no_refrigerant', lang)} {_what_is_there(trail, ask, lang, 'gas')}"
    lines = []
    if len(chosen):
        whole = trail.query("scope")
        total = _sum(trail, [float(t) for t in chosen["tco2e"]])
        share = trail.calc(f"round({_raw(total)} / {_raw(whole.total)} * 100, 1)")
        listed = "; ".join(
            f"{W.gas_name(row.gas)}: {number(row.tco2e, lang=lang)} t CO2e"
            for row in chosen.itertuples(index=False)
        )
        lines.append(
            W.TEXTS(
                "refrigerants",
                lang,
                total=number(total, lang=lang),
                share=number(share, lang=lang),
                whole=number(whole.total, lang=lang),
                gwp=trail.inventory.gwp_set,
                listed=listed,
            )
        )
    if len(montreal):
        lines.append(W.TEXTS("montreal", lang, listed=_montreal_listed(montreal, lang)))
    return "\n".join(lines)


def _groups_in_workbook_set(
    trail: _Trail, ask: W.Ask, result: QueryResult, lang: Language, most: int
) -> str:
    """A breakdown again under the GWP set of the workbook's own totals (``_in_workbook_set``),
    for the groups whose figure that set changes: each is one view of the tool."""
    inventory = trail.inventory
    theirs = inventory.workbook_gwp_set
    field_name = ask.group_by
    if theirs is None or field_name not in _ROW_FIELDS:
        return ""
    parts = []
    for value, ours in (result.groups or [])[:most]:
        if value == NOT_GIVEN:
            continue
        filters = {**ask.filters, field_name: value}
        table, _ = select(inventory, filters)
        under = analytics.total_under(table, theirs, inventory.ch4_origin, stated=inventory.gwp_set)
        if not under.recomputed_rows or abs(under.total_tco2e - ours) < 0.05:
            continue
        trail.view("gwp_sets", **filters)
        parts.append(f"{_value(field_name, value, lang)}: {number(under.total_tco2e, lang=lang)}")
    if not parts:
        return ""
    heading = W.TEXTS(f"heading.{field_name}", lang)
    return W.TEXTS(
        "groups_workbook_set", lang, set=theirs, heading=heading, listed="; ".join(parts)
    )


# Fields a breakdown's group can be filtered back by (a scope, a category, a source...).
_ROW_FIELDS = frozenset({"scope", "category", "source", "facility", "fuel", "gas"})


def _share_of_scope(trail: _Trail, ask: W.Ask, figure: float, lang: Language) -> str:
    """Rows of one scope narrowed further (Scope 1's natural gas): their share of that
    scope too, the base such a question takes, beside the share of the whole inventory."""
    scope = ask.filters.get("scope")
    if not scope or len(ask.filters) < 2 or not figure:
        return ""
    within = trail.query("category", 10, scope=scope)
    if not within.total or abs(within.total - figure) < 0.05:
        return ""
    share = trail.calc(f"round({_raw(figure)} / {_raw(within.total)} * 100, 1)")
    return " " + W.TEXTS(
        "of_scope",
        lang,
        share=number(share, lang=lang),
        scope=scope,
        total=number(within.total, lang=lang),
    )


def _in_workbook_set(trail: _Trail, filters: dict[str, str], lang: Language) -> str:
    """The same rows under the GWP set the workbook's own totals use, when the inventory was
    read with another: a reader compares the answer with the workbook's cells, and a change
    of GWP set moves a figure without any error in it (IPCC AR5 and AR6 give HFCs, SF6 and
    methane different GWPs)."""
    inventory = trail.inventory
    theirs = inventory.workbook_gwp_set
    if theirs is None:
        return ""
    table, _ = select(inventory, dict(filters))
    under = analytics.total_under(table, theirs, inventory.ch4_origin, stated=inventory.gwp_set)
    ours = float(table[F.EMISSIONS_TCO2E].sum())
    if not under.recomputed_rows or abs(under.total_tco2e - ours) < 0.05:
        return ""  # CO2 alone (GWP 1 in every set): nothing changes
    trail.view("gwp_sets", **filters)
    return " " + W.TEXTS(
        "workbook_set", lang, set=theirs, total=number(under.total_tco2e, lang=lang)
    )


def _gas_mass(trail: _Trail, ask: W.Ask, gas: str, lang: Language) -> str:
    """One gas asked: its tonnes beside its t CO2e. The GHG Protocol Corporate Standard
    (ch. 9) reports each gas in metric tonnes and in t CO2e; t CO2e alone hides the mass a
    reader checks against a workbook, and differs between GWP sets where the mass does not.
    Rows asked about that emit one gas only (a lagoon's methane) give that gas's tonnes too."""
    if not ask.filters or (gas and "gas" not in ask.filters):
        return ""
    table, _ = select(trail.inventory, dict(ask.filters))
    masses = analytics.gas_masses(table)
    if not gas:
        emitting = masses[masses["tco2e"] > 0]
        if len(emitting) != 1 or emitting["gas"].iloc[0] == analytics.UNKNOWN:
            return ""
        gas = str(emitting["gas"].iloc[0])
    if gas == "CO2":
        return ""  # t CO2 is t CO2e: the mass adds nothing
    row = masses[masses["gas"] == gas]
    if row.empty or pd.isna(row["t_gas"].iloc[0]) or not row["mass_rows"].iloc[0]:
        return ""
    trail.view("gases", **ask.filters)
    return W.TEXTS("gas_mass", lang, mass=_mass(float(row["t_gas"].iloc[0]), lang), gas=gas)


def _montreal_rows(table: pd.DataFrame, which=None) -> pd.DataFrame:
    memo = analytics.memo_gases(table)
    memo = memo[memo["reporting"] == F.MONTREAL]
    return memo[memo["gas"].map(which)] if which is not None and len(memo) else memo


def _montreal_listed(memo: pd.DataFrame, lang: Language) -> str:
    """Each Montreal gas with its mass (kg and t, as the gases view gives it) and its CO2e;
    a gas the workbook gives in t CO2e only keeps no mass (its GWP set is the workbook's)."""
    items = []
    for row in memo.itertuples(index=False):
        co2e = f"{number(row.memo_tco2e, lang=lang)} t CO2e"
        if pd.isna(row.t_gas):  # in t CO2e only, or the Montreal part of a blend
            said = (
                W.TEXTS("montreal_no_mass", lang)
                if is_montreal(row.gas)
                else W.TEXTS("montreal_part", lang)
            )
            items.append(f"{W.gas_name(row.gas)} ({said}): {co2e}")
            continue
        kg = number(float(row.t_gas) * 1000, 1, lang)
        t_gas = _mass(float(row.t_gas), lang)
        items.append(f"{W.gas_name(row.gas)}: {kg} kg ({t_gas} t) = {co2e}")
    return "; ".join(items)


def _montreal_gas(trail: _Trail, ask: W.Ask, gas: str, lang: Language) -> str:
    """A Montreal Protocol gas asked about (HCFC-22, R-22): what it is and how it is
    reported, apart from the total, with its mass and its CO2e for information."""
    filters = {k: v for k, v in ask.filters.items() if k not in ("gas", "category")}
    trail.view("gases", **filters)
    table, _ = select(trail.inventory, filters)

    def holds(name: object) -> bool:  # the workbook's spelling ("HCFC-22 (R-22)") too
        return (
            name == gas
            or canonical_gas(str(name)) == gas
            or any(part == gas for part, _ in split_blend(str(name)))
        )

    memo = _montreal_rows(table, holds)
    name = W.gas_name(gas)
    rule = W.TEXTS("montreal_rule", lang, gas=name)
    if memo.empty:
        return f"{rule} {W.TEXTS('montreal_absent', lang, gas=name)}"
    whole = trail.query("scope", **filters)
    rows = table[table[F.GAS].map(holds)] if F.GAS in table else table.iloc[0:0]
    where = sorted({
        _q(label, lang) + (f" ({_q(site, lang)})" if _given(site) else "")
        for label, site in zip(rows[LABEL], rows.get(F.FACILITY, [None] * len(rows)), strict=False)
    })  # fmt: skip
    held = W.TEXTS("montreal_held", lang,
        listed=_montreal_listed(memo, lang), gwp=trail.inventory.gwp_set,
        total=number(whole.total, lang=lang),
    )  # fmt: skip
    lines = [rule, held]
    if where:
        lines.append(f"{W.TEXTS('montreal_where', lang)}: {'; '.join(where)}.")
    return "\n".join(lines)


def _by_gas(trail: _Trail, ask: W.Ask, lang: Language) -> str:
    """Every gas group of the total (fossil CO2, CH4, N2O, HFCs, PFCs, SF6, NF3, as held),
    each HFC and PFC named; rows the workbook gives only in t CO2e, without a gas, said as
    such, never ranked as a gas; biogenic CO2 and Montreal gases apart, outside the total."""
    filters = dict(ask.filters)
    trail.view("gases", **filters)
    whole = trail.query("gas", 50, **filters)
    if whole.rows.empty:
        return f"{W.TEXTS('none', lang)} {_what_is_there(trail, ask, lang)}"
    table, _ = select(trail.inventory, filters)
    gases = analytics.gas_masses(table)
    families: dict[str, list[tuple[str, float]]] = {}
    unknown = 0.0
    for row in gases.itertuples(index=False):
        if row.gas == analytics.UNKNOWN:
            unknown += float(row.tco2e)
            continue
        families.setdefault(W.gas_family(row.gas), []).append((str(row.gas), float(row.tco2e)))
    parts = []
    for family in (*W.FAMILIES, "other"):
        members = families.get(family)
        if not members or not any(t for _, t in members):
            continue  # a per-gas column's zeros: the gas is not emitted by these rows
        total = _sum(trail, [t for _, t in members])
        share = trail.calc(f"round({_raw(total)} / {_raw(whole.total)} * 100, 1)") if (
            whole.total) else 0.0  # fmt: skip
        text = (f"{W.TEXTS(f'family.{family}', lang)}: {number(total, lang=lang)} t CO2e "
                f"({number(share, lang=lang)}%)")  # fmt: skip
        if family in ("HFC", "PFC", "other"):
            text += " — " + ", ".join(f"{W.gas_name(g)} {number(t, lang=lang)}" for g, t in members)
        parts.append(text)
    lines = [
        W.TEXTS("by_gas", lang,
            total=number(whole.total, lang=lang), gwp=trail.inventory.gwp_set,
            listed="; ".join(parts) or "—",
        )
        + _in_workbook_set(trail, filters, lang)
    ]  # fmt: skip
    if unknown:
        counted = table[table[F.REPORTING] == F.IN_INVENTORY] if F.REPORTING in table else table
        bare = counted[counted[F.GAS].isna()] if F.GAS in counted else counted
        scopes = sorted({str(v) for v in bare.get(F.SCOPE, pd.Series(dtype=object)).dropna()})
        where = ", ".join(f"{W.TEXTS('scope', lang)} {s}" for s in scopes) or "—"
        lines.append(W.TEXTS("no_gas", lang, t=number(unknown, lang=lang), scopes=where))
    biogenic = float(table[F.BIOGENIC_CO2].sum()) if F.BIOGENIC_CO2 in table else 0.0
    if biogenic:
        lines.append(f"{W.TEXTS('biogenic', lang)}: {number(biogenic, 1, lang)} t CO2.")
    montreal = _montreal_rows(table)
    if len(montreal):
        lines.append(W.TEXTS("montreal", lang, listed=_montreal_listed(montreal, lang)))
    return "\n".join(lines)


# Columns and values of Scope 2 rows that say how the electricity was bought.
_INSTRUMENT_HEADER = re.compile(
    r"instrument|certific|contrat|\brecs?\b|i rec|\bppa\b|fornecedor|supplier|garantia|"
    r"atributo|attribute|mercado livre|\bacl\b|tipo de compra|origem da energia|energy source|"
    r"fonte de energia|tarifa|comercializ"
)
_INSTRUMENT_VALUE = re.compile(
    r"\bi ?recs?\b|\brecs?\b|certific|\bppa\b|contrat|mercado livre|\bacl\b|autoprodu|"
    r"fornecedor|supplier|garantia de origem|renovav|renewable|incentivad|comercializ|eolic|"
    r"\bwind\b|solar|\bgo\b"
)


def _instruments(table: pd.DataFrame) -> list[str]:
    """What the workbook shows of the contractual instruments behind Scope 2: a column for
    them, or a value that names one ('I-REC', 'PPA', 'mercado livre'), with its facility."""
    rows = table[table[F.SCOPE].map(lambda v: str(v).strip() in ("2", "2.0"))] if (
        F.SCOPE in table) else table  # fmt: skip
    own = {LABEL, "sheet", "row", F.SCOPE, F.FACILITY, F.GAS, F.REPORTING, F.SCOPE2_METHOD,
           F.YEAR, F.UNIT, F.EMISSIONS_UNIT, "basis", "code"}  # fmt: skip
    found: list[str] = []
    for column in rows.columns:
        if column in own or pd.api.types.is_numeric_dtype(rows[column]):
            continue
        by_header = _INSTRUMENT_HEADER.search(F.words(str(column))) is not None
        for value, site in zip(rows[column], rows.get(F.FACILITY, [None] * len(rows)),
                               strict=False):  # fmt: skip
            if not isinstance(value, str) or not value.strip():
                continue
            if by_header or _INSTRUMENT_VALUE.search(F.words(value)):
                item = f"“{column}”: “{value.strip()}”" + (f" (“{site}”)" if _given(site) else "")
                if item not in found:
                    found.append(item)
    return found[:8]


def _scope2_why(trail: _Trail, ask: W.Ask, lang: Language) -> list[str]:
    """Why the market-based Scope 2 differs from the location-based one: the contractual
    instruments the market-based method counts, and what the workbook shows of them."""
    inventory = trail.inventory
    market, location = inventory.scope2_market_tco2e, inventory.scope2_location_tco2e
    if market is None or abs(market - (location or 0.0)) < 0.05:
        return []
    filters = {k: v for k, v in ask.filters.items() if k not in ("scope", "category")}
    trail.view("facility_scope", **filters)
    table, _ = select(inventory, {**filters, "scope": "2"})
    lines = [W.TEXTS("market_why", lang)]
    frame = analytics.facility_scope(table)
    differ = []
    for _, row in frame.iterrows():
        here, there = row[analytics.SCOPE2_LOCATION], row[analytics.SCOPE2_MARKET]
        if pd.isna(here) or pd.isna(there) or abs(here - there) < 0.05:
            continue
        name = (
            W.TEXTS("not_given", lang) if row["facility"] == analytics.UNKNOWN else row["facility"]
        )
        differ.append(W.TEXTS("market_site", lang,
            site=_q(name, lang), location=number(here, lang=lang), market=number(there, lang=lang)
        ))  # fmt: skip
    if differ:
        lines.append(f"{W.TEXTS('market_sites', lang)}: {'; '.join(differ)}.")
    shown = _instruments(table)
    lines.append(
        W.TEXTS("market_shows", lang, listed="; ".join(shown))
        if shown
        else W.TEXTS("market_unshown", lang)
    )
    return lines


def _estimated(trail: _Trail, ask: W.Ask, lang: Language) -> str:
    """The rows the workbook marks as estimated, by its own data-quality column."""
    columns = quality_columns(trail.inventory.table)
    if not columns:
        return W.TEXTS("no_quality_column", lang)
    named = ", ".join(f"“{c}”" for c in columns)
    whole = trail.query("scope")
    result = trail.query(None, 50, **{**ask.filters, QUALITY: "estimado"})
    rows = result.rows
    kind = rows[F.REPORTING] if F.REPORTING in rows else pd.Series(F.IN_INVENTORY, rows.index)
    counted = rows[kind == F.IN_INVENTORY]
    listed_rows = rows[kind != F.SCOPE2_MARKET]
    if rows.empty or (counted.empty and not (kind == F.MONTREAL).any()):
        return W.TEXTS("none_estimated", lang, columns=named)
    top = result.top if result.top is not None else rows.iloc[0:0]
    top_kind = top[F.REPORTING] if F.REPORTING in top else pd.Series(F.IN_INVENTORY, top.index)
    items = []
    for index, row in top.iterrows():
        if top_kind[index] == F.SCOPE2_MARKET:
            continue  # the same row's market-based figure: beside it, not another row
        where = [_q(row[F.FACILITY], lang)] if _sited(row, row[LABEL]) else []
        if _given(row.get(F.SCOPE)):
            where.append(f"{W.TEXTS('scope', lang)} {row[F.SCOPE]}")
        place = f" ({', '.join(where)})" if where else ""
        if top_kind[index] == F.MONTREAL:
            figure = W.TEXTS("estimated_montreal", lang, gas=W.gas_name(row.get(F.GAS)))
        else:
            figure = f"{number(row[F.EMISSIONS_TCO2E], lang=lang)} t CO2e"
        items.append(f"- {_q(row[LABEL], lang)}{place}: {figure}")
    share = (
        trail.calc(f"round({_raw(result.total)} / {_raw(whole.total)} * 100, 1)")
        if whole.total else 0.0
    )  # fmt: skip
    head = W.TEXTS("estimated", lang,
        columns=named, n=len(listed_rows), total=number(result.total, lang=lang),
        share=number(share, lang=lang), whole=number(whole.total, lang=lang),
        gwp=trail.inventory.gwp_set,
    )  # fmt: skip
    hidden = len(listed_rows) - len(items)
    tail = [W.TEXTS("more_rows", lang, n=hidden)] if hidden > 0 else []
    return "\n".join([head, *items, *tail])


def _subject(ask: W.Ask, lang: Language) -> str:
    parts = []
    if "scope" in ask.filters:
        parts.append(f"{W.TEXTS('scope', lang)} {ask.filters['scope']}")
    if "category" in ask.filters:
        parts.append(_category(ask.filters["category"], lang))
    for key in ("gas", "source", "fuel", "facility", "year"):
        if key in ask.filters:
            label = ask.labels.get(key, ask.filters[key])
            if key == "gas":
                label = W.gas_name(canonical_gas(label) or label)
            elif key == "facility":
                label = _q(label, lang)
            else:
                label = W.topic_name(label, lang)
            parts.append(f"{W.TEXTS(f'heading.{key}', lang)} {label}")
    return ", ".join(parts)


def _value(dimension: str | None, value: str, lang: Language) -> str:
    if value == NOT_GIVEN:
        return W.TEXTS("not_given", lang)
    if dimension == "scope":
        return f"{W.TEXTS('scope', lang)} {value}"
    if dimension == "category":
        return _category(value, lang)
    if dimension == "gas":
        return W.gas_name(value)
    if dimension == "year":
        return value
    return _q(value, lang)


def _category(value: str, lang: Language, *, lead: bool = True) -> str:
    """A category in the answer's language: a Scope 3 one by its GHG Protocol number and
    name ('Category 9 – Downstream transportation and distribution'), with the workbook's
    own label quoted beside it when that label is not the standard name."""
    number_ = W.scope3_number(value)
    if number_ is None:
        english = F.category_en(value)
        if lang == "en":
            return english if english != value else _q(value, lang)
        named = F.category_of(value)
        if named is not None and named[0] != "3" and F.words(named[1]) != F.words(value):
            return f"{named[1]} (“{value}”)"  # a workbook in English, answered in Portuguese
        return value
    word = W.TEXTS("category_word", lang)
    word = word.capitalize() if lead else word
    # A number past ten is a figure the grounding check asks a source for: only when written.
    shown = number_ <= 10 or str(number_) in value
    if lang == "pt":
        written = W.scope3_number_written(value)
        return value if written or not shown else f"{word} {number_} – {value}"
    standard = W.scope3_name(number_, lang)
    name = f"{word} {number_} – {standard}" if shown else standard
    if F.words(value) == F.words(W.SCOPE3_CATEGORIES[number_]):
        return name  # the ingestion's own name, not a label of the workbook's
    return f"{name} (“{value}”)"


def _scope2_methods(inventory: Inventory, lang: Language) -> str:
    location = number(inventory.scope2_location_tco2e or 0.0, lang=lang)
    market = inventory.scope2_market_tco2e
    side_by_side = W.TEXTS("side_by_side", lang)
    tail = (
        f"{W.TEXTS('market', lang)}: {number(market, lang=lang)} t CO2e; {side_by_side}"
        if market is not None
        else ""
    )  # GHG Protocol Scope 2 Guidance: both methods reported, never summed
    return f"{W.TEXTS('location', lang)}: {location} t CO2e; {tail or W.TEXTS('no_market', lang)}."


# --- what the inventory lacks -----------------------------------------------------------------


def _what_is_there(
    trail: _Trail, ask: W.Ask, lang: Language, dimension: Field | None = None
) -> str:
    """The values the inventory does hold in the field the question asked about."""
    dimension = dimension or ask.missing_field or next(iter(ask.filters), None) or "category"
    if dimension == "scope":
        dimension = "category"
    result = trail.query(dimension, 10)
    values = [_value(dimension, v, lang) for v, _ in result.groups or []]
    if not values:
        return ""
    heading = W.TEXTS(f"heading_plural.{dimension}", lang)
    return W.TEXTS("there", lang, heading=heading, values="; ".join(
        f"{value} ({number(t, lang=lang)} t CO2e)"
        for value, (_, t) in zip(values, result.groups or [], strict=True)
    ))  # fmt: skip


def _missing_topic(trail: _Trail, ask: W.Ask, lang: Language) -> str:
    said = W.TEXTS("no_topic", lang, topic=ask.missing_topic)
    gas = ask.filters.get("gas")
    if gas:  # what the inventory holds of that gas, source by source
        result = trail.query("source", 10, gas=gas)
        listed = "; ".join(
            f"{_q(v, lang)}: {number(t, lang=lang)} t CO2e" for v, t in result.groups or []
        )
        there = W.TEXTS("gas_there", lang, gas=gas, total=number(result.total, lang=lang))
        return f"{said} {there}: {listed}." if listed else said
    return f"{said} {_what_is_there(trail, ask, lang, 'source')}"


def _year_lacking(trail: _Trail, ask: W.Ask, lang: Language) -> str:
    years = ", ".join(trail.inventory.years) or "—"
    return W.TEXTS("no_year", lang, asked=", ".join(ask.year_lacking), years=years)


def _missing_year(trail: _Trail, ask: W.Ask, lang: Language) -> str:
    lines = [_year_lacking(trail, ask, lang)]
    result = trail.query("year")
    listed = "; ".join(f"{y}: {number(t, lang=lang)} t CO2e" for y, t in result.groups or [])
    if listed:
        lines.append(f"{W.TEXTS('by', lang)} {W.TEXTS('heading.year', lang)}: {listed}.")
    return "\n".join(lines)


def _missing_scope3(trail: _Trail, ask: W.Ask, lang: Language) -> str:
    """A Scope 3 category the inventory does not include, said plainly, naming each one it
    does hold by its number and name."""
    asked = int(ask.scope3_asked)
    result = trail.query("category", 15, scope="3")
    held = sorted(
        result.groups or [], key=lambda group: (W.scope3_number(group[0]) or 99, -group[1])
    )
    listed = "; ".join(
        f"{_category(c, lang, lead=False)}: {number(t, lang=lang)} t CO2e" for c, t in held
    )
    if not listed:
        return W.TEXTS("no_scope3_at_all", lang, n=asked, name=W.scope3_name(asked, lang))
    return W.TEXTS("no_scope3", lang, n=asked, name=W.scope3_name(asked, lang), listed=listed)


def _missing_costs(trail: _Trail, ask: W.Ask, lang: Language) -> str:
    result = trail.query("scope")
    listed = "; ".join(
        f"{_value('scope', s, lang)}: {number(t, lang=lang)} t CO2e" for s, t in result.groups or []
    )
    return W.TEXTS(
        "no_costs",
        lang,
        total=number(result.total, lang=lang),
        gwp=trail.inventory.gwp_set,
        listed=listed,
    )


# --- derived figures --------------------------------------------------------------------------


def _without_scope3(trail: _Trail, ask: W.Ask, lang: Language) -> str:
    """Scopes 1 and 2 together (the total without Scope 3), for the inventory, one
    installation, or each one: Scope 2 location-based in the sum, market-based beside it."""
    filters = {k: v for k, v in ask.filters.items() if k != "scope"}
    if ask.each_facility:
        return _scopes_by_facility(trail, filters, lang)
    result = trail.query("scope", **filters)
    by_scope = dict(result.groups or [])
    kept = [by_scope[s] for s in ("1", "2") if s in by_scope]
    scope3 = by_scope.get("3", 0.0)
    if not kept:
        return f"{W.TEXTS('none', lang)} {_what_is_there(trail, ask, lang, 'scope')}"
    without = _sum(trail, kept)
    parts = "; ".join(
        f"{_value('scope', s, lang)}{W.TEXTS('s2_location', lang) if s == '2' else ''}: "
        f"{number(by_scope[s], lang=lang)} t CO2e"
        for s in ("1", "2")
        if s in by_scope
    )
    market = _market_of(trail, filters)
    if "facility" in filters:
        site = _q(ask.labels.get("facility", filters["facility"]), lang)
        text = W.TEXTS("combined", lang,
            site=site, parts=parts, without=number(without, lang=lang),
            gwp=trail.inventory.gwp_set,
        )  # fmt: skip
        if scope3:
            text += " " + W.TEXTS("combined_s3", lang, scope3=number(scope3, lang=lang))
    else:
        share = trail.calc(f"round({_raw(without)} / {_raw(result.total)} * 100, 1)")
        text = W.TEXTS("without_scope3", lang,
            without=number(without, lang=lang), share=number(share, lang=lang),
            total=number(result.total, lang=lang), scope3=number(scope3, lang=lang),
            parts=parts, gwp=trail.inventory.gwp_set,
        )  # fmt: skip
    if market is not None and "2" in by_scope:
        text += "\n" + W.TEXTS("market_beside", lang, market=number(market, lang=lang))
    return text


def _market_of(trail: _Trail, filters: dict[str, str]) -> float | None:
    """The market-based Scope 2 of the rows asked about (the facility_scope view), or None
    when the workbook gives none."""
    table, _ = select(trail.inventory, filters)
    frame = analytics.facility_scope(table)
    if frame.empty or not frame[analytics.SCOPE2_MARKET].notna().any():
        return None
    trail.view("facility_scope", **filters)
    return float(frame[analytics.SCOPE2_MARKET].sum())


def _scopes_by_facility(trail: _Trail, filters: dict[str, str], lang: Language) -> str:
    trail.view("facility_scope", **filters)
    table, _ = select(trail.inventory, filters)
    frame = analytics.facility_scope(table)
    if frame.empty:
        return W.TEXTS("sbce_none", lang)
    lines = [W.TEXTS("by_facility_s12", lang, gwp=trail.inventory.gwp_set)]
    for _, row in frame.iterrows():
        s1 = float(row["1"]) if pd.notna(row["1"]) else 0.0
        s2 = (
            float(row[analytics.SCOPE2_LOCATION])
            if pd.notna(row[analytics.SCOPE2_LOCATION])
            else 0.0
        )
        if not s1 and not s2:
            continue  # rows of Scope 3 only (no facility, often): not part of this sum
        together = _sum(trail, [t for t in (s1, s2) if t])
        unknown = row["facility"] == analytics.UNKNOWN
        name = W.TEXTS("not_given", lang) if unknown else _q(row["facility"], lang)
        scope, location = W.TEXTS("scope", lang), W.TEXTS("s2_location", lang)
        line = (
            f"- {name}: {scope} 1: {number(s1, lang=lang)} + {scope} "
            f"2{location}: {number(s2, lang=lang)} = {number(together, lang=lang)} "
            "t CO2e"
        )
        market = row[analytics.SCOPE2_MARKET]
        if pd.notna(market):
            line += f" ({W.TEXTS('market_short', lang)}: {number(float(market), lang=lang)})"
        lines.append(line)
    return "\n".join(lines)


def _gwp_sets(trail: _Trail, ask: W.Ask, lang: Language) -> str:
    """The same gas masses under each GWP set, for what was asked: the whole inventory, a
    scope, an installation, or each installation; with the change from one set to the other."""
    from engine.inventory import facts as inventory_facts

    own = trail.inventory.gwp_set
    scopes = [s for s in ask.scopes if s in ("1", "2", "3")]
    filters = dict(ask.filters)
    if len(scopes) == 1:
        filters["scope"] = scopes[0]
    named = list(ask.gwp_sets)
    if len(named) == 1 and named[0] != own:
        named.append(own)  # "under AR6": against the inventory's own set

    def totals_of(view_filters: dict[str, str]) -> dict[str, analytics.SetTotal]:
        trail.view("gwp_sets", **view_filters)
        table, _ = select(trail.inventory, view_filters)
        return {
            t.gwp_set: t for t in inventory_facts.set_totals(trail.inventory, table, every_set=True)
        }

    def figure(total: analytics.SetTotal) -> float:
        if len(scopes) > 1:
            return _sum(trail, [total.by_scope.get(s, 0.0) for s in scopes])
        return total.total_tco2e

    def gap_text(totals: dict[str, analytics.SetTotal]) -> str:
        asked = [s for s in named if s in totals] or [s for s in ("AR6", "AR5") if s in totals]
        if len(asked) < 2:
            return ""
        first, second = figure(totals[asked[0]]), figure(totals[asked[1]])
        gap = trail.calc(f"{_raw(first)} - {_raw(second)}")
        change = (
            trail.calc(f"round(({_raw(first)} - {_raw(second)}) / {_raw(second)} * 100, 1)")
            if second else 0.0
        )  # fmt: skip
        return W.TEXTS(
            "gwp_gap",
            lang,
            a=asked[0],
            b=asked[1],
            gap=number(gap, lang=lang),
            change=number(change, lang=lang),
        )

    def sets_text(totals: dict[str, analytics.SetTotal]) -> str:
        shown = [s for s in named if s in totals] or list(totals)
        return "; ".join(
            f"{name}{W.TEXTS('own', lang) if name == own else ''}: "
            f"{number(figure(totals[name]), lang=lang)} t CO2e"
            for name in shown
        )

    totals = totals_of(filters)
    if not any(t.recomputed_rows or t.rescaled_rows for t in totals.values()):
        fixed = totals.get(own)
        if fixed is None or not fixed.fixed_rows or not (filters or scopes):
            return W.TEXTS("no_masses", lang)
        # What was asked is given in t CO2e only (Scope 2 electricity, say): the same
        # under every set, though other rows of the workbook do carry gas masses.
        return W.TEXTS(
            "gwp_fixed",
            lang,
            subject=_gwp_subject(ask, scopes, lang) or W.TEXTS("total", lang),
            t=number(figure(fixed), lang=lang),
        )
    subject = _gwp_subject(ask, scopes, lang)
    lines = []
    if ask.each_facility:
        table, _ = select(trail.inventory, filters)
        sites = table[F.FACILITY].dropna().unique() if F.FACILITY in table else []
        lines.append(
            f"{subject}, {W.TEXTS('per_facility', lang)}:"
            if subject
            else f"{W.TEXTS('per_facility', lang)}:"
        )
        for site in sites:
            site_totals = totals_of({**filters, "facility": str(site)})
            gap = gap_text(site_totals)
            lines.append(
                f"- {_q(site, lang)}: {sets_text(site_totals)}." + (f" {gap}" if gap else "")
            )
    else:
        lines.append((f"{subject}: " if subject else "") + sets_text(totals) + ".")
        gap = gap_text(totals)
        if gap:
            lines.append(gap)
    lines.append(W.TEXTS("gwp_note", lang))
    return "\n".join(lines)


def _gwp_subject(ask: W.Ask, scopes: list[str], lang: Language) -> str:
    parts = []
    if scopes:
        parts.append(" + ".join(f"{W.TEXTS('scope', lang)} {s}" for s in scopes))
    if "facility" in ask.filters:
        label = ask.labels.get("facility", ask.filters["facility"])
        parts.append(f"{W.TEXTS('heading.facility', lang)} {_q(label, lang)}")
    return ", ".join(parts)


# --- SBCE per installation --------------------------------------------------------------------


def _sbce(trail: _Trail, ask: W.Ask, lang: Language) -> str:
    """The law's thresholds applied to each installation's Scope 1, as the facility_scope
    view returns it; the company's sum decides nothing."""
    trail.view("facility_scope")
    frame = analytics.facility_scope(trail.inventory.current)
    if frame.empty:
        return W.TEXTS("sbce_none", lang)
    low, high = number(REPORTING_T, 0, lang), number(ALLOWANCES_T, 0, lang)
    lines = [W.TEXTS("sbce_rule", lang, low=low, high=high)]
    for row in frame.itertuples(index=False):
        scope1 = float(row[1]) if row[1] == row[1] else 0.0  # NaN: no Scope 1 rows
        name = W.TEXTS("not_given", lang) if row[0] == analytics.UNKNOWN else row[0]
        if scope1 > ALLOWANCES_T:
            band = W.TEXTS("sbce_allowances", lang)
        elif scope1 > REPORTING_T:
            band = W.TEXTS("sbce_reporting", lang)
        else:
            band = W.TEXTS("sbce_below", lang)
        # Unquoted: tests/test_offline_own_inventory.py reads these lines by their facility.
        lines.append(
            f"- {name}: {number(scope1, lang=lang)} t CO2e {W.TEXTS('scope1', lang)} — {band}"
        )
    lines.append(W.TEXTS("sbce_caveat", lang))
    lines.append(f"{W.TEXTS('source', lang)}: {SOURCE}")
    return "\n".join(lines)


# --- data quality and reconciliation ----------------------------------------------------------


def _quality(trail: _Trail, ask: W.Ask, lang: Language) -> str:
    trail.view("findings")
    findings = trail.inventory.findings
    lines = [_status_line(trail, lang)]
    if not findings:
        lines.append(W.TEXTS("no_findings", lang))
    else:
        lines.append(W.TEXTS("findings", lang, n=len(findings)))
        lines += [
            f"- [{f.sheet or W.TEXTS('general', lang)}] {' '.join(f.message(lang).split())}"
            for f in findings[:8]
        ]
        if len(findings) > 8:
            lines.append(W.TEXTS("more", lang, n=len(findings) - 8))
    return "\n".join(lines)


def _sheets(trail: _Trail, ask: W.Ask, lang: Language) -> str:
    trail.view("sheets")
    checks = trail.inventory.reconciliation
    lines = [_status_line(trail, lang)]
    if not checks:
        lines.append(W.TEXTS("no_sheets", lang))
    for check in checks:
        status = W.TEXTS(f"status.{check.status}", lang)
        message = check.message(lang)
        detail = f" {' '.join(message.split())}" if message else ""
        rows = f" ({W.TEXTS('data_rows', lang, n=check.rows)})" if check.rows else ""
        lines.append(f"- {check.sheet}: {status}{rows}.{detail}")
    findings = trail.inventory.findings
    if findings:
        trail.view("findings")
        lines.append(W.TEXTS("findings", lang, n=len(findings)))
    # A status is the workbook against itself: never mistaken for an auditor's statement.
    lines.append(W.TEXTS("not_verification", lang))
    return "\n".join(lines)


def _status_line(trail: _Trail, lang: Language) -> str:
    inventory = trail.inventory
    return W.TEXTS("overall", lang, status=_status(inventory.status, lang))


# --- levers -----------------------------------------------------------------------------------


def _levers(trail: _Trail, ask: W.Ask, lang: Language) -> str:
    """The largest rows, where a reduction weighs most; the green-gases analyst follows with
    the reductions the engine computes for them (``estimar_reducoes``)."""
    whole = trail.query("scope")
    result = trail.query("source", 5, **ask.filters)
    if result.rows.empty or not whole.total:
        return f"{W.TEXTS('none', lang)} {_what_is_there(trail, ask, lang)}"
    groups = result.groups or []
    together = sum(t for _, t in groups)
    summed = trail.calc(" + ".join(_raw(t) for _, t in groups)) if len(groups) > 1 else together
    share = trail.calc(f"round({_raw(summed)} / {_raw(whole.total)} * 100, 1)")
    listed = "; ".join(f"{s}: {number(t, lang=lang)} t CO2e" for s, t in groups)
    text = W.TEXTS("levers", lang,
        n=len(groups), listed=listed, summed=number(summed, lang=lang),
        share=number(share, lang=lang), total=number(whole.total, lang=lang),
    )  # fmt: skip
    if ask.costs:
        text += "\n" + W.TEXTS("levers_costs", lang)
    return text


_HANDLERS = {
    "figures": _figures,
    "missing_year": _missing_year,
    "missing_scope3": _missing_scope3,
    "costs": _missing_costs,
    "without_scope3": _without_scope3,
    "gwp_sets": _gwp_sets,
    "sbce": _sbce,
    "quality": _quality,
    "sheets": _sheets,
    "levers": _levers,
    "estimated": _estimated,
}


def is_sbce_on_inventory(question: str) -> bool:
    """An SBCE question that states no tonnage of its own: the rule goes to the inventory's
    installations."""
    return W.mentions_sbce(question) and sbce_amount(question) is None
