"""The keys an estimate files its gases and blend shares under, and how an answer says them.

Apart from results.py and explain.py so that both read them and explain.py, which results.py
imports to render an estimate, needs nothing else from results.py at runtime.
"""

from __future__ import annotations

COMBUSTION_GASES = ("CO2", "CH4", "N2O")
BIOGENIC = "CO2_biogenic"
# Blend shares, by factor key: how an answer names them.
SHARE_ROLES = {
    "diesel_b.biodiesel_share": ("teor de biodiesel", "biodiesel share"),
    "gasoline_c.ethanol_share": ("teor de etanol anidro", "anhydrous ethanol share"),
}
GAS_LABELS = {
    "CO2": ("CO2 fóssil", "fossil CO2"),
    BIOGENIC: ("CO2 biogênico", "biogenic CO2"),
}
