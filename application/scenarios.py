"""What-if scenarios saved with a plan (by the run that produced it) and reopened."""

from __future__ import annotations

from application import attachments
from application.workspace import Workspace
from engine import AekoImprovementPlan
from engine.actions.scenario import Scenario
from engine.inventory import Inventory
from store.errors import NotFoundError


def save(workspace: Workspace, run_id: str, name: str, scenario: Scenario) -> bool:
    """Raises ``StoreError`` when the database is away."""
    repository = workspace.store.plan_actions(workspace.user.id)
    return repository.save_scenario(run_id, name, scenario.model_dump(mode="json"))


def saved(workspace: Workspace, run_id: str) -> list[dict]:
    """Name, scenario and date of each scenario saved with the plan, oldest first."""
    return workspace.store.plan_actions(workspace.user.id).scenarios(run_id)


def plan_basis(workspace: Workspace, plan: AekoImprovementPlan) -> tuple[Inventory, str]:
    """The saved inventory a plan was made from (read again as it was analysed) and the run
    its actions and scenarios belong to, so a saved plan can be explored again. Raises
    ``NotFoundError`` when either is gone, ``StoreError`` when the database is away."""
    run_id = workspace.store.plans(workspace.user.id).run_of(str(plan.id))
    if run_id is None:
        raise NotFoundError("plano / plan")
    record = workspace.store.inventories(workspace.user.id).by_number(plan.id_external_inventory)
    return attachments.open_attached(workspace, record.id).inventory, run_id
