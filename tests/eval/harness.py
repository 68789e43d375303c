"""Runs the question set through the real engine and scores each answer.

The model is whatever ``Aeko`` is configured with: the offline analyst in CI, any provider
in ``bench/eval.py``. Expected figures of the sample inventory and of the blind set's
workbook are read here from the workbooks themselves with openpyxl, never through
``engine.inventory``.
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
# Written by a helper that never read the analyst's code, then frozen (tests/test_eval_blind.py).
BLIND = Path(__file__).with_name("blind.toml")
# The second blind set, written on 2026-12-02 by a helper that never read the analyst nor
# the first blind set (tests/test_eval_blind2.py freezes it).
BLIND2 = Path(__file__).with_name("blind2.toml")
SETS = {"main": QUESTIONS, "holdout": HOLDOUT, "blind": BLIND, "blind2": BLIND2}
SAMPLE = ROOT / "assets" / "sample_inventory.xlsx"
# A workbook the analyst has not seen; tests/eval/make_blind_inventory.py writes it.
BLIND_INVENTORY = ROOT / "tests" / "data" / "blind_inventory.xlsx"
# The second blind set's workbook; tests/eval/make_blind2_inventory.py writes it.
BLIND2_INVENTORY = ROOT / "tests" / "data" / "blind2_inventory.xlsx"
ATTACHMENTS = {"sample": SAMPLE, "blind": BLIND_INVENTORY, "blind2": BLIND2_INVENTORY}
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
        f"attach {question.attach!r}" if question.attach not in (None, *ATTACHMENTS) else "",
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


# --- the blind inventory's figures, straight from its cells -------------------------------

# AR6 WG1 table 7.15: methane of non-fossil and of fossil origin; any methane GWP an AR6
# recalculation may pick (27.0, the general 27.9, 29.8) lies between the two.
AR6_CH4_NON_FOSSIL, AR6_CH4_FOSSIL = 27.0, 29.8
# Refrigerant blends by mass (ASHRAE 34): their GWP is the weighted sum of their HFCs'.
BLENDS = {
    "R-404A": {"HFC125": 0.44, "HFC143a": 0.52, "HFC134a": 0.04},
    "R-410A": {"HFC32": 0.5, "HFC125": 0.5},
    "HFC-134a": {"HFC134a": 1.0},
    "SF6": {"SF6": 1.0},
}


def _table(sheet: Any, first_header: str) -> tuple[list[str], list[list[Any]], int]:
    """The header starting with ``first_header``, its rows up to the 'TOTAL' row, and
    where the table ends (the row index after its last row)."""
    rows = [list(row) for row in sheet.iter_rows(values_only=True)]
    at = next(i for i, row in enumerate(rows) if row and row[0] == first_header)
    header = [str(cell or "") for cell in rows[at]]
    body = []
    for i in range(at + 1, len(rows)):
        row = rows[i]
        if row[0] is None or str(row[0]).upper().startswith("TOTAL"):
            return header, body, i
        body.append(row)
    return header, body, len(rows)


@cache
def blind_rows(path: Path = BLIND_INVENTORY) -> dict[str, list[dict[str, Any]]]:
    """Each table of the blind workbook as dicts of header → cell: 'scope1' (the Scope 1
    sheet up to its TOTAL row), 'montreal' (the table after it), 'scope2', 'scope3'."""
    book = openpyxl.load_workbook(path, data_only=True, read_only=True)
    tables: dict[str, list[dict[str, Any]]] = {}
    sheet1 = book["Escopo 1"]
    header, body, _ = _table(sheet1, "Instalação")
    tables["scope1"] = [dict(zip(header, row, strict=False)) for row in body]
    rows = [list(row) for row in sheet1.iter_rows(values_only=True)]
    after = next(i for i, row in enumerate(rows) if str(row[0] or "").startswith("Gases contr"))
    header = [str(cell or "") for cell in rows[after + 1]]
    tables["montreal"] = [
        dict(zip(header, row, strict=False)) for row in rows[after + 2 :] if row[0] is not None
    ]
    for name, sheet, first in (("scope2", "Escopo 2", "Instalação"), ("scope3", "Escopo 3",
                                                                       "Categoria")):  # fmt: skip
        header, body, _ = _table(book[sheet], first)
        tables[name] = [dict(zip(header, row, strict=False)) for row in body]
    return tables


def _num(value: Any) -> float:
    return float(value or 0)


@cache
def blind_figures(path: Path = BLIND_INVENTORY) -> dict[str, float]:
    """The blind workbook's figures, summed from its rows (t, t CO2e or %, AR5 as written).

    Names: total (Scopes 1 + 2 location + 3), total_market, scope1, scope2_location,
    scope2_market, scope3, scope1:<site>, scope12:<site> (Scope 1 + Scope 2 location),
    scope2_location:<site>, scope2_market:<site>, category:<Scope 1 category>,
    scope3:<category number>, source:<source> (summed over sites), co2_t, ch4_t, ch4_tco2e,
    n2o_t, n2o_tco2e, fgas_tco2e (HFCs and SF6), hfc_tco2e, sf6_kg, effluent_ch4_t,
    effluent_ch4_tco2e, biogenic_co2, montreal_t, montreal_tco2e, top1..3 (largest Scope 1
    rows), share:<...> (%), scope1_ar6_low/high and delta_ar6_low/high (Scope 1 recomputed
    with AR6 GWPs, methane between its non-fossil and fossil values).
    """
    from globalwarmingpotentials import as_frame

    ar6 = as_frame()["AR6GWP100"]
    tables = blind_rows(path)
    f: dict[str, float] = defaultdict(float)
    row_totals = []
    ar6_low = ar6_high = 0.0
    for row in tables["scope1"]:
        total, site = _num(row["Total (tCO2e)"]), str(row["Instalação"])
        category, gas = str(row["Categoria"]), str(row["Combustível / gás"])
        co2, ch4, n2o = (_num(row[c]) for c in ("CO2 fóssil (t)", "CH4 (t)", "N2O (t)"))
        row_totals.append(total)
        f["scope1"] += total
        f[f"scope1:{site}"] += total
        f[f"scope12:{site}"] += total
        f[f"category:{category}"] += total
        f[f"source:{row['Fonte emissora']}"] += total
        f["co2_t"] += co2
        f["ch4_t"] += ch4
        f["n2o_t"] += n2o
        f["biogenic_co2"] += _num(row["CO2 biogênico (t)"])
        if category == "Efluentes":
            f["effluent_ch4_t"] += ch4
        fgas = _num(row["HFCs e SF6 (tCO2e)"])
        f["fgas_tco2e"] += fgas
        if gas in BLENDS and gas != "SF6":
            f["hfc_tco2e"] += fgas
        if gas == "SF6":
            f["sf6_kg"] += _num(row["Quantidade"])
        ar6_fgas = (
            _num(row["Quantidade"]) / 1e3 * sum(w * float(ar6[c]) for c, w in BLENDS[gas].items())
            if gas in BLENDS
            else 0.0
        )
        rest = co2 + n2o * float(ar6["N2O"]) + ar6_fgas
        ar6_low += rest + ch4 * AR6_CH4_NON_FOSSIL
        ar6_high += rest + ch4 * AR6_CH4_FOSSIL
    f["ch4_tco2e"] = f["ch4_t"] * 28
    f["n2o_tco2e"] = f["n2o_t"] * 265
    f["effluent_ch4_tco2e"] = f["effluent_ch4_t"] * 28
    for row in tables["montreal"]:
        f["montreal_t"] += _num(row["Quantidade (kg)"]) / 1e3
        f["montreal_tco2e"] += _num(row["Emissões (tCO2e)"])
    for row in tables["scope2"]:
        site = str(row["Instalação"])
        location = _num(row["Emissões – localização (tCO2e)"])
        market = _num(row["Emissões – mercado (tCO2e)"])
        f["scope2_location"] += location
        f["scope2_market"] += market
        f[f"scope2_location:{site}"] += location
        f[f"scope2_market:{site}"] += market
        f[f"scope12:{site}"] += location
    for row in tables["scope3"]:
        number = str(row["Categoria"]).split()[1]
        f[f"scope3:{number}"] += _num(row["Emissões (tCO2e)"])
        f["scope3"] += _num(row["Emissões (tCO2e)"])
    f["total"] = f["scope1"] + f["scope2_location"] + f["scope3"]
    f["total_market"] = f["scope1"] + f["scope2_market"] + f["scope3"]
    for rank, value in enumerate(sorted(row_totals, reverse=True)[:3], start=1):
        f[f"top{rank}"] = value
    for scope in ("scope1", "scope2_location", "scope3"):
        f[f"share:{scope}"] = 100 * f[scope] / f["total"]
    f["share:scope2_market"] = 100 * f["scope2_market"] / f["total_market"]
    f["share:mobile_in_scope1"] = 100 * f["category:Combustão móvel"] / f["scope1"]
    f["share:top1_in_scope1"] = 100 * f["top1"] / f["scope1"]
    f["scope1_ar6_low"], f["scope1_ar6_high"] = ar6_low, ar6_high
    f["delta_ar6_low"], f["delta_ar6_high"] = ar6_low - f["scope1"], ar6_high - f["scope1"]
    return dict(f)


# --- the second blind inventory's figures, straight from its cells ------------------------

# IPCC AR5 WG1 table 8.A.1, for recomputing the AR6 workbook under AR5: methane 28 (30 of
# fossil origin), R-410A as 50/50 HFC-32 (677) and HFC-125 (3,170).
AR5_BLIND2 = {"N2O": 265.0, "HFC-134a": 1300.0, "R-410A": 1923.5, "SF6": 23500.0}
# The workbook's own rule (its cover): methane of biomass and effluents is non-fossil.
AR6_CH4_BY_ORIGIN = {"biomass": AR6_CH4_NON_FOSSIL, "non-fossil": AR6_CH4_NON_FOSSIL}


def _rows_under(rows: list[list[Any]], at: int) -> tuple[list[str], list[dict[str, Any]], Any]:
    """The table whose header is ``rows[at]``: its rows as dicts, up to a blank or total row,
    and that total row (None if the table ends on a blank)."""
    header = [str(cell or "") for cell in rows[at]]
    body = []
    for row in rows[at + 1 :]:
        if row[0] is None:
            return header, body, None
        if str(row[0]).upper().startswith("TOTAL"):
            return header, body, dict(zip(header, row, strict=False))
        body.append(dict(zip(header, row, strict=False)))
    return header, body, None


# Each table of the second blind workbook: its name here, its sheet, its header's first cell.
_BLIND2_TABLES = (
    ("scope1", "Scope 1", "Facility"),
    ("scope2", "Escopo 2", "Unidade"),
    ("scope3", "Scope 3", "Category (GHG Protocol)"),
)


@cache
def blind2_rows(path: Path = BLIND2_INVENTORY) -> dict[str, Any]:
    """The second blind workbook's tables: 'scope1', 'montreal' (the memo under Scope 1),
    'scope2', 'scope3' as lists of header -> cell, and each table's stated total row."""
    book = openpyxl.load_workbook(path, data_only=True, read_only=True)
    tables: dict[str, Any] = {}
    for name, sheet, first in _BLIND2_TABLES:
        rows = [list(row) for row in book[sheet].iter_rows(values_only=True)]
        at = next(i for i, row in enumerate(rows) if row and row[0] == first)
        _, tables[name], tables[f"{name}_total"] = _rows_under(rows, at)
        if name == "scope1":
            memo = next(i for i, row in enumerate(rows) if str(row[0] or "").startswith("MEMO"))
            _, tables["montreal"], _ = _rows_under(rows, memo + 1)
    return tables


@cache
def blind2_figures(path: Path = BLIND2_INVENTORY) -> dict[str, float]:
    """The second blind workbook's figures, summed from its rows (t, t CO2e, MWh or %; AR6
    as the workbook states, methane 29.8 fossil / 27.0 non-fossil).

    Names: scope1, scope1:<facility>, category:<category>, fuel:<fuel / gas>, co2_t, ch4_t,
    ch4_tco2e, n2o_t, n2o_tco2e, hfc_tco2e, sf6_t, sf6_tco2e, fgas_tco2e (HFCs and SF6),
    biogenic_co2, effluent_ch4_t, effluent_tco2e, natural_gas, top1..4 (largest Scope 1
    rows), scope2_location, scope2_market, scope2_location:<facility>,
    scope2_market:<facility>, electricity_mwh, scope3, scope3:<category number>, total
    (Scopes 1 + 2 location + 3), total_market, total_s12 (Scopes 1 + 2 location),
    total_s12_market, scope12:<facility> (Scope 1 + Scope 2 location), montreal_t,
    montreal_tco2e, share:<...> (%), scope1_ar5_low/high (Scope 1 under AR5: methane 28,
    or 30 where fossil), stated:<table> (the workbook's own TOTAL rows).
    """
    tables = blind2_rows(path)
    f: dict[str, float] = defaultdict(float)
    row_totals = []
    for row in tables["scope1"]:
        total, site = _num(row["Total (tCO2e)"]), str(row["Facility"])
        category, fuel, origin = str(row["Category"]), str(row["Fuel / gas"]), str(
            row["Fossil / biomass"])  # fmt: skip
        co2, ch4, n2o, fgas = (_num(row[c]) for c in ("CO2 fossil (t)", "CH4 (t)", "N2O (t)",
                                                       "HFC / SF6 (t)"))  # fmt: skip
        row_totals.append(total)
        f["scope1"] += total
        f[f"scope1:{site}"] += total
        f[f"scope12:{site}"] += total
        f[f"category:{category}"] += total
        f[f"fuel:{fuel}"] += total
        f["co2_t"] += co2
        f["ch4_t"] += ch4
        f["ch4_tco2e"] += ch4 * AR6_CH4_BY_ORIGIN.get(origin, AR6_CH4_FOSSIL)
        f["n2o_t"] += n2o
        f["biogenic_co2"] += _num(row["Biogenic CO2 (t) - outside scopes"])
        fgas_tco2e = total - co2 - ch4 * AR6_CH4_BY_ORIGIN.get(origin, AR6_CH4_FOSSIL) - n2o * 273
        f["fgas_tco2e"] += fgas_tco2e if fgas else 0.0
        if fuel == "SF6":
            f["sf6_t"] += fgas
            f["sf6_tco2e"] += fgas_tco2e
        elif fgas:
            f["hfc_tco2e"] += fgas_tco2e
        if category == "Wastewater treatment":
            f["effluent_ch4_t"] += ch4
            f["effluent_tco2e"] += total
        ch4_ar5 = (28.0, 28.0 if origin in AR6_CH4_BY_ORIGIN else 30.0)
        rest = co2 + n2o * AR5_BLIND2["N2O"] + fgas * AR5_BLIND2.get(fuel, 0.0)
        f["scope1_ar5_low"] += rest + ch4 * ch4_ar5[0]
        f["scope1_ar5_high"] += rest + ch4 * ch4_ar5[1]
    f["n2o_tco2e"] = f["n2o_t"] * 273
    f["natural_gas"] = f["fuel:Natural gas"]
    for row in tables["montreal"]:
        f["montreal_t"] += _num(row["Leak / recharge (kg)"]) / 1e3
        f["montreal_tco2e"] += _num(row["Emissions (tCO2e)"])
    for row in tables["scope2"]:
        site = str(row["Unidade"])
        location = _num(row["Emissões - abordagem por localização (tCO2)"])
        market = _num(row["Emissões - abordagem de escolha de compra / market-based (tCO2)"])
        f["electricity_mwh"] += _num(row["Eletricidade consumida (MWh)"])
        f["scope2_location"] += location
        f["scope2_market"] += market
        f[f"scope2_location:{site}"] += location
        f[f"scope2_market:{site}"] += market
        f[f"scope12:{site}"] += location
    for row in tables["scope3"]:
        number = str(row["Category (GHG Protocol)"]).split()[1]
        f[f"scope3:{number}"] += _num(row["Emissions (tCO2e)"])
        f["scope3"] += _num(row["Emissions (tCO2e)"])
    f["stated:scope1"] = _num(tables["scope1_total"]["Total (tCO2e)"])
    f["stated:scope2_location"] = _num(
        tables["scope2_total"]["Emissões - abordagem por localização (tCO2)"])  # fmt: skip
    f["stated:scope2_market"] = _num(
        tables["scope2_total"]["Emissões - abordagem de escolha de compra / market-based (tCO2)"]
    )
    f["stated:scope3"] = _num(tables["scope3_total"]["Emissions (tCO2e)"])
    f["total_s12"] = f["scope1"] + f["scope2_location"]
    f["total_s12_market"] = f["scope1"] + f["scope2_market"]
    f["total"] = f["total_s12"] + f["scope3"]
    f["total_market"] = f["total_s12_market"] + f["scope3"]
    for rank, value in enumerate(sorted(row_totals, reverse=True)[:4], start=1):
        f[f"top{rank}"] = value
    for scope in ("scope1", "scope2_location", "scope3"):
        f[f"share:{scope}"] = 100 * f[scope] / f["total"]
    f["share:scope3_market"] = 100 * f["scope3"] / f["total_market"]
    f["share:natural_gas_in_scope1"] = 100 * f["natural_gas"] / f["scope1"]
    f["share:top1_in_scope1"] = 100 * f["top1"] / f["scope1"]
    for site in {str(row["Facility"]) for row in tables["scope1"]}:
        f[f"share:scope1:{site}"] = 100 * f[f"scope1:{site}"] / f["scope1"]
    return dict(f)


# --- one question through the engine -----------------------------------------------------


def figures_for(question: Question) -> dict[str, float] | None:
    """The figures a question's ``figures`` checks name: those of the workbook it attaches."""
    by_attachment = {"blind": blind_figures, "blind2": blind2_figures}
    figures = by_attachment.get(question.attach or "")
    return figures() if figures else None


def spec_for(question: Question, figures: dict[str, float] | None = None) -> AnswerSpec:
    raw = question.raw
    figures = figures if figures is not None else figures_for(question)
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
    known = figures if figures is not None else sample_figures()
    rel = float(table.get("rel", 0.01))
    if "figures" in table:
        values = [known[name] for name in table["figures"]]
        ranges = tuple((value * (1 - rel), value * (1 + rel)) for value in values)
    elif "between" in table:  # a span between two figures, each widened by rel
        ranges = tuple(
            (min(known[low], known[high]) - rel * abs(known[low]),
             max(known[low], known[high]) + rel * abs(known[high]))
            for low, high in table["between"]
        )  # fmt: skip
    elif "ranges" in table:
        ranges = tuple((float(low), float(high)) for low, high in table["ranges"])
    else:
        ranges = ((float(table["min"]), float(table["max"])),)
    return NumberCheck(ranges=ranges, unit=table["unit"], label=table.get("label", ""))


@cache
def attached_inventory(name: str) -> Any:
    """A workbook as the app attaches it: loaded once, shared read-only by every question."""
    from engine.inventory import load_inventory

    path = ATTACHMENTS[name]
    return load_inventory(path, filename=path.name)


def sample_inventory() -> Any:
    return attached_inventory("sample")


def run_question(question: Question) -> Outcome:
    from engine import AekoMessenger, AekoSession, AekoUser

    user = AekoUser(id_external_user=1, role="Analista ESG", usecase="Inventário de GEE 2024")
    started = time.perf_counter()
    try:
        inventory = attached_inventory(question.attach) if question.attach else None
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
