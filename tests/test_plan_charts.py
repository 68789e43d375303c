"""A plan's charts: the MACC (cheapest tonne first, each bar as wide as its action's mid
reduction, unknown costs named and never drawn), the target path, and both as PNG."""

import itertools

import pytest

from application.exports.actions import action_table_rows
from application.plan_charts import (
    chart_png,
    macc_chart,
    macc_data,
    macc_unknown,
    path_chart,
    path_data,
)
from engine.actions.model import Action, Installation, PathPoint, PlanActions, RowRef, Target
from engine.formatting import number

PNG = b"\x89PNG\r\n\x1a\n"


def _action(n: int, name: str, cost: float | None, low: float, high: float, **extra) -> Action:
    return Action(
        id=f"m{n}@Combustão:{n}",
        measure_id=f"m{n}",
        measure={"pt": name, "en": f"{name} (en)"},
        source={"pt": "Diesel", "en": "Diesel"},
        mechanism=extra.pop("mechanism", "fuel_switch"),
        rows=(RowRef(sheet="Combustão", row=n, source="Diesel", facility="Fábrica 1", gas="CO2"),),
        scope=extra.pop("scope", 1),
        baseline_tco2e=5000.0,
        reduction_low_tco2e=low,
        reduction_high_tco2e=high,
        cost_per_t_brl=cost,
        **extra,
    )


@pytest.fixture
def actions() -> PlanActions:
    return PlanActions(
        actions=[
            _action(1, "Troca de diesel por HVO", 350.0, 800.0, 1000.0),
            _action(2, "Eficiência nos fornos", -120.5, 200.0, 400.0),
            _action(3, "Recuperação de calor", None, 100.0, 300.0),
            _action(4, "Inversores nos motores", 80.0, 1500.0, 2500.0),
            _action(5, "Telemetria da frota", -35.0, 50.0, 70.0),
            _action(
                6,
                "Certificados de energia renovável",
                12.0,
                900.0,
                900.0,
                mechanism="market_instrument",
                scope=2,
                scope2_method="market",
            ),
        ],
        target=Target(base_year=2022, base_tco2e=12000.0, percent=30, year=2030),
        path=[
            PathPoint(
                year=year,
                allowed_tco2e=12000 - (year - 2022) * 450,
                expected_tco2e=11000 - (year - 2024) * 500,
                expected_low_tco2e=11000 - (year - 2024) * 350,
                actual_tco2e=11000.0 if year == 2024 else None,
            )
            for year in range(2024, 2031)
        ],
        meets_target=True,
        installations=[Installation(facility="Fábrica 1", scope1_tco2e=9000, status="below")],
        inventory_tco2e=11000.0,
        inventory_year=2024,
    )


# --------------------------------------------------------------------------------------------
# MACC
# --------------------------------------------------------------------------------------------


def test_macc_bars_go_cheapest_first_with_savings_before_costs(actions):
    rows = macc_data(actions)
    costs = [row["cost"] for row in rows]
    assert costs == sorted(costs) == [-120.5, -35.0, 12.0, 80.0, 350.0]
    assert [row["measure"]["pt"] for row in rows[:2]] == [
        "Eficiência nos fornos",
        "Telemetria da frota",
    ]


def test_macc_widths_are_the_mid_reductions_laid_end_to_end(actions):
    rows = macc_data(actions)
    assert rows[0]["x0"] == 0
    for before, after in itertools.pairwise(rows):
        assert after["x0"] == pytest.approx(before["x1"])
    by_id = {action.id: action for action in actions.actions}
    for row in rows:
        assert row["x1"] - row["x0"] == pytest.approx(by_id[row["id"]].reduction_mid_tco2e)
        assert row["width"] == pytest.approx(by_id[row["id"]].reduction_mid_tco2e)
    assert rows[-1]["x1"] == pytest.approx(300 + 60 + 900 + 2000 + 900)


def test_macc_matches_the_action_table(actions):
    """Each bar is a row of the table the exports print: same measure, its cost per tonne,
    and a width midway between the row's low and high reduction."""
    header, table = action_table_rows(actions, "pt")
    measure, reduction, cost = (
        header.index("Medida"),
        header.index("Redução (t CO2e/ano)"),
        header.index("R$/t CO2e"),
    )
    cells = {row[measure]: row for row in table}
    for bar in macc_data(actions):
        row = cells[bar["measure"]["pt"]]
        assert row[cost] == number(bar["cost"], 0, "pt")
        low, _, high = row[reduction].partition("–")
        mid = (
            float(low.replace(".", "").replace(",", "."))
            + float((high or low).replace(".", "").replace(",", "."))
        ) / 2
        assert bar["width"] == pytest.approx(mid)
    # The one row of the table with an unknown cost is the one bar missing.
    unknown = [row[measure] for row in table if row[cost] == "custo desconhecido"]
    drawn = {bar["measure"]["pt"] for bar in macc_data(actions)}
    assert unknown == ["Recuperação de calor"] and set(cells) - drawn == set(unknown)


def test_unknown_cost_is_named_not_drawn(actions):
    assert [a.measure["pt"] for a in macc_unknown(actions)] == ["Recuperação de calor"]
    spec = macc_chart(actions, "pt").to_dict()
    data = next(iter(spec["datasets"].values()))
    assert "Recuperação de calor" not in {row["measure"] for row in data}
    assert len(data) == 5
    subtitle = " ".join(spec["title"]["subtitle"])
    assert "Custo desconhecido: Recuperação de calor." in subtitle
    en = macc_chart(actions, "en").to_dict()
    assert "Cost unknown: Recuperação de calor (en)." in " ".join(en["title"]["subtitle"])


def test_macc_is_rectangles_from_zero_to_the_cost(actions):
    spec = macc_chart(actions, "pt").to_dict()
    bars = spec["layer"][0]
    assert bars["mark"]["type"] == "rect"
    encoding = bars["encoding"]
    assert encoding["x"]["field"] == "x0" and encoding["x2"]["field"] == "x1"
    assert encoding["y"]["field"] == "zero" and encoding["y2"]["field"] == "end"
    assert encoding["y"]["title"] == "R$/t CO2e"
    tooltips = [tip["title"] for tip in encoding["tooltip"]]
    assert tooltips == ["Medida", "Substitui", "Redução (t CO2e/ano)", "Custo (R$/t CO2e)"]
    data = next(iter(spec["datasets"].values()))
    first = data[0]
    assert first["measure"] == "Eficiência nos fornos"
    assert first["reduction"] == "200,0 – 400,0" and first["cost_text"] == "-120,5"
    assert all(row["zero"] == 0 for row in data)
    # No cost here is far from the others: every bar ends at its own cost.
    assert [row["end"] for row in data] == [row["cost"] for row in macc_data(actions)]


@pytest.mark.parametrize(("lang", "decimal", "thousands"), [("pt", ",", "."), ("en", ".", ",")])
def test_axes_read_numbers_in_the_interface_language(actions, lang, decimal, thousands):
    for chart in (macc_chart(actions, lang), path_chart(actions, lang)):
        locale = chart.to_dict()["config"]["locale"]["number"]
        assert (locale["decimal"], locale["thousands"]) == (decimal, thousands)


def test_a_plan_with_no_priced_action_draws_an_empty_curve_and_says_so():
    plan = PlanActions(actions=[_action(1, "Recuperação de calor", None, 10.0, 20.0)])
    assert macc_data(plan) == []
    spec = macc_chart(plan, "pt").to_dict()
    subtitle = spec["title"]["subtitle"]
    assert subtitle[0] == "Nenhuma ação com custo conhecido."
    assert "Custo desconhecido: Recuperação de calor." in " ".join(subtitle)
    assert chart_png(macc_chart(plan, "pt")).startswith(PNG)


# --------------------------------------------------------------------------------------------
# Target path
# --------------------------------------------------------------------------------------------


def test_path_has_the_allowed_and_expected_lines_and_the_reported_points(actions):
    frame = path_data(actions, "pt")
    series = frame.groupby("series")["year"].apply(list).to_dict()
    assert series["Trajetória da meta"] == list(range(2024, 2031))
    assert series["Esperado com as ações (redução média)"] == list(range(2024, 2031))
    assert series["Esperado com as ações (redução baixa)"] == list(range(2024, 2031))
    # The base year's emissions and the inventory's own year are the reported history.
    reported = frame[frame["series"] == "Reportado"].set_index("year")["tco2e"].to_dict()
    assert reported == {2022: 12000.0, 2024: 11000.0}
    final = frame[frame["year"] == 2030].set_index("series")["tco2e"].to_dict()
    assert final["Trajetória da meta"] == 8400
    assert final["Esperado com as ações (redução média)"] == 8000
    assert final["Esperado com as ações (redução baixa)"] == 8900


def test_path_chart_layers_and_english_labels(actions):
    spec = path_chart(actions, "en").to_dict()
    assert len(spec["layer"]) == 4
    assert spec["title"] == "Target and trajectory"
    data = next(iter(spec["datasets"].values()))
    assert {row["series"] for row in data} == {
        "Target path",
        "Expected with the actions (mid reduction)",
        "Expected with the actions (low reduction)",
        "Reported",
    }


# --------------------------------------------------------------------------------------------
# PNG
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["pt", "en"])
def test_both_charts_draw_as_png(actions, lang):
    for chart in (macc_chart(actions, lang), path_chart(actions, lang)):
        image = chart_png(chart)
        assert image.startswith(PNG)
        width = int.from_bytes(image[16:20], "big")
        assert width > 1000  # scale 2: a 640-pixel chart and its axes, doubled
    assert len(chart_png(path_chart(actions, lang), scale=1)) < len(image)
