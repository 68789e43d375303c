"""The knowledge search on questions told in the user's own words: inflected framing verbs,
everyday nouns the base does not hold, a preface about the user, and dates still to come.

Each question is written here from the domain (what an analyst asks and which GHG Protocol
entry answers it), none copied from an evaluation set.
"""

from datetime import date

import pytest

from engine.knowledge.gaps import in_future_tense, unpublished
from engine.knowledge.search import search, tokens
from engine.offline.language import detect_language

TODAY = date(2026, 12, 2)


def _ids(question: str) -> list[str]:
    return [e.id for e in search(question, detect_language(question), today=TODAY).entries]


@pytest.mark.parametrize(
    ("inflected", "base"),
    [("expressed", "express"), ("distinguishes", "distinguish"), ("maneiras", "maneira"),
     ("distingue", "distinguir")],
)  # fmt: skip
def test_a_framing_word_frames_in_every_inflection(inflected, base):
    lang = "pt" if base in {"maneira", "distinguir"} else "en"
    assert tokens(inflected, lang) == tokens(base, lang) == []


@pytest.mark.parametrize(
    ("question", "entry_id"),
    [
        # Outbound freight paid by the company is category 4 (GHG Protocol Scope 3, cat. 4),
        # whatever the product and the customer are called.
        ("Contratamos uma transportadora para levar nossos tijolos até as lojas de material "
         "de construção, e nós pagamos o frete. Em qual categoria do escopo 3 ele fica?",
         "scope3_cat04"),
        ("We pay a haulier to take our bricks to the hardware shops. Which Scope 3 category "
         "does that paid freight go in?", "scope3_cat04"),
        # A chartered bus for employees is commuting (cat. 7), not freight.
        ("Os funcionários vêm em ônibus fretado que a empresa contrata. Em que categoria "
         "do escopo 3 isso entra?", "scope3_cat07"),
        ("Could you tell us how one tonne of methane gets expressed as CO2e?", "gwp"),
    ],
)  # fmt: skip
def test_everyday_words_around_the_concepts_do_not_hide_the_entry(question, entry_id):
    assert _ids(question)[0] == entry_id


def test_a_preface_about_the_user_does_not_pick_the_entry():
    # "finance" is a word of the investments entry; the question asks about scope 2.
    assert _ids("Hello, I'm Ana from finance and accounting. What does scope 2 cover?")[0] == (
        "scope2"
    )


@pytest.mark.parametrize(
    "question",
    [
        "Qual a melhor receita de bolo de cenoura para a festa de fim de ano da fábrica?",
        "Which football team will win the league this year?",
    ],
)
def test_a_question_off_the_base_still_finds_nothing(question):
    assert _ids(question) == []


@pytest.mark.parametrize(
    "question",
    [
        "Em que data exata o órgão gestor do SBCE vai abrir o registro das instalações?",
        "On what exact date will the final Scope 2 revision of the GHG Protocol take effect?",
    ],
)
def test_the_exact_date_of_something_to_come_is_a_gap(question):
    assert unpublished(question, TODAY).kind == "date"
    assert _ids(question) == []


def test_an_exact_date_already_past_is_no_gap():
    question = "Em que data exata a lei do SBCE foi sancionada?"
    assert not in_future_tense(question)
    assert unpublished(question, TODAY) is None
