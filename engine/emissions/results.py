"""What an estimate is: the gases, the biogenic CO2 apart, and every factor it used.

``Estimate.explain(lang)`` renders the computation (engine/emissions/explain.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.emissions.explain import render

# pages/calculator.py reads SHARE_ROLES here.
from engine.emissions.names import SHARE_ROLES  # noqa: F401


@dataclass(frozen=True)
class FactorUse:
    """One factor an estimate used: its value and where it comes from."""

    key: str
    gas: str
    value: float
    unit: str
    role: str  # Portuguese: "densidade", "PCI", "fator CO2", "teor de biodiesel"...
    role_en: str
    source: str  # "document, table (year)", as the factor file writes it (English)
    url: str
    period: str  # the factor's validity ("2024-03-01 – 2025-07-31"), "" when open
    user: bool
    note: str = ""  # the source's note, as written in the factor file
    remark: tuple[str, str] = ("", "")  # ours, pt and en: a stand-in factor, a day weight
    source_pt: str = ""  # the citation in Portuguese: the title as published, our words in pt

    def label(self, lang: str = "pt") -> str:
        return self.role if lang.startswith("pt") else self.role_en

    def source_in(self, lang: str = "pt") -> str:
        """The citation in the reader's language (the English one when no Portuguese)."""
        return (self.source_pt or self.source) if lang.startswith("pt") else self.source

    def remark_in(self, lang: str = "pt") -> str:
        return self.remark[0] if lang.startswith("pt") else self.remark[1]


@dataclass(frozen=True)
class Step:
    """One multiplication of the chain: ``start × factor = result`` (or ÷ for a density)."""

    part: str  # the group it belongs to, a key of Estimate.parts
    start: float
    start_unit: str
    factor: int  # index into Estimate.factors
    result: float
    result_unit: str
    divide: bool = False


@dataclass(frozen=True)
class Note:
    """A remark on the computation; ``top`` ones come before the steps."""

    pt: str
    en: str
    top: bool = False


@dataclass(frozen=True)
class Estimate:
    """The emissions of one quantity of one activity, with every factor used."""

    activity: str
    name: dict[str, str]
    quantity: float
    unit: str
    period: str  # "2024", "2024-06" or "2024-06-15"
    region: str
    scope: int
    category: str
    category_en: str
    method: str  # one of activities.METHODS: fuel_combustion, electricity, direct_gas...
    scope2_method: str | None
    gases_t: dict[str, float]  # in scope: fossil CO2, CH4, N2O, HFCs... (t of gas)
    biogenic_co2_t: float  # reported apart, outside the scopes
    montreal_t: dict[str, float]  # CFCs and HCFCs: reported apart, not in tco2e
    tco2e: float  # in scope, in ``gwp_set``
    gwp_set: str
    gwps: dict[str, float]  # the GWP used for each gas of gases_t
    factors: tuple[FactorUse, ...]
    steps: tuple[Step, ...] = field(repr=False)
    parts: dict[str, tuple[str, str]] = field(repr=False)  # part -> (pt, en) heading
    notes: tuple[Note, ...] = field(default=(), repr=False)

    def explain(self, lang: str = "pt") -> str:
        """The computation as text: quantity × factor (source) = result, fossil and
        biogenic apart."""
        return render(self, "pt" if lang.lower().startswith("pt") else "en")
