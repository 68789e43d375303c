import csv
import re
from importlib import resources
from pathlib import Path

import pytest

from engine.agents.catalog import (
    AGENT_NAMES,
    COORDINATOR,
    GREEN_GASES_ANALYST,
    GUARDRAIL,
    ORCHESTRATOR,
)
from engine.agents.prompts import PROMPTS, AgentPrompt, build_prompts
from engine.agents.system_prompt import render_system_prompt
from engine.formatting import number
from engine.graph.routing import NO_AGENT, ROUTES, flows_of, resolve_name
from engine.measures import Catalogue, read_catalogue, shipped_catalogue
from engine.protocol import parse_plan, read_verdict, split_marker

CASES = [
    (agent, flow, index, example)
    for agent, prompt in PROMPTS.items()
    for flow in flows_of(agent)
    for index, example in enumerate(e for e in prompt.examples if e.flow == flow)
]


def test_one_prompt_module_per_agent():
    assert set(PROMPTS) == set(AGENT_NAMES)


@pytest.mark.parametrize("agent", AGENT_NAMES)
def test_every_agent_has_examples_in_every_flow_it_takes_part_in(agent):
    for flow in flows_of(agent):
        assert any(example.flow == flow for example in PROMPTS[agent].examples), flow
    assert all(example.flow in flows_of(agent) for example in PROMPTS[agent].examples)


@pytest.mark.parametrize(("agent", "flow", "index", "example"), CASES)
def test_few_shot_examples_follow_the_format_rules_themselves(agent, flow, index, example):
    text, raw_next = split_marker(example.answer)
    assert text, "an example answer must say something"
    assert "http" not in example.answer and "<" not in example.answer
    if agent == GUARDRAIL:
        assert raw_next is None
        head = text.split()[0].strip("*:.").lower()
        assert head in {"aprovado", "reprovado"}
        assert read_verdict(example.answer).approved == (head == "aprovado")
        return
    successors = ROUTES[flow][agent].successors
    assert example.answer.rstrip().splitlines()[-1].startswith("Next agent: ")
    assert resolve_name(raw_next) in (successors or (NO_AGENT,))
    if agent == COORDINATOR:
        assert parse_plan(example.answer).missing == ()


@pytest.mark.parametrize("agent", AGENT_NAMES)
def test_rendered_prompt_has_every_section(agent):
    for flow in flows_of(agent):
        rendered = render_system_prompt(PROMPTS[agent], flow, ())
        for section in (
            "# Persona",
            "# Escopo",
            "# Tarefas",
            "# Ferramentas Disponiveis",
            "# Agentes Disponiveis",
            "# Formato da Resposta",
            "# Exemplos",
        ):
            assert section in rendered
        for successor in ROUTES[flow][agent].successors:
            assert f"- {successor}:" in rendered


# --- Reduction ranges: one source, the measures catalogue ------------------------------------

SHIPPED_CSV = resources.files("engine.measures").joinpath("data").joinpath("measures.csv")
# What a prompt calls each catalogued alternative it cites; a range belongs to the last of these
# named before it on its line.
ALIASES = {
    "b100": "diesel_b100",
    "hvo": "diesel_hvo",
    "biometano": "natural_gas_biomethane",
    "empilhadeiras elétricas": "lpg_electric",
    "r-32": "r410a_r32",
    "r-290": "r410a_r290",
    "r-1234ze(e)": "hfc134a_chiller_hfo",
    "r-513a": "hfc134a_chiller_blend",
    "r-515b": "hfc134a_chiller_blend",
    "mercado livre": "grid_renewable_contract",
    "i-rec": "grid_irec",
}
RANGE = re.compile(r"(?<![\d.,])(\d+)\s*%?\s*(?:a|to|–)\s*(\d+)\s*%")
# A share of a total ("17% a 24% do total"), not a reduction range.
SHARE_OF_TOTAL = re.compile(r"\s*(?:do total|of the total)")
NUMBER = r"\d{1,3}(?:\.\d{3})*"
# "2.310 × 30% × 70% a 100% = 485 a 693 t" or "78 × 99% a 100% = 77 a 78 t".
ACCOUNT = re.compile(
    rf"({NUMBER})(?: × (\d+)%)? × (\d+)% a (\d+)% = ({NUMBER})(?: a ({NUMBER}))? t"
)


def _tonnes(text: str) -> int:
    return int(text.replace(".", ""))


def _rendered(prompts: dict[str, AgentPrompt]) -> list[tuple[str, str]]:
    return [
        (f"{agent}/{flow}", render_system_prompt(prompts[agent], flow, ()))
        for agent in AGENT_NAMES
        for flow in flows_of(agent)
    ]


def _prose(text: str, measures: Catalogue) -> str:
    # The catalogue block is checked line by line on its own; here it would only repeat it.
    return text.replace(measures.render(), "").replace(measures.render(detailed=False), "")


def _cited_ranges(text: str) -> list[tuple[str, int, int, str]]:
    """(alternative key, low, high, line) for every reduction range in ``text``."""
    cited = []
    for line in text.splitlines():
        for match in RANGE.finditer(line):
            if SHARE_OF_TOTAL.match(line, match.end()):
                continue
            window = line[: match.start()].lower()
            named = [(window.rfind(alias), key) for alias, key in ALIASES.items()]
            position, key = max(named)
            assert position >= 0, f"a range with no catalogued alternative before it: {line}"
            cited.append((key, int(match[1]), int(match[2]), line))
    return cited


def _catalogue_with(tmp_path: Path, **ranges: tuple[int, int]) -> Catalogue:
    """The shipped CSV with some rows' ranges edited, read back through the loader."""
    with SHIPPED_CSV.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        fields, rows = reader.fieldnames, list(reader)
    for row in rows:
        if row["id"] in ranges:
            row["reduction_min_pct"], row["reduction_max_pct"] = map(str, ranges[row["id"]])
    path = tmp_path / "measures.csv"
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
    return read_catalogue(path)


def _assert_ranges_are_the_catalogue_s(prompts: dict[str, AgentPrompt], measures: Catalogue):
    seen = set()
    for where, text in _rendered(prompts):
        for key, low, high, line in _cited_ranges(_prose(text, measures)):
            row = measures[key]
            assert (low, high) == (row.reduction_min_pct, row.reduction_max_pct), (where, line)
            seen.add(key)
    # The examples cite these; a check that found none would be checking nothing.
    assert {"diesel_b100", "diesel_hvo", "natural_gas_biomethane", "lpg_electric"} <= seen


def _assert_accounts_add_up(prompts: dict[str, AgentPrompt]) -> int:
    found = 0
    for prompt in prompts.values():
        for example in prompt.examples:
            for match in ACCOUNT.finditer(example.request + "\n" + example.answer):
                tonnes = _tonnes(match[1]) * int(match[2] or 100) / 100
                low, high = _tonnes(match[5]), _tonnes(match[6] or match[5])
                assert abs(low - tonnes * int(match[3]) / 100) <= 0.5, match[0]
                assert abs(high - tonnes * int(match[4]) / 100) <= 0.5, match[0]
                found += 1
    return found


def test_the_prompts_are_built_from_the_shipped_catalogue():
    assert build_prompts(shipped_catalogue()) == PROMPTS


def test_the_agents_that_propose_or_check_ranges_carry_the_catalogue():
    measures = shipped_catalogue()
    assert measures.render() in PROMPTS[GREEN_GASES_ANALYST].scope
    assert measures.render() in PROMPTS[COORDINATOR].scope
    assert measures.render(detailed=False) in PROMPTS[GUARDRAIL].scope
    for row in measures:
        head = f"- {row.source['pt']} → {row.alternative['pt']}: "
        line = f"{head}{row.reduction_min_pct}% a {row.reduction_max_pct}%"
        assert line in PROMPTS[GREEN_GASES_ANALYST].scope, row.key


def test_every_range_a_prompt_cites_is_its_alternative_s_range_in_the_catalogue():
    _assert_ranges_are_the_catalogue_s(PROMPTS, shipped_catalogue())


def test_the_range_finder_sees_a_wrong_range():
    # The check above is only as good as its attribution of a range to an alternative.
    cited = _cited_ranges("- Diesel → HVO: 50% a 90%; B100, 1.240 × 40% × 50% a 80% = 248 t")
    assert [(key, low, high) for key, low, high, _ in cited] == [
        ("diesel_hvo", 50, 90),
        ("diesel_b100", 50, 80),
    ]
    assert _cited_ranges("As metas evitam 17% a 24% do total de 2024.") == []
    with pytest.raises(AssertionError, match="no catalogued alternative"):
        _cited_ranges("Reduz 50% a 80% das emissões.")


def test_worked_examples_apply_the_range_to_the_tonnes():
    assert _assert_accounts_add_up(PROMPTS) >= 15


def test_an_edited_range_in_the_catalogue_changes_every_prompt_that_cites_it(tmp_path):
    edited = _catalogue_with(
        tmp_path, diesel_b100=(33, 66), natural_gas_biomethane=(61, 83), lpg_electric=(55, 85)
    )
    prompts = build_prompts(edited)
    for agent in (GREEN_GASES_ANALYST, ORCHESTRATOR, GUARDRAIL, COORDINATOR):
        assert prompts[agent] != PROMPTS[agent], agent
        text = " ".join(render_system_prompt(prompts[agent], f, ()) for f in flows_of(agent))
        assert "33% a 66%" in text, agent
    _assert_ranges_are_the_catalogue_s(prompts, edited)
    assert _assert_accounts_add_up(prompts) >= 15
    # 1.240 t × 40% × 33% = 163,68 and × 66% = 327,36.
    answer = next(e.answer for e in prompts[GREEN_GASES_ANALYST].examples if e.flow == "inventory")
    assert "1.240 × 40% × 33% a 66% = 164 a 327 t" in answer


def _plan_sums(answer: str) -> tuple[list[tuple[int, int]], tuple[int, int]]:
    method = parse_plan(answer).fields["method"]
    lines = [(_tonnes(m[5]), _tonnes(m[6] or m[5])) for m in ACCOUNT.finditer(method)]
    total = re.search(rf"evitam? ({NUMBER}) a ({NUMBER}) t", parse_plan(answer).fields["reasoning"])
    assert total, answer
    return lines, (_tonnes(total[1]), _tonnes(total[2]))


def _assert_plans_add_up_and_conclude_from_their_sums(prompts: dict[str, AgentPrompt]):
    for example in prompts[COORDINATOR].examples:
        lines, (low, high) = _plan_sums(example.answer)
        assert lines, example.answer
        assert (low, high) == tuple(map(sum, zip(*lines, strict=True)))
        target = re.search(rf"exige evitar ({NUMBER}) t", example.answer)
        if target is None:
            continue
        reasoning = parse_plan(example.answer).fields["reasoning"]
        goal = _tonnes(target[1])
        if low >= goal:
            # Measures whose conservative sum reaches the target meet it.
            assert "atinge a meta" in reasoning and "faltam" not in reasoning, reasoning
            assert "Nem no" not in reasoning, reasoning
        elif high < goal:
            assert f"faltam {number(goal - high, 0)} t" in reasoning, reasoning
        else:
            assert f"faltam {number(goal - low, 0)} t" in reasoning, reasoning


def test_a_plan_s_total_is_the_sum_of_its_measures_and_its_verdict_follows_the_sum():
    _assert_plans_add_up_and_conclude_from_their_sums(PROMPTS)


@pytest.mark.parametrize(
    "ranges",
    [
        {"natural_gas_biomethane": (90, 100)},  # the conservative sum reaches the target
        {"natural_gas_biomethane": (10, 20), "diesel_b100": (10, 20)},  # even the best misses
        {"natural_gas_biomethane": (50, 100)},  # short, and more biomethane does not cover it
    ],
)
def test_a_plan_s_verdict_follows_an_edited_catalogue(tmp_path, ranges):
    _assert_plans_add_up_and_conclude_from_their_sums(
        build_prompts(_catalogue_with(tmp_path, **ranges))
    )


def test_chillers_move_to_r1234ze_or_a1_blends_and_r1234yf_stays_in_vehicles():
    chillers = [row for row in shipped_catalogue() if "chiller" in row.source["pt"]]
    named = " ".join(row.alternative["pt"] for row in chillers)
    assert all(name in named for name in ("R-1234ze(E)", "R-513A", "R-515B"))
    assert "R-1234yf" not in named + " ".join(row.basis["pt"] for row in chillers)
    yf = [row for row in shipped_catalogue() if "R-1234yf" in row.alternative["pt"]]
    assert yf and all("veicular" in row.source["pt"] for row in yf)
    scope = PROMPTS[GREEN_GASES_ANALYST].scope
    assert "HFC-134a em chillers → R-1234ze(E), R-513A ou R-515B" in scope


def test_the_loader_refuses_a_reversed_range(tmp_path):
    with pytest.raises(ValueError, match="diesel_b100"):
        _catalogue_with(tmp_path, diesel_b100=(70, 40))
