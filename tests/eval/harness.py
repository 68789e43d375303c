"""Runs the question set through the real engine and scores each answer.

The model is whatever ``Aeko`` is configured with: the offline analyst in CI, any provider
in ``bench/eval.py``. Expected figures of the sample inventory are read here from the
workbook itself with openpyxl, never through ``engine.inventory``.
"""

from __future__ import annotations

import time
import tomllib
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import openpyxl

from tests.eval.checks import AnswerSpec, Expect, Lang, NumberCheck, check_answer

ROOT = Path(__file__).resolve().parents[2]
QUESTIONS = Path(__file__).with_name("questions.toml")
# Held-out questions, never used to tune the engine: a measure of generalisation, not a gate.
HOLDOUT = Path(__file__).with_name("holdout.toml")
SETS = {"main": QUESTIONS, "holdout": HOLDOUT}
SAMPLE = ROOT / "assets" / "sample_inventory.xlsx"
GROUPS = (
    "concept",
    "calculation",
    "regulatory",
    "reduction",
    "my_data",
    "no_inventory",
    "off_topic",
    "unknown",
)
_EXPECTS = ("answer", "refusal", "unknown", "no_inventory")


@dataclass(frozen=True)
class Question:
    id: str
    group: str
    lang: Lang
    text: str
    expect: Expect
    attach: str | None
    raw: dict[str, Any]  # the TOML table, for the checks resolved later


@dataclass(frozen=True)
class Outcome:
    id: str
    group: str
    lang: str
    passed: bool
    reasons: tuple[str, ...]
    answer: str
    agents: tuple[str, ...]
    seconds: float


def load_questions(path: Path = QUESTIONS, groups: Iterable[str] | None = None) -> list[Question]:
    with path.open("rb") as handle:
        tables = tomllib.load(handle)["question"]
    wanted = set(groups) if groups else None
    questions = []
    for table in tables:
        question = Question(
            id=table["id"],
            group=table["group"],
            lang=table["lang"],
            text=table["question"],
            expect=table.get("expect", "answer"),
            attach=table.get("attach"),
            raw=table,
        )
        _validate(question)
        if wanted is None or question.group in wanted:
            questions.append(question)
    return questions


def _validate(question: Question) -> None:
    # A typo in the set would silently drop a check; refuse it instead.
    known = {"id", "group", "lang", "question", "expect", "attach", "facts", "forbidden",
             "numbers", "no_numbers"}  # fmt: skip
    unknown = set(question.raw) - known
    problems = [
        f"unknown field(s) {sorted(unknown)}" if unknown else "",
        f"group {question.group!r}" if question.group not in GROUPS else "",
        f"lang {question.lang!r}" if question.lang not in ("pt", "en") else "",
        f"expect {question.expect!r}" if question.expect not in _EXPECTS else "",
        f"attach {question.attach!r}" if question.attach not in (None, "sample") else "",
    ]
    if any(problems):
        raise ValueError(f"{question.id}: " + ", ".join(p for p in problems if p))


# --- the sample inventory's figures, straight from the workbook ---------------------------


@cache
def sample_figures(path: Path = SAMPLE) -> dict[str, float]:
    """Totals of the sample workbook by scope, sheet, source, fuel and gas (t or t CO2e).

    Each sheet is a titled table ('Escopo N – ...') whose header row names 'Fonte emissora'
    and whose data rows end at the 'Total' row; the emissions column is the one in t CO2e.
    """
    from globalwarmingpotentials import as_frame  # the package the project already ships

    ar5 = as_frame()["AR5GWP100"]
    book = openpyxl.load_workbook(path, data_only=True, read_only=True)
    figures: dict[str, float] = defaultdict(float)
    rows_by_source: dict[str, float] = defaultdict(float)
    largest_row = 0.0
    for sheet in book.worksheets:
        rows = [list(row) for row in sheet.iter_rows(values_only=True)]
        title = str(rows[0][0] or "")
        if not title.startswith("Escopo"):
            continue
        scope = title.split()[1]
        header_at = next(i for i, row in enumerate(rows) if "Fonte emissora" in row)
        header = [str(cell or "") for cell in rows[header_at]]
        emissions = _column(header, "Emissões totais (t CO2e)", "Emissões (t CO2e)")
        for row in rows[header_at + 1 :]:
            if row[0] == "Total":
                break
            value = float(row[emissions])
            source = str(row[header.index("Fonte emissora")])
            figures["total"] += value
            figures[f"scope{scope}"] += value
            figures[f"sheet:{sheet.title}"] += value
            rows_by_source[source] += value
            largest_row = max(largest_row, value)
            _gases(figures, header, row, ar5)
    figures["largest_row"] = largest_row
    figures["largest_source"] = max(rows_by_source.values())
    figures["fugitive"] = figures["sheet:Emissões fugitivas"]
    figures["process"] = figures["sheet:Processos industriais"]
    return dict(figures)


def _column(header: Sequence[str], *names: str) -> int:
    return next(header.index(name) for name in names if name in header)


def _gases(figures: dict[str, float], header: list[str], row: list[Any], ar5: Any) -> None:
    cells = dict(zip(header, row, strict=False))
    fuel = str(cells.get("Combustível") or "")
    if fuel == "Gás natural":
        figures["natural_gas"] += float(cells["Emissões totais (t CO2e)"])
    for gas, column in (("ch4", "CH4 (t)"), ("n2o", "N2O (t)")):
        if cells.get(column):
            figures[f"{gas}_t"] += float(cells[column])
            figures[f"{gas}_tco2e"] += float(cells[column]) * float(ar5[gas.upper()])
    if cells.get("CO2 biogênico (t)"):
        figures["biogenic_co2"] += float(cells["CO2 biogênico (t)"])


# --- one question through the engine -----------------------------------------------------


def spec_for(question: Question, figures: dict[str, float] | None = None) -> AnswerSpec:
    raw = question.raw
    numbers = tuple(_number_check(table, figures) for table in raw.get("numbers", ()))
    return AnswerSpec(
        lang=question.lang,
        expect=question.expect,
        facts=tuple(tuple(group) for group in raw.get("facts", ())),
        forbidden=tuple(raw.get("forbidden", ())),
        numbers=numbers,
        no_numbers=tuple(raw.get("no_numbers", ())),
        attached=question.attach is not None,
    )


def _number_check(table: dict[str, Any], figures: dict[str, float] | None) -> NumberCheck:
    if "figures" in table:
        known = figures if figures is not None else sample_figures()
        rel = float(table.get("rel", 0.01))
        values = [known[name] for name in table["figures"]]
        ranges = tuple((value * (1 - rel), value * (1 + rel)) for value in values)
    elif "ranges" in table:
        ranges = tuple((float(low), float(high)) for low, high in table["ranges"])
    else:
        ranges = ((float(table["min"]), float(table["max"])),)
    return NumberCheck(ranges=ranges, unit=table["unit"], label=table.get("label", ""))


@cache
def sample_inventory() -> Any:
    """The sample as the app attaches it: loaded once, shared read-only by every question."""
    from engine.inventory import load_inventory

    return load_inventory(SAMPLE, filename=SAMPLE.name)


def run_question(question: Question) -> Outcome:
    from engine import AekoMessenger, AekoSession, AekoUser

    user = AekoUser(id_external_user=1, role="Analista ESG", usecase="Inventário de GEE 2024")
    started = time.perf_counter()
    try:
        inventory = sample_inventory() if question.attach == "sample" else None
        response = AekoMessenger(user).send_message(
            question.text, AekoSession(), inventory=inventory
        )
    except Exception as error:  # a crash is a failed answer, not a crashed eval
        return Outcome(question.id, question.group, question.lang, False,
                       (f"error: {type(error).__name__}: {error}",), "", (),
                       time.perf_counter() - started)  # fmt: skip
    answer = response.message.output
    reasons = tuple(check_answer(answer, spec_for(question)))
    return Outcome(
        id=question.id,
        group=question.group,
        lang=question.lang,
        passed=not reasons,
        reasons=reasons,
        answer=answer,
        agents=tuple(response.agents_called),
        seconds=time.perf_counter() - started,
    )


def run_all(
    questions: Sequence[Question], progress: Callable[[Outcome], None] | None = None
) -> list[Outcome]:
    outcomes = []
    for question in questions:
        outcome = run_question(question)
        outcomes.append(outcome)
        if progress:
            progress(outcome)
    return outcomes


def score(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    """Share passed, overall and per group, with each group's count."""
    groups: dict[str, list[Outcome]] = defaultdict(list)
    for outcome in outcomes:
        groups[outcome.group].append(outcome)
    passed = sum(o.passed for o in outcomes)
    return {
        "score": round(passed / len(outcomes), 4) if outcomes else 0.0,
        "passed": passed,
        "count": len(outcomes),
        "groups": {
            group: {
                "score": round(sum(o.passed for o in members) / len(members), 4),
                "passed": sum(o.passed for o in members),
                "count": len(members),
            }
            for group in GROUPS
            if (members := groups.get(group))
        },
    }


def failure_report(outcomes: Sequence[Outcome], *, answers: bool = False) -> str:
    lines = []
    for outcome in outcomes:
        if outcome.passed:
            continue
        reasons = "; ".join(outcome.reasons)
        lines.append(f"- {outcome.id} [{outcome.group}/{outcome.lang}]: {reasons}")
        if answers:
            lines.append("    " + outcome.answer.replace("\n", "\n    "))
    return "\n".join(lines)
