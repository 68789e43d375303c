"""The texts of a plan's computed actions, in Portuguese and English.

What the plan's coordinator (a model or the offline analyst) reads and quotes, and what the
exports print: plain Markdown, no HTML or links, every number taken from the PlanActions
(or a sum or difference of its figures) and formatted by ``engine.formatting``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from engine.actions.model import Action, Installation, PlanActions, RowRef, Target
from engine.actions.sbce import ALLOWANCES_T, MONITORING_T, SOURCE, UNASSIGNED
from engine.actions.targets import counts_on_target, counts_on_total
from engine.formatting import number, percent

Lang = Literal["pt", "en"]

_T = 1  # decimals for tonnes
_BRL = 0  # decimals for reais

_WORDS: dict[Lang, dict[str, str]] = {
    "pt": {
        "header": "| Medida | Linhas do inventário (fonte · unidade · gás) | Escopo "
        "| Linha de base (t CO2e) | Redução (t CO2e/ano) | Capex (R$) | Δ Opex (R$/ano) "
        "| R$/t CO2e | Payback | Prazo | KPI |",
        "no_actions": "Nenhuma ação proposta para este inventário.",
        "note": "Δ Opex negativo é economia; R$/t CO2e é o custo anualizado (capex e opex) por "
        "tonelada da redução média.",
        "unknown": "custo desconhecido",
        "no_payback": "sem retorno financeiro",
        "years": "{n} anos",
        "year": "{n} ano",
        "market": "mercado",
        "row": "linha {row}",
        "more_rows": "e mais {n} fontes",
        "by_path": "{year} (trajetória)",
        "by_lead": "{year} (trajetória exige desde {needed}; implantação de {lead})",
        "not_needed": "— (a meta não a exige)",
        "too_late": "— (não fica pronta até {year}: implantação de {lead})",
        "off_total": "— (não muda o total, que usa o Escopo 2 por localização)",
        "off_scope3": "— (Escopo 3: fora da meta dos Escopos 1 e 2)",
        "off_market": "— (Escopo 2 por localização: a meta usa o Escopo 2 por mercado)",
    },
    "en": {
        "header": "| Measure | Inventory rows (source · facility · gas) | Scope "
        "| Baseline (t CO2e) | Reduction (t CO2e/yr) | Capex (R$) | Δ Opex (R$/yr) "
        "| R$/t CO2e | Payback | Deadline | KPI |",
        "no_actions": "No actions proposed for this inventory.",
        "note": "A negative Δ Opex is a saving; R$/t CO2e is the annualised cost (capex and "
        "opex) per tonne of the mid reduction.",
        "unknown": "cost unknown",
        "no_payback": "no financial payback",
        "years": "{n} years",
        "year": "{n} year",
        "market": "market",
        "row": "row {row}",
        "more_rows": "and {n} more sources",
        "by_path": "{year} (path)",
        "by_lead": "{year} (path needs it from {needed}; lead time {lead})",
        "not_needed": "— (not needed for the target)",
        "too_late": "— (cannot be in place by {year}: lead time {lead})",
        "off_total": "— (does not change the total, which uses location-based Scope 2)",
        "off_scope3": "— (Scope 3: outside the Scopes 1 and 2 target)",
        "off_market": "— (location-based Scope 2: the target uses market-based Scope 2)",
    },
}


def _lang(lang: str) -> Lang:
    return "en" if lang.lower().startswith("en") else "pt"


def _t(value: float, lang: Lang) -> str:
    return number(value, _T, lang)


def _range(low: float, high: float, lang: Lang) -> str:
    """'low–high', or one figure when both round alike."""
    low_text, high_text = _t(low, lang), _t(high, lang)
    return low_text if low_text == high_text else f"{low_text}–{high_text}"


def _cell(text: str) -> str:
    # A pipe or a line break inside a cell would break the Markdown table.
    return " ".join(text.replace("|", "/").split())


def _years(n: float | int, lang: Lang, decimals: int = 0) -> str:
    words = _WORDS[lang]
    shown = number(n, decimals, lang)
    return (words["year"] if shown == "1" else words["years"]).format(n=shown)


# --- the table of actions ------------------------------------------------------------------


def actions_table(plan_actions: PlanActions, lang: str = "pt") -> str:
    """One Markdown row per action: what it does, on which rows, what it cuts and costs,
    by when, and how its progress is measured."""
    language = _lang(lang)
    words = _WORDS[language]
    if not plan_actions.actions:
        return words["no_actions"]
    lines = [words["header"], "|" + " --- |" * 11]
    for action in plan_actions.actions:
        cells = [
            action.measure.get(language, action.measure_id),
            _rows_text(action.rows, language),
            _scope_text(action, language),
            _t(action.baseline_tco2e, language),
            _range(action.reduction_low_tco2e, action.reduction_high_tco2e, language),
            _money(action.capex_brl, language),
            _money(action.opex_delta_brl_yr, language),
            _money(action.cost_per_t_brl, language),
            _payback(action, language),
            _deadline(action, plan_actions, language),
            action.kpi.get(language, ""),
        ]
        lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return "\n".join(lines) + "\n\n" + words["note"]


_ROWS_SHOWN = 4


def _rows_text(rows: Sequence[RowRef], lang: Lang) -> str:
    """Rows of one source and facility share an entry, their gases listed together."""
    grouped: dict[tuple[str, str], list[str]] = {}
    for ref in rows:
        source = ref.source or f"{ref.sheet}, {_WORDS[lang]['row'].format(row=ref.row)}"
        gases = grouped.setdefault((source, ref.facility), [])
        if ref.gas and ref.gas not in gases:
            gases.append(ref.gas)
    entries = []
    for (source, facility), gases in grouped.items():
        parts = [source, facility, ", ".join(gases)]
        entries.append(" · ".join(p for p in parts if p))
    if len(entries) > _ROWS_SHOWN:
        # A measure on a hundred rows would make the table unreadable and the coordinator's
        # request unbounded; the rows themselves stay on the action.
        more = _WORDS[lang]["more_rows"].format(n=len(entries) - _ROWS_SHOWN)
        return "; ".join(entries[:_ROWS_SHOWN]) + f"; {more}"
    return "; ".join(entries)


def _scope_text(action: Action, lang: Lang) -> str:
    if action.scope == 2 and action.scope2_method == "market":
        return f"2 ({_WORDS[lang]['market']})"
    return str(action.scope)


def _money(value: float | None, lang: Lang) -> str:
    return _WORDS[lang]["unknown"] if value is None else number(value, _BRL, lang)


def _payback(action: Action, lang: Lang) -> str:
    if action.payback_years is not None:
        return _years(action.payback_years, lang, 1)
    if action.capex_brl is None or action.opex_delta_brl_yr is None:
        return _WORDS[lang]["unknown"]
    return _WORDS[lang]["no_payback"]


def _deadline(action: Action, plan: PlanActions, lang: Lang) -> str:
    """The year and its basis: the path year that needs the action, or its lead time."""
    words = _WORDS[lang]
    lead = _years(action.lead_time_years, lang)
    if action.deadline is not None:
        if plan.target is None:
            return str(action.deadline)
        if action.needed_year is not None and action.needed_year < action.deadline:
            return words["by_lead"].format(
                year=action.deadline, needed=action.needed_year, lead=lead
            )
        return words["by_path"].format(year=action.deadline)
    if plan.target is None:
        return "—"
    if not counts_on_target(action, plan.target):
        return words[_off_target(action)]
    if action.needed_year is not None:
        return words["too_late"].format(year=plan.target.year, lead=lead)
    return words["not_needed"]


def _off_target(action: Action) -> str:
    """Why an action does not count on its plan's target: the key of its reason."""
    if action.scope == 3:
        return "off_scope3"
    return "off_total" if not counts_on_total(action) else "off_market"


# --- the target and its path ---------------------------------------------------------------

_PATH: dict[Lang, dict[str, str]] = {
    "pt": {
        "none": "Nenhuma meta de redução definida.",
        "target": "**Meta** ({coverage}): reduzir {pct} das emissões de {base_year} ({base} t "
        "CO2e) até {year}, ou seja, emitir no máximo {final} t CO2e em {year}, em linha reta "
        "desde {base_year} ({step} t CO2e a menos por ano).",
        "coverage": "Escopos 1 e 2, com o Escopo 2 por {method}",
        "coverage_all": "Escopos 1, 2 e 3, com o Escopo 2 por {method}",
        "location": "localização",
        "market": "mercado",
        "scope3_apart": "O Escopo 3 fica fora desta meta e é tratado à parte: suas ações não "
        "contam na trajetória, e o que uma ação acrescenta a ele (a transportadora de uma "
        "transferência modal) também não.",
        "market_chosen": "Meta no Escopo 2 por mercado, por escolha do usuário; o Escopo 2 "
        "por localização continua relatado à parte, e os dois nunca se somam.",
        "start": "As ações começam em {start}; cada uma entra em vigor no primeiro ano em que "
        "a trajetória a exige, nunca antes do seu prazo de implantação. O esperado é o número "
        "coberto pela meta no inventário de {inv_year} ({total} t CO2e) menos as reduções já "
        "em vigor.",
        "header": "| Ano | Permitido (t CO2e) | Esperado, redução média (t CO2e) "
        "| Esperado, redução baixa (t CO2e) | Relatado (t CO2e) |",
        "met": "**A meta é atingida**: em {year} as emissões esperadas são {expected} t CO2e "
        "(redução média das ações), dentro das {allowed} t CO2e permitidas.",
        "short": "**A meta não pode ser cumprida com estas ações**: em {year} as emissões "
        "esperadas são {expected} t CO2e (redução média), acima das {allowed} t CO2e "
        "permitidas; faltam {gap} t CO2e. É preciso acrescentar medidas, antecipar as que "
        "existem ou rever a meta.",
        "low_met": "Mesmo com as reduções baixas ({low} t CO2e em {year}) a meta é atingida.",
        "low_short": "Com as reduções baixas ({low} t CO2e em {year}) faltariam {gap} t CO2e.",
        "above": "Anos acima da trajetória (redução média): {years}.",
        "unscheduled": "Fora da trajetória: {items}.",
        "not_needed": "{measure} (a meta não a exige)",
        "too_late": "{measure} (não fica pronta até {year})",
        "off_total": "{measure} (Escopo 2 por mercado: não muda o total)",
        "off_scope3": "{measure} (Escopo 3: fora da meta)",
        "off_market": "{measure} (Escopo 2 por localização: fora da meta por mercado)",
    },
    "en": {
        "none": "No reduction target set.",
        "target": "**Target** ({coverage}): cut {pct} of {base_year} emissions ({base} t CO2e) "
        "by {year}, that is, emit at most {final} t CO2e in {year}, on a straight line from "
        "{base_year} ({step} t CO2e less each year).",
        "coverage": "Scopes 1 and 2, Scope 2 {method}",
        "coverage_all": "Scopes 1, 2 and 3, Scope 2 {method}",
        "location": "location-based",
        "market": "market-based",
        "scope3_apart": "Scope 3 is outside this target and handled apart: its actions do not "
        "count on the path, nor does what an action adds to it (a modal shift's carrier).",
        "market_chosen": "The target tracks market-based Scope 2, as the user chose; "
        "location-based Scope 2 is still reported apart, and the two are never summed.",
        "start": "Work on the actions starts in {start}; each one is in place from the first "
        "year the path needs it, never before its lead time allows. Expected emissions are "
        "the figure the target covers in the {inv_year} inventory ({total} t CO2e) minus the "
        "reductions in place.",
        "header": "| Year | Allowed (t CO2e) | Expected, mid reduction (t CO2e) "
        "| Expected, low reduction (t CO2e) | Reported (t CO2e) |",
        "met": "**The target is met**: in {year} expected emissions are {expected} t CO2e "
        "(the actions' mid reduction), within the {allowed} t CO2e allowed.",
        "short": "**The target cannot be met with these actions**: in {year} expected "
        "emissions are {expected} t CO2e (mid reduction), above the {allowed} t CO2e "
        "allowed; {gap} t CO2e short. More measures, earlier ones or a revised target "
        "are needed.",
        "low_met": "Even with the low reductions ({low} t CO2e in {year}) the target is met.",
        "low_short": "With the low reductions ({low} t CO2e in {year}) it would be {gap} t "
        "CO2e short.",
        "above": "Years above the path (mid reduction): {years}.",
        "unscheduled": "Not on the path: {items}.",
        "not_needed": "{measure} (not needed for the target)",
        "too_late": "{measure} (cannot be in place by {year})",
        "off_total": "{measure} (market-based Scope 2: does not change the total)",
        "off_scope3": "{measure} (Scope 3: outside the target)",
        "off_market": "{measure} (location-based Scope 2: outside the market-based target)",
    },
}


def path_text(plan_actions: PlanActions, lang: str = "pt") -> str:
    """The target, the year-by-year path, and plainly whether the actions meet it."""
    language = _lang(lang)
    words = _PATH[language]
    target = plan_actions.target
    if target is None:
        return words["none"]
    span = target.year - target.base_year
    final_allowed = target.base_tco2e * (1 - target.percent / 100)
    parts = [
        words["target"].format(
            coverage=_coverage(target, language),
            pct=percent(target.percent / 100, 1, language),
            base_year=target.base_year,
            base=_t(target.base_tco2e, language),
            year=target.year,
            final=_t(final_allowed, language),
            step=_t((target.base_tco2e - final_allowed) / span if span else 0.0, language),
        )
    ]
    notes = [] if target.include_scope3 else [words["scope3_apart"]]
    if target.scope2_method == "market":
        notes.append(words["market_chosen"])
    if notes:
        parts.append(" ".join(notes))
    if plan_actions.start_year is not None:
        baseline = plan_actions.target_baseline_tco2e
        parts.append(
            words["start"].format(
                start=plan_actions.start_year,
                inv_year=plan_actions.inventory_year or "—",
                total=_t(plan_actions.inventory_tco2e if baseline is None else baseline, language),
            )
        )
    if plan_actions.path:
        rows = [words["header"], "|" + " --- |" * 5]
        for point in plan_actions.path:
            reported = "—" if point.actual_tco2e is None else _t(point.actual_tco2e, language)
            rows.append(
                f"| {point.year} | {_t(point.allowed_tco2e, language)} "
                f"| {_t(point.expected_tco2e, language)} "
                f"| {_t(point.expected_low_tco2e, language)} | {reported} |"
            )
        parts.append("\n".join(rows))
        parts.append(_verdict(plan_actions, language))
        above = [
            str(p.year)
            for p in plan_actions.path
            if p.actual_tco2e is None and p.expected_tco2e > p.allowed_tco2e + 1e-6
        ]
        if above:
            parts.append(words["above"].format(years=", ".join(above)))
    unscheduled = _unscheduled(plan_actions, language)
    if unscheduled:
        parts.append(words["unscheduled"].format(items="; ".join(unscheduled)))
    return "\n\n".join(parts)


def _coverage(target: Target, lang: Lang) -> str:
    words = _PATH[lang]
    method = words[target.scope2_method]
    return words["coverage_all" if target.include_scope3 else "coverage"].format(method=method)


def _verdict(plan: PlanActions, lang: Lang) -> str:
    words = _PATH[lang]
    final = plan.path[-1]
    figures = {
        "year": final.year,
        "expected": _t(final.expected_tco2e, lang),
        "allowed": _t(final.allowed_tco2e, lang),
    }
    if plan.meets_target:
        text = words["met"].format(**figures)
    else:
        text = words["short"].format(**figures, gap=_t(plan.shortfall_tco2e, lang))
    low_gap = final.expected_low_tco2e - final.allowed_tco2e
    low = {"low": _t(final.expected_low_tco2e, lang), "year": final.year}
    if low_gap <= 1e-6:
        return f"{text} {words['low_met'].format(**low)}"
    return f"{text} {words['low_short'].format(**low, gap=_t(low_gap, lang))}"


def _unscheduled(plan: PlanActions, lang: Lang) -> list[str]:
    words = _PATH[lang]
    items = []
    for action in plan.actions:
        if action.deadline is not None or plan.target is None:
            continue
        measure = action.measure.get(lang, action.measure_id)
        if not counts_on_target(action, plan.target):
            items.append(words[_off_target(action)].format(measure=measure))
        elif action.needed_year is not None:
            items.append(words["too_late"].format(measure=measure, year=plan.target.year))
        else:
            items.append(words["not_needed"].format(measure=measure))
    return items


# --- SBCE ----------------------------------------------------------------------------------

_SBCE: dict[Lang, dict[str, str]] = {
    "pt": {
        "title": "**SBCE (Lei nº 15.042/2024)**: os limites valem por instalação ou fonte, "
        "não pelo total da empresa; aqui, cada unidade do inventário é avaliada pelo seu "
        "Escopo 1.",
        "none": "O inventário não tem emissões de Escopo 1: nada a avaliar no SBCE.",
        "allowances": "- {name}: {shown} t CO2e de Escopo 1 por ano, acima de {high} t CO2e: "
        "plano de monitoramento, relato anual de emissões e remoções e conciliação "
        "periódica de obrigações, entregando Cotas Brasileiras de Emissões (CBE) ou "
        "Certificados de Redução ou Remoção Verificada de Emissões (CRVE).",
        "monitoring": "- {name}: {shown} t CO2e de Escopo 1 por ano, acima de {low} e até "
        "{high} t CO2e: plano de monitoramento e relato anual de emissões e remoções, sem "
        "entrega de cotas.",
        "below": "- {name}: {shown} t CO2e de Escopo 1 por ano, até {low} t CO2e: pela lei, "
        "sem obrigação de relato nem de entrega de cotas no SBCE.",
        "near_monitoring": " Está a menos de 10% do limite de {low} t CO2e (faltam {gap} t "
        "CO2e): passando dele, precisará de plano de monitoramento e relato anual.",
        "near_allowances": " Está a menos de 10% do limite de {high} t CO2e (faltam {gap} t "
        "CO2e): passando dele, também entregará cotas na conciliação periódica.",
        "at_monitoring": " Está no limite de {low} t CO2e: a obrigação vale acima dele, e "
        "qualquer aumento traria plano de monitoramento e relato anual.",
        "at_allowances": " Está no limite de {high} t CO2e: a obrigação vale acima dele, e "
        "qualquer aumento traria a entrega de cotas.",
        "unassigned": "- {name}: {shown} t CO2e de Escopo 1 em linhas sem unidade. A regra "
        "vale por instalação: atribua essas linhas às suas unidades para saber quais estão "
        "sujeitas.",
        "total": "O Escopo 1 somado de todas as unidades ({total} t CO2e) não decide a "
        "sujeição: cada instalação é avaliada pelas próprias emissões.",
        "caveat": "O Escopo 1 do inventário por unidade aproxima as emissões de cada "
        "instalação. O órgão gestor pode elevar os limites, as obrigações valem para "
        "atividades com metodologia de mensuração consolidada, e a produção primária "
        "agropecuária fica fora delas.",
        "source": "Fonte",
    },
    "en": {
        "title": "**SBCE (Lei nº 15.042/2024)**: the thresholds apply per installation or "
        "source, not to the company as a whole; here each facility of the inventory is "
        "judged by its Scope 1.",
        "none": "The inventory has no Scope 1 emissions: nothing to judge under the SBCE.",
        "allowances": "- {name}: {shown} t CO2e of Scope 1 a year, above {high} t CO2e: a "
        "monitoring plan, an annual report of emissions and removals, and periodic "
        "reconciliation of obligations by surrendering Brazilian Emission Allowances (CBE) "
        "or Certificates of Verified Emission Reduction or Removal (CRVE).",
        "monitoring": "- {name}: {shown} t CO2e of Scope 1 a year, above {low} and up to "
        "{high} t CO2e: a monitoring plan and an annual report of emissions and removals; "
        "no allowances to surrender.",
        "below": "- {name}: {shown} t CO2e of Scope 1 a year, at or below {low} t CO2e: under "
        "the law, no reporting or surrender obligation in the SBCE.",
        "near_monitoring": " It is within 10% of the {low} t CO2e threshold ({gap} t CO2e "
        "below it): above it, it will need a monitoring plan and an annual report.",
        "near_allowances": " It is within 10% of the {high} t CO2e threshold ({gap} t CO2e "
        "below it): above it, it will also surrender allowances at reconciliation.",
        "at_monitoring": " It sits at the {low} t CO2e threshold: the obligation applies "
        "above it, and any increase would bring a monitoring plan and an annual report.",
        "at_allowances": " It sits at the {high} t CO2e threshold: the obligation applies "
        "above it, and any increase would bring the surrender of allowances.",
        "unassigned": "- {name}: {shown} t CO2e of Scope 1 in rows with no facility. The rule "
        "applies per installation: assign these rows to their facilities to know which are "
        "covered.",
        "total": "The Scope 1 of all facilities together ({total} t CO2e) does not decide "
        "coverage: each installation is judged by its own emissions.",
        "caveat": "The inventory's Scope 1 per facility stands for each installation's "
        "emissions. The regulator may raise the thresholds, the obligations apply to "
        "activities with consolidated measurement methodologies, and primary agricultural "
        "production is excluded from them.",
        "source": "Source",
    },
}


def sbce_text(installations: Sequence[Installation], lang: str = "pt") -> str:
    """Each facility's Scope 1 against the SBCE thresholds and what the law asks of it."""
    language = _lang(lang)
    words = _SBCE[language]
    if not installations:
        return f"{words['none']}\n\n{words['source']}: {SOURCE}"
    low, high = number(MONITORING_T, 0, language), number(ALLOWANCES_T, 0, language)
    lines = []
    for item in installations:
        shown = _t(item.scope1_tco2e, language)
        if item.facility == UNASSIGNED:
            name = UNASSIGNED if language == "pt" else "(facility not given)"
            lines.append(words["unassigned"].format(name=name, shown=shown))
            continue
        line = words[item.status].format(name=item.facility, shown=shown, low=low, high=high)
        if item.near is not None:
            threshold = MONITORING_T if item.near == "monitoring" else ALLOWANCES_T
            gap = threshold - item.scope1_tco2e
            # A gap that rounds to nothing is "at" the threshold, not "short of" it.
            key = ("at_" if _t(gap, language) == _t(0.0, language) else "near_") + item.near
            line += words[key].format(low=low, high=high, gap=_t(gap, language))
        lines.append(line)
    parts = [words["title"], "\n".join(lines)]
    if len(installations) > 1:
        total = sum(item.scope1_tco2e for item in installations)
        parts.append(words["total"].format(total=_t(total, language)))
    parts.append(words["caveat"])
    parts.append(f"{words['source']}: {SOURCE}")
    return "\n\n".join(parts)


# --- the summary ---------------------------------------------------------------------------

_SUMMARY: dict[Lang, dict[str, str]] = {
    "pt": {
        "title": "**Ações calculadas**: {count}; inventário{of_year}: {total} t CO2e ({gwp}).",
        "of_year": " de {year}",
        "one": "1 ação",
        "many": "{n} ações",
        "cut": "- Redução no total do inventário: {range} t CO2e/ano = {share} do inventário.",
        "cut_no_share": "- Redução no total do inventário: {range} t CO2e/ano.",
        "market": "- Redução no Escopo 2 por mercado, à parte do total (que usa localização): "
        "{range} t CO2e/ano.",
        "biogenic": "- CO2 biogênico acrescentado pelas trocas de combustível: {bio} t/ano, "
        "relatado à parte dos escopos.",
        "carrier": "- Escopo 3, categoria 4, acrescentado pela transferência modal (a "
        "transportadora): {range} t CO2e/ano, já descontado da redução acima.",
        "capex": "- Capex somado das ações com custo conhecido: R$ {capex}; Δ opex somado: "
        "R$ {opex}/ano (negativo: economia).",
        "unknown": "- Ações com custo desconhecido (fora das somas de custo): {n}.",
        "met": "- Meta de {year}: atingida com a redução média.",
        "short": "- Meta de {year}: não atingida; faltam {gap} t CO2e em {year}.",
        "alternatives": "- Alternativas sobre as mesmas linhas, fora das somas: {n}.",
        "none": "Nenhuma ação proposta para este inventário{of_year} ({total} t CO2e, {gwp}).",
    },
    "en": {
        "title": "**Computed actions**: {count}; inventory{of_year}: {total} t CO2e ({gwp}).",
        "of_year": " of {year}",
        "one": "1 action",
        "many": "{n} actions",
        "cut": "- Reduction of the inventory total: {range} t CO2e/yr = {share} of the inventory.",
        "cut_no_share": "- Reduction of the inventory total: {range} t CO2e/yr.",
        "market": "- Reduction of market-based Scope 2, apart from the total (which uses "
        "location-based): {range} t CO2e/yr.",
        "biogenic": "- Biogenic CO2 added by the fuel switches: {bio} t/yr, reported apart "
        "from the scopes.",
        "carrier": "- Scope 3, category 4, added by the modal shift (the carrier): {range} t "
        "CO2e/yr, already netted out of the reduction above.",
        "capex": "- Capex of the actions with a known cost, summed: R$ {capex}; Δ opex "
        "summed: R$ {opex}/yr (negative: a saving).",
        "unknown": "- Actions with unknown cost (left out of the cost sums): {n}.",
        "met": "- {year} target: met with the mid reduction.",
        "short": "- {year} target: not met; {gap} t CO2e short in {year}.",
        "alternatives": "- Alternatives on the same rows, left out of the sums: {n}.",
        "none": "No actions proposed for this inventory{of_year} ({total} t CO2e, {gwp}).",
    },
}


def summary_text(plan_actions: PlanActions, lang: str = "pt") -> str:
    """The totals: what the actions cut of the inventory, low–high, and what they add apart
    (market-based Scope 2 cuts, biogenic CO2), with the known costs summed."""
    language = _lang(lang)
    words = _SUMMARY[language]
    plan = plan_actions
    of_year = (
        "" if plan.inventory_year is None else words["of_year"].format(year=plan.inventory_year)
    )
    head = {"of_year": of_year, "total": _t(plan.inventory_tco2e, language), "gwp": plan.gwp_set}
    if not plan.actions:
        return words["none"].format(**head)
    n = len(plan.actions)
    count = words["one"] if n == 1 else words["many"].format(n=n)
    lines = [words["title"].format(count=count, **head)]
    on_total = [a for a in plan.actions if counts_on_total(a)]
    market = [a for a in plan.actions if not counts_on_total(a)]
    low = sum(a.reduction_low_tco2e for a in on_total)
    high = sum(a.reduction_high_tco2e for a in on_total)
    cut = _range(low, high, language)
    if plan.inventory_tco2e > 0:
        share = _share_range(low / plan.inventory_tco2e, high / plan.inventory_tco2e, language)
        lines.append(words["cut"].format(range=cut, share=share))
    else:
        lines.append(words["cut_no_share"].format(range=cut))
    if market:
        market_low = sum(a.reduction_low_tco2e for a in market)
        market_high = sum(a.reduction_high_tco2e for a in market)
        lines.append(words["market"].format(range=_range(market_low, market_high, language)))
    carrier_low = sum(a.scope3_added_low_tco2e for a in plan.actions)
    carrier_high = sum(a.scope3_added_high_tco2e for a in plan.actions)
    if carrier_high > 0:
        lines.append(words["carrier"].format(range=_range(carrier_low, carrier_high, language)))
    biogenic = sum(a.biogenic_co2_t for a in plan.actions)
    if biogenic > 0:
        lines.append(words["biogenic"].format(bio=_t(biogenic, language)))
    known = [a for a in plan.actions if a.capex_brl is not None and a.opex_delta_brl_yr is not None]
    if known:
        lines.append(
            words["capex"].format(
                capex=number(sum(a.capex_brl or 0.0 for a in known), _BRL, language),
                opex=number(sum(a.opex_delta_brl_yr or 0.0 for a in known), _BRL, language),
            )
        )
    if len(known) < len(plan.actions):
        lines.append(words["unknown"].format(n=len(plan.actions) - len(known)))
    if plan.target is not None and plan.meets_target is not None:
        if plan.meets_target:
            lines.append(words["met"].format(year=plan.target.year))
        else:
            gap = _t(plan.shortfall_tco2e, language)
            lines.append(words["short"].format(year=plan.target.year, gap=gap))
    if plan.alternatives:
        lines.append(words["alternatives"].format(n=len(plan.alternatives)))
    return "\n".join(lines)


def _share_range(low: float, high: float, lang: Lang) -> str:
    low_text, high_text = percent(low, 1, lang), percent(high, 1, lang)
    return low_text if low_text == high_text else f"{low_text}–{high_text}"
