"""Settings: language, profile, memories, provider status (the key is never shown)."""

from datetime import UTC, datetime

import streamlit as st

from application import profile
from application.safe_text import sanitize
from components.auth import identity
from components.context import current, require_workspace
from components.database import database_where
from components.gwp_default import forget_reading_choice
from components.i18n import (
    LANGUAGES,
    date_format,
    day_format,
    language,
    language_name,
    number,
    set_language,
    t,
)
from components.trail import model_display_name
from engine.inventory import GWP_SETS
from store import StoreError

context = current()
st.title(t("set_title"))

choice = st.radio(
    t("set_language"),
    list(LANGUAGES),
    index=list(LANGUAGES).index(language()),
    format_func=language_name,
    horizontal=True,
)
if choice != language():
    set_language(choice)
    st.rerun()

st.subheader(t("set_provider"))
engine = context.engine
st.write(t("set_key_missing") if engine.offline else t("set_key_set"))
st.caption(f"{model_display_name(engine.fast_model)} / {model_display_name(engine.slow_model)}")
# What only whoever runs the app acts on: kept here, out of every user's sidebar, and shown
# to its admins alone (AEKO_ADMINS; everyone when sign-in is off: a local app's user runs it).
who = identity() if context.settings.auth_enabled else None
if context.settings.is_admin(who.email if who else None):
    with st.expander(t("set_admin"), icon=":material/admin_panel_settings:"):
        st.caption(database_where(context.settings.store))
        if engine.offline:
            st.caption(t("set_admin_key"))
        if not context.settings.auth_enabled:
            st.caption(t("set_admin_auth"))

workspace = require_workspace(context)
user = workspace.user
try:
    st.subheader(t("usage_title"))
    spent = profile.spending(workspace)
    today, total = spent.today, spent.total
    left, right = st.columns(2)
    left.metric(
        t("usage_today"),
        f"US$ {number(today.cost_usd, 4)}",
        help=f"{number(today.runs, 0)} · {number(today.input_tokens, 0)}+"
        f"{number(today.output_tokens, 0)} tokens",
    )
    right.metric(
        t("usage_total"),
        f"US$ {number(total.cost_usd, 4)}",
        help=f"{number(total.runs, 0)} · {number(total.input_tokens, 0)}+"
        f"{number(total.output_tokens, 0)} tokens",
    )
    if total.unknown_cost_runs:
        unknown = total.unknown_cost_runs
        st.caption(t("usage_unknown_one") if unknown == 1 else t("usage_unknown", n=unknown))

    st.subheader(t("set_profile"))
    with st.form("profile"):
        role = st.text_input(t("set_role"), value=user.role, max_chars=200)
        usecase = st.text_area(t("set_usecase"), value=user.usecase, max_chars=1000)
        if st.form_submit_button(t("save")):
            profile.update_profile(workspace, role=role, usecase=usecase)
            st.session_state.pop("aeko_user", None)
            st.success(t("set_saved"))

    with st.form("gwp-default"):
        chosen = st.selectbox(
            t("set_gwp"),
            GWP_SETS,
            index=GWP_SETS.index(profile.default_gwp_set(workspace)),
            help=t("set_gwp_help", note=t("gwp_choice_note")),
        )
        if st.form_submit_button(t("save")):
            profile.set_default_gwp_set(workspace, chosen)
            forget_reading_choice()
            st.success(t("set_saved"))

    st.subheader(t("set_memories"))
    st.caption(t("set_memories_help"))
    now = datetime.now(UTC)
    for memory in profile.memories(workspace):
        expired = memory.expires_at is not None and memory.expires_at <= now
        left, right = st.columns([5, 1])
        with left:
            label = f"**{sanitize(memory.field)}**: {sanitize(memory.description)}"
            if memory.expires_at:
                state = (
                    t("set_expired")
                    if expired
                    else f"{t('set_expires')} {memory.expires_at:{day_format()}}"
                )
                label += f" · _{state}_"
            st.markdown(label)
            if not expired:
                with st.popover(t("rename"), icon=":material/edit:"):
                    field = st.text_input(t("set_field"), value=memory.field, key=f"f-{memory.id}")
                    description = st.text_area(
                        t("set_description"), value=memory.description, key=f"d-{memory.id}"
                    )
                    if st.button(t("save"), key=f"s-{memory.id}"):
                        profile.edit_memory(
                            workspace, memory.id, field=field, description=description
                        )
                        st.rerun()
        with right:
            if not expired and st.button(t("set_expire"), key=f"x-{memory.id}"):
                profile.forget(workspace, memory.id)
                st.rerun()

    with st.form("memory", clear_on_submit=True):
        field = st.text_input(t("set_field"), max_chars=100)
        description = st.text_area(t("set_description"), max_chars=1000)
        last_day = st.date_input(
            t("set_expires"), value=None, min_value=now.date(), format=date_format()
        )
        if st.form_submit_button(t("set_add")) and profile.remember(
            workspace, field, description, last_day=last_day
        ):
            st.rerun()
except StoreError as error:
    st.error(error.message(language()), icon=":material/database_off:")
