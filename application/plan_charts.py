"""A plan's charts: the marginal abatement cost curve (MACC) of its actions and the path to
its target, as Altair charts for the page and as PNG (``vl_convert``) for the exports: the
same chart object for both.

No Streamlit. Numbers read as the interface language writes them: the axes through Vega's
``config.locale`` (d3-format), the tooltips and the bar names as text already formatted by
``engine.formatting``. An action whose cost is unknown is never drawn with a made-up cost: it
is named under the MACC's title as "custo desconhecido" / "cost unknown". Each MACC bar is
named with its cost above the plot; the y axis keeps to the costs' robust range
(``macc_scale``), a far outlier cut at its edge, marked and its true cost written beside it.

The charts carry their data inline and fix their own autosize ("fit-x": the plot keeps its
height on the page, whatever the title, names and legend take), and ``chart_spec`` never
goes through Altair's process-wide data transformer, which Streamlit switches to its own
while it draws a chart: an export built meanwhile on another thread stays whole.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from statistics import median
from typing import Any

import altair as alt
import pandas as pd
from altair.utils.data import to_values

from engine.actions.model import Action, PlanActions
from engine.formatting import number
from engine.texts import Texts, lang_of

__all__ = [
    "MaccScale",
    "chart_png",
    "chart_spec",
    "macc_chart",
    "macc_data",
    "macc_scale",
    "macc_unknown",
    "measure_name",
    "measure_name_of",
    "path_chart",
    "path_data",
    "short_name",
]

# d3-format number locales, set per chart with Vega's ``config.locale`` (the same ones the
# inventory charts use in components.charts; the application layer cannot import those).


def number_locale(lang: str) -> dict[str, Any]:
    """d3's number notation (what Vega-Lite formats axes and labels with) of ``lang``: the
    marks Babel writes for the same locale, so a chart and the text beside it agree."""
    pt = lang_of(lang) == "pt"
    return {"decimal": "," if pt else ".", "thousands": "." if pt else ",", "grouping": [3],
            "currency": ["R$" if pt else "$", ""]}  # fmt: skip


_WIDTH, _HEIGHT = 640, 320
_MACC_HEIGHT = 300  # px, the plot area alone: the bar names sit above it
# The plot keeps its height whatever the title, legend and names around it take: Streamlit's
# default ("fit" to the element's height) would shrink the plot to what they leave over.
_AUTOSIZE = alt.AutoSizeParams(type="fit-x", contains="padding")
_SAVING, _COST = "#1b9e77", "#d95f02"
_INK, _LEADER = "#333333", "#9a9a9a"
_FENCE = 8.0  # median absolute deviations from the median: beyond, a cost is an outlier
_PAD = 0.06  # of the drawn range, around it on the y axis (three times on a cut side)
_SHORT_NAME = 26  # characters of a measure's name on its bar (its cost follows)
_LABEL_LIMIT = 320  # px: a safety net; the names are cut in Python, never the cost
_LABEL_GAP = 13  # px between two names (10 px text, rotated)
_PLOT_WIDTH = _WIDTH - 80  # px: the plot once the y axis has taken its share of the width
_ELBOW = 10  # px above the plot where a leader turns to its name
_LINKING_WORDS = frozenset(
    "a o as os de da do das dos e em no na nos nas ou por para com sem à ao "
    "of the and or in on for with to by".split()
)
_QUALIFIER = re.compile(r" \(|, |: | — | – |; ")
_SUBTITLE_LINE = 80  # characters: the unknown-cost names wrap under the title
# The PNGs are drawn in the fonts the PDF embeds, whatever the server has installed.
_FONT_DIR = Path(__file__).parent / "exports" / "fonts"
_PNG_FONT = "DejaVu Sans"

_TEXTS = Texts(
    "application.plan_charts",
    {
        "macc_title": {
            "pt": "Curva de custo marginal de abatimento (MACC)",
            "en": "Marginal abatement cost curve (MACC)",
        },
        "macc_x": {
            "pt": "Redução acumulada (t CO2e/ano, média)",
            "en": "Cumulative reduction (t CO2e/yr, mid)",
        },
        "macc_y": {"pt": "R$/t CO2e", "en": "R$/t CO2e"},
        "off_scale": {"pt": "(fora da escala)", "en": "(off the scale)"},
        "clipped_note": {
            "pt": "▼▲ Barra cortada no limite do eixo: o custo real está ao lado dela.",
            "en": "▼▲ Bar cut at the axis' edge: its true cost is written beside it.",
        },
        "measure": {"pt": "Medida", "en": "Measure"},
        "replaces": {"pt": "Substitui", "en": "Replaces"},
        "reduction": {"pt": "Redução (t CO2e/ano)", "en": "Reduction (t CO2e/yr)"},
        "cost": {"pt": "Custo (R$/t CO2e)", "en": "Cost (R$/t CO2e)"},
        "saving": {"pt": "Economia (custo negativo)", "en": "Saving (negative cost)"},
        "paid": {"pt": "Custo positivo", "en": "Positive cost"},
        "unknown": {"pt": "Custo desconhecido", "en": "Cost unknown"},
        "none_drawn": {
            "pt": "Nenhuma ação com custo conhecido",
            "en": "No action with a known cost",
        },
        "path_title": {"pt": "Meta e trajetória", "en": "Target and trajectory"},
        "year": {"pt": "Ano", "en": "Year"},
        "series": {"pt": "Série", "en": "Series"},
        "allowed": {"pt": "Trajetória da meta", "en": "Target path"},
        "expected": {
            "pt": "Esperado com as ações (redução média)",
            "en": "Expected with the actions (mid reduction)",
        },
        "expected_low": {
            "pt": "Esperado com as ações (redução baixa)",
            "en": "Expected with the actions (low reduction)",
        },
        "reported": {"pt": "Reportado", "en": "Reported"},
    },
)


def _lang(lang: str) -> str:
    return "en" if (lang or "").strip().lower().startswith("en") else "pt"


def measure_name(action: Action, lang: str) -> str:
    """The measure as the interface language names it (the other language, then its id)."""
    code = _lang(lang)
    other = "pt" if code == "en" else "en"
    return action.measure.get(code) or action.measure.get(other) or action.measure_id


# --------------------------------------------------------------------------------------------
# MACC
# --------------------------------------------------------------------------------------------


def _drawn(action: Action) -> bool:
    return action.cost_per_t_brl is not None and action.reduction_mid_tco2e > 0


def macc_data(plan_actions: PlanActions) -> list[dict[str, Any]]:
    """The MACC's bars in order: cheapest R$/t first (savings before costs), each as wide as
    its mid reduction, laid end to end from 0. Ties keep the plan's order.

    Each row: ``id``, ``measure`` and ``source`` (pt/en), ``x0``/``x1`` (t CO2e/yr,
    cumulative), ``width`` (the mid reduction), ``low``/``high`` and ``cost`` (R$/t CO2e).
    """
    drawn = sorted(
        (a for a in plan_actions.actions if _drawn(a)),
        key=lambda a: a.cost_per_t_brl,  # type: ignore[arg-type,return-value]
    )
    rows: list[dict[str, Any]] = []
    start = 0.0
    for action in drawn:
        width = action.reduction_mid_tco2e
        rows.append(
            {
                "id": action.id,
                "measure": dict(action.measure),
                "source": dict(action.source),
                "x0": start,
                "x1": start + width,
                "width": width,
                "low": action.reduction_low_tco2e,
                "high": action.reduction_high_tco2e,
                "cost": float(action.cost_per_t_brl),  # type: ignore[arg-type]
            }
        )
        start += width
    return rows


def macc_unknown(plan_actions: PlanActions) -> list[Action]:
    """The actions the MACC cannot draw: no cost per tonne (or no reduction to spread it on)."""
    return [a for a in plan_actions.actions if not _drawn(a)]


def macc_chart(plan_actions: PlanActions, lang: str = "pt") -> alt.LayerChart:
    """One bar per action with a known cost, x from its cumulative start to end, y from 0 to
    its R$/t CO2e, each named with its cost above the plot (a leader line to its column, the
    names spread apart where bars are narrow). The y axis keeps to the costs' robust range
    (``macc_scale``): a far outlier's bar is cut at the edge, marked with a triangle and its
    true cost written beside it. The unknown-cost actions are named under the title."""
    code = _lang(lang)
    rows = macc_data(plan_actions)
    scale = macc_scale([row["cost"] for row in rows])
    total = rows[-1]["x1"] if rows else 0.0
    spread = _spread([(row["x0"] + row["x1"]) / 2 for row in rows], total)
    bars = []
    for row, label_x in zip(rows, spread, strict=True):
        cost = row["cost"]
        end = min(max(cost, scale.domain[0]), scale.domain[1])
        clipped = "low" if cost < scale.low else "high" if cost > scale.high else ""
        cost_text = number(cost, 0, code)
        bars.append(
            {
                "measure": measure_name_of(row, code),
                "source": _source_of(row, code),
                "x0": row["x0"],
                "x1": row["x1"],
                "mid": (row["x0"] + row["x1"]) / 2,
                "zero": 0.0,
                "end": end,
                "top": max(end, 0.0),
                "cost": cost,
                "kind": _TEXTS("saving", code) if cost < 0 else _TEXTS("paid", code),
                "reduction": f"{number(row['low'], lang=code)} – {number(row['high'], lang=code)}",
                "cost_text": number(cost, lang=code),
                "label": f"{short_name(measure_name_of(row, code))} · {cost_text}",
                "label_x": label_x,
                "clipped": clipped,
                "true_cost": f"{cost_text} {_TEXTS('off_scale', code)}" if clipped else "",
            }
        )
    unknown = [measure_name(a, code) for a in macc_unknown(plan_actions)]
    subtitle = _wrap(f"{_TEXTS('unknown', code)}: {'; '.join(unknown)}.") if unknown else []
    if not rows:
        subtitle = [f"{_TEXTS('none_drawn', code)}.", *subtitle]
    if any(bar["clipped"] for bar in bars):
        subtitle.append(_TEXTS("clipped_note", code))
    data = alt.InlineData(values=bars)
    x_scale = alt.Scale(domain=[0.0, total or 1.0], nice=False, zero=True)
    y_scale = alt.Scale(domain=list(scale.domain), nice=False, zero=True)
    x = alt.X("x0:Q", title=_TEXTS("macc_x", code), axis=alt.Axis(format=",.0f"), scale=x_scale)
    y = alt.Y("zero:Q", title=_TEXTS("macc_y", code), axis=alt.Axis(format=",.0f"), scale=y_scale)
    tooltip = [
        alt.Tooltip("measure:N", title=_TEXTS("measure", code)),
        alt.Tooltip("source:N", title=_TEXTS("replaces", code)),
        alt.Tooltip("reduction:N", title=_TEXTS("reduction", code)),
        alt.Tooltip("cost_text:N", title=_TEXTS("cost", code)),
    ]
    base = alt.Chart(data)
    rects = base.mark_rect(stroke="white", strokeWidth=0.5).encode(
        x=x,
        x2="x1:Q",
        y=y,
        y2="end:Q",
        color=alt.Color(
            "kind:N",
            title=None,
            scale=alt.Scale(
                domain=[_TEXTS("saving", code), _TEXTS("paid", code)], range=[_SAVING, _COST]
            ),
            legend=alt.Legend(orient="bottom"),
        ),
        tooltip=tooltip,
    )
    zero_line = (
        alt.Chart(alt.InlineData(values=[{"zero": 0.0}]))
        .mark_rule(color="#555555", strokeWidth=1)
        .encode(y=alt.Y("zero:Q", scale=y_scale))
    )
    # The leader: up the bar's column from its top to the plot's top, then on to its name.
    column = base.mark_rule(color=_LEADER, strokeWidth=0.7, strokeDash=[2, 2]).encode(
        x=alt.X("mid:Q", scale=x_scale), y=alt.Y("top:Q", scale=y_scale), y2=alt.value(0)
    )
    elbow = base.mark_rule(color=_LEADER, strokeWidth=0.7).encode(
        x=alt.X("mid:Q", scale=x_scale),
        x2="label_x:Q",
        y=alt.value(0),
        y2=alt.value(-_ELBOW),
    )
    names = base.mark_text(
        angle=270, align="left", baseline="middle", fontSize=9.5, color=_INK, limit=_LABEL_LIMIT
    ).encode(
        x=alt.X("label_x:Q", scale=x_scale),
        y=alt.value(-_ELBOW - 3),
        text="label:N",
        tooltip=tooltip,
    )
    cut = base.transform_filter(alt.datum.clipped != "")
    marks = cut.mark_point(filled=True, size=70, color=_INK, opacity=1).encode(
        x=alt.X("mid:Q", scale=x_scale),
        y=alt.Y("end:Q", scale=y_scale),
        shape=alt.Shape(
            "clipped:N",
            scale=alt.Scale(domain=["low", "high"], range=["triangle-down", "triangle-up"]),
            legend=None,
        ),
    )
    true_costs = [
        cut.transform_filter(alt.datum.clipped == side)
        .mark_text(
            align="left", baseline=baseline, dx=7, fontSize=10, fontWeight="bold", color=_INK
        )
        .encode(
            x=alt.X("mid:Q", scale=x_scale), y=alt.Y("end:Q", scale=y_scale), text="true_cost:N"
        )
        for side, baseline in (("low", "bottom"), ("high", "top"))
    ]
    chart = alt.layer(
        rects, zero_line, column, elbow, names, marks, *true_costs,
        title=alt.TitleParams(_TEXTS("macc_title", code), subtitle=subtitle),
    ).properties(width=_WIDTH, height=_MACC_HEIGHT, autosize=_AUTOSIZE)  # fmt: skip
    return _localized(chart, code)


@dataclass(frozen=True)
class MaccScale:
    """The MACC's y axis: ``low``..``high`` (R$/t CO2e, 0 always inside) is drawn to scale;
    a cost beyond it is cut at ``domain``'s edge. ``domain`` is the axis, a little wider."""

    low: float
    high: float
    domain: tuple[float, float]


def macc_scale(costs: Sequence[float]) -> MaccScale:
    """The costs' robust range: a cost farther than ``_FENCE`` median absolute deviations
    from the median is an outlier, left off the scale when keeping it would squeeze the
    other bars into less than half the height. With fewer than three costs none is an
    outlier (there is no telling which one is)."""
    values = [float(c) for c in costs]
    low, high = min([0.0, *values]), max([0.0, *values])
    if len(values) >= 3:
        middle = median(values)
        spread = median(abs(v - middle) for v in values)
        kept = [v for v in values if abs(v - middle) <= _FENCE * spread]
        kept_low, kept_high = min([0.0, *kept]), max([0.0, *kept])
        if spread > 0 and kept_high > kept_low and high - low > 2 * (kept_high - kept_low):
            low, high = kept_low, kept_high
    span = (high - low) or 1.0
    pad = _PAD * span
    cut_low = any(v < low for v in values)
    cut_high = any(v > high for v in values)
    bottom = low - (3 * pad if cut_low else pad) if low < 0 or cut_low else 0.0
    top = high + (3 * pad if cut_high else pad) if high > 0 or cut_high else 0.0
    if bottom == top:
        bottom, top = -1.0, 1.0
    return MaccScale(low=low, high=high, domain=(bottom, top))


def short_name(name: str, limit: int = _SHORT_NAME) -> str:
    """A measure's name for a bar label: up to its first qualifier ("Biodiesel B100 (no
    Brasil…)" -> "Biodiesel B100") when that leaves a name, then cut after a word (not a
    dangling "de", "ou", "of"…) with "…"."""
    name = " ".join(name.split())
    head = _QUALIFIER.split(name, maxsplit=1)[0]
    if len(head) >= 8:
        name = head
    if len(name) <= limit:
        return name
    words = name[: limit - 1].split(" ")
    if len(words) > 1 and name[limit - 1] != " ":
        words.pop()  # cut in two
    while len(words) > 1 and words[-1].lower() in _LINKING_WORDS:
        words.pop()
    return " ".join(words).rstrip(" ,;:–—-") + "…"


def _spread(positions: Sequence[float], total: float) -> list[float]:
    """The labels' x (data units), in the bars' order, at least ``_LABEL_GAP`` pixels apart
    on a plot ``_PLOT_WIDTH`` wide: each as near its bar as that allows."""
    n = len(positions)
    if n == 0 or total <= 0:
        return list(positions)
    gap = total * _LABEL_GAP / _PLOT_WIDTH
    if gap * n > total:  # more names than room: evenly spaced, as near as it gets
        gap = total / n
    placed: list[float] = []
    for x in positions:
        placed.append(max(x, gap / 2, placed[-1] + gap if placed else gap / 2))
    placed[-1] = min(placed[-1], total - gap / 2)
    for i in range(n - 2, -1, -1):
        placed[i] = min(placed[i], placed[i + 1] - gap)
    return placed


def measure_name_of(row: dict[str, Any], lang: str) -> str:
    """A ``macc_data`` row's measure in ``lang``."""
    code = _lang(lang)
    names = row.get("measure") or {}
    return names.get(code) or names.get("pt" if code == "en" else "en") or str(row.get("id"))


def _source_of(row: dict[str, Any], lang: str) -> str:
    code = _lang(lang)
    names = row.get("source") or {}
    return names.get(code) or names.get("pt" if code == "en" else "en") or ""


def _wrap(text: str) -> list[str]:
    """``text`` as subtitle lines of at most about ``_SUBTITLE_LINE`` characters."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= _SUBTITLE_LINE:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


# --------------------------------------------------------------------------------------------
# Target path
# --------------------------------------------------------------------------------------------


def path_data(plan_actions: PlanActions, lang: str = "pt") -> pd.DataFrame:
    """Long form (year, tco2e, series): the allowed path, the expected emissions (mid and
    low reductions) and the reported points (the path's actuals, the base year's and the
    inventory year's emissions), one reported value per year."""
    code = _lang(lang)
    rows: list[dict[str, Any]] = []
    for point in sorted(plan_actions.path, key=lambda p: p.year):
        rows += [
            {"year": point.year, "tco2e": point.allowed_tco2e, "series": _TEXTS("allowed", code)},
            {"year": point.year, "tco2e": point.expected_tco2e, "series": _TEXTS("expected", code)},
            {
                "year": point.year,
                "tco2e": point.expected_low_tco2e,
                "series": _TEXTS("expected_low", code),
            },
        ]
    for year, value in sorted(_reported(plan_actions).items()):
        rows.append({"year": year, "tco2e": value, "series": _TEXTS("reported", code)})
    return pd.DataFrame(rows, columns=["year", "tco2e", "series"])


def _reported(plan_actions: PlanActions) -> dict[int, float]:
    reported: dict[int, float] = {}
    target = plan_actions.target
    if target is not None:
        reported[target.base_year] = target.base_tco2e
    if plan_actions.inventory_year is not None and plan_actions.inventory_tco2e:
        reported[plan_actions.inventory_year] = plan_actions.inventory_tco2e
    for point in plan_actions.path:  # what the inventory reported wins over the summaries
        if point.actual_tco2e is not None:
            reported[point.year] = point.actual_tco2e
    return reported


def path_chart(plan_actions: PlanActions, lang: str = "pt") -> alt.LayerChart:
    """The target path (dashed), the expected emissions with the actions (mid, and low as a
    dotted line) and the reported history as points, in t CO2e per year."""
    code = _lang(lang)
    frame = path_data(plan_actions, code)
    order = [_TEXTS(series, code) for series in ("allowed", "expected", "expected_low", "reported")]
    allowed, expected, expected_low, reported = order
    color = alt.Color(
        "series:N",
        title=None,
        scale=alt.Scale(domain=order, range=["#7570b3", _SAVING, "#a6761d", "#333333"]),
        legend=alt.Legend(orient="bottom", columns=2, labelLimit=320),
    )
    x = alt.X(
        "year:Q",
        title=_TEXTS("year", code),
        axis=alt.Axis(format="d", tickMinStep=1),
        scale=alt.Scale(zero=False, nice=False),
    )
    y = alt.Y("tco2e:Q", title="t CO2e", axis=alt.Axis(format=",.0f"))
    tooltip = [
        alt.Tooltip("series:N", title=_TEXTS("series", code)),
        alt.Tooltip("year:Q", title=_TEXTS("year", code), format="d"),
        alt.Tooltip("tco2e:Q", title="t CO2e", format=",.1f"),
    ]
    data = alt.InlineData(values=to_values(frame)["values"])
    base = alt.Chart(data).encode(x=x, y=y, color=color, tooltip=tooltip)
    dashes = {allowed: [6, 4], expected: [1, 0], expected_low: [2, 3]}
    lines = [
        base.transform_filter(alt.datum.series == name).mark_line(strokeDash=dash, strokeWidth=2)
        for name, dash in dashes.items()
    ]
    points = base.transform_filter(alt.datum.series == reported).mark_point(filled=True, size=70)
    chart = alt.layer(*lines, points, title=_TEXTS("path_title", code)).properties(
        width=_WIDTH, height=_HEIGHT, autosize=_AUTOSIZE
    )
    return _localized(chart, code)


# --------------------------------------------------------------------------------------------
# Shared
# --------------------------------------------------------------------------------------------


def _localized(chart: Any, lang: str) -> Any:
    return chart.configure(locale={"number": number_locale(lang)})


def chart_spec(chart: alt.TopLevelMixin) -> dict[str, Any]:
    """The chart's Vega-Lite spec with every data set inline, whatever Altair's (process-
    wide) data transformer is at the moment. Streamlit switches that transformer to its own
    while it draws a chart, from its script threads: a data frame serialised meanwhile comes
    out as a bare reference to a data set it keeps for itself, and the PNG as empty axes.
    Frames are turned into values here, on a copy, so ``to_dict`` has nothing to transform."""
    return _inlined(chart.copy(deep=True)).to_dict()


def _inlined(chart: Any) -> Any:
    data = getattr(chart, "data", alt.Undefined)
    if isinstance(data, pd.DataFrame):
        chart.data = alt.InlineData(values=to_values(data)["values"])
    for name in ("layer", "hconcat", "vconcat", "concat"):
        for part in getattr(chart, name, None) or ():
            _inlined(part)
    inner = getattr(chart, "spec", alt.Undefined)
    if inner is not alt.Undefined and not isinstance(inner, dict):
        _inlined(inner)
    return chart


def chart_png(chart: alt.TopLevelMixin, scale: float = 2) -> bytes:
    """The chart as PNG bytes, drawn by vl-convert (no browser) in the bundled DejaVu Sans.
    Its data is inline (``chart_spec``); no external URL is ever fetched. Safe from any
    thread: nothing here reads or changes Altair's global settings."""
    return _vl_convert().vegalite_to_png(
        chart_spec(chart), scale=scale, config={"font": _PNG_FONT}, allowed_base_urls=[]
    )


_VL_LOCK = threading.Lock()
_VL: list[Any] = []  # the vl_convert module, once its fonts are registered


def _vl_convert() -> Any:
    with _VL_LOCK:  # two first exports at once register the fonts once
        if not _VL:
            import vl_convert  # loaded on first use: its JavaScript runtime is large

            vl_convert.register_font_directory(str(_FONT_DIR))
            _VL.append(vl_convert)
        return _VL[0]
