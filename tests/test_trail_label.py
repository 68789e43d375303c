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


def _agents_script() -> None:
    import streamlit as st

    from components.trail import agent_label
    from engine.agents.catalog import AGENT_NAMES

    st.session_state["lang"] = st.query_params.get("lang", "pt")
    for name in (*AGENT_NAMES, "Agente <b>próprio</b>"):
        st.text(agent_label(name))


def _agents_shown(lang: str) -> list[str]:
    app = AppTest.from_function(_agents_script, default_timeout=TIMEOUT)
    app.query_params["lang"] = lang
    app.run()
    assert not app.exception, app.exception
    return [element.value for element in app.text]


def test_the_trail_names_each_agent_by_its_role_in_the_users_language():
    english = _agents_shown("en")
    assert {"Router", "Inventory analyst", "Pollutants analyst", "Green gases analyst",
            "Orchestrator", "Output guardrail", "Continuous improvement coordinator"} <= set(
        english
    )  # fmt: skip
    portuguese = _agents_shown("pt")
    assert "Analista de inventários" in portuguese and "Análista de inventários" not in portuguese
    assert "Coordenador de Melhoria Contínua" in portuguese
    # One language at a time: no Portuguese agent name on an English page.
    assert not {"Roteador", "Orquestrador", "Coordenador de Melhoria Contínua"} & set(english)
    # An agent the app does not know keeps its name, shown as text, not markup.
    assert english[-1] == portuguese[-1] and "<b>" not in english[-1]
