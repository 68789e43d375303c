"""The MACC as a reader needs it (issue #25): every bar named with its cost, a plot tall
enough to read whatever the page's element height, and an axis that one far outlier does not
set: its bar is cut at the edge, marked, and its true cost written beside it."""

from __future__ import annotations

import io
import itertools

import pytest
from PIL import Image

from application.plan_charts import (
    chart_png,
    chart_spec,
    macc_chart,
    macc_data,
    macc_scale,
    short_name,
)
from engine.actions.model import Action, PlanActions, RowRef
from engine.formatting import number

# The sample's curve: a cheap video-conferencing measure with a tiny reduction costs
# -6,480 R$/t; every other bar lies between -340 and 1,244.
_BARS = [
    ("Videoconferência no lugar das viagens evitáveis", -6480.0, 35.6),
    ("Contrato de compra de energia renovável (PPA) no mercado livre", -340.0, 2139.5),
    ("Compostagem ou biodigestão da fração orgânica", 105.0, 170.1),
    ("Empilhadeiras elétricas e cocção por indução", 269.0, 148.0),
    ("Biodiesel B100 (no Brasil, majoritariamente de soja)", 331.0, 1248.0),
    ("Propano (R-290) em splits e equipamentos autocontidos", 372.0, 85.8),
    ("Biometano com entrega física (de aterro, vinhaça)", 429.0, 12559.8),
    ("HFO R-1234ze(E), na troca ou renovação do chiller", 668.0, 49.4),
    ("CO2 (R-744) transcrítico ou em cascata", 1085.0, 26.8),
    ("Equipamentos livres de SF6: interruptores a vácuo", 1244.0, 72.8),
]
_SAVING = (0x1B, 0x9E, 0x77)


def _action(n: int, name: str, cost: float | None, mid: float) -> Action:
    return Action(
        id=f"m{n}@Combustão:{n}",
        measure_id=f"m{n}",
        measure={"pt": name, "en": f"{name} (en)"},
        source={"pt": "Diesel", "en": "Diesel"},
        mechanism="fuel_switch",
        rows=(RowRef(sheet="Combustão", row=n, source="Diesel", facility="Fábrica 1", gas="CO2"),),
        scope=1,
        baseline_tco2e=20000.0,
        reduction_low_tco2e=mid,
        reduction_high_tco2e=mid,
        cost_per_t_brl=cost,
    )


def _plan(bars=_BARS) -> PlanActions:
    return PlanActions(
        actions=[_action(n, name, cost, mid) for n, (name, cost, mid) in enumerate(bars, 1)]
    )


def _layers(spec: dict) -> list[dict]:
    return spec["layer"]


def _rows(spec: dict) -> list[dict]:
    """The bars' rows (the data set that carries the measures)."""
    return next(rows for rows in spec["datasets"].values() if rows and "measure" in rows[0])


def _y_domain(spec: dict) -> list[float]:
    bars = _layers(spec)[0]
    return bars["encoding"]["y"]["scale"]["domain"]


def test_one_far_outlier_does_not_set_the_axis():
    spec = chart_spec(macc_chart(_plan(), "pt"))
    low, high = _y_domain(spec)
    others = [cost for _, cost, _ in _BARS[1:]]
    # The axis fits the other bars (some room around them for the cut's mark), not the
    # outlier: it spans less than one and a half times their range, where -6,480 R$/t
    # would make it more than four times.
    assert low < min(others) and high > max(others)
    assert high - low < 1.5 * (max(others) - min(others))
    rows = _rows(spec)
    by_cost = {row["cost"]: row for row in rows}
    for cost in others:  # drawn to scale, each to its own cost
        assert by_cost[cost]["end"] == cost and by_cost[cost]["clipped"] == ""
    outlier = by_cost[-6480.0]
    assert outlier["end"] == low and outlier["clipped"] == "low"  # cut at the axis' edge
    # Its true cost is written beside the cut and on its label, in Brazilian notation.
    assert outlier["true_cost"] == "-6.480 (fora da escala)"
    assert outlier["label"].endswith("· -6.480")
    texts = [layer for layer in _layers(spec) if layer["mark"]["type"] == "text"]
    assert {"label", "true_cost"} <= {layer["encoding"]["text"]["field"] for layer in texts}
    marks = [layer for layer in _layers(spec) if layer["mark"]["type"] == "point"]
    assert marks and marks[0]["encoding"]["shape"]["field"] == "clipped"
    subtitle = " ".join(spec["title"]["subtitle"])
    assert "Barra cortada no limite do eixo" in subtitle


def test_the_other_bars_are_not_flattened_in_the_png():
    """The -340 R$/t saving spans an eighth of the width: drawn to the outlier's scale it
    would be a sliver (340 of 7,000 R$/t); on the robust axis it is a block."""
    with_outlier = chart_png(macc_chart(_plan(), "pt"))
    without = chart_png(macc_chart(_plan(_BARS[1:]), "pt"))

    def saving(png: bytes) -> int:
        image = Image.open(io.BytesIO(png)).convert("RGB")
        counts = image.getcolors(1 << 24) or []
        return sum(
            n for n, colour in counts
            if max(abs(a - b) for a, b in zip(colour, _SAVING, strict=True)) < 8
        )  # fmt: skip

    # About as much green as the curve without the outlier at all: the outlier took none
    # of the other bars' height.
    assert saving(with_outlier) > 0.8 * saving(without) > 10_000


def test_every_bar_is_labelled_with_its_short_name_and_cost_in_either_language():
    for lang in ("pt", "en"):
        spec = chart_spec(macc_chart(_plan(), lang))
        rows = _rows(spec)
        assert len(rows) == len(_BARS)
        for row in rows:
            name, _, cost = row["label"].rpartition(" · ")
            assert cost == number(row["cost"], 0, lang)
            assert name == short_name(row["measure"])
            assert name.rstrip("…") and row["measure"].startswith(name.rstrip("…"))
    assert any(
        row["label"] == "Biodiesel B100 · 331" for row in _rows(chart_spec(macc_chart(_plan())))
    )


def test_labels_of_narrow_neighbours_are_spread_apart_in_the_bars_order():
    spec = chart_spec(macc_chart(_plan(), "pt"))
    rows = _rows(spec)
    total = rows[-1]["x1"]
    xs = [row["label_x"] for row in rows]
    assert xs == sorted(xs) and xs[0] >= 0 and xs[-1] <= total
    gaps = [b - a for a, b in itertools.pairwise(xs)]
    # The three narrow bars at the right end (149 t of 16,536) get a label each, apart.
    assert min(gaps) >= total * 12 / 640
    # A bar wide enough keeps its name over its middle.
    biomethane = next(row for row in rows if row["measure"].startswith("Biometano"))
    assert biomethane["label_x"] == pytest.approx((biomethane["x0"] + biomethane["x1"]) / 2)


def test_the_plot_keeps_its_height_in_the_page():
    """Streamlit fits a chart without its own autosize into the element's height: the title,
    the names, the legend and the axes took all but ~90 px of the plot. With fit-x the plot
    keeps its height and only its width follows the page."""
    from streamlit.elements.vega_charts import _prepare_vega_lite_spec

    spec = chart_spec(macc_chart(_plan(), "pt"))
    shown = _prepare_vega_lite_spec(spec, use_container_width=True)
    assert shown["autosize"] == {"type": "fit-x", "contains": "padding"}
    assert shown["height"] >= 300


@pytest.mark.parametrize(
    ("costs", "clipped"),
    [
        ([-120.0, 350.0], False),  # two costs: no telling which one is the outlier
        ([-6480.0, 100.0], False),
        ([100.0, 150.0, 200.0, 260.0], False),  # an ordinary spread
        ([-35.0, 12.0, 80.0, 350.0, -120.5], False),
        ([100.0, 150.0, 200.0, 250.0, 9000.0], True),  # one far above
        ([-6480.0, 100.0, 200.0], True),
    ],
)
def test_the_scale_cuts_only_a_far_outlier(costs, clipped):
    scale = macc_scale(costs)
    bottom, top = scale.domain
    assert bottom <= 0 <= top and bottom < top
    assert (min(costs) < scale.low or max(costs) > scale.high) is clipped
    if not clipped:
        assert bottom <= min(costs) and top >= max(costs)


def test_an_all_positive_curve_starts_at_zero():
    assert macc_scale([100.0, 150.0, 200.0]).domain[0] == 0.0


def test_short_names_stop_at_a_qualifier_or_a_word():
    assert short_name("Biodiesel B100 (no Brasil, majoritariamente de soja)") == "Biodiesel B100"
    assert short_name("HFO R-1234ze(E), na troca ou renovação do chiller") == "HFO R-1234ze(E)"
    assert short_name("Equipamentos livres de SF6: interruptores") == "Equipamentos livres de SF6"
    # Too short a head ("CO2") keeps the name; a long one is cut after a word, never
    # after a linking word.
    assert short_name("CO2 (R-744) transcrítico ou em cascata") == "CO2 (R-744) transcrítico…"
    assert short_name("Videoconferência no lugar das viagens evitáveis") == (
        "Videoconferência no lugar…"
    )
    assert short_name("Telemetria da frota") == "Telemetria da frota"


def test_page_and_exports_draw_the_same_chart():
    """The page's chart object and the PNG's spec are one: the exports call the same
    ``macc_chart`` and serialise it with ``chart_spec``."""
    chart = macc_chart(_plan(), "pt")
    assert chart_spec(chart) == chart.to_dict()
    assert macc_data(_plan())[0]["cost"] == -6480.0
