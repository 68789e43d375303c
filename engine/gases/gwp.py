"""Global warming potentials (100-year) from the IPCC assessment reports.

Values come from the ``globalwarmingpotentials`` package; refrigerant blends are computed
from their components' mass fractions (data/blends.csv); data/gas_aliases.csv holds the
other spellings of a species. CO2 is 1 by definition.
"""

from __future__ import annotations

import csv
import re
from functools import cache, lru_cache
from importlib import resources
from typing import Literal

import globalwarmingpotentials

from engine.formatting import number
from engine.gases.errors import UnknownGwpSetError
from engine.protocol import fold
from engine.texts import Texts

_TEXTS = Texts(
    "engine.gases.gwp",
    {
        "ar6": {"pt": "AR6 (CH4 {value}: {origin})", "en": "AR6 (CH4 {value}: {origin})"},
        "origin.general": {"pt": "valor geral do IPCC", "en": "IPCC general value"},
        "origin.fossil": {"pt": "metano fóssil", "en": "fossil methane"},
        "origin.non_fossil": {"pt": "metano não fóssil", "en": "non-fossil methane"},
    },
)

GwpSet = Literal["AR4", "AR5", "AR6"]
GWP_SETS: tuple[GwpSet, ...] = ("AR4", "AR5", "AR6")
# The product's default, a user's profile may set another. IFRS S2 (B21) asks for the latest
# IPCC report (AR6); the Brazilian Program's set is the one its tool version states.
DEFAULT_GWP_SET: GwpSet = "AR5"
BIOGENIC_CO2 = "CO2 biogênico"

# AR6 gives methane two values by origin (WG1, ch. 7, table 7.15): fossil methane also adds
# the CO2 it oxidises to. "general" is the single value of AR6 table 7.SM.7 (27.9).
Ch4Origin = Literal["general", "fossil", "non_fossil"]
CH4_ORIGINS: tuple[Ch4Origin, ...] = ("general", "fossil", "non_fossil")
DEFAULT_CH4_ORIGIN: Ch4Origin = "general"
_AR6_CH4: dict[Ch4Origin, float] = {"general": 27.9, "fossil": 29.8, "non_fossil": 27.0}
# Methane's GWP100 from its non-fossil to its fossil value (fossil methane adds the CO2 it
# oxidises to): IPCC AR5 WG1 Ch. 8 Table 8.7 (28 and 30), AR6 WG1 Ch. 7 Table 7.15 (27.0
# and 29.8). A workbook may use either per source (fugitive methane as fossil); older sets
# give one value.
CH4_GWP_RANGE: dict[str, tuple[float, float]] = {"AR5": (28.0, 30.0), "AR6": (27.0, 29.8)}
# Every set the GWP package knows, to recognise the set a workbook's own CO2e figures used.
SOURCE_GWP_SETS = ("SAR", "TAR", "AR4", "AR5", "AR6")

_SUBSCRIPTS = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")
_BIOGENIC = re.compile(r"biogen")
_NOT_BIOGENIC = re.compile(r"\b(?:non|nao|not|excl\w*|sem|exceto)\W*biogen|\bfossil")
# Ozone-depleting substances of the Montreal Protocol: reported apart, never in the scopes.
_MONTREAL = re.compile(r"^(?:CFC|HCFC|Halon|CCl4|CH3CCl3|CH3Br)", re.IGNORECASE)


def _data_rows(name: str) -> list[dict[str, str]]:
    with (
        resources.files("engine.gases").joinpath("data").joinpath(name).open(encoding="utf-8") as f
    ):
        return list(csv.DictReader(f))


def _compact(text: str) -> str:
    return re.sub(r"[^0-9a-z]", "", fold(text.translate(_SUBSCRIPTS)))


@cache
def _species_table() -> dict[str, dict[str, float]]:
    frame = globalwarmingpotentials.as_frame()
    table: dict[str, dict[str, float]] = {"CO2": dict.fromkeys(SOURCE_GWP_SETS, 1.0)}
    for species, row in frame.iterrows():
        values = {
            s: float(row[f"{s}GWP100"])
            for s in SOURCE_GWP_SETS
            if row[f"{s}GWP100"] == row[f"{s}GWP100"]
        }
        table[str(species)] = values
    return table


@cache
def _blends() -> dict[str, list[tuple[str, float]]]:
    blends: dict[str, list[tuple[str, float]]] = {}
    for row in _data_rows("blends.csv"):
        blends.setdefault(row["blend"], []).append((row["component"], float(row["mass_fraction"])))
    return blends


@cache
def _lookup() -> dict[str, str]:
    """Compact spelling -> canonical gas name (a species of the table, or a blend)."""
    lookup = {_compact(species): species for species in _species_table()}
    for row in _data_rows("gas_aliases.csv"):
        lookup[_compact(row["alias"])] = row["species"]
    for blend in _blends():
        lookup[_compact(blend)] = blend
    return lookup


@lru_cache(maxsize=8192)  # labels repeat across columns, rows and sheets
def is_biogenic(text: str) -> bool:
    """A label that says biogenic ('CO2 biogênico'), not one that excludes it ('non-biogenic')."""
    folded = fold(text)
    return bool(_BIOGENIC.search(folded)) and not _NOT_BIOGENIC.search(folded)


def canonical_gas(name: object) -> str | None:
    """'CO₂', 'Dióxido de carbono', 'HFC-134a', 'R-410A' -> 'CO2', 'CO2', 'HFC134a', 'R-410A'.

    Only biogenic CO2 is apart: 'CO2 biogênico' -> 'CO2 biogênico', but 'CH4 biogênico' is
    methane, counted in its scope at its full GWP.
    """
    if not isinstance(name, str) or not name.strip():
        return None
    return _canonical_gas(name)


@lru_cache(maxsize=8192)  # called per cell label and per header: the same few names
def _canonical_gas(name: str) -> str | None:
    if is_biogenic(name):
        stripped = re.sub(r"(?i)\S*biog\S*", " ", fold(name))
        gas = _lookup().get(_compact(stripped)) if stripped.strip() else None
        return gas if gas not in (None, "CO2") else BIOGENIC_CO2
    found = _lookup().get(_compact(name))
    if found is None:  # 'CO2 fóssil', 'Fossil CO2', 'CO2 (non-biogenic)': the same species
        bare = _FOSSIL_WORDS.sub(" ", fold(name))
        found = _lookup().get(_compact(bare)) if bare.strip() else None
    if found is None:  # 'HCFC-22 (R-22)', 'R-134a (HFC-134a)': a name and its synonym
        named = _SYNONYM.fullmatch(name.strip())
        if named:
            first, second = (_lookup().get(_compact(part)) for part in named.groups())
            found = first if first is not None and second in (None, first) else None
    return found


_SYNONYM = re.compile(r"([^()]+?)\s*\(([^()]+)\)")


_FOSSIL_WORDS = re.compile(
    r"\b(?:de origem )?(?:fossil|fosseis|nao[- ]biogenicos?|non[- ]?biogenic|from fossil fuels?)\b"
)


def gwp(gas: str, gwp_set: str, ch4_origin: Ch4Origin = DEFAULT_CH4_ORIGIN) -> float | None:
    """The 100-year GWP of a canonical gas name in a set, or None when the set has none."""
    if gas in _blends():
        parts = [(gwp(part, gwp_set, ch4_origin), share) for part, share in _blends()[gas]]
        if any(value is None for value, _ in parts):
            return None
        return sum(value * share for value, share in parts if value is not None)
    if gas == "CH4" and gwp_set == "AR6":
        return _AR6_CH4[ch4_origin]
    return _species_table().get(gas, {}).get(gwp_set)


def is_montreal(gas: object) -> bool:
    """A CFC, HCFC or other ozone-depleting substance: a memo item, outside the scopes."""
    return isinstance(gas, str) and bool(_MONTREAL.match(gas))


def montreal_share(gas: str) -> float:
    """The mass fraction of a gas (or blend) that is a Montreal Protocol substance."""
    if gas in _blends():
        return sum(share for part, share in _blends()[gas] if is_montreal(part))
    return 1.0 if is_montreal(gas) else 0.0


def split_blend(gas: str) -> list[tuple[str, float]]:
    """A blend's components and mass fractions; a pure gas is its own single part."""
    return list(_blends().get(gas, [(gas, 1.0)]))


def check_ch4_origin(origin: str) -> Ch4Origin:
    normalized = origin.strip().lower().replace("-", "_")
    if normalized not in CH4_ORIGINS:
        raise ValueError(f"ch4_origin must be one of {', '.join(CH4_ORIGINS)}")
    return normalized  # type: ignore[return-value]


def gwp_label(gwp_set: str, ch4_origin: Ch4Origin, lang: str = "pt") -> str:
    """'AR5', or for AR6 the methane value used: 'AR6 (CH4 27,9: valor geral do IPCC)'."""
    if gwp_set != "AR6":
        return gwp_set
    side = "pt" if lang.lower().startswith("pt") else "en"
    value = number(_AR6_CH4[ch4_origin], 1, side)
    return _TEXTS("ar6", side, value=value, origin=_TEXTS(f"origin.{ch4_origin}", side))


def check_gwp_set(gwp_set: str) -> GwpSet:
    normalized = gwp_set.upper().strip().replace(" ", "")
    if normalized not in GWP_SETS:
        raise UnknownGwpSetError(gwp_set)
    return normalized  # type: ignore[return-value]


def gas_tokens() -> list[str]:
    """Every compact gas spelling, longest first: to spot a gas named in a column header."""
    return sorted(_lookup(), key=len, reverse=True)
