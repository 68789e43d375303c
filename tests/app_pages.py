"""Running the app's pages in Streamlit's AppTest, as the AppTest suites share it."""

from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 120


def run_app(page: str | None = None, **params) -> AppTest:
    """``app.py`` run once with ``params`` in the URL, then ``page`` if given; no exception."""
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
    for key, value in params.items():
        app.query_params[key] = value
    app.run()
    if page:
        app.switch_page(page).run()
    assert not app.exception, app.exception
    return app
