"""Sign-in with Streamlit's own OpenID Connect (``st.login``, ``st.user``, ``st.logout``).

On when secrets hold an ``[auth]`` section (see docs/deploy.md): a visitor who has not signed
in sees the sign-in page and nothing else, and each identity, keyed by its provider's issuer
and its subject, is a user of its own (``store.users.get_or_create_by_identity``). Without
``[auth]`` the app runs in the single-user local mode, said so in the sidebar, and listens on
127.0.0.1 only (.streamlit/config.toml).
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from application.safe_text import sanitize
from components.i18n import t
from settings import Settings, auth_configured


@dataclass(frozen=True)
class Identity:
    """Who signed in, as the provider's ID token says: ``iss`` and ``sub`` identify them."""

    issuer: str
    subject: str
    email: str = ""
    name: str = ""

    @property
    def label(self) -> str:
        return self.email or self.name or self.subject


def enabled() -> bool:
    """Whether sign-in is configured, read before the settings are (app.py's gate)."""
    try:
        return auth_configured(st.secrets)
    except Exception:  # no secrets.toml at all: the local mode
        return False


def signed_in() -> bool:
    return bool(st.user.to_dict().get("is_logged_in"))


def identity() -> Identity | None:
    """The signed-in identity, or None: not signed in, or a token without issuer or subject."""
    info = st.user.to_dict()
    if not info.get("is_logged_in"):
        return None
    issuer, subject = str(info.get("iss") or ""), str(info.get("sub") or "")
    if not issuer or not subject:
        return None
    return Identity(issuer, subject, str(info.get("email") or ""), str(info.get("name") or ""))


def require_sign_in() -> None:
    """With sign-in on, nobody goes past this call without an identity: the visitor gets the
    sign-in page as the app's only page (no other page is listed or reachable) and the run
    stops. Without ``[auth]`` it does nothing."""
    if not enabled() or identity() is not None:
        return
    st.set_page_config(page_title="Aeko Studio", page_icon=":material/eco:", layout="centered")
    page = st.Page(_sign_in_page, title=t("auth_sign_in"), icon=":material/login:", default=True)
    st.navigation([page], position="hidden").run()
    st.stop()


def require_identity() -> Identity:
    """The signed-in identity; or the sign-in page and the run stops (a page that ran before
    app.py's gate, as Streamlit serves pages/ until a session has called st.navigation)."""
    who = identity()
    if who is None:
        st.set_page_config(page_title="Aeko Studio", page_icon=":material/eco:")
        _sign_in_page()
        st.stop()
        raise AssertionError("unreachable: st.stop() ends the run")
    return who


def _sign_in_page() -> None:
    st.title(t("auth_title"))
    if signed_in():  # a token without iss/sub: nothing to key the user by
        st.error(t("auth_no_subject"), icon=":material/person_off:")
        if st.button(t("auth_sign_out"), icon=":material/logout:"):
            st.logout()
        return
    st.write(t("auth_prompt"))
    if st.button(t("auth_sign_in"), type="primary", icon=":material/login:", key="aeko_sign_in"):
        st.login()


def account_sidebar(settings: Settings) -> None:
    """Who is signed in and the sign-out button; or the local mode, said plainly."""
    with st.sidebar:
        who = identity() if settings.auth_enabled else None
        if who is None:
            if not settings.auth_enabled:
                st.caption(":material/person: " + t("auth_local_mode"))
            return
        st.caption(":material/account_circle: " + t("auth_signed_in_as", who=sanitize(who.label)))
        if st.button(t("auth_sign_out"), icon=":material/logout:", key="aeko_sign_out"):
            st.logout()
