"""The sample inventory: a fictional Brazilian ceramic-tile maker's 2024 GHG workbook.

"Cerâmica Vale Verde S.A." (plants in Santa Gertrudes/SP and Criciúma/SC, head office in
São Paulo) is laid out like the Brazilian GHG Protocol Program's calculation tool: a prose
"Sobre" sheet, then one sheet per category with a merged title, a two-row merged header,
the data rows, a "Total" row and a "Fonte: ..." note. Every emission is computed here from
activity data, so the numbers and their totals agree and the workbook is the same on every
build. Every emission is computed from factor values written in this file with their sources
(BEN energy contents and densities, IPCC 2006 defaults, the MCTI's monthly factors of the
SIN, AR5), never by the product's factor library: the ingestion recomputes the activity rows
with that library and compares them, so the sample checks the library instead of copying it,
and a test's expected figure can be computed from the cells or by hand. Electricity is stated
per month. Carbonates, refrigerants, travel and waste carry their factors in their own sheets.

The activity data are physically coherent: each plant states its 2024 production (``PLANTS``),
and its natural gas, wood chips and carbonate decomposition are derived from that production
with typical specific consumptions and measured carbonate contents (see ``PLANTS`` and
``gj_per_t``), the gas and wood sized with the BEN's heating values (``NCV_GJ``). Every
factor is built from its published source, named beside it.

Run ``python -m scripts.sample_inventory`` to rewrite the shipped ``assets/sample_inventory.xlsx``.
The builder lives here, out of the app's packages, so that no page pulls openpyxl in to
show a button: the app only needs the asset's path and name (``assets``).
"""

from __future__ import annotations

import calendar
import io
import math
from collections.abc import Callable
from dataclasses import astuple, dataclass
from datetime import date, datetime

import openpyxl
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.utils import get_column_letter

from assets import SAMPLE_PATH

COMPANY = "Cerâmica Vale Verde S.A."
YEAR = 2024

_SG = "Fábrica Santa Gertrudes (SP)"
_CR = "Fábrica Criciúma (SC)"
_SP = "Escritório São Paulo (SP)"

# AR5 GWP-100, as the Brazilian GHG Protocol Program uses; blends from their components.
_GWP = {"CO2": 1.0, "CH4": 28.0, "N2O": 265.0, "HFC-134a": 1300.0, "SF6": 23500.0}
_GWP["R-410A"] = 0.5 * 677.0 + 0.5 * 3170.0  # HFC-32 / HFC-125
_GWP["R-404A"] = 0.44 * 3170.0 + 0.52 * 4800.0 + 0.04 * 1300.0  # HFC-125 / 143a / 134a

# --- The factors every emission here is computed with ------------------------------------------
# Written out here, with their sources, and never taken from the product's factor library: the
# ingestion recomputes the activity rows with that library and compares, so the sample is an
# independent check of it, not a copy.
GWP_SET = "AR5"
_KJ_PER_KCAL = 4.1868  # the international-table calorie, as the BEN converts


def _gj_per_unit(kcal_per_kg: float, kg_per_unit: float) -> float:
    return kcal_per_kg * kg_per_unit * _KJ_PER_KCAL * 1e-6


# Net calorific values (PCI) and densities: the BEN conversion table (EPE/MME, Balanço
# Energético Nacional, "Densidades e poderes caloríficos inferiores"), as provided by the team's
# domain review; check against the edition cited. GJ per m³, per L or per kg of fuel.
GJ_PER_UNIT = {
    "natural_gas": 8_800 * _KJ_PER_KCAL * 1e-6,  # per m³: gás natural seco, 8.800 kcal/m³
    "diesel_a": _gj_per_unit(10_100, 0.840),  # per L: 10.100 kcal/kg, 840 kg/m³
    "biodiesel": _gj_per_unit(9_000, 0.880),  # per L: 9.000 kcal/kg, 880 kg/m³
    "gasoline_a": _gj_per_unit(10_400, 0.742),  # per L: 10.400 kcal/kg, 742 kg/m³
    "ethanol_anhydrous": _gj_per_unit(6_750, 0.791),  # per L: 6.750 kcal/kg, 791 kg/m³
    "ethanol_hydrated": _gj_per_unit(6_300, 0.809),  # per L: 6.300 kcal/kg, 809 kg/m³
    "lpg": _gj_per_unit(11_100, 1.0),  # per kg: 11.100 kcal/kg
    # Wood chips: IPCC 2006 vol. 2 ch. 1, table 1.2, wood/wood waste, 15.6 GJ/t (per t).
    "wood": 15.6,
}

# Emission factors, kg per TJ (NCV basis), (CO2, CH4, N2O); CO2 of biomass is biogenic
# (below). IPCC 2006 vol. 2: ch. 2 table 2.3 (manufacturing) and 2.4 (commercial); ch. 3
# table 3.2.1 (road CO2), 3.2.2 (road CH4 and N2O), 3.3.1 (off-road).
KG_PER_TJ = {
    "natural_gas@manufacturing": (56_100, 1.0, 0.1),  # table 2.3
    "diesel@manufacturing": (74_100, 3.0, 0.6),  # table 2.3
    "lpg@manufacturing": (63_100, 1.0, 0.1),  # table 2.3
    "lpg@commercial": (63_100, 5.0, 0.1),  # table 2.4
    "wood@manufacturing": (0.0, 30.0, 4.0),  # table 2.3
    "diesel@road": (74_100, 3.9, 3.9),  # tables 3.2.1 and 3.2.2
    "diesel@offroad": (74_100, 4.15, 28.6),  # table 3.3.1, industry
    # Motor gasoline: CO2 table 3.2.1; CH4 25 and N2O 8, table 3.2.2, "oxidation catalyst"
    # (the default the Brazilian fleet's mix is closest to among the table's rows).
    "gasoline@road": (69_300, 25.0, 8.0),
    # Table 3.2.2, ethanol cars in Brazil: CH4 18; the table gives no N2O for them, and
    # gasoline's (8) stands in.
    "ethanol@road": (0.0, 18.0, 8.0),
    # Table 3.3.1 has no LPG row: forklifts take the mobile LPG defaults of tables 3.2.1-3.2.2.
    "lpg@offroad": (63_100, 62.0, 0.2),
}
# Biogenic CO2, kg/TJ, IPCC 2006 vol. 2 ch. 1 table 1.4: biodiesels and biogasoline (ethanol)
# 70,800; wood/wood waste 112,000. Reported apart, outside the totals.
BIOGENIC_KG_PER_TJ = {"biodiesel": 70_800, "ethanol": 70_800, "wood": 112_000}

# Biodiesel in commercial diesel, share by volume: B12 from 1 April 2023 (Resolução CNPE nº 3,
# 20 March 2023); B14 from 1 March 2024 (CNPE decision of December 2023; 29 February 2024
# was the last day of B12). The rows are split by these periods.
DIESEL_BLENDS = (
    (date(2024, 1, 1), date(2024, 2, 29), 0.12, "jan–fev"),
    (date(2024, 3, 1), date(2024, 12, 31), 0.14, "mar–dez"),
)
# Gasoline C is gasoline A with 27% anhydrous ethanol by volume (E27, Resolução CIMA, DOU
# 6 March 2015, in force from 16 March 2015 to 31 July 2025).
ETHANOL_IN_GASOLINE = 0.27

# MCTI/SIRENE, average CO2 factor of the SIN for corporate inventories (location-based
# Scope 2), t CO2/MWh, January to December 2024 ("Fatores de emissão de CO2 pela geração de
# energia elétrica no Sistema Interligado Nacional do Brasil", fator médio mensal).
GRID_T_CO2_PER_MWH_2024 = (
    0.0421, 0.0376, 0.0278, 0.0195, 0.0283, 0.0365,
    0.0571, 0.0739, 0.0917, 0.1127, 0.0701, 0.0564,
)  # fmt: skip


@dataclass(frozen=True)
class Gases:
    """Tonnes of fossil CO2, CH4, N2O and biogenic CO2 (per unit of fuel, or of a row)."""

    co2: float
    ch4: float
    n2o: float
    biogenic: float = 0.0

    def times(self, quantity: float) -> Gases:
        return Gases(*(quantity * value for value in astuple(self)))


def _per_unit(factors: str, fossil_gj: float, bio_gj: float = 0.0, bio: str | None = None) -> Gases:
    """t per unit of fuel: CO2 on the fossil energy, CH4 and N2O on all of it (the blend's one
    basis), biogenic CO2 on the bio part."""
    co2, ch4, n2o = KG_PER_TJ[factors]
    energy = fossil_gj + bio_gj
    biogenic = bio_gj * BIOGENIC_KG_PER_TJ[bio] if bio else 0.0
    return Gases(fossil_gj * co2 * 1e-6, energy * ch4 * 1e-6, energy * n2o * 1e-6, biogenic * 1e-6)


def diesel_b(use: str, share: float) -> Gases:
    """Per litre of diesel B with ``share`` biodiesel by volume."""
    fossil = (1 - share) * GJ_PER_UNIT["diesel_a"]
    return _per_unit(f"diesel@{use}", fossil, share * GJ_PER_UNIT["biodiesel"], "biodiesel")


GASOLINE_C = _per_unit(  # per litre of E27
    "gasoline@road",
    (1 - ETHANOL_IN_GASOLINE) * GJ_PER_UNIT["gasoline_a"],
    ETHANOL_IN_GASOLINE * GJ_PER_UNIT["ethanol_anhydrous"],
    "ethanol",
)
HYDRATED_ETHANOL = _per_unit("ethanol@road", 0.0, GJ_PER_UNIT["ethanol_hydrated"], "ethanol")
NATURAL_GAS = _per_unit("natural_gas@manufacturing", GJ_PER_UNIT["natural_gas"])  # per m³
WOOD_CHIPS = _per_unit("wood@manufacturing", 0.0, GJ_PER_UNIT["wood"], "wood")  # per t
LPG_STATIONARY = _per_unit("lpg@manufacturing", GJ_PER_UNIT["lpg"])  # per kg
LPG_COMMERCIAL = _per_unit("lpg@commercial", GJ_PER_UNIT["lpg"])
LPG_FORKLIFT = _per_unit("lpg@offroad", GJ_PER_UNIT["lpg"])

# --- Heating values used to size the plants' fuel ---------------------------------------------
# The gas meters and the wood-chip invoices are derived from each plant's thermal need (GJ)
# with the BEN's heating values: the utility bills gas of ~8,800 kcal/m³; commercial
# firewood 3,100 kcal/kg.
NCV_GJ = {
    "Gás natural": GJ_PER_UNIT["natural_gas"],  # per m³
    "Cavaco de madeira": 3_100 * _KJ_PER_KCAL * 1e-3,  # per t: lenha comercial, 3.100 kcal/kg
}

# --- Production and the energy it takes ------------------------------------------------------
# Specific thermal consumption, GJ of fuel per tonne, used to derive each plant's fuel from
# its production. Literature range for wall and floor tiles (EU BREF "Ceramic Manufacturing
# Industry", JRC, 2007, wall and floor tiles): spray drying 0.98-2.2 GJ/t of powder, drying
# 0.25-0.75 GJ/t, firing 1.9-4.8 GJ/t. Cross-checks in m³ of gas per m² of tile: in Santa
# Gertrudes one plant's 210 m of roller kilns burn ~1 million m³ a month, and a plant there
# makes ~30,000 m² a day (EPTV/g1, 28 Aug 2018): ~1.1 m³/m² for kilns alone on the dry route;
# the Italian tile and refractory industry burns 1,500 million m³ a year (Confindustria
# Ceramica) for roughly 400 million m² of tiles: under 4 m³/m², spray drying included. The
# plants below land at ~2.8 m³/m² (porcelain, spray dried) and ~1.7 m³/m² plus wood chips
# (monoporosa wall tile). The old sample's 0.7-0.8 GJ/t was 2-5x too little.
LITERATURE_GJ_PER_T = {"atomização": (0.98, 2.2), "secagem": (0.25, 0.75), "queima": (1.9, 4.8)}
# Spray-dried powder leaves the atomizer with 6% moisture: 0.94 t of dry body per t of powder.
_POWDER_DRY_FRACTION = 0.94


@dataclass(frozen=True)
class Kiln:
    name: str
    m2: int  # tiles fired in 2024, m² (first quality and rejects)


@dataclass(frozen=True)
class Plant:
    """A plant's 2024 production and the data its fuel and process emissions derive from."""

    facility: str
    product: str
    kg_per_m2: float  # fired tile
    loss_on_ignition: float  # mass lost by the dry body in firing (carbonates, OH, organics)
    calcite: float  # CaCO3 in the dry body, mass fraction (XRD/chemical analysis, 2024)
    dolomite: float  # CaMg(CO3)2 in the dry body
    glaze_kg_per_m2: float  # dry glaze and engobe applied
    glaze_calcite: float  # raw (non-fritted) carbonates in the dry glaze, mass fraction
    glaze_dolomite: float
    kilns: tuple[Kiln, ...]
    gj_per_t: dict[str, float]  # specific consumption per step, see LITERATURE_GJ_PER_T
    dryer: str
    dryer_fuel: str

    @property
    def m2(self) -> int:
        return sum(kiln.m2 for kiln in self.kilns)

    def fired_t(self, m2: float | None = None) -> float:
        return (self.m2 if m2 is None else m2) * self.kg_per_m2 / 1000

    def dry_body_t(self, m2: float | None = None) -> float:
        return self.fired_t(m2) / (1 - self.loss_on_ignition)

    def powder_t(self) -> float:
        return self.dry_body_t() / _POWDER_DRY_FRACTION

    def glaze_t(self) -> float:
        return self.m2 * self.glaze_kg_per_m2 / 1000


PLANTS = (
    Plant(
        facility=_SG,
        product="porcelanato esmaltado (grupo BIa), via úmida",
        kg_per_m2=20.5,  # 60 x 60 cm, 9 mm
        loss_on_ignition=0.05,
        calcite=0.005,
        dolomite=0.004,
        glaze_kg_per_m2=1.0,
        glaze_calcite=0.08,
        glaze_dolomite=0.06,
        kilns=(Kiln("Forno a rolo 1", 2_700_000), Kiln("Forno a rolo 2", 2_300_000)),
        # Porcelain fires at ~1,200 °C; spray drying and a gas-fired vertical dryer.
        gj_per_t={"queima": 2.9, "atomização": 1.5, "secagem": 0.45},
        dryer="Secador vertical",
        dryer_fuel="Gás natural",
    ),
    Plant(
        facility=_CR,
        product="revestimento de parede monoporosa (grupo BIII), via úmida",
        kg_per_m2=14.5,  # 30 x 60 cm, 8 mm
        loss_on_ignition=0.10,  # carbonate-rich body: CO2 alone is ~5.4% of it
        calcite=0.08,
        dolomite=0.04,
        glaze_kg_per_m2=0.9,
        glaze_calcite=0.08,
        glaze_dolomite=0.06,
        kilns=(Kiln("Forno a rolo 3", 3_600_000),),
        # Fires at ~1,130 °C; the horizontal dryer takes heat from a wood-chip thermal-oil
        # boiler (more fuel per tonne than a direct gas burner).
        gj_per_t={"queima": 2.6, "atomização": 1.5, "secagem": 0.60},
        dryer="Caldeira de óleo térmico (secador horizontal)",
        dryer_fuel="Cavaco de madeira",
    ),
)

# Calcination of carbonates, t CO2 per t of mineral: IPCC 2006 vol. 3 ch. 2, table 2.1
# (stoichiometric, full calcination): calcite CaCO3 0.43971, dolomite CaMg(CO3)2 0.47732.
CARBONATE_EF = {"Calcita (CaCO3)": 0.43971, "Dolomita (CaMg(CO3)2)": 0.47732}


@dataclass(frozen=True)
class Combustion:
    """One row of a combustion sheet: where, what, how much, and its tonnes per unit of fuel
    (``per_unit``, from the factors above)."""

    facility: str
    source: str
    fuel_name: str
    quantity: float
    unit: str
    per_unit: Gases
    period: tuple[date, date] = (date(YEAR, 1, 1), date(YEAR, 12, 31))

    def gases(self) -> Gases:
        """The row's tonnes of fossil CO2, CH4, N2O and biogenic CO2."""
        return self.per_unit.times(self.quantity)


def _diesel_rows(facility: str, source: str, litres: tuple[int, int], use: str):
    """Diesel split by the blend in force: January-February (B12), March-December (B14)."""
    return [
        Combustion(
            facility,
            f"{source} – {label}",
            f"Óleo diesel (B{round(blend * 100)})",
            quantity,
            "litros",
            diesel_b(use, blend),
            period=(start, end),
        )
        for (start, end, blend, label), quantity in zip(DIESEL_BLENDS, litres, strict=True)
    ]


def _gas_m3(gj: float) -> int:
    return int(round(gj / NCV_GJ["Gás natural"], -3))  # read from the utility's meter, in 1,000 m³


def _gas(facility: str, source: str, gj: float) -> Combustion:
    return Combustion(facility, source, "Gás natural", _gas_m3(gj), "m³", NATURAL_GAS)


def stationary_sources() -> list[Combustion]:
    """Kilns, spray dryers and dryers derive from production; the rest is metered."""
    rows: list[Combustion] = []
    for plant in PLANTS:
        for kiln in plant.kilns:
            gj = plant.fired_t(kiln.m2) * plant.gj_per_t["queima"]
            rows.append(_gas(plant.facility, f"{kiln.name} (queima)", gj))
        gj = plant.powder_t() * plant.gj_per_t["atomização"]
        rows.append(_gas(plant.facility, "Atomizador (spray dryer)", gj))
        drying_gj = plant.dry_body_t() * plant.gj_per_t["secagem"]
        if plant.dryer_fuel == "Gás natural":
            rows.append(_gas(plant.facility, plant.dryer, drying_gj))
        else:
            tonnes = round(drying_gj / NCV_GJ["Cavaco de madeira"])
            rows.append(
                Combustion(plant.facility, plant.dryer, plant.dryer_fuel, tonnes, "t", WOOD_CHIPS)
            )
        if plant.facility == _SG:
            rows.append(
                Combustion(_SG, "Estufa de esmaltação", "GLP", 36_500, "kg", LPG_STATIONARY)
            )
            rows += _diesel_rows(_SG, "Gerador de emergência", (1_200, 5_600), "manufacturing")
    rows.append(Combustion(_SP, "Cozinha do escritório", "GLP", 2_400, "kg", LPG_COMMERCIAL))
    return rows


def mobile_sources() -> list[Combustion]:
    """Trucks and cars with road factors, yard loaders and forklifts with off-road ones."""
    trucks, loaders = "Caminhões próprios – expedição", "Pás carregadeiras – pátio de argila"
    cars, ethanol = "Veículos leves (flex)", HYDRATED_ETHANOL
    return [
        *_diesel_rows(_SG, trucks, (75_800, 392_200), "road"),
        *_diesel_rows(_SG, loaders, (14_600, 77_800), "offroad"),
        Combustion(_SG, "Empilhadeiras", "GLP", 41_600, "kg", LPG_FORKLIFT),
        Combustion(_SG, cars, "Gasolina C", 7_900, "litros", GASOLINE_C),
        *_diesel_rows(_CR, trucks, (45_900, 240_600), "road"),
        *_diesel_rows(_CR, loaders, (9_700, 52_100), "offroad"),
        Combustion(_CR, "Empilhadeiras", "GLP", 27_300, "kg", LPG_FORKLIFT),
        Combustion(_CR, cars, "Etanol hidratado", 11_300, "litros", ethanol),
        Combustion(_SP, cars, "Gasolina C", 18_200, "litros", GASOLINE_C),
        Combustion(_SP, cars, "Etanol hidratado", 24_600, "litros", ethanol),
    ]


@dataclass(frozen=True)
class _Sheet:
    name: str
    title: str
    groups: tuple[tuple[str, int, int], ...]  # (text, first column, last column), 1-based
    columns: tuple[str, ...]
    rows: tuple[tuple[object, ...], ...]
    totals: tuple[str, ...]  # the columns the "Total" row sums
    formats: dict[str, str]
    note: str


_IDENT = ("Unidade", "Fonte emissora")
_ACTIVITY = ("Quantidade", "Unidade de medida")
_GASES = ("CO2 (t)", "CH4 (t)", "N2O (t)")
_CO2E_TOTAL = "Emissões totais (t CO2e)"
_BIOGENIC = "CO2 biogênico (t)"
_NOTE_FACTORS = (
    "Fonte dos fatores: PCI e densidades da tabela de conversão do Balanço Energético Nacional "
    "(BEN, EPE): gás natural seco 8.800 kcal/m³; óleo diesel 10.100 kcal/kg e 840 kg/m³; "
    "biodiesel 9.000 kcal/kg e 880 kg/m³; gasolina A 10.400 kcal/kg e 742 kg/m³; etanol "
    "anidro 6.750 kcal/kg e 791 kg/m³; etanol hidratado 6.300 kcal/kg e 809 kg/m³; GLP "
    "11.100 kcal/kg (1 kcal = 4,1868 kJ); cavaco de madeira 15,6 GJ/t (IPCC 2006, vol. 2, "
    "cap. 1, tabela 1.2). Fatores de CO2, CH4 e N2O padrão do IPCC (2006), vol. 2, cap. 2 "
    "(tabelas 2.3, indústria, e 2.4, comercial) e cap. 3 (tabelas 3.2.1 e 3.2.2, rodoviário; "
    "3.3.1, fora de estrada); CO2 biogênico da tabela 1.4 (biodiesel e etanol 70.800 kg/TJ, "
    "madeira 112.000 kg/TJ); diesel B12 até fevereiro e B14 a partir de 1º/3/2024 (CNPE); "
    "gasolina C com 27% de etanol anidro (E27); GWP do AR5."
)
_NOTE_STATIONARY = (
    f"{_NOTE_FACTORS} Dados de atividade: medidores de gás, notas fiscais e produção de {YEAR}."
)
_NOTE_MOBILE = (
    f"{_NOTE_FACTORS} Veículos leves flex (tabela 3.2.2: gasolina com catalisador de "
    "oxidação, CH4 25 e N2O 8 kg/TJ; etanol no Brasil, CH4 18 kg/TJ, e o N2O da gasolina); "
    "a tabela 3.3.1 não tem GLP: as empilhadeiras usam os fatores móveis de GLP das tabelas "
    f"3.2.1 e 3.2.2. Dados de atividade: notas fiscais de {YEAR}."
)
_GAS_FORMATS = {
    "Quantidade": "#,##0",
    "CO2 (t)": "#,##0.000",
    "CH4 (t)": "0.000000",
    "N2O (t)": "0.000000",
    _CO2E_TOTAL: "#,##0.000",
    _BIOGENIC: "#,##0.000",
}


def _nz(value: float, digits: int) -> float | None:
    """A rounded emission, or None (an empty cell) where the fuel emits none of that gas."""
    rounded = round(value, digits)
    return rounded if rounded else None


def _fuel_rows(sources: list[Combustion]) -> tuple[tuple[object, ...], ...]:
    rows = []
    for s in sources:
        gases = s.gases()
        co2 = _nz(gases.co2, 3)
        ch4 = _nz(gases.ch4, 6)
        n2o = _nz(gases.n2o, 6)
        co2e = (co2 or 0.0) + (ch4 or 0.0) * _GWP["CH4"] + (n2o or 0.0) * _GWP["N2O"]
        biogenic = _nz(gases.biogenic, 3)
        row = (s.facility, s.source, s.fuel_name, s.quantity, s.unit, co2, ch4, n2o)
        rows.append((*row, round(co2e, 4), biogenic))
    return tuple(rows)


def _stationary() -> _Sheet:
    return _Sheet(
        name="Combustão estacionária",
        title=f"Escopo 1 – Combustão estacionária – {YEAR}",
        groups=(("Identificação", 1, 3), ("Consumo", 4, 5), ("Emissões (t)", 6, 10)),
        columns=(*_IDENT, "Combustível", *_ACTIVITY, *_GASES, _CO2E_TOTAL, _BIOGENIC),
        rows=_fuel_rows(stationary_sources()),
        totals=(*_GASES, _CO2E_TOTAL, _BIOGENIC),
        formats=_GAS_FORMATS,
        note=_NOTE_STATIONARY,
    )


def _mobile() -> _Sheet:
    return _Sheet(
        name="Combustão móvel",
        title=f"Escopo 1 – Combustão móvel – {YEAR}",
        groups=(("Identificação", 1, 3), ("Consumo", 4, 5), ("Emissões (t)", 6, 10)),
        columns=(*_IDENT, "Combustível", *_ACTIVITY, *_GASES, _CO2E_TOTAL, _BIOGENIC),
        rows=_fuel_rows(mobile_sources()),
        totals=(*_GASES, _CO2E_TOTAL, _BIOGENIC),
        formats=_GAS_FORMATS,
        note=_NOTE_MOBILE,
    )


def _fugitive() -> _Sheet:
    sources = (
        (_SG, "Chiller da climatização industrial", "HFC-134a", 38.0),
        (_SG, "Ar-condicionado split – laboratório e escritório", "R-410A", 14.5),
        (_SG, "Disjuntores da subestação 138 kV", "SF6", 1.9),
        (_SG, "Ar-condicionado automotivo (frota)", "HFC-134a", 3.6),
        (_CR, "Ar-condicionado split – escritório", "R-410A", 9.2),
        (_CR, "Câmara fria do refeitório", "R-404A", 6.8),
        (_CR, "Disjuntores da subestação 69 kV", "SF6", 1.2),
        (_SP, "Ar-condicionado VRF – escritório", "R-410A", 21.0),
    )
    rows = tuple(
        (facility, source, gas, kg, round(kg / 1000 * _GWP[gas], 4))
        for facility, source, gas, kg in sources
    )
    return _Sheet(
        name="Emissões fugitivas",
        title=f"Escopo 1 – Emissões fugitivas – {YEAR}",
        groups=(("Identificação", 1, 3), ("Emissões", 4, 5)),
        columns=(*_IDENT, "Gás ou composto", "Emissões (kg)", "Emissões (t CO2e)"),
        rows=rows,
        totals=("Emissões (kg)", "Emissões (t CO2e)"),
        formats={"Emissões (kg)": "#,##0.0", "Emissões (t CO2e)": "#,##0.000"},
        note="Fonte: reposições de fluido registradas nas ordens de manutenção (método de "
        "balanço de massa); GWP do AR5, misturas pela composição em massa.",
    )


@dataclass(frozen=True)
class Calcination:
    """Carbonate decomposed in firing: tonnes of one mineral in one input, and its factor."""

    facility: str
    source: str
    mineral: str  # a key of CARBONATE_EF
    where: str  # "massa" (tile body) or "esmaltes" (glazes and engobes)
    tonnes: int

    @property
    def factor(self) -> float:
        return CARBONATE_EF[self.mineral]


def process_sources() -> list[Calcination]:
    """Calcite and dolomite fired in 2024, from each kiln's production and the lab contents."""
    rows: list[Calcination] = []
    for plant in PLANTS:
        for kiln in plant.kilns:
            body = plant.dry_body_t(kiln.m2)
            source = f"Queima – {kiln.name.lower()}"
            for mineral, share in zip(CARBONATE_EF, (plant.calcite, plant.dolomite), strict=True):
                rows.append(
                    Calcination(plant.facility, source, mineral, "massa", round(body * share))
                )
        glaze, source = plant.glaze_t(), "Queima de esmaltes e engobes"
        shares = (plant.glaze_calcite, plant.glaze_dolomite)
        for mineral, share in zip(CARBONATE_EF, shares, strict=True):
            tonnes = round(glaze * share)
            rows.append(Calcination(plant.facility, source, mineral, "esmaltes", tonnes))
    return rows


def _processes() -> _Sheet:
    places = {"massa": "na massa cerâmica", "esmaltes": "nos esmaltes e engobes"}
    rows = []
    for s in process_sources():
        co2 = round(s.tonnes * s.factor, 3)
        material = f"{s.mineral} {places[s.where]}"
        rows.append((s.facility, s.source, material, s.tonnes, "t", s.factor, co2, co2))
    return _Sheet(
        name="Processos industriais",
        title=f"Escopo 1 – Processos industriais (descarbonatação na queima) – {YEAR}",
        groups=(("Identificação", 1, 3), ("Consumo", 4, 6), ("Emissões (t)", 7, 8)),
        columns=(
            *_IDENT,
            "Insumo",
            *_ACTIVITY,
            "Fator de emissão (t CO2/t)",
            "CO2 (t)",
            _CO2E_TOTAL,
        ),
        rows=tuple(rows),
        totals=("CO2 (t)", _CO2E_TOTAL),
        formats={
            "Quantidade": "#,##0",
            "Fator de emissão (t CO2/t)": "0.0000",
            "CO2 (t)": "#,##0.000",
            _CO2E_TOTAL: "#,##0.000",
        },
        note="Fonte: calcita e dolomita queimadas = massa seca queimada (produção ÷ (1 − perda ao "
        "fogo)) e esmaltes aplicados × teores da análise química e mineralógica (laboratório "
        "interno, 2024); fatores estequiométricos do IPCC (2006), vol. 3, cap. 2, tabela 2.1: "
        "calcita 0,4397 e dolomita 0,4773 t CO2/t, calcinação completa.",
    )


# Electricity bought from the grid, MWh per quarter (the distributors' bills); each quarter
# is split into its months by their days (the plants run around the clock), to 0.1 MWh, the
# quarter's last month taking the rounding.
_ELECTRICITY_MWH = {
    _SG: (8_120.4, 7_985.6, 8_310.2, 7_874.9),
    _CR: (5_460.8, 5_392.1, 5_618.5, 5_207.3),
    _SP: (61.4, 55.2, 58.9, 63.7),
}
_MONTH_NAMES = ("jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez")


def monthly_mwh(quarters: tuple[float, float, float, float]) -> list[float]:
    """Twelve months of MWh that add up to each quarter's bill."""
    months: list[float] = []
    for quarter, mwh in enumerate(quarters):
        numbers = range(3 * quarter + 1, 3 * quarter + 4)
        days = [calendar.monthrange(YEAR, month)[1] for month in numbers]
        split = [round(mwh * d / sum(days), 1) for d in days[:2]]
        months += [*split, round(mwh - math.fsum(split), 1)]
    return months


def electricity_sources() -> list[tuple[str, int, float, float]]:
    """(facility, month, MWh, the month's MCTI factor in t CO2/MWh), per facility and month."""
    return [
        (facility, month, mwh, GRID_T_CO2_PER_MWH_2024[month - 1])
        for facility, quarters in _ELECTRICITY_MWH.items()
        for month, mwh in enumerate(monthly_mwh(quarters), start=1)
    ]


def _electricity() -> _Sheet:
    rows = []
    for facility, month, mwh, factor in electricity_sources():
        label = f"{_MONTH_NAMES[month - 1]}/{YEAR}"
        rows.append((facility, "Rede SIN", label, mwh, "MWh", factor, round(mwh * factor, 4)))
    return _Sheet(
        name="Eletricidade (localização)",
        title=f"Escopo 2 – Eletricidade (abordagem de localização) – {YEAR}",
        groups=(("Identificação", 1, 3), ("Consumo", 4, 6), ("Emissões", 7, 7)),
        columns=(
            *_IDENT,
            "Mês",
            *_ACTIVITY,
            "Fator de emissão (t CO2/MWh)",
            "Emissões (t CO2e)",
        ),
        rows=tuple(rows),
        totals=("Quantidade", "Emissões (t CO2e)"),
        formats={
            "Quantidade": "#,##0.0",
            "Fator de emissão (t CO2/MWh)": "0.0000",
            "Emissões (t CO2e)": "#,##0.000",
        },
        note="Fonte: faturas das distribuidoras (Elektro e Celesc), consumo mensal; fatores "
        "médios mensais de 2024 do Sistema Interligado Nacional (MCTI/SIRENE, fator médio "
        "para inventários corporativos).",
    )


def _travel() -> _Sheet:
    short, medium, long = (
        "Voos nacionais – curta distância (até 500 km)",
        "Voos nacionais – média distância (500 a 3.700 km)",
        "Voos internacionais – longa distância (acima de 3.700 km)",
    )
    factors = {short: 0.000158, medium: 0.000103, long: 0.000112}  # t CO2e per passenger-km
    sources = (
        (_SP, short, "Congonhas – Curitiba", 142_300),
        (_SP, medium, "Guarulhos – Recife", 611_800),
        (_SP, long, "Guarulhos – Bolonha (feira Cersaie)", 488_600),
        (_SG, medium, "Viracopos – Salvador", 214_500),
        (_CR, short, "Florianópolis – Porto Alegre", 58_700),
        (_CR, long, "Florianópolis – Valência (feira Cevisama)", 97_200),
    )
    rows = tuple(
        (facility, kind, route, pkm, "passageiro.km", factors[kind], round(pkm * factors[kind], 4))
        for facility, kind, route, pkm in sources
    )
    return _Sheet(
        name="Escopo 3 – Viagens",
        title=f"Escopo 3 – Categoria 6: Viagens a negócios (aéreas) – {YEAR}",
        groups=(("Identificação", 1, 3), ("Consumo", 4, 6), ("Emissões", 7, 7)),
        columns=(
            *_IDENT,
            "Trecho típico",
            *_ACTIVITY,
            "Fator de emissão (t CO2e/passageiro.km)",
            "Emissões (t CO2e)",
        ),
        rows=rows,
        totals=("Emissões (t CO2e)",),
        formats={
            "Quantidade": "#,##0",
            "Fator de emissão (t CO2e/passageiro.km)": "0.000000",
            "Emissões (t CO2e)": "#,##0.000",
        },
        note="Fonte: relatório da agência de viagens (bilhetes emitidos em 2024); fatores por "
        "passageiro.km da Ferramenta GHG Protocol para transporte aéreo.",
    )


def _waste() -> _Sheet:
    factors = {  # t CO2e per t landfilled (first-order decay, managed sanitary landfill)
        "Resíduos orgânicos do refeitório": 0.92,
        "Resíduos comuns não recicláveis": 0.58,
        "Madeira de paletes danificados": 0.61,
        "Papel e papelão contaminados": 1.12,
    }
    sources = (
        (_SG, "Resíduos orgânicos do refeitório", 186.4),
        (_SG, "Resíduos comuns não recicláveis", 242.7),
        (_SG, "Madeira de paletes danificados", 96.3),
        (_CR, "Resíduos orgânicos do refeitório", 121.8),
        (_CR, "Resíduos comuns não recicláveis", 168.2),
        (_CR, "Papel e papelão contaminados", 38.5),
        (_SP, "Resíduos comuns não recicláveis", 14.6),
    )
    rows = tuple(
        (facility, waste, "Aterro sanitário", t, "t", factors[waste], round(t * factors[waste], 4))
        for facility, waste, t in sources
    )
    return _Sheet(
        name="Escopo 3 – Resíduos",
        title=f"Escopo 3 – Categoria 5: Resíduos gerados nas operações – {YEAR}",
        groups=(("Identificação", 1, 3), ("Consumo", 4, 6), ("Emissões", 7, 7)),
        columns=(
            *_IDENT,
            "Destinação",
            *_ACTIVITY,
            "Fator de emissão (t CO2e/t)",
            "Emissões (t CO2e)",
        ),
        rows=rows,
        totals=("Quantidade", "Emissões (t CO2e)"),
        formats={
            "Quantidade": "#,##0.0",
            "Fator de emissão (t CO2e/t)": "0.00",
            "Emissões (t CO2e)": "#,##0.000",
        },
        note="Fonte: manifestos de transporte de resíduos (MTR/SINIR) de 2024; fatores da "
        "Ferramenta GHG Protocol para aterro sanitário com captação parcial de metano.",
    )


_SHEETS: tuple[Callable[[], _Sheet], ...] = (
    _stationary, _mobile, _fugitive, _processes, _electricity, _travel, _waste,
)  # fmt: skip


def _br(value: float, digits: int = 0) -> str:
    """1234567.8 -> '1.234.567,8' (Brazilian thousands and decimal separators)."""
    return f"{value:,.{digits}f}".replace(",", "_").replace(".", ",").replace("_", ".")


def _production_line(plant: Plant) -> str:
    kilns = " e ".join(f"{kiln.name.lower()}: {_br(kiln.m2)} m²" for kiln in plant.kilns)
    return (
        f"Produção {YEAR} – {plant.facility}: {_br(plant.m2 / 1e6, 1)} milhões de m² de "
        f"{plant.product} ({kilns}); {_br(plant.kg_per_m2, 1)} kg/m², "
        f"{_br(plant.fired_t())} t queimadas."
    )


_ABOUT = (
    f"Inventário de emissões de gases de efeito estufa – ano-base {YEAR}",
    "",
    f"Empresa: {COMPANY} (empresa fictícia; dados de demonstração da Aeko Studio)",
    "Setor: fabricação de revestimentos cerâmicos (pisos, porcelanatos e revestimentos de "
    "parede), CNAE 23.42-7",
    f"Unidades inventariadas: {_SG}, {_CR} e {_SP}",
    *(_production_line(plant) for plant in PLANTS),
    "O gás natural dos fornos, atomizadores e secadores e a descarbonatação na queima "
    "decorrem dessa produção (consumo térmico específico por etapa e teores de carbonatos "
    "medidos em laboratório).",
    f"Período: 1º de janeiro a 31 de dezembro de {YEAR}",
    "Limite organizacional: controle operacional (100% das emissões das unidades operadas)",
    "Potenciais de aquecimento global: IPCC, Quinto Relatório de Avaliação (AR5), horizonte de "
    "100 anos",
    "Metodologia: Especificações do Programa Brasileiro GHG Protocol e ABNT NBR ISO 14064-1.",
    "O escopo 2 segue a abordagem baseada em localização: consumo mensal de energia elétrica "
    "com o fator médio mensal do SIN de 2024 (MCTI/SIRENE).",
    "Fatores de emissão: cada emissão foi calculada com os valores publicados, escritos na "
    "nota de cada aba: PCI e densidades do BEN, fatores padrão do IPCC 2006, fatores mensais "
    "do SIN de 2024 (MCTI) e GWP do AR5.",
    "O diesel está separado pela mistura obrigatória vigente: B12 em janeiro e fevereiro e B14 "
    "a partir de 1º de março de 2024 (CNPE).",
    "As emissões de CO2 biogênico (cavaco de madeira, etanol e a parcela de biodiesel do "
    "diesel B12/B14) são relatadas à parte e não compõem o total do inventário.",
    "Escopo 3 relatado: categoria 5 (resíduos gerados nas operações) e categoria 6 (viagens "
    "a negócios).",
    "",
    "Contato: Coordenação de Sustentabilidade – sustentabilidade@valeverde.example",
)

_TITLE_FONT = Font(bold=True, size=13, color="1F5F3F")
_HEADER_FONT = Font(bold=True)
_GROUP_FILL = PatternFill("solid", fgColor="C6E0B4")
_HEADER_FILL = PatternFill("solid", fgColor="E2EFDA")
_TOTAL_FILL = PatternFill("solid", fgColor="F2F2F2")
_CENTER = Alignment(horizontal="center", vertical="center", wrap_text=True)
_THIN = Side(style="thin", color="A6A6A6")
_BOX = Border(left=_THIN, right=_THIN, top=_THIN, bottom=_THIN)
_FIXED_TIME = datetime(2025, 3, 31, 12, 0, 0)


def _write_about(workbook: openpyxl.Workbook) -> None:
    sheet = workbook.active
    sheet.title = "Sobre"
    for row, line in enumerate(_ABOUT, start=1):
        if line:
            sheet.cell(row=row, column=1, value=line)
    sheet["A1"].font = _TITLE_FONT
    sheet.column_dimensions["A"].width = 120


def _write_sheet(workbook: openpyxl.Workbook, spec: _Sheet) -> None:
    sheet = workbook.create_sheet(spec.name)
    width = len(spec.columns)
    sheet.cell(row=1, column=1, value=spec.title).font = _TITLE_FONT
    sheet.merge_cells(start_row=1, start_column=1, end_row=1, end_column=width)

    group_row, names_row = 3, 4
    for text, first, last in spec.groups:
        cell = sheet.cell(row=group_row, column=first, value=text)
        if last > first:
            sheet.merge_cells(
                start_row=group_row, start_column=first, end_row=group_row, end_column=last
            )
        for column in range(first, last + 1):
            target = sheet.cell(row=group_row, column=column)
            target.fill, target.border = _GROUP_FILL, _BOX
        cell.font, cell.alignment = _HEADER_FONT, _CENTER
    for column, name in enumerate(spec.columns, start=1):
        cell = sheet.cell(row=names_row, column=column, value=name)
        cell.font, cell.fill, cell.alignment, cell.border = (
            _HEADER_FONT, _HEADER_FILL, _CENTER, _BOX,
        )  # fmt: skip
        longest = max(len(str(row[column - 1])) for row in spec.rows)
        letter = get_column_letter(column)
        sheet.column_dimensions[letter].width = min(48, max(12, longest + 2, len(name) // 2 + 4))
    sheet.row_dimensions[names_row].height = 32

    row = names_row
    for values in spec.rows:
        row += 1
        for column, value in enumerate(values, start=1):
            cell = sheet.cell(row=row, column=column, value=value)
            cell.border = _BOX
            number_format = spec.formats.get(spec.columns[column - 1])
            if number_format and isinstance(value, int | float):
                cell.number_format = number_format

    row += 1
    label = sheet.cell(row=row, column=1, value="Total")
    for column in range(1, width + 1):
        cell = sheet.cell(row=row, column=column)
        cell.font, cell.fill, cell.border = _HEADER_FONT, _TOTAL_FILL, _BOX
    for name in spec.totals:
        index = spec.columns.index(name)
        numbers = [r[index] for r in spec.rows if isinstance(r[index], int | float)]
        cell = sheet.cell(row=row, column=index + 1, value=round(math.fsum(numbers), 6))
        cell.number_format = spec.formats.get(name, "#,##0.000")
    label.font = _HEADER_FONT
    sheet.cell(row=row + 2, column=1, value=spec.note).font = Font(italic=True, size=9)
    sheet.freeze_panes = sheet.cell(row=names_row + 1, column=1)


def build_sample_workbook() -> bytes:
    """The sample inventory as .xlsx bytes; the same data on every call."""
    workbook = openpyxl.Workbook()
    workbook.properties.title = f"Inventário GEE {YEAR} – {COMPANY}"
    workbook.properties.creator = "Aeko Studio (dados de demonstração)"
    workbook.properties.created = _FIXED_TIME
    _write_about(workbook)
    for make in _SHEETS:
        _write_sheet(workbook, make())
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def main() -> None:
    SAMPLE_PATH.write_bytes(build_sample_workbook())
    print(f"wrote {SAMPLE_PATH}")


if __name__ == "__main__":
    main()
