"""What can go wrong when turning activity data into emissions, said in Portuguese and English.

Each error names what the user must fix: the activity (with the nearest known ones), the
unit (and the row, from ingestion), the period, or the line and column of a factor file.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.errors import AekoError, LocalizedError
from engine.texts import Both, Texts

_TEXTS = Texts(
    "engine.emissions.errors",
    {
        "unknown_activity": {
            "pt": "Atividade desconhecida: '{text}'. Não calculo por aproximação.",
            "en": "Unknown activity: '{text}'. I do not compute by guesswork.",
        },
        "did_you_mean": {
            "pt": " Você quis dizer: {suggestions}?",
            "en": " Did you mean: {suggestions}?",
        },
        "row": {"pt": " (linha {row})", "en": " (row {row})"},
        "unit_unknown": {
            "pt": "Unidade não reconhecida: '{unit}'{row}. Use, por exemplo, L, m³, kg, t, kWh, "
            "MWh, GJ.",
            "en": "Unrecognised unit: '{unit}'{row}. Use, for example, L, m³, kg, t, kWh, MWh, GJ.",
        },
        "unit_for": {"pt": " para {activity}", "en": " for {activity}"},
        "unit_not_convertible": {
            "pt": "A unidade '{unit}'{row} não se converte{what}: esperava uma unidade de "
            "{dimension}.",
            "en": "The unit '{unit}'{row} cannot be converted{what}: expected a unit of "
            "{dimension}.",
        },
        # How the dimensions the activities accept read in a message ("volume, mass or energy").
        "dimension.volume": {"pt": "volume (L, m³)", "en": "volume (L, m³)"},
        "dimension.mass": {"pt": "massa (kg, t)", "en": "mass (kg, t)"},
        "dimension.energy": {"pt": "energia (kWh, MWh, GJ)", "en": "energy (kWh, MWh, GJ)"},
        "dimension.volume/mass/energy": {
            "pt": "volume, massa ou energia (L, m³, kg, t, GJ)",
            "en": "volume, mass or energy (L, m³, kg, t, GJ)",
        },
        "dimension.volume/mass": {
            "pt": "volume ou massa (L, m³, kg, t)",
            "en": "volume or mass (L, m³, kg, t)",
        },
        "dimension.mass/energy": {
            "pt": "massa ou energia (kg, t, GJ)",
            "en": "mass or energy (kg, t, GJ)",
        },
        "dimension.fraction": {
            "pt": "fração (fraction, percent)",
            "en": "fraction (fraction, percent)",
        },
        "period_unknown": {
            "pt": "Período não reconhecido: '{period}'. Informe um ano (2024), um mês "
            "(2024-06) ou uma data (2024-06-15).",
            "en": "Unrecognised period: '{period}'. Give a year (2024), a month (2024-06) "
            "or a date (2024-06-15).",
        },
        "needed_for": {"pt": " (necessário para {activity})", "en": " (needed for {activity})"},
        "period_monthly_only": {
            "pt": "Não há fator anual de {what} para {period}{needed}, só mensais: "
            "informe o consumo por mês (ex.: {period}-06).",
            "en": "There is no annual factor for {what} in {period}{needed}, only monthly "
            "ones: give the consumption per month (e.g. {period}-06).",
        },
        "period_not_valid": {
            "pt": "Nenhum fator de {what} vale para {period}{needed}. A biblioteca tem: "
            "{available}.",
            "en": "No factor for {what} is valid for {period}{needed}. The library has: "
            "{available}.",
        },
        "period_no_factor": {
            "pt": "A biblioteca não tem fator de {what}{needed}. Envie o seu em um CSV de fatores.",
            "en": "The library has no factor for {what}{needed}. Upload yours in a factor CSV.",
        },
        "file_column": {"pt": ", coluna '{column}'", "en": ", column '{column}'"},
        "file_problem": {
            "pt": "{source}, linha {line}{column}: {problem}",
            "en": "{source}, line {line}{column}: {problem}",
        },
    },
)


class EmissionsError(LocalizedError, AekoError):
    """Base class: ``message_pt`` and ``message_en`` are ready to show to the user."""

    code = "emissions_error"


def _row_suffix(row: object | None) -> Both | str:
    return "" if row is None else _TEXTS.both("row", row=row)


def _dimension(expected: str) -> Both | str:
    key = f"dimension.{expected}"
    return _TEXTS.both(key) if key in _TEXTS else expected


class UnknownActivityError(EmissionsError):
    """The text names no activity the library knows; ``suggestions`` are the nearest ids."""

    code = "unknown_activity"

    def __init__(self, text: str, suggestions: Sequence[tuple[str, str, str]] = ()) -> None:
        # suggestions: (id, name_pt, name_en), nearest first
        self.text = text
        self.suggestions = tuple(s[0] for s in suggestions)
        message = _TEXTS.both("unknown_activity", text=text)
        if suggestions:
            names = Both(
                "; ".join(f"{n} ({i})" for i, n, _ in suggestions),
                "; ".join(f"{n} ({i})" for i, _, n in suggestions),
            )
            message += _TEXTS.both("did_you_mean", suggestions=names)
        super().__init__(message)


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
        row_text = _row_suffix(row)
        if expected is None:
            super().__init__(_TEXTS.both("unit_unknown", unit=unit, row=row_text))
            return
        what = _TEXTS.both("unit_for", activity=activity) if activity else ""
        super().__init__(
            _TEXTS.both(
                "unit_not_convertible",
                unit=unit,
                row=row_text,
                what=what,
                dimension=_dimension(expected),
            )
        )

    def at_row(self, row: object) -> UnitError:
        """The same error, naming the row of the sheet it came from."""
        return UnitError(self.unit, row=row, expected=self.expected, activity=self.activity)


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
            super().__init__(_TEXTS.both("period_unknown", period=period))
            return
        what = key if gas in (None, "-") else f"{key} ({gas})"
        needed = _TEXTS.both("needed_for", activity=activity) if activity else ""
        if by_month:
            text = "period_monthly_only"
        elif available:
            text = "period_not_valid"
        else:
            text = "period_no_factor"
        super().__init__(
            _TEXTS.both(text, what=what, period=period, needed=needed, available=available)
        )


class FactorFileError(EmissionsError):
    """A factor CSV that cannot be read: names its line and column."""

    code = "factor_file"

    def __init__(self, source_name: str, line: int, column: str | None, problem: Both) -> None:
        self.source_name = source_name
        self.line = line
        self.column = column
        where = _TEXTS.both("file_column", column=column) if column else ""
        super().__init__(
            _TEXTS.both(
                "file_problem", source=source_name, line=line, column=where, problem=problem
            )
        )
