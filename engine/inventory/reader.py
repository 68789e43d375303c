"""Bytes in, raw sheets out: the format told by the content, limits enforced before parsing.

Spreadsheets are read with python-calamine (the engine pandas uses for Excel) directly, for
the merged-cell ranges a multi-row header needs. Formulas are never evaluated: a workbook
gives its cached values, a CSV gives text.
"""

from __future__ import annotations

import io
import re
import zipfile
from dataclasses import dataclass, field
from typing import Literal

import pandas as pd
import python_calamine

from engine.inventory.errors import (
    CorruptFileError,
    EmptyFileError,
    FileTooLargeError,
    FormatMismatchError,
    PasswordProtectedError,
    TooManyRowsError,
    UnsupportedFormatError,
)

Kind = Literal["xlsx", "xls", "ods", "csv"]
EXTENSIONS: dict[str, Kind] = {
    ".xlsx": "xlsx",
    ".xlsm": "xlsx",
    ".xls": "xls",
    ".ods": "ods",
    ".csv": "csv",
    ".txt": "csv",
}
_KIND_NAMES = {
    "xlsx": ("uma pasta de trabalho Excel (.xlsx)", "an Excel workbook (.xlsx)"),
    "xls": ("uma pasta de trabalho Excel 97-2003 (.xls)", "an Excel 97-2003 workbook (.xls)"),
    "ods": ("uma planilha OpenDocument (.ods)", "an OpenDocument spreadsheet (.ods)"),
    "csv": ("texto (CSV)", "text (CSV)"),
    "zip": ("um arquivo ZIP sem planilha", "a ZIP archive without a spreadsheet"),
    "binary": ("um arquivo binário desconhecido", "an unknown binary file"),
}
_OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_ENCRYPTED_OOXML = "EncryptionInfo".encode("utf-16-le")
_MAX_UNCOMPRESSED = 1 << 30  # a workbook that inflates past 1 GiB is refused (zip bombs)
_ERROR_CELL = re.compile(rb'<c\s[^>]*?\bt="e"[^>]*>')
_CELL_REF = re.compile(rb'\br="([A-Z]+)(\d+)"')


@dataclass(frozen=True)
class Limits:
    max_bytes: int = 50 * 1_048_576
    max_rows: int = 200_000


@dataclass
class RawSheet:
    name: str
    rows: list[list[object]]
    merged: list[tuple[tuple[int, int], tuple[int, int]]] = field(default_factory=list)
    error_cells: set[tuple[int, int]] = field(default_factory=set)  # (row, col), 0-based
    decimal_comma: bool | None = None


def sheet_names(data: bytes, filename: str, *, limits: Limits) -> list[str]:
    """The workbook's sheet names (a CSV has one: its file name), with the same checks."""
    kind = _checked_kind(data, filename, limits)
    if kind == "csv":
        return [filename.rsplit("/", 1)[-1] or "CSV"]
    try:
        return list(python_calamine.CalamineWorkbook.from_filelike(io.BytesIO(data)).sheet_names)
    except python_calamine.PasswordError as exc:
        raise PasswordProtectedError(filename) from exc
    except Exception as exc:
        raise CorruptFileError(filename) from exc


def read_sheets(
    data: bytes, filename: str, *, sheets: list[str] | None, limits: Limits
) -> list[RawSheet]:
    expected = _checked_kind(data, filename, limits)
    if expected == "csv":
        return [_read_csv(data, filename, limits)]
    return _read_workbook(data, filename, expected, sheets, limits)


def _checked_kind(data: bytes, filename: str, limits: Limits) -> str:
    """What the file is, once its size, extension and content agree; raises otherwise."""
    if not data or not data.strip():
        raise EmptyFileError()
    if len(data) > limits.max_bytes:
        raise FileTooLargeError(len(data), limits.max_bytes)
    extension = ("." + filename.rsplit(".", 1)[-1].lower()) if "." in filename else ""
    expected = EXTENSIONS.get(extension)
    actual = _sniff(data)
    if expected is None and extension:
        raise UnsupportedFormatError(filename)
    if actual == "encrypted":
        raise PasswordProtectedError(filename)
    if expected is None:
        expected = actual if actual in ("xlsx", "xls", "ods", "csv") else "csv"
    if actual == "corrupt-zip":
        raise CorruptFileError(filename)
    if actual != expected:
        pt, en = _KIND_NAMES[actual]
        error = FormatMismatchError(filename, en)
        error.message_pt = error.message_pt.replace(en, pt)
        raise error
    return expected


def _sniff(data: bytes) -> str:
    if data.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                names = set(archive.namelist())
                if sum(info.file_size for info in archive.infolist()) > _MAX_UNCOMPRESSED:
                    return "corrupt-zip"
                if "xl/workbook.xml" in names:
                    return "xlsx"
                if "mimetype" in names and b"spreadsheet" in archive.read("mimetype"):
                    return "ods"
                return "zip"
        except (zipfile.BadZipFile, EOFError, OSError):
            return "corrupt-zip"
    if data.startswith(_OLE2):
        return "encrypted" if _ENCRYPTED_OOXML in data[:1_048_576] else "xls"
    head = data[:65_536]
    if b"\x00" in head.replace(b"\x00\x00", b"") and not head.startswith(
        (b"\xff\xfe", b"\xfe\xff")
    ):
        return "binary"
    return "csv"


def _read_workbook(
    data: bytes, filename: str, kind: str, wanted: list[str] | None, limits: Limits
) -> list[RawSheet]:
    try:
        workbook = python_calamine.CalamineWorkbook.from_filelike(io.BytesIO(data))
    except python_calamine.PasswordError as exc:
        raise PasswordProtectedError(filename) from exc
    except Exception as exc:  # calamine's zip/xml/format errors: the file is damaged
        raise CorruptFileError(filename) from exc
    names = workbook.sheet_names
    chosen = [name for name in names if wanted is None or name in wanted]
    error_cells = _xlsx_error_cells(data, chosen) if kind == "xlsx" else {}
    result = []
    for name in chosen:
        try:
            sheet = workbook.get_sheet_by_name(name)
            if sheet.total_height > limits.max_rows:
                raise TooManyRowsError(sheet.total_height, limits.max_rows)
            rows = sheet.to_python(skip_empty_area=False)
            merged = list(sheet.merged_cell_ranges or [])
        except TooManyRowsError:
            raise
        except Exception as exc:
            raise CorruptFileError(filename) from exc
        result.append(RawSheet(name, rows, merged, error_cells.get(name, set())))
    return result


def _xlsx_error_cells(data: bytes, sheet_names: list[str]) -> dict[str, set[tuple[int, int]]]:
    """Where the cached error values (#N/A, #VALUE!...) are: calamine reads them as blanks."""
    found: dict[str, set[tuple[int, int]]] = {}
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        paths = _sheet_paths(archive)
        for name in sheet_names:
            path = paths.get(name)
            if path is None or path not in archive.namelist():
                continue
            xml = archive.read(path)
            if b't="e"' not in xml:
                continue
            cells = set()
            for match in _ERROR_CELL.finditer(xml):
                ref = _CELL_REF.search(match.group(0))
                if ref:
                    cells.add((int(ref.group(2)) - 1, _column_index(ref.group(1).decode())))
            found[name] = cells
    return found


def _sheet_paths(archive: zipfile.ZipFile) -> dict[str, str]:
    workbook = archive.read("xl/workbook.xml").decode("utf-8", "replace")
    rels = archive.read("xl/_rels/workbook.xml.rels").decode("utf-8", "replace")
    targets = dict(re.findall(r'<Relationship[^>]*?Id="([^"]+)"[^>]*?Target="([^"]+)"', rels))
    targets.update(
        {rid: target for target, rid in re.findall(
            r'<Relationship[^>]*?Target="([^"]+)"[^>]*?Id="([^"]+)"', rels)}
    )  # fmt: skip
    paths = {}
    for tag in re.findall(r"<sheet\b[^>]*>", workbook):
        name = re.search(r'name="([^"]*)"', tag)
        rid = re.search(r'r:id="([^"]*)"', tag) or re.search(r'\bid="([^"]*)"', tag)
        if name and rid and rid.group(1) in targets:
            target = targets[rid.group(1)].lstrip("/")
            path = target if target.startswith("xl/") else f"xl/{target}"
            paths[_xml_unescape(name.group(1))] = path
    return paths


def _xml_unescape(text: str) -> str:
    return (
        text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"')
        .replace("&apos;", "'").replace("&amp;", "&")
    )  # fmt: skip


def _column_index(letters: str) -> int:
    index = 0
    for letter in letters:
        index = index * 26 + (ord(letter) - 64)
    return index - 1


def _read_csv(data: bytes, filename: str, limits: Limits) -> RawSheet:
    text = _decode(data)
    lines = text.count("\n") + 1
    if lines > limits.max_rows:
        raise TooManyRowsError(lines, limits.max_rows)
    delimiter = _delimiter(text)
    try:
        frame = pd.read_csv(
            io.StringIO(text),
            sep=delimiter,
            header=None,
            dtype=str,
            keep_default_na=False,
            skip_blank_lines=False,
            engine="python" if delimiter == "\t" else "c",
            on_bad_lines="skip",
        )
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeError) as exc:
        raise CorruptFileError(filename) from exc
    rows = frame.to_numpy(dtype=object).tolist()
    name = filename.rsplit("/", 1)[-1] or "CSV"
    return RawSheet(name, rows, decimal_comma=True if delimiter == ";" else None)


def _decode(data: bytes) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8", errors="replace")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def _delimiter(text: str) -> str:
    """The candidate that splits the first lines into the most columns, most consistently."""
    sample = [line for line in text[:65_536].splitlines() if line.strip()][:30]
    best, best_score = ",", -1.0
    for candidate in (";", "\t", ",", "|"):
        counts = [line.count(candidate) for line in sample]
        if not counts or max(counts) == 0:
            continue
        mode = max(set(counts), key=counts.count)
        score = mode * counts.count(mode) / len(counts)
        if score > best_score:
            best, best_score = candidate, score
    return best
