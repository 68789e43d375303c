"""The keys an estimate files its gases and blend shares under, and how an answer says them.

Apart from results.py and explain.py so that both read them and explain.py, which results.py
imports to render an estimate, needs nothing else from results.py at runtime.
"""

from __future__ import annotations

from engine.texts import Both, Texts

COMBUSTION_GASES = ("CO2", "CH4", "N2O")
BIOGENIC = "CO2_biogenic"
_TEXTS = Texts(
    "engine.emissions.names",
    {
        # Blend shares, by factor key: how an answer names them.
        "share:diesel_b.biodiesel_share": {"pt": "teor de biodiesel", "en": "biodiesel share"},
        "share:gasoline_c.ethanol_share": {
            "pt": "teor de etanol anidro",
            "en": "anhydrous ethanol share",
        },
        # The CO2s an answer tells apart.
        "gas:CO2": {"pt": "CO2 fóssil", "en": "fossil CO2"},
        f"gas:{BIOGENIC}": {"pt": "CO2 biogênico", "en": "biogenic CO2"},
    },
)
# The factor keys of blend shares (a page picks an estimate's shares by them).
SHARE_ROLES = frozenset(k.removeprefix("share:") for k in _TEXTS if k.startswith("share:"))


def share_role(key: str) -> Both | None:
    """How an answer names the blend share filed under ``key``; None for no share."""
    found = f"share:{key}"
    return _TEXTS.both(found) if found in _TEXTS else None


def gas_label(gas: str) -> Both | None:
    """'CO2 fóssil' / 'fossil CO2' for the gases an answer tells apart; None for the others."""
    found = f"gas:{gas}"
    return _TEXTS.both(found) if found in _TEXTS else None
