import pytest

from engine.protocol import parse_plan, read_verdict, split_marker


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
