"""Hierarchically coded rows (1, 1.A, 1.A.1 ...; I, I.1, I.1.1): parents are subtotals.

National inventories (IPCC / CRF codes) and city inventories (GPC reference numbers) carry
every level of a tree in one column of rows. A row whose code heads other codes is the sum
of its children: it is a check on them, never data to add again.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import pandas as pd

_CODE = re.compile(r"^\s*((?:\d{1,2}|[IVX]{1,4})(?:\.(?:\d{1,2}|[A-Za-z]{1,2}))*)\.?(?=\s|$|[-–:])")
_MIN_CODED_ROWS = 3


@dataclass
class Hierarchy:
    parents: list[int] = field(default_factory=list)  # body index of subtotal rows
    children: dict[int, list[int]] = field(default_factory=dict)  # parent -> direct children
    codes: dict[int, str] = field(default_factory=dict)


def code_of(value: object) -> str | None:
    """'1.A.3.b Transporte rodoviário' -> '1.A.3.b'; 2.0 (a number cell) -> '2'."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        if math.isnan(value) or not float(value).is_integer() or not 0 < value < 100:
            return None
        return str(int(value))
    match = _CODE.match(str(value))
    return match.group(1).upper() if match else None


def find_hierarchy(body: pd.DataFrame, label_columns: list[str]) -> Hierarchy:
    """The coded tree in the first label column that holds one, or an empty hierarchy."""
    for column in label_columns:
        codes = {int(i): c for i, v in body[column].items() if (c := code_of(v))}
        if len(codes) < _MIN_CODED_ROWS:
            continue
        by_code: dict[str, int] = {}
        for index, code in codes.items():
            by_code.setdefault(code, index)
        children: dict[int, list[int]] = {}
        for index, code in codes.items():
            parent = _parent_code(code)
            while parent is not None and parent not in by_code:
                parent = _parent_code(parent)
            if parent is not None:
                children.setdefault(by_code[parent], []).append(index)
        if children:
            return Hierarchy(sorted(children), children, codes)
    return Hierarchy()


def _parent_code(code: str) -> str | None:
    return code.rsplit(".", 1)[0] if "." in code else None
