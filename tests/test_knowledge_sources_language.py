"""Issue #25, "one language at a time": each knowledge entry cites its reference in both
languages, so an English answer says "chapter 9 (optional information ...)" where the
Portuguese one says "cap. 9 (informações opcionais ...)".

What stays Portuguese in an English citation is an official Brazilian designation ("Lei nº
15.042", "Resolução CVM nº 193/2023"): it is the act's name, the one a reader searches for,
and it has no English version. Only the designation itself (kind, issuer, "nº", number) is
set aside before looking for Portuguese words: the date and description around it are ours,
so they must be English ("of December 11, 2024", not "de 11 de dezembro de 2024")."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

import engine.knowledge.search as search_module
from engine import AekoMessenger, AekoSession
from engine.knowledge.search import entries

DATA = Path(__file__).resolve().parents[1] / "engine" / "knowledge" / "data"


def _raw_entries() -> list[dict]:
    items: list[dict] = []
    for path in sorted(DATA.glob("*.toml")):
        with path.open("rb") as handle:
            items += tomllib.load(handle)["entry"]
    return items


RAW = _raw_entries()

# Words of Portuguese citations that English never writes: the structure of a reference
# (chapter, table, annex, ...), months, and the function words that join them.
PORTUGUESE = re.compile(
    r"(?<!\w)(?:cap\.|cap[ií]tulos?|tabelas?|se[çc][õo]es|se[çc][ãa]o|anexos?|ap[êe]ndices?|"
    r"par[áa]grafos?|cl[áa]usulas?|vers[ãa]o|ferramentas?|relat[óo]rios?|relato|introdu[çc][ãa]o|"
    r"categorias?|m[ée]todos?|informa[çc][õo]es|opcionais|n[ãa]o|defini[çc][õo]es|requisitos|"
    r"crit[ée]rios|per[íi]odo|c[áa]lculo|publica[çc][ãa]o|protocolo|programa|brasileiro|emenda|"
    r"regulamento|decis[ãa]o|disposi[çc][õo]es|janeiro|fevereiro|mar[çc]o|abril|maio|junho|"
    r"julho|agosto|setembro|outubro|novembro|dezembro|e|de|do|da|dos|das|para|pelo|pela|com|"
    r"ao|ano|escopos?)(?!\w)|\dº",  # "art. 2º": the Portuguese ordinal
    re.IGNORECASE,
)
# An official Brazilian act's designation: kind, optional issuer, "nº" and its number.
OFFICIAL = re.compile(r"\b(?:Lei|Portaria|Resolução|Decreto|Instrução Normativa)(?: [A-Z]+)? "
                      r"nº [\d./]+")  # fmt: skip


def _portuguese_words(citation: str) -> list[str]:
    return PORTUGUESE.findall(OFFICIAL.sub(" ", citation))


def _numbers(citation: str) -> list[str]:
    return sorted(re.findall(r"\d+", citation))


def test_the_marker_list_finds_the_portuguese_of_a_citation():
    # The check below can fail: a Portuguese citation is caught, an official title is not.
    assert _portuguese_words("GHG Protocol Corporate Standard (2004), cap. 9 (gases não Quioto)")
    assert _portuguese_words("Lei nº 15.042, de 11 de dezembro de 2024, art. 2º")
    assert _portuguese_words("Lei nº 15.042, of December 11, 2024, Article 2") == []


def test_the_marker_list_catches_every_portuguese_source_of_the_base():
    assert [e["id"] for e in RAW if not _portuguese_words(e["source"])] == []


def test_the_base_holds_the_fifty_eight_entries():
    assert len(RAW) == 58


@pytest.mark.parametrize("entry", RAW, ids=lambda e: e["id"])
def test_every_entry_has_an_english_source(entry):
    assert isinstance(entry.get("source_en"), str) and entry["source_en"].strip()
    assert entry["source_en"] != entry["source"]


@pytest.mark.parametrize("entry", RAW, ids=lambda e: e["id"])
def test_the_english_source_has_no_portuguese_words(entry):
    assert _portuguese_words(entry["source_en"]) == [], entry["source_en"]


@pytest.mark.parametrize("entry", RAW, ids=lambda e: e["id"])
def test_a_translated_citation_keeps_its_chapters_tables_and_years(entry):
    assert _numbers(entry["source_en"]) == _numbers(entry["source"])


@pytest.mark.parametrize("entry", RAW, ids=lambda e: e["id"])
def test_the_english_source_names_where_in_the_reference(entry):
    # As the Portuguese one must (tests/test_knowledge_more.py): a part, not just a title.
    where = r"\b(chapters?|articles?|paragraphs?|tables?|clauses?|item|appendix|annex|version)\b"
    if re.search(
        r"\b(cap\.|art\.|parágrafo|tabela|cláusula|item|apêndice|versão)", entry["source"]
    ):
        assert re.search(where, entry["source_en"], re.IGNORECASE), entry["source_en"]


def test_an_entry_without_an_english_source_fails_to_load(monkeypatch):
    # No silent fallback to the Portuguese citation.
    (item,) = [dict(e) for e in RAW if e["id"] == "scope1"]
    del item["source_en"]
    monkeypatch.setattr(search_module, "_load", lambda: [item])
    with pytest.raises(KeyError, match="source_en"):
        search_module.entries.__wrapped__()


def test_each_entry_cites_in_the_language_of_the_text():
    for entry in entries():
        assert f"Source: {entry.source['en']} [{entry.id}]" in entry.text("en")
        assert f"Fonte: {entry.source['pt']} [{entry.id}]" in entry.text("pt")
        assert entry.source["pt"] not in entry.text("en")


def _source_lines(output: str, label: str) -> list[str]:
    """Each cited entry's source line (a combined answer has one per entry)."""
    lines = [line for line in output.splitlines() if line.startswith(f"{label}: ")]
    assert lines, output
    return lines


def test_an_english_answer_states_its_source_in_english(offline, analyst):
    response = AekoMessenger(analyst).send_message(
        "Which gases are covered by the Montreal Protocol?", AekoSession()
    )
    lines = _source_lines(response.message.output, "Source")
    (line,) = [line for line in lines if "[montreal_gases_reporting]" in line]
    # GHG Protocol chapter 9 is where non-Kyoto gases go: optional information.
    assert "chapter 9 (optional information: gases not covered by the Kyoto Protocol" in line
    for line in lines:
        assert _portuguese_words(line.removeprefix("Source: ")) == [], line
    assert "Fonte:" not in response.message.output
    cited = [s.citation_in("en") for s in response.sources if s.kind == "knowledge"]
    assert cited and all(_portuguese_words(c) == [] for c in cited), cited


def test_a_portuguese_answer_keeps_the_portuguese_source(offline, analyst):
    response = AekoMessenger(analyst).send_message(
        "Quais gases são cobertos pelo Protocolo de Montreal?", AekoSession()
    )
    lines = _source_lines(response.message.output, "Fonte")
    (line,) = [line for line in lines if "[montreal_gases_reporting]" in line]
    assert "cap. 9 (informações opcionais: gases não cobertos pelo Protocolo de Quioto" in line
    cited = {s.ref: s.citation for s in response.sources if s.kind == "knowledge"}
    assert "cap. 9 (informações opcionais" in cited["montreal_gases_reporting"], cited
