"""Bad input says what went wrong and what to do, in Portuguese and English."""

from __future__ import annotations

from collections.abc import Sequence

from engine.errors import AekoError, LocalizedError
from engine.formatting import number

# Defined with the GWPs (engine.gases), which cannot import this package; kept importable here.
from engine.gases.errors import UnknownGwpSetError  # noqa: F401
from engine.texts import Both, Texts

_TEXTS = Texts(
    "engine.inventory.errors",
    {
        "empty_file": {
            "pt": "O arquivo está vazio. Envie a planilha do inventário com os dados preenchidos.",
            "en": "The file is empty. Upload the inventory spreadsheet with its data filled in.",
        },
        "unsupported_format": {
            "pt": "Formato não suportado: {filename}. Envie .xlsx, .xlsm, .xls, .ods, .csv ou "
            ".txt.",
            "en": "Unsupported format: {filename}. Upload .xlsx, .xlsm, .xls, .ods, .csv or .txt.",
        },
        "format_mismatch": {
            "pt": "O arquivo {filename} não é o que a extensão diz: o conteúdo é {actual}. "
            "Salve-o novamente no formato certo ou corrija a extensão.",
            "en": "The file {filename} is not what its extension says: its content is {actual}. "
            "Save it again in the right format or fix the extension.",
        },
        "corrupt_file": {
            "pt": "Não foi possível abrir {filename}: o arquivo está corrompido ou incompleto. "
            "Abra-o no Excel ou LibreOffice, salve uma nova cópia e envie de novo.",
            "en": "Could not open {filename}: the file is corrupt or incomplete. Open it in Excel "
            "or LibreOffice, save a new copy and upload it again.",
        },
        "password_protected": {
            "pt": "{filename} está protegido por senha. Remova a senha (Arquivo > Informações > "
            "Proteger pasta de trabalho) e envie de novo.",
            "en": "{filename} is password-protected. Remove the password (File > Info > Protect "
            "Workbook) and upload it again.",
        },
        "no_table": {
            "pt": "Nenhuma tabela de emissões encontrada em {filename}. A planilha precisa de uma "
            "linha de cabeçalho (ex.: Fonte, Gás, Emissões) seguida das linhas de dados.",
            "en": "No emissions table found in {filename}. The sheet needs a header row (e.g. "
            "Source, Gas, Emissions) followed by data rows.",
        },
        "no_emissions_column": {
            "pt": "Nenhuma coluna de emissões encontrada. Colunas vistas: {seen}. Inclua uma "
            "coluna como 'Emissões (t CO2e)' ou uma por gás, como 'CO2 (t)', ou indique o "
            "mapeamento.",
            "en": "No emissions column found. Columns seen: {seen}. Add a column such as "
            "'Emissions (tCO2e)' or one per gas, such as 'CO2 (t)', or set the mapping.",
        },
        "file_too_large": {
            "pt": "O arquivo tem {size} MB; o limite é {limit} MB. Remova abas "
            "que não fazem parte do inventário ou envie um CSV.",
            "en": "The file is {size} MB; the limit is {limit} MB. "
            "Remove sheets that are not part of the inventory or upload a CSV.",
        },
        "too_many_rows": {
            "pt": "A planilha tem mais de {limit} linhas ({rows}). Agregue os "
            "dados por fonte e gás ou divida o inventário em arquivos menores.",
            "en": "The sheet has more than {limit} rows ({rows}). "
            "Aggregate the data by source and gas or split the inventory into smaller files.",
        },
        "inflated_file": {
            "pt": "{filename} não foi aberto: {reason}. Isso não acontece com um inventário "
            "comum; salve uma nova cópia só com as abas do inventário ou envie um CSV.",
            "en": "{filename} was not opened: {reason}. An ordinary inventory does not do this; "
            "save a new copy with only the inventory sheets or upload a CSV.",
        },
        "inflated.size": {
            "pt": "descompactado, ocuparia ao menos {size} MB (o limite é {limit} MB)",
            "en": "uncompressed, it would take at least {size} MB (the limit is {limit} MB)",
        },
        "inflated.ratio": {
            "pt": "a parte {member} se expande {ratio} vezes ao descompactar",
            "en": "its part {member} inflates {ratio} times when uncompressed",
        },
        "inflated.cells": {
            "pt": "a aba {sheet} ocupa {cells} células (o limite é {limit})",
            "en": "sheet {sheet} spans {cells} cells (the limit is {limit})",
        },
        "inflated.lying": {
            "pt": "a parte {member} é maior do que o tamanho que o arquivo declara",
            "en": "its part {member} is larger than the size the file declares",
        },
        "gwp_view_missing": {
            "pt": "As abas {names} são visões dos mesmos dados em CO2e com outros conjuntos de "
            "GWP, e não há abas por gás para calcular com {gwp_set}. Escolha o conjunto de GWP "
            "de uma dessas abas ou inclua as abas por gás.",
            "en": "Sheets {names} are views of the same data in CO2e under other GWP sets, and "
            "there are no per-gas sheets to compute {gwp_set} from. Choose the GWP set of one "
            "of those sheets or include the per-gas sheets.",
        },
        # How an activity's accepted dimensions read in a message.
        "dimension.volume": {"pt": "volume (L, m³)", "en": "volume (L, m³)"},
        "dimension.mass": {"pt": "massa (kg, t)", "en": "mass (kg, t)"},
        "dimension.energy": {"pt": "energia (kWh, MWh, GJ)", "en": "energy (kWh, MWh, GJ)"},
        "dimension.mass_distance": {
            "pt": "massa × distância (t·km)",
            "en": "mass × distance (t·km)",
        },
        "or": {"pt": " ou ", "en": " or "},
        "where": {"pt": "Aba '{sheet}', linha {row}", "en": "Sheet '{sheet}', row {row}"},
        "activity_no_unit": {
            "pt": "{where}: a quantidade de {activity} não tem unidade. Informe-a em uma "
            "coluna de unidade, no cabeçalho ('Consumo (L)') ou em uma linha de unidades.",
            "en": "{where}: the quantity of {activity} has no unit. State it in a unit "
            "column, in the header ('Consumption (L)') or in a units row.",
        },
        "activity_unit": {
            "pt": "{where}: a unidade '{unit}' não se converte para {activity}{wanted}. "
            "Corrija a unidade na planilha.",
            "en": "{where}: the unit '{unit}' cannot be converted for {activity}{wanted}. "
            "Fix the unit in the workbook.",
        },
        "activity_unit_wanted": {
            "pt": "; use uma unidade de {wanted}",
            "en": "; use a unit of {wanted}",
        },
        "activity_not_computed": {
            "pt": "Há dados de atividade, mas as emissões não puderam ser calculadas: "
            "{reasons} {plain}",
            "en": "There is activity data, but its emissions could not be computed: "
            "{reasons} {plain}",
        },
    },
)


def _number(value: float, decimals: int) -> Both:
    """A number in each language's notation (1.234,5 / 1,234.5)."""
    return Both(number(value, decimals), number(value, decimals, "en"))


class InventoryError(LocalizedError, AekoError):
    """Base class: ``message_pt`` and ``message_en`` are ready to show to the user."""

    code = "inventory_error"


class EmptyFileError(InventoryError):
    code = "empty_file"

    def __init__(self) -> None:
        super().__init__(_TEXTS.both("empty_file"))


class UnsupportedFormatError(InventoryError):
    code = "unsupported_format"

    def __init__(self, filename: str) -> None:
        super().__init__(_TEXTS.both("unsupported_format", filename=filename))


class FormatMismatchError(InventoryError):
    code = "format_mismatch"

    def __init__(self, filename: str, actual: str) -> None:
        super().__init__(_TEXTS.both("format_mismatch", filename=filename, actual=actual))


class CorruptFileError(InventoryError):
    code = "corrupt_file"

    def __init__(self, filename: str) -> None:
        super().__init__(_TEXTS.both("corrupt_file", filename=filename))


class PasswordProtectedError(InventoryError):
    code = "password_protected"

    def __init__(self, filename: str) -> None:
        super().__init__(_TEXTS.both("password_protected", filename=filename))


class NoTableFoundError(InventoryError):
    code = "no_table"

    def __init__(self, filename: str) -> None:
        super().__init__(_TEXTS.both("no_table", filename=filename))


class NoEmissionsColumnError(InventoryError):
    code = "no_emissions_column"

    def __init__(self, columns_seen: Sequence[str]) -> None:
        self.columns_seen = tuple(columns_seen)
        seen = ", ".join(self.columns_seen) or "—"
        super().__init__(_TEXTS.both("no_emissions_column", seen=seen))


class FileTooLargeError(InventoryError):
    code = "file_too_large"

    def __init__(self, size_bytes: int, limit_bytes: int) -> None:
        size, limit = size_bytes / 1_048_576, limit_bytes / 1_048_576
        super().__init__(
            _TEXTS.both("file_too_large", size=_number(size, 1), limit=_number(limit, 0))
        )


class TooManyRowsError(InventoryError):
    code = "too_many_rows"

    def __init__(self, rows: int, limit: int) -> None:
        super().__init__(
            _TEXTS.both("too_many_rows", limit=_number(limit, 0), rows=_number(rows, 0))
        )


class InflatedFileError(InventoryError):
    """A workbook (a zip) that would inflate far past what an inventory needs: refused from
    its directory and a bounded read, before any parser holds it in memory."""

    code = "inflated_file"

    def __init__(self, filename: str, reason: Both) -> None:
        super().__init__(_TEXTS.both("inflated_file", filename=filename, reason=reason))

    @classmethod
    def size(cls, filename: str, size_bytes: int, limit_bytes: int) -> InflatedFileError:
        size, limit = size_bytes / 1_048_576, limit_bytes / 1_048_576
        return cls(
            filename,
            _TEXTS.both("inflated.size", size=_number(size, 0), limit=_number(limit, 0)),
        )

    @classmethod
    def ratio(cls, filename: str, member: str, ratio: float) -> InflatedFileError:
        return cls(filename, _TEXTS.both("inflated.ratio", member=member, ratio=_number(ratio, 0)))

    @classmethod
    def cells(cls, filename: str, sheet: str, cells: int, limit: int) -> InflatedFileError:
        return cls(
            filename,
            _TEXTS.both(
                "inflated.cells", sheet=sheet, cells=_number(cells, 0), limit=_number(limit, 0)
            ),
        )

    @classmethod
    def lying(cls, filename: str, member: str) -> InflatedFileError:
        return cls(filename, _TEXTS.both("inflated.lying", member=member))


class GwpViewMissingError(InventoryError):
    code = "gwp_view_missing"

    def __init__(self, gwp_set: str, sheets: Sequence[str]) -> None:
        self.sheets = tuple(sheets)
        names = ", ".join(f"'{s}'" for s in self.sheets)
        super().__init__(_TEXTS.both("gwp_view_missing", names=names, gwp_set=gwp_set))


def _dimension(kind: str) -> Both:
    key = f"dimension.{kind}"
    return _TEXTS.both(key) if key in _TEXTS else Both(kind, kind)


class ActivityUnitError(InventoryError):
    """A quantity of activity data whose unit is missing or cannot be converted: names the
    sheet, the row and the unit, so the user can fix that cell."""

    code = "activity_unit"

    def __init__(  # noqa: PLR0917 - every part of the message the user needs
        self,
        sheet: str,
        row: int,
        unit: str,
        activity_pt: str,
        activity_en: str | None = None,
        expected: str | None = None,
    ) -> None:
        self.sheet, self.row, self.unit = sheet, row, unit
        activity = Both(activity_pt, activity_en or activity_pt)  # the activity's name, as data
        where = _TEXTS.both("where", sheet=sheet, row=row)
        if not unit:
            super().__init__(_TEXTS.both("activity_no_unit", where=where, activity=activity))
            return
        kinds = [_dimension(k) for k in (expected or "").split("/") if k]
        wanted = (
            _TEXTS.both("activity_unit_wanted", wanted=Both.join(_TEXTS.both("or"), kinds))
            if kinds
            else ""
        )
        super().__init__(
            _TEXTS.both("activity_unit", where=where, unit=unit, activity=activity, wanted=wanted)
        )


class ActivityNotComputedError(NoEmissionsColumnError):
    """Activity data and no emissions anywhere, and the activity data could not be computed
    (no year to pick the factors by, no factor for the period): says why, then what the
    plain error says."""

    code = "activity_not_computed"

    def __init__(
        self, columns_seen: Sequence[str], reasons_pt: Sequence[str], reasons_en: Sequence[str]
    ) -> None:
        super().__init__(columns_seen)
        reasons = Both(" ".join(reasons_pt), " ".join(reasons_en))  # the findings' own words
        InventoryError.__init__(
            self, _TEXTS.both("activity_not_computed", reasons=reasons, plain=self.said)
        )
