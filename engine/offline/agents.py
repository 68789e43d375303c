"""What each agent answers offline: computed from the structured request, never canned.

Every answer keeps the protocol a real model must keep: a ``Next agent:`` line naming a
successor the prompt offers, the guardrail's "Aprovado." / "Reprovado:", and the plan's
three headings.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from datetime import UTC, datetime

from engine.actions import build_plan_actions, render
from engine.actions.model import PlanActions
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
from engine.gases.gwp import canonical_gas, gwp
from engine.graph.routing import NO_AGENT
from engine.knowledge.gaps import unpublished
from engine.knowledge.search import search as search_knowledge
from engine.measures.catalogue import alternatives_for
from engine.offline.calculation import answer_calculations, read_calculation, read_calculations
from engine.offline.facts import Facts, Share
from engine.offline.instructions import declined, split_message
from engine.offline.intent import classify
from engine.offline.inventory_words import names_what_it_holds
from engine.offline.language import Language, detect_language
from engine.offline.own_data import (
    OWN_DATA,
    asks_about_attached,
    own_data_reply,
    wants_alternatives,
)
from engine.offline.regulation import is_sbce_question, sbce_amount, sbce_answer
from engine.offline.request import facts_of, inventory_of, language_of
from engine.protocol import PLAN_HEADINGS, fold
from engine.summary import SUMMARY_MAX_CHARS
from engine.texts import Texts

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


def asked(request: AgentRequest) -> AgentRequest:
    """The request with the question alone: a format demand or a request for an image, a
    link, a script or a file attached to it does not change what it asks."""
    question = split_message(request.question).question
    return (
        request if question == request.question else dataclasses.replace(request, question=question)
    )


def router(request: AgentRequest) -> str:
    request = asked(request)
    if request.retry_reasons and request.findings:
        return "Nova tentativa: as análises já existem; falta consolidar." + _marker(ORCHESTRATOR)
    # An SBCE question about the attached inventory is answered per installation from its
    # figures (asks_about_attached is False when the question states its own tonnage).
    if about_the_attached(request):
        return "Intenção: dados do inventário anexado." + _marker(POLLUTANTS_ANALYST)
    if is_sbce_question(request.question):
        return "Intenção: regra do SBCE." + _marker(FAQ)
    if read_calculation(request.question) is not None:
        return "Intenção: cálculo de emissões." + _marker(POLLUTANTS_ANALYST)
    # A value nobody has published yet (a future year's allocation, an AR7 GWP, a price) is
    # the FAQ's "I don't know", whichever agent its words would otherwise reach.
    if unpublished(request.question, request.today) is not None:
        return "Intenção: valor ainda não publicado." + _marker(FAQ)
    if asks_about_own_data(request.question) and facts_of(request) is None:
        return "Intenção: dados do inventário da empresa (nenhum anexado)." + _marker(FAQ)
    intent = classify(request.question)
    labels = {"concept": "pergunta conceitual", "out_of_scope": "fora do escopo de ESG",
              "pollutants": "análise de poluentes", "green": "alternativas de menor carbono",
              "plan": "plano de melhoria"}  # fmt: skip
    return f"Intenção: {labels[intent]}." + _marker(_INTENT_AGENT[intent])


_TEXTS = Texts(
    "engine.offline.agents",
    {
        "refusal": {
            "pt": "Posso ajudar com inventários de gases de efeito estufa, escopos, fatores de "
            "emissão e planos de redução. Essa pergunta está fora desse tema; quer reformular "
            "pensando nas emissões da sua empresa?",
            "en": "I can help with greenhouse-gas inventories, scopes, emission factors and "
            "reduction plans. That question is outside this topic; would you like to rephrase "
            "it around your company's emissions?",
        },
        # A weak match is not an answer: say so, and show how to ask so the base can answer.
        "not_found": {
            "pt": "Não sei responder a isso pela base de conhecimento da Aeko: nenhum verbete "
            "dela trata dessa pergunta, e não vou improvisar uma resposta. Tente reformular "
            'nomeando o termo técnico: um escopo ou categoria ("qual é a categoria 6 do '
            'escopo 3?"), um gás ("o que é CO2 biogênico?"), uma norma ou programa ("o que é '
            'a ISO 14064?") ou um conceito ("o que é ano-base?", "location-based vs '
            'market-based").',
            "en": "I don't know this from Aeko's knowledge base: none of its entries covers the "
            "question, and I will not improvise an answer. Try to rephrase it naming the "
            'technical term: a scope or category ("what is category 6 of scope 3?"), a gas '
            '("what is biogenic CO2?"), a standard or programme ("what is ISO 14064?") or a '
            'concept ("what is a base year?", "location-based vs market-based").',
        },
        # A value no entry can hold (engine.knowledge.gaps): say why, and where it will appear.
        "unpublished.report": {
            "pt": "Não sei: o {detail} do IPCC ainda não foi publicado, então não há valores dele "
            "para citar, e não vou estimá-los. A base de conhecimento da Aeko traz os GWPs do "
            "AR4, do AR5 e do AR6, o relatório mais recente. Acompanhe a publicação do IPCC "
            'ou reformule a pergunta para um relatório publicado ("qual o GWP do metano no '
            'AR6?").',
            "en": "I don't know: the IPCC {detail} has not been published yet, so there are no "
            "values of it to quote, and I will not estimate them. Aeko's knowledge base holds "
            "the AR4, AR5 and AR6 GWPs, AR6 being the latest report. Follow the IPCC's "
            'publications or rephrase the question for a published report ("what GWP does AR6 '
            'give methane?").',
        },
        "unpublished.price": {
            "pt": "Não sei: preços de cotas, créditos e certificados de carbono se formam em "
            "leilões e negociações, e a base de conhecimento da Aeko não registra nem prevê "
            "preços. Consulte as fontes oficiais do mercado em questão (o órgão gestor do "
            "SBCE para as CBEs, a B3 para os CBIOs, a Comissão Europeia para os certificados "
            "do CBAM) ou reformule perguntando pelas regras do instrumento.",
            "en": "I don't know: prices of carbon allowances, credits and certificates are set in "
            "auctions and trading, and Aeko's knowledge base neither records nor forecasts "
            "them. Check the official sources of the market concerned (the SBCE's regulator "
            "for CBEs, B3 for CBIOs, the European Commission for CBAM certificates) or "
            "rephrase the question around the instrument's rules.",
        },
        "unpublished.date": {
            "pt": "Não sei: a data exata pedida ainda não foi definida nem publicada, e a base de "
            "conhecimento da Aeko só traz regras, cronogramas e prazos já divulgados; não vou "
            "supor uma data. Acompanhe a fonte oficial (o órgão gestor do SBCE, o GHG "
            "Protocol, o MCTI) ou reformule perguntando pelo cronograma já publicado.",
            "en": "I don't know: the exact date asked for has not been set or published yet, and "
            "Aeko's knowledge base only holds rules, schedules and deadlines already "
            "released; I will not guess a date. Follow the official source (the SBCE's "
            "regulator, the GHG Protocol, MCTI) or rephrase the question for the schedule "
            "already published.",
        },
        "unpublished.future": {
            "pt": "Não sei: a pergunta pede um valor de {detail}, que ainda não foi publicado, e "
            "a base de conhecimento da Aeko só traz regras e valores oficiais já divulgados; "
            "não vou prever um número. Acompanhe a publicação na fonte oficial (o MCTI para o "
            "fator do SIN, o órgão gestor do SBCE para limites e cotas) ou reformule "
            "perguntando pelo valor mais recente já publicado.",
            "en": "I don't know: the question asks for a value for {detail}, which has not been "
            "published yet, and Aeko's knowledge base only holds official rules and values "
            "already released; I will not forecast a number. Follow the official source (MCTI "
            "for the SIN factor, the SBCE's regulator for caps and allowances) or rephrase "
            "the question for the latest published value.",
        },
        "unpublished.allocation": {
            "pt": "Não sei: quantas cotas (CBE) serão distribuídas, gratuitamente ou em leilão, o "
            "teto de cada período e o percentual máximo de CRVE saem dos Planos Nacionais de "
            "Alocação do SBCE, que o órgão gestor ainda não publicou; não vou estimar esses "
            "números. Acompanhe a regulamentação do órgão gestor do SBCE ou reformule "
            "perguntando pelas regras já fixadas na Lei nº 15.042/2024.",
            "en": "I don't know: how many allowances (CBE) will be granted, free or at auction, "
            "each period's cap and the maximum CRVE share come from the SBCE's National "
            "Allocation Plans, which the regulator has not published yet; I will not estimate "
            "those figures. Follow the SBCE regulator's rulemaking or rephrase the question "
            "around the rules already set in Law 15,042/2024.",
        },
        # "My company's emissions" with nothing to read them from: say so, never borrow an article.
        "no_inventory": {
            "pt": "Não há inventário anexado a esta conversa, então não tenho os números da sua "
            "empresa. Carregue a planilha na página Inventário (ou cole a tabela aqui) e eu "
            "respondo com os dados dela; também posso calcular emissões a partir de consumos, "
            'por exemplo "1.000 L de diesel em 2024".',
            "en": "No inventory is attached to this conversation, so I do not have your company's "
            "figures. Load the spreadsheet on the Inventory page (or paste the table here) "
            "and I will answer from it; I can also compute emissions from consumption, for "
            'example "1,000 L of diesel in 2024".',
        },
        "sbce_each": {
            "pt": "Pela Lei nº 15.042/2024, cada instalação ou fonte é avaliada pelas próprias "
            "emissões diretas anuais (escopo 1), não pelo total da empresa: acima de 10.000 t "
            "CO2e ela apresenta plano de monitoramento e relata emissões e remoções; acima de "
            "25.000 t CO2e também entrega cotas (CBE) ou certificados (CRVE) na conciliação "
            "de obrigações.",
            "en": "Under Law 15,042/2024 each installation or source is judged by its own yearly "
            "direct emissions (Scope 1), not the company's total: above 10,000 t CO2e it "
            "submits a monitoring plan and reports emissions and removals; above 25,000 t "
            "CO2e it also surrenders allowances (CBE) or certificates (CRVE) at the "
            "reconciliation of obligations.",
        },
        "no_readable_table": {
            "pt": "Não encontrei uma tabela de emissões legível no inventário recebido.",
            "en": "I found no readable emissions table in the inventory.",
        },
        "inventory.total": {
            "pt": "Total do inventário: {total} t CO2e (GWP {gwp}).",
            "en": "Inventory total: {total} t CO2e (GWP {gwp}).",
        },
        "inventory.top": {
            "pt": "Maior fonte: {source} ({facility}, {gas}) com {tco2e} t CO2e ({share}).",
            "en": "Largest source: {source} ({facility}, {gas}) with {tco2e} t CO2e ({share}).",
        },
        "inventory.quality": {
            "pt": "Qualidade dos dados: {n} apontamento(s), como: {first}",
            "en": "Data quality: {n} finding(s), such as: {first}",
        },
        "gases_header": {
            "pt": "Gases que mais pesam",
            "en": "Gases that weigh most",
        },
        "main_sources": {
            "pt": "Principais fontes",
            "en": "Main sources",
        },
        "of_total_together": {
            "pt": "do total acumulado",
            "en": "of the total together",
        },
        "gwp_overview": {
            "pt": "Sem inventário carregado nesta conversa, comparo os gases pelo potencial de "
            "aquecimento global (GWP, 100 anos, IPCC): {values}. Quanto maior o GWP, mais "
            "cada tonelada emitida pesa em t CO2e. Para ver quais gases e fontes pesam nas "
            "emissões da sua empresa, carregue a planilha do inventário na página Inventário "
            "(ou cole a tabela aqui).",
            "en": "With no inventory loaded in this conversation, I compare the gases by global "
            "warming potential (GWP, 100 years, IPCC): {values}. The higher the GWP, the more "
            "each tonne emitted weighs in t CO2e. To see which gases and sources weigh in "
            "your company's emissions, load the inventory spreadsheet on the Inventory page "
            "(or paste the table here).",
        },
        "options_title": {
            "pt": "Alternativas de menor carbono",
            "en": "Lower-carbon options",
        },
        "no_option": {
            "pt": "Não há alternativa catalogada para as fontes citadas na base da Aeko; vale "
            "levantar fornecedores e medir antes de definir metas.",
            "en": "Aeko's table has no catalogued option for the sources mentioned; survey "
            "suppliers and measure before setting targets.",
        },
        "plan.total": {
            "pt": "O inventário soma {total} t CO2e (GWP {gwp}).",
            "en": "The inventory adds up to {total} t CO2e (GWP {gwp}).",
        },
        # The inventory analyst's line and the plan's alike.
        "by_scope": {
            "pt": "Por escopo: {scopes}.",
            "en": "By scope: {scopes}.",
        },
        "plan.top": {
            "pt": "As maiores fontes — {sources} — concentram {cum} das emissões.",
            "en": "The largest sources — {sources} — account for {cum} of emissions.",
        },
        "plan.quality": {
            "pt": "Antes de fixar metas, corrija {n} apontamento(s) de qualidade dos dados, como: "
            "{first}",
            "en": "Before fixing targets, correct {n} data-quality finding(s), such as: {first}",
        },
        "plan.measure": {
            "pt": "Medida",
            "en": "Measure",
        },
        "plan.deadline": {
            "pt": "Prazo",
            "en": "Deadline",
        },
        "plan.generic_problem": {
            "pt": "Sem inventário anexado, o plano parte do que a pergunta cita: {subject}.",
            "en": "With no inventory attached, the plan starts from what the question mentions: "
            "{subject}.",
        },
        "plan.generic_reason": {
            "pt": "As faixas vêm das referências de cada alternativa; com o inventário carregado, "
            "o plano passa a citar as t CO2e de cada fonte.",
            "en": "The ranges come from each option's reference; with the inventory loaded, the "
            "plan cites each source's t CO2e.",
        },
        "plan.no_actions": {
            "pt": "Nenhuma medida do catálogo se aplica às fontes deste inventário; levante "
            "opções com fornecedores e meça antes de fixar metas.",
            "en": "No catalogued measure applies to this inventory's sources; survey options with "
            "suppliers and measure before setting targets.",
        },
        "plan.rules": {
            "pt": "As reduções foram calculadas pelas regras do GHG Protocol: troca de "
            "combustível retira o CO2 fóssil da fração substituída (o CO2 biogênico fica à "
            "parte), contratos e certificados de energia mudam só o escopo 2 por escolha de "
            "compra, e gases do Protocolo de Montreal ficam fora.",
            "en": "Reductions follow GHG Protocol rules: a fuel switch removes the fossil CO2 of "
            "the replaced fraction (biogenic CO2 is reported apart), energy contracts and "
            "certificates change market-based Scope 2 only, and Montreal Protocol gases stay "
            "out.",
        },
        "plan.generic_method": {
            "pt": "1. Carregar o inventário e identificar as fontes do Pareto.\n2. Para cada "
            "fonte, escolher a alternativa e medir o resultado.",
            "en": "1. Load the inventory and find the Pareto sources.\n2. For each source, pick "
            "the option and measure the result.",
        },
        "nothing_to_consolidate": {
            "pt": "Ainda não há análises para consolidar; reformule a pergunta citando a fonte ou "
            "o gás de interesse.",
            "en": "There is no analysis to consolidate yet; rephrase the question naming the "
            "source or gas of interest.",
        },
    },
)
# ... asked for as figures: an amount, a total, a share or a ranking. "How is a rooftop solar
# plant counted in our scope 2?" names the user's scope but asks how the accounting works.
_FIGURES = re.compile(
    r"(?<![a-z])(?:quanto|quanta|quantos|quantas|qual foi|quais foram|qual e o total|total|"
    r"soma|somam|represent[a-z]*|maior|maiores|mais (?:pesa|emit)[a-z]*|principais|ranking|"
    r"resum[a-z]*|emitimos|emitiu|emitiram|consumimos|how much|how many|what was|what were|"
    r"what are our|what is our|what s our|add up|sum|largest|biggest|most|main|top|"
    r"summar[a-z]*|break ?down|share|account for|emitted|did [a-z ]*emit)(?![a-z])"
)
# A hypothesis ("se comprarmos I-RECs...", "if we buy...") asks how the rule works, not for
# figures the inventory would hold.
_HYPOTHESIS = re.compile(r"(?<![a-z])(?:se [a-z]+(?:rmos|rem)|caso|if we|if our|suppose)(?![a-z])")
# Asking for options or a plan is answered in general terms even without the figures.
_ADVICE = re.compile(
    r"(?<![a-z])(?:substitu|alternativ|trocar|troca |replace|switch|option|opcao|opcoes|reduz|"
    r"reduc|cortar|cut |mitig|plano|plan |metas?(?![a-z])|target)"
)


# How to account for something is asked in general terms even about "our" forest or "the
# company's" generator: "How should the company account for removals from its forest?".
_METHOD = re.compile(
    r"(?<![a-z])(?:how (?:should|do|does|can|must|is|are|to|would|may)|como (?:devemos|deve|devo|"
    r"se|e|sao|fica|ficam|entra|entram|podemos|posso|pode|[a-z]+ar(?![a-z]))|should|must|can|may|"
    r"deve|devem|devemos|pode|podem|podemos|posso|e permitido|is it allowed)(?![a-z])"
)
_ACCOUNTING = re.compile(
    r"(?<![a-z])(?:contabiliz[a-z]*|report[a-z]*|relat[a-z]*|trat[a-z]*|classific[a-z]*|"
    r"registr[a-z]*|lanc[a-z]*|inclu[a-z]*|consider[a-z]*|enquadr[a-z]*|abat[a-z]*|descont[a-z]*|"
    r"deduz[a-z]*|subtra[a-z]*|compens[a-z]*|account(?:ed|ing)? for|count[a-z]*|treat[a-z]*|"
    r"classif[a-z]*|record[a-z]*|disclos[a-z]*|net(?:ted|ting)?|deduct[a-z]*|offset[a-z]*|"
    r"claim[a-z]*|allocat[a-z]*|aloc[a-z]*)(?![a-z])"
)
_AMOUNT = re.compile(r"(?<![a-z])(?:how much|how many|quanto|quanta|quantos|quantas)(?![a-z])")
# "Which of our plants must report to the SBCE?": the answer is in the plants' figures.
_OWNS = re.compile(
    r"(?<![a-z])(?:temos|operamos|possuimos|we have|we operate|we own|we run)(?![a-z])"
)
_SITES = re.compile(
    r"(?<![a-z])(?:plantas|fabricas|unidades|instalacoes|usinas|filiais|plants|factories|sites|"
    r"facilities|installations|mills|units|(?:qual|quais|which) (?:delas|deles|of them))(?![a-z])"
)


def asks_about_own_data(question: str) -> bool:
    """A question for the user's own figures ("what were our boilers' emissions in 2023?"); how
    the accounting works, a hypothesis, a plan or alternatives are answered in general terms
    even without them."""
    text = " ".join(re.sub(r"[^a-z0-9]+", " ", fold(question)).split()) + " "
    if (
        is_sbce_question(question)
        and sbce_amount(question) is None
        and _SITES.search(text)
        and (OWN_DATA.search(text) or _OWNS.search(text))
    ):
        return True  # which of the user's installations the SBCE covers: their figures decide
    if OWN_DATA.search(text) is None:
        return False
    method = (
        _METHOD.search(text) is not None
        and _ACCOUNTING.search(text) is not None
        and _AMOUNT.search(text) is None
    )
    return (
        not method
        and _FIGURES.search(text) is not None
        and _HYPOTHESIS.search(text) is None
        and _ADVICE.search(text) is None
        and classify(question) != "plan"
    )


def _faq_off_base(request: AgentRequest, lang: Language) -> str | None:
    """The FAQ's answer when it does not come from the knowledge base (off topic, the SBCE
    rule on the user's own amount, own figures with no inventory); None when it does."""
    gap = unpublished(request.question, request.today)
    # An IPCC report, a carbon price or an allowance allocation is the domain by itself; a
    # future year's value is a gap only in a question about it.
    if gap is not None and gap.kind != "future":
        return None  # the search says which value is not published
    if classify(request.question) == "out_of_scope":
        return _TEXTS("refusal", lang)
    if gap is not None:
        return None
    amount = sbce_amount(request.question)
    if amount is not None:  # the rule applied to the user's own number
        return sbce_answer(amount, lang)
    if asks_about_own_data(request.question) and facts_of(request) is None:
        if is_sbce_question(request.question):  # the rule each installation's figure meets
            return f"{_TEXTS('no_inventory', lang)}\n\n{_TEXTS('sbce_each', lang)}"
        return _TEXTS("no_inventory", lang)
    return None


def faq_reads_knowledge_base(request: AgentRequest) -> bool:
    """Whether the FAQ answers from the knowledge base: the offline analyst asks this before
    calling the knowledge tool, so the call it makes and the answer it gives cannot disagree."""
    return _faq_off_base(asked(request), language_of(request)) is None


def about_the_attached(request: AgentRequest) -> bool:
    """A question the attached inventory answers: asked about it (``asks_about_attached``),
    or naming one of its installations or sources ("o HCFC-22 de Patos de Minas")."""
    return request.inventory is not None and (
        asks_about_attached(request.question)
        or names_what_it_holds(request.question, request.inventory)
    )


def answers_from_inventory(request: AgentRequest) -> bool:
    """The pollutants analyst, in chat, on a question about the attached inventory's figures:
    it queries the inventory tool and answers from what it returned."""
    return (
        request.flow == "chat"
        and request.agent == POLLUTANTS_ANALYST
        and request.inventory is not None
        and read_calculation(request.question) is None  # activity data: the calculator's
        and about_the_attached(request)
    )


def faq(request: AgentRequest) -> str:
    lang = language_of(request)
    split = split_message(request.question)
    request = asked(request)
    # What was asked besides the question is declined in one sentence, after the answer.
    refused = declined(split.kinds, lang)
    direct = _faq_off_base(request, lang)
    if direct is not None:
        return _with(direct, refused if direct != _TEXTS("refusal", lang) else "")
    # Searched in the words' own language; answered in the user's (a profile may prefer
    # English for a question written in Portuguese). Entries hold both.
    found = search_knowledge(
        request.question, detect_language(request.question), today=request.today
    )
    if found.gap is not None:
        text = _TEXTS(f"unpublished.{found.gap.kind}", lang, detail=found.gap.detail)
        return _with(text, refused)
    if found.weak:
        return _with(_TEXTS("not_found", lang), refused)
    # Each entry carries its own source line: a combined answer cites both.
    return _with("\n\n".join(entry.text(lang) for entry in found.entries), refused)


def _with(answer: str, refused: str) -> str:
    return (f"{answer}\n\n{refused}" if refused else answer) + _marker(NO_AGENT)


# --- analysts ------------------------------------------------------------------------------


def _shares_text(items: list[Share], lang: Language, limit: int = 5) -> str:
    return "; ".join(
        f"{s.label[lang]}: {number(s.tco2e, lang=lang)} t CO2e ({percent(s.share, lang=lang)})"
        for s in items[:limit]
    )


def inventory_analyst(request: AgentRequest) -> str:
    lang = language_of(request)
    facts = facts_of(request)
    if facts is None:
        text = _TEXTS("no_readable_table", lang)
        return text + _marker(_next(request, POLLUTANTS_ANALYST))
    total = number(facts.total_tco2e, lang=lang)
    lines = [
        _TEXTS("inventory.total", lang, total=total, gwp=facts.gwp_set),
        _TEXTS("by_scope", lang, scopes=_shares_text(facts.by_scope, lang)),
    ]
    if facts.top_sources:
        top = facts.top_sources[0]
        tco2e, share = number(top.tco2e, lang=lang), percent(top.share, lang=lang)
        lines.append(_TEXTS("inventory.top", lang, source=top.source, facility=top.facility,
                            gas=top.gas, tco2e=tco2e, share=share))  # fmt: skip
    if facts.findings:
        lines.append(_TEXTS("inventory.quality", lang, n=len(facts.findings),
                            first=facts.findings[0][lang]))  # fmt: skip
    return "\n".join(lines) + _marker(_next(request, POLLUTANTS_ANALYST))


def pollutants_analyst(request: AgentRequest) -> str:
    lang = language_of(request)
    asks = read_calculations(request.question, request.today) if request.flow == "chat" else []
    if asks:  # computed with the factor library, never recalled
        return answer_calculations(asks, lang) + _marker(_next(request, ORCHESTRATOR))
    if answers_from_inventory(request):  # what the inventory tool returned
        reply = own_data_reply(request.question, request.inventory, lang)
        # Where to cut: the largest rows here, then the reductions the green analyst computes.
        wants_options = reply.levers or wants_alternatives(request.question)
        successor = GREEN_GASES_ANALYST if wants_options else ORCHESTRATOR
        return reply.text + _marker(_next(request, successor, _next(request, ORCHESTRATOR)))
    facts = facts_of(request)
    wants_options = classify(request.question) == "green" or "alternativ" in fold(request.question)
    successor = GREEN_GASES_ANALYST if wants_options else ORCHESTRATOR
    successor = _next(request, successor, _next(request, COORDINATOR, ORCHESTRATOR))
    if facts is None:
        return _gwp_overview(request, lang) + _marker(successor)
    header = _TEXTS("gases_header", lang)
    sources = _TEXTS("main_sources", lang)
    lines = [f"{header} (GWP {facts.gwp_set}): {_shares_text(facts.by_gas, lang)}."]
    if facts.top_sources:
        top = facts.top_sources[:3]
        listed = "; ".join(
            f"{s.source[lang]} – {s.gas[lang]}: {number(s.tco2e, lang=lang)} t CO2e "
            f"({percent(s.share, lang=lang)})"
            for s in top
        )
        together = _TEXTS("of_total_together", lang)
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
    # No inventory means no figures of the user's: the comparison is general, and the way to
    # get their own is said every time.
    return _TEXTS("gwp_overview", lang, values=values)


def _num(value: float | None, lang: Language) -> str:
    return "—" if value is None else number(value, 0 if float(value).is_integer() else 1, lang)


def green_gases_analyst(request: AgentRequest) -> str:
    lang = language_of(request)
    successor = _next(request, ORCHESTRATOR, _next(request, COORDINATOR))
    actions = _computed_actions(request)
    if actions is not None:  # reductions under GHG Protocol rules, as the tool computed them
        if not actions.actions:
            return _TEXTS("no_option", lang) + _marker(successor)
        text = f"{render.summary_text(actions, lang)}\n\n{render.actions_table(actions, lang)}"
        return text + _marker(successor)
    lines = [f"- {option.source[lang]} → {option.describe(lang)}"
             for option in alternatives_for(request.question)[:4]]  # fmt: skip
    if not lines:
        return _TEXTS("no_option", lang) + _marker(successor)
    title = _TEXTS("options_title", lang)
    return f"{title}:\n" + "\n".join(lines) + _marker(successor)


# --- coordinator ---------------------------------------------------------------------------


def coordinator(request: AgentRequest) -> str:
    lang = language_of(request)
    actions = _computed_actions(request)
    if actions is not None:  # the engine computed the reductions: the plan quotes them
        return _computed_plan(actions, facts_of(request), lang) + _marker(NO_AGENT)
    year = datetime.now(UTC).year + 2
    return _generic_plan(request, lang, year) + _marker(NO_AGENT)


def _computed_actions(request: AgentRequest) -> PlanActions | None:
    """The actions the engine computed for the run, or for the inventory the agent was
    given (attached, or pasted as a table); None when there is no inventory to act on."""
    if request.actions is not None:
        return request.actions
    inventory = inventory_of(request)
    return build_plan_actions(inventory) if inventory is not None else None


def _computed_plan(actions: PlanActions, facts: Facts | None, lang: Language) -> str:
    """The plan around the engine's action table: the inventory's figures state the problem,
    the table is the method, and the totals, the target path and SBCE readiness are the
    reasoning. Every number is one of those texts', so the plan's check passes it."""
    problem = []
    if facts is not None:
        total = number(facts.total_tco2e, lang=lang)
        scopes = _shares_text(facts.by_scope, lang)
        problem += [_TEXTS("plan.total", lang, total=total, gwp=facts.gwp_set),
                    _TEXTS("by_scope", lang, scopes=scopes)]  # fmt: skip
        chosen = facts.top_sources[:3]
        if chosen:
            listed = ", ".join(f"{s.source[lang]} ({s.gas[lang]}, "
                               f"{number(s.tco2e, lang=lang)} t CO2e, "
                               f"{percent(s.share, lang=lang)})" for s in chosen)  # fmt: skip
            cum = percent(chosen[-1].cumulative, lang=lang)
            problem.append(_TEXTS("plan.top", lang, sources=listed, cum=cum))
        if facts.findings:
            first = facts.findings[0][lang]
            problem.append(_TEXTS("plan.quality", lang, n=len(facts.findings), first=first))
    method = (
        render.actions_table(actions, lang) if actions.actions else _TEXTS("plan.no_actions", lang)
    )
    reasoning = [render.summary_text(actions, lang), _TEXTS("plan.rules", lang)]
    if actions.target is not None:
        reasoning.append(render.path_text(actions, lang))
    if actions.installations:
        reasoning.append(render.sbce_text(actions.installations, lang))
    return _plan_text(
        " ".join(problem) or render.summary_text(actions, lang),
        method,
        "\n\n".join(part for part in reasoning if part),
    )


def _generic_plan(request: AgentRequest, lang: Language, year: int) -> str:
    options = alternatives_for(request.question)[:3]
    subject = ", ".join(dict.fromkeys(o.source[lang] for o in options)) or request.question
    method = []
    for index, option in enumerate(options, start=1):
        method += [f"### {index}. {option.source[lang]}",
                   f"- {_TEXTS('plan.measure', lang)}: {option.describe(lang)}",
                   f"- {_TEXTS('plan.deadline', lang)}: {year}"]  # fmt: skip
    if not method:
        method = [_TEXTS("plan.generic_method", lang)]
    problem = _TEXTS("plan.generic_problem", lang, subject=subject)
    return _plan_text(problem, "\n".join(method), _TEXTS("plan.generic_reason", lang))


def _plan_text(problem: str, method: str, reasoning: str) -> str:
    bodies = {"defined_problem": problem, "method": method, "reasoning": reasoning}
    return "\n\n".join(f"## {title}\n{bodies[field]}" for field, title in PLAN_HEADINGS.items())


# --- orchestrator and guardrail -----------------------------------------------------------


def orchestrator(request: AgentRequest) -> str:
    lang = language_of(request)
    findings = [text for agent, text in request.findings.items() if agent != ORCHESTRATOR]
    if not findings:
        text = _TEXTS("nothing_to_consolidate", lang)
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
