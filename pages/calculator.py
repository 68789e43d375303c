"""Calculator: activity data × emission factor, with every factor's source; rows can join
the open inventory."""

from datetime import date

import streamlit as st

from application import inventories
from application.safe_text import sanitize
from components import open_inventory
from components.context import current
from components.factors import factors_table
from components.gwp_default import default_index
from components.i18n import language, number, t
from engine.emissions import EmissionsError, activities, estimate
from engine.inventory import GWP_SETS

# The units offered for each dimension an activity can be measured in.
_UNITS = {
    "volume": ("L", "m³", "gal"),
    "mass": ("kg", "t"),
    "energy": ("kWh", "MWh", "GJ", "TJ"),
}

context = current()
st.title(t("calc_title"))
st.caption(t("calc_caption"))
lang = language()

known = sorted(activities(), key=lambda a: (a.scope, a.category, a.label(lang)))
activity = st.selectbox(
    t("calc_activity"),
    known,
    format_func=lambda a: f"{a.label(lang)} · {a.category if lang == 'pt' else a.category_en}",
)
units = [unit for dimension in activity.units for unit in _UNITS.get(dimension, ())]
amount_col, unit_col, period_col, gwp_col = st.columns([2, 1, 1, 1])
quantity = amount_col.number_input(t("calc_quantity"), min_value=0.0, value=1000.0, step=100.0)
unit = unit_col.selectbox(t("calc_unit"), units)
period = period_col.text_input(
    t("calc_period"),
    value=open_inventory.year() or str(date.today().year),
    help=t("calc_period_help"),
).strip()
gwp_set = gwp_col.selectbox(
    "GWP", GWP_SETS, index=default_index(context), help=t("gwp_choice_note")
)

own = open_inventory.own_factors()
try:
    library = inventories.own_factors(*own) if own else None
    result = estimate(
        activity.id, quantity, unit, date_or_year=period, gwp_set=gwp_set, factors=library
    )
except EmissionsError as error:
    st.error(error.message(lang), icon=":material/error:")
    st.stop()
if own:
    st.caption(t("calc_own_factors", name=sanitize(own[0])))

total, biogenic, montreal = st.columns(3)
total.metric(t("calc_result", scope=result.scope), f"{number(result.tco2e, 3)} t CO2e")
biogenic.metric(t("calc_biogenic"), f"{number(result.biogenic_co2_t, 3)} t CO2")
montreal.metric(t("calc_montreal"), f"{number(sum(result.montreal_t.values()), 3)} t")
with st.container(border=True):
    st.markdown(f"**{t('calc_how')}**")
    st.markdown(sanitize(result.explain(lang)))
st.markdown(f"**{t('calc_factors')}**")
factors_table(result.factors)

if open_inventory.upload() is None:
    st.caption(t("calc_no_inventory"))
elif st.button(t("calc_add"), icon=":material/playlist_add:"):
    row = {"activity": activity.id, "quantity": quantity, "unit": unit, "period": period}
    st.success(t("calc_added", n=open_inventory.add_row(row)), icon=":material/check:")
