"""The inventory page's canonical table: a long inventory shows its first rows at once and
every row when asked, the headline and charts unchanged."""

import pytest

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
    first = _grid(app, "scope")
    assert len(first) == 1_000
    assert "As primeiras 1.000 de 1.500 linhas." in [c.value for c in app.caption]

    toggle = next(t for t in app.toggle if t.label == "Mostrar todas as 1.500 linhas")
    toggle.set_value(True).run()
    assert not app.exception, app.exception
    whole = _grid(app, "scope")
    assert len(whole) == _ROWS
    assert whole.head(1_000).equals(first)
    # The workbook's quantities, row by row, in its order.
    assert whole["quantity"].tolist() == workbook["Quantidade"].tolist()
    assert not any(c.value.startswith("As primeiras") for c in app.caption)
    assert len(app.get("vega_lite_chart")) == charts  # the page around the panel stays drawn
