"""Sheets that are views of the same data are never added together.

National inventories publish one sheet per gas (masses) and CO2e sheets for several GWP sets
("CO2e (GWP-AR5)", "CO2e (GWP-SAR)"), all over the same rows and years. The totals come from
the per-gas sheets with the chosen GWP set, checked against the CO2e view of that set; with
no per-gas sheets, from the CO2e view of the chosen set; with neither, a clear error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from engine.gases.gwp import (
    CH4_GWP_RANGE,
    DEFAULT_CH4_ORIGIN,
    SOURCE_GWP_SETS,
    Ch4Origin,
    canonical_gas,
    gwp,
)
from engine.inventory import fields as F
from engine.inventory.errors import GwpViewMissingError
from engine.inventory.findings import Finding
from engine.inventory.frames import map_unique
from engine.inventory.reconcile import (
    AMBIGUOUS,
    CONFLICT,
    RECONCILED,
    UNVERIFIED,
    Evidence,
    SheetCheck,
    agrees,
)
from engine.texts import Both, Texts

_SET_IN_NAME = re.compile(r"\b(ar ?[456]|sar|tar|gtp)\b")
_SUMMARY_NAME = re.compile(r"\b(resumo|sumario|summary|consolidado|consolidated|totais|overview)\b")
_MIN_OVERLAP = 0.6

_TEXTS = Texts(
    "engine.inventory.views",
    {
        "view_skipped": {
            "pt": "Aba '{sheet}' não somada: é outra visão dos mesmos dados (GWP {label}).",
            "en": "Sheet '{sheet}' not added: another view of the same data (GWP {label}).",
        },
        "view_used": {
            "pt": " Usada para conferir as abas por gás.",
            "en": " Used to check the per-gas sheets.",
        },
        "checked_by": {"pt": "Conferida pela aba '{by}'.", "en": "Checked by sheet '{by}'."},
        "summary": {
            "pt": "A aba '{sheet}' resume as demais ({names}): confere por escopo em "
            "{agreeing} de {compared}; não somada.",
            "en": "Sheet '{sheet}' summarises the others ({names}): matches by scope in "
            "{agreeing} of {compared}; not added.",
        },
        "view_equals": {
            "pt": "A aba '{sheet}' confere com as abas por gás ({names}) × GWP {view_set} em "
            "{agreeing} de {compared} valores; os totais vêm das abas por gás, com {gwp_set}.",
            "en": "Sheet '{sheet}' equals the per-gas sheets ({names}) × {view_set} GWPs in "
            "{agreeing} of {compared} values; the totals come from the per-gas sheets, with "
            "{gwp_set}.",
        },
        "fossil_methane": {
            "pt": " Em {count} valores a aba usa para o metano um GWP entre {low:g} e {high:g} "
            "(metano fóssil, como nas emissões fugitivas): uma escolha de GWP, não um erro.",
            "en": " In {count} values the sheet uses a methane GWP between {low:g} and {high:g} "
            "(fossil methane, as for fugitive emissions): a GWP choice, not an error.",
        },
        "apart_by_1000": {
            "pt": " Os valores diferem por um fator de 1.000: as unidades não estão informadas.",
            "en": " The values differ by a factor of 1,000: the units are not stated.",
        },
    },
)


@dataclass
class SheetData:
    name: str
    title: str
    table: pd.DataFrame
    check: SheetCheck | None


@dataclass
class Resolved:
    kept: list[SheetData]
    checks: list[SheetCheck]
    findings: list[Finding]
    skipped: dict[str, str]  # sheet -> why (pt)


def gwp_set_named(text: str) -> str | None:
    """'CO2e (GWP-AR5)' -> 'AR5'; 'GWP SAR' -> 'SAR'."""
    found = _SET_IN_NAME.search(F.words(text))
    return found.group(1).replace(" ", "").upper() if found else None


def resolve_views(
    sheets: list[SheetData], gwp_set: str, ch4_origin: Ch4Origin = DEFAULT_CH4_ORIGIN
) -> Resolved:
    co2e_only = [s for s in sheets if _is_co2e_view(s)]
    families = _families(sheets, co2e_only)
    kept_names = {s.name for s in sheets}
    checks: list[SheetCheck] = []
    findings: list[Finding] = []
    skipped: dict[str, str] = {}
    for views, members in families:
        per_gas = [s for s in members if s not in views]
        matching = [v for v in views if gwp_set_named(f"{v.name} {v.title}") == gwp_set]
        others = [v for v in views if v not in matching]
        if per_gas:
            for view in views:
                kept_names.discard(view.name)
                view_set = gwp_set_named(f"{view.name} {view.title}")
                if view_set not in SOURCE_GWP_SETS:  # GTP or unknown: nothing to compare
                    continue
                check = _compare(view, per_gas, view_set, gwp_set, ch4_origin)
                checks.append(check)
                if check.status == RECONCILED:
                    _confirmed_by(per_gas, view.name)
        elif matching:
            for view in others:
                kept_names.discard(view.name)
            matching = matching[1:]  # the first matching view is the data
            for view in matching:
                kept_names.discard(view.name)
        else:
            raise GwpViewMissingError(gwp_set, [v.name for v in views])
        for view in views:
            if view.name in kept_names:
                continue
            label = gwp_set_named(f"{view.name} {view.title}") or "?"
            checked = bool(per_gas) and label in SOURCE_GWP_SETS
            skipped[view.name] = f"outra visão dos mesmos dados (GWP {label})"
            said = _TEXTS.both("view_skipped", sheet=view.name, label=label)
            if checked:
                said += _TEXTS.both("view_used")
            findings.append(Finding("sheet_is_a_view", said.pt, said.en, view.name))
    kept = [s for s in sheets if s.name in kept_names]
    kept = _without_summaries(kept, checks, findings, skipped)
    return Resolved(kept, checks, findings, skipped)


def _confirmed_by(sheets: list[SheetData], by: str) -> None:
    """Sheets with nothing of their own to check against, checked by another sheet."""
    for sheet in sheets:
        if sheet.check is not None and sheet.check.status == UNVERIFIED:
            sheet.check = replace(
                sheet.check,
                status=RECONCILED,
                message_pt=_TEXTS("checked_by", "pt", by=by),
                message_en=_TEXTS("checked_by", "en", by=by),
            )


def _scope_totals(tables: list[pd.DataFrame]) -> pd.Series:
    rows = pd.concat(tables)
    return rows.groupby(rows[F.SCOPE].fillna("?"))[F.EMISSIONS_TCO2E].sum()


def _without_summaries(sheets, checks, findings, skipped) -> list[SheetData]:
    """A summary sheet (totals by scope that the detail sheets already hold) is a check on
    them, never more emissions: 'Resumo' beside 'Escopo 1', 'Escopo 2'..."""
    kept = list(sheets)
    # Each sheet is summed against all the others: concatenating only the two columns read
    # keeps that cheap for a workbook of 31 sheets (the same rows in the same order).
    slim = {id(s): s.table.reindex(columns=[F.SCOPE, F.EMISSIONS_TCO2E]) for s in sheets}
    scopes = {key: set(frame[F.SCOPE].fillna("?").unique()) for key, frame in slim.items()}
    for sheet in sorted(sheets, key=lambda s: not _SUMMARY_NAME.search(F.words(s.name))):
        others = [s for s in kept if s is not sheet]
        if not others or sheet.table.empty:
            continue
        ours = _scope_totals([slim[id(sheet)]])
        their_scopes = set().union(*(scopes[id(s)] for s in others))
        if "?" in ours.index or not set(ours.index) <= their_scopes:
            continue  # decided before the others' rows are summed (31 sheets: 31 sums of 30)
        theirs = _scope_totals([slim[id(s)] for s in others])
        named = bool(_SUMMARY_NAME.search(F.words(f"{sheet.name} {sheet.title}")))
        hits = agrees(ours.to_numpy(), theirs.loc[ours.index].to_numpy())
        if not (hits.all() or named):
            continue
        kept.remove(sheet)
        agreeing, compared = int(hits.sum()), len(hits)
        names = ", ".join(s.name for s in others)
        pt, en = _pair(_TEXTS.both("summary", sheet=sheet.name, names=names,
                                   agreeing=agreeing, compared=compared))  # fmt: skip
        status = RECONCILED if hits.all() else CONFLICT
        if hits.all():
            _confirmed_by(others, sheet.name)
        checks.append(SheetCheck(
            sheet.name, status, float(theirs.loc[ours.index].sum()), float(ours.sum()),
            compared, agreeing, pt, en, (Evidence("views", compared, agreeing, pt, en),),
        ))  # fmt: skip
        skipped[sheet.name] = "resumo das demais abas"
        findings.append(Finding("sheet_is_a_summary", pt, en, sheet.name))
    return kept


def _is_co2e_view(sheet: SheetData) -> bool:
    """Every row reported in CO2e: with no gas of its own, or in a sheet named for a GWP set
    ('CO2e (GWP-AR5)', which may split its CO2e by gas)."""
    table = sheet.table
    if table.empty or not (table["basis"] == "reported").all():
        return False
    if gwp_set_named(f"{sheet.name} {sheet.title}"):
        return True
    gases = table[F.GAS].dropna().unique()
    return not any(canonical_gas(g) for g in gases)


def _keys(table: pd.DataFrame) -> set[tuple]:
    columns = [c for c in (F.SOURCE, F.CATEGORY, F.FACILITY, F.YEAR) if c in table]
    return set(table[columns].astype(str).itertuples(index=False, name=None))


def _families(sheets: list[SheetData], views: list[SheetData]):
    """Groups of sheets over the same rows, each with at least one CO2e view in it."""
    result = []
    claimed: set[str] = set()
    keys_of: dict[int, set[tuple]] = {}  # every view is matched against every sheet

    def keys_in(sheet: SheetData) -> set[tuple]:
        if id(sheet) not in keys_of:
            keys_of[id(sheet)] = _keys(sheet.table)
        return keys_of[id(sheet)]

    for view in views:
        if view.name in claimed:
            continue
        keys = keys_in(view)
        members = [view]
        for other in sheets:
            if other is view or other.name in claimed:
                continue
            other_keys = keys_in(other)
            overlap = len(keys & other_keys) / max(1, min(len(keys), len(other_keys)))
            named = gwp_set_named(f"{view.name} {view.title}") is not None
            if (len(keys) >= 2 or named) and overlap >= _MIN_OVERLAP:
                members.append(other)
        if len(members) > 1:
            claimed.update(m.name for m in members)
            result.append(([m for m in members if m in views], members))
    return result


def _compare(
    view: SheetData, per_gas: list[SheetData], view_set: str, gwp_set: str, ch4_origin: Ch4Origin
) -> SheetCheck:
    """A CO2e view against the per-gas sheets x the view's own GWP set."""
    keys = [c for c in (F.SOURCE, F.CATEGORY, F.FACILITY, F.YEAR) if c in view.table]
    rows = pd.concat([s.table for s in per_gas])
    factors = map_unique(
        rows[F.GAS], lambda g: gwp(g, view_set, ch4_origin) if isinstance(g, str) else None
    )
    mass = rows[F.EMISSIONS_T_GAS]
    in_view_set = (mass * pd.to_numeric(factors, errors="coerce")).where(
        mass.notna(),
        rows[F.EMISSIONS_TCO2E] + rows[F.MEMO_TCO2E].where(rows[F.REPORTING] == F.MONTREAL, 0.0),
    )
    groups = [rows[k] for k in keys]
    ours = in_view_set.groupby(groups, dropna=False).sum()
    view_rows = view.table
    theirs = (
        (view_rows[F.EMISSIONS_TCO2E] + view_rows[F.MEMO_TCO2E])
        .groupby([view_rows[k] for k in keys], dropna=False)
        .sum()
    )
    common = ours.index.intersection(theirs.index)
    hits = agrees(ours.loc[common].to_numpy(), theirs.loc[common].to_numpy())
    methane = _within_methane_range(
        rows, groups, ours.loc[common], theirs.loc[common], view_set=view_set, origin=ch4_origin
    )
    fossil_methane = methane & ~hits
    hits = hits | methane
    compared, agreeing = len(common), int(hits.sum())
    headline = common
    if F.YEAR in keys and len(common):  # the figures shown are the headline year's
        years = common.get_level_values(keys.index(F.YEAR)) if len(keys) > 1 else common
        latest = max(str(y) for y in years if not pd.isna(y))
        headline = common[[str(y) == latest for y in years]]
    names = ", ".join(s.name for s in per_gas)
    said = _TEXTS.both("view_equals", sheet=view.name, names=names, view_set=view_set,
                       agreeing=agreeing, compared=compared, gwp_set=gwp_set)  # fmt: skip
    if fossil_methane.any():
        low, high = CH4_GWP_RANGE[view_set]
        said += _TEXTS.both("fossil_methane", count=int(fossil_methane.sum()), low=low, high=high)
    pt, en = _pair(said)
    evidence = Evidence("views", compared, agreeing, pt, en)
    status = RECONCILED if compared and agreeing == compared else CONFLICT
    unproven = any(s.check is not None and s.check.status == AMBIGUOUS for s in [view, *per_gas])
    if status == CONFLICT and unproven and _apart_by_a_power_of_1000(ours, theirs, common):
        status = AMBIGUOUS  # two sheets of unstated units, 1,000 apart: which one is off?
        pt, en = _pair(said + _TEXTS.both("apart_by_1000"))
    return SheetCheck(
        view.name, status, float(ours.loc[headline].sum()), float(theirs.loc[headline].sum()),
        compared, agreeing, pt, en, (evidence,),
    )  # fmt: skip


def _within_methane_range(rows, groups, ours, theirs, *, view_set, origin):
    """Values the view states between the per-gas figures with methane at its non-fossil and
    at its fossil GWP (``gwp.CH4_GWP_RANGE``): the view chose methane's GWP per source."""
    if view_set not in CH4_GWP_RANGE or not len(ours):
        return np.zeros(len(ours), dtype=bool)
    used = gwp("CH4", view_set, origin)
    low, high = CH4_GWP_RANGE[view_set]
    is_ch4 = rows[F.GAS] == "CH4"
    mass = rows[F.EMISSIONS_T_GAS].where(is_ch4, 0.0).fillna(0.0)
    ch4 = mass.groupby(groups, dropna=False).sum().reindex(ours.index).to_numpy()
    base = ours.to_numpy()
    stated = theirs.to_numpy()
    lower = base + ch4 * (low - (used or low))
    upper = base + ch4 * (high - (used or low))
    slack = np.maximum(0.01, 0.005 * np.abs(stated))
    return (ch4 > 0) & (stated >= lower - slack) & (stated <= upper + slack)


def _apart_by_a_power_of_1000(ours: pd.Series, theirs: pd.Series, common) -> bool:
    a, b = ours.loc[common].to_numpy(), theirs.loc[common].to_numpy()
    both = (a != 0) & (b != 0)
    if not both.any():
        return False
    ratios = b[both] / a[both]
    return any(bool(np.all(agrees(ratios, p))) for p in (1e-6, 1e-3, 1e3, 1e6))


def _pair(said: Both) -> tuple[str, str]:
    return said.pt, said.en
