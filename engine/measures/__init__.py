"""Reduction measures: the catalogue of lower-carbon options and their reduction ranges."""

from engine.measures.catalogue import (
    Alternative,
    Avoided,
    Catalogue,
    alternatives_for,
    read_catalogue,
    shipped_catalogue,
    table,
    whole_tonnes,
)

__all__ = [
    "Alternative",
    "Avoided",
    "Catalogue",
    "alternatives_for",
    "read_catalogue",
    "shipped_catalogue",
    "table",
    "whole_tonnes",
]
