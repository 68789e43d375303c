"""Drafts as a capable model writes them, on a small inventory whose figures are worked out
here from its rows, never read back from the engine (issue #22, point 4).

Each chat case is a question, the draft the orchestrator writes, the calculator expression an
analyst ran first (if any), and the invented figure as the draft writes it (None: every figure
of the draft is correct). Each plan case is a sentence put in the plan's problem section, with
the report context the analyzer was given (previous report, targets).
"""

from __future__ import annotations

from dataclasses import dataclass

# (facility, scope, source, fuel, gas, t CO2e)
ROWS = (
    ("Fábrica Campinas", 1, "Caldeira", "Gás natural", "CO2", 8120.5),
    ("Fábrica Campinas", 1, "Frota", "Óleo diesel", "CO2", 1310.0),
    ("Fábrica Campinas", 2, "Eletricidade", "—", "CO2", 965.5),
    ("Fábrica Recife", 1, "Caldeira", "Gás natural", "CO2", 1452.0),
    ("Fábrica Recife", 1, "Chiller", "—", "HFC-134a", 87.5),
    ("Fábrica Recife", 2, "Eletricidade", "—", "CO2", 464.5),
)
MARKDOWN = "| Unidade | Escopo | Fonte | Combustível | Gás | Emissões (t CO2e) |\n" + (
    "|---|---|---|---|---|---|\n"
    + "".join(
        f"| {f} | {s} | {src} | {fuel} | {gas} | {str(t).replace('.', ',')} |\n"
        for f, s, src, fuel, gas, t in ROWS
    )
)


def _sum(**where: object) -> float:
    keys = ("facility", "scope", "source", "fuel", "gas")
    return sum(
        row[5]
        for row in ROWS
        if all(row[keys.index(k)] == v for k, v in where.items())  # type: ignore[operator]
    )


CAMPINAS_BOILER, FLEET, CAMPINAS_POWER, RECIFE_BOILER, CHILLER, RECIFE_POWER = (r[5] for r in ROWS)
TOTAL = _sum()  # 12,400.0
SCOPE_1 = _sum(scope=1)  # 10,970.0
SCOPE_2 = _sum(scope=2)  # 1,430.0
CAMPINAS = _sum(facility="Fábrica Campinas")  # 10,396.0
RECIFE = _sum(facility="Fábrica Recife")  # 2,004.0
CAMPINAS_S1 = _sum(facility="Fábrica Campinas", scope=1)  # 9,430.5
RECIFE_S1 = _sum(facility="Fábrica Recife", scope=1)  # 1,539.5
BOILERS = _sum(source="Caldeira")  # 9,572.5
SBCE_MONITORING = 10_000.0  # Lei 15.042/2024: monitoring plan and annual report above this


def br(value: float, decimals: int = 1) -> str:
    """9.430,5: how a Portuguese draft writes a number."""
    return f"{value:,.{decimals}f}".replace(",", "X").replace(".", ",").replace("X", ".")


def us(value: float, decimals: int = 1) -> str:
    return f"{value:,.{decimals}f}"


@dataclass(frozen=True)
class ChatDraft:
    lang: str
    question: str
    draft: str
    invented: str | None  # the made-up figure as written; None: a correct draft
    why: str
    calculation: str | None = None  # the expression an analyst gave the calculator


@dataclass(frozen=True)
class PlanDraft:
    lang: str
    problem: str  # the plan's "Problema definido" section
    invented: str | None
    why: str
    context: str = ""  # the report context the analyzer was given
    calculation: str | None = None  # the expression the coordinator gave the calculator


# fmt: off
CHAT_CORRECT: tuple[ChatDraft, ...] = (
    ChatDraft("pt", "Quanto a Fábrica Campinas emite no escopo 1?",
              f"O escopo 1 da Fábrica Campinas soma {br(CAMPINAS_S1)} t CO2e: caldeira "
              f"{br(CAMPINAS_BOILER)} t e frota {br(FLEET)} t.",
              None, "sum of two rows"),
    ChatDraft("en", "What is Recife's Scope 1?",
              f"Recife's Scope 1 is {us(RECIFE_S1)} t CO2e (boiler {us(RECIFE_BOILER)} t plus "
              f"chiller {us(CHILLER)} t).",
              None, "per-facility scope figure: sum of two rows"),
    ChatDraft("pt", "Quanto as caldeiras emitem juntas?",
              f"As duas caldeiras a gás natural somam {br(BOILERS)} t CO2e.",
              None, "sum of two rows"),
    ChatDraft("en", "How much does the Campinas boiler weigh in Scope 1?",
              f"The Campinas boiler is {us(100 * CAMPINAS_BOILER / SCOPE_1)}% of Scope 1 "
              f"({us(CAMPINAS_BOILER)} of {us(SCOPE_1)} t CO2e).",
              None, "a row's share of a scope, one decimal (74.0%)"),
    ChatDraft("pt", "Qual o peso da caldeira de Campinas no escopo 1?",
              f"A caldeira de Campinas concentra cerca de {100 * CAMPINAS_BOILER / SCOPE_1:.0f}% "
              "do escopo 1.",
              None, "a row's share of a scope, whole percent (74%)"),
    ChatDraft("pt", "Quanto da emissão de Campinas vem da caldeira?",
              f"A caldeira responde por {br(100 * CAMPINAS_BOILER / CAMPINAS)}% das emissões da "
              "Fábrica Campinas.",
              None, "a row's share of a facility (78.1%)"),
    ChatDraft("en", "How is Scope 2 split between the plants?",
              f"Campinas holds {us(100 * CAMPINAS_POWER / SCOPE_2)}% of Scope 2 "
              f"({us(CAMPINAS_POWER)} of {us(SCOPE_2)} t CO2e).",
              None, "a row's share of a scope (67.5%)"),
    ChatDraft("pt", "Quanto o chiller pesa em Recife?",
              f"O chiller de HFC-134a é {br(100 * CHILLER / RECIFE)}% das emissões de Recife.",
              None, "a small row's share of a facility (4.4%)"),
    ChatDraft("en", "How much more does Campinas emit than Recife?",
              f"Campinas emits {us(CAMPINAS - RECIFE, 0)} t CO2e more than Recife "
              f"({us(CAMPINAS)} vs {us(RECIFE)} t CO2e).",
              None, "difference between facilities"),
    ChatDraft("pt", "Quanto o escopo 1 supera o escopo 2?",
              f"O escopo 1 supera o escopo 2 em {br(SCOPE_1 - SCOPE_2, 0)} t CO2e.",
              None, "difference between scopes"),
    ChatDraft("pt", "Quanto emitimos no total?",
              f"Cerca de {TOTAL / 1000:.0f} mil t CO2e no total.",
              None, "rounding: 'cerca de 12 mil t' for 12.400"),
    ChatDraft("en", "Roughly, what is our Scope 1?",
              f"About {SCOPE_1 / 1000:.0f} thousand t CO2e.",
              None, "rounding: 'about 11 thousand t' for 10,970"),
    ChatDraft("pt", "Quanto é o escopo 1 de Campinas, em ordem de grandeza?",
              f"Perto de {br(CAMPINAS_S1 / 1000, 1)} mil t CO2e.",
              None, "rounding of a facility's scope: '9,4 mil t' for 9.430,5"),
    ChatDraft("pt", "Nossa meta é reduzir 42% do escopo 1 até 2030. Quanto isso representa?",
              f"Reduzir 42% do escopo 1 ({br(SCOPE_1)} t CO2e) até 2030 significa cortar cerca "
              f"de {br(0.42 * SCOPE_1, 0)} t CO2e, ficando em {br(0.58 * SCOPE_1, 0)} t CO2e.",
              None, "a target from the question applied to Scope 1, and what is left"),
    ChatDraft("en", "We aim to cut Scope 2 by 50% by 2028 with I-RECs. How much is that?",
              f"Halving Scope 2 means covering {us(0.5 * SCOPE_2, 0)} t CO2e of the "
              f"{us(SCOPE_2)} t by 2028.",
              None, "a target from the question applied to Scope 2"),
    ChatDraft("en", "If we replace 30% of the fleet's diesel with B100, what share of the fleet "
              "emissions is that?",
              f"Replacing 30% of the diesel addresses about {us(0.3 * FLEET, 0)} t CO2e of the "
              f"fleet's {us(FLEET)} t.",
              None, "a percentage from the question applied to a row"),
    ChatDraft("pt", "Quantas vezes Campinas emite mais que Recife?",
              f"Campinas emite cerca de {br(CAMPINAS / RECIFE)} vezes o que Recife emite.",
              None, "a ratio between facilities (5.2)"),
    ChatDraft("en", "How does Scope 1 compare with Scope 2?",
              f"Scope 1 is {us(SCOPE_1 / SCOPE_2)} times Scope 2.",
              None, "a ratio between scopes (7.7)"),
    ChatDraft("en", "We produced 52,000 t of product. What is our Scope 1 intensity?",
              f"Scope 1 intensity: {us(SCOPE_1, 0)} t CO2e / 52,000 t = "
              f"{SCOPE_1 / 52_000:.3f} t CO2e per tonne of product.",
              None, "an intensity per unit of output given in the question"),
    ChatDraft("pt", "O total do ano passado foi 13.100 t CO2e. Quanto caímos?",
              f"O total caiu de 13.100 para {br(TOTAL)} t CO2e: {br(13_100 - TOTAL, 0)} t a "
              f"menos, uma queda de {br(100 * (13_100 - TOTAL) / 13_100)}%.",
              None, "a change from a previous year the question gives, in t and in %"),
    ChatDraft("pt", "O relato de 2025 vence no fim de agosto. Que data ponho no cronograma?",
              f"Ponha 31/08/2025 no cronograma, com o escopo 1 de {br(SCOPE_1)} t CO2e.",
              None, "a dd/mm/yyyy date whose year the question states"),
    ChatDraft("en", "Which share of the total is Scope 2?",
              f"Scope 2 is {us(100 * SCOPE_2 / TOTAL)}% of the total ({us(SCOPE_2)} of "
              f"{us(TOTAL)} t CO2e).",
              None, "a scope's share of the total"),
    ChatDraft("pt", "Quanto falta para Campinas chegar ao limite de 10.000 t do SBCE?",
              f"Campinas tem {br(CAMPINAS_S1)} t CO2e de escopo 1; faltam "
              f"{br(SBCE_MONITORING - CAMPINAS_S1)} t CO2e para o limite de 10.000 t.",
              None, "a threshold from the question minus a figure read"),
    ChatDraft("pt", "Se zerássemos o chiller e trocássemos metade do diesel, quanto ficaria o "
              "escopo 1?",
              f"O escopo 1 ficaria em {br(SCOPE_1 - CHILLER - FLEET / 2)} t CO2e.",
              None, "a multi-step figure from the calculator",
              calculation="10970 - 87.5 - 1310 * 0.5"),
    ChatDraft("en", "What would the total be if Campinas cut its boiler by 25% and Recife by "
              "10%?",
              f"The total would fall to "
              f"{us(TOTAL - 0.25 * CAMPINAS_BOILER - 0.10 * RECIFE_BOILER)} t CO2e.",
              None, "a multi-step figure from the calculator",
              calculation="12400 - 8120.5 * 0.25 - 1452 * 0.10"),
    ChatDraft("pt", "Qual a participação das caldeiras no escopo 1?",
              f"As caldeiras a gás natural são {br(100 * BOILERS / SCOPE_1)}% do escopo 1.",
              None, "a share of a sum: two steps, from the calculator",
              calculation="(8120.5 + 1452) / 10970 * 100"),
)

CHAT_INVENTED: tuple[ChatDraft, ...] = (
    ChatDraft("pt", "Quanto a Fábrica Campinas emite no escopo 1?",
              f"O escopo 1 da Fábrica Campinas soma {br(CAMPINAS_S1 + 100)} t CO2e.",
              br(CAMPINAS_S1 + 100), "a wrong sum (off by 100)"),
    ChatDraft("en", "What is Recife's Scope 1?",
              f"Recife's Scope 1 is {us(RECIFE_S1 + 12)} t CO2e.",
              us(RECIFE_S1 + 12), "a wrong sum (off by 12)"),
    ChatDraft("en", "Which factor did you use for natural gas?",
              "The boilers burn natural gas at 2.31 kg CO2 per m³.",
              "2.31", "a made-up emission factor"),
    ChatDraft("pt", "Qual o fator da eletricidade?",
              "A eletricidade usa o fator do SIN de 0,0731 t CO2/MWh.",
              "0,0731", "a made-up grid factor"),
    ChatDraft("pt", "Qual o GWP do gás do chiller?",
              "O HFC-134a do chiller tem GWP de 1.720.",
              "1.720", "a made-up GWP"),
    ChatDraft("pt", "Quanto custa trocar o gás natural por biometano?",
              "A troca para biometano custaria cerca de R$ 4,8 milhões por ano.",
              "4,8 milhões", "an invented R$ cost"),
    ChatDraft("en", "What would a carbon price cost us?",
              f"At R$ 85 per tonne, Scope 1 would cost R$ {us(85 * SCOPE_1, 0)} a year.",
              "85", "an invented carbon price (R$)"),
    ChatDraft("pt", "Quanto custa o retrofit do chiller?",
              "O retrofit do chiller exige capex de R$ 1,2 milhão.",
              "1,2 milhão", "an invented capex"),
    ChatDraft("en", "What does abatement cost?",
              "Biomethane abates at R$ 230 per tonne of CO2e.",
              "230", "an invented cost per tonne"),
    ChatDraft("en", "How did we do against last year?",
              f"Emissions fell to {us(TOTAL)} t CO2e, down from 13,250 t CO2e last year.",
              "13,250", "a fabricated previous-year figure"),
    ChatDraft("pt", "E o escopo 2 no ano anterior?",
              f"O escopo 2 caiu de 1.612,3 t no ano anterior para {br(SCOPE_2)} t CO2e.",
              "1.612,3", "a fabricated previous-year figure"),
    ChatDraft("pt", "Como estamos em relação ao ano passado?",
              f"O total de {br(TOTAL)} t CO2e representa uma alta de 8,3% sobre o ano anterior.",
              "8,3", "a fabricated year-on-year change"),
    ChatDraft("pt", "Quanto o gás natural pesa no total?",
              "O gás natural responde por 81% das emissões.",
              "81", "a percentage that is no share (77.2%)"),
    ChatDraft("en", "What share of the total is Recife?",
              "Recife is 21.4% of the total.",
              "21.4", "a percentage that is no share (16.2%)"),
    ChatDraft("pt", "Quanto emitimos no total?",
              "Cerca de 20 mil t CO2e.",
              "20 mil", "a rounding too coarse (12.400 is not 'cerca de 20 mil')"),
    ChatDraft("pt", "Quanto é o escopo 1, em ordem de grandeza?",
              "Perto de 9 mil t CO2e no escopo 1.",
              "9 mil", "a wrong rounding (10.970 is not '9 mil')"),
    ChatDraft("en", "What is our market-based Scope 2?",
              "Market-based Scope 2 is 612.0 t CO2e.",
              "612.0", "a Scope 2 market figure the inventory does not hold"),
    ChatDraft("en", "How much does the Campinas boiler emit?",
              f"The Campinas boiler emits {us(8210.5)} t CO2e.",
              us(8210.5), "a transposed digit (8,120.5)"),
    ChatDraft("pt", "Quanto Recife emite?",
              "A Fábrica Recife emite 2.040,0 t CO2e.",
              "2.040,0", "a transposed digit (2.004,0)"),
    ChatDraft("en", "How much more does Campinas emit than Recife?",
              f"Campinas emits {us(CAMPINAS - RECIFE + 100, 0)} t CO2e more than Recife.",
              us(CAMPINAS - RECIFE + 100, 0), "a wrong difference"),
    ChatDraft("pt", "Quanto diesel a frota consome?",
              "A frota queimou 498.000 litros de diesel.",
              "498.000", "invented activity data"),
    ChatDraft("en", "What is our Scope 1 intensity?",
              "Scope 1 intensity is 0.35 t CO2e per tonne produced.",
              "0.35", "an intensity with no production figure given"),
    ChatDraft("pt", "Qual é a nossa meta?",
              "A meta corporativa é reduzir 35% do escopo 1.",
              "35", "a target nobody stated"),
)

PLAN_CONTEXT_TARGET = "Meta aprovada pela diretoria: reduzir 42% do escopo 1 até 2030."
PLAN_CONTEXT_PREVIOUS = "Relatório 2024: total de 13.100 t CO2e."

PLAN_CORRECT: tuple[PlanDraft, ...] = (
    PlanDraft("pt", f"O escopo 1 soma {br(SCOPE_1)} t CO2e, {br(100 * SCOPE_1 / TOTAL)}% do "
              "total.", None, "figures read"),
    PlanDraft("pt", f"As duas caldeiras a gás natural emitem {br(BOILERS)} t CO2e.",
              None, "sum of two rows"),
    PlanDraft("pt", f"As caldeiras a gás natural concentram {100 * BOILERS / SCOPE_1:.0f}% do "
              "escopo 1.", None, "share of a sum in a scope, as issue #22 quotes it (87%)"),
    PlanDraft("en", f"Campinas' Scope 1 is {us(CAMPINAS_S1)} t CO2e: boiler plus fleet.",
              None, "sum of two rows"),
    PlanDraft("pt", f"A caldeira de Campinas é {br(100 * CAMPINAS_BOILER / SCOPE_1)}% do "
              "escopo 1.", None, "a row's share of a scope"),
    PlanDraft("en", f"The fleet is {us(100 * FLEET / SCOPE_1)}% of Scope 1.",
              None, "a row's share of a scope (11.9%)"),
    PlanDraft("pt", f"O inventário soma cerca de {TOTAL / 1000:.0f} mil t CO2e.",
              None, "rounding"),
    PlanDraft("en", f"Campinas emits {us(CAMPINAS - RECIFE, 0)} t CO2e more than Recife.",
              None, "difference between facilities"),
    PlanDraft("pt", f"Campinas emite {br(CAMPINAS / RECIFE)} vezes o que Recife emite.",
              None, "ratio between facilities"),
    PlanDraft("pt", f"A meta de reduzir 42% do escopo 1 até 2030 pede cortar "
              f"{br(0.42 * SCOPE_1, 0)} t CO2e.", None, "target from the context applied",
              context=PLAN_CONTEXT_TARGET),
    PlanDraft("en", f"The 42% target leaves Scope 1 at {us(0.58 * SCOPE_1, 0)} t CO2e in 2030.",
              None, "what is left after a target from the context",
              context=PLAN_CONTEXT_TARGET),
    PlanDraft("pt", f"O total caiu de 13.100 t em 2024 para {br(TOTAL)} t CO2e, "
              f"{br(13_100 - TOTAL, 0)} t a menos.", None,
              "change from the previous report in the context", context=PLAN_CONTEXT_PREVIOUS),
    PlanDraft("en", f"Total emissions fell {us(100 * (13_100 - TOTAL) / 13_100)}% from the 2024 "
              "report.", None, "change in % from the previous report",
              context=PLAN_CONTEXT_PREVIOUS),
    PlanDraft("pt", f"Campinas está a {br(SBCE_MONITORING - CAMPINAS_S1)} t CO2e do limite de "
              "10.000 t do SBCE.", None, "threshold minus a sum (the SBCE lines the plan reads)"),
    PlanDraft("en", f"Recife's Scope 1 is {us(RECIFE_S1)} t CO2e, far below 10,000 t.",
              None, "per-facility scope"),
    PlanDraft("pt", f"A eletricidade de Campinas é {br(100 * CAMPINAS_POWER / SCOPE_2)}% do "
              "escopo 2.", None, "a row's share of a scope"),
    PlanDraft("en", f"The chiller's HFC-134a is {us(100 * CHILLER / RECIFE)}% of Recife's "
              "emissions.", None, "small row's share of a facility"),
    PlanDraft("pt", f"O escopo 1 é {br(SCOPE_1 / SCOPE_2)} vezes o escopo 2.",
              None, "ratio between scopes"),
    PlanDraft("en", f"Scope 1 exceeds Scope 2 by {us(SCOPE_1 - SCOPE_2, 0)} t CO2e.",
              None, "difference between scopes"),
    PlanDraft("pt", f"Campinas responde por {br(100 * CAMPINAS / TOTAL)}% do total, cerca de "
              f"{CAMPINAS / 1000:.0f} mil t CO2e.", None, "share read and a rounding"),
    PlanDraft("en", f"Half of the fleet's diesel is {us(FLEET / 2, 0)} t CO2e.",
              None, "a half of a row"),
    PlanDraft("pt", f"As caldeiras a gás natural são {br(100 * BOILERS / SCOPE_1)}% do escopo 1.",
              None, "a share of a sum: two steps, from the calculator",
              calculation="(8120.5 + 1452) / 10970 * 100"),
    PlanDraft("en", f"Without the chiller and with half the diesel replaced, Scope 1 would be "
              f"{us(SCOPE_1 - CHILLER - FLEET / 2)} t CO2e.",
              None, "a multi-step figure from the calculator",
              calculation="10970 - 87.5 - 1310 * 0.5"),
)

PLAN_INVENTED: tuple[PlanDraft, ...] = (
    PlanDraft("pt", f"As duas caldeiras emitem {br(BOILERS + 100)} t CO2e.",
              br(BOILERS + 100), "a wrong sum"),
    PlanDraft("en", f"Campinas' Scope 1 is {us(CAMPINAS_S1 - 40)} t CO2e.",
              us(CAMPINAS_S1 - 40), "a wrong sum"),
    PlanDraft("pt", "O gás natural das caldeiras emite 2,31 kg CO2 por m³.",
              "2,31", "a made-up emission factor"),
    PlanDraft("en", "The HFC-134a in the chiller has a GWP of 1,720.",
              "1,720", "a made-up GWP"),
    PlanDraft("pt", "O biometano custaria R$ 4,8 milhões por ano.",
              "4,8 milhões", "an invented R$ cost"),
    PlanDraft("en", "The chiller retrofit needs a capex of R$ 1.2 million.",
              "1.2 million", "an invented capex"),
    PlanDraft("pt", "O abatimento custa R$ 230 por tonelada.",
              "230", "an invented cost per tonne"),
    PlanDraft("en", "A carbon price of R$ 85 per tonne would weigh on Scope 1.",
              "85", "an invented carbon price"),
    PlanDraft("pt", "O total caiu de 13.250 t CO2e no ano anterior.",
              "13.250", "a fabricated previous-year figure"),
    PlanDraft("en", "Scope 2 was 1,612.3 t CO2e in the previous year.",
              "1,612.3", "a fabricated previous-year figure"),
    PlanDraft("pt", "O total subiu 8,3% sobre o ano anterior.",
              "8,3", "a fabricated change"),
    PlanDraft("pt", "O gás natural responde por 81% das emissões.",
              "81", "a percentage that is no share"),
    PlanDraft("en", "Recife is 21.4% of the total.",
              "21.4", "a percentage that is no share"),
    PlanDraft("pt", "O inventário soma cerca de 20 mil t CO2e.",
              "20 mil", "a rounding too coarse"),
    PlanDraft("en", "Market-based Scope 2 is 612.0 t CO2e.",
              "612.0", "a Scope 2 market figure the inventory does not hold"),
    PlanDraft("pt", "A caldeira de Campinas emite 8.210,5 t CO2e.",
              "8.210,5", "a transposed digit"),
    PlanDraft("en", "Recife emits 2,040.0 t CO2e.",
              "2,040.0", "a transposed digit"),
    PlanDraft("pt", "A frota queimou 498.000 litros de diesel.",
              "498.000", "invented activity data"),
    PlanDraft("en", "The corporate target is to cut Scope 1 by 35%.",
              "35", "a target nobody stated"),
    PlanDraft("pt", f"Campinas emite {br(CAMPINAS - RECIFE + 100, 0)} t CO2e a mais que Recife.",
              br(CAMPINAS - RECIFE + 100, 0), "a wrong difference"),
    PlanDraft("en", "Scope 1 intensity is 0.35 t CO2e per tonne produced.",
              "0.35", "an intensity with no production figure given"),
)
# fmt: on
