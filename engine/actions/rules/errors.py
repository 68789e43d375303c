"""The error a rule raises for a what-if it cannot compute."""

from __future__ import annotations

from engine.errors import AekoError, LocalizedError


class RuleError(LocalizedError, AekoError, ValueError):
    """A what-if the rules cannot compute (a gas with no GWP, a share outside 0–100%)."""

    code = "action_rule"
