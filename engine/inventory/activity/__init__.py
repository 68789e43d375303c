"""Activity data in the inventory: liters, m³, MWh, kg of refrigerant, t of carbonate.

Most Brazilian inventories start as activity data, not emissions. A table is an activity
table when it has a quantity, a unit, what was consumed and when (``detect``); what was
consumed is read from its cells, sheet name or title as one of the factor library's
activities (``matching``).

Its emissions are computed by ``engine.emissions.estimate_rows`` (one estimate per distinct
activity, unit and period, times the quantities: ``compute``) and become canonical rows with
``basis = "activity"`` (``canonical``). A table that carries its own emissions as well keeps
them as the headline: ours are computed beside them and compared per row (``activity``
evidence of the sheet's ``SheetCheck``); a difference beyond 2% is a finding that names the
factors used (``comparison``). The findings' texts are in ``findings``.
"""

from engine.inventory.activity.canonical import (
    ACTIVITY,
    FACTOR_COLUMNS,
    FACTOR_REF,
    canonical_rows,
    factors_used,
    mark_activities,
)
from engine.inventory.activity.comparison import compare
from engine.inventory.activity.compute import ActivityRows, collect_rows
from engine.inventory.activity.detect import ActivityPlan, months_hold_quantities, plan_activity
from engine.inventory.activity.findings import row_findings

__all__ = [
    "ACTIVITY",
    "FACTOR_COLUMNS",
    "FACTOR_REF",
    "ActivityPlan",
    "ActivityRows",
    "canonical_rows",
    "collect_rows",
    "compare",
    "factors_used",
    "mark_activities",
    "months_hold_quantities",
    "plan_activity",
    "row_findings",
]
