"""Bytes in, raw sheets out: the format told by the content, limits enforced before parsing.

Spreadsheets are read with python-calamine (the engine pandas uses for Excel) directly, for
the merged-cell ranges a multi-row header needs. Formulas are never evaluated: a workbook
gives its cached values, a CSV gives text.
"""

from __future__ import annotations

import copy
import hashlib
import io
import re
import threading
import zipfile
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import pandas as pd
import python_calamine

from engine.inventory.errors import (
    CorruptFileError,
    EmptyFileError,
    FileTooLargeError,
    FormatMismatchError,
    InflatedFileError,
    InventoryError,
    PasswordProtectedError,
    TooManyRowsError,
    UnsupportedFormatError,
)
from engine.texts import Texts

Kind = Literal["xlsx", "xls", "ods", "csv"]
EXTENSIONS: dict[str, Kind] = {
    ".xlsx": "xlsx",
    ".xlsm": "xlsx",
    ".xls": "xls",
    ".ods": "ods",
    ".csv": "csv",
    ".txt": "csv",
}
# What a file's content is, by what ``_sniff`` finds, in the words of a format mismatch.
_TEXTS = Texts(
    "engine.inventory.reader",
    {
        "kind.xlsx": {
            "pt": "uma pasta de trabalho Excel (.xlsx)",
            "en": "an Excel workbook (.xlsx)",
        },
        "kind.xls": {
            "pt": "uma pasta de trabalho Excel 97-2003 (.xls)",
            "en": "an Excel 97-2003 workbook (.xls)",
        },
        "kind.ods": {
            "pt": "uma planilha OpenDocument (.ods)",
            "en": "an OpenDocument spreadsheet (.ods)",
        },
        "kind.csv": {"pt": "texto (CSV)", "en": "text (CSV)"},
        "kind.zip": {
            "pt": "um arquivo ZIP sem planilha",
            "en": "a ZIP archive without a spreadsheet",
        },
        "kind.binary": {
            "pt": "um arquivo binário desconhecido",
            "en": "an unknown binary file",
        },
    },
)
_OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_ENCRYPTED_OOXML = "EncryptionInfo".encode("utf-16-le")
_DIMENSION = re.compile(
    rb'<(?:\w+:)?dimension\b[^>]*?\bref="([A-Z]{0,3})(\d*)(?::([A-Z]{1,3})(\d+))?"'
)
_SHEET_HEAD = 16_384  # a worksheet's <dimension> comes before its data, in the first bytes
_CHUNK = 262_144  # per read: fewer, larger scans of the references (64 KiB: 25 % slower)
# A cell's own reference, wherever the attribute sits in <c ...>; lower case and too many
# digits included, since a parser may accept what Excel would not write. Led by a literal,
# so the scan skips ahead at C speed (an attribute merely ending in "r" can only make the
# extent larger, never smaller).
_ANY_CELL_REF = re.compile(rb'r="([A-Za-z]{1,4}\d{1,10})"')
_REF_WIDTH = 14
_REF_TAIL = 24  # longer than any reference _ANY_CELL_REF matches
# Below this a member's ratio is not judged: small XML parts (styles, an empty sheet)
# compress very well and cannot hurt.
_RATIO_FLOOR = 1_048_576
_ERROR_TYPE = b't="e"'
_ERROR_CELL = re.compile(rb'<c\s[^>]*?\bt="e"[^>]*>')
_CELL_REF = re.compile(rb'\br="([A-Z]+)(\d+)"')


@dataclass(frozen=True)
class Limits:
    max_bytes: int = 50 * 1_048_576
    max_rows: int = 200_000
    # Workbooks are zips, so the upload limit says little about what the parser will hold.
    # 256 MiB of XML is above 200,000 rows of an 11-column sheet (about 110 MB), and
    # below what a bomb needs to hurt (a 546 MB one took 1.55 GB and 11.8 s to refuse).
    max_uncompressed: int = 256 * 1_048_576
    # Sheet XML of real workbooks deflates 5-30x; deflate's own ceiling is about 1,030x.
    max_ratio: float = 200.0
    # The grid a sheet may span, as its <dimension> declares or its cells name: 200,000
    # rows by 100 columns.
    max_cells: int = 20_000_000


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
    data: bytes,
    filename: str,
    *,
    sheets: list[str] | None,
    limits: Limits,
    head: int | None = None,
) -> list[RawSheet]:
    """Each sheet's rows (or its first ``head`` rows: enough to tell whether it holds a
    table, without its error cells)."""
    scanned: dict[str, bool] = {}
    expected = _checked_kind(data, filename, limits, scanned)
    if expected == "csv":
        return [_read_csv(data, filename, limits)]
    return _read_workbook(data, filename, expected, sheets, limits, scanned, head=head)


def _checked_kind(
    data: bytes, filename: str, limits: Limits, scanned: dict[str, bool] | None = None
) -> str:
    """What the file is, once its size, extension and content agree; raises otherwise.
    ``scanned`` receives, per worksheet the archive check inflated, whether it holds an
    error cell (so that it is not inflated a second time to look for them)."""
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
        raise FormatMismatchError(filename, _TEXTS.both(f"kind.{actual}"))  # type: ignore[arg-type]
    if expected in ("xlsx", "ods"):
        _check_archive_once(data, filename, limits, {} if scanned is None else scanned)
    return expected


# Archives that passed the check, by content and limits: the page lists a workbook's sheets,
# then reads it, and the check inflated every member each time (0.7 s of 100,000 rows). A
# refusal is never kept: the same bytes are refused again, as the first time.
_PASSED: OrderedDict[tuple[bytes, Limits], dict[str, bool]] = OrderedDict()
_PASSED_KEPT = 16
_PASSED_LOCK = threading.Lock()


def forget_checked_archives() -> None:
    """Check every archive again (a benchmark timing a first upload)."""
    with _PASSED_LOCK:
        _PASSED.clear()


def _check_archive_once(data: bytes, filename: str, limits: Limits, scanned: dict[str, bool]):
    key = (hashlib.sha256(data).digest(), limits)
    with _PASSED_LOCK:
        known = _PASSED.get(key)
        if known is not None:
            _PASSED.move_to_end(key)
    if known is not None:
        scanned.update(known)
        return
    _check_archive(data, filename, limits, scanned)
    with _PASSED_LOCK:
        _PASSED[key] = dict(scanned)
        while len(_PASSED) > _PASSED_KEPT:
            _PASSED.popitem(last=False)


def _sniff(data: bytes) -> str:
    if data.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                names = set(archive.namelist())
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


def _check_archive(data: bytes, filename: str, limits: Limits, scanned: dict[str, bool]) -> None:
    """Refuse a decompression bomb before any parser sees it: first from the zip's central
    directory (declared sizes and ratios) and each sheet's declared <dimension>, then by
    inflating every member in chunks, counting its bytes (declared sizes can lie) and the
    farthest cell its sheets name. Memory stays at a chunk; the time is what inflating and
    scanning takes (about 2 s per 100 MB of sheet XML; a bomb is refused in milliseconds
    from the directory)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = [info for info in archive.infolist() if not info.is_dir()]
            declared = sum(info.file_size for info in members)
            if declared > limits.max_uncompressed:
                raise InflatedFileError.size(filename, declared, limits.max_uncompressed)
            for info in members:
                ratio = info.file_size / max(info.compress_size, 1)
                if info.file_size > _RATIO_FLOOR and ratio > limits.max_ratio:
                    raise InflatedFileError.ratio(filename, info.filename, ratio)
            names = {path: name for name, path in _sheet_paths_or_empty(archive).items()}
            worksheets = [info for info in members if _is_worksheet(info.filename)]
            for info in worksheets:
                rows, cols = _declared_extent(archive, info)
                _check_extent(rows, cols, names.get(info.filename, info.filename), filename, limits)
            budget = limits.max_uncompressed
            for info in members:
                extent = _Extent() if _is_worksheet(info.filename) else None
                budget -= _inflated_size(archive, info, filename, budget, limits, extent)
                if extent is not None:
                    sheet = names.get(info.filename, info.filename)
                    _check_extent(extent.rows, extent.cols, sheet, filename, limits)
                    scanned[info.filename] = extent.errors
    except InventoryError:
        raise
    # NotImplementedError: a compression method zipfile lacks (so may calamine).
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, ValueError,
            NotImplementedError) as exc:  # fmt: skip
        raise CorruptFileError(filename) from exc


def _is_worksheet(path: str) -> bool:
    return path.startswith("xl/worksheets/") and path.endswith(".xml")


def _declared_extent(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> tuple[int, int]:
    """The rows and columns a worksheet's <dimension> claims (0, 0 without one), from its
    first bytes only."""
    # Read past what the member declares: zipfile would stop (and fail its CRC) at a size
    # that lies; the data tells, and only its first bytes are inflated.
    with archive.open(_declaring(info, max(info.file_size, _SHEET_HEAD + 1))) as stream:
        head = stream.read(_SHEET_HEAD)
    match = _DIMENSION.search(head)
    if not match:
        return 0, 0
    first_col, first_row, last_col, last_row = (g.decode() for g in match.groups(b""))
    if not last_row:  # a single cell ("A1"): its own corner
        last_col, last_row = first_col, first_row
    rows = int(last_row or 1) - int(first_row or 1) + 1
    cols = _column_index(last_col or "A") - _column_index(first_col or "A") + 1
    return rows, cols


def _check_extent(rows: int, cols: int, sheet: str, filename: str, limits: Limits) -> None:
    """calamine lays a sheet out as a dense grid from its first to its last cell: two
    cells a million rows apart take gigabytes (or abort the process) before any row
    limit is checked."""
    if rows > limits.max_rows:
        raise TooManyRowsError(rows, limits.max_rows)
    if rows * cols > limits.max_cells:
        raise InflatedFileError.cells(filename, sheet, rows * cols, limits.max_cells)


@dataclass
class _Extent:
    """The farthest row and column a worksheet's cells name, fed a chunk at a time. The
    references are decoded with numpy: a per-reference Python loop took 10 s per 100 MB."""

    rows: int = 0
    cols: int = 0
    errors: bool = False  # whether a cell's type is an error (t="e"), as _xlsx_error_cells asks

    def feed(self, text: bytes) -> None:
        self.errors = self.errors or _ERROR_TYPE in text
        refs = _ANY_CELL_REF.findall(text)
        if not refs:
            return
        # One row of bytes per reference, NUL-padded: 1-4 letters, then 1-10 digits.
        codes = np.array(refs, dtype=f"S{_REF_WIDTH}").view(np.uint8).reshape(len(refs), -1)
        letters = (codes >= 65).sum(axis=1)
        digits = (codes != 0).sum(axis=1) - letters
        self.cols = max(self.cols, _farthest_column(codes, letters))
        self.rows = max(self.rows, _farthest_row(codes, letters, digits))


def _farthest_column(codes: np.ndarray, letters: np.ndarray) -> int:
    """The largest column named: one with more letters is always farther ("AA" is 27, "Z"
    26), so only the references with the most letters are decoded (case folded)."""
    most = int(letters.max())
    widest = codes[letters == most, :most] & 0xDF
    column = np.zeros(len(widest), np.int64)
    for k in range(most):
        column = column * 26 + widest[:, k] - 64
    return int(column.max())


def _farthest_row(codes: np.ndarray, letters: np.ndarray, digits: np.ndarray) -> int:
    """The largest row named. Without a leading zero, more digits is a larger number, and
    only the references with the most digits are decoded; with one ("A0000099" is row 99),
    every reference is, position by position."""
    first_digit = np.take_along_axis(codes, letters[:, None], axis=1)[:, 0]
    if (first_digit == 48).any():
        rows = np.zeros(len(codes), np.int64)
        for k in range(codes.shape[1]):
            digit = (codes[:, k] >= 48) & (codes[:, k] <= 57)
            rows = np.where(digit, rows * 10 + codes[:, k].astype(np.int64) - 48, rows)
        return int(rows.max())
    most = int(digits.max())
    longest = np.flatnonzero(digits == most)
    start = letters[longest]
    row = np.zeros(len(longest), np.int64)
    for k in range(most):
        row = row * 10 + codes[longest, start + k].astype(np.int64) - 48
    return int(row.max())


def _inflated_size(  # noqa: PLR0917 - the member, its budget and who reads what it holds
    archive: zipfile.ZipFile,
    info: zipfile.ZipInfo,
    filename: str,
    budget: int,
    limits: Limits,
    extent: _Extent | None = None,
) -> int:
    """The member's real size, inflated a chunk at a time and thrown away (after ``extent``
    has seen it). zipfile stops at the declared size, so the member is opened as if it
    declared one byte over the budget: a member larger than it says, or than what is left,
    is refused as soon as it shows."""
    size, tail = 0, b""
    with archive.open(_declaring(info, budget + 1)) as stream:
        while chunk := stream.read(_CHUNK):
            size += len(chunk)
            if size > budget:
                raise InflatedFileError.size(
                    filename, limits.max_uncompressed + 1, limits.max_uncompressed
                )
            if size > info.file_size:
                raise InflatedFileError.lying(filename, info.filename)
            if extent is not None:
                extent.feed(tail + chunk)  # a reference cut by the chunk's end is whole here
                tail = chunk[-_REF_TAIL:]
    return size


def _declaring(info: zipfile.ZipInfo, size: int) -> zipfile.ZipInfo:
    """``info`` as if it declared ``size`` bytes: zipfile inflates up to what a member
    declares, so this is how much of it may be read."""
    declaring = copy.copy(info)
    declaring.file_size = size
    return declaring


def _sheet_paths_or_empty(archive: zipfile.ZipFile) -> dict[str, str]:
    try:
        return _sheet_paths(archive)
    except (KeyError, zipfile.BadZipFile):  # an .ods, or no workbook.xml: paths name sheets
        return {}


def _read_workbook(  # noqa: PLR0917 - the file, what is wanted and what the check saw
    data: bytes,
    filename: str,
    kind: str,
    wanted: list[str] | None,
    limits: Limits,
    scanned: dict[str, bool] | None = None,
    *,
    head: int | None = None,
) -> list[RawSheet]:
    try:
        workbook = python_calamine.CalamineWorkbook.from_filelike(io.BytesIO(data))
    except python_calamine.PasswordError as exc:
        raise PasswordProtectedError(filename) from exc
    except Exception as exc:  # calamine's zip/xml/format errors: the file is damaged
        raise CorruptFileError(filename) from exc
    names = workbook.sheet_names
    chosen = [name for name in names if wanted is None or name in wanted]
    error_cells = (
        _xlsx_error_cells(data, chosen, scanned or {}) if kind == "xlsx" and head is None else {}
    )
    result = []
    for name in chosen:
        try:
            sheet = workbook.get_sheet_by_name(name)
            if sheet.total_height > limits.max_rows:
                raise TooManyRowsError(sheet.total_height, limits.max_rows)
            rows = sheet.to_python(skip_empty_area=False, nrows=head)
            merged = list(sheet.merged_cell_ranges or [])
        except TooManyRowsError:
            raise
        except Exception as exc:
            raise CorruptFileError(filename) from exc
        result.append(RawSheet(name, rows, merged, error_cells.get(name, set())))
    return result


def _xlsx_error_cells(
    data: bytes, sheet_names: list[str], scanned: dict[str, bool]
) -> dict[str, set[tuple[int, int]]]:
    """Where the cached error values (#N/A, #VALUE!...) are: calamine reads them as blanks.
    A worksheet ``scanned`` found without one is not inflated again (0.25 s of a
    100,000-row sheet)."""
    found: dict[str, set[tuple[int, int]]] = {}
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        paths = _sheet_paths(archive)
        for name in sheet_names:
            path = paths.get(name)
            if path is None or path not in archive.namelist() or scanned.get(path) is False:
                continue
            xml = archive.read(path)
            if _ERROR_TYPE not in xml:
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
