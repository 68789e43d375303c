"""Find the table in a raw sheet: skip titles, blanks and notes; join multi-row headers;
keep total rows apart; locate error cells."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pandas as pd

from engine.inventory.fields import (
    HEADER_JOIN,
    base_field,
    is_date_header,
    is_unit_text,
    is_year,
    match_header,
    month_of_header,
    year_of_header,
)
from engine.inventory.hierarchy import find_arithmetic, find_hierarchy
from engine.inventory.reader import RawSheet
from engine.inventory.units import mass_factor, to_numbers

_HEADER_SEARCH_ROWS = 60
_MAX_HEADER_ROWS = 4
_TOTAL = re.compile(r"^\s*(sub-?\s*)?total\b|^\s*soma\b|^\s*grand total\b", re.IGNORECASE)
_NOTE = re.compile(r"^\s*(fonte|nota|obs|source|note|\*|\(\*)", re.IGNORECASE)


@dataclass
class SheetTable:
    sheet: str
    header_rows: tuple[int, ...]  # 1-based sheet rows that make the header
    columns: list[str]
    body: pd.DataFrame  # data rows; index = 1-based sheet row
    totals: pd.DataFrame  # total/subtotal rows, same columns
    title: str = ""
    notes: list[str] = field(default_factory=list)
    error_cells: list[tuple[int, str]] = field(default_factory=list)  # (sheet row, column)
    decimal_comma: bool | None = None
    sheet_rows: pd.Series | None = None  # the sheet row of each body row, when not the index
    context: list[str] = field(default_factory=list)  # text above the header: titles, notes
    time_layout: str = ""  # "years" / "months" when time ran across the columns
    parent_frame: pd.DataFrame | None = None  # coded subtotal rows (1, 1.A ...), index = row
    lineage: dict[int, list[str]] = field(default_factory=dict)  # row -> labels above it
    children: dict[int, list[int]] = field(default_factory=dict)  # subtotal -> its rows

    def rows(self) -> pd.Series:
        """The 1-based sheet row of every body row."""
        if self.sheet_rows is not None:
            return self.sheet_rows
        return pd.Series(self.body.index.to_numpy(), index=self.body.index)


def find_table(raw: RawSheet) -> SheetTable | None:
    rows = raw.rows
    if not rows:
        return None
    width = max((len(row) for row in rows[:_HEADER_SEARCH_ROWS]), default=0)
    if width == 0:
        return None
    head = [_pad([_clean(v) for v in row], width) for row in rows[:_HEADER_SEARCH_ROWS]]
    filled = _fill_merged(head, raw.merged)
    best: tuple[float, int, int] | None = None  # (score, header row, rows above)
    for index in range(len(head)):
        if _is_blank(head[index]) or _numbers(head[index], allow_years=True):
            continue
        for above in range(_MAX_HEADER_ROWS):
            start = index - above
            if start < 0 or (above and not _header_like(filled[start], head, start, raw)):
                break
            names = _join(filled[start : index + 1])
            score = _score(names) + _time_score(names)
            # Ties go to the earliest names row (a data row below is no header), and for the
            # same names row to more rows above it (group rows carry units).
            tie = best is not None and abs(score - best[0]) <= 1e-9
            extends = (
                tie
                and best is not None
                and (index == best[1] or (start <= best[1] and _refines(head, raw.merged, index)))
            )
            if best is None or score > best[0] + 1e-9 or extends:
                best = (score, index, above)
    if best is None or best[0] < 2:
        return None
    _, header_index, above = best
    if header_index + 1 < len(head) and _is_units_row(head[header_index + 1]):
        header_index += 1  # a row of units under the names belongs to the header
        above += 1
    names = _unique(_join(filled[header_index - above : header_index + 1]))
    body = pd.DataFrame(rows[header_index + 1 :], dtype=object)
    body = body.reindex(columns=range(width)) if body.shape[1] != width else body
    body = body.iloc[:, :width]
    body.columns = names
    body.index = pd.RangeIndex(header_index + 2, header_index + 2 + len(body))
    body = body.replace("", None)
    typed_errors = _error_texts(body)  # '#N/A' written as text: CSV, ODS
    body, totals, notes = _split_rows(body, names)
    labels = [c for c in names[:3] if body[c].head(50).map(_is_label).any()]
    hierarchy = find_hierarchy(body, labels)
    if not hierarchy.parents and len(body) <= 600:
        hierarchy = _arithmetic_tree(body, raw.decimal_comma)
    parent_frame = None
    lineage = _lineage(body, hierarchy, labels) if hierarchy.parent_of else {}
    if hierarchy.parents:
        parent_frame = body.loc[hierarchy.parents]
        body = body.drop(index=hierarchy.parents)
    above_lines = [
        " ".join(str(v) for v in row if isinstance(v, str) and v)
        for row in head[: header_index - above]
    ]
    title = " ".join(line for line in above_lines if line)
    errors = sorted(
        {(r + 1, names[c]) for r, c in raw.error_cells if r + 1 in body.index and c < width}
        | {(r, c) for r, c in typed_errors if r in body.index}
    )
    return SheetTable(
        sheet=raw.name,
        header_rows=tuple(range(header_index - above + 1, header_index + 2)),
        columns=names,
        body=body,
        totals=totals,
        title=title[:200],
        notes=notes,
        error_cells=errors,
        decimal_comma=raw.decimal_comma,
        lineage=lineage,
        context=[line for line in above_lines if line] + notes,
        parent_frame=parent_frame,
        # only coded trees are a check: arithmetic ones agree by construction
        children={int(p): [int(c) for c in kids] for p, kids in hierarchy.children.items()}
        if hierarchy.by_code
        else {},
    )


def _lineage(body: pd.DataFrame, hierarchy, labels: list[str]) -> dict[int, list[str]]:
    """Each coded row's ancestors' labels, nearest first: '1.A.1' under '1.A Combustão
    estacionária' under '1 Escopo 1' gets ['Combustão estacionária', 'Escopo 1']."""
    text = {}
    for parent in hierarchy.parents:
        cells = [str(body.at[parent, c]) for c in labels if isinstance(body.at[parent, c], str)]
        words_ = " ".join(cells)
        code = hierarchy.codes.get(parent, "")
        prefix = rf"^\s*{re.escape(code)}\.?\s*" if code else r"^"
        text[parent] = re.sub(prefix, "", words_).strip()
    return {
        int(row): [text[a] for a in hierarchy.ancestors(row) if text.get(a)]
        for row in body.index
        if row in hierarchy.parent_of and row not in hierarchy.children
    }


def _arithmetic_tree(body: pd.DataFrame, decimal_comma: bool | None):
    """Subtotals found by arithmetic in a summary table: one label column, the rest numbers."""
    numeric, text = [], []
    for column in body.columns:
        values = body[column].dropna()
        if values.empty:
            continue
        parsed = to_numbers(values, decimal_comma=decimal_comma is not False)
        (numeric if parsed.notna().mean() >= 0.8 else text).append(column)
    if len(text) != 1 or not numeric:
        return find_arithmetic(body, "", [])
    series = [to_numbers(body[c], decimal_comma=decimal_comma is not False) for c in numeric]
    return find_arithmetic(body, text[0], series)


def _is_label(value: object) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _is_units_row(row: list[object]) -> bool:
    """A row under the header that only names units: 't', 'kg', 'Gg CO2e', 'MWh', 'L'."""
    values = _nonempty(row)
    if not values or _numbers(row):
        return False
    return all(
        isinstance(v, str)
        and len(v) <= 20
        and (mass_factor(v) is not None or is_unit_text(v) or is_unit_text(v.replace(" ", "")))
        for v in values
    )


_ERROR_TEXT = (
    r"^#(?:N/A|N/D|VALUE!|VALOR!|REF!|DIV/0!|NUM!|NAME\?|NOME\?|NULL!|NULO!|SPILL!|CALC!)$"
)


def _error_texts(body: pd.DataFrame) -> list[tuple[int, str]]:
    """Cells holding a spreadsheet error as text; they become missing values, in place."""
    found = []
    for column in body.columns:
        values = body[column]
        errors = _text_matching(values, _ERROR_TEXT)
        if errors.any():
            found.extend((int(row), column) for row in body.index[errors])
            body.loc[errors, column] = None
    return found


def _text_matching(values: pd.Series, pattern: re.Pattern | str) -> pd.Series:
    """Which cells are text matching ``pattern``: decided once per distinct value, since a
    column repeats its values (and most of a body is numbers)."""
    if pd.api.types.infer_dtype(values, skipna=True) in ("floating", "integer", "empty"):
        return pd.Series(False, index=values.index)  # numbers only: no text to match
    distinct = pd.unique(values.dropna())
    hits = [v for v in distinct if isinstance(v, str) and re.match(pattern, v)]
    if not hits:
        return pd.Series(False, index=values.index)
    return values.isin(hits)


def _clean(value: object) -> object:
    if isinstance(value, str):
        return value.strip()
    return "" if value is None else value


def _pad(row: list[object], width: int) -> list[object]:
    return row + [""] * (width - len(row))


def _nonempty(row: list[object]) -> list[object]:
    return [v for v in row if v != "" and v is not None]


def _is_blank(row: list[object]) -> bool:
    return not _nonempty(row)


_NUMERIC_TEXT = re.compile(r"^[-+(]?\d[\d.,\s]*\)?%?$")


def _numbers(row: list[object], *, allow_years: bool = False) -> int:
    """Cells holding a number, typed or as text (a CSV gives only text).

    With ``allow_years``, a whole year (a header of a column per year) is not counted.
    """
    count = 0
    for value in row:
        number = (isinstance(value, str) and bool(_NUMERIC_TEXT.match(value))) or (
            isinstance(value, int | float) and not isinstance(value, bool)
        )
        if number and not (allow_years and is_year(value)):
            count += 1
    return count


def _fill_merged(
    head: list[list[object]], merged: list[tuple[tuple[int, int], tuple[int, int]]]
) -> list[list[object]]:
    """Spread a merged cell's value over its whole range, as a reader sees it."""
    filled = [list(row) for row in head]
    for (r0, c0), (r1, c1) in merged:
        if r0 >= len(filled):
            continue
        value = filled[r0][c0] if c0 < len(filled[r0]) else ""
        for r in range(r0, min(r1, len(filled) - 1) + 1):
            for c in range(c0, min(c1, len(filled[r]) - 1) + 1):
                filled[r][c] = value
    return filled


def _refines(head: list[list[object]], merged, index: int) -> bool:
    """A row that names sub-columns of the row above, not a data row under a header: the
    row above reaches down into it (a name merged over both rows), or each of its cells sits
    under an empty cell or under a group merged across columns."""
    above = head[index - 1]

    def spans(column: int, rows: bool) -> bool:
        return any(
            (r0 <= index - 1 and r1 >= index) if rows else (r0 <= index - 1 <= r1 and c1 > c0)
            for (r0, c0), (r1, c1) in merged
            if c0 <= column <= c1
        )

    if any(name not in ("", None) and spans(c, rows=True) for c, name in enumerate(above)):
        return True
    return all(
        value in ("", None) or above[c] in ("", None) or spans(c, rows=False)
        for c, value in enumerate(head[index])
    )


def _header_like(row: list[object], head: list[list[object]], index: int, raw: RawSheet) -> bool:
    """An upper header row: text only, and not a title spanning the whole table."""
    values = _nonempty(head[index])
    if not values or _numbers(head[index]):
        return False
    if len(values) == 1:
        width = len(row)
        spans = [c1 - c0 + 1 for (r0, c0), (_, c1) in raw.merged if r0 == index]
        if spans:
            return max(spans) < width * 0.8
        return head[index][0] == ""  # a lone value over later columns groups them
    return True


def _join(rows: list[list[object]]) -> list[str]:
    names = []
    for column in range(len(rows[0])):
        parts: list[str] = []
        for row in rows:
            text = _header_text(row[column])
            if text and (not parts or parts[-1] != text):
                parts.append(text)
        names.append(HEADER_JOIN.join(parts))
    return names


def _header_text(value: object) -> str:
    if value in ("", None):
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))  # a year typed as a number: 1990.0 -> '1990'
    return str(value).strip()


def _score(names: list[str]) -> float:
    fields = {base_field(m.field) for name in names if name and (m := match_header(name))}
    emissions = any(f in ("emissions_t_gas", "emissions_tco2e") for f in fields)
    # Activity data names its columns by what they hold: a date ('Data') and a quantity
    # headed by its unit alone ('Litros', 'kWh').
    unnamed = [name for name in names if name and match_header(name) is None]
    dated = any(is_date_header(name) for name in unnamed)
    unit_only = any(is_unit_text(name) for name in unnamed)
    return len(fields) + (0.5 if emissions else 0.0) + dated + unit_only


def _time_score(names: list[str]) -> float:
    """Years (1990, 2000 ...) or months (Jan ... Dez) across the header stand for emission
    or consumption columns. A year under a named column ('Ano / 2021', 'Emissões (kg) /
    2015') is a data row's value, not this."""
    free = [name for name in names if year_of_header(name) and match_header(name) is None]
    if len(free) >= 2:
        return 2.5
    # Months count as one field: enough to find 'Unidade | Jan ... Dez', never more than a
    # header group that says what the months hold ('Emissões mensais (t) / Jan').
    months = [name for name in names if month_of_header(name) and match_header(name) is None]
    return 1.0 if len(months) >= 2 else 0.0


def _unique(names: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    result = []
    for index, given in enumerate(names):
        name = given or f"Coluna {_letters(index)}"
        count = seen.get(name, 0)
        seen[name] = count + 1
        result.append(name if count == 0 else f"{name} ({count + 1})")
    return result


def _letters(index: int) -> str:
    letters = ""
    index += 1
    while index:
        index, remainder = divmod(index - 1, 26)
        letters = chr(65 + remainder) + letters
    return letters


def _split_rows(
    body: pd.DataFrame, names: list[str]
) -> tuple[pd.DataFrame, pd.DataFrame, list[str]]:
    present = body.notna()
    counts = present.sum(axis=1)
    body = body[counts > 0]
    present, counts = present.loc[body.index], counts.loc[body.index]
    text_columns = list(body.columns[: min(4, len(body.columns))])
    is_total = pd.Series(False, index=body.index)
    for column in text_columns:
        is_total |= _text_matching(body[column], _TOTAL)
    lone = counts == 1
    first_values = body.bfill(axis=1).iloc[:, 0] if lone.any() else pd.Series(dtype=object)
    is_note = pd.Series(False, index=body.index)
    if lone.any():
        lone_values = first_values[lone]
        is_note[lone] = lone_values.map(
            lambda v: isinstance(v, str) and (len(v) > 25 or bool(_NOTE.match(v)))
        )
    header_again = pd.Series(False, index=body.index)
    if len(body):
        repeats = sum(
            _text_matching(body[column], re.compile(rf"^{re.escape(name)}$")).astype(int)
            for column, name in zip(body.columns, names, strict=True)
        )
        header_again = repeats >= max(2, len(names) // 2)
    notes = [str(v) for v in first_values[is_note]] if is_note.any() else []
    keep = ~(is_total | is_note | header_again)
    return body[keep], body[is_total], notes
