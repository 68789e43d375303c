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

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.arithmetic import TOOL_NAME as CALCULATOR
from engine.arithmetic import evaluate
from engine.formatting import number, percent
from engine.inventory import analytics
from engine.inventory import fields as F
from engine.inventory.facts import TOOL as INVENTORY
from engine.inventory.gwp import canonical_gas
from engine.inventory.notice import Reading
from engine.inventory.query import NOT_GIVEN, Field, QueryResult, View, query, select
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


def inventory_reply(question: str, inventory: Inventory, lang: Language) -> Reply:
    """What the analyst calls and answers for a question about the attached inventory."""
    trail = _Trail(inventory)
    ask = W.read(question, inventory)
    notice = Reading.of(inventory).notice(lang)
    handler = _HANDLERS[ask.kind]
    body = handler(trail, ask, lang)
    text = "\n".join(part for part in (notice, body) if part)
    return Reply(uses=tuple(trail.uses), text=text, levers=ask.kind == "levers")


# --- the figures: totals, breakdowns, filters, top-N, shares -----------------------------------


def _figures(trail: _Trail, ask: W.Ask, lang: Language) -> str:
    words = W.TEXT[lang]
    if ask.missing_topic:
        return _missing_topic(trail, ask, lang)
    if ask.refrigerants:
        return _refrigerants(trail, ask, lang)
    whole = trail.query("scope")
    if ask.each:
        return _subjects(trail, ask, whole, lang)
    result = trail.query(ask.group_by, ask.top_n, **ask.filters)
    if result.rows.empty:
        return f"{words['none']} {_what_is_there(trail, ask, lang)}"
    if ask.gases:
        return _named_gases(trail, ask, result, whole, lang)
    lines = []
    subject = _subject(ask, lang)
    if subject and whole.total:
        share = trail.calc(f"round({_raw(result.total)} / {_raw(whole.total)} * 100, 1)")
        lines.append(
            f"{subject}: {number(result.total, lang=lang)} t CO2e ({number(share, lang=lang)}% "
            f"{words['of_total']} {number(whole.total, lang=lang)} t CO2e, "
            f"GWP {trail.inventory.gwp_set})."
        )
    else:
        lines.append(
            f"{words['total']}: {number(result.total, lang=lang)} t CO2e "
            f"(GWP {trail.inventory.gwp_set})."
        )
    if result.year:
        lines.append(f"{words['year_of']}: {result.year}.")
    if ask.biogenic:
        biogenic = number(trail.inventory.biogenic_co2_t, 3, lang)
        trail.view("gases", **ask.filters)
        lines.append(f"{words['biogenic']}: {biogenic} t CO2.")
    if result.groups is not None:
        listed = _listed(ask.group_by, result, lang)
        if listed:
            heading = words["heading"][ask.group_by]
            top = words["top"].format(n=len(result.groups)) if ask.top_asked else ""
            lines.append(f"{words['by']} {heading}{top}: {listed}.")
    elif result.top is not None:
        lines.append(_rows_text(result, lang))
    if ask.filters.get("scope") == "2" or ask.filters.get("category") == "Eletricidade":
        lines.append(_scope2_methods(trail.inventory, lang))
    note = W.NOTES[lang].get(ask.filters.get("category", ""))
    if note:
        lines.append(note)
    if ask.year_lacking:
        lines.insert(0, _year_lacking(trail, ask, lang))
    return "\n".join(lines)


def _listed(dimension: Field | None, result: QueryResult, lang: Language) -> str:
    return "; ".join(
        f"{_value(dimension, value, lang)}: {number(t, lang=lang)} t CO2e "
        f"({percent(t / result.total, lang=lang) if result.total else '—'})"
        for value, t in (result.groups or [])[:5]
    )


def _subjects(trail: _Trail, ask: W.Ask, whole: QueryResult, lang: Language) -> str:
    """Subjects no one filter holds together ("trucks and forklifts"): each one queried,
    then summed by the calculator."""
    words = W.TEXT[lang]
    found = []
    for field_name, needle, label in ask.each:
        filters = {k: v for k, v in ask.filters.items() if k != field_name}
        result = trail.query("source", ask.top_n, **{**filters, field_name: needle})
        found.append((label, result))
    figures = [r.total for _, r in found]
    together = trail.calc(" + ".join(_raw(t) for t in figures))
    share = trail.calc(f"round({_raw(together)} / {_raw(whole.total)} * 100, 1)")
    listed = "; ".join(
        f"{label}: {number(r.total, lang=lang)} t CO2e ({_listed('source', r, lang)})"
        for label, r in found
    )
    return words["gases_named"].format(
        listed=listed, together=number(together, lang=lang), share=number(share, lang=lang),
        whole=number(whole.total, lang=lang), gwp=trail.inventory.gwp_set,
    )  # fmt: skip


def _named_gases(
    trail: _Trail, ask: W.Ask, result: QueryResult, whole: QueryResult, lang: Language
) -> str:
    """Each gas the question names, from the by-gas query, and their sum."""
    words = W.TEXT[lang]
    found = [(g, t) for g, t in result.groups or [] if canonical_gas(g) in ask.gases]
    if not found:
        return f"{words['none']} {_what_is_there(trail, ask, lang, 'gas')}"
    together = trail.calc(" + ".join(_raw(t) for _, t in found)) if len(found) > 1 else found[0][1]
    share = trail.calc(f"round({_raw(together)} / {_raw(whole.total)} * 100, 1)")
    listed = "; ".join(f"{g}: {number(t, lang=lang)} t CO2e" for g, t in found)
    absent = [g for g in ask.gases if g not in {canonical_gas(n) for n, _ in found}]
    text = words["gases_named"].format(
        listed=listed, together=number(together, lang=lang), share=number(share, lang=lang),
        whole=number(whole.total, lang=lang), gwp=trail.inventory.gwp_set,
    )  # fmt: skip
    if absent:
        text += " " + words["gases_absent"].format(gases=", ".join(absent))
    return text


def _rows_text(result: QueryResult, lang: Language) -> str:
    words = W.TEXT[lang]
    assert result.top is not None
    items = []
    for row in result.top.itertuples(index=False):
        where = ", ".join(
            str(v) for v in (getattr(row, F.FACILITY), getattr(row, F.GAS)) if _given(v)
        )
        items.append(
            f"{getattr(row, F.SOURCE)} ({where}): "
            f"{number(getattr(row, F.EMISSIONS_TCO2E), lang=lang)} t CO2e"
        )
    return f"{words['rows'].format(n=len(items))}: " + "; ".join(items) + "."


def _given(value: object) -> bool:
    return value is not None and str(value) not in ("", "nan", "None")


def _refrigerants(trail: _Trail, ask: W.Ask, lang: Language) -> str:
    """HFC, PFC and their blends, gas by gas from the gases view, summed by the calculator;
    Montreal Protocol gases (R-22) are said to stay out of the total."""
    words = W.TEXT[lang]
    filters = {k: v for k, v in ask.filters.items() if k != "category"}
    trail.view("gases", **filters)
    table, _ = select(trail.inventory, filters)
    gases = analytics.gas_masses(table)
    chosen = gases[gases["gas"].map(W.is_refrigerant)]
    memo = analytics.memo_gases(table)
    montreal = memo[(memo["reporting"] == F.MONTREAL) & memo["gas"].map(W.is_refrigerant)]
    if chosen.empty and montreal.empty:
        return f"{words['no_refrigerant']} {_what_is_there(trail, ask, lang, 'gas')}"
    lines = []
    if len(chosen):
        figures = [float(t) for t in chosen["tco2e"]]
        whole = trail.query("scope")
        total = trail.calc(" + ".join(_raw(t) for t in figures)) if len(figures) > 1 else figures[0]
        share = trail.calc(f"round({_raw(total)} / {_raw(whole.total)} * 100, 1)")
        listed = "; ".join(
            f"{row.gas}: {number(row.tco2e, lang=lang)} t CO2e"
            for row in chosen.itertuples(index=False)
        )
        lines.append(
            words["refrigerants"].format(
                total=number(total, lang=lang),
                share=number(share, lang=lang),
                whole=number(whole.total, lang=lang),
                gwp=trail.inventory.gwp_set,
                listed=listed,
            )
        )
    if len(montreal):
        listed = "; ".join(
            f"{row.gas}: {number(row.memo_tco2e, lang=lang)} t CO2e"
            for row in montreal.itertuples(index=False)
        )
        lines.append(words["montreal"].format(listed=listed))
    return "\n".join(lines)


def _subject(ask: W.Ask, lang: Language) -> str:
    words = W.TEXT[lang]
    parts = []
    if "scope" in ask.filters:
        parts.append(f"{words['scope']} {ask.filters['scope']}")
    if "category" in ask.filters:
        name = ask.filters["category"]
        parts.append(F.category_en(name) if lang == "en" else name)
    for key in ("gas", "source", "fuel", "facility", "year"):
        if key in ask.filters:
            label = ask.labels.get(key, ask.filters[key])
            parts.append(f"{words['heading'][key]} {label}")
    return ", ".join(parts)


def _value(dimension: str | None, value: str, lang: Language) -> str:
    if value == NOT_GIVEN:
        return W.TEXT[lang]["not_given"]
    if dimension == "scope":
        return f"{W.TEXT[lang]['scope']} {value}"
    if dimension == "category" and lang == "en":
        return F.category_en(value)
    return value


def _scope2_methods(inventory: Inventory, lang: Language) -> str:
    words = W.TEXT[lang]
    location = number(inventory.scope2_location_tco2e or 0.0, lang=lang)
    market = inventory.scope2_market_tco2e
    tail = f"{words['market']}: {number(market, lang=lang)} t CO2e" if market else ""
    return f"{words['location']}: {location} t CO2e; {tail or words['no_market']}."


# --- what the inventory lacks -----------------------------------------------------------------


def _what_is_there(
    trail: _Trail, ask: W.Ask, lang: Language, dimension: Field | None = None
) -> str:
    """The values the inventory does hold in the field the question asked about."""
    words = W.TEXT[lang]
    dimension = dimension or ask.missing_field or next(iter(ask.filters), None) or "category"
    if dimension == "scope":
        dimension = "category"
    result = trail.query(dimension, 10)
    values = [_value(dimension, v, lang) for v, _ in result.groups or []]
    if not values:
        return ""
    return words["there"].format(heading=words["heading_plural"][dimension], values="; ".join(
        f"{value} ({number(t, lang=lang)} t CO2e)"
        for value, (_, t) in zip(values, result.groups or [], strict=True)
    ))  # fmt: skip


def _missing_topic(trail: _Trail, ask: W.Ask, lang: Language) -> str:
    words = W.TEXT[lang]
    said = words["no_topic"].format(topic=ask.missing_topic)
    gas = ask.filters.get("gas")
    if gas:  # what the inventory holds of that gas, source by source
        result = trail.query("source", 10, gas=gas)
        listed = "; ".join(f"{v}: {number(t, lang=lang)} t CO2e" for v, t in result.groups or [])
        there = words["gas_there"].format(gas=gas, total=number(result.total, lang=lang))
        return f"{said} {there}: {listed}." if listed else said
    return f"{said} {_what_is_there(trail, ask, lang, 'source')}"


def _year_lacking(trail: _Trail, ask: W.Ask, lang: Language) -> str:
    words = W.TEXT[lang]
    years = ", ".join(trail.inventory.years) or "—"
    return words["no_year"].format(asked=", ".join(ask.year_lacking), years=years)


def _missing_year(trail: _Trail, ask: W.Ask, lang: Language) -> str:
    words = W.TEXT[lang]
    lines = [_year_lacking(trail, ask, lang)]
    result = trail.query("year")
    listed = "; ".join(f"{y}: {number(t, lang=lang)} t CO2e" for y, t in result.groups or [])
    if listed:
        lines.append(f"{words['by']} {words['heading']['year']}: {listed}.")
    return "\n".join(lines)


def _missing_scope3(trail: _Trail, ask: W.Ask, lang: Language) -> str:
    words = W.TEXT[lang]
    result = trail.query("category", 15, scope="3")
    asked = ask.scope3_asked
    listed = "; ".join(
        f"{_value('category', c, lang)}: {number(t, lang=lang)} t CO2e"
        for c, t in result.groups or []
    )
    if not listed:
        return words["no_scope3_at_all"].format(asked=asked)
    return words["no_scope3"].format(asked=asked, listed=listed)


def _missing_costs(trail: _Trail, ask: W.Ask, lang: Language) -> str:
    words = W.TEXT[lang]
    result = trail.query("scope")
    listed = "; ".join(
        f"{_value('scope', s, lang)}: {number(t, lang=lang)} t CO2e" for s, t in result.groups or []
    )
    return words["no_costs"].format(
        total=number(result.total, lang=lang), gwp=trail.inventory.gwp_set, listed=listed
    )


# --- derived figures --------------------------------------------------------------------------


def _without_scope3(trail: _Trail, ask: W.Ask, lang: Language) -> str:
    words = W.TEXT[lang]
    filters = {k: v for k, v in ask.filters.items() if k != "scope"}
    result = trail.query("scope", **filters)
    by_scope = dict(result.groups or [])
    kept = [by_scope[s] for s in ("1", "2") if s in by_scope]
    scope3 = by_scope.get("3", 0.0)
    if not kept:
        return f"{words['none']} {_what_is_there(trail, ask, lang, 'scope')}"
    without = trail.calc(" + ".join(_raw(t) for t in kept)) if len(kept) > 1 else kept[0]
    share = trail.calc(f"round({_raw(without)} / {_raw(result.total)} * 100, 1)")
    parts = "; ".join(
        f"{_value('scope', s, lang)}: {number(by_scope[s], lang=lang)} t CO2e"
        for s in ("1", "2")
        if s in by_scope
    )
    return words["without_scope3"].format(
        without=number(without, lang=lang),
        share=number(share, lang=lang),
        total=number(result.total, lang=lang),
        scope3=number(scope3, lang=lang),
        parts=parts,
        gwp=trail.inventory.gwp_set,
    )


def _gwp_sets(trail: _Trail, ask: W.Ask, lang: Language) -> str:
    words = W.TEXT[lang]
    from engine.inventory import facts as inventory_facts

    trail.view("gwp_sets", **ask.filters)
    table, _ = select(trail.inventory, ask.filters)
    totals = {
        t.gwp_set: t for t in inventory_facts.set_totals(trail.inventory, table, every_set=True)
    }
    if not any(t.recomputed_rows for t in totals.values()):
        return words["no_masses"]
    own = trail.inventory.gwp_set
    lines = [
        "; ".join(
            f"{name}{words['own'] if name == own else ''}: "
            f"{number(t.total_tco2e, lang=lang)} t CO2e"
            for name, t in totals.items()
        )
        + "."
    ]
    asked = [s for s in ask.gwp_sets if s in totals] or [s for s in ("AR6", "AR5") if s in totals]
    if len(asked) >= 2:
        first, second = totals[asked[0]].total_tco2e, totals[asked[1]].total_tco2e
        gap = trail.calc(f"{_raw(first)} - {_raw(second)}")
        change = trail.calc(f"round(({_raw(first)} - {_raw(second)}) / {_raw(second)} * 100, 1)")
        lines.append(
            words["gwp_gap"].format(
                a=asked[0], b=asked[1], gap=number(gap, lang=lang),
                change=number(change, lang=lang),
            )
        )  # fmt: skip
    lines.append(words["gwp_note"])
    return "\n".join(lines)


# --- SBCE per installation --------------------------------------------------------------------


def _sbce(trail: _Trail, ask: W.Ask, lang: Language) -> str:
    """The law's thresholds applied to each installation's Scope 1, as the facility_scope
    view returns it; the company's sum decides nothing."""
    words = W.TEXT[lang]
    trail.view("facility_scope")
    frame = analytics.facility_scope(trail.inventory.current)
    if frame.empty:
        return words["sbce_none"]
    low, high = number(REPORTING_T, 0, lang), number(ALLOWANCES_T, 0, lang)
    lines = [words["sbce_rule"].format(low=low, high=high)]
    for row in frame.itertuples(index=False):
        scope1 = float(row[1]) if row[1] == row[1] else 0.0  # NaN: no Scope 1 rows
        name = words["not_given"] if row[0] == analytics.UNKNOWN else row[0]
        if scope1 > ALLOWANCES_T:
            band = words["sbce_allowances"]
        elif scope1 > REPORTING_T:
            band = words["sbce_reporting"]
        else:
            band = words["sbce_below"]
        lines.append(f"- {name}: {number(scope1, lang=lang)} t CO2e {words['scope1']} — {band}")
    lines.append(words["sbce_caveat"])
    lines.append(f"{words['source']}: {SOURCE}")
    return "\n".join(lines)


# --- data quality and reconciliation ----------------------------------------------------------


def _quality(trail: _Trail, ask: W.Ask, lang: Language) -> str:
    words = W.TEXT[lang]
    trail.view("findings")
    findings = trail.inventory.findings
    lines = [_status_line(trail, lang)]
    if not findings:
        lines.append(words["no_findings"])
    else:
        lines.append(words["findings"].format(n=len(findings)))
        lines += [
            f"- [{f.sheet or words['general']}] "
            f"{' '.join((f.message_en if lang == 'en' else f.message_pt).split())}"
            for f in findings[:8]
        ]
        if len(findings) > 8:
            lines.append(words["more"].format(n=len(findings) - 8))
    return "\n".join(lines)


def _sheets(trail: _Trail, ask: W.Ask, lang: Language) -> str:
    words = W.TEXT[lang]
    trail.view("sheets")
    checks = trail.inventory.reconciliation
    lines = [_status_line(trail, lang)]
    if not checks:
        lines.append(words["no_sheets"])
    for check in checks:
        status = words["status"][check.status]
        message = check.message_en if lang == "en" else check.message_pt
        detail = f" {' '.join(message.split())}" if message else ""
        rows = f" ({words['data_rows'].format(n=check.rows)})" if check.rows else ""
        lines.append(f"- {check.sheet}: {status}{rows}.{detail}")
    findings = trail.inventory.findings
    if findings:
        trail.view("findings")
        lines.append(words["findings"].format(n=len(findings)))
    return "\n".join(lines)


def _status_line(trail: _Trail, lang: Language) -> str:
    words = W.TEXT[lang]
    inventory = trail.inventory
    return words["overall"].format(status=words["status"].get(inventory.status, inventory.status))


# --- levers -----------------------------------------------------------------------------------


def _levers(trail: _Trail, ask: W.Ask, lang: Language) -> str:
    """The largest rows, where a reduction weighs most; the green-gases analyst follows with
    the reductions the engine computes for them (``estimar_reducoes``)."""
    words = W.TEXT[lang]
    whole = trail.query("scope")
    result = trail.query("source", 5, **ask.filters)
    if result.rows.empty or not whole.total:
        return f"{words['none']} {_what_is_there(trail, ask, lang)}"
    groups = result.groups or []
    together = sum(t for _, t in groups)
    summed = trail.calc(" + ".join(_raw(t) for _, t in groups)) if len(groups) > 1 else together
    share = trail.calc(f"round({_raw(summed)} / {_raw(whole.total)} * 100, 1)")
    listed = "; ".join(f"{s}: {number(t, lang=lang)} t CO2e" for s, t in groups)
    text = words["levers"].format(
        n=len(groups), listed=listed, summed=number(summed, lang=lang),
        share=number(share, lang=lang), total=number(whole.total, lang=lang),
    )  # fmt: skip
    if ask.costs:
        text += "\n" + words["levers_costs"]
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
}


def is_sbce_on_inventory(question: str) -> bool:
    """An SBCE question that states no tonnage of its own: the rule goes to the inventory's
    installations."""
    return W.mentions_sbce(question) and sbce_amount(question) is None
