"""Reduction measures: the catalogue of lower-carbon options, their reduction ranges, how the
plan's engine computes each, and a company's cost quotes laid over them."""

from engine.measures.catalogue import (
    COST_COLUMNS,
    MECHANISMS,
    Alternative,
    Avoided,
    Catalogue,
    Costs,
    MeasureFileError,
    alternatives_for,
    read_catalogue,
    read_catalogue_csv,
    read_costs_csv,
    shipped_catalogue,
    table,
    whole_tonnes,
)

__all__ = [
    "COST_COLUMNS",
    "MECHANISMS",
    "Alternative",
    "Avoided",
    "Catalogue",
    "Costs",
    "MeasureFileError",
    "alternatives_for",
    "read_catalogue",
    "read_catalogue_csv",
    "read_costs_csv",
    "shipped_catalogue",
    "table",
    "whole_tonnes",
]
