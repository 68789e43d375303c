"""What-if scenarios saved with a plan (by the run that produced it) and reopened."""

from __future__ import annotations

from application.workspace import Workspace
from engine.actions.scenario import Scenario


def save(workspace: Workspace, run_id: str, name: str, scenario: Scenario) -> bool:
    """Raises ``StoreError`` when the database is away."""
    repository = workspace.store.plan_actions(workspace.user.id)
    return repository.save_scenario(run_id, name, scenario.model_dump(mode="json"))


def saved(workspace: Workspace, run_id: str) -> list[dict]:
    """Name, scenario and date of each scenario saved with the plan, oldest first."""
    return workspace.store.plan_actions(workspace.user.id).scenarios(run_id)
