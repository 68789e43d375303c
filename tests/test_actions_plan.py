"""Targets, the schedule, SBCE readiness and the texts of a plan's computed actions.

Actions are built by hand: the schedule, readiness and texts are checked against figures
worked out here, not against what the planner proposes.
"""

import math
import re
import warnings

import pandas as pd
import pytest

from assets import SAMPLE_PATH
from engine.actions import (
    Action,
    Installation,
    PlanActions,
    RowRef,
    Target,
    build_plan_actions,
    history,
    linear_path,
    readiness,
    sbti_target,
    schedule,
)
from engine.actions import sbce as S
from engine.actions.render import actions_table, path_text, sbce_text, summary_text
from engine.actions.targets import allowed_tco2e, inventory_target, target_cut
from engine.inventory import load_inventory
from tests.inventory_fixtures import xlsx

# --- helpers --------------------------------------------------------------------------------

_HEADER = "Unidade,Escopo,Fonte,Gás,Emissões (t CO2e),Ano"


def _inventory(*rows: tuple[str, int, str, str, float, int]):
    """An inventory from (facility, scope, source, gas, t CO2e, year) rows, through the real
    CSV ingestion."""
    lines = [_HEADER] + [",".join(str(v) for v in row) for row in rows]
    return load_inventory("\n".join(lines).encode("utf-8"), filename="inventario.csv")


def _action(
    key: str,
    mid: float,
    *,
    spread: float = 0.0,
    cost: float | None = 100.0,
    lead: int = 1,
    scope: int = 1,
    market: bool = False,
) -> Action:
    return Action(
        id=f"{key}@1",
        measure_id=key,
        measure={"pt": f"Medida {key}", "en": f"Measure {key}"},
        source={"pt": "Caldeira", "en": "Boiler"},
        mechanism="market_instrument" if market else "efficiency",
        rows=(
            RowRef(
                sheet="Inventário",
                row=2,
                source="Caldeira",
                facility="Planta A",
                gas="CO2",
                tco2e=mid * 4,
            ),
        ),
        scope=scope,
        scope2_method="market" if market else None,
        baseline_tco2e=mid * 4,
        reduction_low_tco2e=mid - spread,
        reduction_high_tco2e=mid + spread,
        cost_per_t_brl=cost,
        lead_time_years=lead,
    )


@pytest.fixture(scope="module")
def ten_thousand():
    """10,000 t CO2e in 2024, all of it one boiler's."""
    return _inventory(("Planta A", 1, "Caldeira", "CO2", 10_000, 2024))


@pytest.fixture(scope="module")
def sample():
    return load_inventory(SAMPLE_PATH)


# --- the target path ------------------------------------------------------------------------


def test_the_linear_path_by_hand():
    target = Target(base_year=2020, base_tco2e=1_000.0, percent=42.0, year=2030)
    path = linear_path(target, range(2019, 2032))
    # 42% over 10 years: 42 t a year off 1,000 t; flat before the base year and after.
    assert path[2019] == pytest.approx(1_000.0)
    assert path[2020] == pytest.approx(1_000.0)
    assert path[2021] == pytest.approx(958.0)
    assert path[2025] == pytest.approx(790.0)
    assert path[2030] == pytest.approx(580.0)
    assert path[2031] == pytest.approx(580.0)


def test_an_sbti_target_cuts_4_2_percent_of_the_base_a_year():
    target = sbti_target(2024, 10_000.0, 2030)
    assert target.percent == 25.2  # 4.2 × 6, exactly as shown
    assert (target.base_year, target.base_tco2e, target.year) == (2024, 10_000.0, 2030)
    assert allowed_tco2e(target, 2027) == pytest.approx(10_000 - 3 * 420)
    assert sbti_target(2024, 1.0, 2030, rate=2.5).percent == 15.0
    with pytest.raises(ValueError):
        sbti_target(2024, 1.0, 2024)
    with pytest.raises(ValueError):
        sbti_target(2000, 1.0, 2030)  # 126% of the base


def test_history_is_the_reported_total_of_each_year():
    inventory = _inventory(
        ("Planta A", 1, "Caldeira", "CO2", 900, 2023),
        ("Planta A", 1, "Caldeira", "CO2", 800, 2024),
        ("Planta A", 2, "Energia", "CO2", 50, 2024),
    )
    assert history(inventory) == {2023: pytest.approx(900.0), 2024: pytest.approx(850.0)}
    assert history(inventory)[2024] == pytest.approx(inventory.total_tco2e)
    earlier = _inventory(("Planta A", 1, "Caldeira", "CO2", 1_000, 2022))
    assert history(inventory, [earlier])[2022] == pytest.approx(1_000.0)


def test_the_path_shows_the_years_reported_before_the_inventory_year():
    inventory = _inventory(
        ("Planta A", 1, "Caldeira", "CO2", 11_000, 2022),
        ("Planta A", 1, "Caldeira", "CO2", 10_500, 2023),
        ("Planta A", 1, "Caldeira", "CO2", 10_000, 2024),
    )
    target = sbti_target(2022, 11_000.0, 2030)
    _, path, meets, shortfall = schedule([], target, inventory)
    assert [p.year for p in path] == list(range(2022, 2031))
    assert [p.actual_tco2e for p in path[:3]] == [11_000.0, 10_500.0, 10_000.0]
    assert [p.expected_tco2e for p in path[:3]] == [11_000.0, 10_500.0, 10_000.0]
    # Nothing planned: 2030 stays at 2024's 10,000 t against 11,000 × (1 − 33.6%) = 7,304 t.
    assert meets is False and shortfall == pytest.approx(10_000 - 7_304)


# --- the schedule ---------------------------------------------------------------------------
#
# 10,000 t in 2024, 4.2%/yr to 2030: allowed 9,580 (2025), 9,160, 8,740, 8,320, 7,900 and
# 7,480 t (2030). Work starts in 2025; a lead time of 1 year puts an action in place in 2026.


def test_enough_actions_meet_the_target(ten_thousand):
    cheap = _action("A", 1_500, spread=500, cost=50.0)
    dear = _action("B", 1_500, spread=500, cost=100.0)
    unknown = _action("C", 3_000, cost=None)
    target = sbti_target(2024, 10_000.0, 2030)
    actions, path, meets, shortfall = schedule([unknown, dear, cheap], target, ten_thousand)

    assert [a.measure_id for a in actions] == ["A", "B", "C"]  # by cost, unknown last
    by_id = {a.measure_id: a for a in actions}
    # A: 2025 is already above the path (10,000 > 9,580), but 1 year of lead time → 2026.
    assert (by_id["A"].needed_year, by_id["A"].deadline) == (2025, 2026)
    # B: with A, 8,500 t stays within 9,160 (2026) and 8,740 (2027); above 8,320 in 2028.
    assert (by_id["B"].needed_year, by_id["B"].deadline) == (2028, 2028)
    # C: with A and B, 7,000 t stays within 7,480 t through 2030: not needed.
    assert (by_id["C"].needed_year, by_id["C"].deadline) == (None, None)

    assert meets is True and shortfall == 0.0
    assert [p.year for p in path] == list(range(2024, 2031))
    expected = {2024: 10_000, 2025: 10_000, 2026: 8_500, 2027: 8_500, 2028: 7_000,
                2029: 7_000, 2030: 7_000}  # fmt: skip
    expected_low = {2024: 10_000, 2025: 10_000, 2026: 9_000, 2027: 9_000, 2028: 8_000,
                    2029: 8_000, 2030: 8_000}  # fmt: skip
    for point in path:
        assert point.expected_tco2e == pytest.approx(expected[point.year])
        assert point.expected_low_tco2e == pytest.approx(expected_low[point.year])
        assert point.allowed_tco2e == pytest.approx(10_000 - 420 * (point.year - 2024))
    assert path[0].actual_tco2e == pytest.approx(10_000.0)
    assert all(p.actual_tco2e is None for p in path[1:])


def test_too_few_actions_fall_short_by_the_gap(ten_thousand):
    target = sbti_target(2024, 10_000.0, 2030)
    actions, path, meets, shortfall = schedule([_action("A", 1_500)], target, ten_thousand)
    # 2030: 10,000 − 1,500 expected against 7,480 allowed.
    assert meets is False
    assert shortfall == pytest.approx(10_000 - 1_500 - 7_480)
    assert path[-1].expected_tco2e - path[-1].allowed_tco2e == pytest.approx(shortfall)
    assert actions[0].deadline == 2026


def test_no_deadline_comes_before_the_lead_time(ten_thousand):
    target = sbti_target(2024, 10_000.0, 2035)
    actions = [_action(f"X{lead}", 400, cost=10.0 * lead, lead=lead) for lead in (1, 2, 3, 4, 5, 6)]
    scheduled, path, _, _ = schedule(actions, target, ten_thousand, start_year=2025)
    assert all(a.deadline is not None for a in scheduled)
    for index, action in enumerate(scheduled):
        assert action.deadline >= 2025 + action.lead_time_years
        assert action.needed_year is not None and action.needed_year <= action.deadline
        # The basis: the cheaper actions in place by its deadline leave that year above the
        # path, and so every year from its needed year on.
        for year in range(action.needed_year, action.deadline + 1):
            cheaper = [a for a in scheduled[:index] if a.deadline <= year]
            allowed = next(p.allowed_tco2e for p in path if p.year == year)
            assert 10_000 - sum(a.reduction_mid_tco2e for a in cheaper) > allowed


def test_an_action_too_slow_for_the_target_is_left_off_the_path(ten_thousand):
    target = sbti_target(2024, 10_000.0, 2027)
    slow = _action("S", 5_000, lead=5)  # in place 2030 at the earliest
    actions, _, meets, shortfall = schedule([slow], target, ten_thousand)
    assert actions[0].deadline is None and actions[0].needed_year == 2025
    assert meets is False
    assert shortfall == pytest.approx(10_000 - (10_000 - 3 * 420))


def test_cheaper_actions_are_put_in_place_first(ten_thousand):
    target = sbti_target(2024, 10_000.0, 2030)
    first = _action("cheap", 600, cost=-20.0)  # a saving: cheapest of all
    second = _action("mid", 600, cost=80.0)
    third = _action("dear", 600, cost=300.0)
    actions, *_ = schedule([third, second, first], target, ten_thousand)
    assert [a.measure_id for a in actions] == ["cheap", "mid", "dear"]
    deadlines = [a.deadline for a in actions]
    assert deadlines == sorted(deadlines)
    assert deadlines[0] == 2026


def test_unknown_costs_go_last_and_the_larger_first(ten_thousand):
    target = sbti_target(2024, 10_000.0, 2030)
    small, large = _action("small", 100, cost=None), _action("large", 900, cost=None)
    known = _action("known", 50, cost=5_000.0)
    actions, *_ = schedule([small, large, known], target, ten_thousand)
    assert [a.measure_id for a in actions] == ["known", "large", "small"]


def test_a_market_instrument_does_not_count_on_the_location_based_total(ten_thousand):
    target = sbti_target(2024, 10_000.0, 2030)
    market = _action("I-REC", 5_000, cost=1.0, scope=2, market=True)
    actions, path, meets, _ = schedule([market], target, ten_thousand)
    assert actions[0].deadline is None
    assert meets is False and path[-1].expected_tco2e == pytest.approx(10_000.0)


def test_a_target_year_not_after_the_inventory_is_refused(ten_thousand):
    with pytest.raises(ValueError):
        schedule([], Target(base_year=2020, base_tco2e=1.0, percent=10, year=2024), ten_thousand)


# --- what a target covers -------------------------------------------------------------------
#
# 2024: Scope 1 = 1,000 t, Scope 2 = 500 t location-based and 300 t market-based, Scope 3 =
# 5,000 t. The SBTi-style target is on Scopes 1 + 2: 1,500 t (location) or 1,300 t (market);
# Scope 3 is handled apart. 4.2%/yr to 2030 is 25.2%: 1,500 × 0.748 = 1,122 t and 1,300 ×
# 0.748 = 972.4 t allowed in 2030.


@pytest.fixture(scope="module")
def scoped():
    sheets = {
        "Escopo 1": [
            ["Escopo", "Categoria", "Fonte", "Combustível", "Gás", "Emissões (t)", "Ano"],
            ["1", "Combustão estacionária", "Caldeira", "Gás natural", "CO2", 1_000, 2024],
        ],
        "Energia": [
            ["Escopo", "Categoria", "Fonte", "Abordagem", "Emissões (t CO2e)", "Ano"],
            ["2", "Eletricidade", "Rede SIN", "Localização", 500, 2024],
            ["2", "Eletricidade", "Rede SIN", "Escolha de compra", 300, 2024],
        ],
        "Escopo 3": [
            ["Escopo", "Categoria", "Fonte", "Emissões (t CO2e)", "Ano"],
            ["3", "Bens e serviços comprados", "Aço", 5_000, 2024],
        ],
    }
    return load_inventory(xlsx(sheets), filename="escopos.xlsx")


def test_the_default_target_covers_scopes_1_and_2_location_based(scoped):
    """Before issue #21 the target path ran on the inventory total, Scope 3 included
    (6,500 t here): the SBTi's 4.2%/yr applies to Scopes 1 + 2, Scope 3 handled apart."""
    target = inventory_target(scoped, 2024, 25.2, 2030)
    assert (target.base_tco2e, target.scope2_method, target.include_scope3) == (
        pytest.approx(1_500.0), "location", False,
    )  # fmt: skip
    assert sbti_target(2024, 1_500.0, 2030) == target
    _, path, meets, shortfall = schedule([], target, scoped)
    assert path[0].actual_tco2e == pytest.approx(1_500.0)
    assert path[0].expected_tco2e == pytest.approx(1_500.0)
    assert path[-1].allowed_tco2e == pytest.approx(1_500 * (1 - 0.252))  # 1,122 t
    assert meets is False and shortfall == pytest.approx(1_500 - 1_122)


def test_a_market_based_target_tracks_market_based_scope2(scoped):
    target = inventory_target(scoped, 2024, 25.2, 2030, scope2_method="market")
    assert target.base_tco2e == pytest.approx(1_300.0)  # 1,000 + 300, never + 500
    assert sbti_target(2024, 1_300.0, 2030, scope2_method="market") == target
    _, path, _, shortfall = schedule([], target, scoped)
    assert path[0].actual_tco2e == pytest.approx(1_300.0)
    assert path[-1].allowed_tco2e == pytest.approx(972.4)
    assert shortfall == pytest.approx(1_300 - 972.4)
    # A market instrument counts on it (and only on it); a location-based cut does not.
    irec = _action("I-REC", 200, cost=1.0, scope=2, market=True)
    solar = _action("solar", 100, cost=2.0, scope=2)
    actions, path, _, shortfall = schedule([irec, solar], target, scoped)
    by_id = {a.measure_id: a for a in actions}
    assert by_id["I-REC"].deadline == 2026 and by_id["solar"].deadline is None
    assert path[-1].expected_tco2e == pytest.approx(1_300 - 200)
    assert shortfall == pytest.approx(1_100 - 972.4)
    location = inventory_target(scoped, 2024, 25.2, 2030)
    actions, path, *_ = schedule([irec, solar], location, scoped)
    assert {a.measure_id: a.deadline for a in actions} == {"solar": 2026, "I-REC": None}
    assert path[-1].expected_tco2e == pytest.approx(1_500 - 100)


def test_scope3_actions_are_handled_apart_from_the_target(scoped):
    target = inventory_target(scoped, 2024, 25.2, 2030)
    supplier = _action("aço verde", 4_000, cost=1.0, scope=3)
    boiler = _action("caldeira", 300, cost=5.0)
    actions, path, _, shortfall = schedule([supplier, boiler], target, scoped)
    by_id = {a.measure_id: a for a in actions}
    assert by_id["aço verde"].deadline is None and by_id["caldeira"].deadline == 2026
    assert path[-1].expected_tco2e == pytest.approx(1_500 - 300)
    assert shortfall == pytest.approx(1_200 - 1_122)
    plan = PlanActions(actions=actions, target=target, path=path, meets_target=False,
                       shortfall_tco2e=shortfall, inventory_tco2e=6_500.0,
                       inventory_year=2024, start_year=2025,
                       target_baseline_tco2e=1_500.0)  # fmt: skip
    pt, en = path_text(plan, "pt"), path_text(plan, "en")
    assert "**Meta** (Escopos 1 e 2, com o Escopo 2 por localização)" in pt
    assert "**Target** (Scopes 1 and 2, Scope 2 location-based)" in en
    assert "O Escopo 3 fica fora desta meta" in pt and "Scope 3 is outside this target" in en
    assert "inventário de 2024 (1.500,0 t CO2e)" in pt  # the covered figure, not 6,500
    assert "Medida aço verde (Escopo 3: fora da meta)" in pt
    assert "Measure aço verde (Scope 3: outside the target)" in en
    assert "Escopo 3: fora da meta dos Escopos 1 e 2" in actions_table(plan, "pt")


def test_a_modal_shift_counts_its_whole_scope1_fall_on_a_scopes_1_2_target():
    # Own trucks: Scope 1 falls 100–300 t, the carrier adds 60–75 t to Scope 3 (net 40–225).
    shift = _action("modal", 132.5, spread=92.5).model_copy(
        update={"mechanism": "modal_shift", "scope3_added_low_tco2e": 60.0,
                "scope3_added_high_tco2e": 75.0, "scope3_added_category": 4}
    )  # fmt: skip
    target = sbti_target(2024, 10_000.0, 2030)
    assert target_cut(shift, target) == pytest.approx((100 + 300) / 2)  # Scope 3 is apart
    assert target_cut(shift, target, low=True) == pytest.approx(100.0)
    whole = target.model_copy(update={"include_scope3": True})
    assert target_cut(shift, whole) == pytest.approx((40 + 225) / 2)  # the net, with Scope 3


def test_build_plan_actions_records_the_target_s_baseline(scoped, monkeypatch):
    import sys
    import types

    planner = types.ModuleType("engine.actions.planner")
    planner.propose = lambda inventory, catalogue=None, costs=None: ([], [])
    monkeypatch.setitem(sys.modules, "engine.actions.planner", planner)
    market = inventory_target(scoped, 2024, 25.2, 2030, scope2_method="market")
    plan = build_plan_actions(scoped, target=market)
    assert plan.target_baseline_tco2e == pytest.approx(1_300.0)
    assert plan.inventory_tco2e == pytest.approx(6_500.0)  # the total stays the total
    assert "Escopo 2 por mercado" in path_text(plan, "pt")
    assert "market-based Scope 2, as the user chose" in path_text(plan, "en")


# --- SBCE readiness -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("scope1", "status", "near"),
    [
        (8_999, "below", None),
        (9_500, "below", "monitoring"),
        # The law says "acima de 10.000": exactly at the threshold is not above it.
        (10_000, "below", "monitoring"),
        (10_001, "monitoring", None),
        (24_000, "monitoring", "allowances"),
        (25_000, "monitoring", "allowances"),
        (26_000, "allowances", None),
    ],
)
def test_each_installation_against_the_thresholds(scope1, status, near):
    inventory = _inventory(
        ("Planta A", 1, "Caldeira", "CO2", scope1, 2024),
        ("Planta A", 2, "Energia elétrica", "CO2", 5_000, 2024),  # Scope 2: not counted
        ("Planta A", 3, "Resíduos", "CO2e", 5_000, 2024),
    )
    (plant,) = readiness(inventory)
    assert plant == Installation(facility="Planta A", scope1_tco2e=scope1, status=status, near=near)


def test_the_thresholds_are_the_offline_answers():
    from engine.offline.regulation import ALLOWANCES_T, REPORTING_T

    assert (S.MONITORING_T, S.ALLOWANCES_T) == (REPORTING_T, ALLOWANCES_T)


def test_memo_rows_are_outside_scope_1():
    inventory = _inventory(
        ("Planta A", 1, "Caldeira", "CO2", 9_000, 2024),
        ("Planta A", 1, "Caldeira a lenha", "CO2 biogênico", 3_000, 2024),
        ("Planta A", 1, "Chiller", "HCFC-22", 2_000, 2024),
    )
    (plant,) = readiness(inventory)
    assert plant.scope1_tco2e == pytest.approx(9_000.0)


def test_split_facilities_are_judged_one_by_one():
    inventory = _inventory(
        ("Planta A", 1, "Caldeira", "CO2", 8_000, 2024),
        ("Planta B", 1, "Forno", "CO2", 7_000, 2024),
        ("Planta C", 1, "Frota", "CO2", 6_000, 2024),
    )
    found = readiness(inventory)
    assert [(i.facility, i.status) for i in found] == [
        ("Planta A", "below"), ("Planta B", "below"), ("Planta C", "below")
    ]  # fmt: skip
    text = sbce_text(found, "pt")
    assert "21.000,0 t CO2e" in text and "não decide a sujeição" in text  # 21,000 > 10,000
    assert "pela lei, sem obrigação" in text
    assert "21,000.0 t CO2e" in sbce_text(found, "en")


def test_rows_without_a_facility_form_one_group_to_assign():
    inventory = _inventory(
        ("Planta A", 1, "Caldeira", "CO2", 12_000, 2024),
        ("", 1, "Gerador", "CO2", 300, 2024),
        ("", 1, "Empilhadeira", "CO2", 200, 2024),
    )
    found = readiness(inventory)
    assert [(i.facility, i.scope1_tco2e) for i in found] == [
        ("Planta A", pytest.approx(12_000.0)),
        (S.UNASSIGNED, pytest.approx(500.0)),
    ]
    pt, en = sbce_text(found, "pt"), sbce_text(found, "en")
    assert "(unidade não informada): 500,0 t CO2e" in pt
    assert "vale por instalação: atribua essas linhas" in pt
    assert "applies per installation: assign these rows" in en


def test_sbce_texts_carry_the_figures_in_each_language():
    found = [
        S.installation("Fábrica 1", 26_000.0),
        S.installation("Fábrica 2", 24_000.0),
        S.installation("Fábrica 3", 9_500.0),
        S.installation("Fábrica 4", 10_000.0),
    ]
    pt, en = sbce_text(found, "pt"), sbce_text(found, "en")
    assert "Fábrica 1: 26.000,0 t CO2e de Escopo 1 por ano, acima de 25.000 t CO2e" in pt
    assert "CBE" in pt and "CRVE" in pt
    assert "Fábrica 2: 24.000,0 t CO2e" in pt and "faltam 1.000,0 t CO2e" in pt
    assert "Fábrica 3: 9.500,0 t CO2e" in pt and "faltam 500,0 t CO2e" in pt
    assert "Fábrica 4: 10.000,0 t CO2e" in pt and "Está no limite de 10.000 t CO2e" in pt
    assert "Fábrica 1: 26,000.0 t CO2e of Scope 1 a year, above 25,000 t CO2e" in en
    assert "1,000.0 t CO2e below it" in en and "sits at the 10,000 t CO2e threshold" in en
    assert "69.500,0" in pt and "69,500.0" in en  # the sum, said not to decide
    assert "Lei nº 15.042" in pt and "Lei nº 15.042" in en
    assert "<" not in pt + en and "http" not in pt + en


def test_the_sample_inventory_readiness(sample):
    # Independently of the ingestion: each Scope 1 sheet's own t CO2e column, per facility.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sheets = pd.read_excel(SAMPLE_PATH, sheet_name=None, header=None, engine="openpyxl")
    parts = []
    for frame in sheets.values():
        if not str(frame.iat[0, 0]).startswith("Escopo 1"):
            continue
        table = frame.iloc[4:].set_axis(list(frame.iloc[3]), axis=1)
        column = [c for c in table.columns if "t CO2e" in str(c)][-1]
        facility = table["Unidade"].astype("string")
        data = table[facility.notna() & ~facility.str.startswith(("Total", "Fonte"))]
        parts.append(pd.DataFrame({"facility": data["Unidade"], "t": data[column]}))
    expected = pd.concat(parts).groupby("facility")["t"].sum().astype(float)

    found = readiness(sample)
    assert {i.facility for i in found} == set(expected.index)
    for item in found:
        # The workbook rounds its t CO2e cells to 4 decimals.
        assert item.scope1_tco2e == pytest.approx(expected[item.facility], abs=0.01)
        assert item.status == S.status_of(expected[item.facility])
    assert [(i.facility, i.status, i.near) for i in found] == [
        ("Fábrica Santa Gertrudes (SP)", "allowances", None),
        ("Fábrica Criciúma (SC)", "monitoring", None),
        ("Escritório São Paulo (SP)", "below", None),
    ]


# --- the texts ------------------------------------------------------------------------------


def _plan() -> PlanActions:
    """A hand-built plan: 20,000 t in 2024, a 4.2%/yr target to 2030 it falls short of."""
    boiler = Action(
        id="gn_biomassa@Combustão estacionária:5,6",
        measure_id="gn_biomassa",
        measure={"pt": "Trocar gás natural por biomassa", "en": "Switch natural gas to biomass"},
        source={"pt": "Gás natural", "en": "Natural gas"},
        mechanism="fuel_switch",
        rows=(
            RowRef(
                sheet="Combustão estacionária",
                row=5,
                source="Forno 1",
                facility="Planta A",
                gas="CO2",
                tco2e=4_000.0,
            ),
            RowRef(
                sheet="Combustão estacionária",
                row=5,
                source="Forno 1",
                facility="Planta A",
                gas="CH4",
                tco2e=10.0,
            ),
            RowRef(
                sheet="Combustão estacionária",
                row=6,
                source="Forno | 2",
                facility="Planta A",
                gas="CO2",
                tco2e=2_000.0,
            ),
        ),
        scope=1,
        baseline_tco2e=6_010.0,
        reduction_low_tco2e=1_234.5,
        reduction_high_tco2e=2_345.7,
        biogenic_co2_t=3_210.5,
        capex_brl=1_250_000.0,
        opex_delta_brl_yr=-180_000.0,
        cost_per_t_brl=120.0,
        payback_years=3.4,
        lead_time_years=2,
        deadline=2027,
        needed_year=2025,
        kpi={"pt": "Participação de biomassa no calor (%)", "en": "Biomass share of heat (%)"},
    )
    certificates = Action(
        id="i_rec@Eletricidade:7",
        measure_id="i_rec",
        measure={"pt": "Comprar I-REC", "en": "Buy I-RECs"},
        source={"pt": "Eletricidade da rede", "en": "Grid electricity"},
        mechanism="market_instrument",
        rows=(
            RowRef(
                sheet="Eletricidade",
                row=7,
                source="Rede SIN",
                facility="Planta A",
                gas="CO2",
                tco2e=800.0,
            ),
        ),
        scope=2,
        scope2_method="market",
        baseline_tco2e=800.0,
        reduction_low_tco2e=700.0,
        reduction_high_tco2e=800.0,
        kpi={"pt": "MWh com I-REC", "en": "MWh with I-RECs"},
    )
    inventory = _inventory(("Planta A", 1, "Forno 1", "CO2", 20_000, 2024))
    target = sbti_target(2024, 20_000.0, 2030)
    actions, path, meets, shortfall = schedule([boiler, certificates], target, inventory)
    return PlanActions(
        actions=actions,
        target=target,
        path=path,
        meets_target=meets,
        shortfall_tco2e=shortfall,
        installations=readiness(inventory),
        inventory_tco2e=inventory.total_tco2e,
        inventory_year=2024,
        start_year=2025,
    )


@pytest.fixture(scope="module")
def plan() -> PlanActions:
    return _plan()


def test_the_plan_schedules_as_worked_out_by_hand(plan):
    boiler, certificates = plan.actions
    # 2025: 20,000 > 19,160 allowed, but 2 years of lead time → in place in 2027.
    assert (boiler.needed_year, boiler.deadline) == (2025, 2027)
    assert certificates.deadline is None
    # 2030: 20,000 − 1,790.1 (mid) = 18,209.9 against 14,960 allowed.
    assert plan.shortfall_tco2e == pytest.approx(20_000 - (1_234.5 + 2_345.7) / 2 - 14_960)


def test_the_actions_table_in_both_languages(plan):
    pt, en = actions_table(plan, "pt"), actions_table(plan, "en")
    table, note = pt.split("\n\n")
    assert note.startswith("Δ Opex negativo é economia")
    header, rule, *rows = table.splitlines()
    assert header.count("|") == 12 and rule.count("---") == 11
    assert all(row.count("|") == 12 for row in rows)  # "Forno | 2" does not add a column
    boiler, certificates = rows
    assert "Trocar gás natural por biomassa" in boiler
    assert "Forno 1 · Planta A · CO2, CH4; Forno / 2 · Planta A · CO2" in boiler
    assert "| 6.010,0 | 1.234,5–2.345,7 | 1.250.000 | -180.000 | 120 | 3,4 anos |" in boiler
    assert "2027 (trajetória exige desde 2025; implantação de 2 anos)" in boiler
    assert "| 2 (mercado) |" in certificates
    assert certificates.count("custo desconhecido") == 4  # capex, opex, R$/t, payback
    assert "não muda o total" in certificates

    assert "| 6,010.0 | 1,234.5–2,345.7 | 1,250,000 | -180,000 | 120 | 3.4 years |" in en
    assert "2027 (path needs it from 2025; lead time 2 years)" in en
    assert "| 2 (market) |" in en and "cost unknown" in en
    assert "Biomass share of heat (%)" in en
    assert "<" not in pt + en and "http" not in pt + en


def test_the_path_text_says_plainly_it_falls_short(plan):
    pt, en = path_text(plan, "pt"), path_text(plan, "en")
    # 20,000 × 25.2% = 5,040 t off by 2030: 14,960 t allowed, 840 t less each year.
    assert "reduzir 25,2% das emissões de 2024 (20.000,0 t CO2e) até 2030" in pt
    assert "no máximo 14.960,0 t CO2e em 2030" in pt and "840,0 t CO2e a menos por ano" in pt
    assert "não pode ser cumprida com estas ações" in pt
    assert "as emissões esperadas são 18.209,9 t CO2e" in pt  # 20,000 − 1,790.1
    assert "faltam 3.249,9 t CO2e" in pt  # 18,209.9 − 14,960
    assert "3,249.9 t CO2e short" in en
    assert "cannot be met with these actions" in en and "cut 25.2% of 2024 emissions" in en
    assert "| 2027 | 17,480.0 | 18,209.9 | 18,765.5 | — |" in en  # low: 20,000 − 1,234.5
    assert "Comprar I-REC (Escopo 2 por mercado: não muda o total)" in pt


def test_a_target_met_says_so(ten_thousand):
    target = sbti_target(2024, 10_000.0, 2030)
    actions, path, meets, shortfall = schedule(
        [_action("A", 3_000, cost=10.0)], target, ten_thousand
    )
    plan = PlanActions(actions=actions, target=target, path=path, meets_target=meets,
                       shortfall_tco2e=shortfall, inventory_tco2e=10_000.0,
                       inventory_year=2024, start_year=2025)  # fmt: skip
    pt, en = path_text(plan, "pt"), path_text(plan, "en")
    assert "**A meta é atingida**: em 2030 as emissões esperadas são 7.000,0 t CO2e" in pt
    assert "dentro das 7.480,0 t CO2e permitidas" in pt
    assert "Mesmo com as reduções baixas" in pt
    assert "**The target is met**: in 2030 expected emissions are 7,000.0 t CO2e" in en
    assert "Anos acima da trajetória (redução média): 2025." in pt  # before anything is in place


def test_the_summary_text(plan):
    pt, en = summary_text(plan, "pt"), summary_text(plan, "en")
    # On the total: the boiler only (1,234.5–2,345.7 of 20,000 = 6.2–11.7%).
    assert "2 ações; inventário de 2024: 20.000,0 t CO2e (AR5)" in pt
    assert "1.234,5–2.345,7 t CO2e/ano = 6,2%–11,7% do inventário" in pt
    assert "Escopo 2 por mercado, à parte do total (que usa localização): 700,0–800,0" in pt
    assert "CO2 biogênico acrescentado pelas trocas de combustível: 3.210,5 t/ano" in pt
    assert "R$ 1.250.000; Δ opex somado: R$ -180.000/ano" in pt
    assert "custo desconhecido (fora das somas de custo): 1" in pt
    assert "Meta de 2030: não atingida; faltam" in pt
    assert "1,234.5–2,345.7 t CO2e/yr = 6.2%–11.7% of the inventory" in en
    assert "Biogenic CO2 added by the fuel switches: 3,210.5 t/yr" in en
    assert "2030 target: not met" in en


def test_every_number_in_the_summary_comes_from_the_plan(plan):
    # Each figure is one of the plan's, a sum of them, or a share of the inventory total.
    boiler, certificates = plan.actions
    from_plan = {
        "2": len(plan.actions), "2024": plan.inventory_year, "20.000,0": plan.inventory_tco2e,
        "1.234,5": boiler.reduction_low_tco2e, "2.345,7": boiler.reduction_high_tco2e,
        "6,2": 100 * boiler.reduction_low_tco2e / plan.inventory_tco2e,
        "11,7": 100 * boiler.reduction_high_tco2e / plan.inventory_tco2e,
        "700,0": certificates.reduction_low_tco2e, "800,0": certificates.reduction_high_tco2e,
        "3.210,5": boiler.biogenic_co2_t, "1.250.000": boiler.capex_brl,
        "-180.000": boiler.opex_delta_brl_yr, "1": 1, "2030": plan.target.year,
        "3.249,9": plan.shortfall_tco2e,
    }  # fmt: skip
    text = summary_text(plan, "pt").replace("CO2", "").replace("AR5", "")
    for figure in re.findall(r"-?\d[\d.,]*\d|\d", text):
        assert figure in from_plan, figure
        value = float(figure.replace(".", "").replace(",", "."))
        assert value == pytest.approx(from_plan[figure], abs=0.05), figure


def test_no_actions_and_no_target_are_said_plainly():
    empty = PlanActions(inventory_tco2e=1_500.0, inventory_year=2024)
    assert actions_table(empty, "pt") == "Nenhuma ação proposta para este inventário."
    assert actions_table(empty, "en") == "No actions proposed for this inventory."
    assert "1.500,0 t CO2e" in summary_text(empty, "pt")
    assert path_text(empty, "pt") == "Nenhuma meta de redução definida."
    assert "nada a avaliar" in sbce_text([], "pt")


# --- build_plan_actions ---------------------------------------------------------------------


def test_build_plan_actions_fills_the_plan(monkeypatch, ten_thousand):
    # The planner is another module: here it proposes two hand-built actions.
    import sys
    import types

    chosen = [_action("A", 1_500, cost=50.0), _action("B", 1_500, cost=100.0)]
    alternative = _action("Z", 100, cost=10.0)
    planner = types.ModuleType("engine.actions.planner")
    planner.propose = lambda inventory, catalogue=None, costs=None: (chosen, [alternative])
    monkeypatch.setitem(sys.modules, "engine.actions.planner", planner)

    target = sbti_target(2024, 10_000.0, 2030)
    plan = build_plan_actions(ten_thousand, target=target)
    assert [a.deadline for a in plan.actions] == [2026, 2028]
    assert plan.alternatives == [alternative]
    assert plan.meets_target is True and plan.shortfall_tco2e == 0.0  # 7,000 ≤ 7,480 t
    assert plan.path[-1].expected_tco2e == pytest.approx(7_000.0)
    assert (plan.gwp_set, plan.inventory_year, plan.start_year) == ("AR5", 2024, 2025)
    assert plan.inventory_tco2e == pytest.approx(10_000.0)
    assert [i.facility for i in plan.installations] == ["Planta A"]
    assert PlanActions.model_validate(plan.model_dump()) == plan  # persists as it is

    untargeted = build_plan_actions(ten_thousand)
    assert untargeted.target is None and untargeted.path == []
    assert all(a.deadline is None for a in untargeted.actions)
    assert math.isclose(untargeted.total_low_tco2e, 3_000.0)


def test_the_default_actions_of_an_inventory_are_computed_once_and_handed_out_as_copies(
    monkeypatch,
):
    from engine.actions import build_plan_actions, planner

    calls = []
    propose = planner.propose

    def counted(*args, **kwargs):
        calls.append(1)
        return propose(*args, **kwargs)

    monkeypatch.setattr(planner, "propose", counted)
    inventory = load_inventory(SAMPLE_PATH.read_bytes(), filename=SAMPLE_PATH.name)
    first = build_plan_actions(inventory)
    first.actions.clear()  # a caller's change stays its own
    second = build_plan_actions(inventory)
    assert len(calls) == 1 and second.actions
    assert second == build_plan_actions(inventory)
    other = load_inventory(SAMPLE_PATH.read_bytes(), filename=SAMPLE_PATH.name)
    assert build_plan_actions(other) == second  # the same numbers for an equal inventory
    assert len(calls) == 2  # but another inventory object is planned on its own
