"""``Inventory``: one ingested inventory, what the app shows and what the agents read."""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from engine.inventory import analytics
from engine.inventory import fields as F
from engine.inventory.digest import DEFAULT_DIGEST_CHARS, build_digest
from engine.inventory.findings import Finding
from engine.inventory.gwp import GwpSet

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

    @property
    def total_tco2e(self) -> float:
        return float(self.table[F.EMISSIONS_TCO2E].sum())

    @property
    def biogenic_co2_t(self) -> float:
        return float(self.table[F.BIOGENIC_CO2].sum()) if F.BIOGENIC_CO2 in self.table else 0.0

    def totals_by(self, field_name: str) -> pd.DataFrame:
        """Value, ``tco2e`` and ``share`` per scope, gas, category, facility or source."""
        return analytics.with_gwp_set(analytics.totals_by(self.table, field_name), self.gwp_set)

    def pareto(self, top: int | None = None) -> pd.DataFrame:
        return analytics.with_gwp_set(analytics.pareto(self.table, top), self.gwp_set)

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

    def to_markdown(self) -> str:
        """The full canonical table. Text that could be read as a formula is quoted."""
        safe = self.table.copy()
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
