"""Find the table in a raw sheet: skip titles, blanks and notes; join multi-row headers;
keep total rows apart; locate error cells."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from engine.inventory.fields import (
    HEADER_JOIN,
    base_field,
    category_of,
    is_date_header,
    is_unit_text,
    is_year,
    match_header,
    month_of_header,
    parse_scope,
    words,
    year_in_text,
    year_of_header,
)
from engine.inventory.hierarchy import find_arithmetic, find_hierarchy
from engine.inventory.reader import RawSheet
from engine.inventory.reconcile import TOTAL_WORDS, UnitEvidence
from engine.inventory.units import mass_factor, may_be_number, to_numbers

HEADER_SEARCH_ROWS = 60  # a table's header is looked for in a sheet's first rows
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
    # A column's unit read from somewhere other than its header (a melted value column whose
    # unit stood in the label column's header or a title): column -> UnitEvidence
    unit_sources: dict[str, UnitEvidence] = field(default_factory=dict)
    # Uncoded rows of a coded table that add up to some of its top-level codes ('Emissões
    # totais' = 1 + 3 + 4): row -> those codes. Checked, never added.
    summaries: dict[int, tuple[str, ...]] = field(default_factory=dict)

    def rows(self) -> pd.Series:
        """The 1-based sheet row of every body row."""
        if self.sheet_rows is not None:
            return self.sheet_rows
        return pd.Series(self.body.index.to_numpy(), index=self.body.index)


def find_table(raw: RawSheet) -> SheetTable | None:
    rows = raw.rows
    window = _search_window(raw)
    if window is None:
        return None
    offset, width, head, raw = window
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
    while header_index + 1 < len(head) and _is_units_row(head[header_index + 1]):
        header_index += 1  # rows of units (and GWPs) under the names belong to the header
        above += 1
    names = _unique(_join(filled[header_index - above : header_index + 1]))
    first = offset + header_index  # the header's last row in the sheet, 0-based
    body = pd.DataFrame(rows[first + 1 :], dtype=object)
    body = body.reindex(columns=range(width)) if body.shape[1] != width else body
    body = body.iloc[:, :width]
    body.columns = names
    body.index = pd.RangeIndex(first + 2, first + 2 + len(body))
    body = _blank_as_missing(body)
    texts = _DistinctTexts(body)
    typed_errors = _error_texts(body, texts)  # '#N/A' written as text: CSV, ODS
    body, totals, notes = _split_rows(body, names, texts)
    body, totals = _names_that_say_total(body, totals, raw.decimal_comma)
    labels = [c for c in names[:3] if any(map(_is_label, body[c].to_numpy(dtype=object)[:50]))]
    hierarchy = find_hierarchy(body, labels)
    if not hierarchy.parents and len(body) <= 600:
        hierarchy = _arithmetic_tree(body, raw.decimal_comma)
    parent_frame = None
    summaries: dict[int, tuple[str, ...]] = {}
    if hierarchy.by_code and hierarchy.parents:
        summaries = _summary_rows(body, hierarchy, labels, raw.decimal_comma)
        body = body.drop(index=list(summaries))
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
        header_rows=tuple(range(first - above + 1, first + 2)),
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
        summaries=summaries,
        # only coded trees are a check: arithmetic ones agree by construction
        children={int(p): [int(c) for c in kids] for p, kids in hierarchy.children.items()}
        if hierarchy.by_code
        else {},
    )


def _search_window(raw: RawSheet) -> tuple[int, int, list[list[object]], RawSheet] | None:
    """Where the header is looked for: the first row with content, the width of the rows
    from there, those rows padded, and ``raw`` as seen from there. A table stacked under
    another (``stacked_parts``) comes with blank rows in place of the one above, so its
    rows keep their numbers in the sheet."""
    rows = raw.rows
    offset = next((i for i, row in enumerate(rows) if not _is_blank(row)), len(rows))
    window = rows[offset : offset + HEADER_SEARCH_ROWS]
    width = max((len(row) for row in window), default=0)
    if width == 0:
        return None
    head = [_pad([_clean(v) for v in row], width) for row in window]
    return offset, width, head, _from_row(raw, offset) if offset else raw


def _from_row(raw: RawSheet, offset: int) -> RawSheet:
    """``raw`` as the header search sees it from row ``offset``: merged ranges counted from
    there (the search indexes its window of rows); cells and errors keep their sheet rows."""
    merged = [((r0 - offset, c0), (r1 - offset, c1)) for (r0, c0), (r1, c1) in raw.merged
              if r1 >= offset]  # fmt: skip
    return replace(raw, merged=merged)


def stacked_parts(raw: RawSheet) -> list[tuple[RawSheet, SheetTable | None]]:
    """The tables of a sheet, top to bottom, each with the part of the sheet it stands on.

    A second table under the first ("Gases do Protocolo de Montreal", with its own header and
    units, after a blank row) is read under its own header, not as rows of the first: its
    columns and units are its own. Its part is named "<sheet> (2)" and holds blank rows in
    place of the table above, so every row keeps its number in the sheet. A header that
    repeats the first one (a page break) continues the same table, as before.
    """
    found = find_table(raw)
    if found is None:
        return [(raw, None)]
    start = _next_table(raw, found)
    if start is None:
        return [(raw, found)]
    top = replace(raw, rows=raw.rows[:start])
    rest = replace(raw, rows=[[] for _ in range(start)] + raw.rows[start:])
    first = find_table(top)
    parts = [(top, first)]
    # The year stated over the sheet's first table ("Inventário 2024") is every table's.
    year = year_in_text(first.title) if first is not None else None
    for number, (part, found_below) in enumerate(stacked_parts(rest), start=2):
        name = f"{raw.name} ({number})"
        below = None
        if found_below is not None:
            title = found_below.title
            if year and not year_in_text(title):
                title = f"{title} ({year})".strip()
            below = replace(found_below, sheet=name, title=title)
        parts.append((replace(part, name=name), below))
    return parts


def _next_table(raw: RawSheet, found: SheetTable) -> int | None:
    """The 0-based row where a second table's block starts (its title line, or its header),
    after a blank row below ``found``'s body; None when the sheet holds one table."""
    rows = raw.rows
    header = {str(v).strip() for v in found.columns if str(v).strip()}
    for index in range(found.header_rows[-1] + 1, len(rows)):
        if not _is_blank(rows[index - 1]) or _is_blank(rows[index]):
            continue
        title = len(_nonempty(rows[index])) == 1 and isinstance(_nonempty(rows[index])[0], str)
        at = index + 1 if title else index
        if at >= len(rows) or (title and _is_blank(rows[at])):
            continue
        row = [_clean(v) for v in rows[at]]
        texts = _nonempty(row)
        if len(texts) < 2 or not all(isinstance(v, str) for v in texts) or _numbers(row):
            continue
        if {str(v) for v in texts} <= header or _score(_join([row])) < 2:
            continue  # a repeated header (a page break), or no header at all
        if any(_numbers(r) for r in rows[at + 1 : at + 1 + 50]):  # a table, not a legend
            return index
    return None


_MAX_SUMMARY_ROOTS = 12  # subsets of the top-level codes tried: 4,095 at most


def _summary_rows(
    body: pd.DataFrame, hierarchy, labels: list[str], decimal_comma: bool | None
) -> dict[int, tuple[str, ...]]:
    """Uncoded rows whose every number is the sum of the same top-level coded rows."""
    uncoded = [int(i) for i in body.index if int(i) not in hierarchy.codes]
    roots = [i for i in hierarchy.codes if i not in hierarchy.parent_of and i in body.index]
    if not uncoded or not 1 <= len(roots) <= _MAX_SUMMARY_ROOTS:
        return {}
    numeric = [c for c in body.columns if c not in labels]
    comma = decimal_comma is not False
    frame = pd.DataFrame({c: to_numbers(body[c], decimal_comma=comma) for c in numeric})
    frame = frame.loc[:, frame.loc[roots].notna().any()]
    if frame.empty:
        return {}
    root_values = frame.loc[roots].fillna(0.0).to_numpy()
    found: dict[int, tuple[str, ...]] = {}
    subsets = [
        [roots[k] for k in range(len(roots)) if mask >> k & 1] for mask in range(1, 2 ** len(roots))
    ]
    sums = [
        (subset, root_values[[roots.index(r) for r in subset]].sum(axis=0)) for subset in subsets
    ]
    for row in uncoded:
        values = frame.loc[row].to_numpy()
        valued = ~np.isnan(values)
        if valued.sum() == 0:
            continue
        for subset, total in sums:
            a, b = values[valued], total[valued]
            near = np.abs(a - b) <= np.maximum(0.01, 0.005 * np.maximum(np.abs(a), np.abs(b)))
            if near.sum() * 2 > len(near):  # a change-rate column ('Var. %') never adds up
                found[row] = tuple(hierarchy.codes[r] for r in subset)
                break
    return found


def _lineage(body: pd.DataFrame, hierarchy, labels: list[str]) -> dict[int, list[str]]:
    """Each coded row's ancestors' labels, nearest first: '1.A.1' under '1.A Combustão
    estacionária' under '1 Escopo 1' gets ['Combustão estacionária', 'Escopo 1']."""
    text = {}
    # by position on the object grid: ``body.loc[parents, labels]`` was most of this
    positions = body.index.get_indexer(hierarchy.parents)
    if (positions < 0).any():
        raise KeyError([p for p, at in zip(hierarchy.parents, positions, strict=True) if at < 0])
    cells_of = body[labels].to_numpy(dtype=object)[positions].tolist()
    for parent, row_cells in zip(hierarchy.parents, cells_of, strict=True):
        words_ = " ".join(v for v in row_cells if isinstance(v, str))
        code = hierarchy.codes.get(parent, "")
        prefix = rf"^\s*{re.escape(code)}\.?\s*" if code else r"^"
        text[parent] = re.sub(prefix, "", words_).strip()
    return {
        row: [text[a] for a in hierarchy.ancestors(row) if text.get(a)]
        for row in body.index.tolist()
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


_GWP_NOTE = re.compile(r"(?i)^\s*(gwp|gtp|potencial)\b|^\s*\(?(sar|tar|ar[4-6])\)?\s*$")


def _is_units_row(row: list[object]) -> bool:
    """A row under the header that only names units ('t', 'kg', 'Gg CO2e', 'MWh', 'L') or the
    GWP each column was weighed with ('GWP 28', 'GWP AR5'): part of a header in rows."""
    values = _nonempty(row)
    if not values or _numbers(row):
        return False
    return all(
        isinstance(v, str)
        and len(v) <= 20
        and (
            mass_factor(v) is not None
            or is_unit_text(v)
            or is_unit_text(v.replace(" ", ""))
            or bool(_GWP_NOTE.match(v))
        )
        for v in values
    )


_ERROR_TEXT = re.compile(
    r"^#(?:N/A|N/D|VALUE!|VALOR!|REF!|DIV/0!|NUM!|NAME\?|NOME\?|NULL!|NULO!|SPILL!|CALC!)$"
)


def _blank_as_missing(body: pd.DataFrame) -> pd.DataFrame:
    """``body.replace("", None)`` on the object grid at once (pandas' replace: 0.2 s on
    100,000 rows)."""
    values = body.to_numpy(dtype=object, copy=True)
    values[values == ""] = None
    return pd.DataFrame(values, index=body.index, columns=body.columns, dtype=object)


class _DistinctTexts:
    """Each body column's distinct text cells, found once: error texts, total labels and
    repeated headers are matched against these, not against every cell (a column repeats
    its values, and most of a body is numbers)."""

    def __init__(self, body: pd.DataFrame) -> None:
        self.body = body
        self.found: dict[str, set[str]] = {}

    def of(self, column: str) -> set[str]:
        if column not in self.found:
            cells = set(self.body[column].to_numpy(dtype=object))
            self.found[column] = {v for v in cells if isinstance(v, str)}
        return self.found[column]


def _error_texts(body: pd.DataFrame, texts: _DistinctTexts) -> list[tuple[int, str]]:
    """Cells holding a spreadsheet error as text; they become missing values, in place."""
    found = []
    for column in body.columns:
        hits = [v for v in texts.of(column) if v.startswith("#") and _ERROR_TEXT.match(v)]
        if not hits:
            continue
        errors = body[column].isin(hits)
        found.extend((int(row), column) for row in body.index[errors])
        body.loc[errors, column] = None
        texts.found[column] = texts.of(column) - set(hits)
    return found


def _text_matching(
    values: pd.Series, pattern: re.Pattern | str, distinct: set[str] | None = None
) -> pd.Series:
    """Which cells are text matching ``pattern``: decided once per distinct value, since a
    column repeats its values (and most of a body is numbers). ``distinct``: the column's
    text cells, when already known."""
    if distinct is None:
        if pd.api.types.infer_dtype(values, skipna=True) in ("floating", "integer", "empty"):
            return pd.Series(False, index=values.index)  # numbers only: no text to match
        distinct = {v for v in pd.unique(values.dropna()) if isinstance(v, str)}
    match = re.compile(pattern).match
    hits = [v for v in distinct if match(v)]
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
    if len(free) == 1 and any(  # one year beside a header that says what the values are
        (m := match_header(name)) and base_field(m.field) in ("emissions_t_gas", "emissions_tco2e")
        for name in names
    ):
        return 1.0
    # Months count as one field: enough to find 'Unidade | Jan ... Dez', never more than a
    # header group that says what the months hold ('Emissões mensais (t) / Jan').
    months = [name for name in names if month_of_header(name) and match_header(name) is None]
    return 1.0 if len(months) >= 2 else 0.0


def _unique(names: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    result = []
    for index, given in enumerate(names):
        name = given or f"Coluna {column_letter(index)}"
        count = seen.get(name, 0)
        seen[name] = count + 1
        result.append(name if count == 0 else f"{name} ({count + 1})")
    return result


def column_letter(index: int) -> str:
    """The spreadsheet letter of a 0-based column: 0 -> 'A', 27 -> 'AB'."""
    letters = ""
    index += 1
    while index:
        index, remainder = divmod(index - 1, 26)
        letters = chr(65 + remainder) + letters
    return letters


# What a total row's label may add to "Total": nothing, a scope, a year, 'geral', a
# category; anything else ('Total Energies Refinery', 'TOTAL PETROCHEMICALS USA') is a name.
_TOTAL_QUALIFIERS = re.compile(
    r"^(geral|general|grand|overall|global|final|do|da|de|dos|das|of|the|all|todas?|"
    r"emiss\w*|emission\w*|escopos?|scopes?|inventario|inventory|anual|annual|ano|year|"
    r"gross|net|brutas?|brutos?|liquidas?|liquidos?|nacional|national|reported|relatadas?|"
    r"\d+|[ivx]+|co2e|tco2e|gee|ghg)$"
)


def _names_a_total(label: str) -> bool:
    rest = words(TOTAL_WORDS.sub("", label, count=1))
    if not rest:
        return True
    if parse_scope(rest) or is_year(rest) or (len(rest.split()) <= 4 and category_of(rest)):
        return True  # a category names a total in a few words, never inside a long name
    return all(_TOTAL_QUALIFIERS.match(word) for word in rest.split())


def _names_that_say_total(
    body: pd.DataFrame, totals: pd.DataFrame, decimal_comma: bool | None
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A row whose label starts with 'Total' is a total row when its label names a total, or
    when its numbers add up as one (the rows since the previous total, above it, or all);
    otherwise it is a data row ('Total Energies Refinery' is a facility)."""
    if totals.empty:
        return body, totals
    text_columns = list(totals.columns[: min(4, len(totals.columns))])
    label_of = {}
    for row, cells in zip(totals.index, totals[text_columns].itertuples(index=False), strict=True):
        said = [v for v in cells if isinstance(v, str) and v.strip()]
        label_of[row] = next((v for v in said if _TOTAL.match(v)), "")
    named = {row: _names_a_total(label) for row, label in label_of.items()}
    if all(named.values()):  # every label names a total: no arithmetic to do
        return body, totals
    values = pd.concat([body, totals]).sort_index()
    # Only a column where a row in question holds a number can count for it (``_adds_up``
    # skips its blanks): the others are not parsed (on a 7,000-facility sheet, 2 s of text).
    pending = [row for row in totals.index if not named[row]]
    numeric = [
        c for c in body.columns
        if not _text_matching(totals[c], _TOTAL).any()
        and any(may_be_number(v) for v in totals.loc[pending, c])
    ]  # fmt: skip
    parsed = {c: to_numbers(values[c], decimal_comma=decimal_comma is not False) for c in numeric}
    # A year column says which rows a total can sum: those of its own year. Its number is
    # no amount to add (2022 is not 2021 + nothing), so it is not one of the checks.
    years = {c: parsed.pop(c) for c in list(parsed) if _is_year_column(c)}
    names: list[int] = []
    previous = None
    for row in totals.index:
        if named[row] or (
            _same_year(years, values.index, row, previous)
            and _adds_up(parsed, values.index, row, previous)
        ):
            previous = row
            continue
        names.append(row)
    if not names:
        return body, totals
    body = pd.concat([body, totals.loc[names]]).sort_index()
    return body, totals.drop(index=names)


def _is_year_column(column: str) -> bool:
    found = match_header(column)
    return found is not None and base_field(found.field) == "year"


def _same_year(years: dict[str, pd.Series], index: pd.Index, row: int, previous: int | None):
    """Whether the rows the row would total (since the previous total) hold its year."""
    above = index[index < row]
    since = above[above > previous] if previous is not None else above
    for values in years.values():
        year = values.get(row)
        if year is None or pd.isna(year):
            continue
        if not len(since) or year not in set(values.loc[since].dropna()):
            return False
    return True


def _adds_up(parsed: dict[str, pd.Series], index: pd.Index, row: int, previous: int | None):
    """Whether most of the row's numbers are a sum of the rows above it (an identifier column
    can agree by chance: ids run close to each other)."""
    above = index[index < row]
    since = above[above > previous] if previous is not None else above
    if not len(since):  # a name closes no rows (a lone facility equals the total below it)
        return False
    valued = agreeing = 0
    for values in parsed.values():
        value = values.get(row)
        if value is None or pd.isna(value):
            continue
        valued += 1
        candidates = [values.loc[since].sum(), values.loc[above].sum()]
        if any(abs(value - c) <= max(0.01, 0.005 * max(abs(value), abs(c))) for c in candidates):
            agreeing += 1
    return valued > 0 and agreeing * 2 > valued


def _split_rows(
    body: pd.DataFrame, names: list[str], texts: _DistinctTexts
) -> tuple[pd.DataFrame, pd.DataFrame, list[str]]:
    present = body.notna()
    counts = present.sum(axis=1)
    body = body[counts > 0]
    present, counts = present.loc[body.index], counts.loc[body.index]
    text_columns = list(body.columns[: min(4, len(body.columns))])
    is_total = pd.Series(False, index=body.index)
    for column in text_columns:  # (rows dropped above were blank: the same texts)
        is_total |= _text_matching(body[column], _TOTAL, texts.of(column))
    lone = counts == 1
    first_values = body.bfill(axis=1).iloc[:, 0] if lone.any() else pd.Series(dtype=object)
    is_note = pd.Series(False, index=body.index)
    if lone.any():
        lone_values = first_values[lone]
        is_note[lone] = lone_values.map(
            lambda v: isinstance(v, str) and (len(v) > 25 or bool(_NOTE.match(v)))
        )
    header_again = pd.Series(False, index=body.index)
    repeated = [  # columns whose own name stands in some cell ('$' also takes a final '\n')
        column for column, name in zip(body.columns, names, strict=True)
        if name in texts.of(column) or f"{name}\n" in texts.of(column)
    ]  # fmt: skip
    if len(body) and len(repeated) >= max(2, len(names) // 2):
        repeats = sum(
            _text_matching(body[column], re.compile(rf"^{re.escape(name)}$")).astype(int)
            for column, name in zip(body.columns, names, strict=True)
        )
        header_again = repeats >= max(2, len(names) // 2)
    notes = [str(v) for v in first_values[is_note]] if is_note.any() else []
    keep = ~(is_total | is_note | header_again)
    return body[keep], body[is_total], notes
