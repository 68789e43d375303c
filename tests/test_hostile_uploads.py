"""Hostile uploads (#15): decompression bombs refused before any parser holds them, and
text a spreadsheet would run as a formula neutralised in every table the app lets one
download."""

from __future__ import annotations

import ast
import io
import struct
import tracemalloc
import zipfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import pandas as pd
import pytest

from application.safe_text import csv_safe, csv_safe_frame
from assets import SAMPLE_PATH
from engine.inventory import load_inventory
from engine.inventory.errors import InflatedFileError, TooManyRowsError
from engine.inventory.reader import Limits, read_sheets, sheet_names
from tests import inventory_fixtures as fx
from tests.test_app import _inventory_page

ROOT = Path(__file__).resolve().parents[1]
SHEET = "xl/worksheets/sheet1.xml"
MB = 1_048_576
# What refusing may hold beyond the upload itself: a few inflated chunks and the zip's
# directory. Parsing the 300 MB bomb would take well over a gigabyte.
PEAK_BOUND = 8 * MB
_HEAD = (
    b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
)


# --- building hostile workbooks ---------------------------------------------------------


def _with_sheet(chunks: Iterable[bytes]) -> bytes:
    """A real .xlsx whose first sheet's XML is ``chunks``, written (and deflated) a chunk at
    a time so the test never holds the inflated sheet."""
    base = fx.xlsx({"Plan1": [["Fonte", "Emissões (t CO2e)"], ["Caldeira", 1.0]]})
    out = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(base)) as source,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target,
    ):
        for info in source.infolist():
            if info.filename == SHEET:
                with target.open(SHEET, "w") as member:
                    for chunk in chunks:
                        member.write(chunk)
            else:
                target.writestr(info, source.read(info))
    return out.getvalue()


def _rows(megabytes: int, *, dimension: bytes = b"") -> Iterator[bytes]:
    """Sheet XML of the same inline-string row repeated: deflate squeezes it ~250x."""
    row = b'<row><c t="inlineStr"><is><t>' + b"A" * 200 + b"</t></is></c></row>"
    block = row * (MB // len(row))
    yield _HEAD + dimension + b"<sheetData>"
    for _ in range(megabytes):
        yield block
    yield b"</sheetData></worksheet>"


def _declare(data: bytes, member: str, size: int) -> bytes:
    """``data`` with ``member``'s uncompressed size rewritten to ``size`` in its central
    directory entry and its local header: the CRC and the data stay those of the real one."""
    patched = bytearray(data)
    name = member.encode()
    position = patched.find(b"PK\x01\x02")
    while position != -1:
        length = struct.unpack_from("<H", patched, position + 28)[0]
        if bytes(patched[position + 46 : position + 46 + length]) == name:
            struct.pack_into("<I", patched, position + 24, size)
            local = struct.unpack_from("<I", patched, position + 42)[0]
            struct.pack_into("<I", patched, local + 22, size)
            return bytes(patched)
        position = patched.find(b"PK\x01\x02", position + 4)
    raise AssertionError(f"{member} not in the archive")


@pytest.fixture(scope="module")
def bomb() -> bytes:
    """300 MB of sheet XML in about 1.3 MB: the shape of the issue's 1.9 MB -> 546 MB file."""
    return _with_sheet(_rows(300))


def _refused(call: Callable[[], object], error: type[Exception]) -> tuple[Exception, int]:
    """The error ``call`` raises and the peak of Python memory it allocated meanwhile."""
    tracemalloc.start()
    try:
        with pytest.raises(error) as caught:
            call()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return caught.value, peak


# --- decompression bombs ----------------------------------------------------------------


def test_a_bomb_is_refused_from_its_directory_with_a_short_bilingual_message(bomb):
    with zipfile.ZipFile(io.BytesIO(bomb)) as archive:
        declared = sum(info.file_size for info in archive.infolist())
    assert len(bomb) < 3 * MB and declared > 300 * MB

    error, peak = _refused(lambda: load_inventory(bomb, filename="bomba.xlsx"), InflatedFileError)

    assert error.code == "inflated_file"
    assert error.message_pt.startswith("bomba.xlsx não foi aberto: descompactado, ocuparia")
    assert "300 MB (o limite é 256 MB)" in error.message_pt
    assert "would take at least 300 MB (the limit is 256 MB)" in error.message_en
    assert "CSV" in error.message_pt and "CSV" in error.message_en
    assert len(error.message_en) < 300
    assert peak < PEAK_BOUND, f"refusing held {peak / MB:.1f} MB"


def test_listing_the_sheets_of_a_bomb_is_refused_too(bomb):
    _, peak = _refused(lambda: sheet_names(bomb, "bomba.xlsx", limits=Limits()), InflatedFileError)
    assert peak < PEAK_BOUND


def test_one_member_that_inflates_far_more_than_any_workbook_is_refused_by_its_ratio():
    data = _with_sheet(_rows(60))  # 60 MB: under the total limit, ~250x its compressed size
    error, peak = _refused(
        lambda: read_sheets(data, "b.xlsx", sheets=None, limits=Limits()), InflatedFileError
    )
    assert SHEET in error.message_en and "times when uncompressed" in error.message_en
    assert "vezes ao descompactar" in error.message_pt
    assert peak < PEAK_BOUND


def test_a_sheet_declaring_every_row_excel_has_is_refused_before_parsing():
    whole = _with_sheet(_rows(0, dimension=b'<dimension ref="A1:XFD1048576"/>'))
    error, _ = _refused(lambda: load_inventory(whole, filename="d.xlsx"), TooManyRowsError)
    assert "1.048.576" in error.message_pt

    wide = _with_sheet(_rows(0, dimension=b'<dimension ref="A1:XFD5000"/>'))
    error, _ = _refused(lambda: load_inventory(wide, filename="d.xlsx"), InflatedFileError)
    assert "sheet Plan1 spans 81,920,000 cells" in error.message_en
    assert "a aba Plan1 ocupa 81.920.000 células" in error.message_pt


def _two_cells(far: bytes) -> bytes:
    """A header cell and one far cell, no <dimension>: a few hundred bytes that calamine
    would lay out as a dense grid between the two (it aborted asking for 512 GB)."""
    return _with_sheet(
        [
            _HEAD + b'<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Fonte</t></is></c>'
            b'</row><row><c s="0" r="' + far + b'"><v>1</v></c></row></sheetData></worksheet>'
        ]
    )


def test_two_cells_far_apart_are_refused_by_the_cells_they_name():
    error, peak = _refused(
        lambda: load_inventory(_two_cells(b"XFD1048576"), filename="s.xlsx"), TooManyRowsError
    )
    assert "1,048,576" in error.message_en
    assert peak < PEAK_BOUND
    error, _ = _refused(
        lambda: load_inventory(_two_cells(b"xfd5000"), filename="s.xlsx"), InflatedFileError
    )
    assert "sheet Plan1 spans 81,920,000 cells" in error.message_en


def test_a_directory_that_understates_a_member_is_caught_while_inflating():
    honest = _with_sheet(_rows(40))
    lying = _declare(honest, SHEET, 4_096)
    with zipfile.ZipFile(io.BytesIO(lying)) as archive:
        info = archive.getinfo(SHEET)
        assert info.file_size == 4_096 < info.compress_size  # nothing to see in the directory

    error, peak = _refused(lambda: load_inventory(lying, filename="l.xlsx"), InflatedFileError)
    assert "larger than the size the file declares" in error.message_en
    assert "maior do que o tamanho que o arquivo declara" in error.message_pt
    assert peak < PEAK_BOUND


def test_the_streaming_cap_holds_whatever_the_directory_says():
    # Declared sizes that add up under the cap, a real size over it: the count, not the
    # directory, refuses it, and never holds more than a chunk.
    data = _declare(_with_sheet(_rows(12)), SHEET, 11 * MB)
    limits = Limits(max_uncompressed=12 * MB, max_ratio=1_000_000)
    error, peak = _refused(
        lambda: read_sheets(data, "c.xlsx", sheets=None, limits=limits), InflatedFileError
    )
    assert error.message_en.startswith("c.xlsx was not opened")
    assert peak < PEAK_BOUND


@pytest.mark.parametrize(
    ("name", "build"),
    [
        ("sample.xlsx", SAMPLE_PATH.read_bytes),
        ("ghg.xlsx", lambda: fx.ghg_program_workbook()[0]),
        ("long.xlsx", lambda: fx.as_xlsx(fx.long_table(20_000, seed=1))),
        ("inv.ods", fx.ods_workbook),
        ("inv.xls", fx.xls_workbook),
        (
            "merged.xlsx",
            lambda: fx.xlsx(
                {"E": [["Fonte", "Emissões (t CO2e)", ""], ["Caldeira", 5.0, ""]]},
                {"E": ["B1:C1"]},
            ),
        ),
    ],
)
def test_ordinary_workbooks_still_load(name, build):
    inventory = load_inventory(build(), filename=name)
    assert inventory.total_tco2e > 0


# --- formula injection ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ('=HYPERLINK("http://x","clique")', '\'=HYPERLINK("http://x","clique")'),
        ("@SUM(1+1)", "'@SUM(1+1)"),
        ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"),
        ("-2+3", "'-2+3"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("Caldeira", "Caldeira"),
        ("a=b", "a=b"),
        ("", ""),
        ("-3,5", "-3,5"),  # a negative number written as text is data
        ("+12.000,50", "+12.000,50"),
        ("-12,5%", "-12,5%"),
        (-5, -5),
        (-2.5, -2.5),
        (None, None),
    ],
)
def test_csv_safe_quotes_only_text_a_spreadsheet_would_run(value, shown):
    assert csv_safe(value) == shown


def test_csv_safe_frame_keeps_numbers_numbers_and_leaves_the_original_alone():
    frame = pd.DataFrame(
        {
            "=Fonte": ['=HYPERLINK("http://x")', "Caldeira", "@SUM(1+1)"],
            "t CO2e": [-5.0, 1.5, 2.0],
            "misto": [-5, "+cmd", None],
            "ok": [True, False, True],
        }
    )
    safe = csv_safe_frame(frame)
    assert list(safe.columns) == ["'=Fonte", "t CO2e", "misto", "ok"]
    assert safe["'=Fonte"].tolist() == ['\'=HYPERLINK("http://x")', "Caldeira", "'@SUM(1+1)"]
    assert safe["t CO2e"].dtype == frame["t CO2e"].dtype
    assert safe["t CO2e"].tolist() == [-5.0, 1.5, 2.0]
    assert safe["misto"].tolist()[:2] == [-5, "'+cmd"] and safe["misto"].isna().iloc[2]
    assert safe["ok"].dtype == bool
    assert frame["=Fonte"].iloc[0] == '=HYPERLINK("http://x")'  # a copy was changed


def _dataframe_calls(path: Path) -> Iterator[ast.Call]:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        func = node.func if isinstance(node, ast.Call) else None
        if isinstance(func, ast.Attribute) and func.attr == "dataframe":
            yield node


def _named_call(node: ast.AST | None, name: str) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name


def test_every_dataframe_the_app_shows_goes_through_csv_safe_frame():
    """st.dataframe's toolbar writes its data as CSV: nothing reaches it unneutralised."""
    files = [*ROOT.glob("pages/*.py"), *ROOT.glob("components/*.py"), ROOT / "app.py"]
    seen = 0
    for path in files:
        for call in _dataframe_calls(path):
            seen += 1
            first = call.args[0] if call.args else None
            if _named_call(first, "localized"):  # components.tables: a safe frame's numbers
                first = first.args[0] if first.args else None  # shown in the language
            wrapped = _named_call(first, "csv_safe_frame")
            assert wrapped, f"{path.relative_to(ROOT)}:{call.lineno} shows a raw frame"
    assert seen >= 9


@pytest.mark.usefixtures("app_env")
def test_inventory_page_shows_formula_text_neutralised():
    app = _inventory_page("injecao.csv", fx.formula_injection_csv())
    frames = [element.value for element in app.dataframe]
    # the canonical table, under the names a person reads (Portuguese by default)
    table = next(frame for frame in frames if "Fonte" in frame.columns)
    sources = table["Fonte"].tolist()
    assert '\'=HYPERLINK("http://x","clique")' in sources
    assert "'@SUM(A1:A2)" in sources
    assert "'+cmd|' /C calc'!A0" in sources
    assert "'-2+3+cmd|' /C calc'!A0" in sources
    assert "Caldeira a vapor" in sources
    for frame in frames:
        for column in frame.columns:
            if frame[column].dtype == object or pd.api.types.is_string_dtype(frame[column]):
                texts = [v for v in frame[column] if isinstance(v, str)]
                assert not [v for v in texts if csv_safe(v) != v], (column, texts)
    # Numbers stay numbers: the refund row's negative emissions are still a number.
    assert pd.api.types.is_numeric_dtype(table["Emissões CO2e (t)"])
    assert (table["Emissões CO2e (t)"] < 0).any()


@pytest.mark.usefixtures("app_env")
def test_the_mapping_editor_shows_neutralised_names_and_edits_the_real_ones():
    data = fx.xlsx({"=Aba": [["Fonte", "Emissões (t CO2e)", "Extra"], ["Caldeira", 5.0, "x"]]})
    app = _inventory_page("aba.xlsx", data)
    editor = app.data_editor[0]
    assert set(editor.value["Aba"]) == {"'=Aba"}
    row = editor.value.index[editor.value["Coluna"] == "Extra"][0]
    app.session_state[editor.key] = {
        "edited_rows": {int(row): {"Campo": "category"}},
        "added_rows": [],
        "deleted_rows": [],
    }
    app.run()
    assert not app.exception, app.exception
    after = app.data_editor[0].value
    # The override reached the sheet "=Aba": the mapping read back has it.
    assert after.loc[after["Coluna"] == "Extra", "Campo"].tolist() == ["category"]
