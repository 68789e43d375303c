"""Calculator: activity data × emission factor, with every factor's source; rows can join
the open inventory.

It opens on diesel in trucks (road transport), 1,000 L, this year (or the open inventory's).
The inputs are kept for the browser session, so a trip to another page and back finds them
as they were. When its period is not the year the chat assumes for a question that names
none, and that changes the answer, a caption says why: the blend (or factor) in force."""

import math

import streamlit as st

from application import inventories
from application.safe_text import sanitize
from components import clock, open_inventory
from components.context import current
from components.factors import factors_table, unit_text, value_text
from components.gwp_default import default_index
from components.i18n import language, number, t
from engine.emissions import EmissionsError, Estimate, activities, estimate
from engine.emissions.results import SHARE_ROLES
from engine.inventory import GWP_SETS

# The units offered for each dimension an activity can be measured in.
_UNITS = {
    "volume": ("L", "m³", "gal"),
    "mass": ("kg", "t"),
    "energy": ("kWh", "MWh", "GJ", "TJ"),
}
DEFAULT_ACTIVITY = "diesel_road"  # diesel in trucks: the most common line of an inventory
DEFAULT_QUANTITY = 1000.0
# Widget keys: Streamlit keeps their values across pages (persist_state="session"); the
# period is kept apart, and only once the user changed it, so a default follows the open
# inventory's year.
ACTIVITY, QUANTITY, UNIT, PERIOD, GWP = (
    "calc-activity", "calc-quantity", "calc-unit", "calc-period", "calc-gwp",
)  # fmt: skip
PERIOD_KEPT = "aeko_calc_period"


def _quantity_format(value: float | None) -> str:
    """Decimals the quantity has, none for a whole number (1000, not 1000.00)."""
    if value is None or not math.isfinite(value) or float(value).is_integer():
        return "%.0f"
    decimals = min(6, len(f"{value:.6f}".rstrip("0").split(".")[1]))
    return f"%.{decimals}f"


def _blend_text(result: Estimate, lang: str) -> str | None:
    shares = [u for u in result.factors if u.key in SHARE_ROLES]
    if not shares:
        return None
    return ", ".join(
        f"{u.label(lang)} {value_text(u.value, u.unit, lang)}{unit_text(u.unit, u.gas, lang)}"
        for u in shares
    )


context = current()
st.title(t("calc_title"))
st.caption(t("calc_caption"))
lang = language()
today = clock.today()

known = sorted(activities(), key=lambda a: (a.scope, a.category, a.label(lang)))
default_activity = next((i for i, a in enumerate(known) if a.id == DEFAULT_ACTIVITY), 0)
activity = st.selectbox(
    t("calc_activity"),
    known,
    index=default_activity,
    format_func=lambda a: f"{a.label(lang)} · {a.category if lang == 'pt' else a.category_en}",
    key=ACTIVITY,
    persist_state="session",
)
units = [unit for dimension in activity.units for unit in _UNITS.get(dimension, ())]
if st.session_state.get(UNIT) not in units:  # another activity's unit: its own first one
    st.session_state.pop(UNIT, None)
amount_col, unit_col, period_col, gwp_col = st.columns([2, 1, 1, 1])
quantity = amount_col.number_input(
    t("calc_quantity"),
    min_value=0.0,
    value=DEFAULT_QUANTITY,
    step=100.0,
    format=_quantity_format(st.session_state.get(QUANTITY, DEFAULT_QUANTITY)),
    key=QUANTITY,
    persist_state="session",
)
unit = unit_col.selectbox(t("calc_unit"), units, key=UNIT, persist_state="session")
default_period = open_inventory.year() or str(today.year)
if PERIOD not in st.session_state:  # first run on this page: the kept value or the default
    st.session_state[PERIOD] = st.session_state.get(PERIOD_KEPT, default_period)
period = period_col.text_input(t("calc_period"), help=t("calc_period_help"), key=PERIOD).strip()
if period and period != default_period:
    st.session_state[PERIOD_KEPT] = period
else:
    st.session_state.pop(PERIOD_KEPT, None)
gwp_set = gwp_col.selectbox(
    "GWP",
    GWP_SETS,
    index=default_index(context),
    help=t("gwp_choice_note"),
    key=GWP,
    persist_state="session",
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

# The chat, for a question that names no year, computes the same fuel for this year.
chat_period = str(today.year)
if period != chat_period:
    try:
        chat = estimate(
            activity.id, quantity, unit, date_or_year=chat_period, gwp_set=gwp_set, factors=library
        )
    except EmissionsError:
        chat = None
    if chat is not None and not math.isclose(chat.tco2e, result.tco2e, rel_tol=1e-9):
        here, there = _blend_text(result, lang), _blend_text(chat, lang)
        if here and there and here != there:
            st.caption(
                t("calc_period_blend", period=period, blend=here, year=chat_period, chat=there),
                help=t("calc_period_blend_help"),
            )
        else:
            st.caption(t("calc_period_factors", period=sanitize(str(period)), year=chat_period))

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
