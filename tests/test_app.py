from pathlib import Path

from streamlit.testing.v1 import AppTest

from engine import AGENT_NAMES

ROOT = Path(__file__).resolve().parents[1]


def test_app_starts_and_shows_the_engine():
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    assert not app.exception
    assert app.title[0].value == "Aeko Studio"
    table = app.dataframe[0].value
    assert list(table["Agent"]) == list(AGENT_NAMES)
