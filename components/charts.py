"""Altair charts of an inventory: by scope, gas and category, the Pareto of sources and the
evolution by year, with scope labels and numbers in the interface language."""

from __future__ import annotations

import altair as alt
import pandas as pd

from application.plan_charts import number_locale
from components.i18n import TEXTS
from engine.inventory import Inventory
from engine.inventory.analytics import UNKNOWN

_LABEL_LIMIT = 220
_PARETO_LABEL_LIMIT = 520  # pixels: the Pareto is drawn across the page
_LINE = "#d95f02"  # the cumulative share, apart from the bars' blue


# d3-format number locales (https://github.com/d3/d3-format/tree/main/locale), set per view
# with Vega's ``config.locale``: axes and tooltips read 1.234,5 in Portuguese. (vega-embed's
# ``formatLocale`` option is global and Streamlit drops it from ``usermeta.embedOptions``.)
def _localized(chart: alt.Chart | alt.LayerChart, lang: str) -> alt.Chart | alt.LayerChart:
    return chart.configure(locale={"number": number_locale(lang)})


def scope_label(scope: object, lang: str = "pt") -> object:
    """'1' → 'Escopo 1' / 'Scope 1'; a value left blank in the workbook ('(não informado)')
    in the interface language; anything else (None) as it is."""
    if scope is None or (isinstance(scope, float) and pd.isna(scope)):
        return scope
    value = str(scope).strip()
    if value == UNKNOWN:
        return TEXTS("chart_unknown", lang)
    return TEXTS("scope_label", lang, scope=value) if value in {"1", "2", "3"} else scope


def value_label(value: object, lang: str) -> str:
    """A label as the charts show it: a blank of the workbook in the interface language."""
    return TEXTS("chart_unknown", lang) if str(value) == UNKNOWN else str(value)


def _values(totals: pd.DataFrame, field: str, lang: str) -> pd.Series:
    values = totals[field]
    if field == "scope":
        return values.map(
            lambda s: TEXTS("inv_scope2_location", lang) if str(s) == "2" else scope_label(s, lang)
        )
    return values.map(lambda value: value_label(value, lang))


# Value labels: t CO2e with one decimal in the view's number locale (1.234,5 / 1,234.5).
_VALUE_FORMAT = ",.1f"


def _room_for_labels(values: pd.Series) -> alt.Scale:
    """The value axis, with room past the longest bar for its label."""
    low, high = float(min(values.min(), 0.0)), float(max(values.max(), 0.0))
    return alt.Scale(domain=[low * 1.25 if low < 0 else 0.0, high * 1.25 or 1.0], nice=False)


def _bars(totals: pd.DataFrame, field: str, title: str, lang: str) -> alt.LayerChart:
    data = totals.head(12).copy()
    data["value"] = _values(data, field, lang).astype(str)
    data = data[["value", "tco2e", "share"]]
    field_title = TEXTS(f"field_{field}", lang) if f"field_{field}" in TEXTS else field
    base = alt.Chart(data).encode(
        y=alt.Y("value:N", sort="-x", title=None, axis=alt.Axis(labelLimit=_LABEL_LIMIT)),
        x=alt.X("tco2e:Q", title="t CO2e", scale=_room_for_labels(data["tco2e"])),
        tooltip=[
            alt.Tooltip("value:N", title=field_title),
            alt.Tooltip("tco2e:Q", title="t CO2e", format=_VALUE_FORMAT),
            alt.Tooltip("share:Q", title="%", format=".1%"),
        ],
    )
    bars = base.mark_bar()
    labels = base.mark_text(align="left", baseline="middle", dx=3).encode(
        text=alt.Text("tco2e:Q", format=_VALUE_FORMAT)
    )
    return _localized(alt.layer(bars, labels, title=title), lang)


def by_field(inventory: Inventory, field: str, title: str, lang: str = "pt") -> alt.LayerChart:
    return _bars(inventory.totals_by(field), field, title, lang)


# A bar's name, each part cut short (the whole name is in its tooltip): the source first,
# what emits, then where.
_SOURCE_CHARS, _FUEL_CHARS, _FACILITY_CHARS = 40, 24, 30


def _short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def pareto_data(inventory: Inventory, top: int = 15, lang: str = "pt") -> pd.DataFrame:
    """One bar per source at each facility (its gases added up), largest first: ``name``
    (source · fuel, where one source burns several · facility), ``label`` (its rank and that
    name, each part cut short), ``tco2e``, ``share`` and ``cumulative_share`` of the total, and the
    facility, source, fuel and gases for the tooltip."""
    rows = inventory.pareto().copy()
    columns = ["rank", "label", "name", "facility", "source", "fuel", "gases", "tco2e",
               "share", "cumulative_share"]  # fmt: skip
    if rows.empty:
        return pd.DataFrame(columns=columns)
    for column in ("facility", "source", "fuel", "gas"):
        rows[column] = rows[column].map(lambda value: value_label(value, lang))
    keys = ["facility", "source", "fuel"]
    grouped = (
        rows.groupby(keys, sort=False)
        .agg(tco2e=("tco2e", "sum"), gases=("gas", lambda gases: ", ".join(dict.fromkeys(gases))))
        .reset_index()
        .sort_values("tco2e", ascending=False, kind="stable")
    )
    total = float(rows["tco2e"].sum())
    grouped["share"] = grouped["tco2e"] / total if total else 0.0
    grouped["cumulative_share"] = grouped["share"].cumsum()
    grouped = grouped.head(top).reset_index(drop=True)
    unknown = TEXTS("chart_unknown", lang)
    # The fuel is named only where one source at one facility burns several.
    several = grouped.duplicated(["facility", "source"], keep=False)
    full, short = [], []
    for facility, source, fuel, again in zip(
        grouped["facility"], grouped["source"], grouped["fuel"], several, strict=True
    ):
        parts = [(source, _SOURCE_CHARS)]
        if again and fuel != unknown:
            parts.append((fuel, _FUEL_CHARS))
        if facility != unknown:
            parts.append((facility, _FACILITY_CHARS))
        full.append(" · ".join(text for text, _ in parts))
        short.append(" · ".join(_short(text, limit) for text, limit in parts))
    grouped["name"] = full
    grouped["rank"] = range(1, len(grouped) + 1)
    ranks = grouped["rank"]
    grouped["label"] = [f"{rank}. {name}" for rank, name in zip(ranks, short, strict=True)]
    return grouped[columns]


def pareto(inventory: Inventory, title: str, top: int = 15, lang: str = "pt") -> alt.LayerChart:
    """The largest sources, one horizontal bar each with its value, named by facility and
    source (the whole name in the tooltip); the cumulative share on the top axis."""
    data = pareto_data(inventory, top=top, lang=lang)
    base = alt.Chart(data).encode(
        y=alt.Y("label:N", sort=None, title=None, axis=alt.Axis(labelLimit=_PARETO_LABEL_LIMIT)),
        tooltip=[
            alt.Tooltip("rank:O", title=TEXTS("chart_rank", lang)),
            alt.Tooltip("facility:N", title=TEXTS("field_facility", lang)),
            alt.Tooltip("source:N", title=TEXTS("field_source", lang)),
            alt.Tooltip("fuel:N", title=TEXTS("field_fuel", lang)),
            alt.Tooltip("gases:N", title=TEXTS("field_gas", lang)),
            alt.Tooltip("tco2e:Q", title="t CO2e", format=_VALUE_FORMAT),
            alt.Tooltip("cumulative_share:Q", title=TEXTS("chart_cumulative", lang), format=".1%"),
        ],
    )
    values = alt.X("tco2e:Q", title="t CO2e", scale=_room_for_labels(data["tco2e"]))
    bars = base.mark_bar().encode(x=values)
    labels = base.mark_text(align="left", baseline="middle", dx=3).encode(
        x=values, text=alt.Text("tco2e:Q", format=_VALUE_FORMAT)
    )
    line = base.mark_line(point=alt.OverlayMarkDef(color=_LINE), color=_LINE).encode(
        x=alt.X(
            "cumulative_share:Q",
            title=TEXTS("chart_cumulative", lang),
            axis=alt.Axis(format="%", orient="top"),
            scale=alt.Scale(domain=[0, 1]),
        )
    )
    # The bars and their labels share the t CO2e axis; the cumulative line has its own.
    chart = alt.layer(alt.layer(bars, labels), line, title=title).resolve_scale(x="independent")
    return _localized(chart.properties(height=alt.Step(24)), lang)


def evolution(inventory: Inventory, title: str, lang: str = "pt") -> alt.LayerChart:
    """t CO2e per year (location-based Scope 2, memo items apart), the change in the tooltip."""
    data = inventory.year_over_year().copy()
    year = TEXTS("chart_year", lang)
    base = alt.Chart(data).encode(
        x=alt.X("year:O", title=year, axis=alt.Axis(labelAngle=0)),
        y=alt.Y("tco2e:Q", title="t CO2e", scale=_room_for_labels(data["tco2e"])),
        tooltip=[
            alt.Tooltip("year:O", title=year),
            alt.Tooltip("tco2e:Q", title="t CO2e", format=_VALUE_FORMAT),
            alt.Tooltip("change_pct:Q", title=TEXTS("chart_change", lang), format="+.1%"),
        ],
    )
    labels = base.mark_text(baseline="bottom", dy=-3).encode(
        text=alt.Text("tco2e:Q", format=_VALUE_FORMAT)
    )
    return _localized(alt.layer(base.mark_bar(), labels, title=title), lang)
