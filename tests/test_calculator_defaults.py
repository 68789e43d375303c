"""The calculator as a user meets it: it opens on diesel in trucks this year, keeps what was
typed while the user visits other pages, and says why its answer for a past period is not
the chat's (the biodiesel blend in force then).

The blends are read from blends.csv's cells (the CNPE's resolutions), not from the engine."""

import csv
from datetime import date
from pathlib import Path

import pytest

from tests.app_pages import run_app

BLENDS = Path(__file__).resolve().parents[1] / "engine/emissions/data/blends.csv"


def _biodiesel_share(day: date) -> str:
    """The mandatory biodiesel % of diesel B on ``day``, as blends.csv writes it."""
    with BLENDS.open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            if row["key"] != "diesel_b.biodiesel_share":
                continue
            start = date.fromisoformat(row["valid_from"])
            end = date.fromisoformat(row["valid_to"]) if row["valid_to"] else date.max
            if start <= day <= end:
                return row["value"]
    raise AssertionError(f"no blend on {day}")


@pytest.fixture
def today(monkeypatch):
    """The pages' today fixed in 2026, after B15 (August 2025)."""
    fixed = date(2026, 3, 10)
    monkeypatch.setattr("components.clock.today", lambda: fixed)
    return fixed


def _captions(app) -> str:
    return "\n".join(c.value for c in app.caption)


def test_it_opens_on_diesel_in_trucks_this_year(app_env, today):
    app = run_app("pages/calculator.py")
    activity = app.selectbox[0].value
    assert activity.id == "diesel_road"
    assert "rodoviário" in activity.label("pt")
    assert app.selectbox[1].value == "L"
    assert app.text_input[0].value == str(today.year)
    # a whole quantity shows no decimals
    assert app.number_input[0].value == 1000
    assert app.number_input[0].proto.format == "%.0f"
    # this year is the chat's year too: nothing to explain
    assert "chat" not in _captions(app)


def test_the_inputs_survive_a_visit_to_another_page(app_env, today):
    from engine.emissions import activities

    app = run_app("pages/calculator.py")
    gasoline = next(a for a in activities() if a.id == "gasoline_road")
    app.selectbox[0].set_value(gasoline).run()
    app.number_input[0].set_value(25.2).run()
    app.selectbox[1].set_value("m³").run()
    app.text_input[0].set_value("2023").run()
    app.selectbox[2].set_value("AR6").run()
    assert not app.exception, app.exception
    assert app.number_input[0].proto.format == "%.1f"  # 25.2, not 25.20

    app.switch_page("pages/settings.py").run()
    app.switch_page("pages/chat.py").run()
    app.switch_page("pages/calculator.py").run()
    assert not app.exception, app.exception
    assert app.selectbox[0].value.id == "gasoline_road"
    assert app.number_input[0].value == pytest.approx(25.2)
    assert app.selectbox[1].value == "m³"
    assert app.text_input[0].value == "2023"
    assert app.selectbox[2].value == "AR6"


def test_a_past_period_says_the_blend_in_force_is_why_it_differs_from_the_chat(app_env, today):
    app = run_app("pages/calculator.py")
    app.text_input[0].set_value("2024-06").run()
    then = _biodiesel_share(date(2024, 6, 1))  # B14 (CNPE, March 2024)
    now = _biodiesel_share(today)  # B15
    assert then != now
    said = next(c.value for c in app.caption if "chat" in c.value)
    assert "2024-06" in said and f"{then}%" in said
    assert str(today.year) in said and f"{now}%" in said
    assert "biodiesel" in said

    app.session_state["lang"] = "en"
    app.run()
    said = next(c.value for c in app.caption if "chat" in c.value)
    assert "blend in force" in said and f"{then}%" in said and f"{now}%" in said


def test_a_refrigerant_leak_has_no_period_to_explain(app_env, today):
    from engine.emissions import activities

    app = run_app("pages/calculator.py")
    leak = next(a for a in activities() if a.id == "refrigerant:R-410A")
    app.selectbox[0].set_value(leak).run()
    app.text_input[0].set_value("2019").run()
    assert not app.exception, app.exception
    # a GWP does not change with the year: the chat's answer is the same
    assert "chat" not in _captions(app)
