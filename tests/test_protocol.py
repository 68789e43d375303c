import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.protocol import _MARKER, clean_marker_name, parse_plan, read_verdict, split_marker


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Resposta.\nNext agent: FAQ", "FAQ"),
        ("Resposta.\nNext agent: Nenhum.", "Nenhum"),
        ("Resposta.\n**Next agent:** Analista de Poluentes", "Analista de Poluentes"),
        ("Resposta.\n**Next agent: Orquestrador**", "Orquestrador"),
        ("Resposta. Next agent: FAQ", "FAQ"),
        ("Resposta.\n  next AGENT:  `Roteador` ", "Roteador"),
        ("Next agent: FAQ\nResposta longa.\nNext agent: Orquestrador", "Orquestrador"),
    ],
)
def test_the_last_marker_names_the_successor_and_every_marker_is_removed(text, name):
    clean, found = split_marker(text)
    assert found == name
    assert "next agent" not in clean.lower()
    assert clean.startswith("Resposta")


def test_text_without_marker_is_kept_whole():
    assert split_marker("  Só texto.\n") == ("Só texto.", None)


@pytest.mark.parametrize(
    "text",
    ["Aprovado.", "**Aprovado.**", "APROVADO", "   aprovado: tudo certo", "> Aprovada", "Approved"],
)
def test_approval_is_read_tolerantly(text):
    verdict = read_verdict(text)
    assert verdict.approved
    assert verdict.reasons == ""


@pytest.mark.parametrize(
    "text",
    ["Reprovado: cita um link externo.", "**Reprovado** - cita um link externo.", "Não aprovado"],
)
def test_rejection_keeps_its_reasons(text):
    verdict = read_verdict(text)
    assert not verdict.approved
    assert verdict.reasons
    assert not verdict.reasons.lower().startswith("reprovado")


def test_aprovadoxyz_is_not_an_approval():
    assert not read_verdict("Aprovadoria pendente").approved


PLAN = """Intro que não é seção.

## Problema definido
O diesel da frota emite 1.240 t CO2e (38%).

### Subtítulo dentro da seção
Detalhe.

## MÉTODO
Trocar por HVO em 40% da frota.

## raciocinio
HVO reduz de 50% a 90% das emissões de ciclo de vida.

Next agent: Nenhum
"""


def test_plan_headings_ignore_case_and_accents_and_only_they_cut_sections():
    plan = parse_plan(PLAN)
    assert plan.missing == ()
    assert plan.fields["defined_problem"].startswith("O diesel")
    assert "### Subtítulo dentro da seção\nDetalhe." in plan.fields["defined_problem"]
    assert plan.fields["method"] == "Trocar por HVO em 40% da frota."
    assert plan.fields["reasoning"].startswith("HVO reduz")
    assert "Next agent" not in plan.fields["reasoning"]


def test_missing_and_empty_sections_are_reported_in_heading_order():
    plan = parse_plan("## Raciocínio\n\n## Problema definido\nAlgo.\n")
    assert plan.missing == ("method", "reasoning")
    assert plan.fields == {"defined_problem": "Algo."}


def test_heading_with_emphasis_and_colon_still_counts():
    plan = parse_plan("## **Problema definido:**\nA\n# Método\nB\n### Raciocínio ###\nC")
    assert plan.missing == ()


# The grammar in plain regex terms, as the module first wrote it: every match of the marker
# pattern over the whole text, removed; the last one names the successor.
def _split_by_the_whole_pattern(text: str) -> tuple[str, str | None]:
    names = [m.group("name") for m in _MARKER.finditer(text)]
    if not names:
        return text.strip(), None
    clean = re.sub(r"\n{3,}", "\n\n", _MARKER.sub("", text)).strip()
    return clean, clean_marker_name(names[-1])


_PIECES = st.sampled_from(
    [
        "Next agent:",
        "next  AGENT :",
        "NEXT\tagent：",
        "**Next agent**:",
        "> Next agent: ",
        "Next agent",
        "next agente:",
        "agent:",
        "next",
        " ",
        "\t",
        "\n",
        "\n\n\n",
        "*",
        "_",
        "`",
        "'",
        '"',
        "-",
        ">",
        "FAQ",
        "Orquestrador",
        "Nenhum",
        "Análise de 1.240 t.",
        "ﬁm",
        "K",
        "ſ",
    ]
)


@given(st.lists(_PIECES, max_size=30).map("".join))
def test_markers_are_read_and_removed_as_the_whole_pattern_reads_them(text):
    """Searching only the lines that hold the marker's words finds what the pattern finds
    over the whole text, so the clean text and the named successor are the same."""
    assert split_marker(text) == _split_by_the_whole_pattern(text)
