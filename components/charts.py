"""Altair charts of an inventory: by scope, gas and category, the Pareto of sources and the
evolution by year, with scope labels and numbers in the interface language."""

from __future__ import annotations

import altair as alt
import pandas as pd

from components.i18n import TEXTS
from engine.inventory import Inventory

_LABEL_LIMIT = 220
# d3-format number locales (https://github.com/d3/d3-format/tree/main/locale), set per view
# with Vega's ``config.locale``: axes and tooltips read 1.234,5 in Portuguese. (vega-embed's
# ``formatLocale`` option is global and Streamlit drops it from ``usermeta.embedOptions``.)
_NUMBER_LOCALES = {
    "pt": {"decimal": ",", "thousands": ".", "grouping": [3], "currency": ["R$", ""]},
    "en": {"decimal": ".", "thousands": ",", "grouping": [3], "currency": ["$", ""]},
}


def _text(key: str, lang: str, **values: object) -> str:
    text = TEXTS[key]["en" if lang == "en" else "pt"]
    return text.format(**values) if values else text


def number_locale(lang: str) -> dict:
    return _NUMBER_LOCALES["en" if lang == "en" else "pt"]


def _localized(chart: alt.Chart | alt.LayerChart, lang: str) -> alt.Chart | alt.LayerChart:
    return chart.configure(locale={"number": number_locale(lang)})


def scope_label(scope: object, lang: str = "pt") -> object:
    """'1' → 'Escopo 1' / 'Scope 1'; anything else (None, '(não informado)') as it is."""
    if scope is None or (isinstance(scope, float) and pd.isna(scope)):
        return scope
    value = str(scope).strip()
    return _text("scope_label", lang, scope=value) if value in {"1", "2", "3"} else scope


def _values(totals: pd.DataFrame, field: str, lang: str) -> pd.Series:
    values = totals[field]
    if field == "scope":
        return values.map(
            lambda s: _text("inv_scope2_location", lang) if str(s) == "2" else scope_label(s, lang)
        )
    return values


def _bars(totals: pd.DataFrame, field: str, title: str, lang: str) -> alt.Chart:
    data = totals.head(12).copy()
    data["value"] = _values(data, field, lang).astype(str)
    data = data[["value", "tco2e", "share"]]
    field_title = _text(f"field_{field}", lang) if f"field_{field}" in TEXTS else field
    chart = (
        alt.Chart(data, title=title)
        .mark_bar()
        .encode(
            y=alt.Y("value:N", sort="-x", title=None, axis=alt.Axis(labelLimit=_LABEL_LIMIT)),
            x=alt.X("tco2e:Q", title="t CO2e"),
            tooltip=[
                alt.Tooltip("value:N", title=field_title),
                alt.Tooltip("tco2e:Q", title="t CO2e", format=",.1f"),
                alt.Tooltip("share:Q", title="%", format=".1%"),
            ],
        )
    )
    return _localized(chart, lang)


def by_field(inventory: Inventory, field: str, title: str, lang: str = "pt") -> alt.Chart:
    return _bars(inventory.totals_by(field), field, title, lang)


def pareto(inventory: Inventory, title: str, top: int = 15, lang: str = "pt") -> alt.LayerChart:
    data = inventory.pareto(top=top).copy()
    data["label"] = [f"{i + 1}. {s}" for i, s in enumerate(data["source"].astype(str))]
    base = alt.Chart(data, title=title).encode(
        x=alt.X("label:N", sort=None, title=None, axis=alt.Axis(labelAngle=-40, labelLimit=160))
    )
    bars = base.mark_bar().encode(
        y=alt.Y("tco2e:Q", title="t CO2e"),
        tooltip=[
            alt.Tooltip("source:N", title=_text("field_source", lang)),
            alt.Tooltip("gas:N", title=_text("field_gas", lang)),
            alt.Tooltip("tco2e:Q", title="t CO2e", format=",.1f"),
            alt.Tooltip("cumulative_share:Q", title=_text("chart_cumulative", lang), format=".1%"),
        ],
    )
    line = base.mark_line(point=True, color="#d95f02").encode(
        y=alt.Y(
            "cumulative_share:Q",
            title="%",
            axis=alt.Axis(format="%"),
            scale=alt.Scale(domain=[0, 1]),
        )
    )
    return _localized(alt.layer(bars, line).resolve_scale(y="independent"), lang)


def evolution(inventory: Inventory, title: str, lang: str = "pt") -> alt.Chart:
    """t CO2e per year (location-based Scope 2, memo items apart), the change in the tooltip."""
    data = inventory.year_over_year().copy()
    year = _text("chart_year", lang)
    chart = (
        alt.Chart(data, title=title)
        .mark_bar()
        .encode(
            x=alt.X("year:O", title=year, axis=alt.Axis(labelAngle=0)),
            y=alt.Y("tco2e:Q", title="t CO2e"),
            tooltip=[
                alt.Tooltip("year:O", title=year),
                alt.Tooltip("tco2e:Q", title="t CO2e", format=",.1f"),
                alt.Tooltip("change_pct:Q", title=_text("chart_change", lang), format="+.1%"),
            ],
        )
    )
    return _localized(chart, lang)
