"""The offline analyst's view of the measures catalogue, which lives in engine.measures so the
agents' prompts render the same ranges the offline answers use."""

from engine.measures.catalogue import Alternative, alternatives_for, table

__all__ = ["Alternative", "alternatives_for", "table"]
