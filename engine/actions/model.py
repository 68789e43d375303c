"""What an improvement plan proposes, as data: actions whose reductions the engine computes
under GHG Protocol rules, never a model. The plan's prose is written around them.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Mechanism = Literal[
    "fuel_switch",  # fossil CO2 of the replaced fraction; the substitute's CO2 is biogenic
    "efficiency",  # a share of the energy, so of the rows' emissions
    "refrigerant",  # the leak × (1 − GWP new / GWP old)
    "sf6_free",  # all of the SF6 leak
    "market_instrument",  # market-based Scope 2 only; location-based is untouched
    "electrification",  # the fuel's emissions minus the grid's for the new MWh (location)
    "activity_cut",  # a share of the activity avoided (travel, waste)
    # Freight moved off road: own trucks (Scope 1) fall by the whole share shifted and the
    # carrier's emissions enter Scope 3 category 4; outsourced road freight (Scope 3) falls by
    # the per tonne-km saving. Internal logistics (yard trucks, forklifts) never shifts mode.
    "modal_shift",
]
Scope2Method = Literal["location", "market"]


class RowRef(BaseModel):
    """An inventory row an action acts on, as the workbook names it."""

    model_config = ConfigDict(frozen=True)

    sheet: str
    row: int | None  # the spreadsheet row, when the table came from one
    source: str = ""
    facility: str = ""
    gas: str = ""
    tco2e: float = 0.0


class Action(BaseModel):
    """One measure applied to the rows it acts on. Money in R$; None means unknown, shown as
    "cost unknown", never filled in."""

    model_config = ConfigDict(frozen=True)

    id: str  # stable within a plan: "<measure>@<rows>"
    measure_id: str
    measure: dict[str, str]  # pt / en: the alternative
    source: dict[str, str]  # pt / en: what it replaces
    mechanism: Mechanism
    rows: tuple[RowRef, ...]
    scope: int
    scope2_method: Scope2Method | None = None  # the Scope 2 figure it changes
    baseline_tco2e: float  # what the rows emit now, in the figure the action changes
    reduction_low_tco2e: float = Field(ge=0)  # per year
    reduction_high_tco2e: float = Field(ge=0)
    biogenic_co2_t: float = 0.0  # added by a fuel switch, reported apart from the scopes
    # Electrification: the location-based Scope 2 its new MWh add (at the low and the high
    # share), already netted out of the reductions above; a what-if puts them back in
    # Scope 2 so each scope's figure is its own.
    grid_added_low_tco2e: float = Field(default=0.0, ge=0)
    grid_added_high_tco2e: float = Field(default=0.0, ge=0)
    # Modal shift of own trucks: the carrier's emissions its shifted tonne-km add to Scope 3
    # category 4 (upstream transportation), at the low and the high share, already netted out
    # of the reductions above; a what-if puts them back in Scope 3 and a Scopes 1+2 target,
    # which Scope 3 is outside, counts the whole Scope 1 cut.
    scope3_added_low_tco2e: float = Field(default=0.0, ge=0)
    scope3_added_high_tco2e: float = Field(default=0.0, ge=0)
    scope3_added_category: int | None = None  # 4 for a modal shift's carrier
    # The share of the matched activity the low and the high reduction assume (B100 in
    # 20–100% of the diesel), and what the measure moves to (a fuel key, a gas, an
    # efficiency ratio): what a what-if starts from and may change.
    share_low: float = Field(default=1.0, ge=0, le=1)
    share_high: float = Field(default=1.0, ge=0, le=1)
    substitute: str = ""
    capex_brl: float | None = None
    opex_delta_brl_yr: float | None = None  # negative: a saving
    lifetime_years: int | None = None
    cost_per_t_brl: float | None = None  # annualised (capex × CRF + opex) / mid reduction
    payback_years: float | None = None  # None when there is no saving to pay it back
    lead_time_years: int = 1
    deadline: int | None = None  # the year it must be in place (set by the schedule)
    # The first year the target path needs it (set by the schedule): the deadline's basis;
    # a later deadline than this one is its lead time's doing.
    needed_year: int | None = None
    kpi: dict[str, str] = Field(default_factory=dict)  # pt / en
    basis: dict[str, str] = Field(default_factory=dict)  # pt / en: how the cut is computed
    cost_source: str = ""

    @property
    def reduction_mid_tco2e(self) -> float:
        return (self.reduction_low_tco2e + self.reduction_high_tco2e) / 2


class Target(BaseModel):
    """A reduction target: ``percent`` below the base year's emissions by ``year``, on the
    figure it covers: Scopes 1 + 2 (the SBTi's near-term scope; Scope 3 is handled apart),
    with Scope 2 by ``scope2_method`` (location-based unless the user chooses market-based;
    the two are never summed). ``include_scope3`` puts Scope 3 in the same target, when a
    user asks for one on the whole inventory. Rows the inventory gives no scope count in it
    (they are in the inventory's total and not known to be Scope 3). ``base_tco2e`` is the
    base year's figure on that coverage (``engine.actions.targets.covered_tco2e``)."""

    model_config = ConfigDict(frozen=True)

    base_year: int
    base_tco2e: float
    percent: float = Field(gt=0, le=100)
    year: int
    scope2_method: Scope2Method = "location"
    include_scope3: bool = False


class PathPoint(BaseModel):
    model_config = ConfigDict(frozen=True)

    year: int
    allowed_tco2e: float  # the target path: what the year may emit
    expected_tco2e: float  # baseline minus the reductions in place by then (mid)
    expected_low_tco2e: float  # with the actions' low reductions
    actual_tco2e: float | None = None  # what the inventory reported for that year


class Installation(BaseModel):
    """One facility's Scope 1 against the SBCE thresholds (Lei 15.042/2024)."""

    model_config = ConfigDict(frozen=True)

    facility: str
    scope1_tco2e: float
    status: Literal["below", "monitoring", "allowances"]  # < 10k, 10k–25k, > 25k
    near: str | None = None  # "monitoring" or "allowances": within 10% below that threshold


class PlanActions(BaseModel):
    """Everything computed for a plan, persisted beside it (never inside the reference
    ``improvement_plan`` document)."""

    actions: list[Action] = Field(default_factory=list)
    alternatives: list[Action] = Field(default_factory=list)  # other options, same rows
    target: Target | None = None
    path: list[PathPoint] = Field(default_factory=list)
    meets_target: bool | None = None
    shortfall_tco2e: float = 0.0  # in the target year, with the mid reductions
    installations: list[Installation] = Field(default_factory=list)
    gwp_set: str = "AR5"
    inventory_tco2e: float = 0.0
    inventory_year: int | None = None
    start_year: int | None = None  # the first year work on the actions can start
    # The inventory year's emissions on the target's coverage (Scopes 1 + 2 by its Scope 2
    # method): what the path's expected emissions start from. None: no target.
    target_baseline_tco2e: float | None = None

    @property
    def total_low_tco2e(self) -> float:
        return sum(a.reduction_low_tco2e for a in self.actions)

    @property
    def total_high_tco2e(self) -> float:
        return sum(a.reduction_high_tco2e for a in self.actions)
