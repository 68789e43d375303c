"""The emission factors an estimate or an inventory used: value, unit, source, period, owner,
as a person reads them in the interface language.

Everything a factor row shows goes through the helpers here: the value in the language's
notation with all its digits (74.100 / 74,100; 3,9 / 3.9), the unit as people write it
(``unit_text``: kg/m³, kg CH4/TJ, t CO2/MWh, %), the activity by its name, never its id, the
citation with the publication's title as published and our words around it in the language,
the validity with the language's dates.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import pandas as pd
import streamlit as st

from application.safe_text import csv_safe_frame, sanitize
from components.i18n import TEXTS, language, number, t
from engine.emissions import FactorUse, activities
from engine.emissions.explain import num
from engine.emissions.units import unit_label

_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


def unit_text(unit: str, gas: str = "-", lang: str | None = None) -> str:
    """A factor's unit as people write it, in ``lang`` (the interface's by default): the
    engine's ``unit_label``, the one helper the answers' sources use too."""
    return unit_label(unit, gas, lang or language())


def value_text(value: float, unit: str, lang: str | None = None) -> str:
    """A factor's value with all its digits, in the language's notation (a fraction as %)."""
    lang = lang or language()
    shown = value * 100 if unit.strip() == "fraction" else value
    return num(shown, lang, digits=10)


def validity_text(period: str, lang: str | None = None) -> str:
    """'2024-03-01 – 2025-07-31' as '01/03/2024 – 31/07/2025' in Portuguese; an open end
    as 'desde 01/08/2025' ('from 2025-08-01'); no validity as '—'."""
    lang = lang or language()
    period = (period or "").strip()
    if not period:
        return "—"
    if lang == "pt":
        period = _DATE.sub(lambda m: f"{m[3]}/{m[2]}/{m[1]}", period)
    if period.endswith("–"):
        return TEXTS("fac_since", lang, start=period.removesuffix("–").strip())
    if period.startswith("–"):
        return TEXTS("fac_until", lang, end=period.removeprefix("–").strip())
    return period


def activity_name(activity_id: str, lang: str | None = None) -> str:
    """An activity by its name in ``lang`` ('diesel_road' -> 'Óleo diesel B (transporte
    rodoviário)'); a refrigerant or gas the catalogue lists by prefix keeps its gas name."""
    lang = lang or language()
    known = {a.id: a for a in activities()}
    if activity_id in known:
        return known[activity_id].label(lang)
    for prefix in ("refrigerant:", "gas:"):
        if activity_id.startswith(prefix):
            return activity_id.removeprefix(prefix)
    return activity_id


def factors_table(factors: Iterable[FactorUse]) -> None:
    """One row per distinct factor; the user's own factors are marked as such."""
    lang = language()
    rows = {}
    for use in factors:
        key = (use.key, use.gas, use.value, use.unit, use.period, use.user)
        rows[key] = {
            t("fac_role"): use.label(lang),
            t("fac_value"): value_text(use.value, use.unit, lang),
            t("fac_unit"): unit_text(use.unit, use.gas, lang),
            t("fac_source"): sanitize(use.source_in(lang)),
            t("fac_period"): validity_text(use.period, lang),
            t("fac_owner"): t("fac_user") if use.user else t("fac_library"),
        }
    if not rows:
        st.caption(t("fac_none"))
        return
    st.dataframe(csv_safe_frame(pd.DataFrame(rows.values())), hide_index=True)


def inventory_factors(used: pd.DataFrame) -> None:
    """The factors an inventory's activity rows were computed or checked with, per sheet."""
    if used.empty:
        st.caption(t("fac_none"))
        return
    lang = language()
    pt = lang == "pt"
    role = used["role"] if pt or "role_en" not in used else used["role_en"].fillna(used["role"])
    source = (
        used["source_pt"].fillna(used["source"]) if pt and "source_pt" in used else used["source"]
    )
    shown = pd.DataFrame(
        {
            t("col_sheet"): used["sheet"].map(sanitize),
            t("calc_activity"): used["activity"].map(lambda a: activity_name(str(a), lang)),
            t("fac_role"): role,
            t("fac_value"): [
                value_text(v, u, lang) for v, u in zip(used["value"], used["unit"], strict=True)
            ],
            t("fac_unit"): [
                unit_text(u, g, lang) for u, g in zip(used["unit"], used["gas"], strict=True)
            ],
            t("fac_source"): source.map(sanitize),
            t("fac_period"): used["validity"].map(lambda p: validity_text(p, lang)),
            t("fac_owner"): used["user"].map(lambda mine: t("fac_user" if mine else "fac_library")),
            t("inv_rows"): used["rows"].map(lambda n: number(n, 0)),
        }
    )
    st.dataframe(csv_safe_frame(shown), hide_index=True)
