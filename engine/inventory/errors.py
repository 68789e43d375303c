"""Bad input says what went wrong and what to do, in Portuguese and English."""

from __future__ import annotations

from collections.abc import Sequence

from engine.errors import AekoError, LocalizedError
from engine.formatting import number

# Defined with the GWPs (engine.gases), which cannot import this package; kept importable here.
from engine.gases.errors import UnknownGwpSetError  # noqa: F401


class InventoryError(LocalizedError, AekoError):
    """Base class: ``message_pt`` and ``message_en`` are ready to show to the user."""

    code = "inventory_error"


class EmptyFileError(InventoryError):
    code = "empty_file"

    def __init__(self) -> None:
        super().__init__(
            "O arquivo está vazio. Envie a planilha do inventário com os dados preenchidos.",
            "The file is empty. Upload the inventory spreadsheet with its data filled in.",
        )


class UnsupportedFormatError(InventoryError):
    code = "unsupported_format"

    def __init__(self, filename: str) -> None:
        super().__init__(
            f"Formato não suportado: {filename}. Envie .xlsx, .xlsm, .xls, .ods, .csv ou .txt.",
            f"Unsupported format: {filename}. Upload .xlsx, .xlsm, .xls, .ods, .csv or .txt.",
        )


class FormatMismatchError(InventoryError):
    code = "format_mismatch"

    def __init__(self, filename: str, actual: str) -> None:
        super().__init__(
            f"O arquivo {filename} não é o que a extensão diz: o conteúdo é {actual}. "
            "Salve-o novamente no formato certo ou corrija a extensão.",
            f"The file {filename} is not what its extension says: its content is {actual}. "
            "Save it again in the right format or fix the extension.",
        )


class CorruptFileError(InventoryError):
    code = "corrupt_file"

    def __init__(self, filename: str) -> None:
        super().__init__(
            f"Não foi possível abrir {filename}: o arquivo está corrompido ou incompleto. "
            "Abra-o no Excel ou LibreOffice, salve uma nova cópia e envie de novo.",
            f"Could not open {filename}: the file is corrupt or incomplete. Open it in Excel "
            "or LibreOffice, save a new copy and upload it again.",
        )


class PasswordProtectedError(InventoryError):
    code = "password_protected"

    def __init__(self, filename: str) -> None:
        super().__init__(
            f"{filename} está protegido por senha. Remova a senha (Arquivo > Informações > "
            "Proteger pasta de trabalho) e envie de novo.",
            f"{filename} is password-protected. Remove the password (File > Info > Protect "
            "Workbook) and upload it again.",
        )


class NoTableFoundError(InventoryError):
    code = "no_table"

    def __init__(self, filename: str) -> None:
        super().__init__(
            f"Nenhuma tabela de emissões encontrada em {filename}. A planilha precisa de uma "
            "linha de cabeçalho (ex.: Fonte, Gás, Emissões) seguida das linhas de dados.",
            f"No emissions table found in {filename}. The sheet needs a header row (e.g. "
            "Source, Gas, Emissions) followed by data rows.",
        )


class NoEmissionsColumnError(InventoryError):
    code = "no_emissions_column"

    def __init__(self, columns_seen: Sequence[str]) -> None:
        self.columns_seen = tuple(columns_seen)
        seen = ", ".join(self.columns_seen) or "—"
        super().__init__(
            f"Nenhuma coluna de emissões encontrada. Colunas vistas: {seen}. Inclua uma coluna "
            "como 'Emissões (t CO2e)' ou uma por gás, como 'CO2 (t)', ou indique o mapeamento.",
            f"No emissions column found. Columns seen: {seen}. Add a column such as "
            "'Emissions (tCO2e)' or one per gas, such as 'CO2 (t)', or set the mapping.",
        )


class FileTooLargeError(InventoryError):
    code = "file_too_large"

    def __init__(self, size_bytes: int, limit_bytes: int) -> None:
        size, limit = size_bytes / 1_048_576, limit_bytes / 1_048_576
        super().__init__(
            f"O arquivo tem {number(size, 1)} MB; o limite é {number(limit, 0)} MB. Remova abas "
            "que não fazem parte do inventário ou envie um CSV.",
            f"The file is {number(size, 1, 'en')} MB; the limit is {number(limit, 0, 'en')} MB. "
            "Remove sheets that are not part of the inventory or upload a CSV.",
        )


class TooManyRowsError(InventoryError):
    code = "too_many_rows"

    def __init__(self, rows: int, limit: int) -> None:
        super().__init__(
            f"A planilha tem mais de {number(limit, 0)} linhas ({number(rows, 0)}). Agregue os "
            "dados por fonte e gás ou divida o inventário em arquivos menores.",
            f"The sheet has more than {number(limit, 0, 'en')} rows ({number(rows, 0, 'en')}). "
            "Aggregate the data by source and gas or split the inventory into smaller files.",
        )


class InflatedFileError(InventoryError):
    """A workbook (a zip) that would inflate far past what an inventory needs: refused from
    its directory and a bounded read, before any parser holds it in memory."""

    code = "inflated_file"

    def __init__(self, filename: str, reason_pt: str, reason_en: str) -> None:
        super().__init__(
            f"{filename} não foi aberto: {reason_pt}. Isso não acontece com um inventário "
            "comum; salve uma nova cópia só com as abas do inventário ou envie um CSV.",
            f"{filename} was not opened: {reason_en}. An ordinary inventory does not do this; "
            "save a new copy with only the inventory sheets or upload a CSV.",
        )

    @classmethod
    def size(cls, filename: str, size_bytes: int, limit_bytes: int) -> InflatedFileError:
        size, limit = size_bytes / 1_048_576, limit_bytes / 1_048_576
        return cls(
            filename,
            f"descompactado, ocuparia ao menos {number(size, 0)} MB (o limite é "
            f"{number(limit, 0)} MB)",
            f"uncompressed, it would take at least {number(size, 0, 'en')} MB (the limit is "
            f"{number(limit, 0, 'en')} MB)",
        )

    @classmethod
    def ratio(cls, filename: str, member: str, ratio: float) -> InflatedFileError:
        return cls(
            filename,
            f"a parte {member} se expande {number(ratio, 0)} vezes ao descompactar",
            f"its part {member} inflates {number(ratio, 0, 'en')} times when uncompressed",
        )

    @classmethod
    def cells(cls, filename: str, sheet: str, cells: int, limit: int) -> InflatedFileError:
        return cls(
            filename,
            f"a aba {sheet} ocupa {number(cells, 0)} células (o limite é {number(limit, 0)})",
            f"sheet {sheet} spans {number(cells, 0, 'en')} cells (the limit is "
            f"{number(limit, 0, 'en')})",
        )

    @classmethod
    def lying(cls, filename: str, member: str) -> InflatedFileError:
        return cls(
            filename,
            f"a parte {member} é maior do que o tamanho que o arquivo declara",
            f"its part {member} is larger than the size the file declares",
        )


class GwpViewMissingError(InventoryError):
    code = "gwp_view_missing"

    def __init__(self, gwp_set: str, sheets: Sequence[str]) -> None:
        self.sheets = tuple(sheets)
        names = ", ".join(f"'{s}'" for s in self.sheets)
        super().__init__(
            f"As abas {names} são visões dos mesmos dados em CO2e com outros conjuntos de GWP, "
            f"e não há abas por gás para calcular com {gwp_set}. Escolha o conjunto de GWP de "
            "uma dessas abas ou inclua as abas por gás.",
            f"Sheets {names} are views of the same data in CO2e under other GWP sets, and there "
            f"are no per-gas sheets to compute {gwp_set} from. Choose the GWP set of one of "
            "those sheets or include the per-gas sheets.",
        )


_DIMENSIONS = {  # how an activity's accepted dimensions read in a message: (pt, en)
    "volume": ("volume (L, m³)", "volume (L, m³)"),
    "mass": ("massa (kg, t)", "mass (kg, t)"),
    "energy": ("energia (kWh, MWh, GJ)", "energy (kWh, MWh, GJ)"),
    "mass_distance": ("massa × distância (t·km)", "mass × distance (t·km)"),
}


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
        activity_en = activity_en or activity_pt
        kinds = [_DIMENSIONS.get(k, (k, k)) for k in (expected or "").split("/") if k]
        wanted_pt = " ou ".join(k[0] for k in kinds)
        wanted_en = " or ".join(k[1] for k in kinds)
        where_pt, where_en = f"Aba '{sheet}', linha {row}", f"Sheet '{sheet}', row {row}"
        if not unit:
            super().__init__(
                f"{where_pt}: a quantidade de {activity_pt} não tem unidade. Informe-a em uma "
                "coluna de unidade, no cabeçalho ('Consumo (L)') ou em uma linha de unidades.",
                f"{where_en}: the quantity of {activity_en} has no unit. State it in a unit "
                "column, in the header ('Consumption (L)') or in a units row.",
            )
            return
        super().__init__(
            f"{where_pt}: a unidade '{unit}' não se converte para {activity_pt}"
            + (f"; use uma unidade de {wanted_pt}" if wanted_pt else "")
            + ". Corrija a unidade na planilha.",
            f"{where_en}: the unit '{unit}' cannot be converted for {activity_en}"
            + (f"; use a unit of {wanted_en}" if wanted_en else "")
            + ". Fix the unit in the workbook.",
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
        InventoryError.__init__(
            self,
            "Há dados de atividade, mas as emissões não puderam ser calculadas: "
            + " ".join(reasons_pt) + " " + self.message_pt,
            "There is activity data, but its emissions could not be computed: "
            + " ".join(reasons_en) + " " + self.message_en,
        )  # fmt: skip
