"""What the plan's coordinator reads of the computed actions: one text, in Portuguese like
its prompt, holding every figure the plan may quote."""

from __future__ import annotations

from engine.actions.model import PlanActions


def actions_brief(plan_actions: PlanActions) -> str:
    from engine.actions import render  # the renderers pull Babel; only a plan needs them

    parts = [render.summary_text(plan_actions, "pt"), render.actions_table(plan_actions, "pt")]
    if plan_actions.target is not None:
        parts.append(render.path_text(plan_actions, "pt"))
    if plan_actions.installations:
        parts.append(render.sbce_text(plan_actions.installations, "pt"))
    return "\n\n".join(part for part in parts if part)
