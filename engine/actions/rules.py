"""What a measure cuts on the inventory rows it acts on, by GHG Protocol rules: one rule per
mechanism, each turning a catalogue row and the rows it matches into an ``Action``.

The figures come from the inventory and the factor library, never from a model:

- fuel_switch: the fossil CO2 of the rows × the share replaced. A biogenic substitute (B100,
  ethanol, biomethane, biomass) removes all of the replaced fraction's fossil CO2 from Scope 1
  and adds its own CO2 as biogenic, reported apart (GHG Protocol Corporate Standard, ch. 4);
  a fossil substitute (fuel oil to natural gas) cuts by the ratio of the CO2 factors per TJ.
  A solid biomass (wood, charcoal) adds its own CH4 and N2O, which stay in Scope 1, for the
  energy it now supplies (the same TJ, NCV basis, by the factors of the source's use: IPCC
  2006 v. 2 ch. 2), and credits the rows' CH4 and N2O of the fraction replaced. For other
  substitutes CH4 and N2O are not credited: theirs are of the same order (conservative). The
  catalogue's life-cycle range (B100: 40–70%) never enters Scope 1.
- efficiency, activity_cut: the rows' t CO2e × the catalogue's % × the share reached.
- modal_shift: own trucks (Scope 1) fall by the rows' t CO2e × the share shifted, and the
  carrier's emissions, that × (1 − the catalogue's per t·km saving), enter Scope 3
  category 4; the action's reduction is the net. Outsourced road freight (Scope 3): the rows
  × the share × the saving. Internal logistics (yard trucks, loaders, forklifts) is left out.
- refrigerant: the leak × (1 − GWP new / GWP old) × the share converted. Only what is in the
  totals: a Montreal gas (R-22) is a memo item, so no action credits it.
- sf6_free: all of the SF6 leak × the share replaced.
- market_instrument: market-based Scope 2 only (Scope 2 Guidance); location-based is 0.
- electrification: the rows' t CO2e × share − the location-based emissions of the new MWh
  (energy × 277.78 MWh/TJ × efficiency ratio × the SIN factor of the inventory's year),
  never below 0.

Costs are the company's quotes per t CO2e a year: capex = capex/t × mid reduction, opex
likewise, and the cost per tonne annualises the capex at ``DISCOUNT_RATE``.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import date

import pandas as pd

from engine.actions.model import Action, Mechanism, RowRef
from engine.emissions import (
    EmissionsError,
    Factor,
    FactorLibrary,
    default_library,
    estimate,
    find_activity,
    parse_period,
)
from engine.emissions.activities import ActivityInfo
from engine.emissions.periods import Period
from engine.emissions.units import conversion_factor
from engine.errors import AekoError, LocalizedError
from engine.formatting import number
from engine.inventory import Inventory
from engine.inventory import fields as F
from engine.inventory.gwp import BIOGENIC_CO2 as BIOGENIC_GAS
from engine.inventory.gwp import gwp, is_montreal, split_blend
from engine.measures.catalogue import (
    BIOGENIC_SUFFIX,
    Alternative,
    Catalogue,
    Costs,
    names_any,
    shipped_catalogue,
)
from engine.measures.refrigerants import gwp_source, refrigerant_name, substitute_gwp

# A real (inflation-free) rate, so yearly opex quoted in today's reais and an investment made
# now compare on one annual basis. 8% a year sits near the real yield of long Brazilian
# Treasury IPCA+ bonds (NTN-B, about 6–7%) plus a small premium: an ordinary company's cost of
# capital in real terms. A company's own WACC changes every cost per tonne, never a reduction.
DISCOUNT_RATE = 0.08
MWH_PER_TJ = 1_000_000 / 3_600  # 277.78: 1 TJ = 10^6 MJ, 1 MWh = 3,600 MJ
COMBUSTION_GASES = frozenset({"CO2", "CH4", "N2O"})
_GRID_KEY = "electricity@grid"

Share = tuple[float, float]  # the low and the high share of the activity, as fractions


class RuleError(LocalizedError, AekoError, ValueError):
    """A what-if the rules cannot compute (a gas with no GWP, a share outside 0–100%)."""

    code = "action_rule"


# --- the inventory rows an action acts on -------------------------------------------------


def row_key(sheet: object, row: object, gas: object, source: object, facility: object) -> str:
    """One inventory row, as the plan names it: stable across loads of the same file."""
    parts = (sheet, _row_number(row), gas, source, facility)
    return "|".join("" if _missing(p) else str(p) for p in parts)


def row_keys(rows: pd.DataFrame) -> list[str]:
    return [
        row_key(*values)
        for values in zip(
            _column(rows, "sheet"),
            _column(rows, "row"),
            _column(rows, F.GAS),
            _column(rows, F.SOURCE),
            _column(rows, F.FACILITY),
            strict=True,
        )
    ]


def ref_key(ref: RowRef) -> str:
    return row_key(ref.sheet, ref.row, ref.gas, ref.source, ref.facility)


def rows_of(inventory: Inventory, refs: tuple[RowRef, ...]) -> pd.DataFrame:
    """The headline year's rows an action names."""
    current = inventory.current
    wanted = {ref_key(ref) for ref in refs}
    return current[[key in wanted for key in row_keys(current)]]


def _column(rows: pd.DataFrame, name: str) -> pd.Series:
    if name in rows:
        return rows[name]
    return pd.Series([None] * len(rows), index=rows.index, dtype=object)


def _missing(value: object) -> bool:
    if value is None:
        return True
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):
        return False


def _row_number(value: object) -> int | None:
    if _missing(value):
        return None
    try:
        return int(float(str(value)))
    except ValueError:
        return None


def _text(value: object) -> str:
    return "" if _missing(value) else str(value)


def _numbers(rows: pd.DataFrame, name: str) -> pd.Series:
    return pd.to_numeric(_column(rows, name), errors="coerce").fillna(0.0).astype(float)


def in_totals(rows: pd.DataFrame) -> pd.DataFrame:
    """Rows counted in the inventory's totals, emitting something: biogenic CO2, Montreal
    gases and market-based Scope 2 are memo items (``reporting``), never cut by an action."""
    keep = _numbers(rows, F.EMISSIONS_TCO2E) > 0
    if F.REPORTING in rows:
        keep &= _column(rows, F.REPORTING).fillna(F.IN_INVENTORY) == F.IN_INVENTORY
    return rows[keep]


def is_combustion_gas(gas: object) -> bool:
    """A row of a fuel or an activity (CO2, CH4, N2O or no gas named), not a leaked gas."""
    return _missing(gas) or str(gas) in COMBUSTION_GASES


def _refs(rows: pd.DataFrame, tco2e: pd.Series | None = None) -> tuple[RowRef, ...]:
    figures = _numbers(rows, F.EMISSIONS_TCO2E) if tco2e is None else tco2e
    return tuple(
        RowRef(
            sheet=_text(sheet),
            row=_row_number(row),
            source=_text(source),
            facility=_text(facility),
            gas=_text(gas),
            tco2e=float(value),
        )
        for sheet, row, source, facility, gas, value in zip(
            _column(rows, "sheet"),
            _column(rows, "row"),
            _column(rows, F.SOURCE),
            _column(rows, F.FACILITY),
            _column(rows, F.GAS),
            figures,
            strict=True,
        )
    )


def _action_id(measure: Alternative, rows: pd.DataFrame) -> str:
    digest = hashlib.sha1("\n".join(sorted(row_keys(rows))).encode("utf-8")).hexdigest()
    return f"{measure.key}@{digest[:10]}"


def _scope(rows: pd.DataFrame) -> int:
    """The scope of the rows (the planner hands a rule one scope at a time)."""
    scopes = [str(s) for s in _column(rows, F.SCOPE) if not _missing(s)]
    found = max(set(scopes), key=scopes.count) if scopes else "1"
    return int(found) if found in ("1", "2", "3") else 1


# --- shares, texts ------------------------------------------------------------------------


def _share(measure: Alternative, share: float | None) -> Share:
    """The measure's range of the activity it reaches, or the one share a what-if chose."""
    if share is None:
        return measure.applied_min_pct / 100, measure.applied_max_pct / 100
    if not 0 <= share <= 1 or math.isnan(share):
        raise RuleError(
            f"A parcela deve estar entre 0 e 100% (recebi {number(share * 100, 1)}%).",
            f"The share must be between 0 and 100% (got {number(share * 100, 1, 'en')}%).",
        )
    return share, share


def _pct(value: float, lang: str) -> str:
    return f"{number(value * 100, 0, lang)}%"


def _span(share: Share, lang: str) -> str:
    low, high = share
    if low == high:
        return _pct(low, lang)
    return f"{number(low * 100, 0, lang)}–{_pct(high, lang)}"


def _t(value: float, lang: str) -> str:
    return number(value, 1, lang)


def _range(low: float, high: float, lang: str) -> str:
    """'20,0–100,0', or one figure when both ends agree."""
    if _t(low, lang) == _t(high, lang):
        return _t(low, lang)
    return f"{_t(low, lang)}–{_t(high, lang)}"


def _short(text: str) -> str:
    """'Biodiesel B100 (no Brasil, ...)' -> 'Biodiesel B100': the name a KPI line needs."""
    return re.sub(r"\s*\([^)]*\)", "", text).strip() or text


def _unit(rows: pd.DataFrame) -> str:
    units = [u for u in _column(rows, F.UNIT) if not _missing(u) and str(u).strip()]
    return str(max(set(units), key=units.count)) if units else ""


def _year(inventory: Inventory) -> int:
    try:
        return int(str(inventory.year))
    except ValueError:
        return date.today().year


def _library(inventory: Inventory) -> FactorLibrary:
    return inventory.factors if inventory.factors is not None else default_library()


# --- the action, built and priced ---------------------------------------------------------


@dataclass(frozen=True)
class _Cut:
    """What a rule found, before it becomes an Action."""

    rows: pd.DataFrame  # the rows it acts on
    baseline: float
    low: float
    high: float
    basis: dict[str, str]
    kpi: dict[str, str]
    refs_tco2e: pd.Series | None = None  # the figure each row shows, when not t CO2e
    scope2_method: str | None = None
    biogenic: float = 0.0
    grid_low: float = 0.0
    grid_high: float = 0.0
    scope3_low: float = 0.0  # the carrier's emissions a modal shift adds to Scope 3
    scope3_high: float = 0.0
    scope3_category: int | None = None
    share: Share = (1.0, 1.0)


def _action(measure: Alternative, cut: _Cut, costs: Costs, scope: int | None) -> Action:
    # Float products can land a hair above the rows' own figure: the cut never exceeds it.
    low = min(max(cut.low, 0.0), cut.baseline)
    high = min(max(cut.high, 0.0), cut.baseline)
    action = Action(
        id=_action_id(measure, cut.rows),
        measure_id=measure.key,
        measure=dict(measure.alternative),
        source=dict(measure.source),
        mechanism=_mechanism(measure),
        rows=_refs(cut.rows, cut.refs_tco2e),
        scope=_scope(cut.rows) if scope is None else scope,
        scope2_method=cut.scope2_method,  # type: ignore[arg-type]
        baseline_tco2e=cut.baseline,
        reduction_low_tco2e=min(low, high),
        reduction_high_tco2e=max(low, high),
        biogenic_co2_t=max(cut.biogenic, 0.0),
        grid_added_low_tco2e=max(cut.grid_low, 0.0),
        grid_added_high_tco2e=max(cut.grid_high, 0.0),
        scope3_added_low_tco2e=max(cut.scope3_low, 0.0),
        scope3_added_high_tco2e=max(cut.scope3_high, 0.0),
        scope3_added_category=cut.scope3_category,
        share_low=cut.share[0],
        share_high=cut.share[1],
        substitute=measure.substitute,
        lead_time_years=measure.lead_time_years,
        kpi=cut.kpi,
        basis=_scope_note(cut, scope),
    )
    return priced(action, costs)


def _scope_note(cut: _Cut, scope: int | None) -> dict[str, str]:
    """The basis, saying so when the scope is the measure's rather than the inventory's."""
    known = {str(s) for s in _column(cut.rows, F.SCOPE)} & {"1", "2", "3"}
    if known or scope is None:
        return cut.basis
    return {
        "pt": f"{cut.basis['pt']} O inventário não informa o escopo destas linhas: tomado "
        f"como escopo {scope}, o da medida.",
        "en": f"{cut.basis['en']} The inventory gives these rows no scope: taken as Scope "
        f"{scope}, the measure's.",
    }


def _mechanism(measure: Alternative) -> Mechanism:
    return measure.mechanism  # type: ignore[return-value]  # checked when the CSV is read


def crf(rate: float, years: int) -> float:
    """Capital recovery factor: the yearly payment that repays 1 over ``years`` at ``rate``,
    r(1+r)^n / ((1+r)^n − 1); 1/n at a zero rate."""
    if years <= 0:
        raise ValueError("the lifetime must be at least one year")
    if rate == 0:
        return 1 / years
    growth = (1 + rate) ** years
    return rate * growth / (growth - 1)


def priced(action: Action, costs: Costs, rate: float = DISCOUNT_RATE) -> Action:
    """The action with a company's quote applied to its mid reduction. An unknown part stays
    None ("cost unknown"): nothing is filled in."""
    mid = action.reduction_mid_tco2e
    capex = None if costs.capex_brl_per_tco2e is None else costs.capex_brl_per_tco2e * mid
    opex = None if costs.opex_brl_per_tco2e is None else costs.opex_brl_per_tco2e * mid
    per_t = None
    if mid > 0 and capex is not None and opex is not None:
        if capex == 0:
            per_t = opex / mid
        elif costs.lifetime_years:
            per_t = (capex * crf(rate, costs.lifetime_years) + opex) / mid
    payback = None
    if capex is not None and opex is not None and opex < 0:
        payback = capex / -opex
    return action.model_copy(
        update={
            "capex_brl": capex,
            "opex_delta_brl_yr": opex,
            "lifetime_years": costs.lifetime_years,
            "cost_per_t_brl": per_t,
            "payback_years": payback,
            "cost_source": costs.cost_source,
        }
    )


# --- fuels: energy from the CO2 the rows report -------------------------------------------


def _fuel_activity(rows: pd.DataFrame) -> ActivityInfo | None:
    """The fuel burnt by a source: its activity id, else its fuel's or source's name."""
    for column in ("activity", F.FUEL, F.SOURCE):
        for value in _column(rows, column):
            text = _text(value)
            for candidate in (text, _short(text)):
                info = find_activity(candidate) if candidate else None
                if info is not None and info.fuel and info.method.endswith("combustion"):
                    return info
    return None


def _per_tj(library: FactorLibrary, fuel: str, use: str | None, gas: str, period: Period) -> float:
    """t of ``gas`` per TJ of ``fuel`` (IPCC 2006 v. 2 ch. 1 table 1.4 in the library);
    CO2 per TJ is the fuel's carbon, the same in every use, so any use stands in. 0: none."""
    keys = [f"{fuel}@{use}"] if use else []
    keys += sorted(k for k in library.factor_keys() if k.startswith(f"{fuel}@"))
    for key in keys:
        factor = library.lookup(key, gas, period)
        if factor is not None:
            return factor.value * conversion_factor(factor.unit, "t/TJ")
    return 0.0


@dataclass(frozen=True)
class _Source:
    """One source of a fuel, its gases on several canonical rows."""

    rows: pd.DataFrame
    info: ActivityInfo | None
    tco2e: float  # all gases, in the totals
    fossil_co2: float  # t
    biogenic_co2: float  # t, already reported apart
    fossil_factor: float  # t CO2 per TJ of the fuel (0: unknown)
    bio_factor: float  # t CO2 per TJ of the blend's bio part or the biofuel itself

    @property
    def fossil_tj(self) -> float:
        return self.fossil_co2 / self.fossil_factor if self.fossil_factor else 0.0

    @property
    def energy_tj(self) -> float:
        """All the fuel burnt: the fossil part and any bio part (diesel B, gasoline C)."""
        bio = self.biogenic_co2 / self.bio_factor if self.bio_factor else 0.0
        return self.fossil_tj + bio

    @property
    def known(self) -> bool:
        return self.fossil_factor > 0 or (self.bio_factor > 0 and self.fossil_co2 == 0)


def _sources(inventory: Inventory, rows: pd.DataFrame) -> list[_Source]:
    """The fuel sources among ``rows`` (combustion rows in the totals), each with its
    energy read back from its CO2 through the library's factor per TJ."""
    library = _library(inventory)
    period = parse_period(_year(inventory))
    # A source's biogenic CO2 may sit on its own row ("CO2 biogênico"): kept for the energy.
    burnt = rows[[is_combustion_gas(g) or g == BIOGENIC_GAS for g in _column(rows, F.GAS)]]
    memo = _numbers(burnt, F.BIOGENIC_CO2)
    counted = in_totals(burnt)
    found: list[_Source] = []
    # A source's gases may sit on one spreadsheet row each (a long table): the source is
    # its sheet, name, facility and fuel, so its CH4 and N2O rows stay with its CO2.
    by = [c for c in ("sheet", F.SOURCE, F.FACILITY, F.FUEL) if c in burnt]
    groups = burnt.groupby(by, dropna=False, sort=False) if by else [((), burnt)]
    for _, group in groups:
        mine = counted.loc[counted.index.intersection(group.index)]
        if mine.empty:
            continue
        info = _fuel_activity(group)
        fossil_factor = bio_factor = 0.0
        if info is not None and info.fuel:
            fossil_factor = _per_tj(library, info.fuel, info.use, "CO2", period)
            bio_fuel = info.bio_fuel or (None if fossil_factor else info.fuel)
            if bio_fuel:
                bio_factor = _per_tj(library, bio_fuel, info.use, "CO2_biogenic", period)
        gases = _column(mine, F.GAS)
        tco2e = _numbers(mine, F.EMISSIONS_TCO2E)
        fossil = float(tco2e[gases == "CO2"].sum())
        unsplit = float(tco2e[gases.isna()].sum())
        if unsplit and info is not None:
            fossil += unsplit * _co2_share(inventory, library, info, period)
        found.append(
            _Source(
                rows=mine,
                info=info,
                tco2e=float(tco2e.sum()),
                fossil_co2=fossil,
                biogenic_co2=float(memo.loc[group.index].sum()),
                fossil_factor=fossil_factor,
                bio_factor=bio_factor,
            )
        )
    return found


def _co2_share(
    inventory: Inventory, library: FactorLibrary, info: ActivityInfo, period: Period
) -> float:
    """The CO2 part of a row that gives only t CO2e: the fuel's CO2 per TJ over its CO2e per
    TJ, so CH4 and N2O stay uncredited even when the table does not split them."""
    assert info.fuel is not None
    co2 = _per_tj(library, info.fuel, info.use, "CO2", period)
    others = sum(
        _per_tj(library, info.fuel, info.use, gas, period) * (gwp(gas, inventory.gwp_set) or 0)
        for gas in ("CH4", "N2O")
    )
    return co2 / (co2 + others) if co2 else 0.0


# Solid biofuels (IPCC 2006 v. 2 ch. 1 table 1.4: wood/wood waste, charcoal). Their CH4 and
# N2O per TJ are tens to hundreds of times a fossil fuel's (wood in manufacturing: 30 kg CH4
# and 4 kg N2O per TJ, table 2.3, against natural gas's 1 and 0.1), so leaving them out
# overstates a switch's Scope 1 cut by 2–12 %. A liquid or gaseous substitute's are of the
# old fuel's order, and the library has none for the biofuels on the road: those switches
# keep crediting no CH4 or N2O either way (conservative).
SOLID_BIOMASS = frozenset({"wood", "charcoal"})
_NON_CO2 = ("CH4", "N2O")


@dataclass(frozen=True)
class _SubstituteGases:
    """A solid biomass's CH4 and N2O on one source, for all of its energy (share 1)."""

    energy_tj: float  # the fossil energy replaced: the substitute supplies the same (NCV)
    factors: tuple[Factor, ...]  # the substitute's CH4 and N2O per TJ in the source's use
    gwps: tuple[float, ...]
    added_tco2e: float  # the substitute's CH4 and N2O, t CO2e
    credited_tco2e: float  # the rows' own CH4 and N2O of the energy replaced, t CO2e


_NON_CO2_NOTE = {
    True: {
        "pt": "Base: o substituto fornece a mesma energia (PCI, em TJ) que a fração substituída, "
        "sem ganho de eficiência. ",
        "en": "Basis: the substitute supplies the same energy (NCV, in TJ) as the fraction "
        "replaced, with no efficiency gain. ",
    },
    False: {
        "pt": "CH4 e N2O não são creditados (conservador). ",
        "en": "CH4 and N2O are not credited (conservative). ",
    },
}


def _substitute_gases(
    library: FactorLibrary, substitute: str, source: _Source, inventory: Inventory, period: Period
) -> _SubstituteGases | None:
    """The substitute's CH4 and N2O for the energy it replaces, by the factors of the
    source's own use (IPCC 2006 v. 2 ch. 2: wood 30 kg CH4/TJ in manufacturing, 300 in
    commercial use); the old fuel's are what its rows report, for the fraction of the
    source's energy that is fossil. None: the library has no factor for that use."""
    use = source.info.use if source.info is not None else None
    if not use:
        return None
    factors = tuple(library.lookup(f"{substitute}@{use}", gas, period) for gas in _NON_CO2)
    if any(f is None for f in factors):
        return None
    found = tuple(f for f in factors if f is not None)
    gwps = tuple(gwp(f.gas, inventory.gwp_set, inventory.ch4_origin) or 0.0 for f in found)
    per_tj = sum(
        f.value * conversion_factor(f.unit, "t/TJ") * g for f, g in zip(found, gwps, strict=True)
    )
    energy = source.fossil_tj
    fossil_part = energy / source.energy_tj if source.energy_tj else 0.0
    reported = max(source.tco2e - source.fossil_co2, 0.0)  # CH4 and N2O, t CO2e
    return _SubstituteGases(
        energy_tj=energy,
        factors=found,
        gwps=gwps,
        added_tco2e=energy * per_tj,
        credited_tco2e=reported * fossil_part,
    )


def _solid_text(gases: Iterable[_SubstituteGases], name: str, share: Share, lang: str) -> str:
    """The CH4 and N2O terms of a switch to solid biomass, with their factors and source."""
    found = list(gases)
    pt = lang == "pt"
    added = sum(g.added_tco2e for g in found)
    credited = sum(g.credited_tco2e for g in found)
    energy = sum(g.energy_tj for g in found)
    terms: dict[str, tuple[Factor, float]] = {}
    for item in found:
        for factor, value in zip(item.factors, item.gwps, strict=True):
            terms.setdefault(f"{factor.key}|{factor.gas}", (factor, value))
    per_tj = "; ".join(
        f"{number(f.value, 1, lang)} {f.unit} {f.gas} × GWP {number(g, 0, lang)} "
        f"({f.key.split('@')[1]}, {f.table})"
        for f, g in terms.values()
    )
    source = found[0].factors[0].document if found else ""
    if pt:
        return (
            f" − CH4 e N2O do substituto ({name}), que ficam no escopo 1: {_t(energy, lang)} TJ × "
            f"({per_tj}) = {_t(added, lang)} t CO2e × parcela {_span(share, lang)} "
            f"({source}) + CH4 e N2O das linhas na fração substituída: {_t(credited, lang)} "
            "t CO2e × parcela"
        )
    return (
        f" − the substitute's ({name}) CH4 and N2O, which stay in Scope 1: {_t(energy, lang)} TJ × "
        f"({per_tj}) = {_t(added, lang)} t CO2e × share {_span(share, lang)} ({source}) + "
        f"the rows' CH4 and N2O in the fraction replaced: {_t(credited, lang)} t CO2e × share"
    )


# --- the rules ----------------------------------------------------------------------------


def fuel_switch(
    measure: Alternative,
    inventory: Inventory,
    rows: pd.DataFrame,
    *,
    share: float | None = None,
) -> _Cut | None:
    substitute = measure.substitute.removesuffix(BIOGENIC_SUFFIX)
    biogenic_substitute = measure.substitute.endswith(BIOGENIC_SUFFIX)
    library = _library(inventory)
    period = parse_period(_year(inventory))
    sub_bio = _per_tj(library, substitute, None, "CO2_biogenic", period)
    sub_fossil = _per_tj(library, substitute, None, "CO2", period)
    if biogenic_substitute:
        sub_bio, sub_fossil = sub_fossil, 0.0  # the same molecule, of biological origin
    solid = substitute in SOLID_BIOMASS and not biogenic_substitute
    sources, gases = _switched_sources(inventory, rows, substitute, per_tj=bool(sub_fossil),
                                       solid=solid)  # fmt: skip
    if not sources:
        return None
    low_share, high_share = _share(measure, share)
    fossil = sum(s.fossil_co2 for s in sources)
    energy = sum(s.fossil_tj for s in sources)
    # What stays of the fossil CO2 per TJ burnt: 0 for a biogenic substitute.
    kept = sum(s.fossil_tj * sub_fossil for s in sources)
    # A solid biomass: its CH4 and N2O for the energy it now supplies stay in Scope 1, and
    # the old fuel's CH4 and N2O of the fraction replaced go (both × the share, below).
    cut_all = fossil - kept + sum(g.credited_tco2e - g.added_tco2e for g in gases)
    baseline = sum(s.tco2e for s in sources)
    mid_share = (low_share + high_share) / 2
    biogenic = energy * sub_bio * mid_share
    chosen = pd.concat([s.rows for s in sources])
    names = {"pt": _short(measure.alternative["pt"]), "en": _short(measure.alternative["en"])}
    fuel = {"pt": _short(measure.source["pt"]), "en": _short(measure.source["en"])}
    known_fossil = sum(s.fossil_co2 for s in sources if s.fossil_factor)
    factor = known_fossil / energy if energy else 0.0
    unknown = [s for s in sources if not s.fossil_factor]
    basis = {}
    for lang in ("pt", "en"):
        pt = lang == "pt"
        head = (
            f"Escopo 1: CO2 fóssil das linhas ({_t(fossil, lang)} t)"
            if pt
            else f"Scope 1: the rows' fossil CO2 ({_t(fossil, lang)} t)"
        )
        if sub_fossil:
            ratio = f"(1 − {number(sub_fossil, 1, lang)} ÷ {number(factor, 1, lang)} t CO2/TJ)"
            rule = (
                f"{head} × {ratio} × parcela substituída {_span((low_share, high_share), lang)}"
                if pt
                else f"{head} × {ratio} × share replaced {_span((low_share, high_share), lang)}"
            )
        else:
            rule = (
                f"{head} × parcela substituída {_span((low_share, high_share), lang)}: o "
                f"{names[lang]} remove todo o CO2 fóssil da fração substituída"
                if pt
                else f"{head} × share replaced {_span((low_share, high_share), lang)}: "
                f"{names[lang]} removes all of the replaced fraction's fossil CO2"
            )
        if solid:
            rule += _solid_text(gases, names[lang], (low_share, high_share), lang)
        rule += (
            f" = {_range(cut_all * low_share, cut_all * high_share, lang)} t CO2e/ano. "
            if pt
            else f" = {_range(cut_all * low_share, cut_all * high_share, lang)} t CO2e/yr. "
        )
        rule += _NON_CO2_NOTE[solid][lang]
        if sub_bio and energy:
            rule += (
                f"CO2 biogênico do substituto, relatado fora dos escopos: {_t(energy, lang)} TJ "
                f"({_t(known_fossil, lang)} t ÷ {number(factor, 1, lang)} t CO2/TJ) × "
                f"{number(sub_bio, 1, lang)} t CO2/TJ × {_pct(mid_share, lang)} = "
                f"{_t(biogenic, lang)} t (IPCC 2006, v. 2, cap. 1, tabela 1.4). "
                if pt
                else f"The substitute's biogenic CO2, reported apart from the scopes: "
                f"{_t(energy, lang)} TJ ({_t(known_fossil, lang)} t ÷ {number(factor, 1, lang)} "
                f"t CO2/TJ) × {number(sub_bio, 1, lang)} t CO2/TJ × {_pct(mid_share, lang)} = "
                f"{_t(biogenic, lang)} t (IPCC 2006, vol. 2, ch. 1, table 1.4). "
            )
        if unknown:
            rule += (
                "Em linhas de combustível não identificado, o CO2 biogênico não foi estimado. "
                if pt
                else "For rows whose fuel is not identified, biogenic CO2 was not estimated. "
            )
        if biogenic_substitute:
            rule += (
                f"{names[lang]}: o fator de CO2 por TJ é o de {substitute}, a mesma molécula. "
                if pt
                else f"{names[lang]}: its CO2 per TJ is {substitute}'s, the same molecule. "
            )
        rule += (
            f"A faixa de ciclo de vida do catálogo ({measure.span(lang)}) não entra no escopo 1."
            if pt
            else f"The catalogue's life-cycle range ({measure.span(lang)}) does not enter Scope 1."
        )
        basis[lang] = rule
    unit = _unit(chosen)
    unit_text = f" ({unit})" if unit else ""
    kpi = {
        "pt": f"% do consumo de {fuel['pt']} substituído por {names['pt']}{unit_text}",
        "en": f"% of {fuel['en']} consumption replaced by {names['en']}{unit_text}",
    }
    return _Cut(
        share=(low_share, high_share),
        rows=chosen,
        baseline=baseline,
        low=cut_all * low_share,
        high=cut_all * high_share,
        basis=basis,
        kpi=kpi,
        biogenic=biogenic,
    )


def _switched_sources(
    inventory: Inventory, rows: pd.DataFrame, substitute: str, *, per_tj: bool, solid: bool
) -> tuple[list[_Source], list[_SubstituteGases]]:
    """The sources a switch can compute, with a solid biomass's CH4 and N2O on each."""
    sources = [s for s in _sources(inventory, rows) if s.fossil_co2 > 0]
    if per_tj or solid:
        # A fossil substitute is computed per TJ, and so are a solid biomass's CH4 and N2O: a
        # source whose fuel is unknown cannot be.
        sources = [s for s in sources if s.fossil_factor > 0]
    if not solid:
        return sources, []
    library = _library(inventory)
    period = parse_period(_year(inventory))
    kept: list[_Source] = []
    gases: list[_SubstituteGases] = []
    for source in sources:
        found = _substitute_gases(library, substitute, source, inventory, period)
        # No factor for the substitute in the source's use (wood in a truck): not computed.
        if found is not None:
            kept.append(source)
            gases.append(found)
    return kept, gases


def _share_of_rows(
    measure: Alternative,
    inventory: Inventory,
    rows: pd.DataFrame,
    *,
    share: float | None,
    avoided: bool,
) -> _Cut | None:
    """efficiency and activity_cut: the rows' t CO2e × the catalogue's % × the share."""
    counted = in_totals(rows)
    counted = counted[[is_combustion_gas(g) for g in _column(counted, F.GAS)]]
    if F.SCOPE2_METHOD in counted:  # a market-based row is a memo: never in the cut
        counted = counted[_column(counted, F.SCOPE2_METHOD).fillna("location") != F.MARKET]
    if counted.empty:
        return None
    low_share, high_share = _share(measure, share)
    baseline = float(_numbers(counted, F.EMISSIONS_TCO2E).sum())
    low = baseline * measure.reduction_min_pct / 100 * low_share
    high = baseline * measure.reduction_max_pct / 100 * high_share
    scope = _scope(counted)
    source = {"pt": _short(measure.source["pt"]), "en": _short(measure.source["en"])}
    year = _year(inventory)
    unit = _unit(counted)
    basis = {}
    for lang in ("pt", "en"):
        pt = lang == "pt"
        rule = (
            f"t CO2e das linhas ({_t(baseline, lang)}) × {measure.span(lang)} × parcela "
            f"alcançada {_span((low_share, high_share), lang)} = "
            f"{_range(low, high, lang)} t CO2e/ano ({measure.basis[lang].rstrip('.')})."
            if pt
            else f"The rows' t CO2e ({_t(baseline, lang)}) × {measure.span(lang)} × share "
            f"reached {_span((low_share, high_share), lang)} = "
            f"{_range(low, high, lang)} t CO2e/yr ({measure.basis[lang].rstrip('.')})."
        )
        if scope == 2:
            rule += (
                " Escopo 2 por localização; o número por mercado também cai, mas não é "
                "somado aqui: os dois métodos nunca se somam."
                if pt
                else " Location-based Scope 2; the market-based figure falls too, but is "
                "not added here: the two methods are never summed."
            )
        basis[lang] = rule
    unit_text = f", {unit}" if unit else ""
    if avoided:
        kpi = {
            "pt": f"{source['pt']}: atividade evitada frente a {year} (%{unit_text})",
            "en": f"{source['en']}: activity avoided against {year} (%{unit_text})",
        }
    else:
        kpi = {
            "pt": f"{source['pt']}: consumo ou emissão por unidade produzida frente a {year} "
            f"(%{unit_text})",
            "en": f"{source['en']}: use or emissions per unit of output against {year} "
            f"(%{unit_text})",
        }
    return _Cut(
        share=(low_share, high_share),
        rows=counted,
        baseline=baseline,
        low=low,
        high=high,
        basis=basis,
        kpi=kpi,
        scope2_method="location" if scope == 2 else None,
    )


def efficiency(
    measure: Alternative, inventory: Inventory, rows: pd.DataFrame, *, share: float | None = None
) -> _Cut | None:
    return _share_of_rows(measure, inventory, rows, share=share, avoided=False)


def activity_cut(
    measure: Alternative, inventory: Inventory, rows: pd.DataFrame, *, share: float | None = None
) -> _Cut | None:
    return _share_of_rows(measure, inventory, rows, share=share, avoided=True)


# Equipment that moves goods inside a site: it has no road leg to move to rail or water, so no
# modal shift acts on it (its fuel stays open to a fuel switch, electrification or efficiency).
INTERNAL_LOGISTICS = (
    "logistica interna", "intralogistica", "movimentacao interna", "transporte interno",
    "frota interna", "uso interno", "patio", "patios", "empilhadeira", "empilhadeiras",
    "pa carregadeira", "pas carregadeiras", "carregadeira", "carregadeiras",
    "retroescavadeira", "trator de patio", "internal logistics", "intralogistics",
    "internal transport", "in-plant", "yard", "yard truck", "yard trucks", "yard tractor",
    "terminal tractor", "forklift", "forklifts", "loader", "loaders", "reach stacker",
)  # fmt: skip
UPSTREAM_TRANSPORT = 4  # Scope 3 category 4, upstream transportation and distribution


def is_internal_logistics(rows: pd.DataFrame) -> pd.Series:
    """Whether each row names equipment that moves goods inside a site (a yard truck, a
    loader, a forklift, "caminhões de logística interna"), by its source and category."""
    found = [
        names_any(f"{_text(source)} | {_text(category)}", INTERNAL_LOGISTICS)
        for source, category in zip(_column(rows, F.SOURCE), _column(rows, F.CATEGORY), strict=True)
    ]
    return pd.Series(found, index=rows.index, dtype=bool)


def modal_shift(
    measure: Alternative, inventory: Inventory, rows: pd.DataFrame, *, share: float | None = None
) -> _Cut | None:
    """Freight moved from road to rail or water on the long legs.

    Own trucks (Scope 1): their emissions fall by the whole share shifted, and the carrier's
    enter Scope 3 category 4 (GHG Protocol Scope 3 Standard: transport a company buys). With
    no tonne-km in the inventory, the carrier's emissions are the shifted road emissions ×
    (1 − the catalogue's per tonne-km saving): 40–75% less per t·km than the diesel truck is
    25–60% of it (IEA, The Future of Rail, 2019). The net cut is what the action reduces; the
    Scope 1 fall and the Scope 3 rise are both kept on it. Outsourced road freight (already
    Scope 3 category 4): the per tonne-km saving within that category. Rows of internal
    logistics (``INTERNAL_LOGISTICS``) are left out: they have no road leg to shift."""
    counted = in_totals(rows)
    counted = counted[[is_combustion_gas(g) for g in _column(counted, F.GAS)]]
    counted = counted[~is_internal_logistics(counted)]
    scope = _rows_scope(counted, measure)
    if counted.empty or scope not in (1, 3):
        return None
    low_share, high_share = _share(measure, share)
    low_pct, high_pct = measure.reduction_min_pct / 100, measure.reduction_max_pct / 100
    baseline = float(_numbers(counted, F.EMISSIONS_TCO2E).sum())
    gross_low, gross_high = baseline * low_share, baseline * high_share
    low, high = gross_low * low_pct, gross_high * high_pct
    source = {"pt": _short(measure.source["pt"]), "en": _short(measure.source["en"])}
    kpi = {
        "pt": f"{source['pt']}: t·km transferidas para ferrovia ou cabotagem (% das t·km "
        "rodoviárias)",
        "en": f"{source['en']}: t·km moved to rail or coastal shipping (% of road t·km)",
    }
    shares = _span((low_share, high_share), "pt"), _span((low_share, high_share), "en")
    if scope == 3:
        basis = {
            "pt": f"Frete rodoviário contratado (escopo 3, categoria 4): t CO2e das linhas "
            f"({_t(baseline, 'pt')}) × parcela transferida {shares[0]} × {measure.span('pt')} "
            f"a menos por t·km = {_range(low, high, 'pt')} t CO2e/ano, dentro da mesma "
            f"categoria ({measure.basis['pt'].rstrip('.')}).",
            "en": f"Road freight bought (Scope 3, category 4): the rows' t CO2e "
            f"({_t(baseline, 'en')}) × share shifted {shares[1]} × {measure.span('en')} less "
            f"per t·km = {_range(low, high, 'en')} t CO2e/yr, within the same category "
            f"({measure.basis['en'].rstrip('.')}).",
        }
        return _Cut(share=(low_share, high_share), rows=counted, baseline=baseline, low=low,
                    high=high, basis=basis, kpi=kpi)  # fmt: skip
    carrier_low, carrier_high = gross_low - low, gross_high - high
    carrier = (
        f"{number(100 - measure.reduction_max_pct, 0, 'pt')}–"
        f"{number(100 - measure.reduction_min_pct, 0, 'pt')}%"
    )
    basis = {
        "pt": f"Caminhões próprios (escopo 1): t CO2e das linhas ({_t(baseline, 'pt')}) × "
        f"parcela transferida {shares[0]} = {_range(gross_low, gross_high, 'pt')} t CO2e a "
        "menos no escopo 1; a transportadora (ferrovia ou cabotagem) emite, pelas mesmas "
        f"t·km, {carrier} do caminhão ({measure.span('pt')} a menos por t·km): "
        f"{_range(carrier_low, carrier_high, 'pt')} t CO2e a mais no escopo 3, categoria 4 "
        f"(transporte a montante). Efeito líquido: {_range(low, high, 'pt')} t CO2e/ano "
        f"({measure.basis['pt'].rstrip('.')}). Logística interna (pátio, empilhadeiras, pás "
        "carregadeiras) não muda de modal e fica fora.",
        "en": f"Own trucks (Scope 1): the rows' t CO2e ({_t(baseline, 'en')}) × share shifted "
        f"{shares[1]} = {_range(gross_low, gross_high, 'en')} t CO2e less in Scope 1; the "
        f"carrier (rail or coastal shipping) emits, for the same t·km, {carrier} of the "
        f"truck's ({measure.span('en')} less per t·km): "
        f"{_range(carrier_low, carrier_high, 'en')} t CO2e more in Scope 3, category 4 "
        f"(upstream transportation). Net effect: {_range(low, high, 'en')} t CO2e/yr "
        f"({measure.basis['en'].rstrip('.')}). Internal logistics (yard trucks, forklifts, "
        "loaders) cannot shift mode and is left out.",
    }
    return _Cut(
        share=(low_share, high_share),
        rows=counted,
        baseline=baseline,
        low=low,
        high=high,
        basis=basis,
        kpi=kpi,
        scope3_low=carrier_low,
        scope3_high=carrier_high,
        scope3_category=UPSTREAM_TRANSPORT,
    )


def _rows_scope(rows: pd.DataFrame, measure: Alternative) -> int:
    """The rows' scope, or the measure's single scope when the inventory gives them none
    (as the planner reads them)."""
    known = {str(s) for s in _column(rows, F.SCOPE)} & {"1", "2", "3"}
    if not known and len(measure.scopes) == 1:
        return measure.scopes[0]
    return _scope(rows)


def in_scope_gwp(gas: str, gwp_set: str) -> float | None:
    """The GWP of the part of a gas the totals count: a blend's Montreal components (the
    HCFC-22 in R-408A) are a memo item, so they are left out."""
    parts = [(part, share) for part, share in split_blend(gas) if not is_montreal(part)]
    values = [(gwp(part, gwp_set), share) for part, share in parts]
    if not values or any(value is None for value, _ in values):
        return None
    return sum(value * share for value, share in values if value is not None)


def refrigerant(
    measure: Alternative, inventory: Inventory, rows: pd.DataFrame, *, share: float | None = None
) -> _Cut | None:
    gwp_set = str(inventory.gwp_set)
    new_gwp = substitute_gwp(measure.substitute, gwp_set)
    if new_gwp is None:
        raise RuleError(
            f"O gás '{measure.substitute}' não tem GWP {gwp_set} conhecido.",
            f"The gas '{measure.substitute}' has no known {gwp_set} GWP.",
        )
    counted = in_totals(rows)
    counted = counted[[not is_combustion_gas(g) for g in _column(counted, F.GAS)]]
    ratios = []
    for gas in _column(counted, F.GAS):
        old = in_scope_gwp(str(gas), gwp_set)
        ratios.append(max(0.0, 1 - new_gwp / old) if old else 0.0)
    ratio = pd.Series(ratios, index=counted.index, dtype=float)
    counted, ratio = counted[ratio > 0], ratio[ratio > 0]
    if counted.empty:
        return None
    low_share, high_share = _share(measure, share)
    tco2e = _numbers(counted, F.EMISSIONS_TCO2E)
    baseline = float(tco2e.sum())
    cut = float((tco2e * ratio).sum())
    new = refrigerant_name(measure.substitute) or measure.substitute
    olds = sorted({str(g) for g in _column(counted, F.GAS)})
    old_gwps = ", ".join(f"{g} {number(in_scope_gwp(g, gwp_set) or 0, 0, 'pt')}" for g in olds)
    old_gwps_en = ", ".join(f"{g} {number(in_scope_gwp(g, gwp_set) or 0, 0, 'en')}" for g in olds)
    source = gwp_source(measure.substitute)
    source_text = f"; {source}" if source else ""
    basis = {
        "pt": f"Emissão fugitiva das linhas ({_t(baseline, 'pt')} t CO2e) × (1 − GWP {gwp_set} "
        f"de {new} {number(new_gwp, 2, 'pt')} ÷ {old_gwps}) × parcela convertida "
        f"{_span((low_share, high_share), 'pt')} = "
        f"{_range(cut * low_share, cut * high_share, 'pt')} t CO2e/ano. Só o que está nos "
        "totais: gases do "
        f"Protocolo de Montreal (R-22) ficam fora dos escopos e não são creditados (IPCC "
        f"{gwp_set}{source_text}).",
        "en": f"The rows' fugitive emissions ({_t(baseline, 'en')} t CO2e) × (1 − {gwp_set} "
        f"GWP of {new} {number(new_gwp, 2, 'en')} ÷ {old_gwps_en}) × share converted "
        f"{_span((low_share, high_share), 'en')} = "
        f"{_range(cut * low_share, cut * high_share, 'en')} t CO2e/yr. Only what is in the "
        "totals: Montreal "
        f"Protocol gases (R-22) stay outside the scopes and are not credited (IPCC "
        f"{gwp_set}{source_text}).",
    }
    kpi = {
        "pt": f"kg de {', '.join(olds)} recarregados por ano e % dos equipamentos convertidos "
        f"para {new}",
        "en": f"kg of {', '.join(olds)} recharged a year and % of the equipment converted to {new}",
    }
    return _Cut(
        share=(low_share, high_share),
        rows=counted,
        baseline=baseline,
        low=cut * low_share,
        high=cut * high_share,
        basis=basis,
        kpi=kpi,
    )


def sf6_free(
    measure: Alternative, inventory: Inventory, rows: pd.DataFrame, *, share: float | None = None
) -> _Cut | None:
    counted = in_totals(rows)
    counted = counted[[_text(g).upper() == "SF6" for g in _column(counted, F.GAS)]]
    if counted.empty:
        return None
    low_share, high_share = _share(measure, share)
    baseline = float(_numbers(counted, F.EMISSIONS_TCO2E).sum())
    basis = {
        "pt": f"Todo o SF6 vazado pelos equipamentos substituídos: {_t(baseline, 'pt')} t CO2e "
        f"× parcela substituída {_span((low_share, high_share), 'pt')} = "
        f"{_range(baseline * low_share, baseline * high_share, 'pt')} t CO2e/ano "
        "(equipamento livre de SF6 não emite gás de efeito estufa fluorado).",
        "en": f"All of the SF6 leaked by the equipment replaced: {_t(baseline, 'en')} t CO2e "
        f"× share replaced {_span((low_share, high_share), 'en')} = "
        f"{_range(baseline * low_share, baseline * high_share, 'en')} t CO2e/yr "
        "(SF6-free equipment emits no fluorinated greenhouse gas).",
    }
    kpi = {
        "pt": "kg de SF6 recarregados por ano e nº de disjuntores/painéis livres de SF6",
        "en": "kg of SF6 recharged a year and number of SF6-free breakers/switchgear",
    }
    return _Cut(
        share=(low_share, high_share),
        rows=counted,
        baseline=baseline,
        low=baseline * low_share,
        high=baseline * high_share,
        basis=basis,
        kpi=kpi,
    )


def market_instrument(
    measure: Alternative, inventory: Inventory, rows: pd.DataFrame, *, share: float | None = None
) -> _Cut | None:
    scope2 = rows[_column(rows, F.SCOPE).astype(str) == "2"]
    market = scope2[_column(scope2, F.REPORTING) == F.SCOPE2_MARKET]
    reported = inventory.scope2_market_tco2e is not None
    if not market.empty:
        chosen = market[_numbers(market, F.MEMO_TCO2E) > 0]
        figures = _numbers(chosen, F.MEMO_TCO2E)
    elif not reported:
        # No market-based figure: with no contractual instruments, the Brazilian program's
        # purchase-choice figure is the grid average, i.e. the location-based figure.
        chosen = in_totals(scope2)
        if F.SCOPE2_METHOD in chosen:
            chosen = chosen[_column(chosen, F.SCOPE2_METHOD).fillna("location") != F.MARKET]
        figures = _numbers(chosen, F.EMISSIONS_TCO2E)
    else:
        return None  # market-based is reported, but not on these rows
    if chosen.empty:
        return None
    low_share, high_share = _share(measure, share)
    baseline = float(figures.sum())
    low = baseline * low_share * measure.reduction_min_pct / 100
    high = baseline * high_share * measure.reduction_max_pct / 100
    if reported:
        origin = {
            "pt": f"Escopo 2 por mercado, como relatado ({_t(baseline, 'pt')} t CO2e)",
            "en": f"Market-based Scope 2, as reported ({_t(baseline, 'en')} t CO2e)",
        }
    else:
        origin = {
            "pt": f"Sem escopo 2 por mercado no inventário, a linha de base por mercado é o "
            f"número por localização ({_t(baseline, 'pt')} t CO2e): sem instrumentos "
            "contratuais, a escolha de compra do Programa Brasileiro GHG Protocol é a média "
            "do SIN",
            "en": f"With no market-based Scope 2 in the inventory, the market-based baseline "
            f"is the location-based figure ({_t(baseline, 'en')} t CO2e): with no contractual "
            "instruments, the Brazilian GHG Protocol Program's purchase-choice figure is the "
            "SIN average",
        }
    basis = {
        "pt": f"{origin['pt']} × consumo coberto {_span((low_share, high_share), 'pt')} × "
        f"{measure.span('pt')} = {_range(low, high, 'pt')} t CO2e/ano, só no escopo 2 "
        "por mercado. O escopo 2 por localização não muda (0): os dois métodos nunca se "
        "somam (GHG Protocol Scope 2 Guidance, 2015).",
        "en": f"{origin['en']} × consumption covered {_span((low_share, high_share), 'en')} × "
        f"{measure.span('en')} = {_range(low, high, 'en')} t CO2e/yr, in market-based "
        "Scope 2 only. Location-based Scope 2 does not change (0): the two methods are never "
        "summed (GHG Protocol Scope 2 Guidance, 2015).",
    }
    kpi = {
        "pt": "MWh cobertos por contrato ou certificados com atributos ambientais "
        "(% do consumo da rede)",
        "en": "MWh covered by contracts or certificates with environmental attributes "
        "(% of grid consumption)",
    }
    return _Cut(
        share=(low_share, high_share),
        rows=chosen,
        baseline=baseline,
        low=low,
        high=high,
        basis=basis,
        kpi=kpi,
        refs_tco2e=figures,
        scope2_method="market",
    )


@dataclass(frozen=True)
class GridFactor:
    t_per_mwh: float
    text: dict[str, str]  # pt / en: the factor and where it comes from


def grid_factor(inventory: Inventory) -> GridFactor:
    """The SIN average factor (location-based) of the inventory's year: the annual factor,
    else the days-weighted mean of the monthly ones, else the latest annual factor."""
    library = _library(inventory)
    year = _year(inventory)
    try:
        found = estimate("energia elétrica", 1, "MWh", date_or_year=year, factors=library)
        source = found.factors[0].source if found.factors else ""
        return GridFactor(
            found.tco2e,
            {
                "pt": f"fator médio do SIN de {year} ({source})",
                "en": f"SIN average factor for {year} ({source})",
            },
        )
    except EmissionsError:
        pass
    period = parse_period(year)
    pieces = library.pieces(_GRID_KEY, "CO2", period)
    if pieces:
        days = sum(d for _, d in pieces)
        value = sum(f.value * conversion_factor(f.unit, "t/MWh") * d for f, d in pieces) / days
        return GridFactor(
            value,
            {
                "pt": f"média dos fatores mensais do SIN de {year}, ponderada pelos dias (MCTI)",
                "en": f"days-weighted mean of the SIN monthly factors for {year} (MCTI)",
            },
        )
    annual = [
        f
        for f in library.candidates(_GRID_KEY, "CO2")
        if f.valid_from and f.valid_to and (f.valid_to - f.valid_from).days >= 364
    ]
    if not annual:
        raise RuleError(
            "A biblioteca não tem fator do SIN para calcular a eletricidade nova.",
            "The library has no SIN factor to compute the new electricity with.",
        )
    latest = max(annual, key=lambda f: f.valid_from or date.min)
    assert latest.valid_from is not None
    return GridFactor(
        latest.value * conversion_factor(latest.unit, "t/MWh"),
        {
            "pt": f"fator médio do SIN de {latest.valid_from.year}, o último anual disponível "
            f"({latest.source})",
            "en": f"SIN average factor for {latest.valid_from.year}, the latest annual one "
            f"({latest.source})",
        },
    )


def electrification(
    measure: Alternative, inventory: Inventory, rows: pd.DataFrame, *, share: float | None = None
) -> _Cut | None:
    ratio = float(measure.substitute.replace(",", "."))
    # The new MWh need the energy burnt, which needs the fuel's factor per TJ.
    sources = [s for s in _sources(inventory, rows) if s.known and s.energy_tj > 0]
    if not sources:
        return None
    low_share, high_share = _share(measure, share)
    baseline = sum(s.tco2e for s in sources)
    energy = sum(s.energy_tj for s in sources)
    grid = grid_factor(inventory)
    mwh = energy * MWH_PER_TJ * ratio
    added_low, added_high = (mwh * s * grid.t_per_mwh for s in (low_share, high_share))
    gross_low, gross_high = baseline * low_share, baseline * high_share
    low, high = gross_low - added_low, gross_high - added_high
    clipped = low < 0 or high < 0
    # A clipped action counts as no cut: a what-if shows Scope 2 rising by no more than
    # Scope 1 falls, so it nets to the 0 the action states (the basis gives both figures).
    grid_low, grid_high = min(added_low, gross_low), min(added_high, gross_high)
    chosen = pd.concat([s.rows for s in sources])
    fuel = {"pt": _short(measure.source["pt"]), "en": _short(measure.source["en"])}
    basis = {
        "pt": f"t CO2e das linhas ({_t(baseline, 'pt')}) × parcela eletrificada "
        f"{_span((low_share, high_share), 'pt')} − eletricidade nova: {_t(energy, 'pt')} TJ × "
        f"{number(MWH_PER_TJ, 2, 'pt')} MWh/TJ × razão de eficiência {number(ratio, 2, 'pt')} "
        f"× parcela = {_range(mwh * low_share, mwh * high_share, 'pt')} MWh × "
        f"{number(grid.t_per_mwh, 4, 'pt')} t CO2/MWh ({grid.text['pt']}, por localização) = "
        f"{_range(max(low, 0), max(high, 0), 'pt')} t CO2e/ano. O escopo 1 cai "
        f"{_range(gross_low, gross_high, 'pt')} t e o escopo 2 sobe "
        f"{_range(added_low, added_high, 'pt')} t.",
        "en": f"The rows' t CO2e ({_t(baseline, 'en')}) × share electrified "
        f"{_span((low_share, high_share), 'en')} − new electricity: {_t(energy, 'en')} TJ × "
        f"{number(MWH_PER_TJ, 2, 'en')} MWh/TJ × efficiency ratio {number(ratio, 2, 'en')} × "
        f"share = {_range(mwh * low_share, mwh * high_share, 'en')} MWh × "
        f"{number(grid.t_per_mwh, 4, 'en')} t CO2/MWh ({grid.text['en']}, location-based) = "
        f"{_range(max(low, 0), max(high, 0), 'en')} t CO2e/yr. Scope 1 falls by "
        f"{_range(gross_low, gross_high, 'en')} t and Scope 2 rises by "
        f"{_range(added_low, added_high, 'en')} t.",
    }
    if clipped:
        basis["pt"] += (
            " A rede emitiria mais do que o combustível evitado: a redução é limitada a 0."
        )
        basis["en"] += (
            " The grid would emit more than the fuel avoided: the reduction is clipped at 0."
        )
    kpi = {
        "pt": f"% do consumo de {fuel['pt']} substituído por eletricidade (MWh elétricos "
        "adicionais por ano)",
        "en": f"% of {fuel['en']} consumption replaced by electricity (additional MWh of "
        "electricity a year)",
    }
    return _Cut(
        share=(low_share, high_share),
        rows=chosen,
        baseline=baseline,
        low=low,
        high=high,
        basis=basis,
        kpi=kpi,
        grid_low=grid_low,
        grid_high=grid_high,
    )


Rule = Callable[..., "_Cut | None"]
RULES: dict[str, Rule] = {
    "fuel_switch": fuel_switch,
    "efficiency": efficiency,
    "activity_cut": activity_cut,
    "refrigerant": refrigerant,
    "sf6_free": sf6_free,
    "market_instrument": market_instrument,
    "electrification": electrification,
    "modal_shift": modal_shift,
}


def compute(
    measure: Alternative,
    inventory: Inventory,
    rows: pd.DataFrame,
    *,
    share: float | None = None,
    costs: Costs | None = None,
    scope: int | None = None,
) -> Action | None:
    """The action of ``measure`` on ``rows`` (the headline year's, one scope), or None when
    the rule finds nothing in the totals to cut. ``share`` (0–1) replaces the measure's
    applied range with one share; ``costs`` replaces its quote; ``scope`` is the rows' scope
    when the inventory gives none (the planner takes the measure's)."""
    if measure.mechanism is None:
        return None
    cut = RULES[measure.mechanism](measure, inventory, rows, share=share)
    if cut is None:
        return None
    return _action(measure, cut, costs if costs is not None else measure.costs, scope)


def recompute(
    action: Action,
    inventory: Inventory,
    *,
    share: float | None = None,
    substitute: str | None = None,
    catalogue: Catalogue | None = None,
    costs: Costs | None = None,
) -> Action:
    """The same action on the same rows, through the same rule, with a what-if's ``share``
    (0–1) or ``substitute`` (a refrigerant's new gas, a fuel switch's fuel). Its quote per
    tonne carries over (from the action itself when it was priced); the id stays."""
    measures = catalogue if catalogue is not None else shipped_catalogue()
    measure = measures[action.measure_id]
    if substitute:
        measure = replace(measure, substitute=_checked_substitute(measure, substitute))
    rows = rows_of(inventory, action.rows)
    quote = costs if costs is not None else _quote(action, measure.costs)
    found = compute(measure, inventory, rows, share=share, costs=quote, scope=action.scope)
    if found is None:  # nothing left to cut (the rows changed): the action cuts nothing
        return action.model_copy(
            update={
                "reduction_low_tco2e": 0.0,
                "reduction_high_tco2e": 0.0,
                "biogenic_co2_t": 0.0,
                "grid_added_low_tco2e": 0.0,
                "grid_added_high_tco2e": 0.0,
                "scope3_added_low_tco2e": 0.0,
                "scope3_added_high_tco2e": 0.0,
            }
        )
    return found.model_copy(
        update={"id": action.id, "deadline": action.deadline, "needed_year": action.needed_year}
    )


def _quote(action: Action, fallback: Costs) -> Costs:
    """The per-tonne quote an action was priced with, read back from its totals."""
    mid = action.reduction_mid_tco2e
    if mid <= 0 or (action.capex_brl is None and action.opex_delta_brl_yr is None):
        return fallback
    return Costs(
        capex_brl_per_tco2e=None if action.capex_brl is None else action.capex_brl / mid,
        opex_brl_per_tco2e=(
            None if action.opex_delta_brl_yr is None else action.opex_delta_brl_yr / mid
        ),
        lifetime_years=action.lifetime_years,
        cost_source=action.cost_source,
    )


def _checked_substitute(measure: Alternative, substitute: str) -> str:
    if measure.mechanism == "refrigerant":
        if all(substitute_gwp(substitute, s) is not None for s in ("AR4", "AR5", "AR6")):
            return substitute
    elif measure.mechanism == "fuel_switch":
        fuel = substitute.removesuffix(BIOGENIC_SUFFIX)
        if any(key.startswith(f"{fuel}@") for key in default_library().factor_keys()):
            return substitute
    elif measure.mechanism == "electrification":
        try:
            if float(substitute.replace(",", ".")) > 0:
                return substitute
        except ValueError:
            pass
    else:
        raise RuleError(
            f"A medida '{measure.key}' não tem substituto a escolher.",
            f"The measure '{measure.key}' has no substitute to choose.",
        )
    raise RuleError(
        f"Substituto desconhecido para '{measure.key}': '{substitute}'.",
        f"Unknown substitute for '{measure.key}': '{substitute}'.",
    )
