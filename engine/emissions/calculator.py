"""Activity data to emissions: every number of the chain kept, with its source, for the answer.

The method chain, by activity (see activities.toml):

- fuel combustion: quantity -> volume, mass or energy (pint) -> mass by density -> energy by
  net calorific value (NCV) -> kg of each gas by the IPCC factor per TJ. Only the steps the
  unit needs are taken: a quantity in GJ needs neither density nor NCV.
- blends (diesel B, gasoline C): the volume is split by the bio share valid in the period;
  the fossil part's CO2 is in scope, the bio part's is biogenic CO2, reported apart; CH4 and
  N2O of both parts count in scope.
- grid electricity: MWh x the MCTI factor (scope 2, location-based).
- refrigerants: kg leaked x GWP, blends split into their components; Montreal Protocol gases
  are reported apart, never in t CO2e.
- carbonates: t x the stoichiometric t CO2/t (full calcination).
- a gas emitted as such ("0,5 t de N2O", ``gas:N2O``): its mass x its GWP, like a leak.

A factor under the activity's own id (a user's ``diesel_road`` CO2 in kg/L) replaces the
chain for that gas. Every result is linear in the quantity: the batch path computes each
distinct (activity, unit, period, region, GWP set) once, for a quantity of 1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date
from typing import cast

from engine.emissions.activities import ActivityInfo, find_activity, find_gas, nearest
from engine.emissions.errors import PeriodError, UnitError, UnknownActivityError
from engine.emissions.explain import num
from engine.emissions.factors import PROPERTY, Factor, FactorLibrary, default_library
from engine.emissions.names import BIOGENIC, COMBUSTION_GASES, gas_label, share_role
from engine.emissions.periods import Period, parse_period
from engine.emissions.results import Estimate, FactorUse, Note, Step
from engine.emissions.units import conversion_factor, dimension, normalize, pretty
from engine.formatting import number
from engine.gases.gwp import Ch4Origin, check_gwp_set, gwp, is_montreal, split_blend
from engine.texts import LANGS, Both, Texts

# The unit a blend's mass or energy is carried in while it is split.
_DIMENSION_UNITS = {"volume": "L", "mass": "kg", "energy": "GJ"}

_GWP_SOURCES = {
    "AR4": "IPCC AR4, WG1, Ch. 2, Table 2.14 (2007)",
    "AR5": "IPCC AR5, WG1, Ch. 8, Table 8.A.1 (2013)",
    "AR6": "IPCC AR6, WG1, Ch. 7, Table 7.SM.7 (2021)",
}
# AR6's methane by origin is another table: fossil methane adds the CO2 it oxidises to.
_AR6_CH4_ORIGIN_SOURCE = "IPCC AR6, WG1, Ch. 7, Table 7.15 (2021)"
_GWP_UNIT = "kg CO2e/kg"  # shown only: a GWP never goes through pint
_TEXTS = Texts(
    "engine.emissions.calculator",
    {
        # The refrigerant blends' mass composition (engine/gases/data/blends.csv), as cited.
        "blend_source": {
            "pt": "Composição mássica da mistura (tabela de misturas de refrigerantes do Aeko)",
            "en": "Mass composition of the blend (Aeko's refrigerant blend table)",
        },
        # What each factor is, by the role the computation gives it.
        "role.density": {"pt": "densidade", "en": "density"},
        "role.ncv": {"pt": "PCI", "en": "NCV"},
        "role.CO2": {"pt": "fator CO2", "en": "CO2 factor"},
        "role.CH4": {"pt": "fator CH4", "en": "CH4 factor"},
        "role.N2O": {"pt": "fator N2O", "en": "N2O factor"},
        f"role.{BIOGENIC}": {"pt": "fator CO2 biogênico", "en": "biogenic CO2 factor"},
        "role.grid": {"pt": "fator médio do SIN", "en": "SIN average factor"},
        "role.carbonate": {"pt": "fator estequiométrico", "en": "stoichiometric factor"},
        "role.blend_share": {"pt": "fração mássica", "en": "mass fraction"},
        "role.gwp": {"pt": "GWP", "en": "GWP"},
        "role.direct": {"pt": "fator direto", "en": "direct factor"},
        "role.direct_gas": {"pt": "fator direto {gas}", "en": "direct {gas} factor"},
        "role.biofuel_share": {"pt": "teor do biocombustível", "en": "biofuel share"},
        "role.component_share": {
            "pt": "fração mássica de {component}",
            "en": "{component} mass fraction",
        },
        "role.component_gwp": {
            "pt": "GWP {gwp_set} de {component}",
            "en": "{component} GWP {gwp_set}",
        },
        "heading.gasoline_c.ethanol_share": {"pt": "Etanol anidro", "en": "Anhydrous ethanol"},
        "heading.fossil": {"pt": "{fuel} fóssil", "en": "Fossil {fuel}"},
        "days": {"pt": "{days}/{total} dias", "en": "{days}/{total} days"},
        "fallback": {
            "pt": "fator de {fallback} usado para {fuel}: a fonte não traz um",
            "en": "{fallback} factor used for {fuel}: the source gives none",
        },
        "note.calcination": {
            "pt": "Calcinação completa (fração calcinada = 1, IPCC Tier 1).",
            "en": "Full calcination (calcined fraction = 1, IPCC Tier 1).",
        },
        "note.share_changed": {
            "pt": "O teor mudou dentro de {period}: usei a média ponderada pelos dias de "
            "vigência de cada teor ({share}%), supondo consumo uniforme no período. Informe "
            "meses para o teor exato.",
            "en": "The share changed within {period}: I used the average weighted by the days "
            "each share was in force ({share}%), assuming even consumption. Give months for "
            "the exact share.",
        },
        "note.blend_volume": {
            "pt": "{quantity} {unit} da mistura = {volume} L, pelas densidades{ncvs} das partes.",
            "en": "{quantity} {unit} of blend = {volume} L, by the parts' densities{ncvs}.",
        },
        "and_ncvs": {"pt": " e PCIs", "en": " and NCVs"},
        "note.ncv_basis": {
            "pt": "O PCI de {fuel} por {other} ({source}) pediria uma densidade de outra fonte; "
            "para não misturar bases, usei o PCI por {basis} ({used}).",
            "en": "The {fuel} NCV per {other} ({source}) would need a density from another "
            "source; so as not to mix bases, I used the NCV per {basis} ({used}).",
        },
        "basis.volume": {"pt": "volume", "en": "volume"},
        "basis.mass": {"pt": "massa", "en": "mass"},
        "note.montreal": {
            "pt": "Gases do Protocolo de Montreal (CFC, HCFC) ficam fora dos escopos e do "
            "total em CO2e: são informados à parte.",
            "en": "Montreal Protocol gases (CFCs, HCFCs) stay out of the scopes and the CO2e "
            "total: they are reported apart.",
        },
        "note.methane_general": {
            "pt": "O AR6 dá ao metano fóssil GWP {fossil} e ao não fóssil (biogênico) "
            "{non_fossil} ({source}); sem a origem, usei o valor geral da tabela 7.SM.7. Diga "
            "se o metano é fóssil ou biogênico para o valor exato.",
            "en": "AR6 gives fossil methane a GWP of {fossil} and non-fossil (biogenic) methane "
            "{non_fossil} ({source}); with no origin given I used the general value of Table "
            "7.SM.7. Say whether the methane is fossil or biogenic for the exact value.",
        },
        "note.methane_origin": {
            "pt": "O AR6 distingue o metano fóssil, que soma o CO2 em que se oxida, do não "
            "fóssil: usei o valor da origem informada.",
            "en": "AR6 tells fossil methane, which adds the CO2 it oxidises to, from "
            "non-fossil methane: I used the value of the origin given.",
        },
        # Fuel keys as headings and notes name them.
        "fuel.diesel": {"pt": "diesel", "en": "diesel"},
        "fuel.biodiesel": {"pt": "biodiesel", "en": "biodiesel"},
        "fuel.gasoline": {"pt": "gasolina", "en": "gasoline"},
        "fuel.ethanol": {"pt": "etanol", "en": "ethanol"},
        "fuel.natural_gas": {"pt": "gás natural", "en": "natural gas"},
        "fuel.lpg": {"pt": "GLP", "en": "LPG"},
    },
)


def _pair(text: Both) -> tuple[str, str]:
    """A text as the (pt, en) pair an estimate's parts and factors carry."""
    return text.pt, text.en


def _note(text: Both, *, top: bool = False) -> Note:
    return Note(text.pt, text.en, top=top)


def _num(value: float) -> Both:
    return Both(*(num(value, lang) for lang in LANGS))


# --- the public entry point ---------------------------------------------------------------


def estimate(
    activity: str,
    quantity: float,
    unit: str,
    *,
    date_or_year: date | int | str,
    region: str = "BR",
    gwp_set: str = "AR5",
    factors: FactorLibrary | None = None,
    bio_share: float | None = None,
) -> Estimate:
    """The emissions of ``quantity`` ``unit`` of ``activity`` (an id, name or synonym) in
    the period ``date_or_year``, with the factors of ``factors`` (default library).

    ``bio_share`` (a fraction) is a blend the user named ("B14": 0.14): it replaces the
    mandatory share of the period for a blend, and means nothing for an unblended fuel."""
    info = resolve_activity(activity)
    period = parse_period(date_or_year)
    library = factors if factors is not None else default_library()
    if bio_share is not None and info.method == "blend_combustion" and info.blend:
        library = library.overlay(FactorLibrary([stated_blend(info.blend, bio_share)]))
    return _Computation(
        info,
        quantity=float(quantity),
        unit=unit,
        period=period,
        region=region.upper(),
        gwp_set=gwp_set,
        library=library,
    ).run()


def stated_blend(key: str, bio_share: float) -> Factor:
    """The bio share a user stated for a blend, as a factor of theirs: it wins over the
    library's mandatory share for any period, and the computation cites it as theirs."""
    if not 0 <= bio_share <= 1:
        raise ValueError(f"a blend's bio share is a fraction from 0 to 1, not {bio_share}")
    percent = round(bio_share * 100, 4)
    return Factor(
        key=key,
        gas=PROPERTY,
        value=percent,
        unit="percent",
        document="Teor informado pelo usuário / share stated by the user",
        user=True,
    )


def resolve_activity(text: str) -> ActivityInfo:
    """The activity ``text`` names, or UnknownActivityError with the 3 nearest. A bare gas
    ('N2O', 'metano') is its direct emission: a model asking the tool names it that way."""
    info = find_activity(text) or find_gas(text)
    if info is None:
        suggestions = [(a.id, a.name["pt"], a.name["en"]) for a in nearest(str(text), 3)]
        raise UnknownActivityError(str(text), suggestions)
    return info


def leaked_by_mass_balance(recharged: float, recovered: float = 0.0) -> float:
    """Refrigerant leaked (same unit as given): what was put back in minus what was taken
    out for recovery. Negative is a data error, not an emission."""
    leaked = recharged - recovered
    if leaked < 0:
        raise ValueError(
            f"recovered ({recovered}) exceeds recharged ({recharged}): check the records"
        )
    return leaked


def leaked_from_charge(
    charge_kg: float,
    equipment: str,
    bound: str = "high",
    *,
    date_or_year: date | int | str | None = None,
    region: str = "BR",
    factors: FactorLibrary | None = None,
) -> float:
    """kg leaked in a year by equipment holding ``charge_kg``: the charge × the IPCC
    default annual leak rate for ``equipment`` (``bound``: the range's "high" or "low")."""
    if bound not in ("high", "low"):
        raise ValueError("bound must be 'high' or 'low'")
    library = factors if factors is not None else default_library()
    key = f"leak:{equipment}.{bound}"
    period = parse_period(date_or_year) if date_or_year is not None else None
    found = [
        f for f in library.candidates(key, PROPERTY, region) if period is None or f.covers(period)
    ]
    if not found:
        known = sorted(
            {k[5:].rsplit(".", 1)[0] for k in library.factor_keys() if k.startswith("leak:")}
        )
        raise UnknownActivityError(equipment, [(k, k, k) for k in known[:8]])
    rate = found[0]
    # Table 7.9 gives % of the charge per year; a bare fraction is read as per year too.
    target = "fraction" if dimension(rate.unit) == "fraction" else "1/year"
    return charge_kg * rate.value * conversion_factor(rate.unit, target)


# --- the computation ----------------------------------------------------------------------


@dataclass
class _Part:
    """A fuel burnt: the whole fuel, or the fossil or the bio part of a blend."""

    name: str
    fuel: str
    properties: tuple[str, ...]
    share: float  # by volume, 1 for an unblended fuel
    fallback_fuel: str | None
    heading: tuple[str, str]


class _Computation:
    def __init__(
        self,
        info: ActivityInfo,
        *,
        quantity: float,
        unit: str,
        period: Period,
        region: str,
        gwp_set: str,
        library: FactorLibrary,
    ) -> None:
        self.info = info
        self.quantity = quantity
        self.unit = unit
        # The chain works on pint's own spelling: 'mil litros' -> 1000 × 'L'.
        scale, self.chain_unit = normalize(unit)
        self.chain_quantity = quantity * scale
        self.period = period
        self.region = region
        self.gwp_set = check_gwp_set(gwp_set)
        self.library = library
        self.factors: list[FactorUse] = []
        self._factor_index: dict[tuple[str, str, str], int] = {}
        self.steps: list[Step] = []
        self.parts: dict[str, tuple[str, str]] = {}
        self.notes: list[Note] = []
        self.gases_t: dict[str, float] = {}
        self.biogenic_t = 0.0
        self.montreal_t: dict[str, float] = {}
        self.gwps: dict[str, float] = {}
        self._direct: dict[str, Factor] = {}  # gas -> a factor under the activity's own id

    # -- factor bookkeeping

    def _use(
        self,
        factor: Factor,
        role: str,
        *,
        role_text: Both | None = None,
        remark: tuple[str, str] = ("", ""),
    ) -> int:
        pt, en = _pair(role_text or _TEXTS.both(f"role.{role}"))
        marker = (factor.key, factor.gas, factor.validity + str(factor.user) + remark[0])
        if marker in self._factor_index:
            return self._factor_index[marker]
        self.factors.append(
            FactorUse(
                key=factor.key,
                gas=factor.gas,
                value=factor.value,
                unit=factor.unit,
                role=pt,
                role_en=en,
                source=factor.source,
                url=factor.url,
                period=factor.validity,
                user=factor.user,
                note=factor.note,
                remark=remark,
                source_pt=factor.source_in("pt"),
            )
        )
        self._factor_index[marker] = len(self.factors) - 1
        return len(self.factors) - 1

    def _use_raw(self, use: FactorUse) -> int:
        """A value that is no library factor (a GWP, a blend's composition)."""
        marker = (use.key, use.gas, use.role)
        if marker not in self._factor_index:
            self.factors.append(use)
            self._factor_index[marker] = len(self.factors) - 1
        return self._factor_index[marker]

    def _factor(self, key: str, gas: str) -> Factor | None:
        return self.library.lookup(key, gas, self.period, self.region)

    def _require(self, keys: tuple[str, ...] | str, gas: str) -> Factor:
        keys = (keys,) if isinstance(keys, str) else keys
        for key in keys:
            found = self._factor(key, gas)
            if found is not None:
                return found
        key = keys[0]
        pieces = self.library.pieces(key, gas, self.period, self.region)
        raise PeriodError(
            self.period.label,
            key=key,
            gas=gas,
            available=self.library.available(key, gas, self.region) or None,
            activity=self.info.id,
            by_month=pieces is not None,
        )

    def _step(
        self,
        part: str,
        start: float,
        start_unit: str,
        index: int,
        target: str,
        *,
        divide: bool = False,
    ) -> float:
        factor = self.factors[index]
        if factor.unit == "fraction":  # a share: no unit to combine
            result = start * factor.value * conversion_factor(start_unit, target)
            self.steps.append(Step(part, start, start_unit, index, result, target))
            return result
        if divide:
            scale = conversion_factor(f"({start_unit})/({factor.unit})", target)
            result = start / factor.value * scale if factor.value else math.inf
        else:
            scale = conversion_factor(f"({start_unit})*({factor.unit})", target)
            result = start * factor.value * scale
        self.steps.append(Step(part, start, start_unit, index, result, target, divide))
        return result

    # -- the run

    def run(self) -> Estimate:
        info = self.info
        self._check_unit()
        # A carbonate's id is its factor key: nothing there is "direct".
        self._direct = {
            gas: found
            for gas in (*COMBUSTION_GASES, BIOGENIC)
            if info.key != info.id and (found := self._factor(info.id, gas)) is not None
        }
        if info.method in ("fuel_combustion", "blend_combustion"):
            self._combustion()
        elif info.method == "electricity":
            self._simple(info.key or info.id, ("CO2", "CH4", "N2O"), "grid")
        elif info.method == "carbonate":
            self._simple(info.key or info.id, ("CO2",), "carbonate")
            self.notes.append(_note(_TEXTS.both("note.calcination")))
        else:  # refrigerant, direct_gas: a mass of gas × its GWP
            self._refrigerant()
        return self._estimate()

    def _check_unit(self) -> None:
        kind = dimension(self.unit)
        if kind not in self.info.units:
            raise UnitError(self.unit, expected="/".join(self.info.units), activity=self.info.id)

    def _simple(self, key: str, gases: tuple[str, ...], role: str) -> None:
        """A quantity times one factor per gas (grid electricity, carbonates)."""
        part = "main"
        self.parts[part] = (self.info.name["pt"], self.info.name["en"])
        for gas in gases:
            direct = self._direct.get(gas)
            factor = direct or self._factor(key, gas)
            if factor is None:
                if gas == "CO2":
                    self._require(key, gas)  # raises the PeriodError
                continue
            index = self._use(factor, "direct" if direct else (role if gas == "CO2" else gas))
            # In t: a grid or carbonate factor is per MWh or per t, and reads best in t.
            tonnes = self._step(part, self.chain_quantity, self.chain_unit, index, "t")
            self.gases_t[gas] = self.gases_t.get(gas, 0.0) + tonnes

    # -- combustion

    def _combustion(self) -> None:
        info = self.info
        assert info.fuel is not None and info.use is not None
        fossil = _Part(
            "fossil",
            info.fuel,
            info.properties,
            1.0,
            info.fallback_fuel,
            (info.name["pt"], info.name["en"]),
        )
        parts = [fossil]
        if info.method == "blend_combustion":
            assert info.blend and info.bio_fuel
            share = self._blend_share(info.blend)
            fossil.share = 1.0 - share
            fuel = _fuel_name(info.fuel)
            fossil.heading = _pair(
                _TEXTS.both("heading.fossil", fuel=Both(fuel.pt.capitalize(), fuel.en))
            )
            bio = _Part(
                "bio",
                info.bio_fuel,
                info.bio_properties,
                share,
                info.fuel,
                _pair(
                    _TEXTS.both(f"heading.{info.blend}")
                    if f"heading.{info.blend}" in _TEXTS
                    else _fuel_name(info.bio_fuel).map(str.capitalize)
                ),
            )
            parts.append(bio)
        if self._direct:
            self._direct_gases()
        parts = [part for part in parts if self._needs_chain(part)]
        if not parts:
            return  # every gas came from a direct factor
        amounts = self._split(parts)
        for part, (amount, amount_unit) in zip(parts, amounts, strict=True):
            if part.share == 0:
                continue
            self.parts[part.name] = part.heading
            energy = self._energy(part, amount, amount_unit)
            self._part_gases(part, energy)

    def _needs_chain(self, part: _Part) -> bool:
        """Whether a gas of this part still needs the chain (no direct factor for it)."""
        if any(gas not in self._direct for gas in ("CH4", "N2O")):
            return True
        key = f"{part.fuel}@{self.info.use}"
        return ("CO2" not in self._direct and self.library.has(key, "CO2")) or (
            BIOGENIC not in self._direct and self.library.has(key, BIOGENIC)
        )

    def _direct_gases(self) -> None:
        self.parts["direct"] = (self.info.name["pt"], self.info.name["en"])
        for gas, factor in self._direct.items():
            index = self._use(
                factor,
                "direct",
                role_text=_TEXTS.both("role.direct_gas", gas=gas_label(gas) or gas),
            )
            try:
                kg = self._step("direct", self.chain_quantity, self.chain_unit, index, "kg")
            except UnitError:
                raise UnitError(
                    self.unit, expected=_denominator(factor.unit), activity=self.info.id
                ) from None
            self._add(gas, kg)

    def _add(self, gas: str, kg: float) -> None:
        if gas == BIOGENIC:
            self.biogenic_t += kg / 1000
        else:
            self.gases_t[gas] = self.gases_t.get(gas, 0.0) + kg / 1000

    def _blend_share(self, key: str) -> float:
        """The bio share by volume valid in the period; over a period where it changed (a
        year), the day-weighted share: consumption is taken as even across the period."""
        role = share_role(key) or _TEXTS.both("role.biofuel_share")
        found = self._factor(key, PROPERTY)
        if found is not None:
            self._use(found, "", role_text=role)
            return found.value * conversion_factor(found.unit, "fraction")
        pieces = self.library.pieces(key, PROPERTY, self.period, self.region)
        if not pieces:
            self._require(key, PROPERTY)
        assert pieces is not None
        total = self.period.days
        share = 0.0
        for factor, days in pieces:
            self._use(
                factor,
                "",
                role_text=role,
                remark=_pair(_TEXTS.both("days", days=days, total=total)),
            )
            share += factor.value * conversion_factor(factor.unit, "fraction") * days / total
        shown = Both(*(number(share * 100, 2, lang) for lang in LANGS))
        self.notes.append(
            _note(_TEXTS.both("note.share_changed", period=self.period.label, share=shown))
        )
        return share

    def _split(self, parts: list[_Part]) -> list[tuple[float, str]]:
        """Each part's amount: the quantity itself for a single fuel; for a blend, its
        volume share of the blend's volume (a mass or an energy first becomes that volume)."""
        kind = dimension(self.unit)
        if len(parts) == 1:
            return [(self.chain_quantity, self.chain_unit)]
        if kind == "volume":
            volume = self.chain_quantity * conversion_factor(self.chain_unit, "L")
        else:
            # Per litre of blend: kg (Σ share × density) or GJ (Σ share × energy per litre).
            target = _DIMENSION_UNITS[kind]
            per_litre = sum(part.share * self._per_litre(part, kind) for part in parts)
            volume = self.chain_quantity * conversion_factor(self.chain_unit, target)
            volume = volume / per_litre if per_litre else 0.0
            said = _TEXTS.both(
                "note.blend_volume",
                quantity=_num(self.quantity),
                unit=pretty(self.unit),
                volume=_num(volume),
                ncvs=_TEXTS.both("and_ncvs") if kind == "energy" else "",
            )
            self.notes.append(_note(said, top=True))
        return [(volume * part.share, "L") for part in parts]

    def _per_litre(self, part: _Part, kind: str) -> float:
        """kg (``kind`` mass) or GJ (energy) in one litre of the part's fuel: a density is
        asked for only when the NCV is per mass, or the quantity a mass."""
        if kind == "energy":
            ncv = self._require(_keys(part.properties, "ncv"), PROPERTY)
            if _ncv_basis(ncv) == "volume":
                return ncv.value * conversion_factor(f"L*({ncv.unit})", "GJ")
        density = self._require(_keys(part.properties, "density"), PROPERTY)
        kg = density.value * conversion_factor(f"L*({density.unit})", "kg")
        if kind == "mass":
            return kg
        return kg * self._ncv_per_kg(ncv)

    @staticmethod
    def _ncv_per_kg(ncv: Factor) -> float:
        """GJ per kg of an NCV per mass (GJ/t, kcal/kg, MJ/kg)."""
        return ncv.value * conversion_factor(f"({ncv.unit})*kg", "GJ")

    def _energy(self, part: _Part, amount: float, unit: str) -> float:
        """TJ burnt by the part: the steps the amount's unit needs, each recorded."""
        kind = dimension(unit)
        if kind == "energy":
            return amount * conversion_factor(unit, "TJ")
        ncv = self._require(_keys(part.properties, "ncv"), PROPERTY)
        if kind != _ncv_basis(ncv):
            ncv = self._ncv_on_one_basis(part, ncv, kind)
        if kind != _ncv_basis(ncv):
            density = self._require(_keys(part.properties, "density"), PROPERTY)
            index = self._use(density, "density")
            if kind == "volume":
                amount = self._step(part.name, amount, unit, index, "kg")
                unit = "kg"
            else:
                amount = self._step(part.name, amount, unit, index, "m**3", divide=True)
                unit = "m**3"
        index = self._use(ncv, "ncv")
        return self._step(part.name, amount, unit, index, "TJ")

    def _ncv_on_one_basis(self, part: _Part, ncv: Factor, kind: str) -> Factor:
        """The NCV to use for a quantity in ``kind`` (volume or mass) when the best NCV is
        on the other basis. A density bridges the two only if it describes the same fuel
        as the NCV: a gas's density depends on reference conditions a generic value does
        not state (0.7 kg/m³ with the BEN's 8,800 kcal/m³ would give 52.6 MJ/kg, above
        methane's own). So unless the user brought either value, a density from another
        document than the NCV gives way to an NCV on the quantity's own basis, if any."""
        density = next(
            (f for key in _keys(part.properties, "density") if (f := self._factor(key, PROPERTY))),
            None,
        )
        if ncv.user or (density is not None and (density.user or _same_source(density, ncv))):
            return ncv
        same_basis = next(
            (
                f
                for key in _keys(part.properties, "ncv")
                for f in self.library.candidates(key, PROPERTY, self.region)
                if f.covers(self.period) and _ncv_basis(f) == kind
            ),
            None,
        )
        if same_basis is None:
            return ncv
        said = _TEXTS.both(
            "note.ncv_basis",
            fuel=_fuel_name(part.fuel),
            other=_TEXTS.both(f"basis.{_ncv_basis(ncv)}"),
            source=Both(ncv.source_in("pt"), ncv.source),
            basis=_TEXTS.both(f"basis.{kind}"),
            used=Both(same_basis.source_in("pt"), same_basis.source),
        )
        self.notes.append(_note(said))
        return same_basis

    def _part_gases(self, part: _Part, energy_tj: float) -> None:
        key = f"{part.fuel}@{self.info.use}"
        co2 = self._factor(key, "CO2")
        biogenic = self._factor(key, BIOGENIC)
        if co2 is None and biogenic is None and "CO2" not in self._direct:
            self._require(key, "CO2")
        for gas, factor in (("CO2", co2), (BIOGENIC, biogenic)):
            if factor is not None and gas not in self._direct:
                index = self._use(factor, gas)
                self._add(gas, self._step(part.name, energy_tj, "TJ", index, "kg"))
        for gas in ("CH4", "N2O"):
            if gas in self._direct:
                continue
            factor = self._factor(key, gas)
            remark = ("", "")
            if factor is None and part.fallback_fuel:
                fallback_key = f"{part.fallback_fuel}@{self.info.use}"
                factor = self._factor(fallback_key, gas)
                remark = _pair(
                    _TEXTS.both(
                        "fallback",
                        fallback=_fuel_name(part.fallback_fuel),
                        fuel=_fuel_name(part.fuel),
                    )
                )
            if factor is None:
                self._require(key, gas)
            assert factor is not None
            index = self._use(factor, gas, remark=remark)
            self._add(gas, self._step(part.name, energy_tj, "TJ", index, "kg"))

    # -- refrigerants

    def _refrigerant(self) -> None:
        gas = self.info.gas
        assert gas is not None
        kg = self.chain_quantity * conversion_factor(self.chain_unit, "kg")
        components = split_blend(gas)
        part = "main"
        self.parts[part] = (self.info.name["pt"], self.info.name["en"])
        for component, share in components:
            component_kg = kg * share
            if len(components) > 1:
                index = self._use_raw(
                    FactorUse(
                        key=f"blend:{gas}",
                        gas=component,
                        value=share,
                        unit="fraction",
                        role=_TEXTS("role.component_share", "pt", component=component),
                        role_en=_TEXTS("role.component_share", "en", component=component),
                        source=_TEXTS("blend_source", "en"),
                        source_pt=_TEXTS("blend_source", "pt"),
                        url="",
                        period="",
                        user=False,
                    )
                )
                component_kg = self._step(part, self.chain_quantity, self.chain_unit, index, "kg")
            if is_montreal(component):
                self.montreal_t[component] = (
                    self.montreal_t.get(component, 0.0) + component_kg / 1000
                )
                continue
            value = gwp(component, self.gwp_set, self._ch4_origin(component))
            if value is None:
                raise PeriodError(self.gwp_set, key=f"GWP {component}", gas=None, available=None)
            index = self._use_raw(
                FactorUse(
                    key=f"gwp:{component}",
                    gas=component,
                    value=value,
                    unit=_GWP_UNIT,
                    role=_TEXTS(
                        "role.component_gwp", "pt", gwp_set=self.gwp_set, component=component
                    ),
                    role_en=_TEXTS(
                        "role.component_gwp", "en", gwp_set=self.gwp_set, component=component
                    ),
                    source=self._gwp_source(component),
                    url="",
                    period="",
                    user=False,
                )
            )
            self.gases_t[component] = self.gases_t.get(component, 0.0) + component_kg / 1000
            self.gwps[component] = value
            self.steps.append(
                Step(part, component_kg, "kg", index, component_kg * value, "kg CO2e")
            )
        if self.info.gas == "CH4" and self.gwp_set == "AR6":
            self._methane_note()
        if self.montreal_t:
            self.notes.append(_note(_TEXTS.both("note.montreal")))

    def _ch4_origin(self, gas: str) -> Ch4Origin:
        return cast("Ch4Origin", self.info.ch4_origin if gas == "CH4" else "general")

    def _gwp_source(self, gas: str) -> str:
        if gas == "CH4" and self.gwp_set == "AR6" and self.info.ch4_origin != "general":
            return _AR6_CH4_ORIGIN_SOURCE
        return _GWP_SOURCES[self.gwp_set]

    def _methane_note(self) -> None:
        """AR6's methane value depends on the origin: say which was used and the others."""
        fossil, non_fossil = gwp("CH4", "AR6", "fossil"), gwp("CH4", "AR6", "non_fossil")
        assert fossil is not None and non_fossil is not None
        if self.info.ch4_origin == "general":
            said = _TEXTS.both(
                "note.methane_general",
                fossil=_num(fossil),
                non_fossil=_num(non_fossil),
                source=_AR6_CH4_ORIGIN_SOURCE,
            )
        else:
            said = _TEXTS.both("note.methane_origin")
        self.notes.append(_note(said))

    # -- the result

    def _estimate(self) -> Estimate:
        gases_t = dict(self.gases_t)
        for gas in gases_t:
            if gas not in self.gwps:
                value = gwp(gas, self.gwp_set, self._ch4_origin(gas))
                if value is None:
                    raise PeriodError(self.gwp_set, key=f"GWP {gas}")
                self.gwps[gas] = value
        tco2e = sum(t * self.gwps[gas] for gas, t in gases_t.items())
        info = self.info
        return Estimate(
            activity=info.id,
            name=dict(info.name),
            quantity=self.quantity,
            unit=self.unit,
            period=self.period.label,
            region=self.region,
            scope=info.scope,
            category=info.category,
            category_en=info.category_en,
            method=info.method,
            scope2_method="location" if info.method == "electricity" else None,
            gases_t=gases_t,
            biogenic_co2_t=self.biogenic_t,
            montreal_t=dict(self.montreal_t),
            tco2e=tco2e,
            gwp_set=self.gwp_set,
            gwps=dict(self.gwps),
            factors=tuple(self.factors),
            steps=tuple(self.steps),
            parts=dict(self.parts),
            notes=tuple(self.notes),
        )


def _ncv_basis(ncv: Factor) -> str:
    """'volume' for an NCV per m³ or L, 'mass' for one per kg or t."""
    return "volume" if dimension(f"({ncv.unit})*m**3") == "energy" else "mass"


def _same_source(first: Factor, second: Factor) -> bool:
    return (first.document, first.region) == (second.document, second.region)


def _keys(properties: tuple[str, ...], what: str) -> tuple[str, ...]:
    return tuple(f"{name}.{what}" for name in properties)


def _denominator(unit: str) -> str:
    return unit.split("/", 1)[1] if "/" in unit else unit


def _fuel_name(fuel: str) -> Both:
    key = f"fuel.{fuel}"
    return _TEXTS.both(key) if key in _TEXTS else Both(*(fuel.replace("_", " ") for _ in LANGS))
