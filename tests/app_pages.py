"""Running the app's pages in Streamlit's AppTest, as the AppTest suites share it."""

import io
from pathlib import Path

import openpyxl
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


def workbook(sheets: dict[str, list[tuple]]) -> bytes:
    """An .xlsx of ``sheets`` (title -> rows), written with openpyxl."""
    book = openpyxl.Workbook()
    book.remove(book.active)
    for title, rows in sheets.items():
        sheet = book.create_sheet(title)
        for row in rows:
            sheet.append(list(row))
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def inventory_page(name: str, data: bytes, lang: str = "pt") -> AppTest:
    """The inventory page with ``data`` uploaded as ``name``, in ``lang``; no exception."""
    app = run_app("pages/inventory.py")
    app.session_state["lang"] = lang
    app.session_state["aeko_inventory_upload"] = (name, data)
    app.run()
    assert not app.exception, app.exception
    return app
