"""The shipped sample inventory: loads through the real ingestion, and its totals add up."""

import io
import math
from datetime import date

import openpyxl
import pytest

from assets import SAMPLE_NAME, SAMPLE_PATH
from engine.inventory import load_inventory
from scripts.sample_inventory import (
    CARBONATE_EF,
    DIESEL_BLENDS,
    LITERATURE_GJ_PER_T,
    NCV_GJ,
    PLANTS,
    build_sample_workbook,
    mobile_sources,
    monthly_mwh,
    process_sources,
    stationary_sources,
)

DATA_SHEETS = [
    "Combustão estacionária",
    "Combustão móvel",
    "Emissões fugitivas",
    "Processos industriais",
    "Eletricidade (localização)",
    "Escopo 3 – Viagens",
    "Escopo 3 – Resíduos",
]


@pytest.fixture(scope="module")
def built() -> bytes:
    return build_sample_workbook()


@pytest.fixture(scope="module")
def inventory(built):
    return load_inventory(built, filename=SAMPLE_NAME)


def _total_rows(data: bytes) -> dict[str, dict[str, float]]:
    """Per data sheet: the 'Total' row's numbers, by the column names of the header row."""
    workbook = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    totals = {}
    for sheet in workbook.worksheets:
        rows = list(sheet.iter_rows(values_only=True))
        names_row = next(
            (row for row in rows if row and "Unidade" in row and "Fonte emissora" in row), None
        )
        total_row = next((row for row in rows if row and row[0] == "Total"), None)
        if names_row is None or total_row is None:
            continue
        totals[sheet.title] = {
            name: value
            for name, value in zip(names_row, total_row, strict=False)
            if isinstance(name, str) and isinstance(value, int | float)
        }
    workbook.close()
    return totals


def _co2e(sheet_totals: dict[str, float]) -> float:
    (value,) = [v for k, v in sheet_totals.items() if k.startswith("Emissões") and "CO2e" in k]
    return value


def test_every_data_sheet_is_mapped_and_the_prose_sheet_skipped(built, inventory):
    assert openpyxl.load_workbook(io.BytesIO(built)).sheetnames == ["Sobre", *DATA_SHEETS]
    assert inventory.sheets == DATA_SHEETS
    assert set(inventory.skipped_sheets) == {"Sobre"}
    for sheet in DATA_SHEETS:
        fields = set(inventory.mapping[sheet].values())
        assert {"facility", "source"} <= fields, sheet
        if sheet != "Emissões fugitivas":  # refrigerant losses: the mass lost is the datum
            assert {"quantity", "unit"} <= fields, sheet
        else:
            assert "gas" in fields
        assert any(f and f.startswith("emissions_") for f in fields), sheet


def test_three_scopes_with_sensible_shares(inventory):
    scopes = inventory.totals_by("scope").set_index("scope")
    assert set(scopes.index) == {"1", "2", "3"}
    share = scopes["share"]
    assert share["1"] > 0.8 and 0.04 < share["2"] < 0.15 and 0.005 < share["3"] < 0.05
    # 8.6 million m² (154,700 t) of tiles at ~5 GJ of gas per tonne is ~42 kt CO2 of gas,
    # plus ~4 kt of carbonates and ~6 kt from vehicles, refrigerants, grid, travel and waste.
    assert 45_000 < inventory.total_tco2e < 60_000
    categories = inventory.totals_by("category")["category"].tolist()
    assert categories[:2] == ["Combustão estacionária", "Processos industriais"]
    top = inventory.pareto(top=1).iloc[0]
    assert top["fuel"] == "Gás natural" and top["gas"] == "CO2"


def test_no_finding_not_even_for_the_skipped_prose_sheet(inventory):
    # The 'Sobre' sheet of prose is left out silently (issue #25): no table, nothing to
    # correct, so a plan never asks to "correct 1 finding" about it.
    assert inventory.skipped_sheets == {"Sobre": "nenhuma tabela encontrada"}
    assert [finding.code for finding in inventory.findings] == []


def test_every_sheet_reconciles_with_the_factor_library(inventory):
    """The ingestion recomputes the activity rows with the factor library: all agree with
    the sample's own computation from the cited values (BEN, IPCC 2006, MCTI)."""
    assert inventory.status == "reconciled"
    assert {c.sheet: c.status for c in inventory.reconciliation} == dict.fromkeys(
        DATA_SHEETS, "reconciled"
    )
    checked = {
        c.sheet: (e.compared, e.agreeing)
        for c in inventory.reconciliation
        for e in c.evidence
        if e.kind == "activity"
    }
    # Stationary: 6 gas, 1 wood chips, 2 LPG, 2 diesel rows. Mobile: 8 diesel, 2 LPG
    # forklift, 2 gasoline C and 2 hydrated ethanol rows. Electricity: 3 facilities x 12 months.
    assert checked == {
        "Combustão estacionária": (11, 11),
        "Combustão móvel": (14, 14),
        "Processos industriais": (10, 10),
        "Eletricidade (localização)": (36, 36),
    }


def test_the_total_is_the_sum_of_the_sheets_total_rows(built, inventory):
    totals = _total_rows(built)
    assert sorted(totals) == sorted(DATA_SHEETS)
    per_sheet = inventory.table.groupby("sheet")["emissions_tco2e"].sum()
    for sheet in DATA_SHEETS:
        assert per_sheet[sheet] == pytest.approx(_co2e(totals[sheet]), abs=0.01), sheet
    stated = math.fsum(_co2e(t) for t in totals.values())
    assert inventory.total_tco2e == pytest.approx(stated, abs=0.05)


def test_biogenic_co2_is_reported_apart(built, inventory):
    totals = _total_rows(built)
    stated = math.fsum(t.get("CO2 biogênico (t)", 0.0) for t in totals.values())
    assert inventory.biogenic_co2_t > 1_000
    assert inventory.biogenic_co2_t == pytest.approx(stated, abs=0.01)
    fossil_co2 = inventory.totals_by("gas").set_index("gas").loc["CO2", "tco2e"]
    assert fossil_co2 < inventory.total_tco2e


def _cells(data: bytes) -> dict[str, list[tuple]]:
    workbook = openpyxl.load_workbook(io.BytesIO(data), read_only=True)
    found = {ws.title: list(ws.iter_rows(values_only=True)) for ws in workbook.worksheets}
    workbook.close()
    return found


def test_the_shipped_file_is_the_fresh_build(built):
    assert _cells(SAMPLE_PATH.read_bytes()) == _cells(built)


def test_the_build_is_deterministic(built):
    assert _cells(build_sample_workbook()) == _cells(built)
    assert SAMPLE_NAME.endswith(".xlsx")


# Plausibility, from the builder's own data: the rules an expert review checked.


def _by_source(facility: str) -> dict[str, float]:
    return {s.source: s.quantity for s in stationary_sources() if s.facility == facility}


def test_kiln_spray_dryer_and_dryer_fuel_follow_production_within_the_literature():
    """GJ per tonne of each thermal step within the BREF range for wall and floor tiles."""
    gas = NCV_GJ["Gás natural"]
    for plant in PLANTS:
        fuel = _by_source(plant.facility)
        for kiln in plant.kilns:
            per_t = fuel[f"{kiln.name} (queima)"] * gas / plant.fired_t(kiln.m2)
            low, high = LITERATURE_GJ_PER_T["queima"]
            assert low <= per_t <= high, (plant.facility, kiln.name, per_t)
        per_t = fuel["Atomizador (spray dryer)"] * gas / plant.powder_t()
        low, high = LITERATURE_GJ_PER_T["atomização"]
        assert low <= per_t <= high, (plant.facility, per_t)
        per_t = fuel[plant.dryer] * NCV_GJ[plant.dryer_fuel] / plant.dry_body_t()
        low, high = LITERATURE_GJ_PER_T["secagem"]
        assert low <= per_t <= high, (plant.facility, per_t)
        # Cross-check per m²: ~1.1 m³/m² for a dry-route Santa Gertrudes kiln line, ~3.5 m³/m²
        # for the Italian industry. (The old sample burned 0.7-0.8 GJ/t: 2-5x too little.)
        m3 = sum(
            s.quantity
            for s in stationary_sources()
            if s.facility == plant.facility and s.fuel_name == "Gás natural"
        )
        assert 1.0 <= m3 / plant.m2 <= 3.5, (plant.facility, m3 / plant.m2)


def test_carbonates_split_into_calcite_and_dolomite_with_their_own_factors(built):
    assert round(CARBONATE_EF["Calcita (CaCO3)"], 3) == 0.440
    assert round(CARBONATE_EF["Dolomita (CaMg(CO3)2)"], 3) == 0.477
    workbook = openpyxl.load_workbook(io.BytesIO(built), read_only=True, data_only=True)
    rows = list(workbook["Processos industriais"].iter_rows(min_row=5, values_only=True))
    workbook.close()
    data = [row for row in rows if row and row[0] not in (None, "Total") and row[3] is not None]
    minerals = {row[2].split(" ")[0] for row in data}
    assert minerals == {"Calcita", "Dolomita"}
    for _, _, material, tonnes, _, factor, co2, _ in data:
        assert factor == pytest.approx(0.43971 if material.startswith("Calcita") else 0.47732)
        assert co2 == pytest.approx(tonnes * factor, abs=1e-3)
    # The carbonate fired is the kiln's dry body (from its production) times the lab content.
    for plant in PLANTS:
        for kiln in plant.kilns:
            body = [s for s in process_sources() if s.source.endswith(kiln.name.lower())]
            calcite, dolomite = (s.tonnes for s in body)
            assert calcite == round(plant.dry_body_t(kiln.m2) * plant.calcite)
            assert dolomite == round(plant.dry_body_t(kiln.m2) * plant.dolomite)


# Expected figures from the sources' literal values (not from the library or the builder).
# 1 kcal = 4.1868 kJ. Net calorific values and densities, BEN conversion table (EPE): dry
# natural gas 8,800 kcal/m³; diesel 10,100 kcal/kg, 840 kg/m³; biodiesel 9,000 kcal/kg,
# 880 kg/m³; gasoline A 10,400 kcal/kg, 742 kg/m³; anhydrous ethanol 6,750 kcal/kg, 791 kg/m³;
# hydrated ethanol 6,300 kcal/kg, 809 kg/m³; LPG 11,100 kcal/kg. Wood: IPCC 2006 vol. 2 ch. 1
# table 1.2, wood/wood waste 15.6 GJ/t.
KCAL = 4.1868e-6  # GJ
GJ_PER_M3_GAS = 8_800 * KCAL  # 0.036844 GJ/m³
GJ_PER_L_DIESEL_A = 10_100 * 0.840 * KCAL  # 0.035521 GJ/L
GJ_PER_L_BIODIESEL = 9_000 * 0.880 * KCAL  # 0.033160 GJ/L
GJ_PER_L_GASOLINE_A = 10_400 * 0.742 * KCAL  # 0.032309 GJ/L
GJ_PER_L_ANHYDROUS_ETHANOL = 6_750 * 0.791 * KCAL  # 0.022354 GJ/L
GJ_PER_L_HYDRATED_ETHANOL = 6_300 * 0.809 * KCAL  # 0.021339 GJ/L
GJ_PER_KG_LPG = 11_100 * KCAL  # 0.046473 GJ/kg
GJ_PER_T_WOOD = 15.6
# kg/TJ (CO2, CH4, N2O). IPCC 2006 vol. 2 ch. 2 table 2.3 (manufacturing): natural gas
# 56,100 / 1 / 0.1; diesel 74,100 / 3 / 0.6; LPG 63,100 / 1 / 0.1; wood (CO2 biogenic)
# 112,000 / 30 / 4. Table 2.4 (commercial): LPG 63,100 / 5 / 0.1. Ch. 3 tables 3.2.1-3.2.2
# (road): diesel 74,100 / 3.9 / 3.9; gasoline, oxidation catalyst 69,300 / 25 / 8;
# ethanol, cars, Brazil: CH4 18, N2O none (gasoline's 8 stands in); LPG
# 63,100 / 62 / 0.2 (forklifts: table 3.3.1 has no LPG). Table 3.3.1 (off-road): diesel
# 74,100 / 4.15 / 28.6.
EF = {
    "natural_gas": (56_100, 1.0, 0.1),
    "diesel_stationary": (74_100, 3.0, 0.6),
    "lpg_stationary": (63_100, 1.0, 0.1),
    "lpg_commercial": (63_100, 5.0, 0.1),
    "lpg_forklift": (63_100, 62.0, 0.2),
    "wood": (112_000, 30.0, 4.0),
    "diesel_road": (74_100, 3.9, 3.9),
    "diesel_offroad": (74_100, 4.15, 28.6),
    "gasoline_road": (69_300, 25.0, 8.0),
    "ethanol_road": (0.0, 18.0, 8.0),
}
BIOGENIC_KG_PER_TJ = 70_800  # biodiesel and ethanol, IPCC 2006 vol. 2 ch. 1 table 1.4
GWP = {"CH4": 28.0, "N2O": 265.0}  # AR5
# MCTI/SIRENE, average CO2 factor of the SIN for corporate inventories, 2024, t CO2/MWh.
MCTI_2024 = (0.0421, 0.0376, 0.0278, 0.0195, 0.0283, 0.0365,
             0.0571, 0.0739, 0.0917, 0.1127, 0.0701, 0.0564)  # fmt: skip


def _t(gj: float, kg_per_tj: float) -> float:
    return gj * kg_per_tj * 1e-6


def _expected(fuel: str, source: str, facility: str, quantity: float) -> tuple[float, ...]:
    """(fossil CO2, CH4, N2O, biogenic CO2) in t for one row, from the literal values."""
    if fuel == "Gás natural":
        gj = quantity * GJ_PER_M3_GAS
        co2, ch4, n2o = EF["natural_gas"]
        return _t(gj, co2), _t(gj, ch4), _t(gj, n2o), 0.0
    if fuel == "Cavaco de madeira":
        gj = quantity * GJ_PER_T_WOOD
        co2, ch4, n2o = EF["wood"]
        return 0.0, _t(gj, ch4), _t(gj, n2o), _t(gj, co2)
    if fuel == "GLP":
        use = (
            "lpg_forklift" if source == "Empilhadeiras"
            else "lpg_commercial" if facility.startswith("Escritório")
            else "lpg_stationary"
        )  # fmt: skip
        _, ch4, n2o = EF[use]
        gj = quantity * GJ_PER_KG_LPG
        return _t(gj, 63_100), _t(gj, ch4), _t(gj, n2o), 0.0
    if fuel == "Gasolina C":  # E27: 27% anhydrous ethanol by volume
        fossil = quantity * 0.73 * GJ_PER_L_GASOLINE_A
        bio = quantity * 0.27 * GJ_PER_L_ANHYDROUS_ETHANOL
        co2, ch4, n2o = EF["gasoline_road"]  # CH4 and N2O of the car on the whole energy
        return _t(fossil, co2), _t(fossil + bio, ch4), _t(fossil + bio, n2o), _t(bio, 70_800)
    if fuel == "Etanol hidratado":
        gj = quantity * GJ_PER_L_HYDRATED_ETHANOL
        _, ch4, n2o = EF["ethanol_road"]
        return 0.0, _t(gj, ch4), _t(gj, n2o), _t(gj, BIOGENIC_KG_PER_TJ)
    assert fuel.startswith("Óleo diesel (B"), fuel
    blend = int(fuel[len("Óleo diesel (B") : -1]) / 100
    use = (
        "diesel_stationary" if source.startswith("Gerador")
        else "diesel_offroad" if source.startswith("Pás carregadeiras")
        else "diesel_road"
    )  # fmt: skip
    fossil = quantity * (1 - blend) * GJ_PER_L_DIESEL_A
    bio = quantity * blend * GJ_PER_L_BIODIESEL
    co2, ch4, n2o = EF[use]  # CH4 and N2O of diesel on the biodiesel too
    return _t(fossil, co2), _t(fossil + bio, ch4), _t(fossil + bio, n2o), _t(bio, 70_800)


def _data_rows(data: bytes, sheet: str) -> list[dict[str, object]]:
    workbook = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    rows = list(workbook[sheet].iter_rows(values_only=True))
    workbook.close()
    names = next(row for row in rows if row and row[0] == "Unidade")
    start = rows.index(names) + 1
    end = next(i for i, row in enumerate(rows) if row and row[0] == "Total")
    return [dict(zip(names, row, strict=False)) for row in rows[start:end]]


@pytest.mark.parametrize("sheet", ["Combustão estacionária", "Combustão móvel"])
def test_combustion_rows_carry_the_cited_factors(built, sheet):
    """Each row's gases and t CO2e, recomputed from the sources' literal values."""
    rows = _data_rows(built, sheet)
    assert len(rows) == (11 if sheet == "Combustão estacionária" else 14)
    for row in rows:
        fuel, source = row["Combustível"], row["Fonte emissora"]
        expected = _expected(fuel, source, row["Unidade"], row["Quantidade"])
        stated = [row[c] or 0.0 for c in ("CO2 (t)", "CH4 (t)", "N2O (t)", "CO2 biogênico (t)")]
        assert stated == pytest.approx(expected, abs=1e-3, rel=1e-6), (source, fuel)
        co2, ch4, n2o = stated[:3]
        co2e = co2 + ch4 * GWP["CH4"] + n2o * GWP["N2O"]
        assert row["Emissões totais (t CO2e)"] == pytest.approx(co2e, abs=1e-3), source


def test_natural_gas_diesel_and_gasoline_spot_values(built):
    """Three rows by hand, in round numbers."""
    stationary = {(r["Unidade"], r["Fonte emissora"]): r for r in _data_rows(built, DATA_SHEETS[0])}
    kiln = stationary[("Fábrica Santa Gertrudes (SP)", "Forno a rolo 1 (queima)")]
    # 1,000 m³ x 8,800 kcal/m³ x 4.1868 kJ/kcal = 36.84384 GJ; x 56.1 t CO2/TJ = 2.0669394 t
    assert kiln["CO2 (t)"] == pytest.approx(kiln["Quantidade"] / 1_000 * 2.0669394, abs=1e-3)
    mobile = {(r["Unidade"], r["Fonte emissora"]): r for r in _data_rows(built, DATA_SHEETS[1])}
    truck = mobile[("Fábrica Santa Gertrudes (SP)", "Caminhões próprios – expedição – mar–dez")]
    assert truck["Quantidade"] == 392_200
    # 392,200 L x 86% = 337,292 L of diesel A x 0.840 kg/L x 10,100 kcal/kg x 4.1868 kJ/kcal
    # = 11,980.89 GJ; x 74.1 t CO2/TJ = 887.784 t
    assert truck["CO2 (t)"] == pytest.approx(887.784, abs=1e-3)
    (car,) = [r for r in _data_rows(built, DATA_SHEETS[1]) if r["Quantidade"] == 18_200]
    assert (car["Unidade"], car["Combustível"]) == ("Escritório São Paulo (SP)", "Gasolina C")
    # 18,200 L x 73% = 13,286 L of gasoline A x 0.742 kg/L x 10,400 kcal/kg x 4.1868 kJ/kcal
    # = 429.254 GJ; x 69.3 t CO2/TJ = 29.747 t fossil CO2
    assert car["CO2 (t)"] == pytest.approx(29.747, abs=1e-3)


def test_every_factor_is_stated_in_the_sheet_notes(built):
    """The combustion notes name the BEN and IPCC values the rows were computed with."""
    workbook = openpyxl.load_workbook(io.BytesIO(built), read_only=True)
    notes = {}
    for sheet in ("Combustão estacionária", "Combustão móvel"):
        texts = [v for row in workbook[sheet].iter_rows(values_only=True)
                 for v in row if isinstance(v, str)]  # fmt: skip
        notes[sheet] = next(t for t in texts if t.startswith("Fonte dos fatores"))
    about = " ".join(str(row[0]) for row in workbook["Sobre"].iter_rows(values_only=True))
    workbook.close()
    for note in notes.values():
        for value in ("8.800 kcal/m³", "10.100 kcal/kg e 840 kg/m³", "9.000 kcal/kg e 880 kg/m³",
                      "10.400 kcal/kg e 742 kg/m³", "6.750 kcal/kg e 791 kg/m³",
                      "1 kcal = 4,1868 kJ", "IPCC (2006)", "B14", "E27", "AR5"):  # fmt: skip
            assert value in note, value
        assert "biblioteca" not in note
    assert "GLP" in notes["Combustão móvel"] and "3.3.1" in notes["Combustão móvel"]
    assert "BEN" in about and "MCTI" in about


def test_electricity_is_monthly_with_the_mcti_monthly_factors(built):
    rows = _data_rows(built, "Eletricidade (localização)")
    months = ("jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez")
    by_facility: dict[str, list[dict]] = {}
    for row in rows:
        by_facility.setdefault(row["Unidade"], []).append(row)
    assert len(by_facility) == 3
    quarters_sg = (8_120.4, 7_985.6, 8_310.2, 7_874.9)  # the Santa Gertrudes bills
    for facility, twelve in by_facility.items():
        assert [r["Mês"] for r in twelve] == [f"{m}/2024" for m in months], facility
        for row, factor in zip(twelve, MCTI_2024, strict=True):
            assert row["Unidade de medida"] == "MWh"
            assert row["Fator de emissão (t CO2/MWh)"] == pytest.approx(factor)
            assert row["Emissões (t CO2e)"] == pytest.approx(row["Quantidade"] * factor, abs=1e-4)
    sg = [r["Quantidade"] for r in by_facility["Fábrica Santa Gertrudes (SP)"]]
    for quarter, mwh in enumerate(quarters_sg):
        assert math.fsum(sg[3 * quarter : 3 * quarter + 3]) == pytest.approx(mwh, abs=1e-6)
    assert monthly_mwh(quarters_sg) == sg
    total = math.fsum(r["Emissões (t CO2e)"] for r in rows)
    assert _co2e(_total_rows(built)["Eletricidade (localização)"]) == pytest.approx(total, abs=1e-4)


def _kg_per_tj(tonnes: float, gj: float) -> float:
    return tonnes / gj * 1e6


def test_off_road_machinery_uses_off_road_factors_and_trucks_road_factors(built):
    rows = _data_rows(built, "Combustão móvel")
    loaders = [r for r in rows if r["Fonte emissora"].startswith("Pás carregadeiras")]
    trucks = [r for r in rows if r["Fonte emissora"].startswith("Caminhões")]
    assert len(loaders) == len(trucks) == 4
    for rows_, (ch4, n2o) in ((loaders, (4.15, 28.6)), (trucks, (3.9, 3.9))):
        for r in rows_:  # IPCC 2006 vol. 2 ch. 3: table 3.3.1 off-road, 3.2.2 road
            blend = 0.12 if "(B12)" in r["Combustível"] else 0.14
            gj = r["Quantidade"] * ((1 - blend) * GJ_PER_L_DIESEL_A + blend * GJ_PER_L_BIODIESEL)
            assert _kg_per_tj(r["N2O (t)"], gj) == pytest.approx(n2o, rel=1e-4)
            assert _kg_per_tj(r["CH4 (t)"], gj) == pytest.approx(ch4, rel=2e-3)


def test_diesel_is_b12_before_march_2024_and_b14_after(built):
    assert [(start, blend) for start, _, blend, _ in DIESEL_BLENDS] == [
        (date(2024, 1, 1), 0.12),
        (date(2024, 3, 1), 0.14),
    ]
    diesel = [s for s in stationary_sources() + mobile_sources() if "diesel" in s.fuel_name]
    assert diesel
    stated = {
        (r["Unidade"], r["Fonte emissora"]): r["CO2 biogênico (t)"]
        for sheet in ("Combustão estacionária", "Combustão móvel")
        for r in _data_rows(built, sheet)
    }
    year_split = [(date(2024, 1, 1), date(2024, 2, 29)), (date(2024, 3, 1), date(2024, 12, 31))]
    periods: dict[tuple[str, str], list[tuple[date, date]]] = {}
    for s in diesel:
        start, end = s.period
        expected = 0.12 if end < date(2024, 3, 1) else 0.14
        assert start >= date(2024, 3, 1) or end < date(2024, 3, 1), s.source
        assert f"B{round(expected * 100)}" in s.fuel_name
        label = "jan–fev" if expected == 0.12 else "mar–dez"
        assert s.source.endswith(label), s.source
        # Biogenic CO2: the biodiesel's share, 33.16 MJ/L, 70.8 t CO2/TJ (IPCC table 1.4).
        bio = s.quantity * expected * GJ_PER_L_BIODIESEL * 70.8e-3
        assert stated[(s.facility, s.source)] == pytest.approx(bio, abs=1e-3), s.source
        periods.setdefault((s.facility, s.source.rsplit(" – ", 1)[0]), []).append(s.period)
    for equipment, spans in periods.items():  # each machine covers the year, split once
        assert sorted(spans) == year_split, equipment
