"""Every label of the interface, in Portuguese (Brazil) and English: one table (an
``engine.texts.Texts``, the one way bilingual text is written), one lookup."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

import streamlit as st

from engine.texts import LANGS, Lang, Texts

# engine.texts imports nothing but the standard library, so the table costs nothing here.
# The application layer, the store and the engine's formatting are imported where they are
# used: every page imports this table first, and at module level they would pull LangChain,
# pandas, pint and the loader into the first render of a cold start (issue #25: the chat
# input within 3 s; bench/cold_start.py, docs/performance.md).
if TYPE_CHECKING:
    from application.workspace import Workspace
    from components.context import AppContext

LANGUAGES: tuple[Lang, ...] = LANGS
_KEY = "lang"
_KEY_USER = "lang_user"  # the user whose profile language this session has read
_CONTEXT = "aeko_context"  # components.context keeps the AppContext under this key

TEXTS = Texts(
    "ui",
    {
        # each language named in itself (the language picker)
        "language_name": {"pt": "Português (Brasil)", "en": "English"},
        # navigation
        "nav_chat": {"pt": "Chat", "en": "Chat"},
        "nav_inventory": {"pt": "Inventário", "en": "Inventory"},
        "nav_calculator": {"pt": "Calculadora", "en": "Calculator"},
        "nav_history": {"pt": "Histórico", "en": "History"},
        "nav_settings": {"pt": "Configurações", "en": "Settings"},
        # sidebar status, in every user's words; where and how to configure is on Settings
        "db_up": {"pt": "Banco de dados conectado", "en": "Database connected"},
        "db_down_short": {"pt": "Banco de dados indisponível", "en": "Database unavailable"},
        "db_embedded": {
            "pt": "Banco de dados: embutido, em `{where}`",
            "en": "Database: embedded, in `{where}`",
        },
        "db_remote": {"pt": "Banco de dados: {where}", "en": "Database: {where}"},
        "db_down": {
            "pt": "Banco de dados indisponível: {where}",
            "en": "Database unavailable: {where}",
        },
        "db_starting": {"pt": "Iniciando o banco de dados…", "en": "Starting the database…"},
        "db_restarted": {
            "pt": "O banco embutido foi reiniciado (o processo tinha parado ou travado); "
            "nada se perdeu.",
            "en": "The embedded database was restarted (its process had died or hung); "
            "nothing was lost.",
        },
        "sessions_unavailable": {
            "pt": "A lista de conversas não carregou (banco de dados indisponível); o chat segue.",
            "en": "The conversation list did not load (database unavailable); the chat goes on.",
        },
        "model_offline": {"pt": "Modelo: analista offline", "en": "Model: offline analyst"},
        "model_online": {"pt": "Modelos: {fast} / {slow}", "en": "Models: {fast} / {slow}"},
        "pending_writes": {
            "pt": "{n} respostas aguardando o banco de dados; serão gravadas quando ele voltar.",
            "en": "{n} answers waiting for the database; they will be saved when it is back.",
        },
        "pending_writes_one": {
            "pt": "1 resposta aguardando o banco de dados; será gravada quando ele voltar.",
            "en": "1 answer waiting for the database; it will be saved when it is back.",
        },
        "no_database": {
            "pt": "Sem banco de dados, nada pode ser salvo. {message}",
            "en": "Without the database nothing can be saved. {message}",
        },
        # chat
        "chat_title": {"pt": "Chat ESG", "en": "ESG chat"},
        "chat_caption": {
            "pt": "Pergunte sobre escopos, gases, alternativas e planos de redução.",
            "en": "Ask about scopes, gases, alternatives and reduction plans.",
        },
        "chat_placeholder": {"pt": "Escreva sua pergunta…", "en": "Type your question…"},
        "chat_empty": {
            "pt": 'Comece uma conversa: por exemplo, "Qual a diferença entre escopo 1 e escopo 2?"',
            "en": 'Start a conversation: for example, "What is the difference between '
            'scope 1 and scope 2?"',
        },
        "attach_label": {"pt": "Inventário da conversa", "en": "Conversation inventory"},
        "attach_none": {
            "pt": "Nenhum (só conceitos e cálculos)",
            "en": "None (concepts and calculations only)",
        },
        "attach_help": {
            "pt": "As respostas sobre as suas emissões vêm deste inventário (e do plano salvo "
            "para ele). A conversa lembra a escolha.",
            "en": "Answers about your emissions come from this inventory (and the plan saved for "
            "it). The conversation remembers the choice.",
        },
        "attach_option": {
            "pt": "{name} · nº {number} · {total} t CO2e · {date}",
            "en": "{name} · no. {number} · {total} t CO2e · {date}",
        },
        "attach_empty": {
            "pt": "Nenhum inventário salvo ainda: carregue a planilha na página Inventário para "
            "perguntar sobre os seus números.",
            "en": "No inventory saved yet: load the spreadsheet on the Inventory page to ask "
            "about your own figures.",
        },
        "attach_problem": {
            "pt": "O inventário anexado não pôde ser aberto agora; a resposta foi dada sem ele. "
            "{message}",
            "en": "The attached inventory could not be opened now; the answer was given "
            "without it. {message}",
        },
        "attach_reading": {"pt": "Lendo {name}…", "en": "Reading {name}…"},
        "sources": {"pt": "Fontes", "en": "Sources"},
        "sessions": {"pt": "Conversas", "en": "Conversations"},
        "new_session": {"pt": "Nova conversa", "en": "New conversation"},
        "rename": {"pt": "Renomear", "en": "Rename"},
        "delete": {"pt": "Excluir", "en": "Delete"},
        "confirm_delete": {
            "pt": "Excluir de vez? Não há como desfazer.",
            "en": "Delete for good? This cannot be undone.",
        },
        "name": {"pt": "Nome", "en": "Name"},
        "save": {"pt": "Salvar", "en": "Save"},
        "trail_running": {"pt": "Os agentes estão trabalhando…", "en": "The agents are working…"},
        "trail_done": {
            "pt": "Trilha dos agentes ({n} chamadas, {seconds} s)",
            "en": "Agent trail ({n} calls, {seconds} s)",
        },
        "trail_done_one": {
            "pt": "Trilha dos agentes (1 chamada, {seconds} s)",
            "en": "Agent trail (1 call, {seconds} s)",
        },
        "trail_failed": {"pt": "A execução falhou", "en": "The run failed"},
        "trail_agent": {
            "pt": "{agent} · {model} · {ms} ms · {tin}+{tout} tokens",
            "en": "{agent} · {model} · {ms} ms · {tin}+{tout} tokens",
        },
        "trail_next": {"pt": "→ encaminhou para {agent}", "en": "→ handed over to {agent}"},
        # The agents by their role, as the trail names them (the engine's names are its API).
        "agent_router": {"pt": "Roteador", "en": "Router"},
        "agent_faq": {"pt": "FAQ", "en": "FAQ"},
        "agent_orchestrator": {"pt": "Orquestrador", "en": "Orchestrator"},
        "agent_guardrail": {"pt": "Guardrail de Saída", "en": "Output guardrail"},
        "agent_inventory": {"pt": "Analista de inventários", "en": "Inventory analyst"},
        "agent_pollutants": {"pt": "Analista de Poluentes", "en": "Pollutants analyst"},
        "agent_green": {"pt": "Analista de Gases Verdes", "en": "Green gases analyst"},
        "agent_coordinator": {
            "pt": "Coordenador de Melhoria Contínua",
            "en": "Continuous improvement coordinator",
        },
        "agent_summarizer": {"pt": "Resumidor", "en": "Summariser"},
        "trail_tool": {"pt": "Ferramenta {tool}", "en": "Tool {tool}"},
        "trail_rejected": {
            "pt": "Guardrail reprovou a tentativa {attempt}: {reasons}",
            "en": "Guardrail rejected attempt {attempt}: {reasons}",
        },
        "trail_approved": {
            "pt": "Guardrail aprovou (tentativa {attempt})",
            "en": "Guardrail approved (attempt {attempt})",
        },
        "trail_rewrite": {
            "pt": "Plano sem {headings}: pedida a reescrita {n}",
            "en": "Plan missing {headings}: rewrite {n} requested",
        },
        "trail_retry": {
            "pt": "{model} falhou ({reason}); nova tentativa {attempt} em {delay} s",
            "en": "{model} failed ({reason}); retry {attempt} in {delay} s",
        },
        "trail_fallback": {
            "pt": "{from_model} indisponível ({reason}); usando {to_model}",
            "en": "{from_model} unavailable ({reason}); using {to_model}",
        },
        "trail_summary": {
            "pt": "Resumo da conversa atualizado ({n} mensagens antigas)",
            "en": "Conversation summary updated ({n} older messages)",
        },
        "trail_summary_one": {
            "pt": "Resumo da conversa atualizado (1 mensagem antiga)",
            "en": "Conversation summary updated (1 older message)",
        },
        "budget_exceeded": {
            "pt": "A execução parou no limite de {limit} ({used} de {allowed}). "
            "O que já foi gasto ficou registrado.",
            "en": "The run stopped at its {limit} limit ({used} of {allowed}). "
            "What it spent was recorded.",
        },
        # the limit a run stopped at (components.budget), named in budget_exceeded
        "budget_model_calls": {"pt": "chamadas ao modelo", "en": "model calls"},
        "budget_tokens": {"pt": "tokens", "en": "tokens"},
        "budget_cost_usd": {"pt": "custo (US$)", "en": "cost (US$)"},
        "budget_deadline_s": {"pt": "tempo (s)", "en": "time (s)"},
        # what runs cost when some have no known price (components.budget.spent_text)
        "spent_unknown": {
            "pt": "custo desconhecido (estimativa conservadora: até {estimate})",
            "en": "unknown cost (conservative estimate: up to {estimate})",
        },
        "spent_partly_unknown": {
            "pt": "{known} + {runs} de preço desconhecido (estimativa: até {estimate})",
            "en": "{known} + {runs} of unknown price (estimate: up to {estimate})",
        },
        "spent_runs": {"pt": "{n} execuções", "en": "{n} runs"},
        "spent_runs_one": {"pt": "1 execução", "en": "1 run"},
        "session_cost": {
            "pt": "Esta conversa: {n} execuções · {cost}",
            "en": "This conversation: {n} runs · {cost}",
        },
        "session_cost_one": {
            "pt": "Esta conversa: 1 execução · {cost}",
            "en": "This conversation: 1 run · {cost}",
        },
        "db_away_chat": {
            "pt": "A conversa segue aberta: o que você perguntar agora é respondido e gravado nela "
            "quando o banco voltar.",
            "en": "The conversation stays open: what you ask now is answered and saved to it when "
            "the database is back.",
        },
        "session_not_found": {
            "pt": "Conversa não encontrada: ela não existe ou não é sua. Uma nova começa aqui.",
            "en": "Conversation not found: it does not exist or is not yours. A new one starts "
            "here.",
        },
        "usage_title": {"pt": "Uso e custo", "en": "Usage and cost"},
        "usage_today": {"pt": "Hoje", "en": "Today"},
        "usage_total": {"pt": "Total", "en": "All time"},
        "usage_unknown": {
            "pt": "{n} execuções com preço desconhecido",
            "en": "{n} runs with an unknown price",
        },
        "usage_unknown_one": {
            "pt": "1 execução com preço desconhecido",
            "en": "1 run with an unknown price",
        },
        "plan_cost": {"pt": "Custo do plano: {cost}", "en": "Plan cost: {cost}"},
        "offline_label": {"pt": "analista offline", "en": "offline analyst"},
        "offline_priced_as": {
            "pt": "{offline} (preço de {model})",
            "en": "{offline} (priced as {model})",
        },
        "verdict_approved": {"pt": "Aprovada pelo guardrail", "en": "Approved by the guardrail"},
        "verdict_approved_after": {
            "pt": "Aprovada após {n} devoluções",
            "en": "Approved after {n} send-backs",
        },
        "verdict_approved_after_one": {
            "pt": "Aprovada após 1 devolução",
            "en": "Approved after 1 send-back",
        },
        "verdict_rejected": {
            "pt": "Reprovada após {n} tentativas",
            "en": "Rejected after {n} attempts",
        },
        "verdict_rejected_one": {
            "pt": "Reprovada após 1 tentativa",
            "en": "Rejected after 1 attempt",
        },
        "verdict_unreviewed": {"pt": "Sem revisão do guardrail", "en": "Not reviewed"},
        "turn_cost": {
            "pt": "{tin} tokens de entrada · {tout} de saída · custo {cost}",
            "en": "{tin} input tokens · {tout} output · cost {cost}",
        },
        "cost_unknown": {"pt": "desconhecido", "en": "unknown"},
        "rejected_turn": {
            "pt": "O guardrail reprovou todas as versões desta resposta, então ela "
            "não foi enviada nem entra no histórico. Tente reformular a "
            "pergunta.",
            "en": "The guardrail rejected every draft of this answer, so it was not "
            "sent and stays out of the history. Try rephrasing the question.",
        },
        "rejected_list": {
            "pt": "Perguntas sem resposta aprovada ({n})",
            "en": "Questions without an approved answer ({n})",
        },
        "interrupted": {
            "pt": "Pergunta sem resposta (a execução foi interrompida): {question}",
            "en": "Question without an answer (the run was interrupted): {question}",
        },
        "session_unreadable": {
            "pt": "Esta conversa está gravada num formato que o app não consegue "
            "ler. Abra outra conversa ou comece uma nova.",
            "en": "This conversation is stored in a shape the app cannot read. "
            "Open another conversation or start a new one.",
        },
        "ask_again": {"pt": "Perguntar de novo", "en": "Ask again"},
        "engine_error": {
            "pt": "Não foi possível responder agora: {message} Sua pergunta ficou "
            "salva; tente de novo em instantes.",
            "en": "Could not answer right now: {message} Your question was saved; "
            "try again in a moment.",
        },
        "model_unavailable": {
            "pt": "O modelo não respondeu, nem depois de novas tentativas e do "
            "modelo reserva. Sua pergunta ficou salva; tente em instantes.",
            "en": "The model did not answer, not even after retries and the "
            "fallback model. Your question was saved; try again shortly.",
        },
        "saved_later": {
            "pt": "O banco de dados não respondeu: a resposta ficou guardada no diário local e "
            "será gravada quando ele voltar.",
            "en": "The database did not answer: the answer is kept in the local journal and will "
            "be saved when it is back.",
        },
        "answer_truncated": {
            "pt": "A resposta foi interrompida pelo limite de tamanho e pode estar incompleta.",
            "en": "The answer was cut off at the length limit and may be incomplete.",
        },
        "answer_unverified": {
            "pt": "Números sem fonte nesta execução, marcados “não verificado”: {numbers}. "
            "Confira-os antes de usar.",
            "en": "Figures with no source in this run, marked “unverified”: {numbers}. "
            "Check them before use.",
        },
        # calculator and factors
        "calc_title": {"pt": "Calculadora de emissões", "en": "Emissions calculator"},
        "calc_caption": {
            "pt": "Dado de atividade × fator de emissão, com a fonte de cada fator.",
            "en": "Activity data × emission factor, with the source of every factor.",
        },
        "calc_activity": {"pt": "Atividade", "en": "Activity"},
        "calc_quantity": {"pt": "Quantidade", "en": "Quantity"},
        "calc_unit": {"pt": "Unidade", "en": "Unit"},
        "calc_period": {"pt": "Período", "en": "Period"},
        "calc_period_help": {
            "pt": "Ano (2024), mês (2024-06) ou dia (2024-06-15): a mistura de biodiesel e o "
            "fator do SIN dependem da data.",
            "en": "Year (2024), month (2024-06) or day (2024-06-15): the biodiesel blend and "
            "the grid factor depend on the date.",
        },
        "calc_result": {"pt": "Emissões (escopo {scope})", "en": "Emissions (scope {scope})"},
        "calc_biogenic": {
            "pt": "CO2 biogênico (relatado à parte)",
            "en": "Biogenic CO2 (reported apart)",
        },
        "calc_montreal": {
            "pt": "Gases do Protocolo de Montreal (à parte)",
            "en": "Montreal Protocol gases (apart)",
        },
        "calc_how": {"pt": "Como foi calculado", "en": "How it was computed"},
        "calc_period_blend": {
            "pt": "Período {period}: {blend}, a mistura obrigatória em vigor. O chat, quando a "
            "pergunta não diz o ano, calcula o mesmo combustível para {year} ({chat}): por isso "
            "os resultados diferem.",
            "en": "Period {period}: {blend}, the mandatory blend in force. The chat, when the "
            "question names no year, computes the same fuel for {year} ({chat}): that is why the "
            "results differ.",
        },
        "calc_period_blend_help": {
            "pt": "O teor de biodiesel no diesel B e o de etanol anidro na gasolina C mudam por "
            "resolução do CNPE; cada período usa o que estava em vigor nele.",
            "en": "The biodiesel share of diesel B and the anhydrous ethanol share of gasoline C "
            "change by CNPE resolution; each period uses the one in force in it.",
        },
        "calc_period_factors": {
            "pt": "Período {period}: os fatores em vigor nele não são os de {year}, o ano que o "
            "chat usa quando a pergunta não diz o ano; por isso os resultados diferem.",
            "en": "Period {period}: the factors in force in it are not {year}'s, the year the chat "
            "uses when the question names none; that is why the results differ.",
        },
        "calc_factors": {"pt": "Fatores usados", "en": "Factors used"},
        "calc_add": {"pt": "Adicionar ao inventário aberto", "en": "Add to the open inventory"},
        "calc_added": {
            "pt": "Linha adicionada ao inventário aberto ({n} no total).",
            "en": "Row added to the open inventory ({n} in all).",
        },
        "calc_no_inventory": {
            "pt": "Abra um inventário na página Inventário para somar linhas a ele.",
            "en": "Open an inventory on the Inventory page to add rows to it.",
        },
        "calc_own_factors": {
            "pt": "Usando os seus fatores ({name}).",
            "en": "Using your own factors ({name}).",
        },
        "fac_role": {"pt": "Fator", "en": "Factor"},
        "fac_value": {"pt": "Valor", "en": "Value"},
        "fac_unit": {"pt": "Unidade", "en": "Unit"},
        "fac_source": {"pt": "Fonte", "en": "Source"},
        "fac_period": {"pt": "Validade", "en": "Valid"},
        "fac_owner": {"pt": "Origem", "en": "Origin"},
        "fac_user": {"pt": "seu arquivo", "en": "your file"},
        "fac_library": {"pt": "biblioteca", "en": "library"},
        "fac_none": {"pt": "Nenhum fator usado.", "en": "No factor used."},
        "fac_since": {"pt": "desde {start}", "en": "from {start}"},
        "fac_until": {"pt": "até {end}", "en": "until {end}"},
        "inv_factors": {
            "pt": "Fatores de emissão ({n} usados)",
            "en": "Emission factors ({n} used)",
        },
        "inv_own_factors": {
            "pt": "Seus próprios fatores (CSV no formato da biblioteca)",
            "en": "Your own factors (CSV in the library's format)",
        },
        "inv_own_factors_help": {
            "pt": "Colunas: key, gas, value, unit, region, valid_from, valid_to, document, table, "
            "year, url, note. Eles substituem os da biblioteca neste inventário e ficam "
            "guardados com ele.",
            "en": "Columns: key, gas, value, unit, region, valid_from, valid_to, document, table, "
            "year, url, note. They override the library's for this inventory and are stored "
            "with it.",
        },
        "inv_added_rows": {
            "pt": "Linhas da calculadora ({n})",
            "en": "Calculator rows ({n})",
        },
        "inv_clear_added": {
            "pt": "Remover as linhas da calculadora",
            "en": "Remove calculator rows",
        },
        # inventory
        "inv_title": {"pt": "Inventário de emissões", "en": "Emissions inventory"},
        "inv_caption": {
            "pt": "Envie a planilha do inventário (.xlsx, .xls, .ods ou .csv) ou use o exemplo.",
            "en": "Upload the inventory spreadsheet (.xlsx, .xls, .ods or .csv) or use the sample.",
        },
        "inv_upload": {"pt": "Planilha do inventário", "en": "Inventory spreadsheet"},
        "inv_sample": {"pt": "Usar o inventário de exemplo", "en": "Use the sample inventory"},
        "inv_sheets": {"pt": "Abas a analisar", "en": "Sheets to analyse"},
        "inv_sheets_help": {
            "pt": "Vêm marcadas as abas em que há uma tabela; uma capa ou aba de instruções fica "
            "de fora.",
            "en": "The sheets with a table come ticked; a cover or instructions sheet is left out.",
        },
        "inv_gwp": {"pt": "Conjunto de GWP (IPCC)", "en": "GWP set (IPCC)"},
        # Wherever the default set is stated, so is why another may be the right one.
        "inv_gwp_help": {
            "pt": "Padrão: {default}, o do seu perfil (mude em Configurações). {note}",
            "en": "Default: {default}, your profile's (change it in Settings). {note}",
        },
        "gwp_choice_note": {
            "pt": "A IFRS S2 (parágrafo B21) pede os GWPs da avaliação mais recente do IPCC "
            "disponível na data do relato, hoje o AR6, e a Resolução CVM 193 a torna obrigatória "
            "para companhias abertas a partir do exercício de 2026. O Programa Brasileiro GHG "
            "Protocol usa o conjunto que a versão da sua ferramenta de cálculo informa.",
            "en": "IFRS S2 (paragraph B21) requires the GWPs of the latest IPCC assessment "
            "available at the reporting date, today AR6, and CVM Resolution 193 makes it "
            "mandatory for listed companies from fiscal year 2026. The Brazilian GHG Protocol "
            "Program uses the set its calculation tool version states.",
        },
        "inv_reading": {"pt": "Lendo a planilha…", "en": "Reading the spreadsheet…"},
        "inv_mapping": {"pt": "Mapeamento das colunas", "en": "Column mapping"},
        "inv_mapping_help": {
            "pt": "Corrija o campo de uma coluna e a tabela é relida.",
            "en": "Fix a column's field and the table is read again.",
        },
        "col_sheet": {"pt": "Aba", "en": "Sheet"},
        "col_column": {"pt": "Coluna", "en": "Column"},
        "col_field": {"pt": "Campo", "en": "Field"},
        "inv_total": {"pt": "Total", "en": "Total"},
        "inv_rows": {"pt": "Linhas", "en": "Rows"},
        "inv_biogenic": {
            "pt": "CO2 biogênico (fora do total)",
            "en": "Biogenic CO2 (outside the total)",
        },
        "inv_table": {"pt": "Tabela canônica", "en": "Canonical table"},
        "inv_table_all": {
            "pt": "Mostrar todas as {n} linhas",
            "en": "Show all {n} rows",
        },
        "inv_table_head": {
            "pt": "As primeiras {shown} de {n} linhas.",
            "en": "The first {shown} of {n} rows.",
        },
        "inv_markdown": {
            "pt": "Mostrar a prévia em Markdown (primeiras linhas)",
            "en": "Show the Markdown preview (first rows)",
        },
        "inv_download_md": {
            "pt": "Baixar a tabela em Markdown",
            "en": "Download the table as Markdown",
        },
        "inv_charts": {"pt": "Gráficos", "en": "Charts"},
        "chart_scope": {"pt": "Emissões por escopo", "en": "Emissions by scope"},
        "chart_gas": {"pt": "Emissões por gás", "en": "Emissions by gas"},
        "chart_category": {"pt": "Emissões por categoria", "en": "Emissions by category"},
        "chart_pareto": {"pt": "Pareto das fontes", "en": "Pareto of sources"},
        "chart_evolution": {"pt": "Evolução por ano", "en": "Evolution by year"},
        "chart_year": {"pt": "Ano", "en": "Year"},
        "chart_change": {"pt": "Variação", "en": "Change"},
        "chart_cumulative": {"pt": "Acumulado", "en": "Cumulative"},
        # a row the workbook left without a value (no gas, no facility): said in the language
        "chart_unknown": {"pt": "(não informado)", "en": "(not stated)"},
        "chart_rank": {"pt": "Posição", "en": "Rank"},
        "field_scope": {"pt": "Escopo", "en": "Scope"},
        "field_gas": {"pt": "Gás", "en": "Gas"},
        "field_category": {"pt": "Categoria", "en": "Category"},
        "field_source": {"pt": "Fonte", "en": "Source"},
        "field_facility": {"pt": "Unidade", "en": "Facility"},
        "field_fuel": {"pt": "Combustível", "en": "Fuel"},
        "scope_label": {"pt": "Escopo {scope}", "en": "Scope {scope}"},
        # inventory: the headline, its status and the memo items
        "inv_ch4": {"pt": "Metano (AR6)", "en": "Methane (AR6)"},
        "inv_ch4_help": {
            "pt": "O AR6 dá ao metano três valores: geral, fóssil e não fóssil. Só vale para o "
            "AR6 (o AR4 usa 25 e o AR5 usa 28 para qualquer origem).",
            "en": "AR6 gives methane three values: general, fossil and non-fossil. It only "
            "applies to AR6 (AR4 uses 25 and AR5 28 whatever the origin).",
        },
        "ch4_general": {"pt": "valor geral {value}", "en": "general value {value}"},
        "ch4_fossil": {"pt": "fóssil {value}", "en": "fossil {value}"},
        "ch4_non_fossil": {"pt": "não fóssil {value}", "en": "non-fossil {value}"},
        "inv_total_help": {
            "pt": "Emissões do ano de referência, com o Escopo 2 por localização, sem CO2 "
            "biogênico, gases do Protocolo de Montreal e Escopo 2 por escolha de compra. "
            "GWP: {gwp}.",
            "en": "Emissions of the headline year, with location-based Scope 2, without "
            "biogenic CO2, Montreal Protocol gases or market-based Scope 2. GWP: {gwp}.",
        },
        "status_reconciled": {
            "pt": "Conferido com os totais da planilha.",
            "en": "Reconciled with the workbook's totals.",
        },
        "status_unverified": {
            "pt": "Sem totais na planilha para conferir.",
            "en": "No totals in the workbook to check against.",
        },
        "status_conflict": {
            "pt": "Não confere: planilha diz {stated} t CO2e, calculado {computed} t CO2e.",
            "en": "Does not reconcile: stated {stated} t CO2e, computed {computed} t CO2e.",
        },
        "status_conflict_sheet": {
            "pt": "{sheet}: planilha diz {stated}, calculado {computed}",
            "en": "{sheet}: stated {stated}, computed {computed}",
        },
        "status_conflict_fix": {
            "pt": "O total usa as linhas. Se uma coluna foi lida errado, corrija-a no "
            "mapeamento das colunas (aberto acima).",
            "en": "The total uses the rows. If a column was read wrongly, fix it in the "
            "column mapping (open above).",
        },
        "inv_year_one": {"pt": "Ano {year}", "en": "Year {year}"},
        "inv_year_many": {
            "pt": "Ano {year}; todos os anos no gráfico de evolução",
            "en": "Year {year}; every year in the evolution chart",
        },
        "inv_gwp_stated": {"pt": "GWP: {gwp}", "en": "GWP: {gwp}"},
        "inv_scope2_location": {"pt": "Escopo 2 (localização)", "en": "Scope 2 (location-based)"},
        "inv_scope_unknown": {
            "pt": "{value} t CO2e em linhas sem escopo informado (no total, em nenhum escopo).",
            "en": "{value} t CO2e in rows with no scope stated (in the total, in no scope).",
        },
        "inv_scope2_market": {
            "pt": "Escopo 2 (escolha de compra)",
            "en": "Scope 2 (market-based)",
        },
        "inv_scope2_help": {
            "pt": "Os dois métodos do Escopo 2 ficam lado a lado e nunca são somados; o total "
            "usa o de localização.",
            "en": "The two Scope 2 methods are shown side by side and never added; the total "
            "uses the location-based one.",
        },
        "inv_scope2_pair": {
            "pt": "Escopo 2: localização {location} t CO2e · escolha de compra {market} "
            "(nunca somados; o total usa localização)",
            "en": "Scope 2: location-based {location} t CO2e · market-based {market} "
            "(never added; the total uses location-based)",
        },
        "inv_montreal": {
            "pt": "Gases do Protocolo de Montreal (fora do total)",
            "en": "Montreal Protocol gases (outside the total)",
        },
        "inv_memo_help": {
            "pt": "Item informativo: relatado à parte, fora do total e dos escopos.",
            "en": "Memo item: reported apart, outside the total and the scopes.",
        },
        "inv_mapping_conflict": {
            "pt": "Mapeamento das colunas: não confere em {sheets}",
            "en": "Column mapping: does not reconcile in {sheets}",
        },
        "inv_mapping_conflict_sheet": {
            "pt": "A aba {sheet} não confere com os próprios totais: {message} As colunas "
            "dela estão no topo da tabela.",
            "en": "Sheet {sheet} does not reconcile with its own totals: {message} Its "
            "columns are at the top of the table.",
        },
        "inv_reconciliation": {"pt": "Conferência por aba", "en": "Reconciliation per sheet"},
        "inv_no_reconciliation": {
            "pt": "Nenhuma aba com emissões para conferir.",
            "en": "No sheet with emissions to check.",
        },
        # A status in a table cell: a symbol every system font has (no emoji: Debian's Chromium
        # draws those as empty boxes) and always its word.
        "rec_reconciled": {"pt": "✓ Conferido", "en": "✓ Reconciled"},
        "rec_unverified": {"pt": "○ Sem conferência", "en": "○ Unverified"},
        "rec_ambiguous": {"pt": "⚠ Unidade ambígua", "en": "⚠ Ambiguous unit"},
        "rec_conflict": {"pt": "✗ Conflito", "en": "✗ Conflict"},
        # inventory: what was read, per sheet, and the unit the user chooses
        "inv_read": {"pt": "O que foi lido", "en": "What was read"},
        "col_unit": {"pt": "Unidade das emissões", "en": "Emissions unit"},
        "col_unit_where": {"pt": "De onde veio a unidade", "en": "Where the unit came from"},
        "col_rows_read": {"pt": "Linhas lidas", "en": "Rows counted"},
        "status_ambiguous": {
            "pt": "Unidade ambígua em {sheets}: leituras que diferem por mil passam nas mesmas "
            "conferências e nada na planilha diz a unidade. Escolha-a abaixo; até lá, os totais "
            "não estão conferidos.",
            "en": "Ambiguous unit in {sheets}: readings a thousand apart pass the same checks and "
            "nothing in the workbook states the unit. Choose it below; until then the totals "
            "are not proven.",
        },
        "inv_unit_choice": {
            "pt": "Em que unidade estão as emissões da aba {sheet}?",
            "en": "Which unit are the emissions of sheet {sheet} in?",
        },
        "inv_unit_choice_help": {
            "pt": "A escolha relê a aba nessa unidade e fica guardada com o inventário.",
            "en": "The choice reads the sheet again in that unit and is kept with the inventory.",
        },
        "inv_confirm_unproven": {
            "pt": "Entendo que os totais não conferem: {sheets}",
            "en": "I understand the totals are not proven: {sheets}",
        },
        "inv_confirm_unproven_help": {
            "pt": "O plano partirá de números que a própria planilha não confirma.",
            "en": "The plan will start from figures the workbook itself does not confirm.",
        },
        # the column mapping: each field as a person reads it
        "map_unused": {"pt": "(não usada)", "en": "(not used)"},
        "map_scope": {"pt": "Escopo", "en": "Scope"},
        "map_category": {"pt": "Categoria", "en": "Category"},
        "map_source": {"pt": "Fonte", "en": "Source"},
        "map_facility": {"pt": "Instalação", "en": "Facility"},
        "map_fuel": {"pt": "Combustível", "en": "Fuel"},
        "map_quantity": {"pt": "Quantidade (dado de atividade)", "en": "Quantity (activity data)"},
        "map_unit": {"pt": "Unidade da quantidade", "en": "Unit of the quantity"},
        "map_gas": {"pt": "Gás", "en": "Gas"},
        "map_emissions_t_gas": {"pt": "Emissões do gás (t)", "en": "Emissions of the gas (t)"},
        "map_emissions_t_gas_of": {"pt": "Emissões {gas} (t)", "en": "{gas} emissions (t)"},
        "map_emissions_tco2e": {"pt": "Emissões CO2e (t)", "en": "CO2e emissions (t)"},
        "map_emissions_tco2e_of": {
            "pt": "Emissões {gas} (t CO2e)",
            "en": "{gas} emissions (t CO2e)",
        },
        "map_biogenic_co2": {"pt": "CO2 biogênico (t)", "en": "Biogenic CO2 (t)"},
        "map_year": {"pt": "Ano", "en": "Year"},
        "map_emissions_unit": {"pt": "Unidade das emissões", "en": "Emissions unit"},
        "map_emission_factor": {"pt": "Fator de emissão", "en": "Emission factor"},
        "map_scope2_method": {"pt": "Método do Escopo 2", "en": "Scope 2 method"},
        "map_code": {"pt": "Código", "en": "Code"},
        # the canonical table's own columns, beside the mapped fields above
        "canon_sheet": {"pt": "Aba", "en": "Sheet"},
        "canon_row": {"pt": "Linha", "en": "Row"},
        "canon_reporting": {"pt": "No total?", "en": "In the total?"},
        "canon_memo_tco2e": {"pt": "À parte (t CO2e)", "en": "Apart (t CO2e)"},
        "canon_gwp": {"pt": "GWP aplicado", "en": "GWP applied"},
        "canon_basis": {"pt": "Origem do número", "en": "Where the number comes from"},
        "canon_activity": {"pt": "Atividade (fator)", "en": "Activity (factor)"},
        "canon_reported_tco2e": {
            "pt": "Informado na planilha (t CO2e)",
            "en": "Stated in the workbook (t CO2e)",
        },
        "canon_value_inventory": {"pt": "sim", "en": "yes"},
        "canon_value_biogenic": {
            "pt": "não: CO2 biogênico, à parte",
            "en": "no: biogenic CO2, reported apart",
        },
        "canon_value_montreal": {
            "pt": "não: gás do Protocolo de Montreal, à parte",
            "en": "no: Montreal Protocol gas, reported apart",
        },
        "canon_value_scope2_market": {
            "pt": "não: Escopo 2 por mercado, ao lado do de localização",
            "en": "no: market-based Scope 2, beside the location-based",
        },
        "canon_value_computed": {
            "pt": "calculado (dado de atividade × fator)",
            "en": "computed (activity × factor)",
        },
        "canon_value_reported": {"pt": "da planilha", "en": "from the workbook"},
        "canon_value_location": {"pt": "baseado na localização", "en": "location-based"},
        "canon_value_market": {"pt": "baseado em mercado", "en": "market-based"},
        "col_status": {"pt": "Situação", "en": "Status"},
        "col_stated": {"pt": "Planilha (t CO2e)", "en": "Stated (t CO2e)"},
        "col_computed": {"pt": "Calculado (t CO2e)", "en": "Computed (t CO2e)"},
        "col_detail": {"pt": "Detalhe", "en": "Detail"},
        "inv_findings": {"pt": "Qualidade dos dados ({n})", "en": "Data quality ({n})"},
        "inv_no_findings": {"pt": "Nenhum problema encontrado.", "en": "No problems found."},
        "inv_rows_ref": {"pt": "linhas", "en": "rows"},
        "inv_previous": {"pt": "Relatório anterior (opcional)", "en": "Previous report (optional)"},
        "inv_previous_none": {"pt": "Nenhum", "en": "None"},
        "inv_analyze": {"pt": "Analisar e gerar o plano", "en": "Analyse and write the plan"},
        # Sign-in (components/auth.py)
        "auth_title": {"pt": "Entrar no Aeko Studio", "en": "Sign in to Aeko Studio"},
        "auth_prompt": {
            "pt": "Entre com a sua conta da organização para ver as suas conversas, inventários "
            "e planos. Cada conta vê apenas o que é seu.",
            "en": "Sign in with your organisation account to see your conversations, inventories "
            "and plans. Each account sees only its own.",
        },
        "auth_sign_in": {"pt": "Entrar", "en": "Sign in"},
        "auth_sign_out": {"pt": "Sair", "en": "Sign out"},
        "auth_signed_in_as": {"pt": "Conectado como {who}", "en": "Signed in as {who}"},
        "auth_no_subject": {
            "pt": "O provedor de identidade não informou quem você é (iss/sub). Saia e tente de "
            "novo, ou fale com quem administra o app.",
            "en": "The identity provider did not say who you are (iss/sub). Sign out and try "
            "again, or ask whoever runs the app.",
        },
        "auth_local_mode": {
            "pt": "Modo local de um só usuário: sem login, todos que abrem este endereço são o "
            "mesmo usuário.",
            "en": "Single-user local mode: no sign-in, everyone who opens this address is the "
            "same user.",
        },
        "inv_plan": {"pt": "Plano de melhoria", "en": "Improvement plan"},
        "inv_run_going": {"pt": "em andamento", "en": "still running"},
        "inv_run_ended": {"pt": "concluída", "en": "finished"},
        "inv_run_elsewhere": {
            "pt": "A análise de {name} está {state}.",
            "en": "The analysis of {name} is {state}.",
        },
        "inv_run_open": {"pt": "Abrir esse inventário", "en": "Open that inventory"},
        "inv_run_cut": {
            "pt": "A análise de {name} iniciada em {at} foi interrompida quando o app reiniciou; "
            "o que ela gastou está registrado. Rode a análise de novo.",
            "en": "The analysis of {name} started at {at} was cut when the app restarted; what it "
            "spent is recorded. Run the analysis again.",
        },
        "sbce_title": {"pt": "Prontidão para o SBCE", "en": "SBCE readiness"},
        "sbce_none": {
            "pt": "Nenhuma emissão de escopo 1 por unidade neste inventário.",
            "en": "No Scope 1 emissions by facility in this inventory.",
        },
        "sbce_facility": {"pt": "Instalação", "en": "Installation"},
        "sbce_scope1": {"pt": "Escopo 1 (t CO2e/ano)", "en": "Scope 1 (t CO2e/yr)"},
        "sbce_status": {"pt": "Obrigação no SBCE", "en": "SBCE obligation"},
        "sbce_near": {"pt": "Atenção", "en": "Watch"},
        "sbce_below": {
            "pt": "abaixo de 10.000 t: sem obrigação",
            "en": "below 10,000 t: no obligation",
        },
        "sbce_monitoring": {
            "pt": "plano de monitoramento e relato anual",
            "en": "monitoring plan and annual report",
        },
        "sbce_allowances": {
            "pt": "monitoramento, relato e entrega de cotas (CBE/CRVE)",
            "en": "monitoring, report and surrendering allowances (CBE/CRVE)",
        },
        "sbce_near_monitoring": {
            "pt": "a menos de 10% de 10.000 t",
            "en": "within 10% of 10,000 t",
        },
        "sbce_near_allowances": {
            "pt": "a menos de 10% de 25.000 t",
            "en": "within 10% of 25,000 t",
        },
        "sbce_threshold_monitoring": {"pt": "10.000 t CO2e/ano", "en": "10,000 t CO2e/yr"},
        "sbce_threshold_allowances": {"pt": "25.000 t CO2e/ano", "en": "25,000 t CO2e/yr"},
        "sbce_near_warning": {
            "pt": "{facility} está a menos de 10% do limite de {threshold} do SBCE.",
            "en": "{facility} is within 10% of the SBCE's {threshold} threshold.",
        },
        "sbce_rule": {
            "pt": "Lei 15.042/2024: os limites valem por instalação ou fonte (escopo 1), não pela "
            "empresa somada; acima de 10.000 t CO2e/ano, plano de monitoramento e relato anual; "
            "acima de 25.000 t, também a conciliação periódica com cotas. O órgão gestor pode "
            "elevar os limites na regulamentação.",
            "en": "Law 15.042/2024: thresholds apply per installation or source (Scope 1), not to "
            "the company's sum; above 10,000 t CO2e/yr, a monitoring plan and annual report; above "
            "25,000 t, also periodic reconciliation with allowances. The regulator may raise the "
            "thresholds.",
        },
        # the plan card: actions, MACC, path
        "pc_actions": {"pt": "Ações", "en": "Actions"},
        "pc_macc": {
            "pt": "Curva de custo marginal de abatimento (MACC)",
            "en": "Marginal abatement cost curve (MACC)",
        },
        "pc_macc_none": {
            "pt": "Nenhuma ação com custo conhecido: a curva fica vazia.",
            "en": "No action with a known cost: the curve is empty.",
        },
        "pc_unknown": {
            "pt": "Custo desconhecido (fora da curva): {names}.",
            "en": "Cost unknown (not on the curve): {names}.",
        },
        "pc_path": {"pt": "Meta e trajetória", "en": "Target and trajectory"},
        # the plan card's tabs, and what its action table says about its rows
        "pc_tab_summary": {"pt": "Resumo", "en": "Summary"},
        "pc_tab_actions": {"pt": "Ações", "en": "Actions"},
        "pc_tab_macc": {"pt": "MACC", "en": "MACC"},
        "pc_tab_target": {"pt": "Meta", "en": "Target"},
        "pc_tab_sbce": {"pt": "SBCE", "en": "SBCE"},
        "pc_tab_whatif": {"pt": "E se", "en": "What if"},
        "pc_moved": {
            "pt": "O que este trecho citava das ações calculadas está nas abas acima: {tabs}.",
            "en": "What this part quoted from the computed actions is in the tabs above: {tabs}.",
        },
        "pc_whatif_none": {
            "pt": "Nada a simular aqui: o E se precisa das ações do plano e do inventário "
            "analisado.",
            "en": "Nothing to simulate here: What if needs the plan's actions and the inventory "
            "analysed.",
        },
        "pc_row": {"pt": "linha {row}", "en": "row {row}"},
        "pc_rows_more": {"pt": "+{n} linhas", "en": "+{n} rows"},
        "pc_rows_one_more": {"pt": "+1 linha", "en": "+1 row"},
        "pc_rows_help": {
            "pt": "A primeira linha do inventário de cada ação; todas estão em «{all}», abaixo.",
            "en": "Each action's first inventory row; every one is under “{all}”, below.",
        },
        "pc_rows_all": {
            "pt": "Linhas do inventário de cada ação ({n})",
            "en": "Inventory rows of each action ({n})",
        },
        "pc_rows_measure": {"pt": "Medida", "en": "Measure"},
        "pc_rows_row": {
            "pt": "Linha do inventário (fonte · unidade · gás)",
            "en": "Inventory row (source · facility · gas)",
        },
        "pc_scroll": {
            "pt": "A coluna da medida fica fixa: role a tabela para o lado para ver o prazo e o "
            "KPI.",
            "en": "The measure column stays put: scroll the table sideways for the deadline and "
            "the KPI.",
        },
        "pc_no_actions": {
            "pt": "Este plano foi salvo sem ações calculadas.",
            "en": "This plan was saved without computed actions.",
        },
        "pc_reduction": {"pt": "Redução (t CO2e/ano)", "en": "Reduction (t CO2e/yr)"},
        "pc_per_year": {"pt": "t CO2e/ano", "en": "t CO2e/yr"},
        "pc_market": {
            "pt": "Escopo 2 por mercado, à parte: {range} t CO2e/ano",
            "en": "Market-based Scope 2, apart: {range} t CO2e/yr",
        },
        "pc_cost": {"pt": "Custo médio (R$/t CO2e)", "en": "Average cost (R$/t CO2e)"},
        "pc_cost_help": {
            "pt": "Média ponderada pela redução média das ações com custo conhecido.",
            "en": "Mean weighted by the mid reduction of the actions with a known cost.",
        },
        "pc_cost_unknown": {"pt": "custo desconhecido", "en": "cost unknown"},
        "pc_unknown_count": {
            "pt": "{known} de {total} ações com custo conhecido; {n} com custo desconhecido (fora "
            "da média).",
            "en": "{known} of {total} actions with a known cost; {n} with unknown cost (left out "
            "of the average).",
        },
        "pc_all_known": {
            "pt": "Todas as {total} ações com custo conhecido.",
            "en": "All {total} actions have a known cost.",
        },
        "pc_count": {"pt": "Ações", "en": "Actions"},
        "pc_unknown_short": {"pt": "{n} com custo desconhecido", "en": "{n} with cost unknown"},
        "pc_no_actions_short": {"pt": "sem ações calculadas", "en": "no computed actions"},
        "pc_target_met": {"pt": "Meta atingida", "en": "Target met"},
        "pc_target_short": {"pt": "Meta não atingida", "en": "Target not met"},
        "pc_no_target": {"pt": "Sem meta", "en": "No target"},
        "pc_compare": {"pt": "Comparar dois planos", "en": "Compare two plans"},
        "pc_compare_first": {"pt": "Plano A", "en": "Plan A"},
        "pc_compare_second": {"pt": "Plano B", "en": "Plan B"},
        "pc_compare_same": {
            "pt": "Escolha dois planos diferentes.",
            "en": "Choose two different plans.",
        },
        "pc_compare_difference": {
            "pt": "**Diferença (B − A)**: redução de {low} a {high} t CO2e/ano ({mid} na média).",
            "en": "**Difference (B − A)**: reduction of {low} to {high} t CO2e/yr ({mid} mid).",
        },
        "pc_compare_cost": {
            "pt": " Custo médio: {cost} R$/t CO2e.",
            "en": " Average cost: {cost} R$/t CO2e.",
        },
        "pc_compare_missing": {
            "pt": "Sem diferença a calcular: um dos planos foi salvo sem ações calculadas.",
            "en": "No difference to compute: one of the plans was saved without computed actions.",
        },
        "cmp_title": {
            "pt": "Comparar com um inventário salvo",
            "en": "Compare with a saved inventory",
        },
        "cmp_none": {"pt": "Escolha um inventário", "en": "Choose an inventory"},
        "cmp_with": {"pt": "Inventário anterior", "en": "Earlier inventory"},
        "cmp_gwp": {
            "pt": "Conjuntos de GWP diferentes ({now} agora, {before} antes): recalcule o anterior "
            "com o mesmo conjunto antes de comparar.",
            "en": "Different GWP sets ({now} now, {before} before): recompute the earlier one with "
            "the same set before comparing.",
        },
        "cmp_scope": {"pt": "Escopo", "en": "Scope"},
        "cmp_category": {"pt": "Categoria", "en": "Category"},
        "cmp_before": {"pt": "Antes (t CO2e)", "en": "Before (t CO2e)"},
        "cmp_now": {"pt": "Agora (t CO2e)", "en": "Now (t CO2e)"},
        "cmp_change": {"pt": "Variação (t CO2e)", "en": "Change (t CO2e)"},
        "cmp_change_pct": {"pt": "Variação (%)", "en": "Change (%)"},
        "whatif_title": {"pt": "E se…", "en": "What if…"},
        "whatif_caption": {
            "pt": "Marque as ações, mude a fração de um combustível ou o refrigerante, e veja o "
            "inventário por escopo antes e depois. As reduções seguem as mesmas regras do plano.",
            "en": "Tick actions, change a fuel share or a refrigerant, and see the inventory by "
            "scope before and after. Reductions follow the plan's own rules.",
        },
        "whatif_open": {"pt": "Cenário", "en": "Scenario"},
        "whatif_plan_default": {"pt": "As ações do plano", "en": "The plan's actions"},
        "whatif_share": {"pt": "Fração da atividade (%)", "en": "Share of the activity (%)"},
        "whatif_refrigerant": {"pt": "Refrigerante novo", "en": "New refrigerant"},
        "whatif_name": {"pt": "Nome do cenário", "en": "Scenario name"},
        "whatif_save": {"pt": "Salvar cenário", "en": "Save scenario"},
        "whatif_saved": {
            "pt": "Cenário {name} salvo com o plano.",
            "en": "Scenario {name} saved with the plan.",
        },
        "whatif_figure": {"pt": "Escopo", "en": "Scope"},
        "whatif_before": {"pt": "Antes (t CO2e)", "en": "Before (t CO2e)"},
        "whatif_after": {"pt": "Depois (t CO2e)", "en": "After (t CO2e)"},
        "whatif_cut": {"pt": "Redução (t CO2e/ano)", "en": "Reduction (t CO2e/yr)"},
        "whatif_scope1": {"pt": "Escopo 1", "en": "Scope 1"},
        "whatif_scope2_location": {"pt": "Escopo 2 (localização)", "en": "Scope 2 (location)"},
        "whatif_scope2_market": {
            "pt": "Escopo 2 (escolha de compra, à parte)",
            "en": "Scope 2 (market-based, apart)",
        },
        "whatif_scope3": {"pt": "Escopo 3", "en": "Scope 3"},
        "whatif_total": {"pt": "Total do inventário", "en": "Inventory total"},
        "whatif_biogenic": {
            "pt": "CO2 biogênico acrescentado, fora dos escopos: {value} t.",
            "en": "Biogenic CO2 added, outside the scopes: {value} t.",
        },
        "plan_target": {"pt": "Meta de redução", "en": "Reduction target"},
        "plan_target_on": {"pt": "Planejar contra uma meta", "en": "Plan against a target"},
        "plan_base_year": {"pt": "Ano-base", "en": "Base year"},
        "plan_percent": {"pt": "Redução (%)", "en": "Reduction (%)"},
        "plan_target_year": {"pt": "Ano da meta", "en": "Target year"},
        "plan_target_help": {
            "pt": "Sugestão: trajetória linear de 4,2% do ano-base por ano, alinhada a 1,5 °C "
            "(SBTi, meta absoluta), sobre os Escopos 1 e 2; o Escopo 3 é tratado à parte.",
            "en": "Suggested: a linear path of 4.2% of the base year per year, 1.5 °C-aligned "
            "(SBTi, absolute target), on Scopes 1 and 2; Scope 3 is handled apart.",
        },
        "plan_target_market": {
            "pt": "Meta sobre o Escopo 2 por escolha de compra (market-based)",
            "en": "Target on market-based Scope 2",
        },
        "plan_target_market_help": {
            "pt": "Por padrão a meta acompanha o Escopo 2 por localização; os dois nunca se somam.",
            "en": "By default the target tracks location-based Scope 2; the two are never summed.",
        },
        "plan_measures": {
            "pt": "Catálogo de medidas e custos",
            "en": "Measure catalogue and costs",
        },
        "plan_catalogue_upload": {
            "pt": "Seu catálogo de medidas (CSV)",
            "en": "Your measure catalogue (CSV)",
        },
        "plan_costs_upload": {
            "pt": "Suas cotações de custo por medida (CSV)",
            "en": "Your cost quotes per measure (CSV)",
        },
        "plan_catalogue_download": {
            "pt": "Baixar o catálogo da Aeko para editar",
            "en": "Download Aeko's catalogue to edit",
        },
        "plan_costs_sample": {
            "pt": "Custos: cotações ilustrativas da empresa fictícia do exemplo, não dados de "
            "mercado.",
            "en": "Costs: illustrative quotes of the sample's fictional company, not market data.",
        },
        "plan_costs_none": {
            "pt": "Sem cotações de custo, as medidas aparecem como custo desconhecido e a curva de "
            "custo (MACC) fica vazia.",
            "en": "Without cost quotes, measures show as cost unknown and the cost curve (MACC) "
            "stays empty.",
        },
        "plan_measures_error": {
            "pt": "Arquivo recusado: {message}",
            "en": "File refused: {message}",
        },
        "inv_plan_saved": {"pt": "Plano salvo.", "en": "Plan saved."},
        "malformed_plan": {
            "pt": "O coordenador não entregou o plano no formato esperado mesmo após "
            "{n} tentativas (faltou: {missing}). Tente analisar de novo.",
            "en": "The coordinator did not deliver the plan in the expected format "
            "after {n} attempts (missing: {missing}). Try analysing again.",
        },
        "export_md": {"pt": "Markdown", "en": "Markdown"},
        "export_prepare": {
            "pt": "Preparar Markdown, Word e PDF",
            "en": "Prepare Markdown, Word and PDF",
        },
        "export_docx": {"pt": "Word (DOCX)", "en": "Word (DOCX)"},
        "export_pdf": {"pt": "PDF", "en": "PDF"},
        "plan_title": {
            "pt": "Plano de melhoria – inventário {number}",
            "en": "Improvement plan – inventory {number}",
        },
        # history
        "hist_title": {"pt": "Histórico", "en": "History"},
        "hist_search": {"pt": "Buscar", "en": "Search"},
        "hist_sessions": {"pt": "Conversas", "en": "Conversations"},
        "hist_plans": {"pt": "Planos", "en": "Plans"},
        "hist_open": {"pt": "Abrir", "en": "Open"},
        "hist_export": {"pt": "Exportar", "en": "Export"},
        "hist_empty": {"pt": "Nada por aqui ainda.", "en": "Nothing here yet."},
        "hist_turns": {"pt": "{n} mensagens", "en": "{n} messages"},
        "hist_newer": {"pt": "Mais recentes", "en": "Newer"},
        "hist_older": {"pt": "Mais antigos", "en": "Older"},
        "hist_page": {"pt": "Página {n}", "en": "Page {n}"},
        # settings
        "set_title": {"pt": "Configurações", "en": "Settings"},
        "set_language": {"pt": "Idioma da interface", "en": "Interface language"},
        "set_profile": {"pt": "Perfil", "en": "Profile"},
        "set_role": {"pt": "Cargo", "en": "Role"},
        "set_usecase": {"pt": "Caso de uso", "en": "Use case"},
        "set_saved": {"pt": "Salvo.", "en": "Saved."},
        "set_gwp": {
            "pt": "Conjunto de GWP padrão dos inventários",
            "en": "Default GWP set for inventories",
        },
        "set_gwp_help": {
            "pt": "Com ele cada inventário é lido, até você escolher outro na leitura. {note}",
            "en": "Every inventory is read with it until you pick another for a reading. {note}",
        },
        "set_memories": {"pt": "Memórias", "en": "Memories"},
        "set_memories_help": {
            "pt": "O que a Aeko deve lembrar em toda conversa. Memórias expiradas "
            "não são enviadas aos agentes.",
            "en": "What Aeko should remember in every conversation. Expired "
            "memories are not sent to the agents.",
        },
        "set_field": {"pt": "Assunto", "en": "Subject"},
        "set_description": {"pt": "Descrição", "en": "Description"},
        "set_expires": {"pt": "Expira em", "en": "Expires on"},
        "set_add": {"pt": "Adicionar memória", "en": "Add memory"},
        "set_expire": {"pt": "Expirar", "en": "Expire"},
        "set_expired": {"pt": "expirada", "en": "expired"},
        "set_provider": {"pt": "Provedor e modelos", "en": "Provider and models"},
        "set_key_set": {
            "pt": "Chave do Gemini configurada (não exibida).",
            "en": "Gemini key configured (not shown).",
        },
        "set_key_missing": {
            "pt": "Sem chave de API: o app usa o analista offline.",
            "en": "No API key: the app uses the offline analyst.",
        },
        # what only whoever runs the app acts on: shown on Settings, never in every sidebar
        "set_admin": {"pt": "Administração do app", "en": "Running the app"},
        "set_admin_key": {
            "pt": "Defina GEMINI_API_KEY para usar o Gemini.",
            "en": "Set GEMINI_API_KEY to use Gemini.",
        },
        "set_admin_auth": {
            "pt": "Login desligado: configure `[auth]` nos secrets para ativá-lo (docs/deploy.md).",
            "en": "Sign-in is off: configure `[auth]` in the secrets to turn it on "
            "(docs/deploy.md).",
        },
    },
)


def language() -> str:
    """The interface language: the one chosen in this browser session, else the one kept in
    the user's profile (read once per session and user), else Portuguese."""
    context = st.session_state.get(_CONTEXT)
    user = getattr(context, "user", None)
    fresh = user is not None and st.session_state.get(_KEY_USER) != str(user.id)
    if fresh and context.store is not None:  # with the database away, read it once back
        st.session_state[_KEY_USER] = str(user.id)
        from application import profile

        kept = profile.language(_workspace(context))
        if kept is not None:
            st.session_state[_KEY] = kept
    chosen = st.session_state.get(_KEY)
    return chosen if chosen in LANGUAGES else "pt"


def set_language(code: str) -> None:
    """Switch the interface language and keep it in the user's profile, so a new browser
    session opens in it; with the database away it holds for this session only."""
    chosen = code if code in LANGUAGES else "pt"
    st.session_state[_KEY] = chosen
    context = st.session_state.get(_CONTEXT)
    if context is None or context.store is None or context.user is None:
        return
    st.session_state[_KEY_USER] = str(context.user.id)
    # With the database away the choice holds for this session; the profile keeps the last.
    from application import profile
    from store import StoreError

    with contextlib.suppress(StoreError):
        profile.set_language(_workspace(context), chosen)


def _workspace(context: AppContext) -> Workspace:
    from application.workspace import Workspace

    return Workspace(context.store, context.user, context.outbox)


def date_format() -> str:
    """The ``format`` of ``st.date_input`` in the interface language: DD/MM/YYYY in
    Portuguese, YYYY-MM-DD in English."""
    return "DD/MM/YYYY" if language() == "pt" else "YYYY-MM-DD"


def day_format() -> str:
    """A day as ``strftime`` writes it in the interface language (15/06/2024, 2024-06-15)."""
    return "%d/%m/%Y" if language() == "pt" else "%Y-%m-%d"


def number(value: float | None, decimals: int = 1) -> str:
    """1234.5 as '1.234,5' in Portuguese and '1,234.5' in English; None or NaN as '—'."""
    from engine import formatting

    return formatting.number(value, decimals, language())


def language_name(code: str) -> str:
    """A language as it names itself ("Português (Brasil)", "English"), whatever the
    interface language: how a person finds theirs in the picker."""
    return TEXTS("language_name", code)


def t(key: str, **values: object) -> str:
    return TEXTS(key, language(), **values)


def tn(key: str, n: int, **values: object) -> str:
    """``t`` for a count: '1 execução' / '2 execuções' ('1 run' / '2 runs'). One takes the
    ``key + '_one'`` entry where there is one; the count reads in the language's notation."""
    one = f"{key}_one"
    return t(one if n == 1 and one in TEXTS else key, n=number(n, 0), **values)


def field_name(mapped: str | None) -> str:
    """A mapped field as a person reads it, in the interface language: "emissions_t_gas:CO2"
    is "Emissões CO2 (t)", None is "(não usada)". A field this table does not know is shown
    as the loader wrote it."""
    if not mapped:
        return t("map_unused")
    base, _, gas = mapped.partition(":")
    key = f"map_{base}_of" if gas else f"map_{base}"
    if key in TEXTS:
        return t(key, gas=gas) if gas else t(key)
    if f"map_{base}" in TEXTS:
        return f"{t(f'map_{base}')} ({gas})"
    return mapped
