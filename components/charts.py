"""Altair charts of an inventory: by scope, gas and category, and the Pareto of sources."""

from __future__ import annotations

import altair as alt
import pandas as pd

from engine.inventory import Inventory

_LABEL_LIMIT = 220


def _bars(totals: pd.DataFrame, field: str, title: str) -> alt.Chart:
    data = totals.rename(columns={field: "value"}).head(12)
    data["value"] = data["value"].astype(str)
    return (
        alt.Chart(data, title=title)
        .mark_bar()
        .encode(
            y=alt.Y("value:N", sort="-x", title=None, axis=alt.Axis(labelLimit=_LABEL_LIMIT)),
            x=alt.X("tco2e:Q", title="t CO2e"),
            tooltip=[
                alt.Tooltip("value:N", title=field),
                alt.Tooltip("tco2e:Q", title="t CO2e", format=",.1f"),
                alt.Tooltip("share:Q", title="%", format=".1%"),
            ],
        )
    )


def by_field(inventory: Inventory, field: str, title: str) -> alt.Chart:
    return _bars(inventory.totals_by(field), field, title)


def pareto(inventory: Inventory, title: str, top: int = 15) -> alt.LayerChart:
    data = inventory.pareto(top=top).copy()
    data["label"] = [f"{i + 1}. {s}" for i, s in enumerate(data["source"].astype(str))]
    base = alt.Chart(data, title=title).encode(
        x=alt.X("label:N", sort=None, title=None, axis=alt.Axis(labelAngle=-40, labelLimit=160))
    )
    bars = base.mark_bar().encode(
        y=alt.Y("tco2e:Q", title="t CO2e"),
        tooltip=[
            alt.Tooltip("source:N"),
            alt.Tooltip("gas:N"),
            alt.Tooltip("tco2e:Q", format=",.1f"),
            alt.Tooltip("cumulative_share:Q", format=".1%"),
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
    return alt.layer(bars, line).resolve_scale(y="independent")
