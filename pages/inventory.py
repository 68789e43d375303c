"""Inventory: upload → sheets → mapping → table and charts → analysis → the plan, saved."""

import hashlib
import json
from contextlib import suppress

import altair as alt
import pandas as pd
import streamlit as st

from application import inventories, runs
from application.inventories import PlanEnded
from application.runs import Run
from application.safe_text import csv_safe, csv_safe_frame, sanitize
from application.workspace import DailyCapReachedError
from assets import SAMPLE_COSTS_PATH, SAMPLE_NAME, SAMPLE_PATH
from components import charts, reconciliation
from components.budget import explain_budget_error, explain_model_error
from components.compare_inventories import compare_with_saved
from components.context import current, require_workspace
from components.factors import activity_name, inventory_factors
from components.follow import TabGone, heartbeat, tab_connected
from components.gwp_default import default_gwp_set
from components.i18n import TEXTS, field_name, language, number, t
from components.inventory_state import CH4_WIDGET, FACTORS_REMOVE, GWP_WIDGET, InventoryPageState
from components.plan_card import plan_card, plan_downloads
from components.plan_inputs import SAMPLE_COSTS_NOTE, plan_inputs_section
from components.sbce import sbce_readiness
from components.trail import cost_text, run_with_trail
from components.what_if import what_if
from engine.actions.model import Installation
from engine.actions.sbce import readiness
from engine.emissions import EmissionsError, read_factor_csv
from engine.errors import AekoModelError, LocalizedError
from engine.gases.gwp import CH4_ORIGINS, DEFAULT_CH4_ORIGIN, gwp
from engine.inventory import FIELDS, GWP_SETS, Inventory, InventoryError
from engine.inventory.notice import Reading
from store import StoreError

EXTENSIONS = ["xlsx", "xlsm", "xls", "ods", "csv", "txt"]
# What a user may choose for a sheet read in a unit of their choosing, once the loader no
# longer offers its own choices (the sheet is proven by that choice).
UNIT_CHOICES = ("t", "kg", "Gg", "Mt")

context = current()
state = InventoryPageState.of_session()
st.title(t("inv_title"))
st.caption(t("inv_caption"))


# What the page derives from a loaded inventory, kept per reading (``reading_key``): the
# inventory itself comes back from ``_load``'s cache on every rerun, and rebuilding these
# from 100,000 rows took longer than the reading did.
@st.cache_resource(show_spinner=False, max_entries=8)
def _shown_table(reading: str, lang: str, _inventory: Inventory) -> pd.DataFrame:
    """The canonical table as a person reads it (never changed after: shared by reruns): the
    scopes named, the loader's codes ("inventory", "computed", "natural_gas_stationary") in
    words, its columns under their names in the interface language, and no column that is
    empty on every row. The Markdown download keeps the loader's own names."""
    table = _inventory.table.copy()
    if "scope" in table:
        labels = {s: charts.scope_label(s, lang) for s in table["scope"].dropna().unique()}
        table["scope"] = table["scope"].map(lambda scope: labels.get(scope, scope))
    for column in ("reporting", "basis", "scope2_method"):
        if column in table:
            table[column] = table[column].map(
                lambda code: t(f"canon_value_{code}") if f"canon_value_{code}" in TEXTS else code
            )
    if "activity" in table:
        names = {a: activity_name(a, lang) for a in table["activity"].dropna().unique()}
        table["activity"] = table["activity"].map(lambda code: names.get(code, code))
    table = table.loc[:, table.notna().any()]
    names: dict[str, str] = {}
    for column in table.columns:
        name = t(f"canon_{column}") if f"canon_{column}" in TEXTS else field_name(column)
        # a workbook's own column may already bear the name ("Fonte"): keep both apart
        names[column] = name if name not in names.values() and name not in table else column
    return table.rename(columns=names)


@st.cache_resource(show_spinner=False, max_entries=8)
def _charts(reading: str, lang: str, _inventory: Inventory) -> dict[str, alt.TopLevelMixin]:
    """The inventory's charts, built once per reading and language (never changed after:
    Streamlit's conversion copies them). Building them (the Pareto's table, Altair's
    validation of each layer) was half of every rerun of the page, the analysis's too."""
    built = {
        "scope": charts.by_field(_inventory, "scope", t("chart_scope"), lang=lang),
        "gas": charts.by_field(_inventory, "gas", t("chart_gas"), lang=lang),
        "category": charts.by_field(_inventory, "category", t("chart_category"), lang=lang),
        "pareto": charts.pareto(_inventory, t("chart_pareto"), lang=lang),
    }
    if len(_inventory.years) > 1:
        built["evolution"] = charts.evolution(_inventory, t("chart_evolution"), lang=lang)
    return built


@st.cache_resource(show_spinner=False, max_entries=8)
def _readiness(reading: str, _inventory: Inventory) -> list[Installation]:
    return readiness(_inventory)


# Rows of the canonical table sent with the page; the rest when asked for. 100,000 rows made
# the browser decode and lay out a grid of megabytes before it painted the total above it.
_TABLE_HEAD = 1_000


@st.fragment
def _table_panel(reading: str, lang: str, inventory: Inventory, name: str) -> None:
    """The canonical table, its Markdown preview and download. A fragment: asking for the
    whole table reruns this panel alone, not the page's reading and charts."""
    table = _shown_table(reading, lang, inventory)
    if len(table) > _TABLE_HEAD:
        whole = st.toggle(
            t("inv_table_all", n=number(len(table), 0)), key=state.table_all_widget(reading)
        )
        if not whole:
            shown, total = number(_TABLE_HEAD, 0), number(len(table), 0)
            st.caption(t("inv_table_head", shown=shown, n=total))
            table = table.head(_TABLE_HEAD)
    st.dataframe(csv_safe_frame(table), hide_index=True)
    # On request: a code block of 40 wide lines was a fifth of Chromium's work to paint the
    # sample (highlighted or not, and inside a closed expander too; bench/pages.py).
    if st.toggle(t("inv_markdown"), key=state.markdown_widget(reading)):
        st.code(_markdown_preview(reading, inventory), language="markdown")
    # The whole table as Markdown is written when the button is pressed, not on every rerun
    # (100,000 rows took seconds, for a preview of 40 lines).
    st.download_button(
        t("inv_download_md"), inventory.to_markdown, file_name=f"{name}.md", mime="text/markdown"
    )


_PREVIEW_LINES = 40  # of the Markdown table: its header, the rule and 38 rows


@st.cache_data(show_spinner=False, max_entries=8)
def _markdown_preview(reading: str, _inventory: Inventory) -> str:
    markdown = _inventory.to_markdown(max_rows=_PREVIEW_LINES - 2)
    return "\n".join(markdown.splitlines()[:_PREVIEW_LINES])


@st.cache_data(show_spinner=False, max_entries=8)
def _sheets(digest: str, name: str, _data: bytes) -> list[str]:
    # The digest keys the cache: a leading underscore keeps Streamlit from hashing the bytes.
    return inventories.sheets(name, _data)


@st.cache_data(show_spinner=False, max_entries=8)
def _table_sheets(digest: str, name: str, _data: bytes) -> list[str]:
    return inventories.table_sheets(name, _data)


@st.cache_data(show_spinner=False, max_entries=8)
def _load(
    digest: str,
    name: str,
    _data: bytes,
    *,
    sheets: tuple[str, ...],
    gwp_set: str,
    ch4_origin: str,
    overrides_json: str,
    factors_digest: str,
    _factors: tuple[str, bytes] | None,
    added_json: str,
    units_json: str = "{}",
) -> Inventory:
    return inventories.load(
        name,
        _data,
        sheets=list(sheets),
        gwp_set=gwp_set,
        ch4_origin=ch4_origin,
        overrides=json.loads(overrides_json),
        factors=_factors,
        added=json.loads(added_json),
        units=json.loads(units_json),
    )


def _own_factors_section() -> tuple[str, bytes] | None:
    """The user's factor CSV for this inventory: uploaded, checked, shown; or None."""
    own = state.own_factors()
    with st.expander(t("inv_own_factors"), icon=":material/upload_file:", expanded=bool(own)):
        st.caption(t("inv_own_factors_help"))
        uploaded = st.file_uploader(
            t("inv_own_factors"),
            type=["csv"],
            key=state.factors_widget,
            label_visibility="collapsed",
        )
        if uploaded is not None:
            own = (uploaded.name, uploaded.getvalue())
            state.keep_own_factors(own)
        if own is None:
            return None
        try:
            mine = read_factor_csv(own[1], source_name=own[0])
        except EmissionsError as error:
            state.drop_own_factors()
            st.error(error.message(language()), icon=":material/error:")
            return None
        st.caption(t("calc_own_factors", name=sanitize(own[0])))
        st.dataframe(csv_safe_frame(mine.to_frame().drop(columns=["user"])), hide_index=True)
        if st.button(t("delete"), key=FACTORS_REMOVE, icon=":material/delete:"):
            state.remove_own_factors()
            st.rerun()
    return own


def _ch4_option(origin: str) -> str:
    return t(f"ch4_{origin}", value=number(gwp("CH4", "AR6", origin), 1))


def _default(widget: str, value: object) -> dict[str, object]:
    return {} if state.has_value(widget) else {"default": value}


def _index(widget: str, index: int) -> dict[str, int]:
    return {} if state.has_value(widget) else {"index": index}


def _reopen(run: Run) -> None:
    """Open the inventory ``run`` analyses, with the settings it was read with: the file
    itself from the run while it runs, from the database once it saved it."""
    if "data" in run.reopen:
        state.reopen(run.reopen)
    elif "inventory_id" in run.reopen and context.store is not None:
        with suppress(StoreError):  # the database away: the page opens as it is
            data = inventories.original(require_workspace(context), run.reopen["inventory_id"])
            state.reopen({**run.reopen, "data": data})
    # else cut by an app that stopped, or held by another process: only its name is known


upload_col, sample_col = st.columns([3, 1], vertical_alignment="bottom")
with upload_col:
    uploaded = st.file_uploader(t("inv_upload"), type=EXTENSIONS)
with sample_col:
    if st.button(t("inv_sample"), icon=":material/science:", width="stretch"):
        state.open_sample(
            (SAMPLE_NAME, SAMPLE_PATH.read_bytes()),
            (SAMPLE_COSTS_PATH.name, SAMPLE_COSTS_PATH.read_bytes()),
            SAMPLE_COSTS_NOTE,
        )
if uploaded is not None:
    state.open_upload(uploaded.name, uploaded.getvalue())

# Analyses of this user still going, or ended while no page showed them (a reload, a closed
# tab): the page opens the inventory one of them read, and follows it below.
analyses: list[Run] = []
if context.store is not None and context.user is not None:
    analyses = runs.shown_to(require_workspace(context), "inventory")
    for run in [run for run in analyses if run.interrupted]:
        stamp = f"{run.started_at.astimezone():%d/%m/%Y %H:%M}"
        st.warning(
            t("inv_run_cut", name=sanitize(run.title), at=stamp), icon=":material/restart_alt:"
        )
        run.deliver()
    analyses = [run for run in analyses if not run.interrupted]
    if state.upload() is None and analyses:
        _reopen(analyses[-1])
if (opened := state.upload()) is None:
    st.stop()

name, data = opened
digest = hashlib.sha256(data).hexdigest()
lang = language()
try:
    all_sheets = _sheets(digest, name, data)
    # A reopened analysis set these keys already (``_reopen``): a default beside them would
    # be refused by Streamlit, so one is given only to a widget without a value.
    # First shown, the sheets holding a table are ticked: a cover or instructions sheet
    # ('Capa', 'Sobre') is left out without a word (it has nothing to correct).
    sheets_widget = state.sheets_widget(digest)
    picked = st.multiselect(
        t("inv_sheets"),
        all_sheets,
        key=sheets_widget,
        help=t("inv_sheets_help"),
        **({} if state.has_value(sheets_widget) else
           {"default": _table_sheets(digest, name, data) or all_sheets}),
    )  # fmt: skip
    gwp_col, ch4_col = st.columns(2)
    default_gwp = default_gwp_set(context)  # the user's (Settings) until picked here
    gwp_set = gwp_col.selectbox(
        t("inv_gwp"),
        GWP_SETS,
        key=GWP_WIDGET,
        help=t("inv_gwp_help", default=default_gwp, note=t("gwp_choice_note")),
        **_index(GWP_WIDGET, GWP_SETS.index(default_gwp)),
    )
    # Labels written now, in this run's language: a format_func that read the language when
    # called would be called outside the run too (streamlit.testing formats values so).
    ch4_labels = {origin: _ch4_option(origin) for origin in CH4_ORIGINS}
    ch4_origin = ch4_col.selectbox(
        t("inv_ch4"),
        CH4_ORIGINS,
        **_index(CH4_WIDGET, CH4_ORIGINS.index(DEFAULT_CH4_ORIGIN)),
        format_func=ch4_labels.__getitem__,
        help=t("inv_ch4_help"),
        disabled=gwp_set != "AR6",
        key=CH4_WIDGET,
    )
    own = _own_factors_section()
    added = state.added_rows()
    overrides = state.overrides_of(digest)
    units = state.units_of(digest)
    reading_args = {
        "sheets": tuple(picked),
        "gwp_set": gwp_set,
        "ch4_origin": ch4_origin,
        "overrides_json": json.dumps(overrides),
        "factors_digest": hashlib.sha256(own[1]).hexdigest() if own else "",
        "added_json": json.dumps(added, sort_keys=True),
        "units_json": json.dumps(units, sort_keys=True),
    }
    # Everything the reading depends on: what the page derives from it is kept under this.
    reading_key = hashlib.sha256(json.dumps([digest, reading_args]).encode()).hexdigest()
    with st.spinner(t("inv_reading")):
        inventory = _load(digest, name, data, _factors=own, **reading_args)
except (InventoryError, EmissionsError) as error:
    st.error(error.message(lang), icon=":material/error:")
    st.stop()

state.set_year(inventory.year)


# --- what was read: per sheet, status, unit and where it came from, rows, t CO2e ----------
st.subheader(t("inv_read"))
reconciliation.show_read(inventory, lang)
choosing = {check.sheet: check for check in inventory.ambiguous}
for check in inventory.reconciliation:  # a sheet read in the user's unit can be changed again
    if check.sheet in units and check.sheet not in choosing:
        choosing[check.sheet] = check
for sheet, check in choosing.items():
    options = list(dict.fromkeys([*(check.unit_choices or UNIT_CHOICES), units.get(sheet)]))
    options = [option for option in options if option]
    unit_widget = state.unit_widget(digest, sheet)
    st.segmented_control(
        t("inv_unit_choice", sheet=sanitize(sheet)),
        options,
        key=unit_widget,
        help=t("inv_unit_choice_help"),
        on_change=state.choose_unit,
        args=(digest, sheet),
        **_default(unit_widget, units.get(sheet)),
    )
if added:
    with st.expander(t("inv_added_rows", n=len(added)), icon=":material/calculate:"):
        st.dataframe(csv_safe_frame(pd.DataFrame(added)), hide_index=True)
        if st.button(t("inv_clear_added"), icon=":material/delete:"):
            state.clear_added()
            st.rerun()

# --- mapping, editable: a conflict opens it, its sheet first ------------------------------
conflicting = reconciliation.conflicting_sheets(inventory)
mapping_label = (
    t("inv_mapping_conflict", sheets=sanitize(", ".join(conflicting)))
    if conflicting
    else t("inv_mapping")
)
with st.expander(mapping_label, icon=":material/tune:", expanded=bool(conflicting)):
    reconciliation.show_conflicts_in_mapping(inventory, lang)
    st.caption(t("inv_mapping_help"))
    # The editor shows (and its CSV download writes) names that cannot run as formulas; the
    # edits are read back by position against the real names, which it never shows.
    named = [
        (sheet, column, field)
        for sheet in reconciliation.conflicts_first(inventory.mapping, inventory)
        for column, field in inventory.mapping[sheet].items()
    ]
    # The cells keep the canonical field ("" for none); the selectbox shows each as a person
    # reads it (``field_name``).
    rows = [
        {
            t("col_sheet"): csv_safe(sheet),
            t("col_column"): csv_safe(column),
            t("col_field"): field or "",
        }
        for sheet, column, field in named
    ]
    # Keyed by what it shows: after an override is read back (or the order changes) the
    # editor starts from the new mapping, never re-applying an edit to a moved row.
    shown = hashlib.sha256(json.dumps(rows, ensure_ascii=False).encode()).hexdigest()[:12]
    options = [
        "",
        *FIELDS,
        *sorted(
            {f for m in inventory.mapping.values() for f in m.values() if f and f not in FIELDS}
        ),
    ]
    edited = st.data_editor(
        pd.DataFrame(rows),
        disabled=[t("col_sheet"), t("col_column")],
        column_config={
            t("col_field"): st.column_config.SelectboxColumn(
                options=options, format_func=lambda field: field_name(field or None)
            )
        },
        hide_index=True,
        key=state.mapping_widget(digest, shown),
    )
    changed = {}
    for (sheet, column, _), row in zip(named, edited.to_dict("records"), strict=True):
        field = row[t("col_field")] or None
        if inventory.mapping.get(sheet, {}).get(column) != field:
            changed.setdefault(sheet, {})[column] = field
    if changed:
        for sheet, columns in changed.items():
            overrides.setdefault(sheet, {}).update(columns)
        st.rerun()

# --- the headline: total and its status, each scope (Scope 2 by both methods, never added),
# memo items apart ----------------------------------------------------------------------------
gwp_label = inventory.gwp_label(lang)
market = inventory.scope2_market_tco2e
market_text = "—" if market is None else f"{number(market)} t CO2e"
location_text = f"{number(inventory.scope2_location_tco2e)} t CO2e"
st.metric(
    t("inv_total"),
    f"{number(inventory.total_tco2e)} t CO2e ({gwp_label})",
    help=t("inv_total_help", gwp=gwp_label),
)
by_scope = inventory.totals_by("scope").set_index("scope")["tco2e"]
scope1, scope2_location, scope2_market, scope3 = st.columns(4)
for column, scope in ((scope1, "1"), (scope3, "3")):
    column.metric(t("scope_label", scope=scope), f"{number(by_scope.get(scope, 0.0))} t CO2e")
scope2_location.metric(t("inv_scope2_location"), location_text, help=t("inv_scope2_help"))
scope2_market.metric(t("inv_scope2_market"), market_text, help=t("inv_scope2_help"))
if unscoped := float(by_scope.drop(["1", "2", "3"], errors="ignore").sum()):
    st.caption(t("inv_scope_unknown", value=number(unscoped)))
reconciliation.show_status(inventory)
if inventory.year is not None:
    year_key = "inv_year_many" if len(inventory.years) > 1 else "inv_year_one"
    st.caption(
        f"{t(year_key, year=sanitize(inventory.year))} · {t('inv_gwp_stated', gwp=gwp_label)}"
    )
else:
    st.caption(t("inv_gwp_stated", gwp=gwp_label))
rows_metric, biogenic, montreal = st.columns(3)
rows_metric.metric(t("inv_rows"), number(len(inventory.table), 0))
biogenic.metric(t("inv_biogenic"), f"{number(inventory.biogenic_co2_t)} t", help=t("inv_memo_help"))
montreal.metric(
    t("inv_montreal"), f"{number(inventory.montreal_tco2e)} t CO2e", help=t("inv_memo_help")
)

# --- charts, findings and reconciliation, table and markdown ------------------------------
st.subheader(t("inv_charts"))
shown_charts = _charts(reading_key, lang, inventory)
left, right = st.columns(2)
left.altair_chart(shown_charts["scope"], width="stretch")
left.caption(
    t("inv_scope2_pair", location=number(inventory.scope2_location_tco2e), market=market_text)
)
right.altair_chart(shown_charts["gas"], width="stretch")
left.altair_chart(shown_charts["category"], width="stretch")
st.altair_chart(shown_charts["pareto"], width="stretch")
if "evolution" in shown_charts:
    st.altair_chart(shown_charts["evolution"], width="stretch")

if context.store is not None and context.user is not None:  # without it, nothing is saved
    compare_with_saved(require_workspace(context), inventory, digest)

st.subheader(t("sbce_title"))
sbce_readiness(_readiness(reading_key, inventory), reading=Reading.of(inventory))

with st.expander(t("inv_findings", n=len(inventory.findings)), icon=":material/rule:"):
    if not inventory.findings:
        st.write(t("inv_no_findings"))
    for finding in inventory.findings:
        where = f" — {finding.sheet}" if finding.sheet else ""
        st.markdown(f"- {sanitize(finding.message(lang))}{sanitize(where)}")
with st.expander(t("inv_reconciliation"), icon=":material/fact_check:", expanded=bool(conflicting)):
    reconciliation.show_table(inventory, lang)
if not inventory.factors_used.empty:
    with st.expander(t("inv_factors", n=len(inventory.factors_used)), icon=":material/science:"):
        inventory_factors(inventory.factors_used)

with st.expander(t("inv_table"), icon=":material/table:"):  # built even while closed
    _table_panel(reading_key, lang, inventory, name)

# --- analysis -----------------------------------------------------------------------------
st.subheader(t("inv_plan"))
workspace = require_workspace(context)
earlier = inventories.previous_plans(workspace)
previous_options = [None, *earlier]
previous_labels = [
    t("inv_previous_none")
    if p is None
    else f"{t('plan_title', number=p.id_external_inventory)} · {p.updated_at:%d/%m/%Y}"
    for p in previous_options
]
previous = st.selectbox(
    t("inv_previous"),
    previous_options,
    format_func=lambda p: previous_labels[previous_options.index(p)],
)


def _show_outcome(ended: PlanEnded) -> None:
    error = ended.error
    if ended.status == "planned" and ended.plan is not None:
        usage = ended.plan.usage
        cost = cost_text(usage.input_tokens, usage.output_tokens, usage.cost_usd)
        st.caption(t("plan_cost", cost=cost))
        if ended.saved:
            st.success(t("inv_plan_saved"), icon=":material/check:")
        else:
            st.warning(t("saved_later"), icon=":material/sync:")
    elif ended.status == "budget_exceeded":
        st.error(explain_budget_error(error, lang), icon=":material/savings:")
    elif ended.status == "malformed":
        st.error(t("malformed_plan", n=error.attempts, missing=", ".join(error.missing)))
    elif ended.status == "model_unavailable":
        message = explain_model_error(error, lang) if isinstance(error, AekoModelError) else ""
        st.error(sanitize(message) or t("model_unavailable"), icon=":material/cloud_off:")
    elif isinstance(error, LocalizedError):  # the database or the inventory: our own words
        st.error(t("engine_error", message=error.message(lang)), icon=":material/error:")
    else:
        st.error(t("engine_error", message=str(error)), icon=":material/error:")


def _follow(run: Run) -> None:
    """The analysis as it goes, from what it did so far (this page may have been reloaded
    mid run), then its outcome; its plan becomes the page's plan."""
    try:
        ended = run_with_trail(run.follow(heartbeat=heartbeat()))
    except TabGone:  # the run goes on; the next tab on this inventory shows it
        return
    except DailyCapReachedError as error:
        st.error(error.message(lang), icon=":material/savings:")
    else:
        assert isinstance(ended, PlanEnded)
        if ended.plan is not None:
            # How the inventory stood when it was analysed, as stored with it: what its
            # plan, SBCE readiness and exports say first.
            reading = Reading.from_summary(ended.record.summary) if ended.record else None
            state.show_plan(ended.plan, ended.record.number, ended.run_id, reading)
        _show_outcome(ended)
    if tab_connected():
        run.deliver()


planning = plan_inputs_section(inventory, digest)
here = [run for run in analyses if run.subject == digest]
for run in analyses:  # another inventory's analysis: say so, and offer to open it
    if run.subject != digest:
        going_or_ended = t("inv_run_going") if not run.done else t("inv_run_ended")
        st.info(
            t("inv_run_elsewhere", name=sanitize(run.title), state=going_or_ended),
            icon=":material/sync:",
        )
        if "data" in run.reopen or "inventory_id" in run.reopen:
            # A callback: the widgets it sets are drawn already.
            st.button(
                t("inv_run_open"), key=state.open_run_widget(run.id), on_click=_reopen, args=(run,)
            )
going = any(not run.done for run in here)
confirmed = True
if inventory.status in ("conflict", "ambiguous"):  # the user says they know, first
    unproven = [c.sheet for c in inventory.not_reconciled if c.status in ("conflict", "ambiguous")]
    confirmed = st.checkbox(
        t("inv_confirm_unproven", sheets=sanitize(", ".join(dict.fromkeys(unproven)))),
        key=state.confirm_widget(digest),
        help=t("inv_confirm_unproven_help"),
    )
if (
    st.button(
        t("inv_analyze"),
        type="primary",
        icon=":material/auto_awesome:",
        disabled=planning is None or going or not confirmed,
        help=t("inv_run_going") if going else None,
    )
    and not going
    and confirmed
):  # a click sent before the button was disabled starts nothing twice
    reopen = {
        "name": name,
        "data": data,
        "factors": own,
        "sheets": list(picked),
        "gwp_set": gwp_set,
        "ch4_origin": ch4_origin,
        "overrides": overrides,
        "units": dict(units),
        "added": added,
        **state.measure_files(),
    }
    here.append(
        runs.analyse(
            workspace, name, data, inventory, digest=digest, previous=previous, factors=own,
            planning=planning, reopen=reopen, units=dict(units), language=lang,
        )
    )  # fmt: skip
for run in here:
    _follow(run)

if (shown_plan := state.plan) is not None:
    plan, reading = shown_plan.plan, shown_plan.reading
    plan_card(
        plan, actions=plan.actions, reading=reading,
        what_if=lambda: what_if(workspace, inventory, plan.actions, shown_plan.run_id),
    )  # fmt: skip
    plan_downloads(
        plan, title=t("plan_title", number=shown_plan.number), subtitle=name, key="current",
        actions=plan.actions, reading=reading,
    )  # fmt: skip
