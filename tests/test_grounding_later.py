"""The reference tables are read last, and only for a number nothing read before holds.

``later`` (engine.grounding) is a promise about cost, not about meaning: an answer checked
with the tables read on demand must get the same verdict and the same sources as one checked
with them read up front, and the tables are not built when the answer's numbers were all read
elsewhere. The texts here are inventory lines and reference rows written the way the run's
tools and tables write them, with numbers drawn at random.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.agents.catalog import GUARDRAIL
from engine.dto import AekoSource
from engine.formatting import number
from engine.graph import context
from engine.grounding import Backing, cited_sources, unbacked

_LABELS = ("Escopo 1", "Escopo 2", "diesel", "gás natural", "caldeira de Campinas", "frota")
_GASES = ("CH4", "N2O", "HFC-134a", "SF6")

values = st.floats(min_value=11, max_value=900_000, allow_nan=False, allow_infinity=False)
langs = st.sampled_from(["pt", "en"])


@st.composite
def runs(draw):
    """What a run read before the tables, the tables' rows, and a draft quoting from both,
    from sums of them, and from nowhere."""
    read_values = draw(st.lists(values, min_size=1, max_size=6))
    table_values = draw(st.lists(values, min_size=0, max_size=4))
    lang = draw(langs)
    read = [
        Backing(
            f"| {draw(st.sampled_from(_LABELS))} | {number(v, 1, lang)} t CO2e |",
            (AekoSource(kind="inventory", ref=f"inv|{i}", label="inv.xlsx"),),
            read_whole=draw(st.booleans()),
        )
        for i, v in enumerate(read_values)
    ]
    tables = [
        Backing(
            f"GWP-100 {draw(st.sampled_from(_GASES))}: AR6 {number(v, 1, lang)}",
            (AekoSource(kind="factor", ref=f"table:{i}", label="IPCC"),),
        )
        for i, v in enumerate(table_values)
    ]
    pool = [*read_values, *table_values]
    quoted = draw(st.lists(st.sampled_from(pool), min_size=0, max_size=4))
    if len(pool) >= 2:
        a, b = draw(st.sampled_from(pool)), draw(st.sampled_from(pool))
        quoted.append(a + b)  # one step of arithmetic over what was read
    invented = draw(st.lists(values, min_size=0, max_size=2))
    shown_lang = draw(langs)
    sentences = [
        f"{draw(st.sampled_from(_LABELS))} soma {number(v, draw(st.integers(0, 1)), shown_lang)} t."
        for v in [*quoted, *invented]
    ]
    return read, tables, " ".join(sentences) or "Sem números."


@settings(max_examples=150, deadline=None)
@given(runs())
def test_tables_read_on_demand_give_the_verdict_they_give_read_up_front(run):
    read, tables, draft = run
    assert unbacked(draft, read, lambda: tables) == unbacked(draft, [*read, *tables])


@settings(max_examples=150, deadline=None)
@given(runs())
def test_tables_read_on_demand_give_the_sources_they_give_read_up_front(run):
    read, tables, draft = run
    assert cited_sources(draft, read, lambda: tables) == cited_sources(draft, [*read, *tables])


def test_an_answer_whose_numbers_were_all_read_builds_no_table():
    read = [Backing("Escopo 1: 45.210,9 t CO2e; diesel 23,5%")]
    asked: list[str] = []

    def tables() -> list[Backing]:
        asked.append("tables")
        return [Backing("GWP-100 CH4: AR6 27,9")]

    draft = "O escopo 1 soma 45.210,9 t, com diesel em 23,5% (cerca de 45 mil t)."
    assert unbacked(draft, read, tables) == []
    assert cited_sources(draft, read, tables) == []
    assert asked == []
    # A number only a table holds is looked up there, and the table is cited.
    table = Backing("GWP-100 CH4: AR6 27,9", (AekoSource(kind="factor", ref="gwp", label="GWP"),))
    assert unbacked("O CH4 tem GWP 27,9.", read, lambda: [table]) == []
    assert cited_sources("O CH4 tem GWP 27,9.", read, lambda: [table]) == list(table.sources)
    assert unbacked("O CH4 tem GWP 27,9.", read) == ["27,9"]


def test_the_guardrail_is_given_as_data_what_its_request_shows_it():
    """The structured guardrail request (for models that compute their verdict) lists the
    texts the rendered request shows under the consulted heading, in the same order."""
    evidence = [
        type("Evidence", (), {"text": t, "sources": ()})() for t in ("2,603 kg/L", "GWP 273")
    ]
    state = {
        "request": "Quanto emite o diesel?",
        "draft": "O diesel emite 2,603 kg/L.",
        "attachment": "Total: 48.976,6 t CO2e",
        "evidence": evidence,
    }
    structured = context.structured_guardrail_request(state)
    rendered = context.guardrail_request(state)
    assert structured.agent == GUARDRAIL
    assert structured.evidence == ("Total: 48.976,6 t CO2e", "2,603 kg/L", "GWP 273")
    consulted = rendered.split(f"{context.CONSULTED}:\n", 1)[1]
    assert consulted.split("\n---\n") == list(structured.evidence)


@settings(max_examples=150, deadline=None)
@given(runs())
def test_each_number_is_credited_to_the_first_text_that_holds_it(run):
    """used_backing's definition, checked number by number against every text in order."""
    from engine.grounding import _precision, _small, _values_in, _year, stated_numbers, used_backing

    read, tables, draft = run
    texts = [*read, *tables]
    expected: dict[int, Backing] = {}
    for stated in stated_numbers(draft):
        if _small(stated) or _year(stated):
            continue
        for item in texts:
            values = _values_in(item.text)
            if any(
                abs(known - value) <= _precision(value, places, stated.scale) + 1e-9
                for value, places in zip(stated.values, stated.decimals, strict=True)
                for known in values
            ):
                expected.setdefault(id(item), item)
                break
    assert used_backing(draft, texts) == [item for item in texts if id(item) in expected]
