"""Inventory ingestion: spreadsheets in; a canonical table, analytics and a bounded digest out.

No Streamlit here: the app's inventory page and the engine both call ``load_inventory``.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from engine.gases.gwp import DEFAULT_GWP_SET, GWP_SETS, canonical_gas, gwp
from engine.inventory.errors import (
    ActivityNotComputedError,
    ActivityUnitError,
    CorruptFileError,
    EmptyFileError,
    FileTooLargeError,
    FormatMismatchError,
    InventoryError,
    NoEmissionsColumnError,
    NoTableFoundError,
    PasswordProtectedError,
    TooManyRowsError,
    UnknownGwpSetError,
    UnsupportedFormatError,
)
from engine.inventory.fields import FIELDS
from engine.inventory.findings import Finding

if TYPE_CHECKING:
    from engine.inventory.digest import DEFAULT_DIGEST_CHARS
    from engine.inventory.inventory import Inventory
    from engine.inventory.loader import list_sheets, load_inventory, load_markdown_inventory

# pandas, pint and the factor library load on first use of these (PEP 562), so importing the
# package, its errors or its GWP tables stays cheap.
_LAZY = {
    "DEFAULT_DIGEST_CHARS": "engine.inventory.digest",
    "Inventory": "engine.inventory.inventory",
    "list_sheets": "engine.inventory.loader",
    "load_inventory": "engine.inventory.loader",
    "load_markdown_inventory": "engine.inventory.loader",
}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value  # the next access is a plain attribute lookup
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__all__ = [
    "DEFAULT_DIGEST_CHARS",
    "DEFAULT_GWP_SET",
    "FIELDS",
    "GWP_SETS",
    "ActivityNotComputedError",
    "ActivityUnitError",
    "CorruptFileError",
    "EmptyFileError",
    "FileTooLargeError",
    "Finding",
    "FormatMismatchError",
    "Inventory",
    "InventoryError",
    "NoEmissionsColumnError",
    "NoTableFoundError",
    "PasswordProtectedError",
    "TooManyRowsError",
    "UnknownGwpSetError",
    "UnsupportedFormatError",
    "canonical_gas",
    "gwp",
    "list_sheets",
    "load_inventory",
    "load_markdown_inventory",
]
