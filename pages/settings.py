"""Settings: language, profile, memories, provider status (the key is never shown)."""

from datetime import UTC, datetime, time

import streamlit as st

from components.context import current, require_database
from components.i18n import LANGUAGES, language, set_language, t
from components.trail import model_label
from store import StoreError

context = current()
st.title(t("set_title"))

choice = st.radio(
    t("set_language"),
    list(LANGUAGES),
    index=list(LANGUAGES).index(language()),
    format_func=LANGUAGES.get,
    horizontal=True,
)
if choice != language():
    set_language(choice)
    st.rerun()

st.subheader(t("set_provider"))
engine = context.engine
st.write(t("set_key_missing") if engine.offline else t("set_key_set"))
st.caption(f"{model_label(engine.fast_model)} / {model_label(engine.slow_model)}")

require_database(context)

user = context.user
try:
    st.subheader(t("usage_title"))
    usage = context.store.usage(user.id)
    today, total = usage.totals_today(), usage.totals()
    left, right = st.columns(2)
    left.metric(
        t("usage_today"),
        f"US$ {today.cost_usd:.4f}",
        help=f"{today.runs} · {today.input_tokens}+{today.output_tokens} tokens",
    )
    right.metric(
        t("usage_total"),
        f"US$ {total.cost_usd:.4f}",
        help=f"{total.runs} · {total.input_tokens}+{total.output_tokens} tokens",
    )
    if total.unknown_cost_runs:
        st.caption(t("usage_unknown", n=total.unknown_cost_runs))

    st.subheader(t("set_profile"))
    with st.form("profile"):
        role = st.text_input(t("set_role"), value=user.role, max_chars=200)
        usecase = st.text_area(t("set_usecase"), value=user.usecase, max_chars=1000)
        if st.form_submit_button(t("save")):
            context.store.users.update_profile(user.id, role=role.strip(), usecase=usecase.strip())
            st.session_state.pop("aeko_user", None)
            st.success(t("set_saved"))

    st.subheader(t("set_memories"))
    st.caption(t("set_memories_help"))
    memories = context.store.memories(user.id)
    now = datetime.now(UTC)
    for memory in memories.all():
        expired = memory.expires_at is not None and memory.expires_at <= now
        left, right = st.columns([5, 1])
        with left:
            label = f"**{memory.field}**: {memory.description}"
            if memory.expires_at:
                state = (
                    t("set_expired")
                    if expired
                    else f"{t('set_expires')} {memory.expires_at:%d/%m/%Y}"
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
                        memories.update(
                            memory.id, field=field.strip(), description=description.strip()
                        )
                        st.rerun()
        with right:
            if not expired and st.button(t("set_expire"), key=f"x-{memory.id}"):
                memories.expire(memory.id)
                st.rerun()

    with st.form("memory", clear_on_submit=True):
        field = st.text_input(t("set_field"), max_chars=100)
        description = st.text_area(t("set_description"), max_chars=1000)
        expires = st.date_input(t("set_expires"), value=None, min_value=now.date())
        if st.form_submit_button(t("set_add")) and field.strip() and description.strip():
            expires_at = datetime.combine(expires, time.max, tzinfo=UTC) if expires else None
            memories.add(field.strip(), description.strip(), expires_at=expires_at)
            st.rerun()
except StoreError as error:
    st.error(error.message(language()), icon=":material/database_off:")
