"""Inventory ingestion: spreadsheets in; a canonical table, analytics and a bounded digest out.

No Streamlit here: the app's inventory page and the engine both call ``load_inventory``.
"""

from engine.inventory.digest import DEFAULT_DIGEST_CHARS
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
from engine.inventory.gwp import DEFAULT_GWP_SET, GWP_SETS, canonical_gas, gwp
from engine.inventory.inventory import Inventory
from engine.inventory.loader import list_sheets, load_inventory, load_markdown_inventory

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
