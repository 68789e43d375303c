"""The findings of activity tables, in Portuguese and English: rows not counted (an activity
the library does not know, no period, no factor, a unit assumed), and the texts of the
comparison with the workbook's own emissions (a factor that differs beyond 2%, a figure no
physical factor can give).
"""

from __future__ import annotations

import numpy as np

from engine.emissions import FactorUse, nearest
from engine.emissions.units import unit_label
from engine.formatting import number, percent
from engine.gases.gwp import BIOGENIC_CO2
from engine.inventory.activity.compute import ActivityRows
from engine.inventory.findings import Finding, rows_text
from engine.inventory.plausibility import Judgement, significant

# --- rows not counted -------------------------------------------------------------------------


def _rows_label(rows: tuple[int, ...], lang: str) -> str:
    if lang == "pt":
        return f"{'Linha' if len(rows) == 1 else 'Linhas'} {rows_text(rows)}"
    return f"{'Row' if len(rows) == 1 else 'Rows'} {rows_text(rows)}"


def row_findings(rows: ActivityRows, sheet: str) -> list[Finding]:
    """Rows not counted: an activity the library does not know, no period, no factor."""
    findings = []
    if not rows.unresolved.empty:
        listed = rows.unresolved
        rows_ = tuple(sorted(int(r) for r in listed["row"]))
        texts = list(dict.fromkeys(listed["text"]))[:5]
        why = {lang: "; ".join(dict.fromkeys(w for w in listed[f"why_{lang}"] if w))
               for lang in ("pt", "en")}  # fmt: skip
        near = {t: nearest(t, 3) for t in texts[:2]} if not why["pt"] else {}
        hint = {
            "pt": " ".join(f"Para '{t}', você quis dizer: "
                           f"{', '.join(a.name['pt'] for a in s)}?" for t, s in near.items()),
            "en": " ".join(f"For '{t}', did you mean: "
                           f"{', '.join(a.name['en'] for a in s)}?" for t, s in near.items()),
        }  # fmt: skip
        names = ", ".join(f"'{t}'" for t in texts)
        findings.append(Finding(
            "activity_unknown",
            f"{_rows_label(rows_, 'pt')} não contada(s): atividade não reconhecida ({names})"
            + (f": {why['pt']}" if why["pt"] else "") + ". " + (hint["pt"] + " " if hint["pt"]
            else "") + "Nada é calculado por aproximação: corrija o nome do combustível ou "
            "envie o fator.",
            f"{_rows_label(rows_, 'en')} not counted: activity not recognised ({names})"
            + (f": {why['en']}" if why["en"] else "") + ". " + (hint["en"] + " " if hint["en"]
            else "") + "Nothing is computed by guesswork: fix the fuel's name or upload the "
            "factor.",
            sheet, rows_,
        ))  # fmt: skip
    if rows.missing_period:
        rows_ = tuple(rows.missing_period)
        findings.append(Finding(
            "activity_without_period",
            f"{_rows_label(rows_, 'pt')} não contada(s): sem data, mês ou ano para escolher os "
            "fatores. Inclua uma coluna de ano ou o ano no nome da aba.",
            f"{_rows_label(rows_, 'en')} not counted: no date, month or year to pick the "
            "factors by. Add a year column or the year to the sheet's name.",
            sheet, rows_,
        ))  # fmt: skip
    if rows.failures:
        rows_ = tuple(sorted({r for failed, _, _ in rows.failures for r in failed}))
        pt = " ".join(dict.fromkeys(m for _, m, _ in rows.failures))
        en = " ".join(dict.fromkeys(m for _, _, m in rows.failures))
        findings.append(Finding(
            "activity_not_computed",
            f"{_rows_label(rows_, 'pt')} não contada(s): {pt}",
            f"{_rows_label(rows_, 'en')} not counted: {en}",
            sheet, rows_,
        ))  # fmt: skip
    if rows.assumed_unit and len(rows.requests):
        rows_ = tuple(sorted({int(r) for r in rows.requests["row"]}))
        unit = rows.assumed_unit
        findings.append(Finding(
            "activity_unit_assumed",
            f"A unidade das quantidades não está escrita em lugar nenhum da aba: lidas como "
            f"{unit}, a unidade usual de recarga de refrigerante. Confira e informe a unidade "
            "no cabeçalho ('Recarga (kg)').",
            f"The quantities' unit is written nowhere on the sheet: read as {unit}, the usual "
            "unit of a refrigerant recharge. Check it and state the unit in the header "
            "('Recharge (kg)').",
            sheet, rows_,
        ))  # fmt: skip
    return findings


# --- the workbook's own emissions against ours ------------------------------------------------


def more_rows_differ(rest: tuple[int, ...], sheet: str) -> Finding:
    """The rows beyond the ones a sheet's findings name one by one, counted in one more."""
    return Finding(
        "activity_factor_differs",
        f"Mais {len(rest)} linhas diferem do cálculo pelos dados de atividade em mais de "
        f"2%: {rows_text(rest)}.",
        f"{len(rest)} more rows differ from the activity-data computation by more than "
        f"2%: {rows_text(rest)}.",
        sheet, rest,
    )  # fmt: skip


def implausible(
    sheet: str, column: str, name: tuple[object, object], judged: Judgement,
    listed: tuple[int, ...],
) -> Finding:  # fmt: skip
    """The factor a column's figures imply, outside the activity's physical band."""
    return Finding(
        "activity_implausible",
        f"Aba '{sheet}', coluna '{column}' ({name[0]}): {judged.message('pt')}. "
        f"{_rows_label(listed, 'pt')}.",
        f"Sheet '{sheet}', column '{column}' ({name[1]}): {judged.message('en')}. "
        f"{_rows_label(listed, 'en')}.",
        sheet, listed,
    )  # fmt: skip


def implied_factors(
    theirs_f: float, ours_f: float, label: str, name: dict[str, str]
) -> dict[str, str]:
    """'A planilha usa 2,07 kg CO2/m³ para Gás natural; a biblioteca, 1,89.' per language."""
    texts = {}
    for lang in ("pt", "en"):
        a, b = significant(theirs_f, lang), significant(ours_f, lang)
        texts[lang] = (
            f"A planilha usa {a} {label} para {name['pt']}; a biblioteca, {b}."
            if lang == "pt"
            else f"The workbook uses {a} {label} for {name['en']}; the library {b}."
        )
    return texts


def factor_differs(  # noqa: PLR0917
    row: int,
    name: dict[str, str],
    quantity: float,
    unit: object,
    numbers: tuple[float, float, float, float],
    gases: list[str],
    uses: list[FactorUse],
    implied: dict[str, str],
    sheet: str,
) -> Finding:
    """'Linha 7: Óleo diesel B, 1.000 L → 2,60 t CO2e calculado vs 2,80 t declarado (−7,1%).
    Difere o CO2: fator CO2 74.100 kg/TJ (IPCC ...); PCI ...': ``numbers`` are ours and the
    workbook's t CO2e, then ours and its biogenic CO2; ``gases`` those that differ, ``uses``
    the factors that made them, ``implied`` the factors both sides imply."""
    o, t, bio_o, bio_t = numbers
    change = (t - o) / o if o else np.nan
    head = {
        lang: (
            f"{'Linha' if lang == 'pt' else 'Row'} {row}: {name[lang]}, "
            f"{number(quantity, 0 if quantity.is_integer() else 2, lang)} {unit} → "
            f"{number(o, 2, lang)} t CO2e "
            + ("calculado vs " if lang == "pt" else "computed vs ")
            + f"{number(t, 2, lang)} t CO2e "
            + ("declarado" if lang == "pt" else "stated")
            + (f" ({'+' if change > 0 else ''}{percent(change, 1, lang)})"
               if np.isfinite(change) else "")
        )
        for lang in ("pt", "en")
    }  # fmt: skip
    if not np.isnan(bio_t) and BIOGENIC_CO2 in gases:
        head["pt"] += f"; CO2 biogênico {number(bio_o, 2)} t vs {number(bio_t, 2)} t"
        head["en"] += f"; biogenic CO2 {number(bio_o, 2, 'en')} t vs {number(bio_t, 2, 'en')} t"
    gas_names = {
        "pt": ", ".join(_gas_label(g, "pt") for g in gases),
        "en": ", ".join(_gas_label(g, "en") for g in gases),
    }
    factors = {lang: "; ".join(_factor_text(u, lang) for u in uses) for lang in ("pt", "en")}
    verb = ("Diferem", "differ") if len(gases) > 1 else ("Difere", "differs")
    pt = f"{head['pt']}. {implied['pt']} {verb[0]} {gas_names['pt']}: {factors['pt']}."
    en = f"{head['en']}. {implied['en']} {gas_names['en']} {verb[1]}: {factors['en']}."
    pt, en = pt.replace(".  ", ". "), en.replace(".  ", ". ")
    return Finding("activity_factor_differs", pt, en, sheet, (int(row),))


def _gas_label(gas: str, lang: str) -> str:
    if gas == BIOGENIC_CO2:
        return "o CO2 biogênico" if lang == "pt" else "Biogenic CO2"
    if gas == "CO2":
        return "o CO2 fóssil" if lang == "pt" else "Fossil CO2"
    return f"o {gas}" if lang == "pt" else gas


def _factor_text(use: FactorUse, lang: str) -> str:
    value = number(use.value, _decimals(use.value), lang)
    if use.unit == "percent":
        shown = f"{value}%"
    elif use.unit == "fraction":
        shown = percent(use.value, 1, lang)
    else:
        shown = f"{value} {unit_label(use.unit, lang=lang)}"  # the role names the gas
    mine = (" [fator do usuário]" if lang == "pt" else " [user's factor]") if use.user else ""
    return f"{use.label(lang)} {shown} ({use.source_in(lang)}){mine}"


def _decimals(value: float) -> int:
    if value == 0 or not np.isfinite(value):
        return 0
    magnitude = int(np.floor(np.log10(abs(value))))
    return max(0, min(8, 3 - magnitude))
