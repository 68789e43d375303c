"""Physical bands of the factor a row's stated emissions imply (engine.inventory.plausibility).

Every implied factor here is computed in this file from source values: IPCC 2006 Vol. 2
Ch. 1 Tables 1.2 (NCV) and 1.4 (CO2 per TJ), the BEN conversion table (densities, PCI), the
MCTI grid factor, and the GWPs of the IPCC assessment reports.
"""

from __future__ import annotations

import pandas as pd
import pytest

from engine.inventory.plausibility import band_for, implied_scale, is_plausible, judge

KCAL_GJ = 4.1868e-6  # GJ per International Table kcal
DIESEL_CO2 = 74_100  # kg/TJ, IPCC 2006 Table 1.4
DIESEL_DENSITY = 0.840  # kg/L, BEN
DIESEL_NCV_BEN = 10_100 * KCAL_GJ * 1000  # GJ/t: 42.28668
DIESEL_NCV_IPCC = 43.0  # GJ/t, IPCC 2006 Table 1.2
NATURAL_GAS_CO2 = 56_100  # kg/TJ
NATURAL_GAS_PCI_M3 = 8_800 * KCAL_GJ  # GJ/m³, BEN dry gas


def diesel_fossil_co2_per_litre(biodiesel_share: float, ncv: float) -> float:
    """kg of fossil CO2 per litre of diesel B: only the (1 − share) fossil part counts."""
    return (1 - biodiesel_share) * DIESEL_DENSITY * ncv / 1e3 * DIESEL_CO2 / 1e3


LITRES = pd.Series([1_000.0, 2_500.0, 800.0])


def stated_t(per_litre_kg: float, litres: pd.Series = LITRES) -> pd.Series:
    return litres * per_litre_kg / 1000


@pytest.mark.parametrize("share", [0.0, 0.07, 0.10, 0.14, 0.20])
@pytest.mark.parametrize("ncv", [DIESEL_NCV_BEN, DIESEL_NCV_IPCC])
def test_the_diesel_band_holds_the_fossil_co2_of_any_blend_up_to_b20(share, ncv):
    # B0 at IPCC values: 0.840 × 43.0 × 74.1 = 2.6765 kg/L; B20 at BEN values:
    # 0.8 × 0.840 × 42.28668 × 74.1 / 1000 = 2.1057 kg/L.
    per_litre = diesel_fossil_co2_per_litre(share, ncv)
    assert 2.1 < per_litre < 2.7
    assert implied_scale("diesel_road", "L", LITRES, stated_t(per_litre)) == 1.0
    assert is_plausible("diesel_road", "litros", LITRES, stated_t(per_litre))
    assert is_plausible("diesel_offroad", "m³", LITRES / 1000, stated_t(per_litre))


@pytest.mark.parametrize(
    ("written_in", "scale"),
    [(1e-3, 1e3), (1.0, 1.0), (1e3, 1e-3), (1e6, 1e-6)],  # Gg, t, kg and g read as t
)
def test_the_power_of_a_thousand_that_brings_diesel_into_its_band(written_in, scale):
    per_litre = diesel_fossil_co2_per_litre(0.14, DIESEL_NCV_BEN)
    as_read = stated_t(per_litre) * written_in  # kg written where t is read: 1,000 × the t
    assert implied_scale("diesel_road", "L", LITRES, as_read) == scale


def test_an_implausible_reading_says_so_in_both_languages():
    as_read = stated_t(2.6) * 1000  # 2,600 kg of CO2 per litre as read
    judged = judge("diesel_road", "L", LITRES, as_read)
    assert judged is not None and not judged.plausible
    assert (judged.rows, judged.inside, judged.scale) == (3, 0, 1e-3)
    assert judged.message("pt") == (
        "a leitura implica 2.600 kg CO2 por litro de óleo diesel; a faixa física é 1,9–3,2 "
        "kg/L (× 0,001 cabe na faixa: as emissões parecem estar noutra unidade)"
    )
    assert judged.message("en") == (
        "the reading implies 2,600 kg CO2 per litre of diesel; the physical band is 1.9–3.2 "
        "kg/L (× 0.001 fits the band: the emissions look to be in another unit)"
    )


def test_natural_gas_per_cubic_metre_both_factors_plausible():
    # BEN: 8,800 kcal/m³ × 56.1 t/TJ = 2.0669 kg/m³; IPCC default 48 GJ/t × 0.7 kg/m³ ×
    # 56.1 = 1.885 kg/m³: both inside 1.8–2.3, and 1,000 times either is not.
    m3 = pd.Series([10_000.0, 25_000.0])
    per_gj = NATURAL_GAS_CO2 / 1000  # kg CO2 per GJ
    for per_m3 in (NATURAL_GAS_PCI_M3 * per_gj, 48.0 * 0.7 / 1000 * per_gj):  # GJ/m³ × kg/GJ
        assert 1.8 < per_m3 < 2.3
        assert is_plausible("natural_gas_stationary", "m³", m3, m3 * per_m3 / 1000)
        assert implied_scale("gás natural", "m3", m3, m3 * per_m3) == 1e-3


def test_grid_electricity_prefers_the_reading_nearest_as_stated():
    # MCTI SIN average, January 2024: 0.0421 t CO2/MWh. A band from 0 admits every smaller
    # power too; the one nearest 1 is kept.
    mwh = pd.Series([702.4, 688.1])
    stated = mwh * 0.0421
    assert implied_scale("electricity_grid", "MWh", mwh, stated) == 1.0
    assert implied_scale("electricity_grid", "MWh", mwh, stated * 1000) == 1e-3
    assert implied_scale("electricity_grid", "kWh", mwh * 1000, stated) == 1.0
    assert not is_plausible("electricity_grid", "MWh", mwh, stated * 1000)


def test_a_refrigerant_cannot_emit_more_than_its_mass_times_its_largest_gwp():
    # R-410A = 50 % HFC-32 + 50 % HFC-125; the largest GWP-100 is AR6's (HFC-32 771,
    # HFC-125 3,740: AR6 WG1 Ch. 7 Table 7.SM.7): 0.5 × 771 + 0.5 × 3,740 = 2,255.5.
    band = band_for("refrigerant:R-410A", "kg")
    assert band is not None
    assert (band.low, band.high, band.mass, band.unit) == (0.0, 2.2555, "t", "kg")
    kg = pd.Series([10.0])
    ar5 = kg * (0.5 * 677 + 0.5 * 3170) / 1000  # 19.235 t CO2e
    assert implied_scale("R-410A", "kg", kg, ar5) == 1.0
    assert implied_scale("R-410A", "kg", kg, ar5 * 1000) == 1e-3
    assert not is_plausible("R-410A", "kg", kg, kg * 2.3)  # above 2,255.5 kg CO2e per kg


def test_no_band_no_answer_and_no_majority_no_scale():
    litres = pd.Series([1_000.0, 1_000.0])
    assert implied_scale("wood_stationary", "t", litres, litres) is None  # biogenic: no band
    assert implied_scale("diesel_road", "km", litres, litres) is None  # not a fuel's unit
    assert implied_scale("diesel_road", "L", litres, pd.Series([0.0, None])) is None
    # Half the rows in t, half in kg: no power brings most of them into the band.
    mixed = pd.Series([2.6, 2_600.0])
    assert implied_scale("diesel_road", "L", litres, mixed) is None
    assert judge("diesel_road", "L", litres, mixed).inside == 1


def test_lpg_per_kilogram_and_per_litre():
    # IPCC: 63.1 t CO2/TJ; BEN: 11,100 kcal/kg = 46.47 GJ/t and 552 kg/m³.
    per_kg = 11_100 * KCAL_GJ * 63_100 / 1000  # GJ/kg × kg CO2/GJ = 2.9325 kg CO2 per kg
    kg = pd.Series([42_000.0])
    assert is_plausible("GLP", "kg", kg, kg * per_kg / 1000)
    litres = kg / 0.552
    assert is_plausible("GLP", "L", litres, kg * per_kg / 1000)  # 1.619 kg CO2/L
    assert implied_scale("GLP", "kg", kg, kg * per_kg) == 1e-3


def test_a_long_table_s_methane_row_is_not_judged_against_the_co2_band():
    """One row per activity and gas (a long table): the CH4 row of 1,000 L of diesel states
    0.0004 t, which says nothing about CO2 per litre; only the CO2 row is judged (2.6 kg/L,
    inside the 1.9–3.2 band)."""
    import io

    import openpyxl

    from engine.inventory import load_inventory

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Combustão móvel"
    sheet.append(["Fonte", "Combustível", "Quantidade", "Unidade", "Ano", "Gás", "Emissões (t)"])
    for gas, tonnes in (("CO2", 2.6), ("CH4", 0.0004), ("N2O", 0.0001)):
        sheet.append(["Caminhão 1", "Óleo diesel", 1000.0, "L", 2024, gas, tonnes])
    buffer = io.BytesIO()
    book.save(buffer)
    inventory = load_inventory(buffer.getvalue(), filename="frota.xlsx")
    assert not [f for f in inventory.findings if f.code == "activity_implausible"]
    assert inventory.status != "conflict"
    # 2.6 + 0.0004 × 28 + 0.0001 × 265 (AR5), the workbook's own figures
    assert inventory.total_tco2e == pytest.approx(2.6 + 0.0004 * 28 + 0.0001 * 265)
