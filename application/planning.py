"""What a plan is computed with, as the user sets it: a target, their own measure catalogue
and their own cost quotes. Files are read here, so a bad one is refused with its line before
anything runs or is spent."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.actions.model import Scope2Method, Target
from engine.actions.targets import inventory_target
from engine.inventory import Inventory
from engine.measures.catalogue import Catalogue, Costs, read_catalogue_csv, read_costs_csv

File = tuple[str, bytes]  # (name, content) of an upload

SBTI_RATE = 4.2  # % of the base year a year: the SBTi's 1.5 °C-aligned absolute path


@dataclass(frozen=True)
class TargetChoice:
    base_year: int
    percent: float
    year: int
    scope2_method: Scope2Method = "location"  # the Scope 2 figure the target tracks


@dataclass(frozen=True)
class PlanInputs:
    target: Target | None = None
    catalogue: Catalogue | None = None
    costs: Mapping[str, Costs] | None = None
    # What ``target`` was computed from: a worker computes it again from the same choice.
    choice: TargetChoice | None = None


def default_target(inventory: Inventory, year: int = 2030) -> TargetChoice:
    """The SBTi-style linear path from the inventory's own year to ``year``."""
    base = int(inventory.year) if inventory.year else year - 6
    return TargetChoice(base_year=base, percent=round(SBTI_RATE * (year - base), 1), year=year)


def target_for(inventory: Inventory, choice: TargetChoice) -> Target:
    """The target on Scopes 1 + 2 (Scope 2 by the method chosen; Scope 3 handled apart), its
    base the inventory's own figure for the base year, or for the headline year when the
    workbook does not hold that one (``engine.actions.targets.inventory_target``)."""
    return inventory_target(
        inventory, choice.base_year, choice.percent, choice.year,
        scope2_method=choice.scope2_method,
    )  # fmt: skip


def plan_inputs(
    inventory: Inventory,
    choice: TargetChoice | None,
    catalogue: File | None = None,
    costs: File | None = None,
) -> PlanInputs:
    """Raises the catalogue's localized errors for a file that does not read."""
    return PlanInputs(
        target=target_for(inventory, choice) if choice else None,
        catalogue=read_catalogue_csv(catalogue[1], catalogue[0]) if catalogue else None,
        costs=read_costs_csv(costs[1], costs[0]) if costs else None,
        choice=choice,
    )
