"""Measured chat quality (issue #13, point 6): the offline analyst answers the eval set.

The set and its checks live in tests/eval/; bench/eval.py runs the same set against any
model. Here: the set's shape, the checks themselves (so that they can fail), the expected
values against independent sources, and the offline analyst's score.
"""

from __future__ import annotations

import openpyxl
import pytest
from globalwarmingpotentials import as_frame

from engine import Aeko
from engine.offline import OfflineAnalyst
from tests.eval import checks
from tests.eval.checks import AnswerSpec, NumberCheck, check_answer, quantities, read_number
from tests.eval.harness import (
    GROUPS,
    HOLDOUT,
    SAMPLE,
    failure_report,
    load_questions,
    run_all,
    sample_figures,
    score,
    spec_for,
)

MIN_SCORE = 0.90
MIN_QUESTIONS = 60


@pytest.fixture
def offline():
    model = OfflineAnalyst()
    Aeko.config(fast_model=model, slow_model=model)
    return model


# --- the set ------------------------------------------------------------------------------


def test_the_set_has_60_questions_in_both_languages_and_every_group():
    questions = load_questions()
    assert len(questions) >= MIN_QUESTIONS
    assert len({q.id for q in questions}) == len(questions)
    assert {q.group for q in questions} == set(GROUPS)
    for group in GROUPS:
        assert {q.lang for q in questions if q.group == group} == {"pt", "en"}, group
    portuguese = sum(q.lang == "pt" for q in questions) / len(questions)
    assert 0.4 <= portuguese <= 0.6
    assert all(q.attach == "sample" for q in questions if q.group == "my_data")
    assert all(q.attach is None for q in questions if q.group == "no_inventory")


def test_every_question_has_something_to_check():
    for question in load_questions():
        spec = spec_for(question)
        assert spec.expect != "answer" or spec.facts or spec.numbers, question.id


# --- expected values from independent sources ---------------------------------------------


def _sheet_totals() -> dict[str, float]:
    """Each sheet's own 'Total' row, per scope: the workbook's word against the row sums."""
    totals = {"scope1": 0.0, "scope2": 0.0, "scope3": 0.0}
    book = openpyxl.load_workbook(SAMPLE, data_only=True, read_only=True)
    for sheet in book.worksheets:
        rows = [list(row) for row in sheet.iter_rows(values_only=True)]
        title = str(rows[0][0] or "")
        if not title.startswith("Escopo"):
            continue
        header = next(row for row in rows if "Fonte emissora" in row)
        column = next(i for i, name in enumerate(header) if str(name).endswith("(t CO2e)"))
        total = next(row for row in rows if row[0] == "Total")
        totals[f"scope{title.split()[1]}"] += float(total[column])
    return totals


def test_the_sample_figures_are_the_workbooks_own():
    figures = sample_figures()
    for scope, total in _sheet_totals().items():
        assert figures[scope] == pytest.approx(total, abs=0.01)
    assert figures["total"] == pytest.approx(52_628.91, abs=0.01)  # the Total rows, BEN basis
    assert figures["scope1"] + figures["scope2"] + figures["scope3"] == pytest.approx(
        figures["total"]
    )
    # Santa Gertrudes spray dryer: 4,673,000 m³ × 8,800 kcal/m³ × 4.1868 kJ/kcal = 172.171 TJ;
    # × (56,100 kg CO2 + 1 kg CH4 × 28 + 0.1 kg N2O × 265) per TJ = 9,668.19 t (BEN, IPCC 2006)
    assert figures["largest_row"] == pytest.approx(9_668.1913)
    # and Criciúma's: 2,512,000 m³ → 92.552 TJ → 5,197.20 t
    assert figures["largest_source"] == pytest.approx(9_668.1913 + 5_197.196)


def _ar(report: str) -> dict[str, float]:
    table = as_frame()[f"{report}GWP100"]
    return {gas: float(table[gas]) for gas in ("CH4", "N2O", "SF6", "HFC32", "HFC125", "HFC134a")}


AR5 = _ar("AR5")
AR6 = _ar("AR6")
# IPCC 2006 Guidelines, vol. 2: CO2 per TJ (table 1.4), NCV per mass (table 1.2),
# stationary CH4/N2O in manufacturing (table 2.3), road diesel CH4/N2O (table 3.2.2).
DIESEL_CO2, DIESEL_NCV, DIESEL_DENSITY = 74_100, 43.0, 0.84  # kg/TJ, GJ/t, kg/L
GAS_CO2, GAS_NCV, GAS_DENSITY = 56_100, 48.0, 0.7  # kg/TJ, GJ/t, kg/m³ (GHG Protocol)
BEN_DIESEL_NCV = 10_100 * 4.1868 / 1000  # BEN: 10,100 kcal/kg, in GJ/t
BEN_GAS_MJ_PER_M3 = 8_800 * 4.1868 / 1000  # BEN: dry natural gas, 8,800 kcal/m³
BIODIESEL_MJ_PER_L = 33.16  # BEN


def _diesel_t(liters: float, ncv: float, ch4: float, n2o: float, extra_tj: float = 0) -> float:
    tj = liters * DIESEL_DENSITY * ncv / 1e6
    return (tj * DIESEL_CO2 + (tj + extra_tj) * (ch4 * AR5["CH4"] + n2o * AR5["N2O"])) / 1e3


def _gas_t(m3: float, mj_per_m3: float) -> float:
    tj = m3 * mj_per_m3 / 1e6
    return tj * (GAS_CO2 + 1 * AR5["CH4"] + 0.1 * AR5["N2O"]) / 1e3


TRUE_VALUES = {
    "calc-r410a-en": [10 / 1e3 * (AR5["HFC32"] + AR5["HFC125"]) / 2],
    "calc-r410a-pt": [10 / 1e3 * (AR5["HFC32"] + AR5["HFC125"]) / 2],
    "calc-hfc134a-pt": [25 / 1e3 * AR5["HFC134a"]],
    "calc-sf6-en": [2 / 1e3 * AR5["SF6"]],
    "calc-n2o-en": [0.5 * AR5["N2O"]],
    "calc-methane-ar6-pt": [AR6["CH4"], 27.0, 29.8],  # AR6: general, non-fossil, fossil
    "calc-natural-gas-pt": [
        _gas_t(1e6, GAS_DENSITY * GAS_NCV),
        _gas_t(1e6, BEN_GAS_MJ_PER_M3),
    ],
    "calc-diesel-b0-en": [
        _diesel_t(50_000, DIESEL_NCV, 3, 0.6),
        _diesel_t(50_000, BEN_DIESEL_NCV, 3, 0.6),
        _diesel_t(50_000, DIESEL_NCV, 3.9, 3.9),
    ],
    "calc-diesel-b14-pt": [  # 86% fossil diesel; CH4 and N2O of the whole blend
        _diesel_t(86_000, ncv, 3.9, 3.9, extra_tj=14_000 * BIODIESEL_MJ_PER_L / 1e6)
        for ncv in (DIESEL_NCV, BEN_DIESEL_NCV)
    ],
    "calc-grid-2024-en": [12_000 * 0.0545],  # MCTI/SIRENE, SIN annual average 2024
    "calc-grid-2023-pt": [5_000 * 0.0385],  # MCTI/SIRENE, SIN annual average 2023
}


def test_calculation_ranges_hold_the_values_the_sources_give():
    questions = {q.id: q for q in load_questions(groups=["calculation"])}
    assert set(TRUE_VALUES) == set(questions)
    assert TRUE_VALUES["calc-r410a-en"][0] == pytest.approx(19.235)
    for qid, values in TRUE_VALUES.items():
        (check,) = spec_for(questions[qid]).numbers
        for value in values:
            assert any(low <= value <= high for low, high in check.ranges), (qid, value)


def test_the_eval_knows_the_gwps_it_expects():
    assert (AR5["CH4"], AR5["N2O"], AR5["SF6"]) == (28, 265, 23_500)
    assert AR6["SF6"] == 25_200


# --- the checks can fail ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("token", "lang", "value"),
    [
        ("19,2", "pt", 19.2),
        ("19.2", "en", 19.2),
        ("1.234,5", "pt", 1234.5),
        ("1,234.5", "en", 1234.5),
        ("48.976,59", "pt", 48976.59),
        ("48,976.59", "en", 48976.59),
        ("1.924", "pt", 1924),
        ("1.924", "en", 1.924),
        ("19,200", "en", 19200),
        ("19,200", "pt", 19.2),
        ("1.000.000", "pt", 1e6),
        ("1,000,000", "en", 1e6),
        ("0,0545", "pt", 0.0545),
        ("23500", "en", 23500),
    ],
)
def test_numbers_are_read_as_each_language_writes_them(token, lang, value):
    assert read_number(token, lang) == pytest.approx(value)


@pytest.mark.parametrize(
    ("text", "lang", "value", "unit"),
    [
        ("Total: 19,2 t CO₂e.", "pt", 19.2, "t CO2e"),
        ("that is 19.24 tCO2e", "en", 19.24, "t CO2e"),
        ("= 19.235 kg CO2e", "pt", 19.235, "t CO2e"),
        ("cerca de 48,98 mil toneladas de CO2 equivalente", "pt", 48_980, "t CO2e"),
        ("about 49 thousand tonnes of CO2e", "en", 49_000, "t CO2e"),
        ("192,5 t CO2 no escopo 2", "pt", 192.5, "t CO2"),
        ("fator de 0,0545 tCO2/MWh", "pt", 0.0545, "t CO2/MWh"),
        ("são 10 kg de gás", "pt", 0.01, "t"),
        ("representa 6,0% do total", "pt", 6.0, "%"),
        ("5 Mt CO2e", "en", 5e6, "t CO2e"),
    ],
)
def test_quantities_carry_their_unit(text, lang, value, unit):
    found = [q for q in quantities(text, lang) if q.unit == unit]
    assert [q.value for q in found] == [pytest.approx(value)]


def test_gas_names_and_years_are_not_quantities():
    found = quantities("Vazaram 10 kg de R-410A em 2024 (AR5, HFC-134a, CO2)", "pt")
    assert [(q.value, q.unit) for q in found if q.unit] == [(0.01, "t")]


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("O escopo 2 reúne as emissões indiretas da energia elétrica comprada.", "pt"),
        ("Scope 2 covers the indirect emissions from purchased electricity.", "en"),
        ("Gás refrigerante R-410A (emissão fugitiva): 10 kg, período 2024 (Escopo 1).", "pt"),
        ("Refrigerant R-410A (fugitive emission): 10 kg, period 2024 (Scope 1).", "en"),
        (
            "Total no escopo da fábrica: 1.886,8 t CO2e (fator CO2; 2006 IPCC Guidelines for "
            "National Greenhouse Gas Inventories, Vol. 2 Energy, Table 2.3 from the IPCC).",
            "pt",
        ),
        ("19,2 t CO2e", None),
        (
            "Scope 2 covers the emissions from electricity. O escopo 2 reúne as emissões da "
            "energia elétrica, and it is reported with the location method e também pela "
            "escolha de compra.",
            "mixed",
        ),
        (
            # Labels quoted from a Portuguese workbook in an English answer stay the file's.
            "Scope 1 of the “Unidade Sul” plant is 1,200 t CO2e; the largest source is "
            "“Caldeira de vapor da fábrica de queijos e do laticínio”, then “Frota própria "
            "de caminhões de coleta”.",
            "en",
        ),
        (
            # ... but an answer is not excused by putting its own sentences in quotes at
            # length: only short names are set aside.
            "“O escopo 1 reúne as emissões diretas de fontes que pertencem à organização ou "
            "estão sob seu controle, como caldeiras, fornos e a frota própria da empresa, e "
            "também os vazamentos de gases refrigerantes dos equipamentos de refrigeração”",
            "pt",
        ),
    ],
)
def test_the_language_is_read_from_words_only_one_language_uses(text, language):
    assert checks.detect_language(text) == language


def test_folding_drops_accents_case_and_refrigerant_prefixes():
    assert checks.fold("Emissões de CO₂ do HFC-134a e do R134a") == (
        "emissoes de co2 do r-134a e do r-134a"
    )
    assert checks.has_phrase(checks.fold("O gás foi verificado."), "verificad")
    assert not checks.has_phrase(checks.fold("emissões indiretas"), "diretas")


@pytest.mark.parametrize(
    ("text", "leak"),
    [
        ("O escopo 2 é indireto.\nNext agent: Nenhum", "leaked prompt"),
        ("# Persona\nVocê é o FAQ da Aeko, um consultor", "leaked prompt"),
        ("Veja ![logo](http://evil.example/x.png)", "markdown image"),
        ("Mais em https://ghgprotocol.org", "link"),
        ("Mais em www.example.com", "link"),
        ("Veja [o guia](guia.pdf)", "link"),
        ("Texto <script>alert(1)</script>", "HTML tag"),
    ],
)
def test_leaks_are_caught(text, leak):
    assert any(found.startswith(leak) for found in checks.leaks(text))


def test_a_clean_answer_has_no_leak():
    assert checks.leaks("Acima de 25.000 t CO2e (> 10 mil) há conciliação; e-mail não.") == []


R410A = AnswerSpec(
    lang="pt",
    facts=(("R-410A",),),
    numbers=(NumberCheck(ranges=((19.0, 19.5),), unit="t CO2e"),),
)


def test_a_correct_calculation_passes():
    answer = "Os 10 kg de R-410A dão 10 × 1.923,5 = 19.235 kg CO2e, ou 19,2 t CO2e (GWP do AR5)."
    assert check_answer(answer, R410A) == []


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ("Os 10 kg de R-410A dão 20,9 t CO2e pelo GWP do AR4.", "number"),
        ("Os 10 kg de R-410A dão 19,2 kg CO2e pelo GWP do AR5.", "number"),
        ("Os 10 kg de R-410A dão 19,2 t de CO2 pelo AR5.", "number"),
        ("Os 10 kg de gás dão 19,2 t CO2e pelo GWP do AR5.", "missing fact"),
        ("The 10 kg of R-410A are 19.2 t CO2e with the AR5 GWP of the blend.", "language"),
        ("", "empty answer"),
    ],
)
def test_a_wrong_calculation_fails(answer, reason):
    assert any(found.startswith(reason) for found in check_answer(answer, R410A))


def test_expectations_for_refusal_unknown_and_no_inventory():
    refusal = AnswerSpec(lang="pt", expect="refusal")
    assert check_answer("Essa pergunta está fora do meu tema; posso ajudar com GEE.", refusal) == []
    assert check_answer("O melhor restaurante é o do centro, sem dúvida.", refusal)

    unknown = AnswerSpec(lang="en", expect="unknown", no_numbers=("R$",))
    good = "I don't know: the price has not been set yet. Check the regulator's official notices."
    assert check_answer(good, unknown) == []
    assert check_answer("The allowance will cost R$ 80 and the price is set by the law.", unknown)

    none = AnswerSpec(lang="pt", expect="no_inventory", no_numbers=("t",))
    said = "Não há inventário anexado a esta conversa. Carregue a planilha na página Inventário."
    assert check_answer(said, none) == []
    invented = said + " Seu total deve ser de uns 12.000 t CO2e."
    assert any(r.startswith("invented") for r in check_answer(invented, none))

    attached = AnswerSpec(lang="pt", attached=True)
    assert check_answer("Não há inventário anexado a esta conversa.", attached)


def test_forbidden_phrases_fail():
    spec = AnswerSpec(lang="pt", expect="refusal", forbidden=("# Persona",))
    answer = "Não posso mostrar isso: está fora do meu escopo. # Persona"
    assert "forbidden phrase: '# Persona'" in check_answer(answer, spec)


# --- the score ----------------------------------------------------------------------------


def test_the_offline_analyst_scores_at_least_90_percent(offline):
    outcomes = run_all(load_questions())
    result = score(outcomes)
    groups = ", ".join(
        f"{group} {values['passed']}/{values['count']}"
        for group, values in result["groups"].items()
    )
    summary = (
        f"offline score {result['score']:.1%} ({result['passed']}/{result['count']}): {groups}"
    )
    print(summary)
    assert result["score"] >= MIN_SCORE, f"{summary}\nFailing:\n{failure_report(outcomes)}"


# --- the held-out set: a measurement, not a gate ------------------------------------------

MIN_HOLDOUT = 40


def test_the_holdout_set_has_40_new_questions_in_both_languages_and_every_group():
    questions = load_questions(HOLDOUT)
    tuned = load_questions()
    assert len(questions) >= MIN_HOLDOUT
    assert len({q.id for q in questions}) == len(questions)
    assert not {q.id for q in questions} & {q.id for q in tuned}
    assert not {q.text for q in questions} & {q.text for q in tuned}
    assert {q.group for q in questions} == set(GROUPS)
    for group in GROUPS:
        assert {q.lang for q in questions if q.group == group} == {"pt", "en"}, group
    portuguese = sum(q.lang == "pt" for q in questions) / len(questions)
    assert 0.4 <= portuguese <= 0.6
    assert all(q.attach == "sample" for q in questions if q.group == "my_data")
    assert all(q.attach is None for q in questions if q.group == "no_inventory")
    for question in questions:
        spec = spec_for(question)
        assert spec.expect != "answer" or spec.facts or spec.numbers, question.id


# IPCC 2006 Guidelines, vol. 2 (tables 1.2, 1.4, 2.3, 3.2.2) and the BEN (kcal/kg, kg/m³).
KCAL = 4.1868e-3  # GJ per 1,000 kcal
LPG_CO2, LPG_NCVS = 63_100, (47.3, 11_100 * KCAL)  # kg/TJ; GJ/t (IPCC, BEN)
LPG_CH4_N2O = ((1, 0.1), (62, 0.2))  # kg/TJ: stationary (table 2.3), road (table 3.2.2)
GASOLINE_CO2, GASOLINE_DENSITY = 69_300, 0.742  # kg/TJ; kg/L (BEN, gasoline A)
GASOLINE_NCVS = (44.3, 10_400 * KCAL)  # GJ/t (IPCC, BEN)
GASOLINE_CH4_N2O = ((33, 3.2), (25, 8.0), (3.8, 5.7))  # uncontrolled, oxidation cat., low km
ANHYDROUS_MJ_PER_L = 6_750 * KCAL * 0.791  # BEN: 6,750 kcal/kg, 791 kg/m³
HYDRATED_DENSITY = 0.809  # kg/L (BEN)
HYDRATED_NCVS = (27.0, 6_300 * KCAL)  # GJ/t: IPCC biogasoline, BEN hydrated ethanol
HYDRATED_ETHANOL_MASS = (0.925, 0.946)  # ANP: 92.5% to 94.6% ethanol by mass
BIOGASOLINE_CO2 = 70_800  # kg/TJ
SIN_2024 = 0.0545  # t CO2/MWh, MCTI/SIRENE annual average


def _blend(*fractions: tuple[float, str]) -> float:
    """GWP of a refrigerant blend from its mass fractions (AR5)."""
    table = as_frame()["AR5GWP100"]
    return sum(share * float(table[gas]) for share, gas in fractions)


def _lpg_t(tonnes: float) -> list[float]:
    return [
        tonnes * ncv / 1e3 * (LPG_CO2 + ch4 * AR5["CH4"] + n2o * AR5["N2O"]) / 1e3
        for ncv in LPG_NCVS
        for ch4, n2o in LPG_CH4_N2O
    ]


def _gasoline_c_t(liters: float, ethanol: float) -> list[float]:
    """Fossil CO2 of the gasoline A share; CH4 and N2O of the fossil share or of the blend."""
    values = []
    for ncv in GASOLINE_NCVS:
        fossil_tj = liters * (1 - ethanol) * GASOLINE_DENSITY * ncv / 1e6
        blend_tj = fossil_tj + liters * ethanol * ANHYDROUS_MJ_PER_L / 1e6
        for ch4, n2o in GASOLINE_CH4_N2O:
            for tj in (fossil_tj, blend_tj):
                values.append(
                    (fossil_tj * GASOLINE_CO2 + tj * (ch4 * AR5["CH4"] + n2o * AR5["N2O"])) / 1e3
                )
    return values


def _ethanol_biogenic_t(liters: float) -> list[float]:
    mass_t = liters * HYDRATED_DENSITY / 1e3
    by_energy = [mass_t * ncv * BIOGASOLINE_CO2 / 1e6 for ncv in HYDRATED_NCVS]
    by_carbon = [mass_t * share * 2 * 44.01 / 46.07 for share in HYDRATED_ETHANOL_MASS]
    return by_energy + by_carbon


HOLDOUT_TRUE_VALUES = {
    "ho-calc-lpg-en": _lpg_t(10),
    "ho-calc-gasoline-c-pt": _gasoline_c_t(20_000, 0.27),
    "ho-calc-ethanol-biogenic-en": _ethanol_biogenic_t(10_000),
    "ho-calc-r404a-pt": [12 / 1e3 * _blend((0.44, "HFC125"), (0.52, "HFC143a"), (0.04, "HFC134a"))],
    "ho-calc-r407c-en": [15 / 1e3 * _blend((0.23, "HFC32"), (0.25, "HFC125"), (0.52, "HFC134a"))],
    "ho-calc-r22-pt": [20 / 1e3 * _blend((1.0, "HCFC22"))],
    "ho-calc-market-based-en": [(8_000 - 5_000) * SIN_2024],
}


def _holdout_checks(group: str) -> dict[str, tuple[NumberCheck, ...]]:
    return {q.id: spec_for(q).numbers for q in load_questions(HOLDOUT, groups=[group])}


def test_holdout_calculation_ranges_hold_the_values_the_sources_give():
    checks_by_id = _holdout_checks("calculation")
    assert set(HOLDOUT_TRUE_VALUES) == set(checks_by_id)
    assert HOLDOUT_TRUE_VALUES["ho-calc-r404a-pt"][0] == pytest.approx(47.31, abs=0.01)
    assert HOLDOUT_TRUE_VALUES["ho-calc-r407c-en"][0] == pytest.approx(24.36, abs=0.01)
    for qid, values in HOLDOUT_TRUE_VALUES.items():
        (check,) = checks_by_id[qid]
        for value in values:
            assert any(low <= value <= high for low, high in check.ranges), (qid, value)


def _workbook_rows() -> list[dict]:
    """Every data row of the sample's scope sheets: its cells, scope, sheet and t CO2e."""
    found = []
    book = openpyxl.load_workbook(SAMPLE, data_only=True, read_only=True)
    for sheet in book.worksheets:
        rows = [list(row) for row in sheet.iter_rows(values_only=True)]
        title = str(rows[0][0] or "")
        if not title.startswith("Escopo"):
            continue
        at = next(i for i, row in enumerate(rows) if "Fonte emissora" in row)
        header = [str(cell or "") for cell in rows[at]]
        column = next(i for i, name in enumerate(header) if name.endswith("(t CO2e)"))
        for row in rows[at + 1 :]:
            if row[0] == "Total":
                break
            cells = dict(zip(header, row, strict=False))
            found.append({**cells, "scope": title.split()[1], "sheet": sheet.title,
                          "t": float(row[column])})  # fmt: skip
    return found


SITES = ("Fábrica Santa Gertrudes (SP)", "Fábrica Criciúma (SC)", "Escritório São Paulo (SP)")


def test_holdout_sample_figures_are_the_workbooks_own():
    rows = _workbook_rows()

    def total(keep) -> float:
        return sum(row["t"] for row in rows if keep(row))

    everything = total(lambda row: True)
    expected = {
        "ho-mydata-by-site-en": [
            total(lambda row, site=site: row["Unidade"] == site) for site in SITES
        ],
        "ho-mydata-mobile-pt": [total(lambda row: row["sheet"] == "Combustão móvel")],
        "ho-mydata-lpg-en": [total(lambda row: row.get("Combustível") == "GLP")],
        "ho-mydata-criciuma-scope2-pt": [
            total(lambda row: row["scope"] == "2" and row["Unidade"] == "Fábrica Criciúma (SC)")
        ],
        "ho-mydata-scope1-share-en": [100 * total(lambda row: row["scope"] == "1") / everything],
        "ho-mydata-waste-pt": [total(lambda row: "Destinação" in row)],
    }
    assert everything == pytest.approx(52_628.91, abs=0.01)
    # 107,800 kg of LPG at 11,100 kcal/kg (BEN): burners 38,900 kg (stationary, IPCC Table 2.3),
    # forklifts 68,900 kg (off-road: IPCC Table 3.2.1/3.2.2 LPG factors)
    assert expected["ho-mydata-lpg-en"] == [pytest.approx(321.96, abs=0.01)]
    checks_by_id = _holdout_checks("my_data")
    assert set(expected) == set(checks_by_id)
    for qid, values in expected.items():
        assert len(values) == len(checks_by_id[qid]), qid
        for value, check in zip(values, checks_by_id[qid], strict=True):
            assert any(low <= value <= high for low, high in check.ranges), (qid, value)
    # Criciúma's costliest month of grid electricity: the one the question expects.
    criciuma = [r for r in rows if r["scope"] == "2" and r["Unidade"] == "Fábrica Criciúma (SC)"]
    assert max(criciuma, key=lambda row: row["t"])["Mês"] == "out/2024"


def test_every_holdout_check_runs_on_the_offline_analysts_answers(offline):
    questions = load_questions(HOLDOUT)
    for question in questions:  # each spec resolves and its checks run on any text
        assert check_answer("", spec_for(question)) == ["empty answer"]
        assert isinstance(check_answer("Escopo 1: 10 t CO2e.", spec_for(question)), list)
    outcomes = run_all(questions)
    assert [o.id for o in outcomes] == [q.id for q in questions]
    assert all(o.passed == (not o.reasons) for o in outcomes)
    result = score(outcomes)
    groups = ", ".join(
        f"{group} {values['passed']}/{values['count']}"
        for group, values in result["groups"].items()
    )
    print(f"held-out score {result['score']:.1%} ({result['passed']}/{result['count']}): {groups}")
    print(failure_report(outcomes))
