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
from engine.texts import LANGS, Both, Texts

_TEXTS = Texts(
    "engine.inventory.activity.findings",
    {
        "row": {"pt": "Linha {rows}", "en": "Row {rows}"},
        "rows": {"pt": "Linhas {rows}", "en": "Rows {rows}"},
        "did_you_mean": {
            "pt": "Para '{text}', você quis dizer: {names}?",
            "en": "For '{text}', did you mean: {names}?",
        },
        "activity_unknown": {
            "pt": "{rows} não contada(s): atividade não reconhecida ({names}){why}. {hint}"
            "Nada é calculado por aproximação: corrija o nome do combustível ou envie o fator.",
            "en": "{rows} not counted: activity not recognised ({names}){why}. {hint}"
            "Nothing is computed by guesswork: fix the fuel's name or upload the factor.",
        },
        "activity_without_period": {
            "pt": "{rows} não contada(s): sem data, mês ou ano para escolher os "
            "fatores. Inclua uma coluna de ano ou o ano no nome da aba.",
            "en": "{rows} not counted: no date, month or year to pick the "
            "factors by. Add a year column or the year to the sheet's name.",
        },
        "activity_not_computed": {
            "pt": "{rows} não contada(s): {why}",
            "en": "{rows} not counted: {why}",
        },
        "activity_unit_assumed": {
            "pt": "A unidade das quantidades não está escrita em lugar nenhum da aba: lidas como "
            "{unit}, a unidade usual de recarga de refrigerante. Confira e informe a unidade "
            "no cabeçalho ('Recarga (kg)').",
            "en": "The quantities' unit is written nowhere on the sheet: read as {unit}, the "
            "usual unit of a refrigerant recharge. Check it and state the unit in the header "
            "('Recharge (kg)').",
        },
        "more_rows_differ": {
            "pt": "Mais {n} linhas diferem do cálculo pelos dados de atividade em mais de "
            "2%: {rows}.",
            "en": "{n} more rows differ from the activity-data computation by more than "
            "2%: {rows}.",
        },
        "implausible": {
            "pt": "Aba '{sheet}', coluna '{column}' ({name}): {judged}. {rows}.",
            "en": "Sheet '{sheet}', column '{column}' ({name}): {judged}. {rows}.",
        },
        "implied_factors": {
            "pt": "A planilha usa {theirs} {label} para {name}; a biblioteca, {ours}.",
            "en": "The workbook uses {theirs} {label} for {name}; the library {ours}.",
        },
        "differs_head": {
            "pt": "Linha {row}: {name}, {quantity} {unit} → {ours} t CO2e calculado vs "
            "{theirs} t CO2e declarado{change}",
            "en": "Row {row}: {name}, {quantity} {unit} → {ours} t CO2e computed vs "
            "{theirs} t CO2e stated{change}",
        },
        "differs_biogenic": {
            "pt": "; CO2 biogênico {ours} t vs {theirs} t",
            "en": "; biogenic CO2 {ours} t vs {theirs} t",
        },
        "differs_one": {
            "pt": "{head}. {implied} Difere {gases}: {factors}.",
            "en": "{head}. {implied} {gases} differs: {factors}.",
        },
        "differs_many": {
            "pt": "{head}. {implied} Diferem {gases}: {factors}.",
            "en": "{head}. {implied} {gases} differ: {factors}.",
        },
        "gas.biogenic": {"pt": "o CO2 biogênico", "en": "Biogenic CO2"},
        "gas.fossil": {"pt": "o CO2 fóssil", "en": "Fossil CO2"},
        "gas.other": {"pt": "o {gas}", "en": "{gas}"},
        "users_factor": {"pt": " [fator do usuário]", "en": " [user's factor]"},
    },
)


def _number(value: float, decimals: int) -> Both:
    return Both(*(number(value, decimals, lang) for lang in LANGS))


# --- rows not counted -------------------------------------------------------------------------


def _rows_label(rows: tuple[int, ...]) -> Both:
    return _TEXTS.both("row" if len(rows) == 1 else "rows", rows=rows_text(rows))


def _finding(code: str, text: Both, sheet: str, rows: tuple[int, ...]) -> Finding:
    return Finding(code, text.pt, text.en, sheet, rows)


def row_findings(rows: ActivityRows, sheet: str) -> list[Finding]:
    """Rows not counted: an activity the library does not know, no period, no factor."""
    findings = []
    if not rows.unresolved.empty:
        listed = rows.unresolved
        rows_ = tuple(sorted(int(r) for r in listed["row"]))
        texts = list(dict.fromkeys(listed["text"]))[:5]
        # Why each text was not read, as the reader said it in each language (data).
        why = Both(*("; ".join(dict.fromkeys(w for w in listed[f"why_{lang}"] if w))
                     for lang in LANGS))  # fmt: skip
        near = {t: nearest(t, 3) for t in texts[:2]} if not why.pt else {}
        hint = Both.join(" ", [
            _TEXTS.both("did_you_mean", text=t, names=Both(
                *(", ".join(a.name[lang] for a in s) for lang in LANGS)))
            for t, s in near.items()
        ])  # fmt: skip
        names = ", ".join(f"'{t}'" for t in texts)
        findings.append(_finding(
            "activity_unknown",
            _TEXTS.both("activity_unknown", rows=_rows_label(rows_), names=names,
                        why=why.map(lambda w: f": {w}" if w else ""),
                        hint=hint.map(lambda h: f"{h} " if h else "")),
            sheet, rows_,
        ))  # fmt: skip
    if rows.missing_period:
        rows_ = tuple(rows.missing_period)
        findings.append(_finding(
            "activity_without_period",
            _TEXTS.both("activity_without_period", rows=_rows_label(rows_)),
            sheet, rows_,
        ))  # fmt: skip
    if rows.failures:
        rows_ = tuple(sorted({r for failed, _, _ in rows.failures for r in failed}))
        # The errors' own messages, each already in both languages.
        why = Both(
            " ".join(dict.fromkeys(m for _, m, _ in rows.failures)),
            " ".join(dict.fromkeys(m for _, _, m in rows.failures)),
        )
        findings.append(_finding(
            "activity_not_computed",
            _TEXTS.both("activity_not_computed", rows=_rows_label(rows_), why=why),
            sheet, rows_,
        ))  # fmt: skip
    if rows.assumed_unit and len(rows.requests):
        rows_ = tuple(sorted({int(r) for r in rows.requests["row"]}))
        findings.append(_finding(
            "activity_unit_assumed",
            _TEXTS.both("activity_unit_assumed", unit=rows.assumed_unit),
            sheet, rows_,
        ))  # fmt: skip
    return findings


# --- the workbook's own emissions against ours ------------------------------------------------


def more_rows_differ(rest: tuple[int, ...], sheet: str) -> Finding:
    """The rows beyond the ones a sheet's findings name one by one, counted in one more."""
    text = _TEXTS.both("more_rows_differ", n=len(rest), rows=rows_text(rest))
    return _finding("activity_factor_differs", text, sheet, rest)


def implausible(
    sheet: str, column: str, name: tuple[object, object], judged: Judgement,
    listed: tuple[int, ...],
) -> Finding:  # fmt: skip
    """The factor a column's figures imply, outside the activity's physical band."""
    text = _TEXTS.both(
        "implausible",
        sheet=sheet,
        column=column,
        name=Both(str(name[0]), str(name[1])),
        judged=Both(*(judged.message(lang) for lang in LANGS)),
        rows=_rows_label(listed),
    )
    return _finding("activity_implausible", text, sheet, listed)


def implied_factors(theirs_f: float, ours_f: float, label: str, name: dict[str, str]) -> Both:
    """'A planilha usa 2,07 kg CO2/m³ para Gás natural; a biblioteca, 1,89.' per language."""
    return _TEXTS.both(
        "implied_factors",
        theirs=Both(*(significant(theirs_f, lang) for lang in LANGS)),
        ours=Both(*(significant(ours_f, lang) for lang in LANGS)),
        label=label,
        name=Both(name["pt"], name["en"]),
    )


def factor_differs(  # noqa: PLR0917
    row: int,
    name: dict[str, str],
    quantity: float,
    unit: object,
    numbers: tuple[float, float, float, float],
    gases: list[str],
    uses: list[FactorUse],
    implied: Both,
    sheet: str,
) -> Finding:
    """'Linha 7: Óleo diesel B, 1.000 L → 2,60 t CO2e calculado vs 2,80 t declarado (−7,1%).
    Difere o CO2: fator CO2 74.100 kg/TJ (IPCC ...); PCI ...': ``numbers`` are ours and the
    workbook's t CO2e, then ours and its biogenic CO2; ``gases`` those that differ, ``uses``
    the factors that made them, ``implied`` the factors both sides imply."""
    o, t, bio_o, bio_t = numbers
    change = (t - o) / o if o else np.nan
    shown_change = (
        Both(*(f" ({'+' if change > 0 else ''}{percent(change, 1, lang)})" for lang in LANGS))
        if np.isfinite(change)
        else ""
    )
    head = _TEXTS.both(
        "differs_head",
        row=row,
        name=Both(name["pt"], name["en"]),
        quantity=_number(quantity, 0 if quantity.is_integer() else 2),
        unit=unit,
        ours=_number(o, 2),
        theirs=_number(t, 2),
        change=shown_change,
    )
    if not np.isnan(bio_t) and BIOGENIC_CO2 in gases:
        head += _TEXTS.both("differs_biogenic", ours=_number(bio_o, 2), theirs=_number(bio_t, 2))
    text = _TEXTS.both(
        "differs_many" if len(gases) > 1 else "differs_one",
        head=head,
        implied=implied,
        gases=Both(*(", ".join(_gas_label(g, lang) for g in gases) for lang in LANGS)),
        factors=Both(*("; ".join(_factor_text(u, lang) for u in uses) for lang in LANGS)),
    ).map(lambda said: said.replace(".  ", ". "))
    return _finding("activity_factor_differs", text, sheet, (int(row),))


def _gas_label(gas: str, lang: str) -> str:
    if gas == BIOGENIC_CO2:
        return _TEXTS("gas.biogenic", lang)
    if gas == "CO2":
        return _TEXTS("gas.fossil", lang)
    return _TEXTS("gas.other", lang, gas=gas)


def _factor_text(use: FactorUse, lang: str) -> str:
    value = number(use.value, _decimals(use.value), lang)
    if use.unit == "percent":
        shown = f"{value}%"
    elif use.unit == "fraction":
        shown = percent(use.value, 1, lang)
    else:
        shown = f"{value} {unit_label(use.unit, lang=lang)}"  # the role names the gas
    mine = _TEXTS("users_factor", lang) if use.user else ""
    return f"{use.label(lang)} {shown} ({use.source_in(lang)}){mine}"


def _decimals(value: float) -> int:
    if value == 0 or not np.isfinite(value):
        return 0
    magnitude = int(np.floor(np.log10(abs(value))))
    return max(0, min(8, 3 - magnitude))
