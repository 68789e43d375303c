"""The offline router on questions told in the user's words: asking for lower-carbon options
is the green analyst's, whatever else the examples resemble; whether something is summed
into a total is the accounting's yes or no (the FAQ), unless it asks how much.

Questions written here from the domain, not copied from an evaluation set.
"""

from __future__ import annotations

import pytest

from engine import AekoMessenger, AekoSession
from engine.agents.catalog import FAQ, GREEN_GASES_ANALYST
from engine.offline.intent import classify
from engine.protocol import fold


@pytest.mark.parametrize(
    "question",
    [
        "Our bakery bakes with LPG ovens. What lower-carbon options do we have?",
        "A fábrica de sorvetes gera vapor numa caldeira a óleo combustível. Que opções de "
        "baixo carbono existem?",
    ],
)
def test_asking_for_options_goes_to_the_green_analyst(question):
    assert classify(question) == "green"


@pytest.mark.parametrize(
    "question",
    [
        "Our old chiller lost 12 kg of R-22 last year. Does that count towards the Scope 1 total?",
        "O compressor da câmara fria vazou R-22 em março. Isso entra no total do escopo 1?",
    ],
)
def test_whether_a_montreal_gas_is_summed_is_answered_by_the_accounting(offline, analyst, question):
    assert classify(question) == "concept"
    response = AekoMessenger(analyst).send_message(question, AekoSession())
    # GHG Protocol: gases of the Montreal Protocol (HCFC-22) are reported apart, never in
    # the scopes' totals. The FAQ says so, or the calculator does with the stated mass.
    output = fold(response.message.output)
    assert "montreal" in output
    assert (
        response.agents_called[-1] == FAQ
        or "fora dos escopos" in output
        or ("outside the scopes" in output)
    )


def test_how_much_it_adds_is_still_a_weighing():
    assert classify("Quanto o R-22 soma no total do escopo 1?") != "concept"


def test_the_options_answer_names_alternatives(offline, analyst):
    response = AekoMessenger(analyst).send_message(
        "Our bakery bakes with LPG ovens. What lower-carbon options do we have?", AekoSession()
    )
    assert GREEN_GASES_ANALYST in response.agents_called
