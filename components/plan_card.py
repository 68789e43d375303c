"""The improvement plan as a card. Without computed actions: its three sections, sanitized.
With them: tabs, each piece shown once (Summary · Actions · MACC · Target · SBCE · What if):
the three sections, less the computed blocks a plan quotes word for word (its action table,
target path, SBCE text), with the actions' summary; the action table, its measure column
pinned and each action's rows summed up as the first one and "+N rows" (every row in an
expander below); the MACC; the target path; the SBCE readiness; the what-if the page hands
in. Then its exports, built when their button is clicked.

Every text from the plan or its actions is untrusted (model and spreadsheet text): Markdown
goes through ``sanitize``; table cells are data in ``st.dataframe``, never HTML.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from functools import partial

import altair as alt
import pandas as pd
import streamlit as st

from application.exports import plan_docx, plan_markdown, plan_pdf
from application.exports.actions import action_table_rows
from application.exports.labels import marked_text, unverified_note
from application.history import PlanEntry, PlanTotals, compare_plans
from application.plan_charts import macc_chart, macc_data, macc_unknown, measure_name, path_chart
from application.safe_text import csv_safe, csv_safe_frame, sanitize
from components.i18n import language, number, t
from components.sbce import reading_notice, sbce_readiness
from engine import AekoImprovementPlan
from engine.actions.model import Action, PlanActions
from engine.inventory.notice import Reading
from engine.protocol import PLAN_HEADINGS, plan_title

_DOLLAR = re.compile(r"(?<!\\)\$")
_BLANK_LINE = re.compile(r"\n[ \t]*\n")

# The card's tabs, in order (their labels are these keys in components.i18n).
TABS = (
    "pc_tab_summary",
    "pc_tab_actions",
    "pc_tab_macc",
    "pc_tab_target",
    "pc_tab_sbce",
    "pc_tab_whatif",
)
# The action table's columns, by position (engine.actions.render.actions_table writes them).
_MEASURE, _ROWS = 0, 1
_FIGURES = range(3, 8)  # baseline, reduction, capex, Δ opex, R$/t: right-aligned
_WIDTHS = (200, 240, 70, 100, 130, 100, 110, 90, 120, 200, 300)


def safe_markdown(text: str) -> str:
    """Untrusted text for ``st.markdown``: sanitized, and its "$" literal. Streamlit reads
    "$…$" as LaTeX, so "R$ 1.000 … R$ 200" would otherwise print as a formula."""
    return _DOLLAR.sub(r"\\$", sanitize(text))


def plan_card(
    plan: AekoImprovementPlan,
    actions: PlanActions | None = None,
    *,
    key: str = "",
    reading: Reading | None = None,
    what_if: Callable[[], None] | None = None,
) -> None:
    """The plan's three sections and, when given, its computed ``actions``, in tabs.
    ``key`` tells two cards on one page apart (their tabs, charts and tables are widgets).
    ``reading`` (how the inventory stood when it was analysed): one that is not reconciled
    is said first, above the tabs. ``what_if`` draws the What if tab (the page's, since it
    needs the inventory and the store)."""
    lang = "en" if language() == "en" else "pt"
    with st.container(border=True):
        reading_notice(reading)
        note = unverified_note(plan, lang)
        if note:
            st.warning(safe_markdown(note), icon=":material/help:")
        if actions is None:
            plan_sections(plan)
            return
        key = key or str(plan.id or "plan")
        summary, table, curve, target, sbce, explore = st.tabs(
            [t(name) for name in TABS], key=f"plan-tabs-{key}"
        )
        with summary:
            plan_sections(plan, computed_blocks(actions))
            actions_summary(actions)
        with table:
            st.markdown(f"#### {t('pc_actions')}")
            actions_table(actions, key=key)
        with curve:
            st.markdown(f"#### {t('pc_macc')}")
            macc(actions, key=key)
        with target:
            st.markdown(f"#### {t('pc_path')}")
            target_view(actions, key=key)
        with sbce:
            st.markdown(f"#### {t('sbce_title')}")
            sbce_readiness(actions.installations)  # the reading is said above the tabs
        with explore:
            if what_if is None or not actions.actions:
                st.caption(t("pc_whatif_none"))
            else:
                what_if()


def plan_sections(plan: AekoImprovementPlan, computed: dict[str, str] | None = None) -> None:
    """The three sections under their headings. A block (a paragraph, a list, a table) that
    is one of the ``computed`` ones (see ``computed_blocks``) is left out, and the section
    says in which tab it is: the plan quotes them, and the tabs show them already."""
    lang = "en" if language() == "en" else "pt"
    for field in PLAN_HEADINGS:
        st.markdown(f"#### {plan_title(field, language())}")
        kept, moved = _without_computed(getattr(plan, field), computed or {})
        if kept:
            st.markdown(safe_markdown(marked_text(plan, kept, lang)))
        if moved:
            tabs = " · ".join(t(tab) for tab in TABS if tab in moved)
            st.caption(t("pc_moved", tabs=tabs))


def computed_blocks(actions: PlanActions) -> dict[str, str]:
    """Each block of the texts the tabs show (in both languages: a plan may be in either),
    whitespace collapsed, with the tab that shows it; a table also by its header line,
    since a plan may quote a computed table with a cell changed."""
    from engine.actions.render import actions_table, path_text, sbce_text, summary_text

    blocks: dict[str, str] = {}
    for lang in ("pt", "en"):
        for text, tab in (
            (summary_text(actions, lang), "pc_tab_summary"),
            (actions_table(actions, lang), "pc_tab_actions"),
            (path_text(actions, lang), "pc_tab_target"),
            (sbce_text(actions.installations, lang), "pc_tab_sbce"),
        ):
            for block in _blocks(text):
                blocks.setdefault(_flat(block), tab)
                if _is_table(block):
                    blocks.setdefault(_table_key(block), tab)
    return blocks


def _without_computed(text: str, computed: dict[str, str]) -> tuple[str, set[str]]:
    """``text`` less its computed blocks, and the tabs those are in (the summary's own tab,
    where the summary follows the sections, is not named)."""
    kept, moved = [], set()
    for block in _blocks(text or ""):
        tab = computed.get(_flat(block))
        if tab is None and _is_table(block):
            tab = computed.get(_table_key(block))
        if tab is None:
            kept.append(block)
        elif tab != "pc_tab_summary":
            moved.add(tab)
    return "\n\n".join(kept), moved


def _blocks(text: str) -> list[str]:
    return [block.strip() for block in _BLANK_LINE.split(text) if block.strip()]


def _flat(block: str) -> str:
    return " ".join(block.split())


def _is_table(block: str) -> bool:
    lines = block.splitlines()
    return len(lines) >= 2 and lines[0].lstrip().startswith("|") and "---" in lines[1]


def _table_key(block: str) -> str:
    return "table: " + _flat(block.splitlines()[0])


def actions_summary(actions: PlanActions) -> None:
    from engine.actions.render import summary_text

    st.markdown(safe_markdown(summary_text(actions, language())))


def actions_table(actions: PlanActions, *, key: str) -> None:
    """The action table the exports print, as a data frame (its cells are text: numbers
    already written as the interface language writes them), with its measure column pinned
    and each action's rows as the first one and "+N rows"; every row in an expander below."""
    from engine.actions.render import actions_table as table_text

    lang = language()
    header, rows = action_table_rows(actions, lang)
    if not rows:
        return
    columns = _unique(header)
    entries = [row_entries(action) for action in actions.actions]
    for row, shown in zip(rows, entries, strict=True):
        row[_ROWS] = rows_cell(shown)
    every = t("pc_rows_all", n=sum(len(shown) for shown in entries))
    # Keyed by the names shown (a position would count the hidden index first).
    names = [csv_safe(name) for name in columns]
    config = {
        name: st.column_config.Column(
            width=width, alignment="right" if position in _FIGURES else None
        )
        for position, (name, width) in enumerate(zip(names, _WIDTHS, strict=False))
    }
    config[names[_MEASURE]] = st.column_config.Column(width=_WIDTHS[_MEASURE], pinned=True)
    config[names[_ROWS]] = st.column_config.Column(
        width=_WIDTHS[_ROWS], help=t("pc_rows_help", all=every)
    )
    st.dataframe(
        csv_safe_frame(pd.DataFrame(rows, columns=columns)),
        hide_index=True,
        width="stretch",
        column_config=config,
        key=f"actions-{key}",
    )
    note = _blocks(table_text(actions, lang))[-1]  # what a negative Δ opex and R$/t mean
    st.caption(f"{safe_markdown(note)} {t('pc_scroll')}")
    with st.expander(every, icon=":material/table_rows:"):
        listed = [
            {t("pc_rows_measure"): name, t("pc_rows_row"): entry}
            for name, shown in zip((row[_MEASURE] for row in rows), entries, strict=True)
            for entry in shown
        ]
        st.dataframe(
            csv_safe_frame(pd.DataFrame(listed)),
            hide_index=True,
            width="stretch",
            key=f"action-rows-{key}",
        )


def row_entries(action: Action) -> list[str]:
    """The action's inventory rows as the table lists them: one entry per source and
    facility ("source · facility · gases"), the gases of its rows together."""
    grouped: dict[tuple[str, str], list[str]] = {}
    for ref in action.rows:
        source = ref.source or f"{ref.sheet}, {t('pc_row', row=ref.row)}"
        gases = grouped.setdefault((source, ref.facility), [])
        if ref.gas and ref.gas not in gases:
            gases.append(ref.gas)
    return [
        " · ".join(part for part in (source, facility, ", ".join(gases)) if part)
        for (source, facility), gases in grouped.items()
    ]


def rows_cell(entries: Sequence[str]) -> str:
    """The first entry, and how many more: "Caldeira · Fábrica · CO2 +5 linhas"."""
    if not entries:
        return ""
    more = len(entries) - 1
    if more == 0:
        return entries[0]
    words = t("pc_rows_one_more") if more == 1 else t("pc_rows_more", n=more)
    return f"{entries[0]} {words}"


def macc(actions: PlanActions, *, key: str) -> None:
    lang = language()
    if macc_data(actions):
        chart = macc_chart(actions, lang)
        # The tab's heading names the curve: its title inside the chart (which the exports
        # keep) would say it a second time; its subtitle (unknown costs, clipped bars) stays.
        title = chart.title
        chart = chart.properties(title=alt.TitleParams("", subtitle=title.subtitle))
        st.altair_chart(chart, width="stretch", key=f"macc-{key}")
    else:
        st.caption(t("pc_macc_none"))
    unknown = [measure_name(a, lang) for a in macc_unknown(actions)]
    if unknown:
        st.caption(safe_markdown(t("pc_unknown", names="; ".join(unknown))))


def target_view(actions: PlanActions, *, key: str) -> None:
    """The path chart (when one was computed) and the target's text with its table; "no
    target set" when there is none."""
    from engine.actions.render import path_text

    lang = language()
    if actions.target is not None and actions.path:
        st.altair_chart(path_chart(actions, lang), width="stretch", key=f"path-{key}")
    st.markdown(safe_markdown(path_text(actions, lang)))


def totals_line(totals: PlanTotals | None) -> str:
    """One short Markdown line for a list of plans: the reduction low–high, the weighted
    R$/t CO2e of the actions with a known cost, how many have none."""
    if totals is None:
        return t("pc_no_actions_short")
    parts = [f"{reduction_range(totals)} {t('pc_per_year')}"]
    if totals.cost_per_t_brl is not None:
        parts.append(f"R\\$ {number(totals.cost_per_t_brl, 0)}/t CO2e")
    if totals.unknown_cost:
        parts.append(t("pc_unknown_short", n=totals.unknown_cost))
    return " · ".join(parts)


def reduction_range(totals: PlanTotals) -> str:
    low, high = number(totals.low_tco2e), number(totals.high_tco2e)
    return low if low == high else f"{low}–{high}"


def totals_view(totals: PlanTotals | None, *, delta: dict[str, str] | None = None) -> None:
    """The totals as metrics; ``delta`` (from a comparison) under the reduction and cost."""
    if totals is None:
        st.caption(t("pc_no_actions"))
        return
    delta = delta or {}
    reduction, cost = st.columns(2)
    reduction.metric(t("pc_reduction"), reduction_range(totals), delta.get("reduction"))
    shown = (
        t("pc_cost_unknown")
        if totals.cost_per_t_brl is None
        else f"R$ {number(totals.cost_per_t_brl, 0)}"
    )
    cost.metric(
        t("pc_cost"),
        shown,
        delta.get("cost"),
        delta_color="inverse",  # a lower cost per tonne is the good direction
        help=t("pc_cost_help"),
    )
    notes = []
    if totals.market_high_tco2e > 0:
        low, high = number(totals.market_low_tco2e), number(totals.market_high_tco2e)
        notes.append(t("pc_market", range=low if low == high else f"{low}–{high}"))
    if totals.unknown_cost:
        notes.append(
            t(
                "pc_unknown_count",
                known=totals.known_cost,
                total=totals.actions,
                n=totals.unknown_cost,
            )
        )
    elif totals.actions:
        notes.append(t("pc_all_known", total=totals.actions))
    if totals.meets_target is not None:
        notes.append(t("pc_target_met" if totals.meets_target else "target_short"))
    if notes:
        st.caption(" · ".join(notes))


def compare_view(entries: list[PlanEntry], labels: dict[str, str]) -> None:
    """Two plans side by side: each one's totals, summary and action table, then B − A.
    ``labels`` names each entry's plan by its id."""
    ids = [str(entry.plan.id) for entry in entries]
    by_id = dict(zip(ids, entries, strict=True))
    left, right = st.columns(2)
    first = left.selectbox(
        t("pc_compare_first"), ids, index=0, format_func=labels.get, key="compare-a"
    )
    second = right.selectbox(
        t("pc_compare_second"), ids, index=min(1, len(ids) - 1), format_func=labels.get,
        key="compare-b",
    )  # fmt: skip
    if first is None or second is None or first == second:
        st.info(t("pc_compare_same"))
        return
    a, b = by_id[first], by_id[second]
    comparison = compare_plans(a, b)
    delta: dict[str, str] = {}
    if comparison is not None:
        delta["reduction"] = _signed(comparison.mid_tco2e)
        if comparison.cost_per_t_brl is not None:
            delta["cost"] = _signed(comparison.cost_per_t_brl, 0)
    for column, entry, side, extra in ((left, a, "a", None), (right, b, "b", delta)):
        with column:
            totals_view(entry.totals, delta=extra)
            if entry.actions is not None:
                actions_summary(entry.actions)
                actions_table(entry.actions, key=f"compare-{side}")
    if comparison is None:
        st.caption(t("pc_compare_missing"))
        return
    line = t(
        "pc_compare_difference",
        low=_signed(comparison.low_tco2e),
        high=_signed(comparison.high_tco2e),
        mid=_signed(comparison.mid_tco2e),
    )
    if comparison.cost_per_t_brl is not None:
        line += t("pc_compare_cost", cost=_signed(comparison.cost_per_t_brl, 0))
    st.markdown(_DOLLAR.sub(r"\\$", line))


def _signed(value: float, decimals: int = 1) -> str:
    shown = number(value, decimals)
    return shown if shown.startswith("-") or shown == number(0.0, decimals) else f"+{shown}"


def _unique(names: list[str]) -> list[str]:
    """Column names a data frame accepts: a repeated name gets a suffix."""
    seen: dict[str, int] = {}
    unique = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        unique.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
    return unique


# --------------------------------------------------------------------------------------------
# Exports
# --------------------------------------------------------------------------------------------

_BUILDERS = {"md": plan_markdown, "docx": plan_docx, "pdf": plan_pdf}
_DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


@st.cache_data(show_spinner=False, max_entries=512)
def _export(
    kind: str,
    plan_json: str,
    title: str,
    subtitle: str,
    lang: str,
    *,
    actions_json: str = "",
    reading_json: str = "",
) -> str | bytes:
    # Built once per plan, actions, reading, format and language: a PDF with its embedded
    # font and two charts drawn as PNG takes about a second. The JSON strings are the key.
    plan = AekoImprovementPlan.model_validate_json(plan_json)
    actions = PlanActions.model_validate_json(actions_json) if actions_json else None
    reading = Reading.from_summary(json.loads(reading_json)) if reading_json else None
    return _BUILDERS[kind](
        plan, title=title, subtitle=subtitle, lang=lang, actions=actions, reading=reading
    )


def plan_downloads(
    plan: AekoImprovementPlan,
    *,
    title: str,
    subtitle: str = "",
    key: str,
    actions: PlanActions | None = None,
    on_demand: bool = False,
    reading: Reading | None = None,
) -> None:
    """The plan (with its ``actions``, when given) as Markdown, DOCX and PDF, side by side;
    each opens with the notice of an inventory that was not reconciled (``reading``).

    Each button is handed a function: the file is built when it is clicked (Streamlit's
    deferred download, checked in Chromium by tests/test_browser.py), once per plan, actions,
    format and language thanks to the cache. ``on_demand`` (a page listing many plans) still
    asks with one click before drawing the buttons, so a rerun of the list does not even
    serialise every plan and its actions for the cache key."""
    ready_key = f"downloads-ready-{key}"
    if on_demand and not st.session_state.get(ready_key):
        if st.button(t("export_prepare"), key=f"prepare-{key}", icon=":material/download:"):
            st.session_state[ready_key] = True
            st.rerun()
        return
    lang = language()
    plan_json = plan.model_dump_json(by_alias=True)
    actions_json = actions.model_dump_json() if actions is not None else ""
    reading_json = json.dumps(reading.to_summary()) if reading is not None else ""
    stem = f"plano-{plan.id_external_inventory}"

    def build(kind: str) -> str | bytes:
        return _export(
            kind, plan_json, title, subtitle, lang, actions_json=actions_json,
            reading_json=reading_json,
        )  # fmt: skip

    md_col, docx_col, pdf_col = st.columns(3)
    md_col.download_button(
        t("export_md"),
        partial(build, "md"),
        file_name=f"{stem}.md",
        mime="text/markdown",
        key=f"md-{key}",
    )
    docx_col.download_button(
        t("export_docx"),
        partial(build, "docx"),
        file_name=f"{stem}.docx",
        mime=_DOCX,
        key=f"docx-{key}",
    )
    pdf_col.download_button(
        t("export_pdf"),
        partial(build, "pdf"),
        file_name=f"{stem}.pdf",
        mime="application/pdf",
        key=f"pdf-{key}",
    )
