"""Facts the knowledge base and the prompts state, checked against the sources the product
ships (the blend table) and against an expert review's corrections."""

import csv
import re
import tomllib
from datetime import date
from pathlib import Path

import pytest

from engine.agents.prompts import PROMPTS

ROOT = Path(__file__).resolve().parents[1]
KB = tomllib.loads((ROOT / "engine/knowledge/data/knowledge_base.toml").read_text())["entry"]
BLENDS = list(csv.DictReader((ROOT / "engine/emissions/data/blends.csv").open()))


def _entry(entry_id: str) -> dict:
    return next(e for e in KB if e["id"] == entry_id)


def _starts(key: str, share: float) -> set[date]:
    return {
        date.fromisoformat(row["valid_from"])
        for row in BLENDS
        if row["key"] == key and float(row["value"]) == share
    }


def test_the_blend_dates_in_the_answer_are_the_blend_table_s():
    text = _entry("biogenic_co2")["answer_pt"] + _entry("biogenic_co2")["answer_en"]
    assert "14% a 15%" not in text and "14% to 15%" not in text
    assert date(2024, 3, 1) in _starts("diesel_b.biodiesel_share", 14)
    assert date(2025, 8, 1) in _starts("diesel_b.biodiesel_share", 15)
    assert date(2025, 8, 1) in _starts("gasoline_c.ethanol_share", 30)
    assert "B14 de março de 2024" in text and "B15 desde 1º de agosto de 2025" in text
    assert "E30 desde 1º de agosto de 2025" in text and "E30 since 1 August 2025" in text


def test_a_stake_without_control_is_not_consolidated_under_the_control_approach():
    entry = next(e for e in KB if "PCAF" in e["answer_pt"])
    assert "consolidada pelo critério de controle" not in entry["answer_pt"]
    assert "não controla" in entry["answer_pt"] and "does not control" in entry["answer_en"]


def test_sbce_thresholds_are_per_installation_and_may_be_raised():
    entry = next(e for e in KB if "SBCE" in e["keywords_pt"])
    for text, words in ((entry["answer_pt"], ("por instalação", "elevá-los")),
                        (entry["answer_en"], ("per installation", "raise them"))):  # fmt: skip
        assert all(word in text for word in words)


def test_the_program_s_gwp_set_is_said_to_depend_on_the_tool_version():
    text = " ".join(e["answer_pt"] + e["answer_en"] for e in KB)
    assert "usa os valores do AR5" not in text and "uses AR5 values" not in text
    assert "depende da versão da ferramenta" in text


@pytest.mark.parametrize("agent", sorted(PROMPTS))
def test_no_prompt_moves_chillers_to_a_car_refrigerant(agent):
    prompt = PROMPTS[agent]
    text = " ".join([prompt.persona, prompt.scope, *prompt.tasks, prompt.response_format,
                     *(e.answer for e in prompt.examples)])  # fmt: skip
    for sentence in re.split(r"[.;\n]", text):
        if "chiller" in sentence:
            assert "R-1234yf" not in sentence or "veicular" in sentence, sentence
