"""A what-if on a plan: which actions are in, at what share, with which substitute, and the
inventory's figures before and after, scope by scope.

What an action adds to another figure is shown there: an electrification's new MWh in Scope
2, a modal shift's carrier in Scope 3 (category 4), so each scope's figure is its own.

Scope 2 is shown both ways, never summed: location-based (what the total carries, as the
inventory does) and market-based (the inventory's, or the location-based figure as its
baseline when none is reported). Biogenic CO2 stays apart from every scope. A changed share
or refrigerant goes back through the action's own rule (``rules.recompute``), so a what-if
never computes a reduction any other way than the plan did.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pydantic import BaseModel, ConfigDict, Field, field_validator

from engine.actions import rules
from engine.actions.model import Action
from engine.errors import AekoError, LocalizedError
from engine.formatting import number
from engine.inventory import Inventory
from engine.inventory import fields as F
from engine.measures.catalogue import Catalogue
from engine.texts import LANGS, Both, Texts

# The figures an action can change; "2_market" is a memo beside the total, never in it.
# "unscoped" holds rows the inventory gives no scope: in the total, in no scope's figure.
SCOPE1, LOCATION, MARKET, SCOPE3, UNSCOPED = "1", "2_location", "2_market", "3", "unscoped"
_FIGURES = (SCOPE1, LOCATION, MARKET, SCOPE3, UNSCOPED)


_TEXTS = Texts(
    "engine.actions.scenario",
    {
        "unknown_actions": {
            "pt": "Ações que o plano não tem: {actions}.",
            "en": "Actions the plan does not have: {actions}.",
        },
        "overlap": {
            "pt": "{names} atuam nas mesmas linhas: uma corta o que a outra deixou, e nenhuma "
            "linha perde mais do que emite.",
            "en": "{names} act on the same rows: each cuts what the other left, and no row "
            "loses more than it emits.",
        },
        "side_by_side": {
            "pt": "O escopo 2 por localização e por mercado aparecem lado a lado e nunca se "
            "somam; o total usa o escopo 2 por localização, como o inventário.",
            "en": "Location- and market-based Scope 2 are shown side by side and never "
            "summed; the total carries location-based Scope 2, as the inventory does.",
        },
        "no_market": {
            "pt": "O inventário não traz escopo 2 por mercado: a linha de base por mercado "
            "é o número por localização (sem instrumentos contratuais, a escolha de "
            "compra do Programa Brasileiro GHG Protocol é a média do SIN).",
            "en": "The inventory reports no market-based Scope 2: the market-based "
            "baseline is the location-based figure (with no contractual instruments, the "
            "Brazilian GHG Protocol Program's purchase-choice figure is the SIN average).",
        },
        "location_lowers_market": {
            "pt": "Ações no escopo 2 por localização (eficiência, geração própria) também "
            "baixam o escopo 2 por mercado; aqui não são descontadas dele (conservador).",
            "en": "Location-based Scope 2 actions (efficiency, on-site generation) lower "
            "market-based Scope 2 too; they are not taken off it here (conservative).",
        },
        "modal_shift": {
            "pt": "Transferência modal: o escopo 1 cai {gross} t CO2e (caminhões próprios) e o "
            "escopo 3, categoria 4, sobe {added} t CO2e (a transportadora); o total cai só a "
            "diferença.",
            "en": "Modal shift: Scope 1 falls by {gross} t CO2e (own trucks) and Scope 3, "
            "category 4, rises by {added} t CO2e (the carrier); the total falls by the "
            "difference only.",
        },
        "biogenic": {
            "pt": "O CO2 biogênico das trocas de combustível é relatado à parte, fora dos "
            "escopos (GHG Protocol; Programa Brasileiro GHG Protocol).",
            "en": "The fuel switches' biogenic CO2 is reported apart, outside the scopes "
            "(GHG Protocol; Brazilian GHG Protocol Program).",
        },
    },
)


def _note(key: str, **values: object) -> dict[str, str]:
    """A note as a scenario carries it: one entry per language."""
    text = _TEXTS.both(key, **values)
    return {lang: text[lang] for lang in LANGS}


class ScenarioError(LocalizedError, AekoError, ValueError):
    code = "scenario"


class Scenario(BaseModel):
    """The user's choices on a plan's actions, by action id (persisted with the plan)."""

    model_config = ConfigDict(frozen=True)

    selected: tuple[str, ...] = ()
    shares: dict[str, float] = Field(default_factory=dict)  # id -> share of the activity, 0–1
    substitutes: dict[str, str] = Field(default_factory=dict)  # id -> new gas or fuel

    @field_validator("shares")
    @classmethod
    def _fractions(cls, value: dict[str, float]) -> dict[str, float]:
        for key, share in value.items():
            if not 0 <= share <= 1:
                raise ValueError(f"the share of {key} must be between 0 and 1, not {share}")
        return value


class ScopeFigure(BaseModel):
    """One figure before and after: ``after_with_low`` with every action at the low end of
    its range, ``after_with_high`` at the high end. Usually the second is the smaller; in
    Scope 2 an electrification's new MWh can make it the larger (more electricity)."""

    model_config = ConfigDict(frozen=True)

    before_tco2e: float
    after_with_low_tco2e: float
    after_with_high_tco2e: float

    @property
    def after_mid_tco2e(self) -> float:
        return (self.after_with_low_tco2e + self.after_with_high_tco2e) / 2

    @property
    def reduction_low_tco2e(self) -> float:
        return self.before_tco2e - self.after_with_low_tco2e

    @property
    def reduction_high_tco2e(self) -> float:
        return self.before_tco2e - self.after_with_high_tco2e


class ScopeTotals(BaseModel):
    model_config = ConfigDict(frozen=True)

    scope1: ScopeFigure
    scope2_location: ScopeFigure
    scope2_market: ScopeFigure  # beside the total, never added to it
    scope3: ScopeFigure
    unscoped: ScopeFigure  # rows the inventory gives no scope (counted in its total)
    total: ScopeFigure  # what the inventory's total counts: Scope 2 location-based
    scope2_market_reported: bool  # False: the market-based baseline is the location figure
    biogenic_co2_before_t: float  # reported apart from the scopes
    biogenic_co2_added_t: float  # by the fuel switches selected, at their (mid) share
    actions: tuple[Action, ...]  # the selected actions, as recomputed
    notes: tuple[dict[str, str], ...] = ()  # pt / en


def recompute(
    inventory: Inventory,
    actions: Sequence[Action],
    scenario: Scenario,
    *,
    catalogue: Catalogue | None = None,
) -> ScopeTotals:
    """Before and after for the actions ``scenario`` selects among ``actions`` (a plan's
    chosen and alternatives), each through its rule again when its share or substitute
    changed."""
    by_id = {action.id: action for action in actions}
    unknown = [key for key in scenario.selected if key not in by_id]
    if unknown:
        raise ScenarioError(_TEXTS.both("unknown_actions", actions=", ".join(unknown)))
    chosen = [
        _changed(by_id[key], inventory, scenario, catalogue)
        for key in dict.fromkeys(scenario.selected)
    ]
    notes: list[dict[str, str]] = []
    figures_of = {action.id: _figure_in(inventory, action) for action in chosen}
    cuts = {figure: [0.0, 0.0] for figure in _FIGURES}
    for action in chosen:
        for figure, low, high in _contributions(action, figures_of[action.id]):
            cuts[figure][0] += low
            cuts[figure][1] += high
    for figure, excess_low, excess_high, names in _overlaps(chosen, figures_of):
        cuts[figure][0] -= excess_low
        cuts[figure][1] -= excess_high
        notes.append(_note("overlap", names=names))

    before = _before(inventory)
    reported = inventory.scope2_market_tco2e is not None
    figures = {figure: _figure(before[figure], *cuts[figure]) for figure in _FIGURES}
    in_total = (SCOPE1, LOCATION, SCOPE3, UNSCOPED)
    total = _figure(
        inventory.total_tco2e,
        sum(cuts[f][0] for f in in_total),
        sum(cuts[f][1] for f in in_total),
    )
    notes[:0] = _standing_notes(chosen, reported)
    return ScopeTotals(
        scope1=figures[SCOPE1],
        scope2_location=figures[LOCATION],
        scope2_market=figures[MARKET],
        scope3=figures[SCOPE3],
        unscoped=figures[UNSCOPED],
        total=total,
        scope2_market_reported=reported,
        biogenic_co2_before_t=inventory.biogenic_co2_t,
        biogenic_co2_added_t=sum(action.biogenic_co2_t for action in chosen),
        actions=tuple(chosen),
        notes=tuple(notes),
    )


def _changed(
    action: Action, inventory: Inventory, scenario: Scenario, catalogue: Catalogue | None
) -> Action:
    share = scenario.shares.get(action.id)
    substitute = scenario.substitutes.get(action.id)
    if share is None and not substitute:
        return action
    return rules.recompute(
        action, inventory, share=share, substitute=substitute, catalogue=catalogue
    )


def figure_of(action: Action) -> str:
    """The figure an action changes: its scope, or Scope 2 by the method it changes."""
    if action.scope == 2:
        return MARKET if action.scope2_method == "market" else LOCATION
    return SCOPE3 if action.scope == 3 else SCOPE1


def _figure_in(inventory: Inventory, action: Action) -> str:
    """The figure an action changes in this inventory: its rows' own scope's, or the
    unscoped rows' when the inventory gives them none (the action took the measure's)."""
    rows = rules.rows_of(inventory, action.rows)
    scopes = set(rows[F.SCOPE].astype(str)) if F.SCOPE in rows else set()
    if len(rows) and not scopes & {"1", "2", "3"}:
        return UNSCOPED
    return figure_of(action)


def _contributions(action: Action, figure: str) -> Iterable[tuple[str, float, float]]:
    """What an action takes off each figure, (figure, low, high); an electrification's new
    MWh come back as negative cuts of Scope 2 (location, and market-based too: no
    contractual instrument covers a load that does not exist yet), a modal shift's carrier
    as a negative cut of Scope 3 (category 4)."""
    grid = (action.grid_added_low_tco2e, action.grid_added_high_tco2e)
    carrier = (action.scope3_added_low_tco2e, action.scope3_added_high_tco2e)
    yield (
        figure,
        action.reduction_low_tco2e + grid[0] + carrier[0],
        action.reduction_high_tco2e + grid[1] + carrier[1],
    )
    if any(grid):
        yield LOCATION, -grid[0], -grid[1]
        yield MARKET, -grid[0], -grid[1]
    if any(carrier):
        yield SCOPE3, -carrier[0], -carrier[1]


def _overlaps(
    actions: Sequence[Action], figures_of: dict[str, str]
) -> Iterable[tuple[str, float, float, str]]:
    """Actions the user put on the same rows (a plan never does; its alternatives may): per
    group sharing rows in one figure, how much their cuts, simply added, overstate the cut
    of applying one after the other. Each action takes the same fraction off every row it
    acts on; on a shared row the second takes its fraction of what the first left, so no
    row ever loses more than it emits."""
    groups: list[tuple[str, set[str], list[Action]]] = []
    for action in actions:
        figure = figures_of[action.id]
        keys = {rules.ref_key(ref) for ref in action.rows}
        joined = [g for g in groups if g[0] == figure and g[1] & keys]
        for group in joined:
            groups.remove(group)
            keys |= group[1]
        members = [a for g in joined for a in g[2]] + [action]
        groups.append((figure, keys, members))
    for figure, _, members in groups:
        if len(members) < 2:
            continue
        emitted: dict[str, float] = {}
        left: dict[int, dict[str, float]] = {0: {}, 1: {}}  # bound -> row -> share left
        for action in members:
            baseline = sum(ref.tco2e for ref in action.rows)
            for bound, cut in enumerate(_own(action)):
                fraction = min(cut / baseline, 1.0) if baseline > 0 else 0.0
                for ref in action.rows:
                    key = rules.ref_key(ref)
                    emitted[key] = ref.tco2e
                    left[bound][key] = left[bound].get(key, 1.0) * (1 - fraction)
        joint = [sum(t * (1 - left[b][k]) for k, t in emitted.items()) for b in (0, 1)]
        added = [sum(_own(a)[b] for a in members) for b in (0, 1)]
        excess = [max(added[b] - joint[b], 0.0) for b in (0, 1)]
        if any(value > 1e-9 for value in excess):
            yield figure, excess[0], excess[1], ", ".join(a.measure_id for a in members)


def _own(action: Action) -> tuple[float, float]:
    return (
        action.reduction_low_tco2e + action.grid_added_low_tco2e + action.scope3_added_low_tco2e,
        action.reduction_high_tco2e + action.grid_added_high_tco2e + action.scope3_added_high_tco2e,
    )


def _before(inventory: Inventory) -> dict[str, float]:
    rows = inventory.current
    counted = rows
    if F.REPORTING in rows:
        counted = rows[rows[F.REPORTING] == F.IN_INVENTORY]
    scopes = counted[F.SCOPE].astype(str) if F.SCOPE in counted else None

    def scope(name: str) -> float:
        if scopes is None:
            return 0.0
        return float(counted.loc[scopes == name, F.EMISSIONS_TCO2E].sum())

    location = inventory.scope2_location_tco2e
    market = inventory.scope2_market_tco2e
    known = scope("1") + location + scope("3")
    return {
        SCOPE1: scope("1"),
        LOCATION: location,
        MARKET: location if market is None else market,
        SCOPE3: scope("3"),
        UNSCOPED: max(inventory.total_tco2e - known, 0.0),
    }


def _span(low: float, high: float) -> Both:
    """'low–high' in each language, or one figure when both round alike."""
    found = []
    for lang in LANGS:
        low_text, high_text = number(low, 1, lang), number(high, 1, lang)
        found.append(low_text if low_text == high_text else f"{low_text}–{high_text}")
    return Both(*found)


def _figure(before: float, low: float, high: float) -> ScopeFigure:
    # A figure never goes below zero, whatever the user stacks on it.
    return ScopeFigure(
        before_tco2e=before,
        after_with_low_tco2e=max(before - low, 0.0),
        after_with_high_tco2e=max(before - high, 0.0),
    )


def _standing_notes(actions: Sequence[Action], reported: bool) -> list[dict[str, str]]:
    notes = [_note("side_by_side")]
    if not reported:
        notes.append(_note("no_market"))
    if any(figure_of(a) == LOCATION for a in actions):
        notes.append(_note("location_lowers_market"))
    shifted = [a for a in actions if a.scope3_added_low_tco2e or a.scope3_added_high_tco2e]
    if shifted:
        gross = _span(sum(_own(a)[0] for a in shifted), sum(_own(a)[1] for a in shifted))
        added = _span(
            sum(a.scope3_added_low_tco2e for a in shifted),
            sum(a.scope3_added_high_tco2e for a in shifted),
        )
        notes.append(_note("modal_shift", gross=gross, added=added))
    if any(a.biogenic_co2_t for a in actions):
        notes.append(_note("biogenic"))
    return notes
