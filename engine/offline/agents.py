"""What each agent answers offline: computed from the structured request, never canned.

Every answer keeps the protocol a real model must keep: a ``Next agent:`` line naming a
successor the prompt offers, the guardrail's "Aprovado." / "Reprovado:", and the plan's
three headings.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime

from engine.agents.catalog import (
    COORDINATOR,
    FAQ,
    GREEN_GASES_ANALYST,
    GUARDRAIL,
    INVENTORY_ANALYST,
    ORCHESTRATOR,
    POLLUTANTS_ANALYST,
    ROUTER,
)
from engine.agents.request import AgentRequest, SummaryRequest
from engine.formatting import number, percent
from engine.graph.routing import NO_AGENT
from engine.inventory.gwp import canonical_gas, gwp
from engine.offline import knowledge
from engine.offline.alternatives import Alternative, alternatives_for
from engine.offline.calculation import answer_calculation, read_calculation
from engine.offline.facts import Source
from engine.offline.intent import classify
from engine.offline.language import Language
from engine.offline.regulation import is_sbce_question, sbce_amount, sbce_answer
from engine.offline.request import facts_of, language_of
from engine.protocol import PLAN_HEADINGS, fold
from engine.summary import SUMMARY_MAX_CHARS

_INTENT_AGENT = {
    "concept": FAQ,
    "out_of_scope": FAQ,
    "pollutants": POLLUTANTS_ANALYST,
    "green": GREEN_GASES_ANALYST,
    "plan": COORDINATOR,
}
_DEFAULT_GASES = ("CO2", "CH4", "N2O", "HFC134a", "SF6")
_LEAKS = re.compile(r"next\s*agent|!\[|https?://|www\.|<[a-z/][^>]*>", re.IGNORECASE)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def _marker(name: str) -> str:
    return f"\nNext agent: {name}"


def _next(request: AgentRequest, preferred: str, fallback: str = NO_AGENT) -> str:
    offered = request.successors
    if preferred in offered:
        return preferred
    return fallback if fallback in offered or fallback == NO_AGENT else offered[0]


# --- router and FAQ ------------------------------------------------------------------------


def router(request: AgentRequest) -> str:
    if request.retry_reasons and request.findings:
        return "Nova tentativa: as análises já existem; falta consolidar." + _marker(ORCHESTRATOR)
    if is_sbce_question(request.question):
        return "Intenção: regra do SBCE." + _marker(FAQ)
    if read_calculation(request.question) is not None:
        return "Intenção: cálculo de emissões." + _marker(POLLUTANTS_ANALYST)
    if asks_about_own_data(request.question) and facts_of(request) is None:
        return "Intenção: dados do inventário da empresa (nenhum anexado)." + _marker(FAQ)
    intent = classify(request.question)
    labels = {"concept": "pergunta conceitual", "out_of_scope": "fora do escopo de ESG",
              "pollutants": "análise de poluentes", "green": "alternativas de menor carbono",
              "plan": "plano de melhoria"}  # fmt: skip
    return f"Intenção: {labels[intent]}." + _marker(_INTENT_AGENT[intent])


_REFUSAL = {
    "pt": "Posso ajudar com inventários de gases de efeito estufa, escopos, fatores de emissão "
    "e planos de redução. Essa pergunta está fora desse tema; quer reformular pensando nas "
    "emissões da sua empresa?",
    "en": "I can help with greenhouse-gas inventories, scopes, emission factors and reduction "
    "plans. That question is outside this topic; would you like to rephrase it around your "
    "company's emissions?",
}
_NOT_FOUND = {
    "pt": "Não encontrei esse conceito na base de conhecimento da Aeko. Tente com outras "
    "palavras, por exemplo: escopo 2, GWP, ano-base, CO2 biogênico.",
    "en": "I did not find that concept in Aeko's knowledge base. Try other words, for example: "
    "scope 2, GWP, base year, biogenic CO2.",
}
_SOURCE = {"pt": "Fonte", "en": "Source"}
# "My company's emissions" with nothing to read them from: say so, never borrow an article.
_NO_INVENTORY = {
    "pt": "Não há inventário anexado a esta conversa, então não tenho os números da sua "
    "empresa. Carregue a planilha na página Inventário (ou cole a tabela aqui) e eu respondo "
    "com os dados dela; também posso calcular emissões a partir de consumos, por exemplo "
    '"1.000 L de diesel em 2024".',
    "en": "No inventory is attached to this conversation, so I do not have your company's "
    "figures. Load the spreadsheet on the Inventory page (or paste the table here) and I "
    "will answer from it; I can also compute emissions from consumption, for example "
    '"1,000 L of diesel in 2024".',
}
_OWN_DATA = ("minha empresa", "nossa empresa", "nossas emissoes", "minhas emissoes",
             "nosso inventario", "meu inventario", "my company", "our company",
             "our emissions", "my emissions", "our inventory", "my inventory")  # fmt: skip


def asks_about_own_data(question: str) -> bool:
    """A question about the user's own figures ("my company's scope 1 last year"); a request
    for a plan or for alternatives is answered in general terms even without them."""
    text = fold(question).replace("'s", "")
    asks = any(cue in text for cue in _OWN_DATA)
    return asks and classify(question) in ("concept", "pollutants")


def faq(request: AgentRequest) -> str:
    lang = language_of(request)
    if classify(request.question) == "out_of_scope":
        return _REFUSAL[lang] + _marker(NO_AGENT)
    amount = sbce_amount(request.question)
    if amount is not None:  # the rule applied to the user's own number
        return sbce_answer(amount, lang) + _marker(NO_AGENT)
    if asks_about_own_data(request.question) and facts_of(request) is None:
        return _NO_INVENTORY[lang] + _marker(NO_AGENT)
    found = knowledge.search(request.question, lang)
    if found is None:
        return _NOT_FOUND[lang] + _marker(NO_AGENT)
    entry, _ = found
    return (
        f"**{entry.title[lang]}**\n\n{entry.answer[lang]}\n\n"
        f"{_SOURCE[lang]}: {entry.source} [{entry.id}]" + _marker(NO_AGENT)
    )


# --- analysts ------------------------------------------------------------------------------


def _shares_text(items, lang: Language, limit: int = 5) -> str:
    def label(text: str) -> str:
        return text.replace("Escopo ", "Scope ") if lang == "en" else text

    return "; ".join(
        f"{label(s.label)}: {number(s.tco2e, lang=lang)} t CO2e ({percent(s.share, lang=lang)})"
        for s in items[:limit]
    )


def inventory_analyst(request: AgentRequest) -> str:
    lang = language_of(request)
    facts = facts_of(request)
    if facts is None:
        text = {"pt": "Não encontrei uma tabela de emissões legível no inventário recebido.",
                "en": "I found no readable emissions table in the inventory."}[lang]  # fmt: skip
        return text + _marker(_next(request, POLLUTANTS_ANALYST))
    lines = [
        f"Total do inventário: {facts.total_text} t CO2e (GWP {facts.gwp_set}).",
        f"Por escopo: {_shares_text(facts.by_scope, lang)}.",
    ]
    if facts.top_sources:
        top = facts.top_sources[0]
        lines.append(f"Maior fonte: {top.source} ({top.facility}, {top.gas}) com "
                     f"{number(top.tco2e)} t CO2e ({percent(top.share)}).")  # fmt: skip
    if facts.findings:
        lines.append(f"Qualidade dos dados: {len(facts.findings)} apontamento(s), como: "
                     f"{facts.findings[0]}")  # fmt: skip
    return "\n".join(lines) + _marker(_next(request, POLLUTANTS_ANALYST))


def pollutants_analyst(request: AgentRequest) -> str:
    lang = language_of(request)
    ask = read_calculation(request.question) if request.flow == "chat" else None
    if ask is not None:  # computed with the factor library, never recalled
        return answer_calculation(ask, lang) + _marker(_next(request, ORCHESTRATOR))
    facts = facts_of(request)
    wants_options = classify(request.question) == "green" or "alternativ" in fold(request.question)
    successor = GREEN_GASES_ANALYST if wants_options else ORCHESTRATOR
    successor = _next(request, successor, _next(request, COORDINATOR, ORCHESTRATOR))
    if facts is None:
        return _gwp_overview(request, lang) + _marker(successor)
    header = {"pt": "Gases que mais pesam", "en": "Gases that weigh most"}[lang]
    sources = {"pt": "Principais fontes", "en": "Main sources"}[lang]
    lines = [f"{header} (GWP {facts.gwp_set}): {_shares_text(facts.by_gas, lang)}."]
    if facts.top_sources:
        top = facts.top_sources[:3]
        listed = "; ".join(
            f"{s.source} – {s.gas}: {number(s.tco2e, lang=lang)} t CO2e "
            f"({percent(s.share, lang=lang)})"
            for s in top
        )
        together = {"pt": "do total acumulado", "en": "of the total together"}[lang]
        cum = percent(top[-1].cumulative, lang=lang)
        lines.append(f"{sources}: {listed}; {cum} {together}.")
    lines.append(f"Total: {number(facts.total_tco2e, lang=lang)} t CO2e.")
    return "\n".join(lines) + _marker(successor)


def _gwp_overview(request: AgentRequest, lang: Language) -> str:
    named = [g for word in re.findall(r"[\w\-₂]+", request.question) if (g := canonical_gas(word))]
    gases = list(dict.fromkeys(named)) or list(_DEFAULT_GASES)
    values = "; ".join(f"{gas}: AR5 {_num(gwp(gas, 'AR5'), lang)}, "
                       f"AR6 {_num(gwp(gas, 'AR6'), lang)}"
                       for gas in gases if gwp(gas, "AR5") is not None)  # fmt: skip
    if lang == "pt":
        return ("Sem inventário carregado nesta conversa, comparo os gases pelo potencial de "
                f"aquecimento global (GWP, 100 anos, IPCC): {values}. Quanto maior o GWP, mais "
                "cada tonelada emitida pesa em t CO2e.")  # fmt: skip
    return ("With no inventory loaded in this conversation, I compare the gases by global "
            f"warming potential (GWP, 100 years, IPCC): {values}. The higher the GWP, the more "
            "each tonne emitted weighs in t CO2e.")  # fmt: skip


def _num(value: float | None, lang: Language) -> str:
    return "—" if value is None else number(value, 0 if float(value).is_integer() else 1, lang)


def _options_for(source: Source) -> list[Alternative]:
    return alternatives_for(f"{source.source} {source.fuel} {source.gas}")


def green_gases_analyst(request: AgentRequest) -> str:
    lang = language_of(request)
    facts = facts_of(request)
    successor = _next(request, ORCHESTRATOR, _next(request, COORDINATOR))
    lines = []
    if facts is not None:
        for source in facts.top_sources[:4]:
            for option in _options_for(source)[:2]:
                low = source.tco2e * option.reduction_min_pct / 100
                high = source.tco2e * option.reduction_max_pct / 100
                cut = {"pt": "redução estimada", "en": "estimated cut"}[lang]
                lines.append(
                    f"- {source.source} ({source.gas}, {number(source.tco2e, lang=lang)} t CO2e) "
                    f"→ {option.describe(lang)}; {cut}: {number(low, lang=lang)} – "
                    f"{number(high, lang=lang)} t CO2e/ano."
                )
    else:
        for option in alternatives_for(request.question)[:4]:
            lines.append(f"- {option.source[lang]} → {option.describe(lang)}")
    if not lines:
        none = {"pt": "Não há alternativa catalogada para as fontes citadas na base da Aeko; "
                      "vale levantar fornecedores e medir antes de definir metas.",
                "en": "Aeko's table has no catalogued option for the sources mentioned; survey "
                      "suppliers and measure before setting targets."}  # fmt: skip
        return none[lang] + _marker(successor)
    title = {"pt": "Alternativas de menor carbono", "en": "Lower-carbon options"}[lang]
    return f"{title}:\n" + "\n".join(lines) + _marker(successor)


# --- coordinator ---------------------------------------------------------------------------

_PLAN = {
    "pt": {"total": "O inventário soma {total} t CO2e (GWP {gwp}).",
           "scopes": "Por escopo: {scopes}.",
           "top": "As maiores fontes — {sources} — concentram {cum} das emissões.",
           "quality": "Antes de fixar metas, corrija {n} apontamento(s) de qualidade dos dados, "
                      "como: {first}",
           "measure": "Medida", "cut": "Redução esperada", "deadline": "Prazo",
           "indicator": "Indicador", "indicator_text": "t CO2e da fonte no inventário anual",
           "none": "sem alternativa catalogada; levantar opções e medir",
           "sum": "Somadas, as medidas reduzem de {low} a {high} t CO2e/ano, {plow} a {phigh} "
                  "do total de {total} t CO2e.",
           "pareto": "A priorização segue o Pareto: as fontes escolhidas respondem por {share} "
                     "das emissões, e cada faixa vem da referência citada para a alternativa.",
           "generic_problem": "Sem inventário anexado, o plano parte do que a pergunta cita: "
                              "{subject}.",
           "generic_reason": "As faixas vêm das referências de cada alternativa; com o "
                             "inventário carregado, o plano passa a citar as t CO2e de cada "
                             "fonte."},
    "en": {"total": "The inventory adds up to {total} t CO2e (GWP {gwp}).",
           "scopes": "By scope: {scopes}.",
           "top": "The largest sources — {sources} — account for {cum} of emissions.",
           "quality": "Before fixing targets, correct {n} data-quality finding(s), such as: "
                      "{first}",
           "measure": "Measure", "cut": "Expected reduction", "deadline": "Deadline",
           "indicator": "Indicator", "indicator_text": "the source's t CO2e in the yearly "
                                                       "inventory",
           "none": "no catalogued option; survey options and measure",
           "sum": "Together the measures cut {low} to {high} t CO2e per year, {plow} to {phigh} "
                  "of the {total} t CO2e total.",
           "pareto": "Priorities follow the Pareto: the chosen sources account for {share} of "
                     "emissions, and each range comes from the reference cited for the option.",
           "generic_problem": "With no inventory attached, the plan starts from what the "
                              "question mentions: {subject}.",
           "generic_reason": "The ranges come from each option's reference; with the inventory "
                             "loaded, the plan cites each source's t CO2e."},
}  # fmt: skip


def coordinator(request: AgentRequest) -> str:
    lang = language_of(request)
    facts = facts_of(request)
    year = datetime.now(UTC).year + 2
    words = _PLAN[lang]
    if facts is None:
        return _generic_plan(request, lang, year) + _marker(NO_AGENT)
    chosen = facts.top_sources[:3]
    total = number(facts.total_tco2e, lang=lang)
    problem = [words["total"].format(total=total, gwp=facts.gwp_set),
               words["scopes"].format(scopes=_shares_text(facts.by_scope, lang))]  # fmt: skip
    if chosen:
        listed = ", ".join(f"{s.source} ({s.gas}, {number(s.tco2e, lang=lang)} t CO2e, "
                           f"{percent(s.share, lang=lang)})" for s in chosen)  # fmt: skip
        cum = percent(chosen[-1].cumulative, lang=lang)
        problem.append(words["top"].format(sources=listed, cum=cum))
    method, low_sum, high_sum = [], 0.0, 0.0
    if facts.findings:
        method.append(words["quality"].format(n=len(facts.findings), first=facts.findings[0]))
    for index, source in enumerate(chosen, start=1):
        options = _options_for(source)
        tco2e = number(source.tco2e, lang=lang)
        method.append(f"### {index}. {source.source} ({source.gas}, {tco2e} t CO2e)")
        if options:
            best = options[0]
            low = source.tco2e * best.reduction_min_pct / 100
            high = source.tco2e * best.reduction_max_pct / 100
            low_sum, high_sum = low_sum + low, high_sum + high
            method += [f"- {words['measure']}: {best.alternative[lang]}",
                       f"- {words['cut']}: {best.reduction_min_pct}–{best.reduction_max_pct}% = "
                       f"{number(low)} a {number(high)} t CO2e/ano" if lang == "pt" else
                       f"- {words['cut']}: {best.reduction_min_pct}–{best.reduction_max_pct}% = "
                       f"{number(low, lang=lang)} to {number(high, lang=lang)} t CO2e/year",
                       f"- {words['deadline']}: {year}",
                       f"- {words['indicator']}: {words['indicator_text']}"]  # fmt: skip
        else:
            method.append(f"- {words['measure']}: {words['none']}")
    reasoning = []
    if facts.total_tco2e and high_sum:
        reasoning.append(words["sum"].format(
            low=number(low_sum, lang=lang), high=number(high_sum, lang=lang),
            plow=percent(low_sum / facts.total_tco2e, lang=lang),
            phigh=percent(high_sum / facts.total_tco2e, lang=lang), total=total))  # fmt: skip
    share = sum(s.share for s in chosen)
    reasoning.append(words["pareto"].format(share=percent(share, lang=lang)))
    return _plan_text(" ".join(problem), "\n".join(method), " ".join(reasoning)) + _marker(NO_AGENT)


def _generic_plan(request: AgentRequest, lang: Language, year: int) -> str:
    words = _PLAN[lang]
    options = alternatives_for(request.question)[:3]
    subject = ", ".join(dict.fromkeys(o.source[lang] for o in options)) or request.question
    method = []
    for index, option in enumerate(options, start=1):
        method += [f"### {index}. {option.source[lang]}",
                   f"- {words['measure']}: {option.describe(lang)}",
                   f"- {words['deadline']}: {year}"]  # fmt: skip
    if not method:
        method = [
            {
                "pt": "1. Carregar o inventário e identificar as fontes do Pareto.\n"
                "2. Para cada fonte, escolher a alternativa e medir o resultado.",
                "en": "1. Load the inventory and find the Pareto sources.\n"
                "2. For each source, pick the option and measure the result.",
            }[lang]
        ]
    return _plan_text(words["generic_problem"].format(subject=subject), "\n".join(method),
                      words["generic_reason"])  # fmt: skip


def _plan_text(problem: str, method: str, reasoning: str) -> str:
    bodies = {"defined_problem": problem, "method": method, "reasoning": reasoning}
    return "\n\n".join(f"## {title}\n{bodies[field]}" for field, title in PLAN_HEADINGS.items())


# --- orchestrator and guardrail -----------------------------------------------------------


def orchestrator(request: AgentRequest) -> str:
    lang = language_of(request)
    findings = [text for agent, text in request.findings.items() if agent != ORCHESTRATOR]
    if not findings:
        text = {"pt": "Ainda não há análises para consolidar; reformule a pergunta citando a "
                      "fonte ou o gás de interesse.",
                "en": "There is no analysis to consolidate yet; rephrase the question naming "
                      "the source or gas of interest."}[lang]  # fmt: skip
        return text + _marker(GUARDRAIL)
    body = "\n\n".join(_LEAKS.sub("", text).strip() for text in findings)
    return body + _marker(GUARDRAIL)


def guardrail(request: AgentRequest) -> str:
    draft, reasons = request.draft, []
    if not draft:
        reasons.append("- A resposta está vazia.")
    if _LEAKS.search(draft):
        reasons.append("- Remova marcadores internos, links externos, imagens ou HTML.")
    internal = (ROUTER, FAQ, INVENTORY_ANALYST, POLLUTANTS_ANALYST, GREEN_GASES_ANALYST,
                COORDINATOR, ORCHESTRATOR)  # fmt: skip
    agents = [name for name in internal if name in draft]
    if agents:
        reasons.append(f"- Não cite agentes internos ({', '.join(agents)}).")
    grounded = "\n".join([request.question, *request.findings.values()])
    loose = [n for n in _NUMBER.findall(draft) if len(n) > 1 and n not in grounded]
    if loose:
        reasons.append(f"- Números sem respaldo nas análises: {', '.join(loose[:5])}.")
    if reasons:
        return "Reprovado:\n" + "\n".join(reasons)
    return "Aprovado. A resposta atende à pergunta e bate com as análises."


# --- conversation summary ----------------------------------------------------------------

_FACT = re.compile(r"\d|%|t co2e|meta|target|prazo|deadline|escopo|scope|prefer", re.IGNORECASE)


def summarizer(request: SummaryRequest) -> str:
    """Extractive: the previous summary, plus one line per new turn; lines holding facts
    (numbers, targets, scopes, preferences) are the last to go when space runs out."""
    lines = [line for line in request.previous.splitlines() if line.startswith("- ")]
    for turn in request.turns:
        line = f"- P: {_first_line(turn.input)[:160]}"
        if turn.output:
            first = re.split(r"(?<=[.!?])\s", _first_line(turn.output), maxsplit=1)[0]
            line += f" | R: {first[:200]}"
        lines.append(line)
    while len("\n".join(lines)) > SUMMARY_MAX_CHARS and len(lines) > 1:
        plain = next((i for i, line in enumerate(lines) if not _FACT.search(line)), 0)
        lines.pop(plain)
    return "\n".join(lines)


def _first_line(text: str) -> str:
    # A turn's first line: enough to recall it, and a multi-line answer stays one fact line.
    return next((line.strip() for line in text.splitlines() if line.strip()), "")


# The summarizer is not here: it takes its own request (``summarizer`` above).
RESPONDERS: dict[str, Callable[[AgentRequest], str]] = {
    ROUTER: router,
    FAQ: faq,
    INVENTORY_ANALYST: inventory_analyst,
    POLLUTANTS_ANALYST: pollutants_analyst,
    GREEN_GASES_ANALYST: green_gases_analyst,
    COORDINATOR: coordinator,
    ORCHESTRATOR: orchestrator,
    GUARDRAIL: guardrail,
}
