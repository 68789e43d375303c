"""How the trail and the chat's caption name the model that answered: the offline analyst by
its name in the user's language, and, when it is priced as a provider's model
(``AEKO_OFFLINE_PRICED_AS``), that model's name too, never the raw internal id."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from tests.app_pages import TIMEOUT


def _label_script() -> None:
    import streamlit as st

    from components.trail import model_display_name
    from engine.pricing import offline_priced_name

    st.session_state["lang"] = st.query_params.get("lang", "pt")
    st.text(model_display_name(offline_priced_name(st.query_params.get("priced_as", ""))))


def _shown(lang: str, priced_as: str) -> str:
    app = AppTest.from_function(_label_script, default_timeout=TIMEOUT)
    app.query_params["lang"] = lang
    app.query_params["priced_as"] = priced_as
    app.run()
    assert not app.exception, app.exception
    return app.text[0].value


@pytest.mark.parametrize(
    ("lang", "shown"),
    [
        ("pt", "analista offline (preço de gemini-2.5-flash)"),
        ("en", "offline analyst (priced as gemini-2.5-flash)"),
    ],
)
def test_the_offline_analyst_priced_as_a_model_says_whose_price(lang, shown):
    assert _shown(lang, "gemini-2.5-flash") == shown


@pytest.mark.parametrize(("lang", "shown"), [("pt", "analista offline"), ("en", "offline analyst")])
def test_the_free_offline_analyst_is_named_alone(lang, shown):
    assert _shown(lang, "") == shown


def test_the_priced_as_name_is_shown_as_text_not_markup():
    shown = _shown("en", "<b>x</b>")
    assert shown.startswith("offline analyst (priced as ") and "<b>" not in shown
