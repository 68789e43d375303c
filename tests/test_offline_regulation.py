"""SBCE questions with the user's own number get the law's rule applied to that number."""

import pytest

from engine import Aeko, AekoMessenger, AekoSession, AekoUser
from engine.offline import OfflineAnalyst
from engine.offline.regulation import SbceAmounts, sbce_amount

USER = AekoUser(_id="64b8f0a1c9e1a2b3c4d5e6f1", id_external_user=1, role="", usecase="")


def _answer(question: str) -> str:
    analyst = OfflineAnalyst()
    Aeko.config(fast_model=analyst, slow_model=analyst)
    session = AekoSession(_id="64b8f0a1c9e1a2b3c4d5e6f3", id_user=USER.id, name="sbce")
    return AekoMessenger(USER).send_message(question, session).message.output


@pytest.mark.parametrize(
    ("question", "amount"),
    [
        ("Emitimos 30.000 t CO2e por ano: o que o SBCE exige?", SbceAmounts(total=30_000)),
        ("We emit 30,000 t CO2e a year: what does the SBCE require?", SbceAmounts(total=30_000)),
        (
            "Nossa fábrica emite 12 mil t de CO2e: o que muda com a Lei 15.042?",
            SbceAmounts(installations=(12_000,)),
        ),
        ("A partir de quantas t CO2e/ano a Lei 15.042 se aplica?", None),
        ("Emitimos 30.000 t CO2e por ano: como reduzir?", None),  # no SBCE in the question
    ],
)
def test_the_yearly_amount_is_read_only_from_sbce_questions(question, amount):
    assert sbce_amount(question) == amount


@pytest.mark.parametrize(
    ("question", "amounts"),
    [
        (
            "Our company emits 40,000 t CO2e in total, spread over five plants of about "
            "8,000 t each. Does the SBCE apply to us?",
            SbceAmounts(installations=(8_000,), total=40_000),
        ),
        (
            "Nossa empresa emite 40.000 t CO2e no total, em cinco fábricas de cerca de "
            "8.000 t cada. O SBCE se aplica?",
            SbceAmounts(installations=(8_000,), total=40_000),
        ),
        (
            "Temos três fábricas: 6.000, 9.000 e 12.000 t CO2e por ano. O que o SBCE exige?",
            SbceAmounts(installations=(6_000, 9_000, 12_000)),
        ),
        (
            "Our plants emit 12,000 t and 30,000 t CO2e each year. What does the SBCE require?",
            SbceAmounts(installations=(12_000, 30_000)),
        ),
        # "each year" is no installation, and a year is no tonnage.
        (
            "In 2024 we emitted 20,000 t CO2e each year: SBCE?",
            SbceAmounts(total=20_000),
        ),
    ],
)
def test_figures_per_installation_are_told_from_the_company_total(question, amounts):
    assert sbce_amount(question) == amounts


def test_per_installation_figures_decide_not_the_company_total():
    text = _answer(
        "Our company emits 40,000 t CO2e in total, spread over five plants of about 8,000 t "
        "each. Does the SBCE apply to us?"
    )
    assert "per installation or source" in text and "does not decide" in text
    # 8,000 t is not above 10,000 t: no monitoring plan, no allowances, whatever the total.
    assert "Each installation with 8,000 t CO2e a year is at or below 10,000 t CO2e" in text
    assert "no reporting or surrender obligation" in text
    assert "CBE" not in text and "monitoring plan" not in text


def test_each_installation_gets_the_rule_of_its_own_band():
    text = _answer("Temos três fábricas: 6.000, 9.000 e 12.000 t CO2e por ano. O que o SBCE exige?")
    assert "Cada instalação com 6.000 e 9.000 t CO2e por ano não passa de 10.000 t CO2e" in text
    assert "Cada instalação com 12.000 t CO2e por ano está acima de 10.000 e até 25.000" in text
    assert "plano de monitoramento" in text and "CBE" not in text  # none above 25,000 t


@pytest.mark.parametrize(
    ("amount", "surrender", "report"),
    # The law's words are "above": exactly 10,000 or 25,000 t is not above the threshold.
    [
        (8_000, False, False),
        (10_000, False, False),
        (12_000, False, True),
        (25_000, False, True),
        (30_000, True, True),
    ],
)
def test_the_rule_follows_the_law_s_thresholds(amount, surrender, report):
    text = _answer(f"Emitimos {amount:,} t CO2e por ano: o que o SBCE exige?".replace(",", "."))
    assert ("CBE" in text) is surrender
    assert ("plano de monitoramento" in text) is report
    assert "por instalação ou fonte" in text and "Lei nº 15.042" in text


def test_an_english_question_gets_the_rule_in_english():
    text = _answer("We emit 30,000 t CO2e a year: what does the SBCE require of us?")
    assert text.startswith("At 30,000 t CO2e a year you are above 25,000 t CO2e")
    assert "per installation or source" in text and "Escopo" not in text


def test_a_general_sbce_question_gets_the_knowledge_base_entry_not_a_plan():
    text = _answer("A partir de quantas t CO2e/ano a Lei 15.042 se aplica?")
    assert "10 mil tCO2e" in text and "25 mil tCO2e" in text
    assert "Problema definido" not in text


@pytest.mark.parametrize(
    ("question", "opening"),
    [
        ("What were my company's scope 1 emissions last year?", "No inventory is attached"),
        (
            "Quais foram as emissões de escopo 1 da minha empresa no ano passado?",
            "Não há inventário anexado",
        ),
    ],
)
def test_a_question_about_the_user_s_own_figures_says_no_inventory_is_attached(question, opening):
    text = _answer(question)
    assert text.startswith(opening)
    assert "categor" not in text.lower()  # never an unrelated article in its place


def test_a_table_in_the_question_is_the_user_s_data():
    text = _answer(
        "Quanto emite a minha empresa?\n\n| Fonte | Gás | t CO2e |\n|---|---|---|\n"
        "| Caldeira | CO2 | 1240 |"
    )
    assert "Não há inventário anexado" not in text


@pytest.mark.parametrize(
    ("question", "language"),
    [
        ("What counts as biogenic CO2?", "en"),
        ("Explain scope 1", "en"),
        ("O que conta como CO2 biogênico?", "pt"),
        ("Do we need to report?", "en"),
    ],
)
def test_the_question_s_language_is_read_from_its_words(question, language):
    from engine.offline.language import detect_language

    assert detect_language(question) == language
