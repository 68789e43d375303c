"""The eval's machine checks: plain text in, reasons for failing out.

Written apart from the engine on purpose: folding, language detection and number reading
here share no code with ``engine`` so that a bug there cannot make its own answers pass.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

Lang = Literal["pt", "en"]
Expect = Literal["answer", "refusal", "unknown", "no_inventory"]

# --- folding -------------------------------------------------------------------------------

_SUBSCRIPTS = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")
_SPACES = re.compile(r"[\s\u00a0\u202f\u2009]+")
# HFC-134a, R134a and R-134a name the same gas; answers and phrase lists spell it every way.
_REFRIGERANT = re.compile(r"(?<![a-z0-9])(?:r|hfc|hfo|hcfc)[\s-]?(?=\d)")


def fold(text: str) -> str:
    """Lower case, no accents, CO₂ as co2, dashes as '-', one space between words."""
    text = text.translate(_SUBSCRIPTS).replace("\u2212", "-")
    text = re.sub(r"[\u2010-\u2015]", "-", text)
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch)).lower()
    bare = _SPACES.sub(" ", bare)
    return _REFRIGERANT.sub("r-", bare)


def has_phrase(folded_text: str, phrase: str) -> bool:
    """``phrase`` starts at a word boundary; its end is open so stems match ('verificad')."""
    pattern = r"(?<![a-z0-9])" + re.escape(fold(phrase))
    return re.search(pattern, folded_text) is not None


# --- language ------------------------------------------------------------------------------

# Only words that one language uses and the other does not: 'a', 'as', 'no', 'e', 'o' and
# 'total' are left out because both read them. Function words first, then the domain's own
# vocabulary, since calculation answers are terse ("Escopo 1, Emissões fugitivas").
_PT_WORDS = frozenset(
    "de da do das dos que nao para com uma um os em na nos nas por sao mais como ao "
    "se ou seu sua seus suas esse essa este esta isso pela pelo pelas pelos entre sobre "
    "voce voces tem ser foi quando tambem ja ainda muito mesmo cada onde qual quais deve "
    "pode sim sem ate aos num numa nosso nossa nossos nossas ha sua ele ela eles "
    "escopo escopos emissao emissoes periodo fator fatores combustao inventario mistura "
    "densidade energia eletrica eletricidade refrigerante fonte fontes ano anos toneladas "
    "reducao substituir alternativas menor maior biogenico categoria metano oxido "
    "gases efeito estufa fugitivas fugitiva estacionaria movel fossil processos".split()
)
_EN_WORDS = frozenset(
    "the of and to is are for with that this on by it be from your you not an which at "
    "was were has have can will would should what when where each also only into than "
    "their there these those our its more does if but or how any all in we they "
    "scope scopes emission emissions period factor factors combustion inventory blend "
    "density energy electricity refrigerant source sources year years tonnes reduction "
    "replace options lower larger largest biogenic category methane oxide greenhouse "
    "fugitive stationary mobile processes".split()
)
_WORD = re.compile(r"[a-z]+")
# Citations keep their original titles ("2006 IPCC Guidelines for National ..." inside a
# Portuguese answer): what is in parentheses or after a source label does not count.
_ASIDE = re.compile(r"\([^()]*\)|\[[^\]]*\]")
# Nor does a name quoted from the user's own file ("“Caldeira 1 – vapor de processo”" in an
# English answer): it is the workbook's language, not the answer's. Short quotes only, so a
# whole answer in quotation marks still counts.
_QUOTED = re.compile(r"“[^”\n]{1,120}”|\"[^\"\n]{1,120}\"|«[^»\n]{1,120}»")
_SOURCE_LINE = re.compile(
    r"^\W*(?:fontes?|sources?|refer[eê]ncias?|references?)\W*:.*$", re.IGNORECASE | re.MULTILINE
)


def detect_language(text: str) -> Lang | Literal["mixed"] | None:
    """'pt', 'en', 'mixed' when both weigh alike, or None when too few telling words."""
    pt, en = language_evidence(text)
    if max(pt, en) >= 2 and pt >= 2 * en:
        return "pt"
    if max(pt, en) >= 2 and en >= 2 * pt:
        return "en"
    return "mixed" if min(pt, en) >= 3 else None


def language_evidence(text: str) -> tuple[int, int]:
    """How many words only Portuguese uses, and how many only English uses."""
    text = _SOURCE_LINE.sub(" ", _QUOTED.sub(" ", re.sub(r"`[^`]*`", " ", text)))
    for _ in range(2):  # nested parentheses, one level at a time
        text = _ASIDE.sub(" ", text)
    words = _WORD.findall(fold(text))
    return sum(w in _PT_WORDS for w in words), sum(w in _EN_WORDS for w in words)


# --- numbers -------------------------------------------------------------------------------

_NUMBER = re.compile(r"(?<![\w.,])(?:\d{1,3}(?:[.,]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?)(?![\d])")
_MULTIPLIERS = (
    (re.compile(r"\s?(?:mil|thousand|k)(?![a-z])"), 1e3),
    (re.compile(r"\s?(?:milhoes|milhao|million|millions|mi)(?![a-z])"), 1e6),
)


def read_number(token: str, lang: Lang) -> float:
    """One number token as PT ('1.234,5', '19,2') or EN ('1,234.5', '19.2') writes it.

    When both separators appear the last one is the decimal mark. A lone separator followed
    by exactly three digits is ambiguous ('1.234', '19,200'): the answer's language decides.
    """
    token = token.replace("\u00a0", "").replace("\u202f", "")
    dots, commas = token.count("."), token.count(",")
    if dots and commas:
        decimal = "." if token.rfind(".") > token.rfind(",") else ","
    elif dots + commas == 0:
        return float(token)
    else:
        mark = "." if dots else ","
        if dots + commas > 1:
            decimal = None  # '1.234.567': the mark repeats, so it groups thousands
        elif len(token) - token.rfind(mark) - 1 == 3:
            groups_thousands = (mark == "." and lang == "pt") or (mark == "," and lang == "en")
            decimal = None if groups_thousands else mark
        else:
            decimal = mark
    thousands = {".", ","} - {decimal} if decimal else {".", ","}
    for mark in thousands:
        token = token.replace(mark, "")
    if decimal == ",":
        token = token.replace(",", ".")
    return float(token)


@dataclass(frozen=True)
class Quantity:
    value: float  # in the unit's base: tonnes for masses, as written for the rest
    unit: str  # 't CO2e', 't CO2', 't', 't CO2/MWh', '%', '' (none)
    start: int


# A mass of CO2e or CO2, read from the folded text right after a number.
# Longest spellings first, and the mass must end there ('t' is not the start of 'tonne').
_MASS = (
    r"(?P<mass>toneladas|tonelada|tonnes|tonne|tons|ton|t|quilogramas?|kilograms?|quilos?|"
    r"kilos?|kg|kt|mt|gg)(?=[^a-z]|co2|$)"
)
_CO2E = r"co2 ?(?:e|eq|-eq|-e|equivalente?s?|-equivalente?s?)(?![a-z])"
_CO2 = r"co2(?![a-z0-9])"
_UNIT = re.compile(
    rf"\s?{_MASS}\.?\s?(?:de |of )?(?:(?P<co2e>{_CO2E})|(?P<co2>{_CO2}))?"
    r"(?P<per_mwh>\s?/\s?mwh)?"
)
_MASS_IN_T = {"kg": 1e-3, "quilo": 1e-3, "kilo": 1e-3, "kt": 1e3, "gg": 1e3, "mt": 1e6}
_PERCENT = re.compile(r"\s?(?:%|por cento|percent)")


def quantities(text: str, lang: Lang) -> list[Quantity]:
    """Every number in ``text`` with the unit written after it (or '' if none)."""
    # A thin space between digit groups is a thousands mark; folding would split the number.
    folded = fold(re.sub(r"(?<=\d)[\u00a0\u202f\u2009](?=\d{3}(?!\d))", "", text))
    found = []
    for match in _NUMBER.finditer(folded):
        value = read_number(match.group(), lang)
        end = match.end()
        for pattern, factor in _MULTIPLIERS:
            multiplier = pattern.match(folded, end)
            if multiplier:
                value, end = value * factor, multiplier.end()
                break
        found.append(_with_unit(folded, value, end, match.start()))
    return found


def _with_unit(folded: str, value: float, end: int, start: int) -> Quantity:
    if _PERCENT.match(folded, end):
        return Quantity(value, "%", start)
    unit = _UNIT.match(folded, end)
    if unit is None:
        return Quantity(value, "", start)
    mass = unit.group("mass")
    scale = next((f for prefix, f in _MASS_IN_T.items() if mass.startswith(prefix)), 1.0)
    if unit.group("per_mwh") and (unit.group("co2") or unit.group("co2e")):
        return Quantity(value * scale, "t CO2/MWh", start)
    if unit.group("co2e"):
        return Quantity(value * scale, "t CO2e", start)
    if unit.group("co2"):
        return Quantity(value * scale, "t CO2", start)
    return Quantity(value * scale, "t", start)


def _currency(folded: str, lang: Lang) -> list[float]:
    return [read_number(m.group(1), lang) for m in re.finditer(r"r\$ ?([\d.,]+\d)", folded)]


# Which written units satisfy a check's unit: CO2 alone is accepted where the quantity is
# CO2 by nature (grid electricity, biogenic CO2), never for a mix of gases.
_ACCEPTS = {
    "t CO2e": {"t CO2e"},
    "t CO2": {"t CO2", "t CO2e"},
    "t": {"t", "t CO2", "t CO2e"},
    "t CO2/MWh": {"t CO2/MWh"},
    "%": {"%"},
    "": {"", "%", "t", "t CO2", "t CO2e", "t CO2/MWh"},
}


def _matches(quantity: Quantity, unit: str) -> bool:
    return quantity.unit in _ACCEPTS[unit]


# --- phrase groups ------------------------------------------------------------------------

# Regular expressions over folded text. A refusal declines and says what it can do instead.
REFUSAL: dict[Lang, tuple[str, ...]] = {
    "pt": (
        r"fora d[oae]s? (?:meu |nosso |desse |deste )?(?:tema|escopo|assunto|foco|ambito)",
        r"fora (?:desse|deste|do) (?:tema|escopo|assunto)",
        r"nao (?:posso|consigo|vou) (?:ajudar|responder|atender|compartilhar|revelar|mostrar"
        r"|divulgar|exibir|repetir|ignorar|seguir|fornecer|sair|mudar|abandonar)",
        r"so (?:posso|consigo) (?:ajudar|responder|tratar|falar)",
        r"(?:posso|consigo) ajudar (?:apenas|somente|so)",
        r"(?:meu|o meu) (?:foco|papel|escopo) (?:e|sao|esta)",
        r"nao (?:e|faz parte d[oa]) (?:o )?meu (?:tema|escopo|foco|papel)",
        r"nao (?:trato|respondo|falo) (?:de|sobre)",
        r"(?:instrucoes|configuracoes) (?:internas|do sistema) (?:sao|ficam)",
        r"sou (?:um|uma) (?:assistente|consultor|consultora|analista) (?:de|especializad)",
    ),
    "en": (
        r"outside (?:of )?(?:my|the|this|our) (?:scope|topic|area|focus|remit)",
        r"out of (?:my |the )?scope",
        r"(?:can't|cannot|can not|won't|will not|am not able to|i'm not able to|unable to) "
        r"(?:help|answer|assist|share|reveal|show|disclose|print|repeat|ignore|follow|provide"
        r"|switch|change|abandon)",
        r"i (?:can )?only (?:help|answer|assist|cover|discuss|talk)",
        r"(?:my|i) (?:focus|role|scope) (?:is|are)",
        r"not (?:something|a topic|a subject) (?:i|that i)",
        r"i(?:'m| am) (?:an?|your) (?:assistant|consultant|analyst|advisor) (?:for|on|focused|"
        r"specialized|dedicated)",
    ),
}
# Does not know: says the fact is missing, unpublished, or not knowable yet.
UNKNOWN: dict[Lang, tuple[str, ...]] = {
    "pt": (
        r"nao sei",
        r"nao (?:tenho|possuo|encontrei|achei|localizei) (?:essa |esta |a |uma |nenhuma )?"
        r"(?:informac|resposta|dado|fonte|valor|referencia|registro|conteudo)",
        r"nao (?:tenho|ha) (?:como|base para) (?:saber|afirmar|prever|informar|responder)",
        r"nao (?:consta|aparece|esta) (?:na|em) (?:minha|nossa) base",
        r"nao (?:foi|foram|esta|estao) (?:ainda )?(?:publicad|definid|divulgad|estabelecid)",
        r"ainda nao (?:foi |foram |esta |estao |ha |existe |existem )?"
        r"(?:publicad|definid|divulgad|estabelecid|disponivel|disponiveis|conhecid|sabe)",
        r"nao (?:e|seria) possivel (?:saber|prever|afirmar|informar|antecipar)",
        r"nao (?:existe|ha) (?:ainda )?(?:um |uma |nenhum |nenhuma )?(?:valor|dado|preco|fator|"
        r"numero|informac|limite|teto)[a-z]* (?:oficial|publicad|definid|divulgad)",
        r"impossivel (?:prever|saber|afirmar)",
        r"sem (?:informac|dados) (?:oficial|publicad|suficient|confiave)",
    ),
    "en": (
        r"(?:i )?(?:don't|do not) know",
        r"(?:don't|do not|couldn't|could not|didn't|did not) (?:have|find|locate) "
        r"(?:that |this |the |any |a |an )?(?:reliable |official )?"
        r"(?:information|answer|data|source|figure|value|entry|reference)",
        r"not in (?:my|the|our) knowledge base",
        r"(?:has|have) not (?:yet )?been (?:published|defined|set|released|announced|"
        r"determined|established)",
        r"(?:not|no) (?:yet )?(?:been )?(?:published|defined|set|released|announced|known) yet",
        r"(?:isn't|is not|aren't|are not) (?:yet )?(?:published|defined|set|known|available)",
        r"(?:can't|cannot|can not|impossible to|no way to) (?:know|predict|say|tell|forecast)",
        r"there (?:is|are) no (?:official |published )?(?:value|figure|price|data|number|"
        r"factor|cap|information)",
    ),
}
# What to do next: ask again in other words, or look where the answer will be published.
NEXT_STEP: dict[Lang, tuple[str, ...]] = {
    "pt": (r"reformul", r"pergunt[ae] de outr", r"outras palavras", r"consult", r"acompanh",
           r"verifiqu", r"fonte oficial", r"fontes oficiais", r"detalh", r"especifiqu"),
    "en": (r"rephras", r"reword", r"other words", r"consult", r"check ", r"follow ",
           r"official source", r"keep an eye", r"monitor", r"more detail", r"specify"),
}  # fmt: skip
# No inventory attached: says so, and points to attaching one.
NO_INVENTORY: dict[Lang, tuple[str, ...]] = {
    "pt": (
        r"(?:nenhum|sem) inventario (?:foi )?(?:anexad|carregad|enviad|aberto|selecionad)",
        r"nao (?:ha|tem|existe|encontrei|vejo|recebi|tenho|identifiquei) (?:nenhum |um |o |seu "
        r"|o seu |acesso ao |acesso a um )?inventario",
        r"sem (?:um |o |seu |o seu )?inventario",
        r"inventario (?:nao )?(?:foi )?(?:anexad|carregad)[a-z]* (?:a|nesta|na) conversa",
        r"nao (?:foi|ha) (?:anexad|carregad)",
        r"(?:nao tenho|sem) acesso aos? (?:seus |teus )?(?:dados|numeros)",
    ),
    "en": (
        r"no inventory (?:is |has been |was )?(?:attached|loaded|uploaded|open|selected)",
        r"(?:don't|do not|can't|cannot) (?:see|have|find|access) (?:an |any |your |the )?"
        r"(?:attached )?inventory",
        r"without (?:an |your |the )?inventory",
        r"(?:haven't|have not|hasn't|has not) (?:been )?(?:attached|uploaded|loaded|shared)",
        r"no (?:attached |uploaded )?(?:inventory|data) (?:to|i can)",
        r"(?:don't|do not) have access to your (?:data|figures|numbers)",
    ),
}
ATTACH_OFFER: dict[Lang, tuple[str, ...]] = {
    "pt": (r"anex", r"carreg", r"envi[ae]", r"pagina (?:de )?inventario", r"upload", r"abra "),
    "en": (r"attach", r"upload", r"inventory page", r"load ", r"open "),
}

# --- leaks ---------------------------------------------------------------------------------

# The engine's prompt skeleton and request labels: any of them in an answer is a leak.
_PROMPT_FRAGMENTS = (
    r"next agent",
    r"proximo agente",
    r"^#+ ?(?:persona|escopo|tarefas|ferramentas disponiveis|agentes disponiveis|"
    r"formato da resposta|contexto temporal|exemplos)\s*$",
    r"## exemplo \d",
    r"voce e o [a-z ]{2,40} da aeko",
    r"(?:contexto do negocio|pergunta do usuario|historico da conversa|analises recebidas|"
    r"resumo da conversa anterior|revise esta resposta):",
    r"business_context|agentrequest|guardrail_points|review_draft",
    r"termine (?:a resposta )?com (?:a|uma) (?:ultima )?linha",
    r"essa linha e protocolo interno",
)
_LINK = re.compile(r"https?://|(?<![a-z0-9@])www\.|\]\([^)]*\)")
_IMAGE = re.compile(r"!\[[^\]]*\]\(")
_HTML = re.compile(r"</?[a-z][a-z0-9]*(?:\s[^<>]*)?/?>")


def leaks(text: str) -> list[str]:
    folded = fold(text)
    found = [
        f"leaked prompt text /{pattern[:40]}/"
        for pattern in _PROMPT_FRAGMENTS
        if re.search(pattern, folded, re.MULTILINE)
    ]
    if _IMAGE.search(text):
        found.append("markdown image")
    elif _LINK.search(folded):
        found.append("link")
    if _HTML.search(folded):
        found.append("HTML tag")
    return found


def says(text: str, patterns: Sequence[str]) -> bool:
    folded = fold(text)
    return any(re.search(pattern, folded) for pattern in patterns)


# --- one answer against its spec ---------------------------------------------------------


@dataclass(frozen=True)
class NumberCheck:
    """Some number followed by ``unit`` lies in one of ``ranges`` (any of them)."""

    ranges: tuple[tuple[float, float], ...]
    unit: str
    label: str = ""

    def describe(self) -> str:
        spans = " or ".join(f"[{_short(low)}, {_short(high)}]" for low, high in self.ranges)
        return f"{self.label + ': ' if self.label else ''}{spans} {self.unit}".strip()


def _short(value: float) -> str:
    return f"{value:,.4g}" if abs(value) < 1e4 else f"{value:,.0f}"


@dataclass(frozen=True)
class AnswerSpec:
    lang: Lang
    expect: Expect = "answer"
    facts: tuple[tuple[str, ...], ...] = ()  # each group: any of its phrases
    forbidden: tuple[str, ...] = ()
    numbers: tuple[NumberCheck, ...] = ()
    no_numbers: tuple[str, ...] = ()  # units that must carry no number at all
    attached: bool = False


def check_answer(answer: str, spec: AnswerSpec) -> list[str]:
    """Every reason ``answer`` fails ``spec``; empty when it passes."""
    reasons: list[str] = []
    if not answer.strip():
        return ["empty answer"]
    # Too few telling words (a bare formula) is no evidence against the answer; a reading of
    # the other language, or of both alike, is.
    language = detect_language(answer)
    if language is not None and language != spec.lang:
        reasons.append(f"language: expected {spec.lang}, read {language}")
    reasons += _expectation(answer, spec)
    folded = fold(answer)
    for group in spec.facts:
        if not any(has_phrase(folded, phrase) for phrase in group):
            reasons.append(f"missing fact: one of {list(group)}")
    for phrase in spec.forbidden:
        if has_phrase(folded, phrase):
            reasons.append(f"forbidden phrase: {phrase!r}")
    found = quantities(answer, spec.lang)
    for check in spec.numbers:
        if not any(
            _matches(q, check.unit) and any(low <= q.value <= high for low, high in check.ranges)
            for q in found
        ):
            seen = sorted({_short(q.value) for q in found if _matches(q, check.unit)})[:6]
            reasons.append(f"number: {check.describe()} not found (saw {seen or 'none'})")
    for unit in spec.no_numbers:
        invented = _invented(answer, folded, found, unit, spec.lang)
        if invented:
            reasons.append(f"invented number(s) in {unit}: {invented[:4]}")
    reasons += leaks(answer)
    return reasons


def _expectation(answer: str, spec: AnswerSpec) -> list[str]:
    lang = spec.lang
    if spec.expect == "refusal" and not says(answer, REFUSAL[lang]):
        return ["no polite refusal"]
    if spec.expect == "unknown":
        missing = []
        if not says(answer, UNKNOWN[lang]):
            missing.append("does not say it does not know")
        if not says(answer, NEXT_STEP[lang]):
            missing.append("no suggestion to rephrase or where to look")
        return missing
    if spec.expect == "no_inventory":
        missing = []
        if not says(answer, NO_INVENTORY[lang]):
            missing.append("does not say that no inventory is attached")
        if not says(answer, ATTACH_OFFER[lang]):
            missing.append("does not offer to attach one (Inventory page)")
        return missing
    if spec.attached and says(answer, NO_INVENTORY[lang]):
        return ["says no inventory is attached, but one is"]
    return []


def _invented(answer: str, folded: str, found: list[Quantity], unit: str, lang: Lang) -> list[str]:
    if unit == "R$":
        return [_short(value) for value in _currency(folded, lang)]
    return [_short(q.value) for q in found if q.unit and _matches(q, unit)]
