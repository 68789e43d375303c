"""Questions about the user's own figures, answered from the inventory attached to the chat.

Whether a question is about the attached inventory is read here; what the analyst calls and
answers is ``engine.offline.inventory_reply``: ``consultar_inventario`` (and ``calcular``)
with the question's filters, so the trail shows each figure and the sources list it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from engine.offline.inventory_reply import Reply, inventory_reply
from engine.offline.language import Language
from engine.offline.regulation import is_sbce_question, sbce_amount
from engine.protocol import fold

if TYPE_CHECKING:
    from engine.inventory import Inventory


def own_data_answer(question: str, inventory: Inventory, lang: Language) -> str:
    """The answer from the tool results the question needs; an inventory that is not
    reconciled is said to be so, naming its sheets, before any figure."""
    return inventory_reply(question, inventory, lang).text


def own_data_reply(question: str, inventory: Inventory, lang: Language) -> Reply:
    return inventory_reply(question, inventory, lang)


# Whose figures: the user's own, in the first person, or "the company's". One list for the
# chat with an inventory attached (a lookup in it) and without (an honest "load it first").
OWN_DATA = re.compile(
    r"(?<![a-z])(?:nosso|nossa|nossos|nossas|meu|minha|meus|minhas|our|my|we|us|emitimos|"
    r"consumimos|da empresa|the company|inventario anexado|attached inventory|este inventario|"
    r"this inventory)(?![a-z])"
)
# The attached file itself: a demonstrative and the inventory, or "the spreadsheet".
_THIS = re.compile(
    r"(?<![a-z])(?:(?:este|esta|neste|nesta|deste|desta|desse|dessa|nesse|nessa|esse|essa|"
    r"this|that|these)\s+(?:inventario|planilha|arquivo|anexo|workbook|spreadsheet|file|"
    r"inventory|upload|excel|documento|document|tabela|table|dados|data)|(?:o|a|no|na|do|da|"
    r"the|in the|of the)\s+(?:planilha|arquivo|anexo|workbook|spreadsheet|file|upload|excel)|"
    r"anexad[oa]s?|attached|carregad[oa]|uploaded|enviad[oa])(?![a-z])"
)
# What an inventory holds, asked for as figures...
_CONTENTS = re.compile(
    r"(?<![a-z])(?:unidades?|plantas?|fabricas?|filia(?:l|is)|instalac(?:ao|oes)|sites?|"
    r"plants?|facilit(?:y|ies)|installations?|abas?|sheets?|tabs?|escopos?|scopes?|gases|"
    r"gas|metano|methane|refrigerantes?|refrigerants?|fontes?|sources?|categorias?|"
    r"categor(?:y|ies)|linhas?|rows?|celulas?|cells?|erros?|errors?|apontamentos?|findings?|"
    r"conciliac(?:ao|oes)|reconciliation|reconciled|verificac(?:ao|oes)|verification|"
    r"qualidade dos dados|data quality|emissoes|emissions|caldeiras?|boilers?|fornos?|"
    r"kilns?|frota|fleet|efluentes?|effluents?|wastewater|alavancas?|levers?)(?![a-z])"
)
_FIGURE_ASKS = re.compile(
    r"(?<![a-z])(?:quanto|quanta|quantos|quantas|liste|listar|mostre|mostrar|resuma|"
    r"compare|total|soma|somam|maior|maiores|principais|ranking|how much|how many|list|show|"
    r"summari[sz]e|sum|largest|biggest|top|share|percent|percentual|porcentagem|"
    r"break ?down|onde|where|entram|sujeit|subject to|fall under|cover(?:ed|s)?|"
    # a breakdown asked for: "como se divide por gás", "split by scope", "per plant"
    r"divid[a-z]*|distribu[a-z]*|repart[a-z]*|composicao|split[s]?|composition|"
    r"(?:por|by|per) (?:gas|gases|escopo|scope|unidade|planta|plant|fabrica|site|instalacao|"
    r"facility|fonte|source|categoria|category|aba|sheet))(?![a-z])"
)
# ...or as a list of what it holds: "quais abas...", "which plants...".
_WHICH = re.compile(
    r"(?<![a-z])(?:qual|quais|which|what)\s+(?:(?:das?|dos?|of the|of our)\s+)?(?:unidades|"
    r"plantas|fabricas|filiais|instalacoes|sites|plants|facilities|installations|abas|sheets|"
    r"tabs|gases|fontes|sources|categorias|categories|linhas|rows|celulas|cells|erros|errors|"
    r"apontamentos|findings|alavancas|levers|caldeiras|boilers|fornos|kilns)(?![a-z])"
)
# A definition ("o que é o escopo 3?") is the knowledge base's, inventory or not.
_CONCEPT = re.compile(
    r"^(?:o que (?:e|sao|significa)|what (?:is|are|does) (?:a |an )?(?!our|my|the (?:total|"
    r"largest|biggest|share))|defina|define|explique|explain|como funciona|how does|"
    r"qual a diferenca|what is the difference|para que serve)"
)
# A plan or targets are the coordinator's; alternatives to a fuel the green analyst's.
_PLAN = re.compile(
    r"(?<![a-z])(?:plano|plan|plans|metas?|targets?|roadmap|substitu[a-z]*|alternativ[a-z]*|"
    r"replace|switch|troca[rs]?)(?![a-z])"
)


_ALTERNATIVES = re.compile(
    r"(?<![a-z])(?:substitu[a-z]*|alternativ[a-z]*|replace[a-z]*|switch[a-z]*|troca[a-z]*)(?![a-z])"
)


def wants_alternatives(question: str) -> bool:
    """Whether the question asks what to use instead: the green-gases analyst answers that."""
    return _ALTERNATIVES.search(fold(question)) is not None


def asks_about_attached(question: str) -> bool:
    """A question the attached inventory answers: about "our" figures, "this spreadsheet", or
    what an inventory holds (its plants, sheets, scopes, gases, sources, errors, where to cut,
    the SBCE for its installations); a definition, a plan or the alternatives to a fuel go to
    the agents that give them. A question with its own SBCE tonnage is the rule's."""
    text = " ".join(re.sub(r"[^a-z0-9.#$]+", " ", fold(question)).split())
    if is_sbce_question(question) and sbce_amount(question):
        return False
    referred = OWN_DATA.search(text) is not None or _THIS.search(text) is not None
    if _PLAN.search(text):
        # A figure of the attached file asked together with its substitutes: the figure
        # first, the alternatives after it; a plan alone is the coordinator's.
        return referred and wants_alternatives(question) and _FIGURE_ASKS.search(text) is not None
    if _CONCEPT.search(text) and not referred:
        return False
    if referred:
        return True
    return _WHICH.search(text) is not None or (
        _CONTENTS.search(text) is not None and _FIGURE_ASKS.search(text) is not None
    )
