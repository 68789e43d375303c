"""Each installation's Scope 1 against the SBCE thresholds (Lei nº 15.042/2024, art. 30).

The law regulates operators of installations and sources that emit *above* 10,000 t CO2e a
year (monitoring plan, annual report of emissions and removals) and *above* 25,000 t CO2e
(also periodic reconciliation of obligations by surrendering CBE or CRVE). It applies per
installation, never to the company's sum: an inventory is judged facility by facility, and
rows with no facility cannot be judged until they are assigned to one.
"""

from __future__ import annotations

from typing import Literal

import pandas as pd

from engine.actions.model import Installation
from engine.inventory import Inventory
from engine.inventory import fields as F

# The same figures as engine.offline.regulation (a test keeps them equal); not imported from
# there because the offline package loads the whole offline analyst.
MONITORING_T = 10_000.0
ALLOWANCES_T = 25_000.0
NEAR_SHARE = 0.10  # "near": within this share below a threshold
SOURCE = "Lei nº 15.042, de 11 de dezembro de 2024 (SBCE), arts. 29–30"
UNASSIGNED = "(unidade não informada)"

Status = Literal["below", "monitoring", "allowances"]


def status_of(scope1_tco2e: float) -> Status:
    # The law says "acima de": exactly at a threshold is the band below it.
    if scope1_tco2e > ALLOWANCES_T:
        return "allowances"
    return "monitoring" if scope1_tco2e > MONITORING_T else "below"


def near_of(scope1_tco2e: float) -> str | None:
    """The threshold the installation sits within 10% below of (at it counts as below)."""
    for name, threshold in (("monitoring", MONITORING_T), ("allowances", ALLOWANCES_T)):
        if threshold * (1 - NEAR_SHARE) <= scope1_tco2e <= threshold:
            return name
    return None


def installation(facility: str, scope1_tco2e: float) -> Installation:
    return Installation(
        facility=facility,
        scope1_tco2e=scope1_tco2e,
        status=status_of(scope1_tco2e),
        near=near_of(scope1_tco2e),
    )


def readiness(inventory: Inventory) -> list[Installation]:
    """Per facility of the headline year, its Scope 1 t CO2e and where the SBCE puts it;
    largest first, the rows with no facility last. Memo rows (biogenic CO2, Montreal gases)
    are outside Scope 1's total, so outside this one too."""
    rows = inventory.current
    if F.SCOPE not in rows:
        return []
    scope1 = rows[rows[F.SCOPE].map(_scope_text) == "1"]
    if F.REPORTING in scope1:
        scope1 = scope1[scope1[F.REPORTING] == F.IN_INVENTORY]
    if scope1.empty:
        return []
    if F.FACILITY in scope1:
        names = scope1[F.FACILITY].map(_facility_name)
    else:
        names = pd.Series(UNASSIGNED, index=scope1.index)
    totals = scope1[F.EMISSIONS_TCO2E].groupby(names).sum()
    found = [installation(str(name), float(value)) for name, value in totals.items()]
    return sorted(found, key=lambda i: (i.facility == UNASSIGNED, -i.scope1_tco2e, i.facility))


def _scope_text(value: object) -> str | None:
    if value is None or pd.isna(value):  # type: ignore[arg-type]
        return None
    text = str(value).strip()
    return text[:-2] if text.endswith(".0") else text


def _facility_name(value: object) -> str:
    if value is None or pd.isna(value):  # type: ignore[arg-type]
        return UNASSIGNED
    text = " ".join(str(value).split())
    return text or UNASSIGNED
