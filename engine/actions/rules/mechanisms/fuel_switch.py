"""fuel_switch: the fossil CO2 of the rows × the share replaced.

A biogenic substitute (B100, ethanol, biomethane, biomass) removes all of the replaced
fraction's fossil CO2 from Scope 1 and adds its own CO2 as biogenic, reported apart (GHG
Protocol Corporate Standard, ch. 4); a fossil substitute (fuel oil to natural gas) cuts by the
ratio of the CO2 factors per TJ. A solid biomass (wood, charcoal) adds its own CH4 and N2O,
which stay in Scope 1, for the energy it now supplies (the same TJ, NCV basis, by the factors
of the source's use: IPCC 2006 v. 2 ch. 2), and credits the rows' CH4 and N2O of the fraction
replaced. For other substitutes CH4 and N2O are not credited: theirs are of the same order
(conservative). The catalogue's life-cycle range (B100: 40–70%) never enters Scope 1.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import pandas as pd

from engine.actions.rules.cut import Cut, Share, share_range
from engine.actions.rules.fuels import Source, factor_per_tj, fuel_sources
from engine.actions.rules.rows import library_of, main_unit, period_of
from engine.actions.rules.text import of, pct, short_names, span, tonnes, tonnes_range
from engine.actions.rules.texts import RULE_TEXTS, as_dict
from engine.emissions import Factor, FactorLibrary
from engine.emissions.periods import Period
from engine.emissions.units import conversion_factor
from engine.formatting import number
from engine.gases.gwp import gwp
from engine.inventory import Inventory
from engine.measures.catalogue import BIOGENIC_SUFFIX, Alternative
from engine.texts import LANGS

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


def _substitute_gases(
    library: FactorLibrary, substitute: str, source: Source, inventory: Inventory, period: Period
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
    return RULE_TEXTS(
        "fuel.solid",
        lang,
        name=name,
        energy=tonnes(energy, lang),
        per_tj=per_tj,
        added=tonnes(added, lang),
        share=span(share, lang),
        source=source,
        credited=tonnes(credited, lang),
    )


def fuel_switch(
    measure: Alternative,
    inventory: Inventory,
    rows: pd.DataFrame,
    *,
    share: float | None = None,
) -> Cut | None:
    substitute = measure.substitute.removesuffix(BIOGENIC_SUFFIX)
    biogenic_substitute = measure.substitute.endswith(BIOGENIC_SUFFIX)
    library = library_of(inventory)
    period = period_of(inventory)
    sub_bio = factor_per_tj(library, substitute, None, "CO2_biogenic", period)
    sub_fossil = factor_per_tj(library, substitute, None, "CO2", period)
    if biogenic_substitute:
        sub_bio, sub_fossil = sub_fossil, 0.0  # the same molecule, of biological origin
    solid = substitute in SOLID_BIOMASS and not biogenic_substitute
    sources, gases = _switched_sources(inventory, rows, substitute, per_tj=bool(sub_fossil),
                                       solid=solid)  # fmt: skip
    if not sources:
        return None
    low_share, high_share = share_range(measure, share)
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
    names = short_names(measure.alternative)
    fuel = short_names(measure.source)
    known_fossil = sum(s.fossil_co2 for s in sources if s.fossil_factor)
    factor = known_fossil / energy if energy else 0.0
    unknown = [s for s in sources if not s.fossil_factor]
    basis = {}
    for lang in LANGS:
        head = RULE_TEXTS("fuel.head", lang, fossil=tonnes(fossil, lang))
        shares = span((low_share, high_share), lang)
        if sub_fossil:
            ratio = f"(1 − {number(sub_fossil, 1, lang)} ÷ {number(factor, 1, lang)} t CO2/TJ)"
            rule = RULE_TEXTS("fuel.ratio", lang, head=head, ratio=ratio, share=shares)
        else:
            rule = RULE_TEXTS("fuel.all_fossil", lang, head=head, share=shares, name=names[lang])
        if solid:
            rule += _solid_text(gases, names[lang], (low_share, high_share), lang)
        cut_text = tonnes_range(cut_all * low_share, cut_all * high_share, lang)
        rule += RULE_TEXTS("fuel.total", lang, cut=cut_text)
        rule += RULE_TEXTS("fuel.same_energy" if solid else "fuel.non_co2_not_credited", lang)
        if sub_bio and energy:
            rule += RULE_TEXTS(
                "fuel.biogenic",
                lang,
                energy=tonnes(energy, lang),
                fossil=tonnes(known_fossil, lang),
                factor=number(factor, 1, lang),
                bio_factor=number(sub_bio, 1, lang),
                share=pct(mid_share, lang),
                biogenic=tonnes(biogenic, lang),
            )
        if unknown:
            rule += RULE_TEXTS("fuel.unidentified", lang)
        if biogenic_substitute:
            rule += RULE_TEXTS("fuel.same_molecule", lang, name=names[lang], substitute=substitute)
        rule += RULE_TEXTS("fuel.life_cycle", lang, measure_span=measure.span(lang))
        basis[lang] = rule
    unit = main_unit(chosen)
    unit_text = f" ({unit})" if unit else ""
    kpi = RULE_TEXTS.both("fuel.kpi", fuel=of(fuel), name=of(names), unit=unit_text)
    return Cut(
        share=(low_share, high_share),
        rows=chosen,
        baseline=baseline,
        low=cut_all * low_share,
        high=cut_all * high_share,
        basis=basis,
        kpi=as_dict(kpi),
        biogenic=biogenic,
    )


def _switched_sources(
    inventory: Inventory, rows: pd.DataFrame, substitute: str, *, per_tj: bool, solid: bool
) -> tuple[list[Source], list[_SubstituteGases]]:
    """The sources a switch can compute, with a solid biomass's CH4 and N2O on each."""
    sources = [s for s in fuel_sources(inventory, rows) if s.fossil_co2 > 0]
    if per_tj or solid:
        # A fossil substitute is computed per TJ, and so are a solid biomass's CH4 and N2O: a
        # source whose fuel is unknown cannot be.
        sources = [s for s in sources if s.fossil_factor > 0]
    if not solid:
        return sources, []
    library = library_of(inventory)
    period = period_of(inventory)
    kept: list[Source] = []
    gases: list[_SubstituteGases] = []
    for source in sources:
        found = _substitute_gases(library, substitute, source, inventory, period)
        # No factor for the substitute in the source's use (wood in a truck): not computed.
        if found is not None:
            kept.append(source)
            gases.append(found)
    return kept, gases
