"""``Inventory``: one ingested inventory, what the app shows and what the agents read."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import pandas as pd

from engine.emissions import FactorLibrary
from engine.gases.gwp import DEFAULT_CH4_ORIGIN, Ch4Origin, GwpSet, gwp_label
from engine.inventory import analytics
from engine.inventory import fields as F
from engine.inventory.digest import DEFAULT_DIGEST_CHARS, build_digest
from engine.inventory.findings import Finding
from engine.inventory.frames import map_unique
from engine.inventory.reconcile import SheetCheck, Status, overall_status

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


@dataclass
class Inventory:
    table: pd.DataFrame  # canonical rows: one per source and gas; other columns kept
    mapping: dict[str, dict[str, str | None]]  # per sheet: original column -> field or None
    gwp_set: GwpSet
    findings: list[Finding]
    source_name: str = ""
    sheets: list[str] = field(default_factory=list)  # the sheets that held emissions
    skipped_sheets: dict[str, str] = field(default_factory=dict)  # sheet -> why (pt)
    reported_totals: pd.DataFrame = field(default_factory=pd.DataFrame)  # the sheets' own totals
    ch4_origin: Ch4Origin = DEFAULT_CH4_ORIGIN
    reconciliation: list[SheetCheck] = field(default_factory=list)  # per sheet: the evidence
    # The factors activity data was computed ('computed') or checked ('checked') with: key,
    # gas, role, value, unit, source, validity, whether the user's, how many rows used it.
    factors_used: pd.DataFrame = field(default_factory=pd.DataFrame)
    # The library it was computed with when not the default (the user's factors on top):
    # the agents' calculator uses the same one, so an answer and the table agree.
    factors: FactorLibrary | None = field(default=None, repr=False, compare=False)

    # --- the headline: one year, location-based Scope 2, memo items apart ---------------------

    # The table is not changed after loading: the headline rows are computed once.
    @cached_property
    def years(self) -> list[str]:
        if F.YEAR not in self.table:
            return []
        return sorted(str(y) for y in pd.unique(self.table[F.YEAR].dropna()))

    @property
    def year(self) -> str | None:
        """The headline year: the latest. A total is never the sum of several years."""
        years = self.years
        return years[-1] if years else None

    @cached_property
    def current(self) -> pd.DataFrame:
        """The rows of the headline year (rows with no year belong to every year)."""
        year = self.year
        if year is None or len(self.years) == 1:
            return self.table
        years = self.table[F.YEAR]
        as_text = map_unique(years, str)
        return self.table[years.isna() | (as_text == year)]

    @property
    def workbook_gwp_set(self) -> str | None:
        """The GWP set the workbook's own CO2e totals use, where its sheets proved one (gas
        masses beside their totals) and it is not ``gwp_set``: the figures are recomputed with
        ``gwp_set``, and the workbook's own figures are those under this one."""
        found = {c.source_gwp_set for c in self.reconciliation if c.source_gwp_set}
        return found.pop() if len(found) == 1 else None

    @property
    def total_tco2e(self) -> float:
        """t CO2e of the headline year, without biogenic CO2, Montreal gases or market-based
        Scope 2 (those rows add 0 here; see the memo properties)."""
        return float(self.current[F.EMISSIONS_TCO2E].sum())

    @property
    def biogenic_co2_t(self) -> float:
        rows = self.current
        return float(rows[F.BIOGENIC_CO2].sum()) if F.BIOGENIC_CO2 in rows else 0.0

    @property
    def montreal_tco2e(self) -> float:
        """Memo: CFCs and HCFCs (Montreal Protocol), in t CO2e, outside the scopes."""
        return self._memo(F.MONTREAL) + self._blend_memo()

    @property
    def scope2_location_tco2e(self) -> float:
        rows = self.current
        return float(rows.loc[rows[F.SCOPE] == "2", F.EMISSIONS_TCO2E].sum())

    @property
    def scope2_market_tco2e(self) -> float | None:
        """Scope 2 by the market-based method, shown beside the location-based figure."""
        rows = self.current
        if F.REPORTING not in rows or not (rows[F.REPORTING] == F.SCOPE2_MARKET).any():
            return None
        return self._memo(F.SCOPE2_MARKET)

    def _memo(self, kind: str) -> float:
        rows = self.current
        if F.REPORTING not in rows:
            return 0.0
        return float(rows.loc[rows[F.REPORTING] == kind, F.MEMO_TCO2E].sum())

    def _blend_memo(self) -> float:
        rows = self.current
        if F.REPORTING not in rows:
            return 0.0
        blends = (rows[F.REPORTING] == F.IN_INVENTORY) & (rows[F.MEMO_TCO2E] > 0)
        return float(rows.loc[blends, F.MEMO_TCO2E].sum())

    @property
    def status(self) -> Status:
        """'reconciled', 'unverified', 'ambiguous' or 'conflict': how the totals stand
        against the file (``reconcile.overall_status``)."""
        return overall_status(self.reconciliation)

    @property
    def ambiguous(self) -> list[SheetCheck]:
        """Sheets whose unit no evidence proves: the user picks it (``load_inventory(units=)``)."""
        return [check for check in self.reconciliation if check.status == "ambiguous"]

    @property
    def not_reconciled(self) -> list[SheetCheck]:
        """Every sheet that is not proven: what a plan, an answer or an export names first."""
        return [check for check in self.reconciliation if check.status != "reconciled"]

    @property
    def conflicts(self) -> list[SheetCheck]:
        return [check for check in self.reconciliation if check.status == "conflict"]

    def gwp_label(self, language: str = "pt") -> str:
        return gwp_label(self.gwp_set, self.ch4_origin, language)

    def totals_by(self, field_name: str) -> pd.DataFrame:
        """Value, ``tco2e`` and ``share`` per scope, gas, category, facility or source, for
        the headline year (``year``: one row per year)."""
        rows = self.table if field_name == F.YEAR else self.current
        return analytics.with_gwp_set(analytics.totals_by(rows, field_name), self.gwp_set)

    def pareto(self, top: int | None = None) -> pd.DataFrame:
        return analytics.with_gwp_set(analytics.pareto(self.current, top), self.gwp_set)

    def year_over_year(self) -> pd.DataFrame:
        return analytics.with_gwp_set(analytics.year_over_year(self.table), self.gwp_set)

    def compare(self, previous: Inventory, field_name: str = F.SCOPE) -> pd.DataFrame:
        """This inventory against an earlier one, per value of a field."""
        now = self.totals_by(field_name).set_index(field_name)["tco2e"].rename("tco2e")
        before = previous.totals_by(field_name).set_index(field_name)["tco2e"]
        frame = pd.concat([before.rename("previous_tco2e"), now], axis=1).fillna(0.0)
        frame["change"] = frame["tco2e"] - frame["previous_tco2e"]
        frame["change_pct"] = frame["change"] / frame["previous_tco2e"].where(
            frame["previous_tco2e"] != 0
        )
        return analytics.with_gwp_set(frame.reset_index(names=field_name), self.gwp_set)

    def to_markdown(self, max_rows: int | None = None) -> str:
        """The full canonical table (its first ``max_rows`` rows: a preview, whose columns are
        as wide as those rows need). Text that could be read as a formula is quoted."""
        safe = (self.table if max_rows is None else self.table.head(max_rows)).copy()
        for column in safe.columns:
            if not pd.api.types.is_numeric_dtype(safe[column]):
                safe[column] = safe[column].map(_safe_cell).astype(object)
        return safe.to_markdown(index=False, missingval="")

    def digest(self, max_chars: int = DEFAULT_DIGEST_CHARS) -> str:
        """Aggregates, top rows, findings and the GWP set, in at most ``max_chars``."""
        return build_digest(self, max_chars)


def _safe_cell(value: object) -> object:
    if not isinstance(value, str):
        return value
    text = value.replace("|", "/").replace("\n", " ")
    return "'" + text if text.startswith(_FORMULA_START) else text
