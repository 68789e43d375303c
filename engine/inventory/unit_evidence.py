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

# A title or note states the table's unit only when it speaks of the values: "Emissões em Gg",
# "Unidade: t CO2e", "(Gg)", "million metric tons of CO2e"; "Inventário 2023 da empresa T" is
# no unit.
_SPEAKS_OF_VALUES = re.compile(
    r"emiss|emission|valores|values|unidade|units?\b|co2|ch4|n2o|gee|ghg|equivalente|equivalent"
)
_UNIT_ONLY = re.compile(r"^\W*(?:em |in )?[a-z0-9 ]{1,24}\W*$")


def scale_text(factor: float, language: str) -> str:
    """'× 1.000 para t' / '× 1,000 to t' (or '= t')."""
    if factor == 1.0:
        return "= t"
    if factor > 1:
        amount = number(factor, 0, language)
        return f"× {amount} para t" if language == "pt" else f"× {amount} to t"
    amount = number(1 / factor, 0, language)
    return f"÷ {amount} para t" if language == "pt" else f"÷ {amount} to t"


def _quote(text: str) -> str:
    return " ".join(str(text).split())[:80]


def make(column: str, factor: float, source: UnitSource, text: str, where: tuple[str, str]):
    """One column's unit and where it was read, in both languages."""
    unit = UNIT_NAMES.get(factor, f"{factor:g} t")
    said = _quote(text)
    return UnitEvidence(
        column,
        unit,
        factor,
        source,
        f"'{said}' {where[0]} → {scale_text(factor, 'pt')}",
        f"'{said}' {where[1]} → {scale_text(factor, 'en')}",
    )


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
        of = (f" {cell}", f" {cell}") if cell else ("", "")
        where = {
            "header": (f"no cabeçalho da coluna{of[0]}", f"in the header of column{of[1]}"),
            "units_row": (f"na linha de unidades, coluna{of[0]}",
                          f"in the units row, column{of[1]}"),
            "group_header": (f"no grupo de cabeçalho sobre a coluna{of[0]}",
                             f"in the header group over column{of[1]}"),
        }[source]  # fmt: skip
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
    where = (f"na coluna de unidade '{_quote(unit_column)}'",
             f"in the unit column '{_quote(unit_column)}'")  # fmt: skip
    if len(distinct) == 1:
        said = str(texts[known.index[0]])
        return make(column, distinct[0], "unit_column", said, where)
    names = ", ".join(UNIT_NAMES.get(f, f"{f:g} t") for f in distinct)
    return UnitEvidence(
        column, names, None, "unit_column",
        f"{where[0]}: uma unidade por linha ({names})",
        f"{where[1]}: a unit per row ({names})",
    )  # fmt: skip


def context_evidence(table: SheetTable, column: str, labels: list[str]) -> UnitEvidence | None:
    """The unit the label column's header, a title or note line, or the sheet's name states
    for the whole table."""
    for label in labels:
        if label == column or label not in table.columns:
            continue
        found = mass_unit(label)
        if found is not None:
            cell = f"{column_letter(table.columns.index(label))}{table.header_rows[0]}"
            where = (f"na célula {cell} (cabeçalho dos rótulos)",
                     f"in cell {cell} (the labels' header)")  # fmt: skip
            return make(column, found[0], "label_header", label, where)
    for line in table.context:
        found = _stated_unit(line)
        if found is None:
            continue
        source: UnitSource = "note" if line in table.notes else "title"
        where = (
            ("na nota sob a tabela", "in the note below the table")
            if source == "note"
            else ("no título acima da tabela", "in the title above the table")
        )
        return make(column, found[0], source, line, where)
    found = mass_unit(table.sheet)
    if found is not None:
        where = ("no nome da aba", "in the sheet's name")
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
    scale = ("", "") if factor is None else (
        f" → {scale_text(factor, 'pt')}", f" → {scale_text(factor, 'en')}"
    )  # fmt: skip
    return UnitEvidence(
        column, unit, factor, "user",
        f"escolhida pelo usuário{scale[0]}", f"chosen by the user{scale[1]}",
    )  # fmt: skip


def quantity_evidence(
    column: str, unit: str, source: UnitSource, text: str, where: tuple[str, str]
) -> UnitEvidence:
    """The unit of a quantity of activity data (L, m³, MWh, kg): converted by the factor
    library, so no factor to t."""
    said = _quote(text)
    return UnitEvidence(column, unit, None, source, f"'{said}' {where[0]}", f"'{said}' {where[1]}")


def derived_evidence(column: str, factor: float, anchors: list[str]) -> UnitEvidence:
    """A column whose unit no text states, fixed by the row checks against proven columns."""
    unit = UNIT_NAMES.get(factor, f"{factor:g} t")
    names = ", ".join(f"'{_quote(a)}'" for a in anchors[:3])
    return UnitEvidence(
        column, unit, factor, "check",
        f"pela conferência com {names}, de unidade comprovada → {scale_text(factor, 'pt')}",
        f"from the check against {names}, whose unit is proven → {scale_text(factor, 'en')}",
    )  # fmt: skip


def plausibility_evidence(column: str, factor: float, judged: str) -> UnitEvidence:
    """A unit no text states, proven by the factor the sheet's activity data implies."""
    unit = UNIT_NAMES.get(factor, f"{factor:g} t")
    said = _quote(judged)
    return UnitEvidence(
        column, unit, factor, "plausibility",
        f"pelo fator que '{said}' implica sobre as quantidades da linha (faixa física) → "
        f"{scale_text(factor, 'pt')}",
        f"from the factor '{said}' implies over the row's quantities (physical band) → "
        f"{scale_text(factor, 'en')}",
    )  # fmt: skip


def missing_evidence(column: str, assumed: str = "t") -> UnitEvidence:
    return UnitEvidence(
        column, assumed, 1.0 if assumed == "t" else None, "default",
        f"unidade não informada em lugar nenhum: lida como {assumed} até que você escolha",
        f"no unit stated anywhere: read as {assumed} until you choose",
    )  # fmt: skip
