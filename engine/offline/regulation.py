"""Regulatory questions with the user's own numbers: the SBCE (Lei nº 15.042/2024).

"Our kiln line releases 18,000 t CO2e a year: where does it stand under the SBCE?" gets the
rule applied to 18,000 t, not the general rule. The thresholds are the law's; they apply per
installation or source, and the regulator may raise them, so the answer says both. When the
question splits its emissions by installation ("36,000 t in total, four mills of 9,000 t
each"), the rule is applied to each installation's number and the total is said not to
decide.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.formatting import number, read_number
from engine.offline.calculation import NUMBER, SCALE, SCALES
from engine.offline.language import Language
from engine.protocol import fold
from engine.texts import Texts

REPORTING_T = 10_000  # above it: a monitoring plan and an annual emissions report
ALLOWANCES_T = 25_000  # above it: also surrender allowances (CBE) or certificates (CRVE)
SOURCE = "Lei nº 15.042, de 11 de dezembro de 2024 (SBCE)"

_CUES = ("sbce", "15.042", "15042", "15,042", "mercado regulado", "regulated carbon market",
         "comercio de emissoes", "emissions trading")  # fmt: skip
_FIGURE = re.compile(rf"{NUMBER}{SCALE}", re.IGNORECASE)
# A tonne after a figure; the lookahead keeps "2024 to 2025" and "30 tonnes" apart.
_TONNES = re.compile(
    r"\s*(?:toneladas?|tonnes?|tons?|t)(?=co2|[^a-z]|$)(?:\s*(?:de\s+|of\s+)?"
    r"(?:co2e|co2eq|co2)(?![a-z0-9]))?",
    re.IGNORECASE,
)
# Between figures of one list: "6.000, 9.000 e 12.000 t".
_LIST_GLUE = re.compile(r"\s*(?:[,;]\s*(?:(?:e|and|ou|or)\s+)?|\s(?:e|and|ou|or)\s+)")
_YEARLIKE = re.compile(r"(?:19|20)\d\d")
# What a figure is of, from the words nearest to it: one installation, or the company's sum.
# "each year" and "cada mês" are no installations.
_INSTALLATION = re.compile(
    r"(?<![a-z])(?:each(?!\s+(?:year|month))|cada(?!\s+(?:ano|mes))|apiece|plants?|factor(?:y|ies)"
    r"|facilit(?:y|ies)|installations?|sites?|mills?|units?|sources?|plantas?|fabricas?"
    r"|usinas?|instalac(?:ao|oes)|unidades?|fontes?|filia(?:l|is))(?![a-z])"
)
_TOTAL = re.compile(
    r"(?<![a-z])(?:in total|total|in all|altogether|combined|overall|company|group|corporate"
    r"|empresa|grupo|ao todo|no total|somad[ao]s?|no conjunto|consolidad[ao]s?)(?![a-z])"
)
_BEFORE, _AFTER = 45, 30  # characters of context a figure's own words fit in
_SENTENCE_END = re.compile(r"[.?!;](?:\s|$)")  # a colon opens a list: not an end


@dataclass(frozen=True)
class SbceAmounts:
    """The yearly t CO2e a SBCE question states. ``installations``: each installation's or
    source's own figure, when the question gives them; ``total``: the one figure otherwise,
    or the company's sum next to per-installation figures (where it decides nothing)."""

    installations: tuple[float, ...] = ()
    total: float | None = None

    @property
    def per_installation(self) -> bool:
        """Whether the rule is applied to each installation rather than to one figure."""
        return len(self.installations) > 1 or (bool(self.installations) and self.total is not None)


def is_sbce_question(question: str) -> bool:
    text = fold(question)
    return any(cue in text for cue in _CUES)


def sbce_amount(question: str) -> SbceAmounts | None:
    """The yearly t CO2e a SBCE question states, per installation when it says so; None
    when it states none (or is no SBCE question)."""
    if not is_sbce_question(question):
        return None
    figures = [f for f in _tonnes_figures(question) if not _names_the_threshold(question, f[0])]
    if not figures:
        return None
    kinds = [_kind(question, figures, index) for index in range(len(figures))]
    values = [value for value, _, _ in figures]
    if len(figures) == 1:
        if kinds[0] == "installation":
            return SbceAmounts(installations=(values[0],))
        return SbceAmounts(total=values[0])
    totals = [v for v, kind in zip(values, kinds, strict=True) if kind == "total"]
    if not totals and "installation" not in kinds:
        return SbceAmounts(total=values[0])  # several figures, none said to be what: the first
    # Beside a named total or installation, an unnamed figure is another installation's.
    installations = tuple(v for v, kind in zip(values, kinds, strict=True) if kind != "total")
    return SbceAmounts(installations=installations, total=totals[0] if totals else None)


_THRESHOLD_WORDS = re.compile(
    r"(?<![a-z])(?:threshold|limit|limiar|limite|patamar|corte|gatilho|trigger|faixa|teto|"
    r"cutoff|cut-off)"
)


def _names_the_threshold(question: str, value: float) -> bool:
    """A figure that is one of the law's own thresholds, called a threshold ("the 25,000 t
    threshold"): the rule asked about, not anybody's emissions."""
    return value in (REPORTING_T, ALLOWANCES_T) and bool(_THRESHOLD_WORDS.search(fold(question)))


def _tonnes_figures(question: str) -> list[tuple[float, int, int]]:
    """(t, start, end) of each figure in tonnes, a list's figures included ("6.000, 9.000 e
    12.000 t"), in the order written."""
    found: list[tuple[float, int, int, bool]] = []  # value, start, end, followed by tonnes
    for match in _FIGURE.finditer(question):
        try:
            value = read_number(match.group("number"))
        except ValueError:
            continue
        value *= SCALES.get(fold(match.group("scale") or ""), 1.0)
        tonnes = _TONNES.match(question, match.end())
        end = tonnes.end() if tonnes else match.end()
        found.append((value, match.start(), end, tonnes is not None))
    figures: list[tuple[float, int, int]] = []
    listed = False  # the figure after this one is in tonnes, or listed with one that is
    for index in range(len(found) - 1, -1, -1):
        value, start, end, tonnes = found[index]
        glued = (
            listed
            and _LIST_GLUE.fullmatch(question, end, found[index + 1][1]) is not None
            and not _YEARLIKE.fullmatch(question[start:end])
        )
        if tonnes or glued:
            figures.append((value, start, end))
        listed = tonnes or glued
    return figures[::-1]


def _kind(question: str, figures: list[tuple[float, int, int]], index: int) -> str | None:
    """'installation', 'total' or None: what the words nearest to the figure say it is."""
    _, start, end = figures[index]
    floor = figures[index - 1][2] if index else 0
    ceiling = figures[index + 1][1] if index + 1 < len(figures) else len(question)
    before = fold(question[max(floor, start - _BEFORE) : start])
    after = fold(question[end : min(ceiling, end + _AFTER)])
    # A figure's words stay within its sentence.
    before = _SENTENCE_END.split(before)[-1]
    after = _SENTENCE_END.split(after)[0]
    nearest: tuple[int, str] | None = None
    for kind, pattern in (("total", _TOTAL), ("installation", _INSTALLATION)):
        for hit in pattern.finditer(before):
            distance = len(before) - hit.end()
            if nearest is None or distance < nearest[0]:
                nearest = (distance, kind)
        hit = pattern.search(after)
        if hit is not None and (nearest is None or hit.start() < nearest[0]):
            nearest = (hit.start(), kind)
    return nearest[1] if nearest else None


# The rule per band of yearly emissions, then what holds for every band; {shown}, {low} and
# {high} are filled in the answer's language.
_TEXTS = Texts(
    "engine.offline.regulation",
    {
        "rule.allowances": {
            "pt": "Com {shown} por ano, vocês estão acima de {high} t CO2e: além do plano de "
            "monitoramento e do relato anual de emissões e remoções, precisam fazer a "
            "conciliação periódica de obrigações, entregando Cotas Brasileiras de Emissões "
            "(CBE) ou Certificados de Redução ou Remoção Verificada de Emissões (CRVE).",
            "en": "At {shown} a year you are above {high} t CO2e: besides the monitoring plan and "
            "the annual report of emissions and removals, you must periodically reconcile "
            "your obligations by surrendering Brazilian Emission Allowances (CBE) or "
            "Certificates of Verified Emission Reduction or Removal (CRVE).",
        },
        "rule.reporting": {
            "pt": "Com {shown} por ano, vocês estão acima de {low} e até {high} t CO2e: precisam "
            "apresentar plano de monitoramento e relatar anualmente emissões e remoções, mas "
            "não entregar cotas.",
            "en": "At {shown} a year you are above {low} and up to {high} t CO2e: you must submit "
            "a monitoring plan and report emissions and removals every year, but you do not "
            "surrender allowances.",
        },
        "rule.none": {
            "pt": "Com {shown} por ano, vocês estão até {low} t CO2e: pela lei, não têm obrigação "
            "de relato nem de entrega de cotas no SBCE.",
            "en": "At {shown} a year you are at or below {low} t CO2e: under the law you have no "
            "reporting or surrender obligation in the SBCE.",
        },
        "rule.caveat": {
            "pt": "Os limites valem por instalação ou fonte, não pela empresa somada: confira as "
            "emissões de cada instalação. O órgão gestor pode elevá-los na regulamentação, e "
            "a produção primária agropecuária fica fora das obrigações.",
            "en": "The thresholds apply per installation or source, not to the company as a "
            "whole: check each installation's emissions. The regulator may raise them, and "
            "primary agricultural production is excluded from the obligations.",
        },
        "rule.source": {
            "pt": "Fonte",
            "en": "Source",
        },
        # Per installation: each band's rule for the installations in it, then what holds for all.
        "each.total": {
            "pt": "Os limites do SBCE valem por instalação ou fonte, não pelo total da empresa: "
            "as {total} no total não decidem se vocês estão sujeitos.",
            "en": "The SBCE thresholds apply per installation or source, not to the company's "
            "total: the {total} in total does not decide whether you are covered.",
        },
        "each.rule": {
            "pt": "Os limites do SBCE valem por instalação ou fonte: cada uma é avaliada pelas "
            "próprias emissões.",
            "en": "The SBCE thresholds apply per installation or source: each one is judged by "
            "its own emissions.",
        },
        "each.allowances": {
            "pt": "Cada instalação com {shown} por ano está acima de {high} t CO2e: além do plano "
            "de monitoramento e do relato anual de emissões e remoções, precisa fazer a "
            "conciliação periódica de obrigações, entregando Cotas Brasileiras de Emissões "
            "(CBE) ou Certificados de Redução ou Remoção Verificada de Emissões (CRVE).",
            "en": "Each installation with {shown} a year is above {high} t CO2e: besides the "
            "monitoring plan and the annual report of emissions and removals, it must "
            "periodically reconcile its obligations by surrendering Brazilian Emission "
            "Allowances (CBE) or Certificates of Verified Emission Reduction or Removal "
            "(CRVE).",
        },
        "each.reporting": {
            "pt": "Cada instalação com {shown} por ano está acima de {low} e até {high} t CO2e: "
            "precisa apresentar plano de monitoramento e relatar anualmente emissões e "
            "remoções, mas não entregar cotas.",
            "en": "Each installation with {shown} a year is above {low} and up to {high} t CO2e: "
            "it must submit a monitoring plan and report emissions and removals every year, "
            "but does not surrender allowances.",
        },
        "each.none": {
            "pt": "Cada instalação com {shown} por ano não passa de {low} t CO2e: pela lei, não "
            "tem obrigação de relato nem de entrega de cotas no SBCE.",
            "en": "Each installation with {shown} a year is at or below {low} t CO2e: under the "
            "law it has no reporting or surrender obligation in the SBCE.",
        },
        "each.all_none": {
            "pt": "Com esses números, nenhuma instalação de vocês tem obrigação no SBCE; "
            "acompanhem as que se aproximarem de {low} t CO2e por ano.",
            "en": "With these figures none of your installations has an SBCE obligation; watch "
            "any that nears {low} t CO2e a year.",
        },
        "each.caveat": {
            "pt": "O órgão gestor pode elevar os limites na regulamentação, e a produção primária "
            "agropecuária fica fora das obrigações.",
            "en": "The regulator may raise the thresholds, and primary agricultural production is "
            "excluded from the obligations.",
        },
        "each.and": {
            "pt": "e",
            "en": "and",
        },
    },
)


def _band(amount: float) -> str:
    # The law says "above": exactly at a threshold is the band below it.
    if amount > ALLOWANCES_T:
        return "allowances"
    return "reporting" if amount > REPORTING_T else "none"


def sbce_answer(amount: SbceAmounts | float, lang: Language) -> str:
    """The SBCE rule applied to the question's figures: to each installation's when it gives
    them, else to its one figure, saying that the law applies per installation."""
    if isinstance(amount, SbceAmounts) and amount.per_installation:
        return _per_installation_answer(amount, lang)
    if isinstance(amount, SbceAmounts):
        figure = amount.installations[0] if amount.installations else amount.total
        assert figure is not None
    else:
        figure = amount
    rule = _TEXTS(
        f"rule.{_band(figure)}",
        lang,
        shown=f"{number(figure, 0, lang)} t CO2e",
        low=number(REPORTING_T, 0, lang),
        high=number(ALLOWANCES_T, 0, lang),
    )
    return f"{rule}\n\n{_TEXTS('rule.caveat', lang)}\n\n{_TEXTS('rule.source', lang)}: {SOURCE}"


def _per_installation_answer(amounts: SbceAmounts, lang: Language) -> str:
    low, high = number(REPORTING_T, 0, lang), number(ALLOWANCES_T, 0, lang)
    if amounts.total is not None:
        lines = [_TEXTS("each.total", lang, total=f"{number(amounts.total, 0, lang)} t CO2e")]
    else:
        lines = [_TEXTS("each.rule", lang)]
    figures = sorted(set(amounts.installations))
    for band in ("none", "reporting", "allowances"):
        inside = [number(f, 0, lang) for f in figures if _band(f) == band]
        if not inside:
            continue
        listed = (
            ", ".join(inside[:-1]) + f" {_TEXTS('each.and', lang)} {inside[-1]}"
            if len(inside) > 1
            else inside[0]
        )
        lines.append(_TEXTS(f"each.{band}", lang, shown=f"{listed} t CO2e", low=low, high=high))
    if all(_band(f) == "none" for f in figures):
        lines.append(_TEXTS("each.all_none", lang, low=low))
    lines.append(_TEXTS("each.caveat", lang))
    return "\n\n".join(lines) + f"\n\n{_TEXTS('rule.source', lang)}: {SOURCE}"
