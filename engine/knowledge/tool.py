"""``consultar_base_conhecimento``: an agent's way into Aeko's knowledge base.

It answers with the entries' own text and sources, and hands the entries beside that text
as ``AekoSource`` artifacts (``response_format="content_and_artifact"``): the sources an
answer shows are the entries the run actually read, never what a model says it read. The
artifact reaches the engine only when the tool is invoked with a whole ToolCall, which
returns a ToolMessage carrying it. The run's date travels in the run's config
(``configurable["today"]``): whether a year asked about is still to come is judged on it.
"""

from __future__ import annotations

from typing import Literal

from langchain_core.runnables import RunnableConfig
from langchain_core.tools import tool

from engine.dto import AekoSource
from engine.knowledge.gaps import NOTES
from engine.knowledge.search import Entry, search

TOOL_NAME = "consultar_base_conhecimento"
TODAY_KEY = "today"  # the run's date in its configurable (engine.runtime sets it)
NOTHING_FOUND = (
    "Nada relevante na base de conhecimento da Aeko para esta pergunta; não responda como se "
    "a base tratasse dela.\n"
    "Nothing relevant in Aeko's knowledge base for this question; do not answer as if the "
    "base covered it."
)


def entry_source(entry: Entry, lang: Literal["pt", "en"]) -> AekoSource:
    # Title and citation in the answer's language: the source block shows what it quoted.
    return AekoSource(
        kind="knowledge", ref=entry.id, label=entry.title[lang], citation=entry.source[lang]
    )


@tool(TOOL_NAME, response_format="content_and_artifact")
def consult_knowledge_base(
    pergunta: str, config: RunnableConfig, idioma: Literal["pt", "en"] | None = None
) -> tuple[str, list[AekoSource]]:
    """Busca na base de conhecimento da Aeko (GHG Protocol, IPCC, ISO 14064, normas e
    programas brasileiros) os verbetes que respondem a um conceito de contabilidade de GEE.
    pergunta: a pergunta ou o conceito, com os termos do usuário (ex.: 'escopo 1', 'CO2
    biogênico', 'location-based vs market-based'); idioma: 'pt' ou 'en', o da resposta
    (padrão: o da pergunta). Devolve até dois verbetes, cada um com sua fonte, ou avisa
    que a base não trata do assunto."""
    # Imported here: engine.offline's analyst imports this module to call the tool.
    from engine.offline.language import detect_language

    # The index is the words' language; ``idioma`` is the answer's, which may differ.
    asked = detect_language(pergunta)
    lang = idioma or asked
    today = (config.get("configurable") or {}).get(TODAY_KEY)
    found = search(pergunta, asked, today=today)
    if found.gap is not None:  # a value not published yet: say why nothing is returned
        return f"{NOTHING_FOUND}\n{NOTES[found.gap.kind].format(detail=found.gap.detail)}", []
    if found.weak:
        return NOTHING_FOUND, []
    text = "\n\n---\n\n".join(entry.text(lang) for entry in found.entries)
    return text, [entry_source(entry, lang) for entry in found.entries]
