"""Regulatory questions with the user's own numbers: the SBCE (Lei nº 15.042/2024).

"We emit 30,000 t CO2e a year: what does the SBCE require of us?" gets the rule applied to
30,000 t, not the general rule. The thresholds are the law's; they apply per installation or
source, and the regulator may raise them, so the answer says both.
"""

from __future__ import annotations

import re

from engine.formatting import number, read_number
from engine.offline.calculation import NUMBER, SCALE, SCALES
from engine.offline.language import Language
from engine.protocol import fold

REPORTING_T = 10_000  # above it: a monitoring plan and an annual emissions report
ALLOWANCES_T = 25_000  # above it: also surrender allowances (CBE) or certificates (CRVE)
SOURCE = "Lei nº 15.042, de 11 de dezembro de 2024 (SBCE)"

_CUES = ("sbce", "15.042", "15042", "15,042", "mercado regulado", "regulated carbon market",
         "comercio de emissoes", "emissions trading")  # fmt: skip
_AMOUNT = re.compile(
    rf"{NUMBER}{SCALE}\s*(?:t|ton(?:elada)?s?|tonnes?)\s*(?:de\s+|of\s+)?(?:co2e|co2eq|co2)?",
    re.IGNORECASE,
)


def is_sbce_question(question: str) -> bool:
    text = fold(question)
    return any(cue in text for cue in _CUES)


def sbce_amount(question: str) -> float | None:
    """The yearly t CO2e a SBCE question states, or None."""
    if not is_sbce_question(question):
        return None
    match = _AMOUNT.search(question)
    if match is None:
        return None
    try:
        amount = read_number(match.group("number"))
    except ValueError:
        return None
    return amount * SCALES.get(fold(match.group("scale") or ""), 1.0)


# The rule per band of yearly emissions, then what holds for every band; {shown}, {low} and
# {high} are filled in the answer's language.
_RULES: dict[Language, dict[str, str]] = {
    "pt": {
        "allowances": "Com {shown} por ano, vocês estão acima de {high} t CO2e: além do plano "
        "de monitoramento e do relato anual de emissões e remoções, precisam fazer a "
        "conciliação periódica de obrigações, entregando Cotas Brasileiras de Emissões (CBE) "
        "ou Certificados de Redução ou Remoção Verificada de Emissões (CRVE).",
        "reporting": "Com {shown} por ano, vocês estão acima de {low} e até {high} t CO2e: "
        "precisam apresentar plano de monitoramento e relatar anualmente emissões e remoções, "
        "mas não entregar cotas.",
        "none": "Com {shown} por ano, vocês estão até {low} t CO2e: pela lei, não têm "
        "obrigação de relato nem de entrega de cotas no SBCE.",
        "caveat": "Os limites valem por instalação ou fonte, não pela empresa somada: confira "
        "as emissões de cada instalação. O órgão gestor pode elevá-los na regulamentação, e a "
        "produção primária agropecuária fica fora das obrigações.",
        "source": "Fonte",
    },
    "en": {
        "allowances": "At {shown} a year you are above {high} t CO2e: besides the monitoring "
        "plan and the annual report of emissions and removals, you must periodically "
        "reconcile your obligations by surrendering Brazilian Emission Allowances (CBE) or "
        "Certificates of Verified Emission Reduction or Removal (CRVE).",
        "reporting": "At {shown} a year you are above {low} and up to {high} t CO2e: you must "
        "submit a monitoring plan and report emissions and removals every year, but you do "
        "not surrender allowances.",
        "none": "At {shown} a year you are at or below {low} t CO2e: under the law you have "
        "no reporting or surrender obligation in the SBCE.",
        "caveat": "The thresholds apply per installation or source, not to the company as a "
        "whole: check each installation's emissions. The regulator may raise them, and "
        "primary agricultural production is excluded from the obligations.",
        "source": "Source",
    },
}


def sbce_answer(amount: float, lang: Language) -> str:
    words = _RULES[lang]
    # The law says "above": exactly at a threshold is the band below it.
    if amount > ALLOWANCES_T:
        band = "allowances"
    else:
        band = "reporting" if amount > REPORTING_T else "none"
    rule = words[band].format(
        shown=f"{number(amount, 0, lang)} t CO2e",
        low=number(REPORTING_T, 0, lang),
        high=number(ALLOWANCES_T, 0, lang),
    )
    return f"{rule}\n\n{words['caveat']}\n\n{words['source']}: {SOURCE}"
