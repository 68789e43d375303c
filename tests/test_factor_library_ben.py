"""The shipped library on the Brazilian basis: BEN (EPE) densities and PCIs, the blend
shares of blends.csv, IPCC 2006 factors. Every expected value is worked out here from the
sources' numbers, written literally; nothing expected is read back from the library.

Sources (engine/emissions/data/README.md):
- BEN conversion table (EPE), as provided by the team's domain review: dry natural gas
  8,800 kcal/m³; diesel 840 kg/m³, 10,100 kcal/kg; gasoline A 742 kg/m³, 10,400 kcal/kg;
  anhydrous ethanol 791 kg/m³, 6,750 kcal/kg; biodiesel 880 kg/m³, 9,000 kcal/kg; LPG
  552 kg/m³, 11,100 kcal/kg. 1 kcal = 4.1868 kJ (the BEN's International Table calorie).
- IPCC 2006 Vol. 2: Table 1.4 (biogenic CO2: biodiesel and bioethanol 70,800 kg/TJ),
  Table 2.3 (manufacturing), Tables 3.2.1/3.2.2 (road), Table 3.3.1 (off-road).
- AR5 GWPs (WG1 Ch. 8 Table 8.A.1): CH4 28, N2O 265.
"""

from datetime import date

import pytest

from engine.emissions import estimate

GJ_T = 4.1868e-3  # GJ/t per kcal/kg: 1 kcal/kg = 4.1868 kJ/kg = 4.1868 MJ/t
CH4_GWP, N2O_GWP = 28, 265  # AR5


def _tj(litres: float, density_kg_m3: float, pci_kcal_kg: float) -> float:
    """TJ in ``litres`` of a fuel: L/1000 × kg/m³ = kg; × kcal/kg × 4.1868e-3 = GJ/t."""
    return litres / 1000 * density_kg_m3 * (pci_kcal_kg * GJ_T) / 1e6


def test_diesel_s10_b15_1000_l_fossil_and_biogenic_parts_on_one_basis():
    result = estimate("diesel S10", 1000, "L", date_or_year=date(2025, 9, 15))
    # B15 from 2025-08-01 (Res. CNPE nº 9/2025): 850 L diesel A + 150 L biodiesel.
    fossil_tj = _tj(850, 840, 10100)  # 714.0 kg × 42.28668 GJ/t = 0.0301926895 TJ
    bio_tj = _tj(150, 880, 9000)  # 132.0 kg × 37.6812 GJ/t = 0.0049739184 TJ
    assert fossil_tj == pytest.approx(0.0301926895, rel=1e-8)
    assert bio_tj == pytest.approx(0.0049739184, rel=1e-8)
    # Fossil CO2 from the fossil part only (Table 3.2.1, 74,100 kg/TJ): 2.2372783 t.
    assert result.gases_t["CO2"] == pytest.approx(fossil_tj * 74100 / 1000)
    assert result.gases_t["CO2"] == pytest.approx(2.2372783, rel=1e-7)
    # Biodiesel CO2 apart, biogenic (Table 1.4, 70,800 kg/TJ): 0.3521534 t.
    assert result.biogenic_co2_t == pytest.approx(bio_tj * 70800 / 1000)
    assert result.biogenic_co2_t == pytest.approx(0.3521534, rel=1e-6)
    # CH4 and N2O of both parts, 3.9 kg/TJ each (Table 3.2.2, diesel's for the biodiesel).
    both = (fossil_tj + bio_tj) * 3.9 / 1000  # 0.00013715 t
    assert result.gases_t["CH4"] == pytest.approx(both)
    assert result.gases_t["N2O"] == pytest.approx(both)
    # 2.2372783 + 0.00013715 × (28 + 265) = 2.2774632 t CO2e; the biogenic CO2 is not in it.
    assert result.tco2e == pytest.approx(2.2774632, rel=1e-6)
    # One basis: every density and PCI of both parts comes from the BEN rows.
    properties = [u for u in result.factors if u.role in ("densidade", "PCI")]
    assert len(properties) == 4
    assert all(u.source.startswith("Balanço Energético Nacional (BEN)") for u in properties)


@pytest.mark.parametrize(
    ("day", "ethanol", "co2_t", "biogenic_t", "tco2e"),
    [
        # E27 (Resolução do CIMA, from 2015-03-16): 730 L gasoline A + 270 L anhydrous.
        # Gasoline A: 541.66 kg × 43.54272 GJ/t = 0.0235853497 TJ × 69,300 = 1.6344647 t.
        # Ethanol: 213.57 kg × 28.2609 GJ/t = 0.0060356804 TJ × 70,800 = 0.4273262 t.
        # CH4 0.02358535 × 25 + 0.00603568 × 18 = 0.698276 kg; N2O (both × 8) 0.236968 kg
        # -> 1.6344647 + 0.000698276 × 28 + 0.000236968 × 265 = 1.7168130 t CO2e.
        (date(2025, 6, 15), 0.27, 1.6344647, 0.4273262, 1.7168130),
        # E30 (Res. CNPE nº 9/2025, from 2025-08-01): 700 L + 300 L.
        # 519.4 kg × 43.54272 = 0.0226160888 TJ -> 1.5672950 t; 237.3 kg × 28.2609 =
        # 0.0067063116 TJ -> 0.4748069 t; CH4 0.686116 kg, N2O 0.234579 kg -> 1.6486697 t.
        (date(2025, 9, 15), 0.30, 1.5672950, 0.4748069, 1.6486697),
    ],
)
def test_gasoline_c_1000_l_is_computed_with_the_ethanol_share_of_the_date(
    day, ethanol, co2_t, biogenic_t, tco2e
):
    result = estimate("gasolina C", 1000, "L", date_or_year=day)
    fossil_tj = _tj(1000 * (1 - ethanol), 742, 10400)
    bio_tj = _tj(1000 * ethanol, 791, 6750)
    assert result.gases_t["CO2"] == pytest.approx(fossil_tj * 69300 / 1000)  # Table 3.2.1
    assert result.gases_t["CO2"] == pytest.approx(co2_t, rel=1e-6)
    assert result.biogenic_co2_t == pytest.approx(bio_tj * 70800 / 1000)  # Table 1.4
    assert result.biogenic_co2_t == pytest.approx(biogenic_t, rel=1e-6)
    # CH4: gasoline, oxidation catalyst 25; "Ethanol, cars, Brazil" 18 kg/TJ (Table 3.2.2).
    assert result.gases_t["CH4"] == pytest.approx((fossil_tj * 25 + bio_tj * 18) / 1000)
    # N2O: 8 kg/TJ for both (Table 3.2.2 prints NA for ethanol: gasoline's stands in).
    assert result.gases_t["N2O"] == pytest.approx((fossil_tj + bio_tj) * 8 / 1000)
    assert result.tco2e == pytest.approx(tco2e, rel=1e-6)
    assert f"{round(ethanol * 100)}%" in result.explain("pt")


def test_gasoline_c_by_mass_is_split_by_the_ben_densities():
    result = estimate("gasolina C", 1000, "kg", date_or_year=date(2025, 6, 15))
    # E27: 1 L of gasoline C weighs 0.73 × 0.742 + 0.27 × 0.791 = 0.75523 kg.
    litres = 1000 / (0.73 * 0.742 + 0.27 * 0.791)  # 1,324.08 L
    fossil_tj = _tj(litres * 0.73, 742, 10400)
    bio_tj = _tj(litres * 0.27, 791, 6750)
    assert result.gases_t["CO2"] == pytest.approx(fossil_tj * 69300 / 1000)
    assert result.biogenic_co2_t == pytest.approx(bio_tj * 70800 / 1000)
    # Per litre the same as 1,324.08 L: kg only changes the quantity, not the factors.
    by_volume = estimate("gasolina C", litres, "L", date_or_year=date(2025, 6, 15))
    assert result.tco2e == pytest.approx(by_volume.tco2e)


def test_natural_gas_1000_m3_uses_the_ben_pci_per_volume():
    result = estimate("gás natural", 1000, "m³", date_or_year=2024)
    # 1,000 m³ × 8,800 kcal/m³ × 4.1868 kJ/kcal = 36,843.84 MJ = 0.03684384 TJ
    # (not 1,000 m³ × 0.7 kg/m³ × 48 GJ/t = 33.6 GJ).
    energy_tj = 1000 * 8800 * 4.1868 / 1e9
    assert energy_tj == pytest.approx(0.03684384)
    # Table 2.3: CO2 56,100, CH4 1, N2O 0.1 kg/TJ -> 2.0669394 t CO2 (2.067 kg/m³)
    # + 0.0000368 × 28 + 0.0000037 × 265 = 2.0689474 t CO2e.
    assert result.gases_t["CO2"] == pytest.approx(energy_tj * 56100 / 1000)
    assert result.gases_t["CO2"] == pytest.approx(2.0669394, rel=1e-7)
    assert result.tco2e == pytest.approx(2.0689474, rel=1e-6)
    assert not any(u.role == "densidade" for u in result.factors)


def test_natural_gas_in_kg_never_mixes_the_ben_pci_with_a_generic_density():
    result = estimate("gás natural", 1000, "kg", date_or_year=2024)
    # The BEN PCI is per m³ and the only density (0.7 kg/m³, GHG Protocol tools, reference
    # conditions unstated) is another source's: 1,000 kg × 48.0 GJ/t (IPCC Table 1.2) =
    # 0.048 TJ × 56,100 kg/TJ = 2.6928 t CO2.
    assert result.gases_t["CO2"] == pytest.approx(1000 * 48.0 / 1e6 * 56100 / 1000)
    assert not any(u.role == "densidade" for u in result.factors)
    assert "não misturar bases" in result.explain("pt")
    assert "not to mix bases" in result.explain("en")


def test_lpg_1000_kg_in_an_industrial_burner():
    result = estimate("GLP", 1000, "kg", date_or_year=2024)
    # 1,000 kg × 11,100 kcal/kg × 4.1868 kJ/kcal = 46.47348 GJ = 0.04647348 TJ (BEN);
    # Table 2.3 LPG: CO2 63,100, CH4 1, N2O 0.1 kg/TJ -> 2.9324766 t CO2
    # + 0.0000465 × 28 + 0.00000465 × 265 = 2.9350094 t CO2e.
    energy_tj = 1000 * 11100 * GJ_T / 1e6
    assert result.activity == "lpg_stationary"
    assert result.gases_t["CO2"] == pytest.approx(energy_tj * 63100 / 1000)
    assert result.gases_t["CH4"] == pytest.approx(energy_tj * 1 / 1000)
    assert result.gases_t["N2O"] == pytest.approx(energy_tj * 0.1 / 1000)
    assert result.tco2e == pytest.approx(2.9350094, rel=1e-6)


@pytest.mark.parametrize(
    "name", ["empilhadeira a GLP", "GLP empilhadeira", "Empilhadeiras a GLP", "LPG forklift",
             "lpg_offroad"]
)  # fmt: skip
def test_lpg_forklift_1000_l(name):
    result = estimate(name, 1000, "L", date_or_year=2024)
    assert result.activity == "lpg_offroad"
    assert (result.scope, result.category) == (1, "Combustão móvel")
    # 1,000 L × 552 kg/m³ = 552 kg × 46.47348 GJ/t = 0.02565336 TJ (BEN).
    energy_tj = _tj(1000, 552, 11100)
    assert energy_tj == pytest.approx(0.02565336, rel=1e-6)
    # Table 3.3.1 has no LPG row: the LPG row of Tables 3.2.1/3.2.2 (an engine's factors),
    # CO2 63,100, CH4 62, N2O 0.2 kg/TJ -> 1.6187271 t CO2, 1.5905 kg CH4, 0.00513 kg N2O
    # -> 1.6187271 + 0.0015905 × 28 + 0.0000051 × 265 = 1.6646209 t CO2e.
    assert result.gases_t["CO2"] == pytest.approx(energy_tj * 63100 / 1000)
    assert result.gases_t["CH4"] == pytest.approx(energy_tj * 62 / 1000)
    assert result.gases_t["N2O"] == pytest.approx(energy_tj * 0.2 / 1000)
    assert result.tco2e == pytest.approx(1.6646209, rel=1e-6)
    cited = {u.gas: u.source for u in result.factors if u.key == "lpg@offroad"}
    assert "Table 3.2.2" in cited["CH4"] and "Table 3.2.1" in cited["CO2"]


@pytest.mark.parametrize(
    ("day", "share"),
    [
        (date(2020, 9, 15), 0.10),  # ANP: B10 for September-October 2020
        (date(2020, 6, 18), 0.10),  # ANP: B10 for 16-21 June 2020
        (date(2020, 6, 15), 0.12),  # the day before
        (date(2020, 6, 22), 0.12),  # the day after
        (date(2020, 7, 15), 0.12),  # B12 from March 2020 (Res. CNPE nº 16/2018)
        (date(2020, 11, 15), 0.11),  # ANP: B11 for November-December 2020
    ],
)
def test_diesel_in_2020_uses_the_share_in_force_that_day(day, share):
    result = estimate("diesel S10", 1000, "L", date_or_year=day)
    fossil_tj = _tj(1000 * (1 - share), 840, 10100)
    bio_tj = _tj(1000 * share, 880, 9000)
    assert result.gases_t["CO2"] == pytest.approx(fossil_tj * 74100 / 1000)
    assert result.biogenic_co2_t == pytest.approx(bio_tj * 70800 / 1000)
    assert f"{round(share * 100)}%" in result.explain("pt")
