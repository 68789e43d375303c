"""An estimate as text: each step as quantity × factor (role; source) = result, then the
total in scope with its GWPs, and the biogenic CO2 and Montreal gases apart.

Numbers go through engine.formatting.number: factors with all their digits (74.100,
0,47732), intermediate results with about four significant digits, t CO2e with at least
three decimals, as inventories report them.
"""

from __future__ import annotations

import itertools
import math
from typing import TYPE_CHECKING

from engine.emissions.names import BIOGENIC, COMBUSTION_GASES, SHARE_ROLES, gas_label
from engine.emissions.units import pretty, unit_label
from engine.formatting import number
from engine.texts import Texts

_TEXTS = Texts(
    "engine.emissions.explain",
    {
        "users_factor": {"pt": " [fator do usuário]", "en": " [user's factor]"},
        "valid": {"pt": "; vigência {period}", "en": "; valid {period}"},
        "scope": {"pt": "Escopo {scope}", "en": "Scope {scope}"},
        "location_based": {"pt": ", baseado na localização", "en": ", location-based"},
        "head": {
            "pt": "{name}: {quantity}, período {period} ({scope}, {category}).",
            "en": "{name}: {quantity}, period {period} ({scope}, {category}).",
        },
        "blend": {"pt": "Mistura: {shares}.", "en": "Blend: {shares}."},
        "biogenic": {
            "pt": "CO2 biogênico (fora dos escopos, informado à parte): {tonnes} t.",
            "en": "Biogenic CO2 (outside the scopes, reported apart): {tonnes} t.",
        },
        "montreal": {
            "pt": "Protocolo de Montreal (fora dos escopos): {parts}.",
            "en": "Montreal Protocol (outside the scopes): {parts}.",
        },
        "total": {
            "pt": "Total no escopo ({gwp_set}): {terms} = {total} t CO2e.",
            "en": "Total in scope ({gwp_set}): {terms} = {total} t CO2e.",
        },
    },
)

if TYPE_CHECKING:  # results.py imports this module to render: types only, never at runtime
    from engine.emissions.results import Estimate, FactorUse


def num(value: float, lang: str, *, digits: int = 4, min_decimals: int = 0) -> str:
    """About ``digits`` significant digits, no trailing zeros: 74.100, 722,6, 0,0003056."""
    if value == 0 or not math.isfinite(value):
        return number(value, min_decimals, lang)
    decimals = max(min_decimals, min(12, digits - 1 - math.floor(math.log10(abs(value)))))
    text = number(value, decimals, lang)
    separator = "," if lang == "pt" else "."
    while decimals > min_decimals and text.endswith("0"):  # 0,05000 -> 0,05
        text, decimals = text[:-1], decimals - 1
    return text.removesuffix(separator)


def _value(value: float, unit: str, lang: str, gas: str = "-") -> str:
    """A factor as its source writes it (all its digits), the gas its mass is of named in the
    unit: '840 kg/m³', '14%', '0,0617 t CO2/MWh', '3,9 kg CH4/TJ'."""
    if unit == "fraction":
        return f"{num(value * 100, lang, digits=10)}%"
    if unit == "percent":
        return f"{num(value, lang, digits=10)}%"
    return f"{num(value, lang, digits=10)} {unit_label(unit, gas, lang)}"


def _source(use: FactorUse, lang: str) -> str:
    user = _TEXTS("users_factor", lang) if use.user else ""
    period = _TEXTS("valid", lang, period=use.period) if use.period else ""
    return f"{use.label(lang)}; {use.source_in(lang)}{period}{user}"


def _gas_name(gas: str, lang: str, method: str = "fuel_combustion") -> str:
    if gas == "CO2" and not method.endswith("combustion"):
        return "CO2"  # 'fossil' only says something next to a biogenic part
    label = gas_label(gas)
    return label[lang] if label else gas


def render(estimate: Estimate, lang: str) -> str:
    """The estimate's computation in ``lang`` ("pt" or "en")."""
    pt = lang == "pt"
    quantity = f"{num(estimate.quantity, lang, digits=10)} {pretty(estimate.unit)}"
    scope = _TEXTS("scope", lang, scope=estimate.scope)
    category = estimate.category if pt else estimate.category_en
    if estimate.scope2_method:
        category += _TEXTS("location_based", lang)
    name = estimate.name["pt" if pt else "en"]
    lines = [
        _TEXTS(
            "head",
            lang,
            name=name,
            quantity=quantity,
            period=estimate.period,
            scope=scope,
            category=category,
        )
    ]
    shares = [u for u in estimate.factors if u.key in SHARE_ROLES]
    if shares:
        text = "; ".join(
            f"{_value(u.value, u.unit, lang)} ({_source(u, lang)}"
            + (f", {u.remark_in(lang)}" if u.remark_in(lang) else "")
            + ")"
            for u in shares
        )
        lines.append(_TEXTS("blend", lang, shares=text))
    lines += [n.pt if pt else n.en for n in estimate.notes if n.top]
    for part, heading in estimate.parts.items():
        steps = [s for s in estimate.steps if s.part == part]
        if not steps:
            continue
        if len(estimate.parts) > 1:
            lines.append(f"{heading[0] if pt else heading[1]}:")
        for step in steps:
            use = estimate.factors[step.factor]
            result_unit = pretty(step.result_unit)
            # kg CO2e is no mass of the gas: "kg CO2e N2O" would read as one.
            if use.gas in (*COMBUSTION_GASES, BIOGENIC) and "CO2e" not in result_unit:
                result_unit += " " + _gas_name(use.gas, lang, estimate.method)
            remark = " — " + use.remark_in(lang) if use.remark_in(lang) else ""
            lines.append(
                f"- {num(step.start, lang)} {pretty(step.start_unit)} "
                f"{'÷' if step.divide else '×'} {_value(use.value, use.unit, lang, use.gas)} "
                f"({_source(use, lang)}) = {num(step.result, lang)} {result_unit}{remark}"
            )
    lines.append(_total_line(estimate, lang))
    if estimate.biogenic_co2_t:
        lines.append(_TEXTS("biogenic", lang, tonnes=num(estimate.biogenic_co2_t, lang)))
    if estimate.montreal_t:
        parts = " + ".join(f"{num(t, lang)} t {gas}" for gas, t in estimate.montreal_t.items())
        lines.append(_TEXTS("montreal", lang, parts=parts))
    lines += [n.pt if pt else n.en for n in estimate.notes if not n.top]
    return _markdown(lines)


def _markdown(lines: list[str]) -> str:
    """Each line a paragraph of its own, the steps one list: Markdown joins lines that
    follow one another into a paragraph, and a line right after a list into its last item
    (the total would run into the last step)."""
    text = lines[0] if lines else ""
    for before, line in itertools.pairwise(lines):
        text += ("\n" if before.startswith("- ") and line.startswith("- ") else "\n\n") + line
    return text


def _total_line(estimate: Estimate, lang: str) -> str:
    terms = [
        f"{num(t, lang)} t {_gas_name(gas, lang, estimate.method)} × "
        f"{num(estimate.gwps[gas], lang)}"
        for gas, t in estimate.gases_t.items()
    ]
    body = " + ".join(terms) if terms else "0"
    total = num(estimate.tco2e, lang, min_decimals=3)  # inventories report t CO2e to 3
    return _TEXTS("total", lang, gwp_set=estimate.gwp_set, terms=body, total=total)
