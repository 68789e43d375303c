"""Every number of a reviewed answer must come from something the run read."""

from hypothesis import example, given
from hypothesis import strategies as st

from engine.dto import AekoSource
from engine.formatting import number
from engine.grounding import Backing, cited_sources, stated_numbers, unbacked

DIGEST = Backing(
    "Total: 48.976,6 t CO2e\n| Escopo 1 | 45.210,9 | 92,3% |\n| Escopo 2 | 2.951,1 | 6,0% |",
    (AekoSource(kind="inventory", ref="inv|resumo", label="inv.xlsx"),),
)


def test_numbers_inside_names_are_not_figures():
    text = "CO2, R-410A, HFC-134a, AR5, B100, E30, Escopo 1 e GWP-100"
    assert [n.raw for n in stated_numbers(text)] == ["1"]


def test_a_number_reads_both_ways_and_keeps_its_scale_word():
    (pt,) = stated_numbers("1.240 t")
    assert set(pt.values) == {1240.0, 1.24}
    (thousands,) = stated_numbers("cerca de 49 mil t")
    assert thousands.values == (49_000.0,)
    (spaced,) = stated_numbers("48 976,59 t")
    assert 48_976.59 in spaced.values


def test_quotes_and_roundings_of_what_was_read_are_backed():
    for draft in (
        "O total é 48.976,6 t CO2e.",
        "The total is 48,976.6 t CO2e.",
        "Cerca de 49 mil t CO2e, 92,3% no escopo 1.",
        "About 49,000 t; scope 1 is 92% of it.",
        "Escopo 2: 2.951 t.",
    ):
        assert unbacked(draft, [DIGEST]) == [], draft


def test_a_figure_nobody_returned_is_named():
    draft = "O escopo 1 soma 45.210,9 t e o diesel 1.240 t (38%), até 2030."
    assert unbacked(draft, [DIGEST]) == ["1.240", "38", "2030"]


def test_small_counts_need_no_source():
    assert unbacked("As 3 maiores fontes do escopo 2.", [DIGEST]) == []


def test_sources_cited_are_those_whose_numbers_the_answer_uses():
    factor = AekoSource(kind="factor", ref="f", label="diesel", citation="MCTI")
    entry = AekoSource(kind="knowledge", ref="scope_1", label="Escopo 1", citation="GHG Protocol")
    measure = AekoSource(kind="knowledge", ref="measure:b100", label="B100", citation="RED II")
    backing = [
        DIGEST,
        Backing("2,603 kg CO2/L", (factor,)),
        Backing("Escopo 1 são emissões diretas.", (entry,), read_whole=True),
        Backing("Troca de diesel por B100: 40% a 70%.", (measure,)),
    ]
    assert cited_sources("O escopo 1 soma 45.210,9 t.", backing) == [DIGEST.sources[0], entry]
    assert cited_sources("Fator: 2,603 kg/L.", backing) == [factor, entry]
    assert cited_sources("B100 corta de 40% a 70%.", backing) == [entry, measure]


@given(
    value=st.floats(min_value=11, max_value=5_000_000, allow_nan=False),
    decimals=st.integers(min_value=0, max_value=2),
    lang=st.sampled_from(["pt", "en"]),
    shown=st.integers(min_value=0, max_value=2),
    shown_lang=st.sampled_from(["pt", "en"]),
)
def test_any_value_read_is_backed_however_it_is_rounded_and_written(
    value, decimals, lang, shown, shown_lang
):
    backing = [Backing(f"Resultado: {number(value, decimals, lang)} t CO2e")]
    read = round(value, decimals)
    draft = f"São {number(read, min(shown, decimals), shown_lang)} t CO2e."
    assert unbacked(draft, backing) == []


@given(
    value=st.integers(min_value=1_000, max_value=900_000),
    offset=st.integers(min_value=2, max_value=9),
)
def test_a_value_off_by_more_than_its_rounding_is_unbacked(value, offset):
    backing = [Backing(f"Resultado: {number(value, 0)} t CO2e")]
    wrong = value + offset * 10 ** (len(str(value)) - 1)  # beyond two significant digits
    assert unbacked(f"São {number(wrong, 0)} t.", backing) != []


@given(
    known=st.lists(st.floats(min_value=0, max_value=1e7, allow_nan=False), max_size=40),
    value=st.floats(min_value=0, max_value=1e7, allow_nan=False),
    places=st.integers(min_value=0, max_value=3),
    scale=st.sampled_from([1.0, 1e3, 1e6]),
    near=st.booleans(),
)
def test_a_number_is_supported_when_a_known_one_lies_within_its_precision(
    known, value, places, scale, near
):
    """Rule 2 as its definition reads: some known number within half the written number's
    last digit. (The check looks only near the number in the sorted list.)"""
    from engine.grounding import _precision, _supports

    if near and known:
        value = known[len(known) // 2] + _precision(value, places, scale) * 0.999
    tolerance = _precision(value, places, scale) + 1e-9
    expected = any(abs(candidate - value) <= tolerance for candidate in known)
    assert _supports(value, places, sorted(known), scale) == expected


def _names_by_every_window(text: str) -> list[tuple[int, bool]]:
    """Rule 7's names and days as its patterns read them, searched in every number's window
    (where each number starts, and whether it is a name)."""
    from engine.grounding import _DATE, _DAY_AFTER, _DAY_BEFORE, _IDENTIFIER, _NUMBER

    plain = _DATE.sub(lambda m: " " * len(m.group(0)), text)
    read = []
    for match in _NUMBER.finditer(plain):
        before = plain[max(0, match.start() - 24) : match.start()]
        scale_word = (match.group(2) or "").strip()
        name = bool(
            _IDENTIFIER.search(before)
            or _DAY_BEFORE.search(before)
            or (not scale_word and _DAY_AFTER.match(plain, match.end()))
        )
        read.append((match.start(), name))
    return read


_TEXT_PIECES = st.sampled_from(
    ["Lei nº ", "lei ", "LEI ", "Decreto ", "arts. ", "art. ", "§ ", "n.º ", "No ", "no ",
     "Portaria ", "Resolução ", "resolu", "11 de dezembro de ", "Dezembro ", "MARÇO ", "março ",
     "marco ", "December ", "15.042", "1.240", "23,5", "2030", "01/08/2025", "2024-12-11",
     " mil", "%", " anos", "R$ ", "e ", ", ", "–", "-", " ", "\n", "escopo 1", "diesel ",
     "aproximadamente ", "Reſolução ", "ſ", "K", "İ", "ı", "ª", "º"]
)  # fmt: skip


@given(st.lists(_TEXT_PIECES, max_size=25).map("".join))
@example("Reſolução 15.042 e a Lei nº 14.993, de 11 de dezembro de 2024")
def test_names_and_days_are_read_as_their_patterns_read_them_in_every_window(text):
    """Searching rule 7's patterns only in the windows where one of their words starts
    finds the names and days that searching every window finds."""
    from engine.grounding import _located

    found = [(start, stated.identifier) for start, _, stated in _located(text) if not stated.date]
    assert found == _names_by_every_window(text)


@given(st.lists(_TEXT_PIECES | st.sampled_from([". ", "? ", "!\n", "\n\n", "48 976,59"]),
                max_size=30).map("".join))  # fmt: skip
def test_a_draft_s_sentences_hold_its_numbers_each_once_in_reading_order(text):
    """The guardrail's check reads a draft sentence by sentence; the sentences are the
    draft's, and between them they hold every number the draft states, each once."""
    from engine.grounding import _SENTENCE, _sentences

    sentences = _sentences(text)
    assert [sentence for sentence, _ in sentences] == _SENTENCE.split(text)
    assert [n for _, numbers in sentences for n in numbers] == stated_numbers(text)
    for sentence, numbers in sentences:
        assert all(n.raw.split()[0] in sentence for n in numbers)
