"""Emissions from activity data: a factor library with sources, and a calculator.

    from engine.emissions import estimate
    result = estimate("diesel_road", 1000, "L", date_or_year="2024-06-15")
    result.tco2e, result.biogenic_co2_t, result.gases_t
    print(result.explain("pt"))      # quantity × factor (source) = result, step by step

Factors are data (``data/*.csv``, one layout for every family and for a user's own file);
activities are data (``activities.toml``). No Streamlit, no database, no environment here.
"""

from engine.emissions.activities import ActivityInfo, activities, find_activity, nearest
from engine.emissions.batch import BatchResult, estimate_rows
from engine.emissions.calculator import (
    estimate,
    leaked_by_mass_balance,
    leaked_from_charge,
    resolve_activity,
)
from engine.emissions.errors import (
    EmissionsError,
    FactorFileError,
    PeriodError,
    UnitError,
    UnknownActivityError,
)
from engine.emissions.factors import (
    COLUMNS,
    Factor,
    FactorLibrary,
    default_library,
    read_factor_csv,
)
from engine.emissions.periods import Period, parse_period
from engine.emissions.results import Estimate, FactorUse
from engine.emissions.units import REGISTRY, to

__all__ = [
    "COLUMNS",
    "REGISTRY",
    "ActivityInfo",
    "BatchResult",
    "EmissionsError",
    "Estimate",
    "Factor",
    "FactorFileError",
    "FactorLibrary",
    "FactorUse",
    "Period",
    "PeriodError",
    "UnitError",
    "UnknownActivityError",
    "activities",
    "default_library",
    "estimate",
    "estimate_rows",
    "find_activity",
    "leaked_by_mass_balance",
    "leaked_from_charge",
    "nearest",
    "parse_period",
    "read_factor_csv",
    "resolve_activity",
    "to",
]
