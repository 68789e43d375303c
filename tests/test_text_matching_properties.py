"""How the engine compares words: accents, case and spacing never matter (``fold``), and a
question that names a measure's source by any of its keywords finds that measure
(``Catalogue.relevant``), whatever else the question says."""

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.measures import shipped_catalogue
from engine.protocol import fold

CATALOGUE = shipped_catalogue()
ROWS = list(CATALOGUE)
# Words a question wraps around a source's name, none of them a keyword of any row.
FILLER = ["quanto", "reduz", "trocar", "nossa", "empresa", "how", "much", "would", "we", "save"]


def test_folding_drops_accents_case_and_extra_spaces():
    assert fold("  Emissões   de CO₂ ") == "emissoes de co2"
    assert fold("DIÓXIDO de Carbono") == "dioxido de carbono"
    assert fold("Ação\tCoordenação") == "acao coordenacao"


@given(st.text(max_size=40))
def test_folding_is_the_same_for_every_way_of_writing_an_accent(text):
    composed, decomposed = unicodedata.normalize("NFC", text), unicodedata.normalize("NFD", text)
    folded = fold(composed)
    assert folded == fold(decomposed)
    assert fold(folded) == folded  # folding twice changes nothing
    assert not any(unicodedata.combining(c) for c in folded)
    assert folded == folded.casefold()
    assert "  " not in folded and folded == folded.strip()


@settings(max_examples=300)
@given(
    row=st.sampled_from(ROWS),
    pick=st.integers(min_value=0),
    before=st.lists(st.sampled_from(FILLER), max_size=4),
    after=st.lists(st.sampled_from(FILLER), max_size=4),
    shout=st.booleans(),
)
def test_a_question_naming_a_keyword_finds_its_measure(row, pick, before, after, shout):
    keyword = row.keywords[pick % len(row.keywords)]
    named = keyword.upper() if shout else keyword
    question = " ".join([*before, named, *after]) + "?"
    found = [option.key for option in CATALOGUE.relevant(question)]
    assert row.key in found, (question, found[:5])
    assert len(found) == len(set(found))  # each measure once


@given(st.lists(st.sampled_from(FILLER), max_size=8))
def test_a_question_naming_no_source_finds_no_measure(words):
    assert CATALOGUE.relevant(" ".join(words)) == []
