"""Physical bands of the factor a row's stated emissions imply for its activity.

Row checks are blind to scale (multiply every column by 1,000 and a total still equals its
breakdown); the factor implied by a row that carries both a quantity and its emissions is
not. 1,000 L of diesel cannot emit 2,676 t of CO2. For each fuel, the grid and refrigerants
a band holds every value the emission factor can take: a reading outside it is wrong,
whatever the row checks say, and the power of 1,000 that brings it inside says how.

    implied_scale("diesel_road", "L", litres, stated_t)  # 1e-3: the 't' column holds kg
    judge("diesel_road", "L", litres, stated_t).message("pt")

How each band is derived (kg of CO2 per unit unless said; the stated figure may be fossil
CO2 alone or CO2e with CH4 and N2O, and either falls inside):

- The fuel's CO2 factor and net calorific value (NCV) at the ends of their IPCC 2006 95 %
  ranges (Vol. 2 Ch. 1 Table 1.2, NCV; Table 1.4, CO2 per TJ), times the density range, times
  the fossil share of the blend sold in Brazil. The upper end adds the largest CH4 and N2O
  the IPCC gives for that fuel (off-road diesel: N2O 28.6 kg/TJ, Vol. 2 Ch. 3 Table 3.3.1).
  Per GJ the lower end also allows a gross (GCV) basis, 5-10 % below the net one.
- Diesel, for any blend B0-B20: CO2 72.6-74.8 t/TJ, NCV 41.4-43.3 GJ/t, density 815-865
  kg/m³ (the ANP diesel specification's span, S10 and S500; BEN 840): per litre of fossil
  diesel 2.45-2.80; with 20 % biodiesel the fossil part is 0.8 × 2.45 = 1.96, and off-road
  N2O adds up to 0.29 CO2e: **1.9-3.2 kg/L**; per kg 0.79 × 3.01 = 2.38 to 3.24 + 0.33:
  **2.3-3.7 kg/kg**; per GJ **55-85**.
- Gasoline C, any blend E0-E30: CO2 67.5-73.0 t/TJ, NCV 42.5-44.8 GJ/t, density of gasoline
  A 720-770 kg/m³ (BEN 742 ± 4 %): per litre of gasoline A 2.07-2.52; E30 keeps 70 % of it,
  1.45, and ethanol's biogenic CO2 (1.5 kg/L) if the workbook adds it stays inside:
  **1.4-2.6 kg/L**, **1.9-3.4 kg/kg**, **45-80 kg/GJ**.
- LPG: CO2 61.6-65.6 t/TJ, NCV 44.8-52.2 GJ/t: **2.7-3.5 kg/kg**; liquid density 500-580
  kg/m³ (propane to butane; BEN 552): **1.3-2.0 kg/L**; **56-68 kg/GJ**.
- Natural gas: CO2 54.3-58.3 t/TJ over an NCV of 33-39 MJ/m³ (the IPCC default 48 GJ/t ×
  0.7 kg/m³ = 33.6; Brazil's dry gas, BEN 8,800 kcal/m³ = 36.8): **1.8-2.3 kg/m³**; NCV
  46.5-50.4 GJ/t: **2.5-3.0 kg/kg**; **48-60 kg/GJ**.
- Grid electricity: **0-1.2 t CO2/MWh**, from a grid with no fossil plant to one of lignite
  and coal only (the issue #21 band; Brazil's SIN monthly factors are 0.02-0.12).
- Refrigerants: what leaks cannot exceed what was put in, so **0 to GWP_max × kg / 1,000 t
  CO2e**, GWP_max the largest 100-year GWP of the gas (a blend by composition,
  ``engine.gases.gwp``) in any assessment report the workbook may have used (SAR-AR6).
- Carbonates: **0-0.53 t CO2/t**, the largest stoichiometric factor of IPCC 2006 Vol. 3
  Ch. 2 Table 2.1 (magnesite, 0.52197).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import numpy as np
import pandas as pd

from engine.emissions import ActivityInfo, find_activity
from engine.emissions.units import conversion_factor, dimension
from engine.formatting import number
from engine.gases.gwp import SOURCE_GWP_SETS, gwp
from engine.texts import Both, Texts, lang_of

_TEXTS = Texts(
    "engine.inventory.plausibility",
    {
        "diesel.volume": {"pt": "litro de óleo diesel", "en": "litre of diesel"},
        "diesel.mass": {"pt": "kg de óleo diesel", "en": "kg of diesel"},
        "diesel.energy": {"pt": "GJ de óleo diesel", "en": "GJ of diesel"},
        "gasoline.volume": {"pt": "litro de gasolina", "en": "litre of gasoline"},
        "gasoline.mass": {"pt": "kg de gasolina", "en": "kg of gasoline"},
        "gasoline.energy": {"pt": "GJ de gasolina", "en": "GJ of gasoline"},
        "lpg.mass": {"pt": "kg de GLP", "en": "kg of LPG"},
        "lpg.volume": {"pt": "litro de GLP", "en": "litre of LPG"},
        "lpg.energy": {"pt": "GJ de GLP", "en": "GJ of LPG"},
        "natural_gas.volume": {"pt": "m³ de gás natural", "en": "m³ of natural gas"},
        "natural_gas.mass": {"pt": "kg de gás natural", "en": "kg of natural gas"},
        "natural_gas.energy": {"pt": "GJ de gás natural", "en": "GJ of natural gas"},
        "grid": {"pt": "MWh da rede", "en": "MWh from the grid"},
        "kg_of": {"pt": "kg de {gas}", "en": "kg of {gas}"},
        "t_of": {"pt": "t de {name}", "en": "t of {name}"},
        "implies": {
            "pt": "a leitura implica {shown} por {what}; a faixa física é {band}",
            "en": "the reading implies {shown} per {what}; the physical band is {band}",
        },
        "fits": {
            "pt": " (× {times} cabe na faixa: as emissões parecem estar noutra unidade)",
            "en": " (× {times} fits the band: the emissions look to be in another unit)",
        },
        "kind.country": {"pt": "qualquer país", "en": "any country"},
        "kind.city": {"pt": "qualquer cidade", "en": "any city"},
        "kind.company": {"pt": "qualquer empresa", "en": "any company"},
        "kind.any": {"pt": "o mundo inteiro", "en": "the whole world"},
        "magnitude": {
            "pt": "A aba '{sheet}' soma {total} t CO2e no ano: mais do que {kind} emite (até "
            "{ceiling} t). A unidade lida parece {factor}× grande demais; confira a unidade "
            "das colunas de emissão.",
            "en": "Sheet '{sheet}' adds up to {total} t CO2e in the year: more than {kind} "
            "emits (up to {ceiling} t). The unit read looks {factor}× too large; check the "
            "unit of the emission columns.",
        },
    },
)

POWERS = (1e-6, 1e-3, 1.0, 1e3, 1e6)  # what a mislabelled mass unit is off by (g ... Mt)


@dataclass(frozen=True)
class Band:
    """Where a factor may fall: ``low``-``high`` ``mass`` of ``gas`` per ``unit`` of the
    activity."""

    unit: str  # the activity's unit the band is per ('L', 'm³', 'kg', 'GJ', 'MWh', 't')
    mass: str  # 'kg' or 't': of CO2 (or CO2e) per unit
    gas: str  # 'CO2' or 'CO2e'
    low: float
    high: float
    what: Both  # 'litro de óleo diesel' / 'litre of diesel'
    decimals: int = 1  # of the bounds, as shown

    def contains(self, factor: np.ndarray) -> np.ndarray:
        # A rounding margin: a factor printed to its shown decimals still belongs.
        margin = 0.5 * 10.0**-self.decimals
        return (factor >= self.low - margin) & (factor <= self.high + margin)

    def range_text(self, lang: str) -> str:
        low = number(self.low, 0 if self.low == 0 else self.decimals, lang)
        return f"{low}–{number(self.high, self.decimals, lang)} {self.mass}/{self.unit}"


# (product, dimension) -> (unit, mass, low, high); the per-unit text is _TEXTS's
# "product.dimension". Derived above.
_FUEL_BANDS: dict[tuple[str, str], tuple[str, str, float, float]] = {
    ("diesel", "volume"): ("L", "kg", 1.9, 3.2),
    ("diesel", "mass"): ("kg", "kg", 2.3, 3.7),
    ("diesel", "energy"): ("GJ", "kg", 55.0, 85.0),
    ("gasoline", "volume"): ("L", "kg", 1.4, 2.6),
    ("gasoline", "mass"): ("kg", "kg", 1.9, 3.4),
    ("gasoline", "energy"): ("GJ", "kg", 45.0, 80.0),
    ("lpg", "mass"): ("kg", "kg", 2.7, 3.5),
    ("lpg", "volume"): ("L", "kg", 1.3, 2.0),
    ("lpg", "energy"): ("GJ", "kg", 56.0, 68.0),
    ("natural_gas", "volume"): ("m³", "kg", 1.8, 2.3),
    ("natural_gas", "mass"): ("kg", "kg", 2.5, 3.0),
    ("natural_gas", "energy"): ("GJ", "kg", 48.0, 60.0),
}
_PINT_UNITS = {"m³": "m**3"}
_CARBONATE_MAX = 0.53  # t CO2/t: magnesite 0.52197, IPCC 2006 Vol. 3 Ch. 2 Table 2.1
_GRID_MAX = 1.2  # t CO2/MWh


@cache
def _info(activity_id: str) -> ActivityInfo | None:
    return find_activity(activity_id)


@cache
def _max_gwp(gas: str) -> float | None:
    values = [v for s in SOURCE_GWP_SETS if (v := gwp(gas, s)) is not None]
    return max(values) if values else None


@cache
def band_for(activity_id: str, unit: str) -> Band | None:
    """The band of an activity (id, name or synonym) measured in ``unit``; None when no
    band applies (biofuels, wood, an unknown activity, a unit of another dimension)."""
    info = _info(activity_id)
    if info is None:
        return None
    try:
        kind = dimension(unit)
    except Exception:  # pint raises several types; any means "no unit we can read"
        return None
    if info.method == "electricity":
        if kind != "energy":
            return None
        return Band("MWh", "t", "CO2", 0.0, _GRID_MAX, _TEXTS.both("grid"))
    if info.method == "refrigerant":
        top = _max_gwp(info.gas or "")
        if kind != "mass" or top is None:
            return None
        gas = info.gas or ""
        return Band("kg", "t", "CO2e", 0.0, top / 1000, _TEXTS.both("kg_of", gas=gas), 3)
    if info.method == "carbonate":
        if kind != "mass":
            return None
        name = info.name
        what = _TEXTS.both("t_of", name=Both(name["pt"], name["en"]))  # the activity's name
        return Band("t", "t", "CO2", 0.0, _CARBONATE_MAX, what, 2)
    found = _FUEL_BANDS.get((info.fuel or "", kind))
    if found is None:
        return None
    reference, mass, low, high = found
    return Band(reference, mass, "CO2", low, high, _TEXTS.both(f"{info.fuel}.{kind}"))


def implied_factors(
    activity_id: str, unit: str, quantity: pd.Series, stated_co2_t: pd.Series
) -> tuple[Band, pd.Series] | None:
    """The band and, per row, the factor the stated t imply in the band's units; rows with
    no quantity, or stating nothing (0 or blank), are left out: they carry no scale."""
    band = band_for(activity_id, unit)
    if band is None:
        return None
    per_unit = conversion_factor(unit, _PINT_UNITS.get(band.unit, band.unit))
    q = pd.to_numeric(quantity, errors="coerce").to_numpy(dtype=float) * per_unit
    t = pd.to_numeric(stated_co2_t, errors="coerce").to_numpy(dtype=float)
    mass = 1000.0 if band.mass == "kg" else 1.0
    with np.errstate(divide="ignore", invalid="ignore"):
        factor = t * mass / q
    usable = np.isfinite(factor) & (q > 0) & (t != 0)
    return band, pd.Series(factor, index=quantity.index)[usable]


def implied_scale(
    activity_id: str, unit: str, quantity: pd.Series, stated_co2_t: pd.Series
) -> float | None:
    """The power of 1,000 (1e-6 … 1e6) the stated t must be multiplied by for the implied
    factor to fall in the activity's band on most rows; among powers that fit as many rows,
    the one nearest 1 (a band from 0 admits every smaller one). None when no band applies,
    no row can be judged or no power fits more than half of them."""
    found = implied_factors(activity_id, unit, quantity, stated_co2_t)
    if found is None or found[1].empty:
        return None
    band, factors = found
    values = factors.to_numpy(dtype=float)
    counts = {p: int(band.contains(values * p).sum()) for p in POWERS}
    best = max(counts.values())
    if best * 2 <= len(values):
        return None
    return min((p for p, n in counts.items() if n == best), key=lambda p: abs(math.log10(p)))


@dataclass(frozen=True)
class Judgement:
    """Whether a reading is plausible: the band, the median implied factor, the rows judged
    and how many fall inside, and the power of 1,000 that would bring them in."""

    band: Band
    implied: float
    rows: int
    inside: int
    scale: float | None
    gas: str = ""  # what the stated figure is of, when not the band's own ('CO2e')

    @property
    def plausible(self) -> bool:
        return self.inside * 2 > self.rows

    def message(self, lang: str = "pt") -> str:
        """'a leitura implica 2.676 kg CO2 por litro de óleo diesel; a faixa física é
        1,9–3,2 kg/L', and the power of 1,000 that fits when one does."""
        band, code = self.band, lang_of(lang)
        shown = f"{significant(self.implied, code)} {band.mass} {self.gas or band.gas}"
        text = _TEXTS("implies", code, shown=shown, what=band.what, band=band.range_text(code))
        if self.scale not in (None, 1.0):
            text += _TEXTS("fits", code, times=_power_text(self.scale or 1.0, code))
        return text


def judge(
    activity_id: str,
    unit: str,
    quantity: pd.Series,
    stated_co2_t: pd.Series,
    *,
    gas: str = "",
) -> Judgement | None:
    """The judgement of a reading of stated t against the activity's band; None when no
    band applies or no row can be judged. ``gas`` names what the stated t are of when not
    the band's own ('CO2e' for a row's whole figure: CH4 and N2O fit a fuel's band)."""
    found = implied_factors(activity_id, unit, quantity, stated_co2_t)
    if found is None or found[1].empty:
        return None
    band, factors = found
    values = factors.to_numpy(dtype=float)
    return Judgement(
        band=band,
        implied=float(np.median(values)),
        rows=len(values),
        inside=int(band.contains(values).sum()),
        scale=implied_scale(activity_id, unit, quantity, stated_co2_t),
        gas=gas,
    )


def is_plausible(
    activity_id: str, unit: str, quantity: pd.Series, stated_co2_t: pd.Series
) -> bool | None:
    """Whether most judged rows fall in the band as stated; None when nothing can say."""
    found = judge(activity_id, unit, quantity, stated_co2_t)
    return None if found is None else found.plausible


def significant(value: float, lang: str) -> str:
    """A factor to three significant digits: '2.676', '2,68', '0,0421'."""
    if value == 0 or not math.isfinite(value):
        return number(value, 0, lang)
    magnitude = math.floor(math.log10(abs(value)))
    return number(value, max(0, min(6, 2 - magnitude)), lang)


def _power_text(power: float, lang: str) -> str:
    decimals = max(0, -round(math.log10(power)))
    return number(power, decimals, lang)


def sheet_scale(requests: pd.DataFrame, stated_t: pd.Series) -> float | None:
    """The power of 1,000 the stated emissions of a sheet's rows need for every activity the
    sheet names to fall in its band: ``requests`` one row per quantity (row, activity,
    quantity, unit, as ``engine.inventory.activity`` collects them), ``stated_t`` the stated
    t per sheet row. None when no activity can be judged or two of them disagree."""
    if requests.empty or stated_t.dropna().empty:
        return None
    per_row = requests.groupby(["activity", "unit", "row"], sort=False)["quantity"].sum()
    scales = set()
    for (activity, unit), quantities in per_row.groupby(level=["activity", "unit"]):
        rows = quantities.index.get_level_values("row")
        stated = stated_t.reindex(rows)
        if stated.dropna().empty:
            continue
        scale = implied_scale(
            str(activity), str(unit), pd.Series(quantities.to_numpy(), index=rows), stated
        )
        if scale is not None:
            scales.add(scale)
    return scales.pop() if len(scales) == 1 else None


# --- magnitudes: what a sheet says it is bounds what it can emit in a year ---------------------

# t CO2e in one year, a generous ceiling for each kind of inventory (so a correct one is never
# flagged): the world's emissions are about 5.7e10 t (UNEP Emissions Gap Report 2023); China,
# the largest country, about 1.4e10; the largest cities' community inventories (GPC) about
# 2e8 (Shanghai, Tokyo); a company's Scopes 1-3, the largest oil producers' included, under
# 5e9 and a single facility's under 1e8 (the largest power plants emit about 4e7).
_CEILINGS: dict[str, float] = {"country": 2e10, "city": 5e8, "company": 5e9, "any": 6e10}


def inventory_kind(rows: pd.DataFrame, years: int) -> str:
    """What an inventory's rows are of: a city (GPC reference numbers), a country (IPCC
    codes over a series of years), or a company (anything else: scopes, facilities, sources)."""
    codes = rows["code"].dropna().astype(str) if "code" in rows else pd.Series(dtype=str)
    if len(codes) and codes.str.match(r"^(?:I|II|III|IV|V)\.\d").mean() > 0.5:
        return "city"
    if years >= 5:
        return "country"
    return "company"


def magnitude_message(sheet: str, total: float, kind: str) -> tuple[str, str] | None:
    """A sheet whose headline year emits more than any inventory of its kind can: the unit
    is off, whatever its row checks say."""
    ceiling = _CEILINGS.get(kind, _CEILINGS["any"])
    if not np.isfinite(total) or abs(total) <= ceiling:
        return None
    power = next((p for p in (1e-3, 1e-6, 1e-9) if abs(total) * p <= ceiling), 1e-9)
    said = _TEXTS.both(
        "magnitude",
        sheet=sheet,
        total=_both_number(total),
        kind=_TEXTS.both(f"kind.{kind}" if kind in _CEILINGS else "kind.any"),
        ceiling=_both_number(ceiling),
        factor=_both_number(1 / power),
    )
    return said.pt, said.en


def _both_number(value: float) -> Both:
    return Both(number(value, 0, "pt"), number(value, 0, "en"))
