"""GHG Protocol rules that change a total: each one on a small workbook whose expected
figures are computed here, from the numbers written, never by the code under test."""

import globalwarmingpotentials
import pytest

from engine.inventory import InventoryError, load_inventory
from engine.inventory.fields import category_of
from tests.inventory_fixtures import xlsx

_GWP = globalwarmingpotentials.as_frame()


def gwp(gas: str, column: str = "AR5GWP100") -> float:
    return 1.0 if gas == "CO2" else float(_GWP.loc[gas, column])


def test_only_biogenic_co2_is_apart_biogenic_ch4_and_n2o_count_in_scope():
    fossil = [(100.0, 0.01, 0.002), (40.0, 0.02, 0.001)]
    biogenic = [(15.0, 0.003, 0.0004), (9.0, 0.001, 0.0002)]
    rows = [["Escopo 1 – Combustão móvel – 2024"], []]
    rows.append(
        ["Fonte", "Emissões fósseis (t)", None, None, "Emissões biogênicas (t)", None, None]
    )
    rows.append([None, "CO2", "CH4", "N2O", "CO2", "CH4", "N2O"])
    for i, (f, b) in enumerate(zip(fossil, biogenic, strict=True)):
        rows.append([f"Frota {i}", *f, *b])
    inv = load_inventory(
        xlsx({"Combustão móvel": rows}, {"Combustão móvel": ["B3:D3", "E3:G3"]}), filename="b.xlsx"
    )
    expected = sum(
        f[0] + (f[1] + b[1]) * gwp("CH4") + (f[2] + b[2]) * gwp("N2O")
        for f, b in zip(fossil, biogenic, strict=True)
    )
    assert inv.total_tco2e == pytest.approx(expected, rel=1e-9)
    assert inv.biogenic_co2_t == pytest.approx(sum(b[0] for b in biogenic))
    assert inv.totals_by("scope").set_index("scope")["tco2e"]["1"] == pytest.approx(expected)


def test_a_non_biogenic_column_is_fossil():
    rows = [
        ["Facility", "Total reported direct emissions (metric tons CO2e)",
         "CO2 emissions (non-biogenic)",
         "Methane (CH4) emissions", "Biogenic CO2 emissions (metric tons)"],
        ["A", 1000.0, 940.0, 60.0, 300.0],
        ["B", 500.0, 500.0, None, None],
    ]  # fmt: skip
    inv = load_inventory(xlsx({"Direct emitters": rows}), filename="epa.xlsx")
    assert inv.total_tco2e == pytest.approx(1500.0)
    assert inv.biogenic_co2_t == pytest.approx(300.0)
    assert inv.status == "reconciled"
    gases = inv.totals_by("gas").set_index("gas")["tco2e"]
    assert gases["CO2"] == pytest.approx(1440.0) and gases["CH4"] == pytest.approx(60.0)


def test_montreal_gases_are_a_memo_and_blends_containing_them_are_split():
    kg = {"HFC-134a": 10.0, "R-22": 4.0, "R-408A": 2.0}
    rows = [["Equipamento", "Gás", "Emissões (kg)"]]
    rows += [[f"Equip. {gas}", gas, mass] for gas, mass in kg.items()]
    inv = load_inventory(xlsx({"Fugitivas": rows}), filename="f.xlsx")
    r408a = {"HFC125": 0.07, "HFC143a": 0.46, "HCFC22": 0.47}
    kyoto = kg["HFC-134a"] / 1000 * gwp("HFC134a") + kg["R-408A"] / 1000 * sum(
        share * gwp(g) for g, share in r408a.items() if not g.startswith("HCFC")
    )
    montreal = (kg["R-22"] + kg["R-408A"] * r408a["HCFC22"]) / 1000 * gwp("HCFC22")
    assert inv.total_tco2e == pytest.approx(kyoto, rel=1e-9)
    assert inv.montreal_tco2e == pytest.approx(montreal, rel=1e-9)
    assert "HCFC22" not in set(inv.totals_by("gas")["gas"])


def test_scope2_location_and_market_are_never_summed_and_losses_are_reclassified():
    rows = [
        ["Escopo", "Categoria", "Fonte", "Abordagem", "Emissões (t CO2e)"],
        ["2", "Eletricidade", "Rede SIN", "Localização", 100.0],
        ["2", "Eletricidade", "Contrato ACL", "Escolha de compra", 20.0],
        ["2", "Perdas na transmissão e distribuição", "Perdas T&D", None, 5.0],
        ["2", "Perdas de refrigerante", "Chiller", None, 7.0],
    ]
    inv = load_inventory(xlsx({"Energia": rows}), filename="s2.xlsx")
    assert inv.scope2_location_tco2e == pytest.approx(100.0)
    assert inv.scope2_market_tco2e == pytest.approx(20.0)
    assert inv.total_tco2e == pytest.approx(100.0 + 5.0 + 7.0)
    scopes = inv.totals_by("scope").set_index("scope")["tco2e"]
    assert scopes.to_dict() == pytest.approx({"1": 7.0, "2": 100.0, "3": 5.0})
    assert any(f.code == "scope_reclassified" for f in inv.findings)


def test_a_grid_operator_keeps_its_t_and_d_losses_in_scope_2():
    """GHG Protocol Corporate Standard, ch. 4: T&D losses are Scope 2 of the company that
    owns or operates the lines; for an energy user they are Scope 3 category 3."""
    rows = [
        ["Inventário 2024 — Distribuidora de energia Exemplo S.A."],
        [],
        ["Escopo", "Categoria", "Fonte", "Emissões (t CO2e)"],
        ["1", "Combustão móvel", "Frota de manutenção", 40.0],
        ["3", "Perdas na transmissão e distribuição", "Perdas técnicas da rede", 900.0],
        ["2", "Eletricidade", "Consumo próprio das subestações", 60.0],
    ]
    inv = load_inventory(xlsx({"Emissões": rows}), filename="distribuidora.xlsx")
    scopes = inv.totals_by("scope").set_index("scope")["tco2e"].to_dict()
    assert scopes == pytest.approx({"1": 40.0, "2": 900.0 + 60.0})
    assert any(f.code == "scope_reclassified" and "Scope 2" in f.message_en for f in inv.findings)
    # the same rows from a company that only buys electricity: Scope 3 category 3
    user = [["Inventário 2024 — Cerâmica Exemplo S.A."], [], *rows[2:]]
    scopes = load_inventory(xlsx({"Emissões": user}), filename="c.xlsx").totals_by("scope")
    assert scopes.set_index("scope")["tco2e"].to_dict() == pytest.approx(
        {"1": 40.0, "2": 60.0, "3": 900.0}
    )


def test_category_rules_of_the_brazilian_program():
    assert category_of("Resíduos sólidos e efluentes líquidos")[0] == "1"
    assert category_of("Perdas de refrigerante")[0] == "1"
    assert category_of("Perdas na transmissão e distribuição")[0] == "3"
    assert category_of("Bens arrendados (downstream)") == ("3", "Bens arrendados (downstream)")


@pytest.mark.parametrize(
    ("origin", "value"), [("general", 27.9), ("fossil", 29.8), ("non_fossil", 27.0)]
)
def test_ar6_methane_by_origin(origin, value):
    rows = [["Fonte", "CH4 (t)"], ["Aterro", 10.0]]
    inv = load_inventory(xlsx({"S": rows}), filename="m.xlsx", gwp_set="AR6", ch4_origin=origin)
    assert inv.total_tco2e == pytest.approx(10.0 * value)
    assert str(value).replace(".", ",") in inv.gwp_label("pt")
    ar5 = load_inventory(xlsx({"S": rows}), filename="m.xlsx", gwp_set="AR5", ch4_origin=origin)
    assert ar5.total_tco2e == pytest.approx(10.0 * gwp("CH4"))


def test_a_unit_stated_nowhere_is_ambiguous_until_chosen_and_found_by_the_total_column():
    alone = [["Fonte", "CO2", "CH4"], ["Caldeira", 1000.0, 1.0]]
    inv = load_inventory(xlsx({"S": alone}), filename="u.xlsx")
    assert inv.status == "ambiguous"
    (check,) = inv.reconciliation
    assert "CO2" in check.message("en") and {"t", "kg"} <= set(check.unit_choices)
    assert {u.source for u in check.units} == {"default"}
    # read as t until the user says: 1,000 t CO2 + 1 t CH4 x 28 (AR5)
    assert inv.total_tco2e == pytest.approx(1000.0 + 28.0)
    chosen = load_inventory(xlsx({"S": alone}), filename="u.xlsx", units={"S": "kg"})
    assert chosen.total_tco2e == pytest.approx((1000.0 + 28.0) / 1000)
    assert chosen.status == "unverified"  # the unit is the user's; nothing to check against
    assert {u.source for u in chosen.reconciliation[0].units} == {"user"}
    kg = [["Fonte", "CO2", "CH4", "Total (t CO2e)"]]
    kg += [["Caldeira", 1_000_000.0, 100.0, 1000.0 + 0.1 * gwp("CH4")]]
    kg += [["Forno", 500_000.0, 20.0, 500.0 + 0.02 * gwp("CH4")]]
    inv = load_inventory(xlsx({"S": kg}), filename="u.xlsx")
    assert inv.status == "reconciled"
    assert inv.total_tco2e == pytest.approx(1500.0 + 0.12 * gwp("CH4"))
    units = {u.column: u for u in inv.reconciliation[0].units}
    assert units["Total (t CO2e)"].source == "header" and units["Total (t CO2e)"].factor == 1.0
    assert units["CO2"].source == "check" and units["CO2"].factor == 1e-3  # kg, from the total


def test_a_total_row_that_contradicts_its_rows_is_a_conflict_with_both_figures():
    rows = [["Fonte", "Emissões (t CO2e)"], ["A", 20_000.0], ["B", 6_424.55], ["Total", 23_458.01]]
    inv = load_inventory(xlsx({"S": rows}), filename="c.xlsx")
    assert inv.status == "conflict"
    (check,) = inv.conflicts
    assert check.stated_tco2e == pytest.approx(23_458.01)
    assert check.computed_tco2e == pytest.approx(26_424.55)
    assert "23.458,01" in check.message("pt") and "26,424.55" in check.message("en")


def test_years_across_columns_headline_is_the_latest_year_never_the_sum():
    years = [2018, 2019, 2020]
    values = {"Caldeira": [10.0, 11.0, 12.0], "Forno": [5.0, 4.0, 3.0]}
    rows = [["Emissões de CO2 (t)"], [], ["Fonte", *years]]
    rows += [[name, *v] for name, v in values.items()]
    rows.append(["Total", *[sum(v[i] for v in values.values()) for i in range(3)]])
    inv = load_inventory(xlsx({"CO2": rows}), filename="y.xlsx")
    assert inv.year == "2020" and inv.years == ["2018", "2019", "2020"]
    assert inv.total_tco2e == pytest.approx(15.0)
    assert inv.year_over_year().set_index("year")["tco2e"].to_dict() == pytest.approx(
        {"2018": 15.0, "2019": 15.0, "2020": 15.0}
    )
    assert inv.status == "reconciled"


def test_months_across_columns_are_summed_into_their_year():
    months = ["Jan", "Fev", "Mar", "Abr", "Mai", "Jun", "Jul", "Ago", "Set", "Out", "Nov", "Dez"]
    co2 = [float(m + 1) for m in range(12)]
    rows = [["Fonte", "Gás", "Unidade", *months], ["Caldeira", "CO2", "t", *co2]]
    rows.append(["Caldeira", "CH4", "kg", *[1.0] * 12])
    inv = load_inventory(xlsx({"Emissões 2024": rows}), filename="m.xlsx")
    assert inv.year == "2024"
    assert inv.total_tco2e == pytest.approx(sum(co2) + 12 / 1000 * gwp("CH4"))


def test_views_of_the_same_data_under_other_gwp_sets_are_an_error_naming_them():
    rows = [["Setor", 2019, 2020], ["1. Energia", 10.0, 12.0], ["2. Processos", 3.0, 4.0]]
    data = xlsx({"CO2e (GWP-SAR)": rows, "CO2e (GWP-AR4)": rows})
    with pytest.raises(InventoryError) as error:
        load_inventory(data, filename="v.xlsx", gwp_set="AR5")
    assert "CO2e (GWP-SAR)" in error.value.message_en and "CO2e (GWP-AR4)" in error.value.message_pt
    inv = load_inventory(data, filename="v.xlsx", gwp_set="AR4")
    assert inv.total_tco2e == pytest.approx(16.0)
    assert inv.sheets == ["CO2e (GWP-AR4)"]


def test_uncoded_subtotals_found_by_arithmetic_are_never_added_again():
    leaves = {
        "    Indústria": [30.0, 31.5],
        "    Transporte": [10.0, 12.25],
        "  Fugitivas": [20.0, 19.0],
    }
    other = [5.0, 6.5]
    fuel = [a + b for a, b in zip(leaves["    Indústria"], leaves["    Transporte"], strict=True)]
    energy = [f + c for f, c in zip(fuel, leaves["  Fugitivas"], strict=True)]
    rows = [["Setor", 2023, 2024], ["Energia", *energy], ["  Queima de combustíveis", *fuel]]
    rows += [[label, *v] for label, v in leaves.items()]
    rows.append(["Processos industriais", *other])
    inv = load_inventory(xlsx({"Emissões (t CO2e)": rows}), filename="tree.xlsx")
    assert inv.year == "2024"
    assert inv.total_tco2e == pytest.approx(energy[1] + other[1])
    assert set(inv.current["source"].str.strip()) == {
        "Indústria", "Transporte", "Fugitivas", "Processos industriais"
    }  # fmt: skip


def test_a_summary_sheet_checks_the_detail_sheets_and_is_not_added():
    detail = {"Escopo 1": {"Caldeira": 100.25, "Frota": 49.5}, "Escopo 2": {"Rede SIN": 30.0}}
    sheets = {"Resumo": [["Escopo", "Emissões (t CO2e)"]]}
    for name, sources in detail.items():
        sheets["Resumo"].append([name, sum(sources.values())])
        sheets[name] = [["Fonte", "Emissões (t CO2e)"], *[[s, v] for s, v in sources.items()]]
    inv = load_inventory(xlsx(sheets), filename="r.xlsx")
    assert inv.total_tco2e == pytest.approx(sum(sum(s.values()) for s in detail.values()))
    assert inv.sheets == ["Escopo 1", "Escopo 2"]
    assert inv.status == "reconciled"
    sheets["Resumo"][1][1] += 10.0  # a summary that disagrees is a conflict, still not added
    inv = load_inventory(xlsx(sheets), filename="r.xlsx")
    assert inv.total_tco2e == pytest.approx(sum(sum(s.values()) for s in detail.values()))
    assert inv.status == "conflict"


def test_scope2_by_both_methods_in_two_columns_is_never_summed():
    rows = [
        [
            "Escopo",
            "Fonte",
            "Emissões – localização (t CO2e)",
            "Emissões – escolha de compra (t CO2e)",
        ],
        ["2", "Fábrica A", 120.5, 30.0],
        ["2", "Fábrica B", 80.0, 80.0],
        ["1", "Caldeira", 50.0, None],
    ]
    inv = load_inventory(xlsx({"Energia": rows}), filename="s2.xlsx")
    assert inv.scope2_location_tco2e == pytest.approx(200.5)
    assert inv.scope2_market_tco2e == pytest.approx(110.0)
    assert inv.total_tco2e == pytest.approx(250.5)
    assert set(inv.totals_by("gas")["gas"]) == {"(não informado)"}
