"""Where a column's unit is written: every numeric column's unit comes with its evidence.

Row checks (a total column against its breakdown, total rows against their rows) are blind to
scale: multiply every column by 1,000 and they still agree. So a unit is read from what the
file says, and the checks only confirm it. The places a workbook states a unit, in the order a
reader trusts them for one column:

1. the column's own header ("CO2 (t)") or the units row under it;
2. a header group above it ("Emissões fósseis (t) / CO2");
3. a unit column beside it ("Total Emission Units" = "t CO2e" on every row);
4. the header cell of the label column ("CO₂e (GWP AR5)" over "(Gg)" in A6, national inventories);
5. a title or note line above or below the table ("Emissions in million metric tons of CO2e",
   cell A1);
6. the sheet's name ("Emissões (Gg)").

A column none of these names has no unit: the reading of the sheet then depends on another
column whose unit is proven (through the row checks), on the user's choice, or it is
ambiguous (``reconcile.AMBIGUOUS``).
"""

from __future__ import annotations

import re

import pandas as pd

from engine.formatting import number
from engine.inventory import fields as F
from engine.inventory.reconcile import UnitEvidence, UnitSource
from engine.inventory.table import SheetTable, column_letter
from engine.inventory.units import UNIT_NAMES, mass_unit
from engine.protocol import fold
from engine.texts import Both, Texts

_TEXTS = Texts(
    "engine.inventory.unit_evidence",
    {
        "scale.up": {"pt": "× {amount} para t", "en": "× {amount} to t"},
        "scale.down": {"pt": "÷ {amount} para t", "en": "÷ {amount} to t"},
        "where.header": {"pt": "no cabeçalho da coluna{of}", "en": "in the header of column{of}"},
        "where.units_row": {
            "pt": "na linha de unidades, coluna{of}",
            "en": "in the units row, column{of}",
        },
        "where.group_header": {
            "pt": "no grupo de cabeçalho sobre a coluna{of}",
            "en": "in the header group over column{of}",
        },
        "where.unit_column": {
            "pt": "na coluna de unidade '{column}'",
            "en": "in the unit column '{column}'",
        },
        "per_row": {
            "pt": "{where}: uma unidade por linha ({names})",
            "en": "{where}: a unit per row ({names})",
        },
        "where.label_header": {
            "pt": "na célula {cell} (cabeçalho dos rótulos)",
            "en": "in cell {cell} (the labels' header)",
        },
        "where.note": {"pt": "na nota sob a tabela", "en": "in the note below the table"},
        "where.title": {"pt": "no título acima da tabela", "en": "in the title above the table"},
        "where.sheet_name": {"pt": "no nome da aba", "en": "in the sheet's name"},
        "user": {"pt": "escolhida pelo usuário{scale}", "en": "chosen by the user{scale}"},
        "check": {
            "pt": "pela conferência com {names}, de unidade comprovada → {scale}",
            "en": "from the check against {names}, whose unit is proven → {scale}",
        },
        "plausibility": {
            "pt": "pelo fator que '{said}' implica sobre as quantidades da linha (faixa física) "
            "→ {scale}",
            "en": "from the factor '{said}' implies over the row's quantities (physical band) → "
            "{scale}",
        },
        "missing": {
            "pt": "unidade não informada em lugar nenhum: lida como {assumed} até que você escolha",
            "en": "no unit stated anywhere: read as {assumed} until you choose",
        },
    },
)

# A title or note states the table's unit only when it speaks of the values: "Emissões em Gg",
# "Unidade: t CO2e", "(Gg)", "million metric tons of CO2e"; "Inventário 2023 da empresa T" is
# no unit.
_SPEAKS_OF_VALUES = re.compile(
    r"emiss|emission|valores|values|unidade|units?\b|co2|ch4|n2o|gee|ghg|equivalente|equivalent"
)
_UNIT_ONLY = re.compile(r"^\W*(?:em |in )?[a-z0-9 ]{1,24}\W*$")


def scale_text(factor: float, language: str) -> str:
    """'× 1.000 para t' / '× 1,000 to t' (or '= t')."""
    return _scale(factor)[language]


def _scale(factor: float) -> Both:
    if factor == 1.0:
        return Both("= t", "= t")  # a symbol, the same in both languages
    key, amount = ("scale.up", factor) if factor > 1 else ("scale.down", 1 / factor)
    return _TEXTS.both(key, amount=Both(number(amount, 0, "pt"), number(amount, 0, "en")))


def _where(where: Both | tuple[str, str]) -> Both:
    return where if isinstance(where, Both) else Both(*where)


def _quote(text: str) -> str:
    return " ".join(str(text).split())[:80]


def make(
    column: str, factor: float, source: UnitSource, text: str, where: Both | tuple[str, str]
) -> UnitEvidence:
    """One column's unit and where it was read, in both languages."""
    unit = UNIT_NAMES.get(factor, f"{factor:g} t")
    said = f"'{_quote(text)}' " + _where(where) + " → " + _scale(factor)
    return UnitEvidence(column, unit, factor, source, said.pt, said.en)


def header_evidence(table: SheetTable, column: str) -> UnitEvidence | None:
    """The unit the column's header (or its header group, or the units row) names."""
    recorded = table.unit_sources.get(column)
    if recorded is not None:
        return recorded
    parts = column.split(F.HEADER_JOIN)
    index = table.columns.index(column) if column in table.columns else None
    cell = f"{column_letter(index)}" if index is not None else ""
    for position in range(len(parts) - 1, -1, -1):
        found = mass_unit(parts[position])
        if found is None:
            continue
        last = position == len(parts) - 1
        units_row = last and len(parts) > 1 and _UNIT_ONLY.match(F.words(parts[position]))
        source: UnitSource = "units_row" if units_row else ("header" if last else "group_header")
        where = _TEXTS.both(f"where.{source}", of=f" {cell}" if cell else "")
        return make(column, found[0], source, parts[position], where)
    return None


def unit_column_evidence(
    column: str, unit_column: str, factors: pd.Series, texts: pd.Series
) -> UnitEvidence | None:
    """A unit column beside the values: one unit for every row, or one per row."""
    known = factors.dropna()
    if known.empty:
        return None
    distinct = sorted(set(known))
    where = _TEXTS.both("where.unit_column", column=_quote(unit_column))
    if len(distinct) == 1:
        said = str(texts[known.index[0]])
        return make(column, distinct[0], "unit_column", said, where)
    names = ", ".join(UNIT_NAMES.get(f, f"{f:g} t") for f in distinct)
    said = _TEXTS.both("per_row", where=where, names=names)
    return UnitEvidence(column, names, None, "unit_column", said.pt, said.en)


def context_evidence(table: SheetTable, column: str, labels: list[str]) -> UnitEvidence | None:
    """The unit the label column's header, a title or note line, or the sheet's name states
    for the whole table."""
    for label in labels:
        if label == column or label not in table.columns:
            continue
        found = mass_unit(label)
        if found is not None:
            cell = f"{column_letter(table.columns.index(label))}{table.header_rows[0]}"
            where = _TEXTS.both("where.label_header", cell=cell)
            return make(column, found[0], "label_header", label, where)
    for line in table.context:
        found = _stated_unit(line)
        if found is None:
            continue
        source: UnitSource = "note" if line in table.notes else "title"
        return make(column, found[0], source, line, _TEXTS.both(f"where.{source}"))
    found = mass_unit(table.sheet)
    if found is not None:
        where = _TEXTS.both("where.sheet_name")
        return make(column, found[0], "sheet_name", table.sheet, where)
    return None


def _stated_unit(line: str) -> tuple[float, str] | None:
    """The unit a title or note line states for the values, if it states one."""
    found = mass_unit(line)
    if found is None:
        return None
    folded = F.words(line)
    if _SPEAKS_OF_VALUES.search(folded) or _UNIT_ONLY.match(folded):
        return found
    text = fold(line)
    at = text.find(found[1])
    before = text[max(0, at - 4) : at] if at >= 0 else ""
    return found if "(" in before or before.endswith(("em ", "in ")) else None


def user_evidence(column: str, unit: str, *, quantity: bool = False) -> UnitEvidence:
    """The unit the user chose: of emissions (to t), or of a quantity of activity data."""
    factor = None if quantity else {name: f for f, name in UNIT_NAMES.items()}[unit]
    said = _TEXTS.both("user", scale="" if factor is None else " → " + _scale(factor))
    return UnitEvidence(column, unit, factor, "user", said.pt, said.en)


def quantity_evidence(
    column: str, unit: str, source: UnitSource, text: str, where: Both | tuple[str, str]
) -> UnitEvidence:
    """The unit of a quantity of activity data (L, m³, MWh, kg): converted by the factor
    library, so no factor to t."""
    said = f"'{_quote(text)}' " + _where(where)
    return UnitEvidence(column, unit, None, source, said.pt, said.en)


def derived_evidence(column: str, factor: float, anchors: list[str]) -> UnitEvidence:
    """A column whose unit no text states, fixed by the row checks against proven columns."""
    unit = UNIT_NAMES.get(factor, f"{factor:g} t")
    names = ", ".join(f"'{_quote(a)}'" for a in anchors[:3])
    said = _TEXTS.both("check", names=names, scale=_scale(factor))
    return UnitEvidence(column, unit, factor, "check", said.pt, said.en)


def plausibility_evidence(column: str, factor: float, judged: str) -> UnitEvidence:
    """A unit no text states, proven by the factor the sheet's activity data implies."""
    unit = UNIT_NAMES.get(factor, f"{factor:g} t")
    said = _quote(judged)
    text = _TEXTS.both("plausibility", said=said, scale=_scale(factor))
    return UnitEvidence(column, unit, factor, "plausibility", text.pt, text.en)


def missing_evidence(column: str, assumed: str = "t") -> UnitEvidence:
    said = _TEXTS.both("missing", assumed=assumed)
    return UnitEvidence(column, assumed, 1.0 if assumed == "t" else None, "default", said.pt,
                        said.en)  # fmt: skip
