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
from engine.texts import Texts

Lang = Literal["pt", "en"]

_T = 1  # decimals for tonnes
_BRL = 0  # decimals for reais

_TEXTS = Texts(
    "engine.actions.render",
    {
        "table.header": {
            "pt": "| Medida | Linhas do inventário (fonte · unidade · gás) | Escopo | Linha de "
            "base (t CO2e) | Redução (t CO2e/ano) | Capex (R$) | Δ Opex (R$/ano) | R$/t CO2e "
            "| Payback | Prazo | KPI |",
            "en": "| Measure | Inventory rows (source · facility · gas) | Scope | Baseline (t "
            "CO2e) | Reduction (t CO2e/yr) | Capex (R$) | Δ Opex (R$/yr) | R$/t CO2e | "
            "Payback | Deadline | KPI |",
        },
        "table.no_actions": {
            "pt": "Nenhuma ação proposta para este inventário.",
            "en": "No actions proposed for this inventory.",
        },
        "table.note": {
            "pt": "Δ Opex negativo é economia; R$/t CO2e é o custo anualizado (capex e opex) por "
            "tonelada da redução média.",
            "en": "A negative Δ Opex is a saving; R$/t CO2e is the annualised cost (capex and "
            "opex) per tonne of the mid reduction.",
        },
        "table.unknown": {
            "pt": "custo desconhecido",
            "en": "cost unknown",
        },
        "table.no_payback": {
            "pt": "sem retorno financeiro",
            "en": "no financial payback",
        },
        "table.years": {
            "pt": "{n} anos",
            "en": "{n} years",
        },
        "table.year": {
            "pt": "{n} ano",
            "en": "{n} year",
        },
        "table.market": {
            "pt": "mercado",
            "en": "market",
        },
        "table.row": {
            "pt": "linha {row}",
            "en": "row {row}",
        },
        "table.more_rows": {
            "pt": "e mais {n} fontes",
            "en": "and {n} more sources",
        },
        "table.by_path": {
            "pt": "{year} (trajetória)",
            "en": "{year} (path)",
        },
        "table.by_lead": {
            "pt": "{year} (trajetória exige desde {needed}; implantação de {lead})",
            "en": "{year} (path needs it from {needed}; lead time {lead})",
        },
        "table.not_needed": {
            "pt": "— (a meta não a exige)",
            "en": "— (not needed for the target)",
        },
        "table.too_late": {
            "pt": "— (não fica pronta até {year}: implantação de {lead})",
            "en": "— (cannot be in place by {year}: lead time {lead})",
        },
        "table.off_total": {
            "pt": "— (não muda o total, que usa o Escopo 2 por localização)",
            "en": "— (does not change the total, which uses location-based Scope 2)",
        },
        "table.off_scope3": {
            "pt": "— (Escopo 3: fora da meta dos Escopos 1 e 2)",
            "en": "— (Scope 3: outside the Scopes 1 and 2 target)",
        },
        "table.off_market": {
            "pt": "— (Escopo 2 por localização: a meta usa o Escopo 2 por mercado)",
            "en": "— (location-based Scope 2: the target uses market-based Scope 2)",
        },
        "path.none": {
            "pt": "Nenhuma meta de redução definida.",
            "en": "No reduction target set.",
        },
        "path.target": {
            "pt": "**Meta** ({coverage}): reduzir {pct} das emissões de {base_year} ({base} t "
            "CO2e) até {year}, ou seja, emitir no máximo {final} t CO2e em {year}, em linha "
            "reta desde {base_year} ({step} t CO2e a menos por ano).",
            "en": "**Target** ({coverage}): cut {pct} of {base_year} emissions ({base} t CO2e) by "
            "{year}, that is, emit at most {final} t CO2e in {year}, on a straight line from "
            "{base_year} ({step} t CO2e less each year).",
        },
        "path.coverage": {
            "pt": "Escopos 1 e 2, com o Escopo 2 por {method}",
            "en": "Scopes 1 and 2, Scope 2 {method}",
        },
        "path.coverage_all": {
            "pt": "Escopos 1, 2 e 3, com o Escopo 2 por {method}",
            "en": "Scopes 1, 2 and 3, Scope 2 {method}",
        },
        "path.location": {
            "pt": "localização",
            "en": "location-based",
        },
        "path.market": {
            "pt": "mercado",
            "en": "market-based",
        },
        "path.scope3_apart": {
            "pt": "O Escopo 3 fica fora desta meta e é tratado à parte: suas ações não contam na "
            "trajetória, e o que uma ação acrescenta a ele (a transportadora de uma "
            "transferência modal) também não.",
            "en": "Scope 3 is outside this target and handled apart: its actions do not count on "
            "the path, nor does what an action adds to it (a modal shift's carrier).",
        },
        "path.market_chosen": {
            "pt": "Meta no Escopo 2 por mercado, por escolha do usuário; o Escopo 2 por "
            "localização continua relatado à parte, e os dois nunca se somam.",
            "en": "The target tracks market-based Scope 2, as the user chose; location-based "
            "Scope 2 is still reported apart, and the two are never summed.",
        },
        "path.start": {
            "pt": "As ações começam em {start}; cada uma entra em vigor no primeiro ano em que a "
            "trajetória a exige, nunca antes do seu prazo de implantação. O esperado é o "
            "número coberto pela meta no inventário de {inv_year} ({total} t CO2e) menos as "
            "reduções já em vigor.",
            "en": "Work on the actions starts in {start}; each one is in place from the first "
            "year the path needs it, never before its lead time allows. Expected emissions "
            "are the figure the target covers in the {inv_year} inventory ({total} t CO2e) "
            "minus the reductions in place.",
        },
        "path.header": {
            "pt": "| Ano | Permitido (t CO2e) | Esperado, redução média (t CO2e) | Esperado, "
            "redução baixa (t CO2e) | Relatado (t CO2e) |",
            "en": "| Year | Allowed (t CO2e) | Expected, mid reduction (t CO2e) | Expected, low "
            "reduction (t CO2e) | Reported (t CO2e) |",
        },
        "path.met": {
            "pt": "**A meta é atingida**: em {year} as emissões esperadas são {expected} t CO2e "
            "(redução média das ações), dentro das {allowed} t CO2e permitidas.",
            "en": "**The target is met**: in {year} expected emissions are {expected} t CO2e (the "
            "actions' mid reduction), within the {allowed} t CO2e allowed.",
        },
        "path.short": {
            "pt": "**A meta não pode ser cumprida com estas ações**: em {year} as emissões "
            "esperadas são {expected} t CO2e (redução média), acima das {allowed} t CO2e "
            "permitidas; faltam {gap} t CO2e. É preciso acrescentar medidas, antecipar as que "
            "existem ou rever a meta.",
            "en": "**The target cannot be met with these actions**: in {year} expected emissions "
            "are {expected} t CO2e (mid reduction), above the {allowed} t CO2e allowed; {gap} "
            "t CO2e short. More measures, earlier ones or a revised target are needed.",
        },
        "path.low_met": {
            "pt": "Mesmo com as reduções baixas ({low} t CO2e em {year}) a meta é atingida.",
            "en": "Even with the low reductions ({low} t CO2e in {year}) the target is met.",
        },
        "path.low_short": {
            "pt": "Com as reduções baixas ({low} t CO2e em {year}) faltariam {gap} t CO2e.",
            "en": "With the low reductions ({low} t CO2e in {year}) it would be {gap} t CO2e "
            "short.",
        },
        "path.above": {
            "pt": "Anos acima da trajetória (redução média): {years}.",
            "en": "Years above the path (mid reduction): {years}.",
        },
        "path.unscheduled": {
            "pt": "Fora da trajetória: {items}.",
            "en": "Not on the path: {items}.",
        },
        "path.not_needed": {
            "pt": "{measure} (a meta não a exige)",
            "en": "{measure} (not needed for the target)",
        },
        "path.too_late": {
            "pt": "{measure} (não fica pronta até {year})",
            "en": "{measure} (cannot be in place by {year})",
        },
        "path.off_total": {
            "pt": "{measure} (Escopo 2 por mercado: não muda o total)",
            "en": "{measure} (market-based Scope 2: does not change the total)",
        },
        "path.off_scope3": {
            "pt": "{measure} (Escopo 3: fora da meta)",
            "en": "{measure} (Scope 3: outside the target)",
        },
        "path.off_market": {
            "pt": "{measure} (Escopo 2 por localização: fora da meta por mercado)",
            "en": "{measure} (location-based Scope 2: outside the market-based target)",
        },
        "sbce.title": {
            "pt": "**SBCE (Lei nº 15.042/2024)**: os limites valem por instalação ou fonte, não "
            "pelo total da empresa; aqui, cada unidade do inventário é avaliada pelo seu "
            "Escopo 1.",
            "en": "**SBCE (Lei nº 15.042/2024)**: the thresholds apply per installation or "
            "source, not to the company as a whole; here each facility of the inventory is "
            "judged by its Scope 1.",
        },
        "sbce.none": {
            "pt": "O inventário não tem emissões de Escopo 1: nada a avaliar no SBCE.",
            "en": "The inventory has no Scope 1 emissions: nothing to judge under the SBCE.",
        },
        "sbce.allowances": {
            "pt": "- {name}: {shown} t CO2e de Escopo 1 por ano, acima de {high} t CO2e: plano de "
            "monitoramento, relato anual de emissões e remoções e conciliação periódica de "
            "obrigações, entregando Cotas Brasileiras de Emissões (CBE) ou Certificados de "
            "Redução ou Remoção Verificada de Emissões (CRVE).",
            "en": "- {name}: {shown} t CO2e of Scope 1 a year, above {high} t CO2e: a monitoring "
            "plan, an annual report of emissions and removals, and periodic reconciliation of "
            "obligations by surrendering Brazilian Emission Allowances (CBE) or Certificates "
            "of Verified Emission Reduction or Removal (CRVE).",
        },
        "sbce.monitoring": {
            "pt": "- {name}: {shown} t CO2e de Escopo 1 por ano, acima de {low} e até {high} t "
            "CO2e: plano de monitoramento e relato anual de emissões e remoções, sem entrega "
            "de cotas.",
            "en": "- {name}: {shown} t CO2e of Scope 1 a year, above {low} and up to {high} t "
            "CO2e: a monitoring plan and an annual report of emissions and removals; no "
            "allowances to surrender.",
        },
        "sbce.below": {
            "pt": "- {name}: {shown} t CO2e de Escopo 1 por ano, até {low} t CO2e: pela lei, sem "
            "obrigação de relato nem de entrega de cotas no SBCE.",
            "en": "- {name}: {shown} t CO2e of Scope 1 a year, at or below {low} t CO2e: under "
            "the law, no reporting or surrender obligation in the SBCE.",
        },
        "sbce.near_monitoring": {
            "pt": " Está a menos de 10% do limite de {low} t CO2e (faltam {gap} t CO2e): passando "
            "dele, precisará de plano de monitoramento e relato anual.",
            "en": " It is within 10% of the {low} t CO2e threshold ({gap} t CO2e below it): above "
            "it, it will need a monitoring plan and an annual report.",
        },
        "sbce.near_allowances": {
            "pt": " Está a menos de 10% do limite de {high} t CO2e (faltam {gap} t CO2e): "
            "passando dele, também entregará cotas na conciliação periódica.",
            "en": " It is within 10% of the {high} t CO2e threshold ({gap} t CO2e below it): "
            "above it, it will also surrender allowances at reconciliation.",
        },
        "sbce.at_monitoring": {
            "pt": " Está no limite de {low} t CO2e: a obrigação vale acima dele, e qualquer "
            "aumento traria plano de monitoramento e relato anual.",
            "en": " It sits at the {low} t CO2e threshold: the obligation applies above it, and "
            "any increase would bring a monitoring plan and an annual report.",
        },
        "sbce.at_allowances": {
            "pt": " Está no limite de {high} t CO2e: a obrigação vale acima dele, e qualquer "
            "aumento traria a entrega de cotas.",
            "en": " It sits at the {high} t CO2e threshold: the obligation applies above it, and "
            "any increase would bring the surrender of allowances.",
        },
        "sbce.unassigned": {
            "pt": "- {name}: {shown} t CO2e de Escopo 1 em linhas sem unidade. A regra vale por "
            "instalação: atribua essas linhas às suas unidades para saber quais estão "
            "sujeitas.",
            "en": "- {name}: {shown} t CO2e of Scope 1 in rows with no facility. The rule applies "
            "per installation: assign these rows to their facilities to know which are "
            "covered.",
        },
        "sbce.total": {
            "pt": "O Escopo 1 somado de todas as unidades ({total} t CO2e) não decide a sujeição: "
            "cada instalação é avaliada pelas próprias emissões.",
            "en": "The Scope 1 of all facilities together ({total} t CO2e) does not decide "
            "coverage: each installation is judged by its own emissions.",
        },
        "sbce.caveat": {
            "pt": "O Escopo 1 do inventário por unidade aproxima as emissões de cada instalação. "
            "O órgão gestor pode elevar os limites, as obrigações valem para atividades com "
            "metodologia de mensuração consolidada, e a produção primária agropecuária fica "
            "fora delas.",
            "en": "The inventory's Scope 1 per facility stands for each installation's emissions. "
            "The regulator may raise the thresholds, the obligations apply to activities with "
            "consolidated measurement methodologies, and primary agricultural production is "
            "excluded from them.",
        },
        "sbce.source": {
            "pt": "Fonte",
            "en": "Source",
        },
        "summary.title": {
            "pt": "**Ações calculadas**: {count}; inventário{of_year}: {total} t CO2e ({gwp}).",
            "en": "**Computed actions**: {count}; inventory{of_year}: {total} t CO2e ({gwp}).",
        },
        "summary.of_year": {
            "pt": " de {year}",
            "en": " of {year}",
        },
        "summary.one": {
            "pt": "1 ação",
            "en": "1 action",
        },
        "summary.many": {
            "pt": "{n} ações",
            "en": "{n} actions",
        },
        "summary.cut": {
            "pt": "- Redução no total do inventário: {range} t CO2e/ano = {share} do inventário.",
            "en": "- Reduction of the inventory total: {range} t CO2e/yr = {share} of the "
            "inventory.",
        },
        "summary.cut_no_share": {
            "pt": "- Redução no total do inventário: {range} t CO2e/ano.",
            "en": "- Reduction of the inventory total: {range} t CO2e/yr.",
        },
        "summary.market": {
            "pt": "- Redução no Escopo 2 por mercado, à parte do total (que usa localização): "
            "{range} t CO2e/ano.",
            "en": "- Reduction of market-based Scope 2, apart from the total (which uses "
            "location-based): {range} t CO2e/yr.",
        },
        "summary.biogenic": {
            "pt": "- CO2 biogênico acrescentado pelas trocas de combustível: {bio} t/ano, "
            "relatado à parte dos escopos.",
            "en": "- Biogenic CO2 added by the fuel switches: {bio} t/yr, reported apart from the "
            "scopes.",
        },
        "summary.carrier": {
            "pt": "- Escopo 3, categoria 4, acrescentado pela transferência modal (a "
            "transportadora): {range} t CO2e/ano, já descontado da redução acima.",
            "en": "- Scope 3, category 4, added by the modal shift (the carrier): {range} t "
            "CO2e/yr, already netted out of the reduction above.",
        },
        "summary.capex": {
            "pt": "- Capex somado das ações com custo conhecido: R$ {capex}; Δ opex somado: R$ "
            "{opex}/ano (negativo: economia).",
            "en": "- Capex of the actions with a known cost, summed: R$ {capex}; Δ opex summed: "
            "R$ {opex}/yr (negative: a saving).",
        },
        "summary.unknown": {
            "pt": "- Ações com custo desconhecido (fora das somas de custo): {n}.",
            "en": "- Actions with unknown cost (left out of the cost sums): {n}.",
        },
        "summary.met": {
            "pt": "- Meta de {year}: atingida com a redução média.",
            "en": "- {year} target: met with the mid reduction.",
        },
        "summary.short": {
            "pt": "- Meta de {year}: não atingida; faltam {gap} t CO2e em {year}.",
            "en": "- {year} target: not met; {gap} t CO2e short in {year}.",
        },
        "summary.alternatives": {
            "pt": "- Alternativas sobre as mesmas linhas, fora das somas: {n}.",
            "en": "- Alternatives on the same rows, left out of the sums: {n}.",
        },
        "summary.none": {
            "pt": "Nenhuma ação proposta para este inventário{of_year} ({total} t CO2e, {gwp}).",
            "en": "No actions proposed for this inventory{of_year} ({total} t CO2e, {gwp}).",
        },
        "sbce.no_facility": {
            "pt": UNASSIGNED,  # the planner's own name for rows with no facility
            "en": "(facility not given)",
        },
    },
)


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
    shown = number(n, decimals, lang)
    return _TEXTS("table.year" if shown == "1" else "table.years", lang, n=shown)


# --- the table of actions ------------------------------------------------------------------


def actions_table(plan_actions: PlanActions, lang: str = "pt") -> str:
    """One Markdown row per action: what it does, on which rows, what it cuts and costs,
    by when, and how its progress is measured."""
    language = _lang(lang)
    if not plan_actions.actions:
        return _TEXTS("table.no_actions", language)
    lines = [_TEXTS("table.header", language), "|" + " --- |" * 11]
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
    return "\n".join(lines) + "\n\n" + _TEXTS("table.note", language)


_ROWS_SHOWN = 4


def _rows_text(rows: Sequence[RowRef], lang: Lang) -> str:
    """Rows of one source and facility share an entry, their gases listed together."""
    grouped: dict[tuple[str, str], list[str]] = {}
    for ref in rows:
        source = ref.source or f"{ref.sheet}, {_TEXTS('table.row', lang, row=ref.row)}"
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
        more = _TEXTS("table.more_rows", lang, n=len(entries) - _ROWS_SHOWN)
        return "; ".join(entries[:_ROWS_SHOWN]) + f"; {more}"
    return "; ".join(entries)


def _scope_text(action: Action, lang: Lang) -> str:
    if action.scope == 2 and action.scope2_method == "market":
        return f"2 ({_TEXTS('table.market', lang)})"
    return str(action.scope)


def _money(value: float | None, lang: Lang) -> str:
    return _TEXTS("table.unknown", lang) if value is None else number(value, _BRL, lang)


def _payback(action: Action, lang: Lang) -> str:
    if action.payback_years is not None:
        return _years(action.payback_years, lang, 1)
    if action.capex_brl is None or action.opex_delta_brl_yr is None:
        return _TEXTS("table.unknown", lang)
    return _TEXTS("table.no_payback", lang)


def _deadline(action: Action, plan: PlanActions, lang: Lang) -> str:
    """The year and its basis: the path year that needs the action, or its lead time."""
    lead = _years(action.lead_time_years, lang)
    if action.deadline is not None:
        if plan.target is None:
            return str(action.deadline)
        if action.needed_year is not None and action.needed_year < action.deadline:
            return _TEXTS(
                "table.by_lead", lang, year=action.deadline, needed=action.needed_year, lead=lead
            )
        return _TEXTS("table.by_path", lang, year=action.deadline)
    if plan.target is None:
        return "—"
    if not counts_on_target(action, plan.target):
        return _TEXTS(f"table.{_off_target(action)}", lang)
    if action.needed_year is not None:
        return _TEXTS("table.too_late", lang, year=plan.target.year, lead=lead)
    return _TEXTS("table.not_needed", lang)


def _off_target(action: Action) -> str:
    """Why an action does not count on its plan's target: the key of its reason."""
    if action.scope == 3:
        return "off_scope3"
    return "off_total" if not counts_on_total(action) else "off_market"


# --- the target and its path ---------------------------------------------------------------


def path_text(plan_actions: PlanActions, lang: str = "pt") -> str:
    """The target, the year-by-year path, and plainly whether the actions meet it."""
    language = _lang(lang)
    target = plan_actions.target
    if target is None:
        return _TEXTS("path.none", language)
    span = target.year - target.base_year
    final_allowed = target.base_tco2e * (1 - target.percent / 100)
    parts = [
        _TEXTS(
            "path.target",
            language,
            coverage=_coverage(target, language),
            pct=percent(target.percent / 100, 1, language),
            base_year=target.base_year,
            base=_t(target.base_tco2e, language),
            year=target.year,
            final=_t(final_allowed, language),
            step=_t((target.base_tco2e - final_allowed) / span if span else 0.0, language),
        )
    ]
    notes = [] if target.include_scope3 else [_TEXTS("path.scope3_apart", language)]
    if target.scope2_method == "market":
        notes.append(_TEXTS("path.market_chosen", language))
    if notes:
        parts.append(" ".join(notes))
    if plan_actions.start_year is not None:
        baseline = plan_actions.target_baseline_tco2e
        parts.append(
            _TEXTS(
                "path.start",
                language,
                start=plan_actions.start_year,
                inv_year=plan_actions.inventory_year or "—",
                total=_t(plan_actions.inventory_tco2e if baseline is None else baseline, language),
            )
        )
    if plan_actions.path:
        rows = [_TEXTS("path.header", language), "|" + " --- |" * 5]
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
            parts.append(_TEXTS("path.above", language, years=", ".join(above)))
    unscheduled = _unscheduled(plan_actions, language)
    if unscheduled:
        parts.append(_TEXTS("path.unscheduled", language, items="; ".join(unscheduled)))
    return "\n\n".join(parts)


def _coverage(target: Target, lang: Lang) -> str:
    method = _TEXTS(f"path.{target.scope2_method}", lang)
    key = "path.coverage_all" if target.include_scope3 else "path.coverage"
    return _TEXTS(key, lang, method=method)


def _verdict(plan: PlanActions, lang: Lang) -> str:
    final = plan.path[-1]
    figures = {
        "year": final.year,
        "expected": _t(final.expected_tco2e, lang),
        "allowed": _t(final.allowed_tco2e, lang),
    }
    if plan.meets_target:
        text = _TEXTS("path.met", lang, **figures)
    else:
        text = _TEXTS("path.short", lang, **figures, gap=_t(plan.shortfall_tco2e, lang))
    low_gap = final.expected_low_tco2e - final.allowed_tco2e
    low = {"low": _t(final.expected_low_tco2e, lang), "year": final.year}
    if low_gap <= 1e-6:
        return f"{text} {_TEXTS('path.low_met', lang, **low)}"
    return f"{text} {_TEXTS('path.low_short', lang, **low, gap=_t(low_gap, lang))}"


def _unscheduled(plan: PlanActions, lang: Lang) -> list[str]:
    items = []
    for action in plan.actions:
        if action.deadline is not None or plan.target is None:
            continue
        measure = action.measure.get(lang, action.measure_id)
        if not counts_on_target(action, plan.target):
            items.append(_TEXTS(f"path.{_off_target(action)}", lang, measure=measure))
        elif action.needed_year is not None:
            items.append(_TEXTS("path.too_late", lang, measure=measure, year=plan.target.year))
        else:
            items.append(_TEXTS("path.not_needed", lang, measure=measure))
    return items


# --- SBCE ----------------------------------------------------------------------------------


def sbce_text(installations: Sequence[Installation], lang: str = "pt") -> str:
    """Each facility's Scope 1 against the SBCE thresholds and what the law asks of it."""
    language = _lang(lang)
    if not installations:
        return f"{_TEXTS('sbce.none', language)}\n\n{_TEXTS('sbce.source', language)}: {SOURCE}"
    low, high = number(MONITORING_T, 0, language), number(ALLOWANCES_T, 0, language)
    lines = []
    for item in installations:
        shown = _t(item.scope1_tco2e, language)
        if item.facility == UNASSIGNED:
            name = _TEXTS("sbce.no_facility", language)
            lines.append(_TEXTS("sbce.unassigned", language, name=name, shown=shown))
            continue
        line = _TEXTS(
            f"sbce.{item.status}", language, name=item.facility, shown=shown, low=low, high=high
        )
        if item.near is not None:
            threshold = MONITORING_T if item.near == "monitoring" else ALLOWANCES_T
            gap = threshold - item.scope1_tco2e
            # A gap that rounds to nothing is "at" the threshold, not "short of" it.
            key = ("at_" if _t(gap, language) == _t(0.0, language) else "near_") + item.near
            line += _TEXTS(f"sbce.{key}", language, low=low, high=high, gap=_t(gap, language))
        lines.append(line)
    parts = [_TEXTS("sbce.title", language), "\n".join(lines)]
    if len(installations) > 1:
        total = sum(item.scope1_tco2e for item in installations)
        parts.append(_TEXTS("sbce.total", language, total=_t(total, language)))
    parts.append(_TEXTS("sbce.caveat", language))
    parts.append(f"{_TEXTS('sbce.source', language)}: {SOURCE}")
    return "\n\n".join(parts)


# --- the summary ---------------------------------------------------------------------------


def summary_text(plan_actions: PlanActions, lang: str = "pt") -> str:
    """The totals: what the actions cut of the inventory, low–high, and what they add apart
    (market-based Scope 2 cuts, biogenic CO2), with the known costs summed."""
    language = _lang(lang)
    plan = plan_actions
    of_year = (
        ""
        if plan.inventory_year is None
        else _TEXTS("summary.of_year", language, year=plan.inventory_year)
    )
    head = {"of_year": of_year, "total": _t(plan.inventory_tco2e, language), "gwp": plan.gwp_set}
    if not plan.actions:
        return _TEXTS("summary.none", language, **head)
    n = len(plan.actions)
    count = _TEXTS("summary.one", language) if n == 1 else _TEXTS("summary.many", language, n=n)
    lines = [_TEXTS("summary.title", language, count=count, **head)]
    on_total = [a for a in plan.actions if counts_on_total(a)]
    market = [a for a in plan.actions if not counts_on_total(a)]
    low = sum(a.reduction_low_tco2e for a in on_total)
    high = sum(a.reduction_high_tco2e for a in on_total)
    cut = _range(low, high, language)
    if plan.inventory_tco2e > 0:
        share = _share_range(low / plan.inventory_tco2e, high / plan.inventory_tco2e, language)
        lines.append(_TEXTS("summary.cut", language, range=cut, share=share))
    else:
        lines.append(_TEXTS("summary.cut_no_share", language, range=cut))
    if market:
        market_low = sum(a.reduction_low_tco2e for a in market)
        market_high = sum(a.reduction_high_tco2e for a in market)
        lines.append(
            _TEXTS("summary.market", language, range=_range(market_low, market_high, language))
        )
    carrier_low = sum(a.scope3_added_low_tco2e for a in plan.actions)
    carrier_high = sum(a.scope3_added_high_tco2e for a in plan.actions)
    if carrier_high > 0:
        lines.append(
            _TEXTS("summary.carrier", language, range=_range(carrier_low, carrier_high, language))
        )
    biogenic = sum(a.biogenic_co2_t for a in plan.actions)
    if biogenic > 0:
        lines.append(_TEXTS("summary.biogenic", language, bio=_t(biogenic, language)))
    known = [a for a in plan.actions if a.capex_brl is not None and a.opex_delta_brl_yr is not None]
    if known:
        lines.append(
            _TEXTS(
                "summary.capex",
                language,
                capex=number(sum(a.capex_brl or 0.0 for a in known), _BRL, language),
                opex=number(sum(a.opex_delta_brl_yr or 0.0 for a in known), _BRL, language),
            )
        )
    if len(known) < len(plan.actions):
        lines.append(_TEXTS("summary.unknown", language, n=len(plan.actions) - len(known)))
    if plan.target is not None and plan.meets_target is not None:
        if plan.meets_target:
            lines.append(_TEXTS("summary.met", language, year=plan.target.year))
        else:
            gap = _t(plan.shortfall_tco2e, language)
            lines.append(_TEXTS("summary.short", language, year=plan.target.year, gap=gap))
    if plan.alternatives:
        lines.append(_TEXTS("summary.alternatives", language, n=len(plan.alternatives)))
    return "\n".join(lines)


def _share_range(low: float, high: float, lang: Lang) -> str:
    low_text, high_text = percent(low, 1, lang), percent(high, 1, lang)
    return low_text if low_text == high_text else f"{low_text}–{high_text}"
