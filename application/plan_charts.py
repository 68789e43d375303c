"""A plan's charts: the marginal abatement cost curve (MACC) of its actions and the path to
its target, as Altair charts for the page and as PNG (``vl_convert``) for the exports.

No Streamlit. Numbers read as the interface language writes them: the axes through Vega's
``config.locale`` (d3-format), the tooltips as text already formatted by
``engine.formatting``. An action whose cost is unknown is never drawn with a made-up cost: it
is named under the MACC's title as "custo desconhecido" / "cost unknown".
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import altair as alt
import pandas as pd

from engine.actions.model import Action, PlanActions
from engine.formatting import number

__all__ = [
    "chart_png",
    "macc_chart",
    "macc_data",
    "macc_unknown",
    "measure_name",
    "measure_name_of",
    "path_chart",
    "path_data",
]

# d3-format number locales, set per chart with Vega's ``config.locale`` (the same ones the
# inventory charts use in components.charts; the application layer cannot import those).
_NUMBER_LOCALES: dict[str, dict[str, Any]] = {
    "pt": {"decimal": ",", "thousands": ".", "grouping": [3], "currency": ["R$", ""]},
    "en": {"decimal": ".", "thousands": ",", "grouping": [3], "currency": ["$", ""]},
}
_WIDTH, _HEIGHT = 640, 320
_SAVING, _COST = "#1b9e77", "#d95f02"
_SUBTITLE_LINE = 100  # characters: the unknown-cost names wrap under the title
# The PNGs are drawn in the fonts the PDF embeds, whatever the server has installed.
_FONT_DIR = Path(__file__).parent / "exports" / "fonts"
_PNG_FONT = "DejaVu Sans"

_WORDS: dict[str, dict[str, str]] = {
    "pt": {
        "macc_title": "Curva de custo marginal de abatimento (MACC)",
        "macc_x": "Redução acumulada (t CO2e/ano, média)",
        "macc_y": "R$/t CO2e",
        "measure": "Medida",
        "replaces": "Substitui",
        "reduction": "Redução (t CO2e/ano)",
        "cost": "Custo (R$/t CO2e)",
        "saving": "Economia (custo negativo)",
        "paid": "Custo positivo",
        "unknown": "Custo desconhecido",
        "none_drawn": "Nenhuma ação com custo conhecido",
        "path_title": "Meta e trajetória",
        "year": "Ano",
        "series": "Série",
        "allowed": "Trajetória da meta",
        "expected": "Esperado com as ações (redução média)",
        "expected_low": "Esperado com as ações (redução baixa)",
        "reported": "Reportado",
    },
    "en": {
        "macc_title": "Marginal abatement cost curve (MACC)",
        "macc_x": "Cumulative reduction (t CO2e/yr, mid)",
        "macc_y": "R$/t CO2e",
        "measure": "Measure",
        "replaces": "Replaces",
        "reduction": "Reduction (t CO2e/yr)",
        "cost": "Cost (R$/t CO2e)",
        "saving": "Saving (negative cost)",
        "paid": "Positive cost",
        "unknown": "Cost unknown",
        "none_drawn": "No action with a known cost",
        "path_title": "Target and trajectory",
        "year": "Year",
        "series": "Series",
        "allowed": "Target path",
        "expected": "Expected with the actions (mid reduction)",
        "expected_low": "Expected with the actions (low reduction)",
        "reported": "Reported",
    },
}


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


def macc_chart(plan_actions: PlanActions, lang: str = "pt") -> alt.Chart:
    """One bar per action with a known cost, x from its cumulative start to end, y from 0 to
    its R$/t CO2e; the unknown-cost actions are named under the title."""
    code = _lang(lang)
    words = _WORDS[code]
    rows = macc_data(plan_actions)
    frame = pd.DataFrame(
        [
            {
                "measure": measure_name_of(row, code),
                "source": _source_of(row, code),
                "x0": row["x0"],
                "x1": row["x1"],
                "zero": 0.0,
                "cost": row["cost"],
                "kind": words["saving"] if row["cost"] < 0 else words["paid"],
                "reduction": f"{number(row['low'], lang=code)} – {number(row['high'], lang=code)}",
                "cost_text": number(row["cost"], lang=code),
            }
            for row in rows
        ],
        columns=[
            "measure", "source", "x0", "x1", "zero", "cost", "kind", "reduction", "cost_text",
        ],
    )  # fmt: skip
    unknown = [measure_name(a, code) for a in macc_unknown(plan_actions)]
    subtitle = _wrap(f"{words['unknown']}: {'; '.join(unknown)}.") if unknown else []
    if not rows:
        subtitle = [f"{words['none_drawn']}.", *subtitle]
    chart = (
        alt.Chart(frame, title=alt.TitleParams(words["macc_title"], subtitle=subtitle))
        .mark_rect(stroke="white", strokeWidth=1)
        .encode(
            x=alt.X("x0:Q", title=words["macc_x"], axis=alt.Axis(format=",.0f")),
            x2="x1:Q",
            y=alt.Y("zero:Q", title=words["macc_y"], axis=alt.Axis(format=",.0f")),
            y2="cost:Q",
            color=alt.Color(
                "kind:N",
                title=None,
                scale=alt.Scale(domain=[words["saving"], words["paid"]], range=[_SAVING, _COST]),
                legend=alt.Legend(orient="bottom"),
            ),
            tooltip=[
                alt.Tooltip("measure:N", title=words["measure"]),
                alt.Tooltip("source:N", title=words["replaces"]),
                alt.Tooltip("reduction:N", title=words["reduction"]),
                alt.Tooltip("cost_text:N", title=words["cost"]),
            ],
        )
        .properties(width=_WIDTH, height=_HEIGHT)
    )
    return _localized(chart, code)


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
    words = _WORDS[_lang(lang)]
    rows: list[dict[str, Any]] = []
    for point in sorted(plan_actions.path, key=lambda p: p.year):
        rows += [
            {"year": point.year, "tco2e": point.allowed_tco2e, "series": words["allowed"]},
            {"year": point.year, "tco2e": point.expected_tco2e, "series": words["expected"]},
            {
                "year": point.year,
                "tco2e": point.expected_low_tco2e,
                "series": words["expected_low"],
            },
        ]
    for year, value in sorted(_reported(plan_actions).items()):
        rows.append({"year": year, "tco2e": value, "series": words["reported"]})
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
    words = _WORDS[code]
    frame = path_data(plan_actions, code)
    order = [words["allowed"], words["expected"], words["expected_low"], words["reported"]]
    color = alt.Color(
        "series:N",
        title=None,
        scale=alt.Scale(domain=order, range=["#7570b3", _SAVING, "#a6761d", "#333333"]),
        legend=alt.Legend(orient="bottom", columns=2, labelLimit=320),
    )
    x = alt.X(
        "year:Q",
        title=words["year"],
        axis=alt.Axis(format="d", tickMinStep=1),
        scale=alt.Scale(zero=False, nice=False),
    )
    y = alt.Y("tco2e:Q", title="t CO2e", axis=alt.Axis(format=",.0f"))
    tooltip = [
        alt.Tooltip("series:N", title=words["series"]),
        alt.Tooltip("year:Q", title=words["year"], format="d"),
        alt.Tooltip("tco2e:Q", title="t CO2e", format=",.1f"),
    ]
    base = alt.Chart(frame).encode(x=x, y=y, color=color, tooltip=tooltip)
    dashes = {words["allowed"]: [6, 4], words["expected"]: [1, 0], words["expected_low"]: [2, 3]}
    lines = [
        base.transform_filter(alt.datum.series == name).mark_line(strokeDash=dash, strokeWidth=2)
        for name, dash in dashes.items()
    ]
    points = base.transform_filter(alt.datum.series == words["reported"]).mark_point(
        filled=True, size=70
    )
    chart = alt.layer(*lines, points, title=words["path_title"]).properties(
        width=_WIDTH, height=_HEIGHT
    )
    return _localized(chart, code)


# --------------------------------------------------------------------------------------------
# Shared
# --------------------------------------------------------------------------------------------


def _localized(chart: Any, lang: str) -> Any:
    return chart.configure(locale={"number": _NUMBER_LOCALES[_lang(lang)]})


def chart_png(chart: alt.TopLevelMixin, scale: float = 2) -> bytes:
    """The chart as PNG bytes, drawn by vl-convert (no browser) in the bundled DejaVu Sans.
    Its data is inline; no external URL is ever fetched."""
    return _vl_convert().vegalite_to_png(
        chart.to_dict(), scale=scale, config={"font": _PNG_FONT}, allowed_base_urls=[]
    )


@cache
def _vl_convert() -> Any:
    import vl_convert  # loaded on first use: its JavaScript runtime is large

    vl_convert.register_font_directory(str(_FONT_DIR))
    return vl_convert
