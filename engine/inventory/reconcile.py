"""Reconcile, don't guess: a sheet's numbers are read the way its own totals agree with.

Real workbooks carry their own check: a total column beside its per-gas breakdown, total and
subtotal rows, coded subtotals, the same figures under two GWP sets. For each sheet the
loader lists the readings its header allows (which columns are gas masses or CO2e, in which
unit, under which GWP set the workbook computed its totals), keeps the one under which those
checks agree, and records the evidence as a ``SheetCheck``:

- ``reconciled``: every check the sheet carries agrees;
- ``unverified``: there is nothing to check against (or a unit is stated nowhere);
- ``conflict``: no reading makes the checks agree. The numbers used are the rows', and the
  page says so on the headline total.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import pandas as pd

from engine.formatting import number
from engine.gases.gwp import (
    CH4_GWP_RANGE,
    SOURCE_GWP_SETS,
    Ch4Origin,
    gwp,
    is_montreal,
    montreal_share,
)
from engine.inventory.findings import rows_text
from engine.inventory.frames import map_unique
from engine.inventory.units import UNIT_NAMES, typed_numbers
from engine.protocol import fold
from engine.texts import LANGS, Both, Texts

_TEXTS = Texts(
    "engine.inventory.reconcile",
    {
        "no_totals": {
            "pt": "Sem totais na planilha para conferir.",
            "en": "No totals in the workbook to check against.",
        },
        "no_unit": {
            "pt": "Unidade não informada em {names}: as conferências não distinguem t de kg ou "
            "Gg; lida como t até que você escolha a unidade.",
            "en": "No unit stated for {names}: the checks cannot tell t from kg or Gg; read as "
            "t until you choose the unit.",
        },
        "row_totals": {
            "pt": "A coluna de total '{total}' confere com a soma das colunas por gás ({names}) "
            "em {agreeing} de {compared} linhas.",
            "en": "The total column '{total}' equals the sum of the per-gas columns ({names}) "
            "in {agreeing} of {compared} rows.",
        },
        "differ": {"pt": " Diferem: linhas {rows}.", "en": " Differ: rows {rows}."},
        "read.unit": {
            "pt": "{names} em {unit}, pela conferência com o total",
            "en": "{names} in {unit}, from the check against the total",
        },
        "read.co2e": {"pt": "{names} trazem t CO2e", "en": "{names} hold t CO2e"},
        "read.mass": {
            "pt": "{names} trazem a massa de cada gás",
            "en": "{names} hold the mass of each gas",
        },
        "read.gwp_set": {
            "pt": "os totais da planilha usam GWP {theirs}; aqui recalculados com {ours}",
            "en": "the workbook's totals use {theirs} GWPs; recomputed here with {ours}",
        },
        "read.biogenic": {
            "pt": "a coluna de total da planilha soma o CO2 biogênico; aqui ele fica à parte",
            "en": "the workbook's total column adds biogenic CO2; here it is kept apart",
        },
        "total_rows": {
            "pt": "As linhas de total da planilha conferem com a soma das linhas em {agreeing} "
            "de {compared} comparações.",
            "en": "The sheet's total rows equal the sum of its rows in {agreeing} of "
            "{compared} checks.",
        },
        "subtotals": {
            "pt": "Os subtotais codificados conferem com a soma dos seus itens em {agreeing} de "
            "{compared} comparações.",
            "en": "Coded subtotals equal the sum of their items in {agreeing} of {compared} "
            "checks.",
        },
        "subtotals_differ": {
            "pt": " Não conferem: linhas {rows}.",
            "en": " Not matching: rows {rows}.",
        },
        "total_row_differs": {
            "pt": " A linha de total {row} diz {value} em '{column}', mas as linhas somam "
            "{summed}.",
            "en": " Total row {row} states {value} in '{column}', but the rows add up to {summed}.",
        },
    },
)


def _number(value: float, decimals: int) -> Both:
    return Both(*(number(value, decimals, lang) for lang in LANGS))


Status = Literal["reconciled", "unverified", "ambiguous", "conflict"]
RECONCILED: Status = "reconciled"
UNVERIFIED: Status = "unverified"
AMBIGUOUS: Status = "ambiguous"  # readings a power of 1,000 apart pass; no evidence decides
CONFLICT: Status = "conflict"
_RELATIVE = 0.005  # workbooks round each cell; half a percent covers it
_ABSOLUTE = 0.01
_UNIT_CANDIDATES = (1.0, 1e-3, 1e3)


def agrees(a, b, absolute: float = _ABSOLUTE):
    """Elementwise (or scalar) equality within the rounding a workbook applies."""
    return np.abs(a - b) <= np.maximum(absolute, _RELATIVE * np.maximum(np.abs(a), np.abs(b)))


_MAX_DECIMALS = 6


def _written_unit(values: np.ndarray) -> float:
    """The step the figures are written in: 10^-d for the fewest decimals d (up to six) that
    hold every figure (floats' binary noise below that is no digit anyone wrote)."""
    figures = values[np.isfinite(values) & (values != 0)]
    if not len(figures):
        return _ABSOLUTE
    for decimals in range(_MAX_DECIMALS + 1):
        step = 10.0**-decimals
        rounded = np.round(figures, decimals)
        if np.all(np.abs(rounded - figures) <= 1e-9 * np.maximum(1.0, np.abs(figures))):
            return step
    return 10.0**-_MAX_DECIMALS


@dataclass(frozen=True)
class Evidence:
    """One kind of check on a sheet: how many comparisons, how many agreed, and where not."""

    kind: str  # "row_totals", "total_rows", "subtotals", "views"
    compared: int
    agreeing: int
    pt: str
    en: str
    bad_rows: tuple[int, ...] = ()


# Where a column's unit was read (``engine/inventory/unit_evidence.py``). "check" is a column
# no text states, fixed by the row checks against columns whose unit is proven;
# "plausibility" a reading proven by the factors it implies; "default" is none at all.
UnitSource = Literal[
    "user", "unit_column", "header", "group_header", "units_row", "label_header", "title",
    "note", "sheet_name", "check", "plausibility", "default",
]  # fmt: skip


@dataclass(frozen=True)
class UnitEvidence:
    """The unit a numeric column was read in and where that came from."""

    column: str  # the column as the workbook heads it
    unit: str  # as a person reads it: "t", "kg", "Gg", "Mt", "t CO2e", "L", "MWh"
    factor: float | None  # to tonnes (None for a quantity of activity data)
    source: UnitSource
    where_pt: str  # "'(Gg)' na célula A6 → × 1.000 para t"
    where_en: str  # "'(Gg)' in cell A6 → × 1,000 to t"

    def where(self, language: str = "pt") -> str:
        return self.where_pt if language.lower().startswith("pt") else self.where_en

    @property
    def proven(self) -> bool:
        return self.source != "default"


@dataclass(frozen=True)
class SheetCheck:
    sheet: str
    status: Status
    computed_tco2e: float  # what the sheet's rows add to the inventory
    stated_tco2e: float | None  # what the workbook's own totals say, where they say it
    checks: int
    agreeing: int
    message_pt: str
    message_en: str
    evidence: tuple[Evidence, ...] = ()
    units: tuple[UnitEvidence, ...] = ()  # every emission column's unit and its evidence
    rows: int = 0  # data rows counted
    # ambiguous: the units the user may choose between (names as in UnitEvidence.unit)
    unit_choices: tuple[str, ...] = ()
    # the GWP set the workbook's own CO2e totals were found to use, where it gave gas masses
    # beside them and that set is not the one the inventory was read with
    source_gwp_set: str | None = None

    def message(self, language: str = "pt") -> str:
        return self.message_pt if language.lower().startswith("pt") else self.message_en


def overall_status(checks: list[SheetCheck]) -> Status:
    """conflict, then ambiguous, over every sheet; reconciled only if every sheet is."""
    if any(c.status == CONFLICT for c in checks):
        return CONFLICT
    if any(c.status == AMBIGUOUS for c in checks):
        return AMBIGUOUS
    if checks and all(c.status == RECONCILED for c in checks):
        return RECONCILED
    return UNVERIFIED


# Kinds of evidence that compare the workbook with itself. "activity" compares it with our
# factor library: a difference there is a finding about the factors, never a conflict of the
# workbook with its own totals (README, "How a total is reconciled").
_SELF_CHECKS = frozenset({"row_totals", "total_rows", "subtotals", "views"})
UNIT_CHOICES = ("t", "kg", "Gg", "Mt")


def sheet_check(
    sheet: str,
    evidence: list[Evidence],
    computed: float,
    stated: float | None,
    *,
    units: list[UnitEvidence] = (),  # type: ignore[assignment]
    notes: Both | None = None,
    rows: int = 0,
    source_gwp_set: str | None = None,
) -> SheetCheck:
    """The sheet's status from its evidence: ``conflict`` when a check of the workbook against
    itself disagrees; ``ambiguous`` when a column's unit is proven by nothing (the checks are
    blind to scale, so they cannot prove it); ``reconciled`` when checks exist and agree;
    ``unverified`` when there is nothing to check against."""
    real = [e for e in evidence if e.compared]
    own = [e for e in real if e.kind in _SELF_CHECKS]
    compared = sum(e.compared for e in own)
    agreeing = sum(e.agreeing for e in own)
    said = [Both(e.pt, e.en) for e in real]
    unproven = [u.column for u in units if not u.proven]
    if any(e.agreeing < e.compared for e in own):
        status: Status = CONFLICT
    elif unproven:
        status = AMBIGUOUS
    elif own:
        status = RECONCILED
    else:
        status = UNVERIFIED
        said.append(_TEXTS.both("no_totals"))
    if unproven:
        said.append(_TEXTS.both("no_unit", names=", ".join(f"'{c}'" for c in unproven[:4])))
    if notes:
        said.append(notes)
    message = Both.join(" ", said)
    return SheetCheck(
        sheet, status, computed, stated, compared, agreeing, message.pt, message.en,
        tuple(evidence), tuple(units), rows, UNIT_CHOICES if unproven else (),
        source_gwp_set,
    )  # fmt: skip


# --- readings of a sheet's emission columns ---------------------------------------------------


@dataclass(frozen=True)
class Part:
    """An emission column of a row: its numbers, its gas (fixed or per row) and what it holds."""

    column: str
    values: pd.Series
    gas: str | pd.Series | None
    co2e: bool  # already t CO2e (True) or a mass of the gas (False)
    factor: float | pd.Series | None  # to tonnes; None when stated nowhere
    co2e_ambiguous: bool = False  # a gas named without unit beside a CO2e total: either


@dataclass
class Reading:
    factors: dict[str, float | pd.Series] = field(default_factory=dict)
    co2e: dict[str, bool] = field(default_factory=dict)
    total_factor: float | None = None
    source_gwp_set: str | None = None
    includes_biogenic: bool = False
    includes_montreal: bool = True
    evidence: Evidence | None = None
    unit_checked: bool = False


def choose_reading(  # noqa: PLR0917
    parts: list[Part],
    total: pd.Series | None,
    total_factor: float | None,
    biogenic: pd.Series | None,
    rows: pd.Series,
    gwp_set: str,
    ch4_origin: Ch4Origin,
) -> Reading:
    """The reading of the emission columns under which the row totals agree most."""
    default = Reading(
        factors={p.column: 1.0 if p.factor is None else p.factor for p in parts},
        co2e={p.column: p.co2e for p in parts},
        total_factor=total_factor or 1.0,
        source_gwp_set=None,
    )
    if total is None or not parts or total.notna().sum() == 0:
        return default
    unknown_unit = any(p.factor is None for p in parts)
    ambiguous = any(p.co2e_ambiguous for p in parts)
    # Parts whose unit is stated nowhere share one unit; ambiguous parts share one kind.
    shared_factors = list(_UNIT_CANDIDATES) if unknown_unit else [None]
    flips = [False, True] if ambiguous else [False]
    total_factors = [total_factor] if total_factor is not None else list(_UNIT_CANDIDATES)
    has_mass = any(not p.co2e or p.co2e_ambiguous for p in parts)
    sets = [gwp_set, *[s for s in SOURCE_GWP_SETS if s != gwp_set]] if has_mass else [gwp_set]
    bio_options = [False, True] if biogenic is not None and biogenic.notna().any() else [False]
    mont_options = [True, False] if _any_montreal(parts) else [True]
    stated = total.astype("float64")
    # Numpy arrays by position (every series is of the same body rows): a reading is tried
    # for every unit, GWP set and option, and pandas' alignment on each was most of the time
    # of a sheet of a national workbook.
    index = stated.index
    stated_v = stated.to_numpy(dtype="float64")
    rows_v = _on(rows, index)
    bio_v = _on(biogenic.fillna(0.0), index) if biogenic is not None else None
    weights: dict[tuple, np.ndarray | float] = {}
    best: tuple[tuple, Reading] | None = None
    for shared, flip, tf, source, bio, mont in itertools.product(
        shared_factors, flips, total_factors, sets, bio_options, mont_options
    ):
        choice = {
            p.column: (
                p.factor if p.factor is not None else shared,
                (not p.co2e) if (flip and p.co2e_ambiguous) else p.co2e,
            )
            for p in parts
        }
        ours = _row_sums_array(parts, choice, (source, ch4_origin, mont), index, weights)
        if bio:
            assert bio_v is not None
            ours = _add_filled(ours, bio_v)
        theirs = stated_v * tf
        both = ~np.isnan(ours) & ~np.isnan(theirs)
        hits = agrees(ours[both], theirs[both])
        methane = _ch4_mass_array(parts, choice, index)
        if methane is not None:
            hits |= _within_methane_range(
                ours[both], theirs[both], methane[both], source, ch4_origin
            )
        error = _relative_error_array(ours[both][hits], theirs[both][hits])
        # the closest reading wins; ties (rounding noise) go to what the header says, then
        # the chosen GWP set, then the GHG rules
        score = (int(hits.sum()), -round(error, 4), shared in (None, 1.0), not flip,
                 tf == (total_factor or 1.0), source == gwp_set, not bio, mont)  # fmt: skip
        if best is None or score > best[0]:
            bad = tuple(sorted({int(r) for r in rows_v[both][~hits]}))
            best = (
                score,
                Reading(
                    factors={c: f for c, (f, _) in choice.items()},
                    co2e={c: k for c, (_, k) in choice.items()},
                    total_factor=tf,
                    source_gwp_set=source if has_mass else None,
                    includes_biogenic=bio,
                    includes_montreal=mont,
                    evidence=_row_evidence(
                        int(both.sum()), int(hits.sum()), bad, _total_name(total), parts
                    ),
                    unit_checked=int(hits.sum()) > 0,
                ),
            )
    assert best is not None
    return best[1]


def _ch4_mass_array(parts: list[Part], choice: dict, index: pd.Index) -> np.ndarray | None:
    """Each row's tonnes of methane under a reading (its mass columns only), or None."""
    mass = None
    for part in parts:
        factor, co2e = choice[part.column]
        if co2e or part.gas is None:
            continue
        is_ch4 = (
            _on(part.gas == "CH4", index).astype(bool)
            if isinstance(part.gas, pd.Series)
            else part.gas == "CH4"
        )
        if not np.any(is_ch4):
            continue
        value = _as_array(part.values, index) * _as_array(factor, index)
        value = np.where(is_ch4, np.nan_to_num(np.asarray(value, dtype="float64")), 0.0)
        mass = value if mass is None else mass + value
    return mass


def _within_methane_range(
    ours: np.ndarray, theirs: np.ndarray, ch4: np.ndarray, source: str, origin: Ch4Origin
) -> np.ndarray:
    """Rows whose stated total lies between ours with methane at the set's non-fossil and at
    its fossil GWP (AR6: 27.0 and 29.8): a workbook that gives each source its own methane
    origin (effluents and biomass non-fossil, natural gas fossil) made a GWP choice, not an
    error (IPCC AR6 WG1, ch. 7, table 7.15)."""
    used = gwp("CH4", source, origin)
    if source not in CH4_GWP_RANGE or used is None:
        return np.zeros(len(ours), dtype=bool)
    low, high = CH4_GWP_RANGE[source]
    lower = ours + ch4 * (low - used)
    upper = ours + ch4 * (high - used)
    slack = np.maximum(_ABSOLUTE, _RELATIVE * np.abs(theirs))
    return (ch4 > 0) & (theirs >= lower - slack) & (theirs <= upper + slack)


def _add_filled(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``Series.add(other, fill_value=0.0)`` on aligned arrays: missing only where both are."""
    both_missing = np.isnan(a) & np.isnan(b)
    summed = np.where(np.isnan(a), 0.0, a) + np.where(np.isnan(b), 0.0, b)
    return np.where(both_missing, np.nan, summed)


def _on(series: pd.Series, index: pd.Index) -> np.ndarray:
    """The series' values in ``index`` order (the same rows: no reindexing in practice)."""
    if not (series.index is index or series.index.equals(index)):
        series = series.reindex(index)
    return series.to_numpy()


def _as_array(value, index: pd.Index) -> np.ndarray | float:
    return _on(value, index).astype("float64") if isinstance(value, pd.Series) else value


def _row_sums_array(
    parts: list[Part],
    choice: dict,
    gwp_of: tuple[str, Ch4Origin, bool],
    index: pd.Index,
    weights: dict[tuple, np.ndarray | float],
) -> np.ndarray:
    """Each row's t CO2e under a reading, by position; a part's GWP weights are computed
    once per GWP set."""
    source, ch4_origin, include_montreal = gwp_of
    total = None
    for i, part in enumerate(parts):
        factor, co2e = choice[part.column]
        value = _as_array(part.values, index) * _as_array(factor, index)
        if not co2e:
            key = (i, "gwp", source, include_montreal)
            if key not in weights:
                gwps = _gwp_of(part.gas, source, ch4_origin, include_montreal)
                weights[key] = _as_array(gwps, index)
            value = value * weights[key]
        elif not include_montreal and part.gas is not None:
            key = (i, "kyoto")
            if key not in weights:
                weights[key] = _as_array(_co2e_kyoto_share(part.gas), index)
            value = value * weights[key]
        total = value if total is None else _add_filled(total, value)
    assert total is not None
    return total


def _relative_error_array(ours: np.ndarray, theirs: np.ndarray) -> float:
    if not len(ours):
        return 0.0
    scale = np.maximum(np.maximum(np.abs(ours), np.abs(theirs)), _ABSOLUTE)
    return float((np.abs(ours - theirs) / scale).mean())


def _any_montreal(parts: list[Part]) -> bool:
    for part in parts:
        gases = part.gas.dropna().unique() if isinstance(part.gas, pd.Series) else [part.gas]
        if any(isinstance(g, str) and montreal_share(g) > 0 for g in gases):
            return True
    return False


def _gwp_of(gas, source: str, ch4_origin: Ch4Origin, include_montreal: bool):
    def one(name: object) -> float:
        if not isinstance(name, str):
            return np.nan
        value = gwp(name, source, ch4_origin)
        if value is None:
            return np.nan
        if not include_montreal and montreal_share(name):
            value *= 1 - montreal_share(name) if not is_montreal(name) else 0.0
        return value

    if isinstance(gas, pd.Series):
        return pd.to_numeric(map_unique(gas, one), errors="coerce")
    return one(gas)


def _co2e_kyoto_share(gas):
    def one(name: object) -> float:
        return 0.0 if isinstance(name, str) and is_montreal(name) else 1.0

    if isinstance(gas, pd.Series):
        return pd.to_numeric(map_unique(gas, one))
    return one(gas)


def _total_name(total: pd.Series) -> str:
    return str(total.name) if total.name is not None else "total"


def _row_evidence(
    compared: int, agreeing: int, bad: tuple[int, ...], total: str, parts: list[Part]
) -> Evidence:
    names = ", ".join(f"'{p.column}'" for p in parts[:6])
    said = _TEXTS.both(
        "row_totals", total=total, names=names, agreeing=agreeing, compared=compared
    ) + (differ(bad) if bad else "")
    return Evidence("row_totals", compared, agreeing, said.pt, said.en, bad)


def differ(bad: Sequence[int]) -> Both:
    """' Diferem: linhas 4, 9.': the rows a check found wrong, after its sentence."""
    return _TEXTS.both("differ", rows=rows_text(bad))


def describe_reading(reading: Reading, parts: list[Part], gwp_set: str) -> Both | None:
    """A sentence on what the reading decided that the header did not say, if anything."""
    said: list[Both] = []
    units: dict[str, list[str]] = {}
    for part in parts:
        factor = reading.factors.get(part.column)
        if part.factor is None and reading.unit_checked and isinstance(factor, float):
            units.setdefault(UNIT_NAMES.get(factor, str(factor)), []).append(part.column)
    for unit, columns in units.items():
        names = ", ".join(f"'{c}'" for c in columns[:6])
        said.append(_TEXTS.both("read.unit", names=names, unit=unit))
    flipped = [p.column for p in parts
               if p.co2e_ambiguous and reading.co2e.get(p.column) != p.co2e]  # fmt: skip
    if flipped:
        names = ", ".join(f"'{c}'" for c in flipped[:6])
        co2e = reading.co2e[flipped[0]]
        said.append(_TEXTS.both("read.co2e" if co2e else "read.mass", names=names))
    if reading.source_gwp_set and reading.source_gwp_set != gwp_set and reading.unit_checked:
        said.append(_TEXTS.both("read.gwp_set", theirs=reading.source_gwp_set, ours=gwp_set))
    if reading.includes_biogenic and reading.unit_checked:
        said.append(_TEXTS.both("read.biogenic"))
    if not said:
        return None
    return Both.join("; ", said).map(_sentence)


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."


# --- a sheet's own total rows and coded subtotals ---------------------------------------------


def total_row_evidence(
    body: pd.DataFrame,
    totals: pd.DataFrame,
    columns: list[str],
    parse: Callable[[pd.Series], pd.Series],
    memo_rows: frozenset[int] = frozenset(),
) -> tuple[Evidence | None, dict[str, float]]:
    """Each total row against the rows it closes: since the last total, or all above it,
    with or without the memo rows (a Kyoto total that leaves R-22 out is right).

    Returns the evidence and, per column, the last total row's stated value.
    """
    if totals.empty or not columns:
        return None, {}
    compared = agreeing = 0
    bad: list[int] = []
    details: list[tuple[int, str, float, float]] = []
    stated_last: dict[str, float] = {}
    body_rows = np.asarray(body.index, dtype="int64")
    total_rows = np.asarray(totals.index, dtype="int64")
    keys = [c for c in body.columns if c not in columns]
    masks = [_rows_named_by(body, totals.loc[row], keys) for row in totals.index]
    grand = [not _is_subtotal(totals.loc[row], keys) for row in totals.index]
    for column in columns:
        values = parse(body[column]).fillna(0.0).to_numpy()
        stated = parse(totals[column]).to_numpy()
        cumulative = np.concatenate([[0.0], np.cumsum(values)])
        is_memo = np.isin(body_rows, list(memo_rows)) if memo_rows else None
        kyoto = (
            np.concatenate([[0.0], np.cumsum(np.where(is_memo, 0.0, values))])
            if is_memo is not None
            else cumulative
        )
        previous_total_row = 0
        subtotal_sum = 0.0
        subtotals_since = 0
        for row, value, mask, is_grand in zip(total_rows, stated, masks, grand, strict=True):
            if np.isnan(value):
                continue
            upto = int(np.searchsorted(body_rows, row))
            since = int(np.searchsorted(body_rows, previous_total_row))
            # Only sums of at least one row: an empty range adds to 0, which a small stated
            # figure (0.01 Gg) would "agree" with within the absolute rounding allowance.
            candidates = [cumulative[-1]]
            if upto > since:
                candidates += [cumulative[upto] - cumulative[since], kyoto[upto] - kyoto[since]]
            if upto:
                candidates += [cumulative[upto], kyoto[upto]]
            if subtotals_since:
                candidates.append(subtotal_sum)
            if mask is not None:  # 'Subtotal Escopo 1' / a year: the rows it names
                candidates.append(float(values[mask].sum()))
            compared += 1
            # The absolute allowance is the total's own rounding: a total written to five
            # decimals (0,00001 Gg of N2O) is not met by 0,01 Gg, which 0,01 would allow.
            absolute = min(_ABSOLUTE, _written_unit(np.array([value])))
            if any(agrees(value, c, absolute) for c in candidates):
                agreeing += 1
            else:
                bad.append(int(row))
                closes = candidates[1] if upto > since else candidates[0]  # since the last
                details.append((int(row), column, float(value), float(closes)))
            subtotal_sum = 0.0 if is_grand else subtotal_sum + value
            subtotals_since = 0 if is_grand else subtotals_since + 1
            previous_total_row = row
            stated_last[column] = float(value)
    if not compared:
        return None, {}
    said = _TEXTS.both("total_rows", agreeing=agreeing, compared=compared)
    for row, column, value, summed in details[:3]:
        said += _TEXTS.both(
            "total_row_differs",
            row=row,
            column=column,
            value=_number(value, 2),
            summed=_number(summed, 2),
        )
    evidence = Evidence("total_rows", compared, agreeing, said.pt, said.en, tuple(sorted(set(bad))))
    return evidence, stated_last


# The words a total row's label begins with ("Subtotal Escopo 1", "Total geral:").
TOTAL_WORDS = re.compile(r"(?i)\b(sub-?\s*total|total geral|grand total|total|soma)\b[:\s-]*")


def _is_subtotal(row: pd.Series, keys: list[str]) -> bool:
    return any(isinstance(row[c], str) and re.match(r"(?i)\s*sub-?\s*total", row[c]) for c in keys)


def _rows_named_by(body: pd.DataFrame, row: pd.Series, keys: list[str]) -> np.ndarray | None:
    """The data rows a total row names: 'Subtotal Escopo 1' in the scope column, its year
    in the year column. None when it names nothing beyond 'Total'."""
    mask = np.ones(len(body), dtype=bool)
    named = False
    for column in keys:
        value = row[column]
        if value is None or (isinstance(value, float) and np.isnan(value)) or value == "":
            continue
        if isinstance(value, str):
            value = TOTAL_WORDS.sub("", value).strip()
            if not value:
                continue
            cells = body[column].map(lambda v: fold(str(v)) if v is not None else "")
            mask &= (cells == fold(value)).to_numpy()
        else:
            mask &= (body[column] == value).to_numpy()
        named = True
    return mask if named else None


def subtotal_evidence(
    body: pd.DataFrame,
    parents: pd.DataFrame | None,
    children: dict[int, list[int]],
    columns: list[str],
    parse: Callable[[pd.Series], pd.Series],
    *,
    typed: bool = False,
) -> Evidence | None:
    """Coded subtotals (1.A = 1.A.1 + 1.A.2 ...) against their direct children.

    ``typed``: ``parse`` reads a column of typed numbers and blanks as their floats (as
    ``units.to_numbers`` does), so such columns are converted in one block."""
    if parents is None or parents.empty or not columns:
        return None
    # One matrix, rows by position: a national workbook has thousands of (parent, column)
    # pairs, and a pandas lookup for each was half of its load.
    blocks = (typed_numbers(body, columns), typed_numbers(parents, columns)) if typed else None
    if blocks is not None and blocks[0] is not None and blocks[1] is not None:
        matrix = np.vstack(blocks)  # typed numbers read alike in any column: no concatenation
        index = [*body.index.tolist(), *parents.index.tolist()]
    else:
        rows = pd.concat([body[columns], parents[columns]])
        matrix = np.column_stack([parse(rows[c]).to_numpy(dtype=float) for c in columns])
        index = rows.index.tolist()
    position = {int(r): i for i, r in enumerate(index)}
    # Every parent at once: its children's rows laid end to end, summed per parent with one
    # reduceat (numpy calls per parent were most of the check on a national workbook).
    parents_at, kids_at, starts = [], [], []
    for parent, kids in children.items():
        at = position.get(int(parent))
        kid_positions = [position[k] for k in kids if k in position]
        if at is None or not kid_positions:
            continue
        parents_at.append((parent, at))
        starts.append(len(kids_at))
        kids_at.extend(kid_positions)
    if not parents_at:
        return None
    items = matrix[kids_at]
    missing = np.isnan(items)
    summed = np.add.reduceat(np.where(missing, 0.0, items), starts, axis=0)
    stated = matrix[[at for _, at in parents_at]]
    valid = ~np.isnan(stated) & ~np.logical_and.reduceat(missing, starts, axis=0)
    hits = agrees(stated, summed) & valid
    compared, agreeing = int(valid.sum()), int(hits.sum())
    bad = [parent for (parent, _), v, h in zip(parents_at, valid, hits, strict=True)
           if (v & ~h).any()]  # fmt: skip
    if not compared:
        return None
    said = _TEXTS.both("subtotals", agreeing=agreeing, compared=compared)
    if bad:
        said += _TEXTS.both("subtotals_differ", rows=rows_text(sorted(set(bad))))
    return Evidence("subtotals", compared, agreeing, said.pt, said.en, tuple(sorted(set(bad))))
