"""A GWP set the product does not know, said in Portuguese and English."""

from __future__ import annotations

from engine.errors import AekoError, LocalizedError
from engine.texts import Texts

_TEXTS = Texts(
    "engine.gases.errors",
    {
        "unknown_gwp_set": {
            "pt": "Conjunto de GWP desconhecido: {gwp_set}. Use AR4, AR5 ou AR6.",
            "en": "Unknown GWP set: {gwp_set}. Use AR4, AR5 or AR6.",
        },
    },
)


class UnknownGwpSetError(LocalizedError, AekoError):
    # Not an InventoryError: the calculator and the profile refuse an unknown set too, and
    # engine.inventory cannot be imported from here without the cycle this package breaks.
    code = "unknown_gwp_set"

    def __init__(self, gwp_set: str) -> None:
        super().__init__(_TEXTS.both("unknown_gwp_set", gwp_set=gwp_set))
