"""Hierarchically coded rows (1, 1.A, 1.A.1 ...; I, I.1, I.1.1): parents are subtotals.

National inventories (IPCC / CRF codes) and city inventories (GPC reference numbers) carry
every level of a tree in one column of rows. A row whose code heads other codes is the sum
of its children: it is a check on them, never data to add again.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import lru_cache

import pandas as pd

# Levels: numbers, one or two letters, or a roman numeral in lower case ('3.D.2.a.iii').
_CODE = re.compile(
    r"^\s*((?:\d{1,2}|[IVX]{1,4})(?:\.(?:\d{1,2}|[A-Za-z]{1,2}|[ivx]{1,5}))*)\.?(?=\s|$|[-–:])"
)
_MIN_CODED_ROWS = 3


@dataclass
class Hierarchy:
    parents: list[int] = field(default_factory=list)  # body index of subtotal rows
    children: dict[int, list[int]] = field(default_factory=dict)  # parent -> direct children
    codes: dict[int, str] = field(default_factory=dict)
    by_code: bool = True  # False: found by arithmetic, which agrees by construction
    parent_of: dict[int, int] = field(default_factory=dict)  # row -> its subtotal row

    def ancestors(self, index: int) -> list[int]:
        """The subtotal rows above a row, nearest first."""
        found = []
        while index in self.parent_of:
            index = self.parent_of[index]
            found.append(index)
        return found


def code_of(value: object) -> str | None:
    """'1.A.3.b Transporte rodoviário' -> '1.A.3.b'; 2.0 (a number cell) -> '2'."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        if math.isnan(value) or not float(value).is_integer() or not 0 < value < 100:
            return None
        return str(int(value))
    return _code_of_text(str(value))


@lru_cache(maxsize=65_536)  # the same labels on every sheet of a workbook (one per year)
def _code_of_text(text: str) -> str | None:
    match = _CODE.match(text)
    return match.group(1).upper() if match else None


def find_hierarchy(body: pd.DataFrame, label_columns: list[str]) -> Hierarchy:
    """The coded tree in the first label column that holds one, or an empty hierarchy."""
    for column in label_columns:
        values = body[column]
        distinct = pd.unique(values.dropna())
        coded = {v: c for v in distinct if (c := code_of(v))}
        if len(coded) < _MIN_CODED_ROWS or not any("." in c for c in coded.values()):
            continue  # inventories repeat labels: the distinct values decide, cheaply
        codes = {int(i): coded[v] for i, v in values.items() if v in coded}
        # A code's parent is the nearest row above with the parent code: a tree repeated
        # per year (1, 1.A, 1.A.1 ... then 1, 1.A ... again) nests each time under its own.
        last_seen: dict[str, int] = {}
        parent_of: dict[int, int] = {}
        children: dict[int, list[int]] = {}
        for index, code in codes.items():
            parent = _parent_code(code)
            while parent is not None and parent not in last_seen:
                parent = _parent_code(parent)
            if parent is not None:
                parent_of[index] = last_seen[parent]
                children.setdefault(last_seen[parent], []).append(index)
            last_seen[code] = index
        if children:
            return Hierarchy(sorted(children), children, codes, parent_of=parent_of)
    return Hierarchy()


def _parent_code(code: str) -> str | None:
    return code.rsplit(".", 1)[0] if "." in code else None


_MAX_ARITHMETIC_ROWS = 600
_MAX_CHILDREN = 200


def find_arithmetic(body: pd.DataFrame, label: str, numeric: list[pd.Series]) -> Hierarchy:
    """Uncoded subtotal rows of a summary table, found by arithmetic: a labelled row equal to
    the sum of the rows right below it (nested subtotals count once).

    Only for summary-style tables (one label column): with several numeric columns every one
    must agree; with one, the rows below must also be indented under it, so that a detail
    table whose values happen to add up is never mistaken for a tree.
    """
    n = len(body)
    if not numeric or n < 3 or n > _MAX_ARITHMETIC_ROWS:
        return Hierarchy()
    index = list(body.index)
    values = [column.fillna(0.0).astype(float).tolist() for column in numeric]
    present = [column.notna().tolist() for column in numeric]
    labels = [str(v) if isinstance(v, str) else "" for v in body[label].to_numpy()]
    indent = [len(t) - len(t.lstrip()) for t in labels]
    end: list[int | None] = [None] * n
    children: dict[int, list[int]] = {}
    for i in range(n - 2, -1, -1):
        if not labels[i].strip() or not any(p[i] for p in present):
            continue
        sums = [0.0] * len(values)
        kids: list[int] = []
        j = i + 1
        while j < n and len(kids) < _MAX_CHILDREN:
            for c, column in enumerate(values):
                sums[c] += column[j]
            kids.append(j)
            j = (end[j] if end[j] is not None else j) + 1
            if len(kids) >= 2 and _adds_up(values, present, i, sums):
                if len(numeric) == 1 and not all(indent[k] > indent[i] for k in kids):
                    break
                end[i] = j - 1
                children[index[i]] = [index[k] for k in kids]
                break
    if not children:
        return Hierarchy()
    return Hierarchy(sorted(children), children, {}, by_code=False)


def _adds_up(values, present, i: int, sums: list[float]) -> bool:
    checked = False
    for c, column in enumerate(values):
        if not present[c][i]:
            continue
        stated = column[i]
        if abs(stated - sums[c]) > max(0.01, 1e-6 * abs(stated)):
            return False
        checked = checked or stated != 0.0
    return checked
