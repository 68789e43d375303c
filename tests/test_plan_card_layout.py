"""The plan card as a reader meets it (issue #25): the plan in tabs, each piece said once,
an action table whose measure column stays put and whose rows are summed up, and a what-if
table that writes a range whose ends are alike as one number, with no formula guard on show.

The inventory page runs in AppTest on the sample (the offline analyst writes the plan, and
quotes the computed action table, target path and SBCE text in it, as a model may); the
card alone runs on actions built here, with a known number of rows each."""

from __future__ import annotations

import json
import re

import pytest
from streamlit.testing.v1 import AppTest

from application.safe_text import csv_safe
from tests.app_pages import ROOT, TIMEOUT

TABS = {
    "pt": ["Resumo", "Ações", "MACC", "Meta", "SBCE", "E se"],
    "en": ["Summary", "Actions", "MACC", "Target", "SBCE", "What if"],
}
SAMPLE = "Usar o inventário de exemplo"
ANALYSE = "Analisar e gerar o plano"
TEXT_TYPES = {"markdown", "caption", "warning", "info", "success", "error"}


def _app(lang: str, page: str) -> AppTest:
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
    app.session_state["lang"] = lang  # from the first run: the widgets' options follow it
    app.run()
    app.switch_page(page).run()
    assert not app.exception, app.exception
    return app


def _planned(app_env, lang: str) -> tuple[AppTest, list]:
    """The sample analysed on the inventory page, and the plan card's tabs: in Portuguese
    there; in English, the saved plan opened on the history page with its what-if. (AppTest
    calls a selectbox's format_func outside the session, in Portuguese, so the inventory
    page's methane choice cannot be clicked past in English.)"""
    app = _app("pt", "pages/inventory.py")
    next(b for b in app.button if b.label == SAMPLE).click().run()
    next(b for b in app.button if b.label == ANALYSE).click().run()
    assert not app.exception, app.exception
    if lang == "en":
        plan_id = app_env.improvement_plan.find_one({})["_id"]
        app = _app("en", "pages/history.py")
        app.session_state[f"plan-open-{plan_id}"] = True
        app.run()
        app.toggle(key=f"explore-{plan_id}").set_value(True).run()
        assert not app.exception, app.exception
    return app, [tab for tab in app.tabs if tab.label in TABS[lang]]


def _walk(node):
    yield node
    for child in getattr(node, "children", {}).values():
        yield from _walk(child)


def _texts(nodes) -> list[str]:
    return [n.value for node in nodes for n in _walk(node) if n.type in TEXT_TYPES]


def _frames(nodes) -> list:
    return [n for node in nodes for n in _walk(node) if n.type == "dataframe"]


def _blocks(texts: list[str]) -> list[str]:
    """Each paragraph, list or table of ``texts``, whitespace collapsed; headings aside."""
    blocks = []
    for text in texts:
        for block in re.split(r"\n\s*\n", text):
            flat = " ".join(block.split())
            if flat and not flat.startswith("#"):
                blocks.append(flat)
    return blocks


@pytest.mark.parametrize("lang", ["pt", "en"])
def test_the_plan_is_in_six_tabs_each_piece_said_once(app_env, lang):
    _, tabs = _planned(app_env, lang)
    assert [tab.label for tab in tabs] == TABS[lang]
    by_label = dict(zip(TABS[lang], tabs, strict=True))
    texts = _texts(tabs)

    # No paragraph, list or table is said twice in the plan (the sample's plan quotes the
    # computed texts: the card shows each once, in its tab).
    blocks = _blocks(texts)
    repeated = {block for block in blocks if blocks.count(block) > 1}
    assert not repeated, repeated

    # The target path's table: once, in the Target tab.
    year = "Ano" if lang == "pt" else "Year"
    path_tables = [b for b in blocks if b.startswith(f"| {year} |")]
    assert len(path_tables) == 1
    assert any(b.startswith(f"| {year} |") for b in _blocks(_texts([by_label[TABS[lang][3]]])))

    # The action table: once, as a data frame in the Actions tab; never as Markdown.
    measure = "Medida" if lang == "pt" else "Measure"
    assert not [b for b in blocks if b.startswith(f"| {measure} |")]
    action_tables = [f for f in _frames(tabs) if "KPI" in f.value.columns]
    assert len(action_tables) == 1
    assert _frames([by_label[TABS[lang][1]]])[0].value.columns[0] == measure

    # The SBCE readiness: one table, in the SBCE tab, and not its text again.
    status = "Obrigação no SBCE" if lang == "pt" else "SBCE obligation"
    sbce = [f for f in _frames(tabs) if status in f.value.columns]
    assert len(sbce) == 1
    assert sbce[0] in _frames([by_label["SBCE"]])
    assert not [b for b in blocks if b.startswith("**SBCE (Lei")]

    # The Scope 2 methods are said never to be summed once in the what-if, not twice.
    never = "nunca se somam" if lang == "pt" else "never summed"
    assert sum(text.count(never) for text in _texts([by_label[TABS[lang][5]]])) == 1


def test_the_summary_says_where_the_quoted_tables_went(app_env):
    _, tabs = _planned(app_env, "pt")
    summary = tabs[0]
    texts = _texts([summary])
    assert "#### Método" in texts and "#### Raciocínio" in texts
    moved = [text for text in texts if text.startswith("O que este trecho citava")]
    assert moved and "Ações" in moved[0]
    assert any(text.startswith("**Ações calculadas**") for text in texts)


@pytest.mark.parametrize("lang", ["pt", "en"])
def test_the_what_if_writes_equal_ends_once_and_no_formula_guard(app_env, lang):
    _, tabs = _planned(app_env, lang)
    [table] = [f.value for f in _frames([tabs[5]]) if f.value.shape[1] == 4]
    cells = [cell for column in table.columns[1:] for cell in table[column]]
    assert not [cell for cell in cells if cell.startswith("'")], cells
    for cell in cells:
        if " – " in cell:
            low, high = cell.split(" – ")
            assert low != high, cell
    # The sample's electrification adds to location-based Scope 2: a negative cut, alone.
    scope2 = table.iloc[1]
    negative = r"-\d{1,3}(\.\d{3})*,\d" if lang == "pt" else r"-\d{1,3}(,\d{3})*\.\d"
    assert re.fullmatch(negative, scope2.iloc[3]), scope2.iloc[3]


def test_a_range_of_numbers_is_data_to_a_spreadsheet_and_a_formula_is_not():
    assert csv_safe("-13,2 – -5,0") == "-13,2 – -5,0"
    assert csv_safe("-2,0–4,5") == "-2,0–4,5"
    assert csv_safe("-1 – =cmd|' /C calc'!A0") == "'-1 – =cmd|' /C calc'!A0"
    assert csv_safe("-1-1") == "'-1-1"  # a hyphen is an operator: it would be computed


# --- the card alone, on actions with a known number of rows ---------------------------------


def _card(rows_per_action: tuple[int, ...], lang: str, *, unproven: bool = False) -> AppTest:
    def script(rows_per_action, lang, unproven):
        import streamlit as st

        from components.plan_card import plan_card
        from engine import AekoImprovementPlan
        from engine.actions.model import Action, Installation, PlanActions, RowRef
        from engine.inventory.notice import Reading

        st.session_state["lang"] = lang
        actions = [
            Action(
                id=f"m{n}@Combustão:{n}",
                measure_id=f"m{n}",
                measure={"pt": f"Medida {n}", "en": f"Measure {n}"},
                source={"pt": "Diesel", "en": "Diesel"},
                mechanism="fuel_switch",
                rows=tuple(
                    RowRef(
                        sheet="Combustão",
                        row=10 * n + k,
                        source=f"Gerador {n}.{k}",
                        facility="Fábrica",
                        gas="CO2",
                    )
                    for k in range(count)
                ),
                scope=1,
                baseline_tco2e=1000.0 * (n + 1),
                reduction_low_tco2e=100.0,
                reduction_high_tco2e=250.0,
                cost_per_t_brl=120.0,
            )
            for n, count in enumerate(rows_per_action)
        ]
        plan = AekoImprovementPlan(
            id_external_inventory=1, defined_problem="P.", method="M.", reasoning="R."
        )
        installations = [
            Installation(facility="Fábrica", scope1_tco2e=12000.0, status="monitoring")
        ]
        reading = Reading("conflict", (("Combustão", "conflict"),)) if unproven else None
        plan_card(
            plan,
            PlanActions(actions=actions, inventory_tco2e=10000.0, installations=installations),
            key="t",
            reading=reading,
        )

    app = AppTest.from_function(script, args=(rows_per_action, lang, unproven), default_timeout=60)
    app.run()
    assert not app.exception, app.exception
    return app


@pytest.mark.parametrize(
    ("lang", "more"), [("pt", ["", " +1 linha", " +5 linhas"]), ("en", ["", " +1 row", " +5 rows"])]
)
def test_the_action_table_pins_its_measure_and_sums_up_its_rows(lang, more):
    app = _card((1, 2, 6), lang)
    assert [tab.label for tab in app.tabs] == TABS[lang]
    element = next(d for d in app.dataframe if "KPI" in d.value.columns)
    table = element.value
    config = json.loads(element.proto.columns)
    measure = "Medida" if lang == "pt" else "Measure"
    assert table.columns[0] == measure
    # Only the measure column stays put; every column has a width (none sized to its text).
    assert [name for name in table.columns if config[name].get("pinned")] == [measure]
    assert all(config[name].get("width") for name in table.columns)
    # Each action's first row, then how many more.
    cells = list(table.iloc[:, 1])
    assert cells == [f"Gerador {n}.0 · Fábrica · CO2{extra}" for n, extra in enumerate(more)]
    # Every row of every action is listed below the table, once.
    listed = next(d.value for d in app.dataframe if d.value.shape[1] == 2)
    assert len(listed) == 1 + 2 + 6
    assert sorted(listed.iloc[:, 1]) == sorted(
        f"Gerador {n}.{k} · Fábrica · CO2"
        for n, count in enumerate((1, 2, 6))
        for k in range(count)
    )
    label = next(e.label for e in app.expander)
    assert label.endswith("(9)")
    # Numbers in the interface's notation.
    baseline = table.iloc[2, 3]
    assert baseline == ("3.000,0" if lang == "pt" else "3,000.0")


def test_an_unreconciled_inventory_is_said_once_above_the_tabs_not_again_in_the_sbce_tab():
    app = _card((1,), "pt", unproven=True)
    notices = [w for w in app.warning if "Combustão" in w.value]
    assert len(notices) == 1
    sbce = next(tab for tab in app.tabs if tab.label == "SBCE")
    assert not [n for n in _walk(sbce) if n.type == "warning" and "Combustão" in n.value]
    assert [f for f in _frames([sbce]) if "Obrigação no SBCE" in f.value.columns]


def test_a_card_without_computed_actions_keeps_its_three_sections_and_no_tabs():
    def script():
        from components.plan_card import plan_card
        from engine import AekoImprovementPlan

        plan_card(
            AekoImprovementPlan(
                id_external_inventory=1, defined_problem="P.", method="M.", reasoning="R."
            )
        )

    app = AppTest.from_function(script, default_timeout=60).run()
    assert not app.exception, app.exception
    assert not app.tabs
    assert [m.value for m in app.markdown if m.value.startswith("####")] == [
        "#### Problema definido",
        "#### Método",
        "#### Raciocínio",
    ]
