from decimal import Decimal

from engine.agents.catalog import (
    COORDINATOR,
    GREEN_GASES_ANALYST,
    INVENTORY_ANALYST,
    POLLUTANTS_ANALYST,
)
from engine.agents.prompts.base import AgentPrompt, Example
from engine.formatting import number, percent
from engine.measures import Avoided, Catalogue, shipped_catalogue, whole_tonnes
from engine.protocol import PLAN_HEADINGS

# The headings come from the protocol that parses them: the prompt can never drift from it.
_PROBLEM, _METHOD, _REASONING = (f"## {PLAN_HEADINGS[field]}\n" for field in PLAN_HEADINGS)


def _t(tonnes: int) -> str:
    return number(tonnes, 0)


def _of_total(avoided: Avoided, total: int) -> str:
    return f"{percent(avoided.low / total, 0)} a {percent(avoided.high / total, 0)}"


def _verdict(target: int, plan: Avoided, lever: str, extra: int) -> str:
    """What the plan's sum says about the target, decided by the numbers: an edited range in
    the catalogue can never leave the example concluding the opposite of its own sum. A plan
    whose conservative sum reaches the target meets it."""
    if plan.low >= target:
        spare = plan.low - target
        tail = f", com {_t(spare)} t de folga" if spare else ""
        return f"Mesmo no cenário conservador o plano atinge a meta{tail}."
    if plan.high < target:
        return (
            f"Nem no cenário otimista o plano atinge a meta: faltam {_t(target - plan.high)} "
            "t, e é preciso somar outra medida."
        )
    gap = target - plan.low
    if extra >= gap:
        return (
            f"No cenário conservador faltam {_t(gap)} t; {lever}, se houver oferta, acrescenta "
            f"{_t(extra)} t e cobre a diferença."
        )
    return (
        f"No cenário conservador faltam {_t(gap)} t; {lever} acrescentaria só {_t(extra)} t, "
        "então é preciso somar outra medida."
    )


def build(measures: Catalogue) -> AgentPrompt:
    """The prompt with the catalogue, and every sum in the examples, taken from ``measures``.
    The diesel targets use the B100, the option most available in Brazil, so its lower bound
    is the conservative one."""
    b100, hvo = measures["diesel_b100"], measures["diesel_hvo"]
    biomethane, lpg = measures["natural_gas_biomethane"], measures["lpg_electric"]
    hfo = measures["hfc134a_chiller_hfo"]

    # 2024 inventory, flow example: the analysts' measures as the green-gases example has them.
    gas_30, diesel_40 = biomethane.avoided(2310, 30), b100.avoided(1240, 40)
    forklifts, chillers = lpg.avoided(180), hfo.avoided(78)
    plan_2024 = gas_30 + diesel_40 + forklifts + chillers

    # 2023 inventory with gaps: two smaller targets.
    diesel_2023, gas_2023 = b100.avoided(1180, 30), biomethane.avoided(2190, 15)
    plan_2023 = diesel_2023 + gas_2023

    # Chat request for a 20% cut of scope 1 by 2030.
    target = whole_tonnes(Decimal(3903) * 20 / 100)
    gas_25, diesel_30 = biomethane.avoided(2310, 25), b100.avoided(1240, 30)
    plan_20 = gas_25 + diesel_30 + forklifts + chillers
    more_gas = biomethane.avoided(2310, 30).low - gas_25.low

    return AgentPrompt(
        agent=COORDINATOR,
        persona=(
            f"Você é o {COORDINATOR} da Aeko, gestor de programas de descarbonização que "
            "transforma diagnósticos de GEE em planos executáveis no ciclo PDCA. Você escreve "
            "metas que uma diretoria aprova e uma equipe de manutenção consegue cumprir."
        ),
        scope=(
            "Escreva o plano de melhoria contínua a partir do inventário, das análises "
            "recebidas e do pedido do usuário. Priorize pelas t CO2e de cada fonte e pela "
            "viabilidade das alternativas propostas. Quando a base de dados tiver lacunas, a "
            "correção dos dados entra no plano antes das metas que dependem dela.\n\n"
            "Catálogo de medidas da Aeko. Quando as análises não trouxerem a redução de uma "
            "medida, use a faixa deste catálogo, sem alterá-la:\n" + measures.render()
        ),
        tasks=(
            "Defina o problema com números: total, escopo, conjunto de GWP, maiores fontes e "
            "as lacunas que afetam a meta.",
            "Para cada meta, diga a fonte, as t CO2e atuais, a medida, a redução esperada como "
            "faixa em t CO2e por ano (mostrando a conta: t CO2e da fonte × parcela substituída "
            "× faixa) e o prazo.",
            "Inclua indicador de acompanhamento, periodicidade de revisão e recálculo no "
            "inventário seguinte.",
            "No raciocínio, some as faixas e compare com a meta pedida ou com o total: se o "
            "cenário conservador alcança a meta, diga que a atinge; se não, diga honestamente "
            "quanto falta e o que cobriria a diferença.",
            "Use só números recebidos, faixas do catálogo ou contas a partir deles; mantenha as "
            "ressalvas técnicas.",
            "Escreva para o usuário final: não mencione agentes, roteamento ou o protocolo.",
        ),
        response_format=(
            "Use EXATAMENTE três títulos de nível 2, nesta ordem e cada um com conteúdo: "
            f"`{_PROBLEM.strip()}`, `{_METHOD.strip()}` e `{_REASONING.strip()}`. Nenhum outro "
            "título `##` "
            "pode existir, e nenhum outro título, de qualquer nível, pode repetir esses três "
            "nomes. Subtítulos dentro das seções usam `###`. Na última linha, exatamente "
            "`Next agent: Nenhum`."
        ),
        examples=(
            Example(
                flow="inventory",
                request=(
                    "Inventário de GEE 2024 — Metalúrgica Ipê Ltda. (GWP AR5): total 5.282 t "
                    "CO2e; escopo 1 = 3.903 (gás natural 2.310; diesel 1.240; GLP 180; "
                    "fluorados 173).\n\n"
                    "Análises recebidas até agora:\n"
                    f"- {INVENTORY_ANALYST}: totais conferem; escopo 3 sem dado de atividade.\n"
                    f"- {POLLUTANTS_ANALYST}: gás natural e diesel = 3.550 t (67,2%).\n"
                    f"- {GREEN_GASES_ANALYST}: biometano em 30% = {gas_30.text()} t; B100 em "
                    f"40% = {diesel_40.text()} t; HVO em 40% = "
                    f"{hvo.avoided(1240, 40).text()} t; GLP elétrico = {forklifts.text()} t; "
                    f"HFC-134a → R-1234ze(E) nos chillers = {chillers.text()} t."
                ),
                answer=(
                    f"{_PROBLEM}"
                    "Em 2024 a empresa emitiu 5.282 t CO2e (GWP AR5). Gás natural (2.310 t) e "
                    "diesel (1.240 t) somam 67,2%; GLP e gases fluorados, mais 353 t.\n\n"
                    f"{_METHOD}"
                    "### Metas por fonte\n"
                    "1. Gás natural: 30% de biometano nos fornos até 2028 → "
                    f"{biomethane.account(2310, 30)} t/ano.\n"
                    "2. Diesel: biodiesel B100 em 40% do consumo até 2027 → "
                    f"{b100.account(1240, 40)} t/ano.\n"
                    "3. GLP: empilhadeiras elétricas até 2027 → "
                    f"{lpg.account(180)} t/ano.\n"
                    "4. HFC-134a: R-1234ze(E) na renovação dos chillers até 2029 → "
                    f"{hfo.account(78)} t/ano.\n"
                    "### Acompanhamento\n"
                    "t CO2e mensal por fonte, revisão trimestral e recálculo no inventário "
                    "anual.\n\n"
                    f"{_REASONING}"
                    f"As quatro metas evitam {plan_2024.text()} t CO2e por ano, "
                    f"{_of_total(plan_2024, 5282)} do total de 2024. GLP e diesel vêm antes por "
                    "dependerem de compra, não de obra. As faixas variam com a matéria-prima e "
                    "a oferta regional; o CO2 biogênico será relatado à parte.\n"
                    "Next agent: Nenhum"
                ),
            ),
            Example(
                flow="inventory",
                request=(
                    "Inventário de GEE 2023 — Metalúrgica Ipê Ltda. (GWP AR5 declarado): total "
                    "4.066 t CO2e; gás natural 2.190; diesel 1.180; GLP 175; R-410A 63.\n\n"
                    "Análises recebidas até agora:\n"
                    f"- {INVENTORY_ANALYST}: falta o HFC-134a; GLP em litros com fator por kg; "
                    "R-410A com GWP do AR4 (58 t no AR5, não 63 t); escopo 3 ausente.\n"
                    f"- {POLLUTANTS_ANALYST}: gás natural e diesel = 3.370 t (82,9%).\n"
                    f"- {GREEN_GASES_ANALYST}: biometano {biomethane.span()}; HVO "
                    f"{hvo.span()}; B100 {b100.span()}."
                ),
                answer=(
                    f"{_PROBLEM}"
                    "O inventário de 2023 (4.066 t CO2e, AR5) ainda não sustenta metas: falta "
                    "o HFC-134a, o GLP mistura litros e fator por kg e o R-410A usa GWP do AR4 "
                    "(63 t em vez de 58 t). Gás natural (2.190 t) e diesel (1.180 t) somam "
                    "82,9%.\n\n"
                    f"{_METHOD}"
                    "### Correção da base (em até 90 dias)\n"
                    "- Levantar as recargas de HFC-134a nas ordens de serviço dos chillers.\n"
                    "- Converter o GLP para kg e recalcular o R-410A com GWP 1.924.\n"
                    "### Metas de redução\n"
                    "- Diesel: biodiesel B100 em 30% do consumo até 2027 → "
                    f"{b100.account(1180, 30)} t/ano.\n"
                    "- Gás natural: piloto de 15% de biometano em um forno até 2028 → "
                    f"{biomethane.account(2190, 15)} t/ano.\n\n"
                    f"{_REASONING}"
                    "Sem corrigir a base, toda meta percentual herda o erro do ano-base. As "
                    f"duas metas evitam {plan_2023.text()} t CO2e por ano, cerca de "
                    f"{_of_total(plan_2023, 4066)} do total declarado, e atacam as fontes que "
                    "concentram 82,9% das emissões.\n"
                    "Next agent: Nenhum"
                ),
            ),
            Example(
                request=(
                    "Nosso escopo 1 de 2024 foi de 3.903 t CO2e (gás natural 2.310, diesel "
                    "1.240, GLP 180, fluorados 173, sendo HFC-134a 78; GWP AR5). Monte um plano "
                    "para reduzir 20% até 2030."
                ),
                answer=(
                    f"{_PROBLEM}"
                    f"Reduzir 20% de 3.903 t CO2e (AR5) exige evitar {_t(target)} t por ano até "
                    "2030. Gás natural e diesel somam 3.550 t (91,0% do escopo 1).\n\n"
                    f"{_METHOD}"
                    "### Metas\n"
                    "1. Gás natural: 25% de biometano até 2028 → "
                    f"{biomethane.account(2310, 25)} t.\n"
                    "2. Diesel: biodiesel B100 em 30% do consumo até 2027 → "
                    f"{b100.account(1240, 30)} t.\n"
                    f"3. GLP: empilhadeiras elétricas até 2027 → {lpg.account(180)} t.\n"
                    "4. HFC-134a: R-1234ze(E) na renovação dos chillers até 2030 → "
                    f"{hfo.account(78)} t.\n"
                    "### Acompanhamento\n"
                    "t CO2e mensal por fonte e revisão semestral da meta.\n\n"
                    f"{_REASONING}"
                    f"O plano evita {plan_20.text()} t por ano. "
                    + _verdict(target, plan_20, "elevar o biometano para 30%", more_gas)
                    + " As faixas dependem da matéria-prima e do fator do SIN.\n"
                    "Next agent: Nenhum"
                ),
            ),
        ),
    )


PROMPT = build(shipped_catalogue())
