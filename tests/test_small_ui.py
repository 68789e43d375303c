"""Small things that looked broken (issue #25, point 4): statuses in words with symbols any
font has, numbers that sort as numbers, a cover sheet left out silently, a computation's
steps and total on lines of their own, counts in the language's notation and plural, and
the developer's hints on the settings page only."""

from pathlib import Path

import markdown_it
import pytest
from fontTools.ttLib import TTFont
from streamlit.testing.v1 import AppTest

from application import inventories
from components.i18n import TEXTS
from engine.emissions import estimate
from tests.app_pages import ROOT, TIMEOUT
from tests.app_pages import inventory_page as _inventory_page
from tests.app_pages import run_app as _app
from tests.app_pages import workbook as _workbook

# The font Debian's Chromium falls back to (fonts-dejavu-core); the app bundles the same
# one for its PDFs. An emoji has no glyph in it: Chromium draws an empty box.
DEJAVU = Path(ROOT, "application/exports/fonts/DejaVuSans.ttf")


def _drawable(text: str) -> bool:
    cmap = TTFont(DEJAVU).getBestCmap()
    return all(ord(char) in cmap for char in text)


# --- statuses: a symbol every font has, and a word -------------------------------------------


@pytest.mark.parametrize("status", ["reconciled", "unverified", "ambiguous", "conflict"])
@pytest.mark.parametrize("lang", ["pt", "en"])
def test_a_sheet_status_is_a_drawable_symbol_and_a_word(status, lang):
    label = TEXTS[f"rec_{status}"][lang]
    symbol, _, word = label.partition(" ")
    assert len(symbol) == 1 and len(word) >= 5, label
    assert _drawable(label), label


def test_the_sbce_obligations_read_in_words_with_drawable_symbols():
    from components import sbce

    for status, symbol in sbce._ICON.items():
        for lang in ("pt", "en"):
            shown = f"{symbol} {TEXTS['sbce_' + status][lang]}"
            assert _drawable(shown), shown


# Three installations whose Scope 1 figures sort differently as text ("9.500,0" after
# "25.300,0" and "12.000,0") and as numbers.
_PLANTS = {
    "Emissões 2024": [
        ("Unidade", "Fonte", "Escopo", "Gás", "Emissões (t CO2e)"),
        ("Fábrica Juiz de Fora", "Caldeira a gás natural", 1, "CO2", 9500.0),
        ("Fábrica Uberlândia", "Forno de clínquer", 1, "CO2", 25300.0),
        ("Fábrica Betim", "Caldeira a óleo combustível", 1, "CO2", 12000.0),
        ("Fábrica Betim", "Eletricidade da rede (SIN)", 2, "CO2", 830.0),
    ]
}


def test_scope_1_per_installation_is_a_number_column_and_sorts_as_one(app_env):
    app = _inventory_page("plantas.xlsx", _workbook(_PLANTS))
    table = next(d.value for d in app.dataframe if "Escopo 1 (t CO2e/ano)" in d.value.columns)
    scope1 = table["Escopo 1 (t CO2e/ano)"]
    assert scope1.dtype.kind == "f"
    ordered = table.sort_values("Escopo 1 (t CO2e/ano)")["Instalação"].tolist()
    assert ordered == ["Fábrica Juiz de Fora", "Fábrica Betim", "Fábrica Uberlândia"]
    # each obligation says itself in words
    status = dict(zip(table["Instalação"], table["Obrigação no SBCE"], strict=True))
    assert status["Fábrica Juiz de Fora"] == "○ abaixo de 10.000 t: sem obrigação"
    assert status["Fábrica Uberlândia"].endswith("entrega de cotas (CBE/CRVE)")
    read = next(d.value for d in app.dataframe if "Linhas lidas" in d.value.columns)
    assert read["Calculado (t CO2e)"].dtype.kind == "f" and read["Linhas lidas"].dtype.kind in "if"


# --- a cover sheet is left out, silently ----------------------------------------------------

_COVERED = {
    "Capa": [
        ("Inventário de Emissões de Gases de Efeito Estufa — ano-base 2024",),
        (),
        ("Laticínios Serra Azul S.A.",),
        ("Elaborado conforme as especificações do Programa Brasileiro GHG Protocol.",),
        ("Responsável: Coordenação de Sustentabilidade",),
    ],
    "Emissões 2024": [
        ("Unidade", "Fonte", "Escopo", "Gás", "Emissões (t CO2e)"),
        ("Fábrica Juiz de Fora", "Caldeira a gás natural", 1, "CO2", 1250.4),
        ("Fábrica Juiz de Fora", "Frota de caminhões (diesel)", 1, "CO2", 830.2),
        ("Fábrica Uberlândia", "Caldeira a lenha", 1, "CH4", 12.5),
        ("Fábrica Uberlândia", "Eletricidade da rede (SIN)", 2, "CO2", 410.0),
    ],
}


def test_a_cover_sheet_has_no_table_and_raises_no_finding():
    data = _workbook(_COVERED)
    assert inventories.sheets("inv.xlsx", data) == ["Capa", "Emissões 2024"]
    assert inventories.table_sheets("inv.xlsx", data) == ["Emissões 2024"]
    # even read with it, the cover is skipped without a finding: nothing to correct
    inventory = inventories.load("inv.xlsx", data, sheets=None, gwp_set="AR6", ch4_origin="fossil")
    assert "Capa" in inventory.skipped_sheets
    assert inventory.findings == []
    assert inventory.total_tco2e == pytest.approx(1250.4 + 830.2 + 12.5 + 410.0)


def test_a_cover_sheet_is_not_picked_and_the_plan_asks_nothing_about_it(app_env):
    app = _inventory_page("inventario-serra-azul.xlsx", _workbook(_COVERED))
    picked = next(m for m in app.multiselect if m.label == "Abas a analisar")
    assert picked.options == ["Capa", "Emissões 2024"]
    assert picked.value == ["Emissões 2024"]
    assert any(e.label == "Qualidade dos dados (0)" for e in app.expander)
    next(b for b in app.button if b.label == "Analisar e gerar o plano").click().run()
    assert not app.exception, app.exception
    assert any("Plano salvo" in s.value for s in app.success)
    shown = "\n".join(m.value for m in app.markdown)
    assert "apontamento" not in shown and "Capa" not in shown
    # the trail names the agent that read the inventory, spelled right
    assert "Analista de inventários" in shown and "Análista" not in shown


# --- a computation: each step on its line, the total on its own -----------------------------


@pytest.mark.parametrize("lang", ["pt", "en"])
def test_a_computation_renders_its_steps_as_a_list_and_its_total_apart(lang):
    result = estimate("natural_gas_stationary", 1000, "m³", date_or_year=2024)
    tokens = markdown_it.MarkdownIt().parse(result.explain(lang))
    items = [t for t in tokens if t.type == "list_item_open"]
    paragraphs = [
        tokens[i + 1].content
        for i, t in enumerate(tokens)
        if t.type == "paragraph_open" and t.level == 0
    ]
    assert len(items) == 4  # volume to energy, then CO2, CH4, N2O
    total = "Total no escopo" if lang == "pt" else "Total in scope"
    assert paragraphs[-1].startswith(total) and "\n" not in paragraphs[-1]
    inside_items = [
        tokens[i + 1].content
        for i, t in enumerate(tokens)
        if t.type == "paragraph_open" and t.level
    ]
    assert not any(total in text for text in inside_items)


# --- counts: thousands separators and plurals, and the count after two runs ------------------


def _cost_line(app: AppTest) -> str:
    return next(c.value for c in app.sidebar.caption if "Esta conversa" in c.value)


def test_the_conversation_counts_its_runs_in_words_after_each_one(app_env):
    app = _app()
    app.chat_input[0].set_value("O que é escopo 2?").run()
    assert not app.exception, app.exception
    assert "Esta conversa: 1 execução ·" in _cost_line(app)
    app.chat_input[0].set_value("E o escopo 3?").run()
    assert not app.exception, app.exception
    assert "Esta conversa: 2 execuções ·" in _cost_line(app)  # not the count before it
    assert len([c for c in app.sidebar.caption if "Esta conversa" in c.value]) == 1


def _tokens_script() -> None:
    import streamlit as st

    from components.trail import cost_text

    st.session_state["lang"] = st.query_params.get("lang", "pt")
    st.write(cost_text(1234567, 8901, 0.0123))


@pytest.mark.parametrize(
    ("lang", "shown"),
    [
        ("pt", "1.234.567 tokens de entrada · 8.901 de saída · custo US$ 0,0123"),
        ("en", "1,234,567 input tokens · 8,901 output · cost US$ 0.0123"),
    ],
)
def test_token_counts_and_cost_carry_the_language_notation(lang, shown):
    app = AppTest.from_function(_tokens_script, default_timeout=TIMEOUT)
    app.query_params["lang"] = lang
    app.run()
    assert not app.exception, app.exception
    assert shown in app.markdown[0].value


# --- developer text: on the settings page, never in every user's sidebar ---------------------


def test_the_sidebar_says_no_developer_text_and_settings_keeps_it(app_env, tmp_path):
    app = _app()
    sidebar = " ".join(c.value for c in app.sidebar.caption)
    assert "analista offline" in sidebar and "Banco de dados" in sidebar
    for hint in ("GEMINI_API_KEY", "[auth]", "secrets", str(tmp_path)):
        assert hint not in sidebar, hint
    assert not any(":" in c.value and "127.0.0.1" in c.value for c in app.sidebar.caption)

    settings = _app("pages/settings.py")
    admin = next(e for e in settings.expander if e.label == "Administração do app")
    kept = " ".join(c.value for c in admin.caption)
    assert "GEMINI_API_KEY" in kept and "`[auth]`" in kept and "Banco de dados:" in kept


def test_a_comparison_with_an_earlier_inventory_keeps_its_numbers_numbers():
    from components.compare_inventories import _table
    from engine.inventory import load_inventory

    earlier = [row if row[0] != "Fábrica Uberlândia" else (*row[:4], 20000.0)
               for row in _PLANTS["Emissões 2024"]]  # fmt: skip
    now = load_inventory(_workbook(_PLANTS), filename="2024.xlsx", gwp_set="AR6")
    before = load_inventory(_workbook({"2023": earlier}), filename="2023.xlsx", gwp_set="AR6")
    table = _table(now.compare(before, "scope"), "scope")
    scope1 = table[table["Escopo"] == "Escopo 1"].iloc[0]
    assert scope1["Antes (t CO2e)"] == pytest.approx(9500 + 20000 + 12000)
    assert scope1["Variação (t CO2e)"] == pytest.approx(5300.0)
    assert scope1["Variação (%)"] == pytest.approx(100 * 5300 / 41500)
    assert all(table[column].dtype.kind == "f" for column in table.columns[1:])
