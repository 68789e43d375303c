from pathlib import Path

from streamlit.testing.v1 import AppTest

from engine import AGENT_NAMES

ROOT = Path(__file__).resolve().parents[1]


def test_app_starts_and_shows_the_engine(monkeypatch, tmp_path):
    monkeypatch.setenv("AEKO_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    monkeypatch.delenv("MONGODB_URI", raising=False)
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    assert not app.exception
    assert app.title[0].value == "Aeko Studio"
    table = app.dataframe[0].value
    assert list(table["Agent"]) == list(AGENT_NAMES)
    captions = [c.value for c in app.sidebar.caption]
    assert any("Banco de dados: embutido" in c for c in captions)
    assert any("analista offline" in c for c in captions)


def test_app_says_clearly_when_the_database_is_unreachable(monkeypatch):
    monkeypatch.setenv(
        "MONGODB_URI", "mongodb://bob:hunter2@127.0.0.1:1/?serverSelectionTimeoutMS=300"
    )
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    assert not app.exception
    shown = " ".join(e.value for e in app.error) + " ".join(c.value for c in app.caption)
    assert "127.0.0.1:1" in shown and "MONGODB_URI" in shown
    assert "hunter2" not in shown and "bob" not in shown
