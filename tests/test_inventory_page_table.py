"""The inventory page's canonical table: a long inventory shows its first rows at once and
every row when asked, the headline and charts unchanged."""

import pytest
from pandas.api.types import is_numeric_dtype

from tests.app_pages import run_app
from tests.inventory_fixtures import as_xlsx, long_table

_ROWS = 1_500  # data rows of the workbook: one canonical row each (one activity and gas)


def _grid(app, column: str):
    return next(d.value for d in app.dataframe if column in d.value.columns)


@pytest.mark.usefixtures("app_env")
def test_a_long_table_shows_its_first_rows_then_all_of_them_on_request():
    workbook = long_table(_ROWS, seed=3)
    app = run_app("pages/inventory.py")
    app.session_state["lang"] = "pt"
    app.session_state["aeko_inventory_upload"] = ("longo.xlsx", as_xlsx(workbook))
    app.run()
    assert not app.exception, app.exception
    assert next(m.value for m in app.metric if m.label == "Linhas") == "1.500"
    charts = 4 + (workbook["Ano"].nunique() > 1)  # by scope, gas, category, Pareto; by year
    assert len(app.get("vega_lite_chart")) == charts
    first = _grid(app, "Escopo")
    assert len(first) == 1_000
    assert "As primeiras 1.000 de 1.500 linhas." in [c.value for c in app.caption]

    toggle = next(t for t in app.toggle if t.label == "Mostrar todas as 1.500 linhas")
    toggle.set_value(True).run()
    assert not app.exception, app.exception
    whole = _grid(app, "Escopo")
    assert len(whole) == _ROWS
    assert whole.head(1_000).equals(first)
    # The workbook's quantities, row by row, in its order.
    assert whole["Quantidade (dado de atividade)"].tolist() == workbook["Quantidade"].tolist()
    assert not any(c.value.startswith("As primeiras") for c in app.caption)
    assert len(app.get("vega_lite_chart")) == charts  # the page around the panel stays drawn


# The loader's own names and codes, which a person reading the table should never meet.
_INTERNAL = {"scope", "emissions_t_gas", "emissions_tco2e", "reporting", "basis", "memo_tco2e",
             "scope2_method", "activity", "facility", "source", "sheet", "row"}  # fmt: skip
_CODES = {"inventory", "computed", "reported", "location", "market", "biogenic", "montreal",
          "scope2_market", "natural_gas_stationary", "diesel_road", "None"}  # fmt: skip


@pytest.mark.usefixtures("app_env")
@pytest.mark.parametrize(
    ("lang", "columns", "values"),
    [
        ("pt", {"Aba", "Escopo", "Instalação", "Emissões CO2e (t)", "No total?"}, {"sim"}),
        ("en", {"Sheet", "Scope", "Facility", "CO2e emissions (t)", "In the total?"}, {"yes"}),
    ],
)
def test_the_canonical_table_reads_in_the_interface_language(lang, columns, values):
    app = run_app("pages/inventory.py")
    app.session_state["lang"] = lang
    app.run()
    sample = {"pt": "Usar o inventário de exemplo", "en": "Use the sample inventory"}[lang]
    next(b for b in app.button if b.label == sample).click().run()
    assert not app.exception, app.exception
    grid = _grid(app, "Escopo" if lang == "pt" else "Scope")
    assert columns <= set(grid.columns)
    assert not _INTERNAL & set(grid.columns)
    cells = {str(v) for column in grid.columns if not is_numeric_dtype(grid[column])
             for v in grid[column].dropna().unique()}  # fmt: skip
    assert values <= cells
    assert not _CODES & cells
    assert not grid.isna().all().any()  # no column that is empty on every row


@pytest.mark.usefixtures("app_env")
def test_the_markdown_preview_is_drawn_when_asked_and_reads_as_the_table():
    workbook = long_table(60, seed=5)
    app = run_app("pages/inventory.py")
    app.session_state["lang"] = "pt"
    app.session_state["aeko_inventory_upload"] = ("prévia.xlsx", as_xlsx(workbook))
    app.run()
    assert not app.exception, app.exception
    assert not app.get("code")  # not painted with the sample: it is asked for
    toggle = next(t for t in app.toggle if t.label.startswith("Mostrar a prévia em Markdown"))
    toggle.set_value(True).run()
    assert not app.exception, app.exception
    (preview,) = [c.value for c in app.get("code")]
    lines = preview.splitlines()
    assert len(lines) == 40  # the header, its rule and the first 38 rows
    # The Markdown the agents read and the download holds: the loader's own column names.
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    assert {"scope", "source", "emissions_tco2e"} <= set(header)
    assert set(lines[1].replace("|", "").strip()) <= set("-: ")
    assert all(line.count("|") == lines[0].count("|") for line in lines[2:])
    assert len(app.get("vega_lite_chart")) >= 4  # the page around the panel stays drawn
