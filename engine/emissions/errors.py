"""What can go wrong when turning activity data into emissions, said in Portuguese and English.

Each error names what the user must fix: the activity (with the nearest known ones), the
unit (and the row, from ingestion), the period, or the line and column of a factor file.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.errors import AekoError, LocalizedError


class EmissionsError(LocalizedError, AekoError):
    """Base class: ``message_pt`` and ``message_en`` are ready to show to the user."""

    code = "emissions_error"


def _row_suffix(row: object | None) -> tuple[str, str]:
    if row is None:
        return "", ""
    return f" (linha {row})", f" (row {row})"


class UnknownActivityError(EmissionsError):
    """The text names no activity the library knows; ``suggestions`` are the nearest ids."""

    code = "unknown_activity"

    def __init__(self, text: str, suggestions: Sequence[tuple[str, str, str]] = ()) -> None:
        # suggestions: (id, name_pt, name_en), nearest first
        self.text = text
        self.suggestions = tuple(s[0] for s in suggestions)
        pt = f"Atividade desconhecida: '{text}'. Não calculo por aproximação."
        en = f"Unknown activity: '{text}'. I do not compute by guesswork."
        if suggestions:
            pt += " Você quis dizer: " + "; ".join(f"{n} ({i})" for i, n, _ in suggestions) + "?"
            en += " Did you mean: " + "; ".join(f"{n} ({i})" for i, _, n in suggestions) + "?"
        super().__init__(pt, en)


class UnitError(EmissionsError):
    """A unit pint cannot read, or one that cannot measure this activity."""

    code = "unit_error"

    def __init__(
        self,
        unit: str,
        *,
        row: object | None = None,
        expected: str | None = None,
        activity: str | None = None,
    ) -> None:
        self.unit = unit
        self.row = row
        self.expected = expected
        self.activity = activity
        row_pt, row_en = _row_suffix(row)
        if expected is None:
            pt = (
                f"Unidade não reconhecida: '{unit}'{row_pt}. "
                "Use, por exemplo, L, m³, kg, t, kWh, MWh, GJ."
            )
            en = (
                f"Unrecognised unit: '{unit}'{row_en}. "
                "Use, for example, L, m³, kg, t, kWh, MWh, GJ."
            )
        else:
            what_pt = f" para {activity}" if activity else ""
            what_en = f" for {activity}" if activity else ""
            pt = (
                f"A unidade '{unit}'{row_pt} não se converte{what_pt}: "
                f"esperava uma unidade de {_DIMENSIONS_PT.get(expected, expected)}."
            )
            en = (
                f"The unit '{unit}'{row_en} cannot be converted{what_en}: "
                f"expected a unit of {_DIMENSIONS_EN.get(expected, expected)}."
            )
        super().__init__(pt, en)

    def at_row(self, row: object) -> UnitError:
        """The same error, naming the row of the sheet it came from."""
        return UnitError(self.unit, row=row, expected=self.expected, activity=self.activity)


# How the unit dimensions the activities accept read in a message ("volume, mass or energy").
_DIMENSIONS_PT = {
    "volume": "volume (L, m³)",
    "mass": "massa (kg, t)",
    "energy": "energia (kWh, MWh, GJ)",
    "volume/mass/energy": "volume, massa ou energia (L, m³, kg, t, GJ)",
    "volume/mass": "volume ou massa (L, m³, kg, t)",
    "mass/energy": "massa ou energia (kg, t, GJ)",
    "fraction": "fração (fraction, percent)",
}
_DIMENSIONS_EN = {
    "volume": "volume (L, m³)",
    "mass": "mass (kg, t)",
    "energy": "energy (kWh, MWh, GJ)",
    "volume/mass/energy": "volume, mass or energy (L, m³, kg, t, GJ)",
    "volume/mass": "volume or mass (L, m³, kg, t)",
    "mass/energy": "mass or energy (kg, t, GJ)",
    "fraction": "fraction (fraction, percent)",
}


class PeriodError(EmissionsError):
    """No factor is valid for the period asked, or the period itself cannot be read."""

    code = "period_error"

    def __init__(
        self,
        period: str,
        *,
        key: str | None = None,
        gas: str | None = None,
        available: str | None = None,
        activity: str | None = None,
        by_month: bool = False,
    ) -> None:
        self.period = period
        self.key = key
        self.gas = gas
        self.activity = activity
        if key is None:
            pt = (
                f"Período não reconhecido: '{period}'. Informe um ano (2024), um mês "
                "(2024-06) ou uma data (2024-06-15)."
            )
            en = (
                f"Unrecognised period: '{period}'. Give a year (2024), a month (2024-06) "
                "or a date (2024-06-15)."
            )
            super().__init__(pt, en)
            return
        what = key if gas in (None, "-") else f"{key} ({gas})"
        for_pt = f" (necessário para {activity})" if activity else ""
        for_en = f" (needed for {activity})" if activity else ""
        if by_month:
            pt = (
                f"Não há fator anual de {what} para {period}{for_pt}, só mensais: "
                f"informe o consumo por mês (ex.: {period}-06)."
            )
            en = (
                f"There is no annual factor for {what} in {period}{for_en}, only monthly "
                f"ones: give the consumption per month (e.g. {period}-06)."
            )
        elif available:
            pt = (
                f"Nenhum fator de {what} vale para {period}{for_pt}. A biblioteca tem: {available}."
            )
            en = (
                f"No factor for {what} is valid for {period}{for_en}. The library has: {available}."
            )
        else:
            pt = f"A biblioteca não tem fator de {what}{for_pt}. Envie o seu em um CSV de fatores."
            en = f"The library has no factor for {what}{for_en}. Upload yours in a factor CSV."
        super().__init__(pt, en)


class FactorFileError(EmissionsError):
    """A factor CSV that cannot be read: names its line and column."""

    code = "factor_file"

    def __init__(
        self, source_name: str, line: int, column: str | None, problem_pt: str, problem_en: str
    ) -> None:
        self.source_name = source_name
        self.line = line
        self.column = column
        where_pt = f"{source_name}, linha {line}" + (f", coluna '{column}'" if column else "")
        where_en = f"{source_name}, line {line}" + (f", column '{column}'" if column else "")
        super().__init__(f"{where_pt}: {problem_pt}", f"{where_en}: {problem_en}")
