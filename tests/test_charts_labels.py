"""Charts say what they show (issue #25, point 5): bars carry their values in the language's
notation, the Pareto names each bar by its source and facility, a row the workbook left
unnamed reads in the interface language, and the headline has a card per scope."""

import io

import openpyxl
import pytest

from components import charts
from engine.inventory import load_inventory
from tests.app_pages import run_app

# Two plants that both buy grid electricity and burn gas; one boiler's name is long; the
# electricity rows state t CO2e with no gas; Scope 2 by both methods; biogenic CO2 apart.
_ROWS = [
    ("Unidade", "Fonte", "Escopo", "Gás", "Emissões (t CO2e)"),
    ("Fábrica Santa Gertrudes (SP)", "Atomizador (spray dryer) da linha de porcelanato", 1,
     "CO2", 9658.8),
    ("Fábrica Santa Gertrudes (SP)", "Atomizador (spray dryer) da linha de porcelanato", 1,
     "CH4", 9.4),
    ("Fábrica Criciúma (SC)", "Forno a rolo 3", 1, "CO2", 7614.6),
    ("Fábrica Santa Gertrudes (SP)", "Rede SIN", 2, None, 1759.1),
    ("Fábrica Criciúma (SC)", "Rede SIN", 2, None, 1178.7),
    ("Fábrica Criciúma (SC)", "Viagens aéreas a negócios", 3, "CO2", 42.3),
]  # fmt: skip


@pytest.fixture(scope="module")
def workbook() -> bytes:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Emissões 2024"
    for row in _ROWS:
        sheet.append(list(row))
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


@pytest.fixture(scope="module")
def inventory(workbook):
    return load_inventory(workbook, filename="ceramica.xlsx", gwp_set="AR6")


def _layers(chart) -> list[dict]:
    return chart.to_dict()["layer"]


def _values(chart) -> list[dict]:
    spec = chart.to_dict()
    (rows,) = spec["datasets"].values()
    return rows


@pytest.mark.parametrize("field", ["scope", "gas", "category"])
@pytest.mark.parametrize(("lang", "decimal", "thousands"), [("pt", ",", "."), ("en", ".", ",")])
def test_every_bar_carries_its_value_in_the_language_notation(
    inventory, field, lang, decimal, thousands
):
    chart = charts.by_field(inventory, field, "Emissions", lang=lang)
    spec = chart.to_dict()
    assert spec["title"] == "Emissions"  # the chart's, above its layers
    marks = [layer["mark"]["type"] for layer in spec["layer"]]
    assert marks == ["bar", "text"]
    text = spec["layer"][1]["encoding"]["text"]
    assert text["field"] == "tco2e" and text["format"] == ",.1f"
    locale = spec["config"]["locale"]["number"]
    assert (locale["decimal"], locale["thousands"]) == (decimal, thousands)
    # room past the longest bar for its label
    longest = max(row["tco2e"] for row in _values(chart))
    assert spec["layer"][0]["encoding"]["x"]["scale"]["domain"][1] > longest


def test_a_gas_the_workbook_left_blank_reads_in_english(inventory):
    gases = {row["value"] for row in _values(charts.by_field(inventory, "gas", "t", lang="en"))}
    assert "(not stated)" in gases and "(não informado)" not in gases
    gases_pt = {row["value"] for row in _values(charts.by_field(inventory, "gas", "t", lang="pt"))}
    assert "(não informado)" in gases_pt


def test_the_pareto_names_each_bar_by_source_and_facility(inventory):
    chart = charts.pareto(inventory, "Pareto", lang="en")
    rows = _values(chart)
    # one bar per source at each plant (the boiler's CO2 and CH4 make one), largest first
    assert [(row["facility"], row["source"]) for row in rows][:3] == [
        ("Fábrica Santa Gertrudes (SP)", "Atomizador (spray dryer) da linha de porcelanato"),
        ("Fábrica Criciúma (SC)", "Forno a rolo 3"),
        ("Fábrica Santa Gertrudes (SP)", "Rede SIN"),
    ]
    assert rows[0]["tco2e"] == pytest.approx(9658.8 + 9.4)
    assert rows[0]["gases"] == "CO2, CH4"
    labels = [row["label"] for row in rows]
    assert len(set(labels)) == len(labels) == 5  # six rows, the boiler's two gases one bar
    grid = [label for label in labels if "Rede SIN" in label]
    assert grid == [
        "3. Rede SIN · Fábrica Santa Gertrudes (SP)",
        "4. Rede SIN · Fábrica Criciúma (SC)",
    ]
    # a long name is cut short in the label and whole in the tooltip
    assert labels[0].startswith("1. Atomizador (spray dryer) da linha de") and "…" in labels[0]
    assert rows[0]["name"] == (
        "Atomizador (spray dryer) da linha de porcelanato · Fábrica Santa Gertrudes (SP)"
    )
    assert {row["gases"] for row in rows if row["source"] == "Rede SIN"} == {"(not stated)"}
    # the bars and their values on one t CO2e axis, the cumulative share on its own
    values_layer, line = _layers(chart)
    bars, text = values_layer["layer"]
    assert [bars["mark"]["type"], text["mark"]["type"], line["mark"]["type"]] == [
        "bar", "text", "line"
    ]  # fmt: skip
    assert chart.to_dict()["resolve"] == {"scale": {"x": "independent"}}
    tooltip = {item["field"] for item in bars["encoding"]["tooltip"]}
    assert {"facility", "source", "fuel", "gases", "tco2e", "cumulative_share"} <= tooltip
    assert bars["encoding"]["y"]["field"] == "label"
    assert text["encoding"]["text"]["format"] == ",.1f"
    assert rows[-1]["cumulative_share"] == pytest.approx(1.0)


def test_the_headline_shows_each_scope_beside_the_total(app_env, workbook):
    app = run_app("pages/inventory.py")
    app.session_state["aeko_inventory_upload"] = ("ceramica.xlsx", workbook)
    app.run()
    assert not app.exception, app.exception
    metrics = {m.label: m.value for m in app.metric}
    assert metrics["Escopo 1"] == "17.282,8 t CO2e"  # 9.658,8 + 9,4 + 7.614,6
    assert metrics["Escopo 2 (localização)"] == "2.937,8 t CO2e"  # 1.759,1 + 1.178,7
    assert metrics["Escopo 3"] == "42,3 t CO2e"
    assert metrics["Escopo 2 (escolha de compra)"] == "—"  # none stated: never a sum
    assert metrics["Total"].startswith("20.262,9 t CO2e")
    labels = [m.label for m in app.metric]
    assert labels.index("Total") < labels.index("Escopo 1") < labels.index("Escopo 3")
