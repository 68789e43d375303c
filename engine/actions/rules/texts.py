"""The rules' words: the errors, bases and KPIs of every mechanism, in both languages.

One table for the package because the mechanisms share phrases (a share reached, t CO2e a
year) and a reviewer reads their wording side by side.
"""

from __future__ import annotations

from engine.texts import LANGS, Both, Texts

RULE_TEXTS = Texts(
    "engine.actions.rules",
    {
        "share_out_of_range": {
            "pt": "A parcela deve estar entre 0 e 100% (recebi {share}%).",
            "en": "The share must be between 0 and 100% (got {share}%).",
        },
        "no_substitute": {
            "pt": "A medida '{measure}' não tem substituto a escolher.",
            "en": "The measure '{measure}' has no substitute to choose.",
        },
        "unknown_substitute": {
            "pt": "Substituto desconhecido para '{measure}': '{substitute}'.",
            "en": "Unknown substitute for '{measure}': '{substitute}'.",
        },
        "no_grid_factor": {
            "pt": "A biblioteca não tem fator do SIN para calcular a eletricidade nova.",
            "en": "The library has no SIN factor to compute the new electricity with.",
        },
        "no_gwp": {
            "pt": "O gás '{gas}' não tem GWP {gwp_set} conhecido.",
            "en": "The gas '{gas}' has no known {gwp_set} GWP.",
        },
        "scope_taken": {
            "pt": " O inventário não informa o escopo destas linhas: tomado como escopo "
            "{scope}, o da medida.",
            "en": " The inventory gives these rows no scope: taken as Scope {scope}, the "
            "measure's.",
        },
        "efficiency.basis": {
            "pt": "t CO2e das linhas ({baseline}) × {measure_span} × parcela alcançada {share} "
            "= {cut} t CO2e/ano ({measure_basis}).",
            "en": "The rows' t CO2e ({baseline}) × {measure_span} × share reached {share} = "
            "{cut} t CO2e/yr ({measure_basis}).",
        },
        "efficiency.location": {
            "pt": " Escopo 2 por localização; o número por mercado também cai, mas não é "
            "somado aqui: os dois métodos nunca se somam.",
            "en": " Location-based Scope 2; the market-based figure falls too, but is not "
            "added here: the two methods are never summed.",
        },
        "efficiency.kpi_avoided": {
            "pt": "{source}: atividade evitada frente a {year} (%{unit})",
            "en": "{source}: activity avoided against {year} (%{unit})",
        },
        "efficiency.kpi": {
            "pt": "{source}: consumo ou emissão por unidade produzida frente a {year} (%{unit})",
            "en": "{source}: use or emissions per unit of output against {year} (%{unit})",
        },
        "grid.annual": {
            "pt": "fator médio do SIN de {year} ({source})",
            "en": "SIN average factor for {year} ({source})",
        },
        "grid.monthly": {
            "pt": "média dos fatores mensais do SIN de {year}, ponderada pelos dias (MCTI)",
            "en": "days-weighted mean of the SIN monthly factors for {year} (MCTI)",
        },
        "grid.latest": {
            "pt": "fator médio do SIN de {year}, o último anual disponível ({source})",
            "en": "SIN average factor for {year}, the latest annual one ({source})",
        },
        "electrification.basis": {
            "pt": "t CO2e das linhas ({baseline}) × parcela eletrificada {share} − eletricidade "
            "nova: {energy} TJ × {mwh_per_tj} MWh/TJ × razão de eficiência {ratio} × parcela = "
            "{mwh} MWh × {grid} t CO2/MWh ({grid_text}, por localização) = {net} t CO2e/ano. "
            "O escopo 1 cai {gross} t e o escopo 2 sobe {added} t.",
            "en": "The rows' t CO2e ({baseline}) × share electrified {share} − new electricity: "
            "{energy} TJ × {mwh_per_tj} MWh/TJ × efficiency ratio {ratio} × share = {mwh} MWh "
            "× {grid} t CO2/MWh ({grid_text}, location-based) = {net} t CO2e/yr. Scope 1 falls "
            "by {gross} t and Scope 2 rises by {added} t.",
        },
        "electrification.clipped": {
            "pt": " A rede emitiria mais do que o combustível evitado: a redução é limitada a 0.",
            "en": " The grid would emit more than the fuel avoided: the reduction is clipped at 0.",
        },
        "electrification.kpi": {
            "pt": "% do consumo de {fuel} substituído por eletricidade (MWh elétricos "
            "adicionais por ano)",
            "en": "% of {fuel} consumption replaced by electricity (additional MWh of "
            "electricity a year)",
        },
        "market.reported": {
            "pt": "Escopo 2 por mercado, como relatado ({baseline} t CO2e)",
            "en": "Market-based Scope 2, as reported ({baseline} t CO2e)",
        },
        "market.not_reported": {
            "pt": "Sem escopo 2 por mercado no inventário, a linha de base por mercado é o "
            "número por localização ({baseline} t CO2e): sem instrumentos contratuais, a "
            "escolha de compra do Programa Brasileiro GHG Protocol é a média do SIN",
            "en": "With no market-based Scope 2 in the inventory, the market-based baseline is "
            "the location-based figure ({baseline} t CO2e): with no contractual instruments, "
            "the Brazilian GHG Protocol Program's purchase-choice figure is the SIN average",
        },
        "market.basis": {
            "pt": "{origin} × consumo coberto {share} × {measure_span} = {cut} t CO2e/ano, só no "
            "escopo 2 por mercado. O escopo 2 por localização não muda (0): os dois métodos "
            "nunca se somam (GHG Protocol Scope 2 Guidance, 2015).",
            "en": "{origin} × consumption covered {share} × {measure_span} = {cut} t CO2e/yr, in "
            "market-based Scope 2 only. Location-based Scope 2 does not change (0): the two "
            "methods are never summed (GHG Protocol Scope 2 Guidance, 2015).",
        },
        "market.kpi": {
            "pt": "MWh cobertos por contrato ou certificados com atributos ambientais "
            "(% do consumo da rede)",
            "en": "MWh covered by contracts or certificates with environmental attributes "
            "(% of grid consumption)",
        },
        "modal.kpi": {
            "pt": "{source}: t·km transferidas para ferrovia ou cabotagem (% das t·km rodoviárias)",
            "en": "{source}: t·km moved to rail or coastal shipping (% of road t·km)",
        },
        "modal.scope3": {
            "pt": "Frete rodoviário contratado (escopo 3, categoria 4): t CO2e das linhas "
            "({baseline}) × parcela transferida {share} × {measure_span} a menos por t·km = "
            "{cut} t CO2e/ano, dentro da mesma categoria ({measure_basis}).",
            "en": "Road freight bought (Scope 3, category 4): the rows' t CO2e ({baseline}) × "
            "share shifted {share} × {measure_span} less per t·km = {cut} t CO2e/yr, within "
            "the same category ({measure_basis}).",
        },
        "modal.scope1": {
            "pt": "Caminhões próprios (escopo 1): t CO2e das linhas ({baseline}) × parcela "
            "transferida {share} = {gross} t CO2e a menos no escopo 1; a transportadora "
            "(ferrovia ou cabotagem) emite, pelas mesmas t·km, {carrier} do caminhão "
            "({measure_span} a menos por t·km): {carrier_t} t CO2e a mais no escopo 3, "
            "categoria 4 (transporte a montante). Efeito líquido: {cut} t CO2e/ano "
            "({measure_basis}). Logística interna (pátio, empilhadeiras, pás carregadeiras) "
            "não muda de modal e fica fora.",
            "en": "Own trucks (Scope 1): the rows' t CO2e ({baseline}) × share shifted {share} "
            "= {gross} t CO2e less in Scope 1; the carrier (rail or coastal shipping) emits, "
            "for the same t·km, {carrier} of the truck's ({measure_span} less per t·km): "
            "{carrier_t} t CO2e more in Scope 3, category 4 (upstream transportation). Net "
            "effect: {cut} t CO2e/yr ({measure_basis}). Internal logistics (yard trucks, "
            "forklifts, loaders) cannot shift mode and is left out.",
        },
        "refrigerant.basis": {
            "pt": "Emissão fugitiva das linhas ({baseline} t CO2e) × (1 − GWP {gwp_set} de "
            "{new} {new_gwp} ÷ {old_gwps}) × parcela convertida {share} = {cut} t CO2e/ano. "
            "Só o que está nos totais: gases do Protocolo de Montreal (R-22) ficam fora dos "
            "escopos e não são creditados (IPCC {gwp_set}{source}).",
            "en": "The rows' fugitive emissions ({baseline} t CO2e) × (1 − {gwp_set} GWP of "
            "{new} {new_gwp} ÷ {old_gwps}) × share converted {share} = {cut} t CO2e/yr. Only "
            "what is in the totals: Montreal Protocol gases (R-22) stay outside the scopes "
            "and are not credited (IPCC {gwp_set}{source}).",
        },
        "refrigerant.kpi": {
            "pt": "kg de {olds} recarregados por ano e % dos equipamentos convertidos para {new}",
            "en": "kg of {olds} recharged a year and % of the equipment converted to {new}",
        },
        "sf6.basis": {
            "pt": "Todo o SF6 vazado pelos equipamentos substituídos: {baseline} t CO2e × "
            "parcela substituída {share} = {cut} t CO2e/ano (equipamento livre de SF6 não "
            "emite gás de efeito estufa fluorado).",
            "en": "All of the SF6 leaked by the equipment replaced: {baseline} t CO2e × share "
            "replaced {share} = {cut} t CO2e/yr (SF6-free equipment emits no fluorinated "
            "greenhouse gas).",
        },
        "sf6.kpi": {
            "pt": "kg de SF6 recarregados por ano e nº de disjuntores/painéis livres de SF6",
            "en": "kg of SF6 recharged a year and number of SF6-free breakers/switchgear",
        },
        "fuel.same_energy": {
            "pt": "Base: o substituto fornece a mesma energia (PCI, em TJ) que a fração "
            "substituída, sem ganho de eficiência. ",
            "en": "Basis: the substitute supplies the same energy (NCV, in TJ) as the fraction "
            "replaced, with no efficiency gain. ",
        },
        "fuel.non_co2_not_credited": {
            "pt": "CH4 e N2O não são creditados (conservador). ",
            "en": "CH4 and N2O are not credited (conservative). ",
        },
        "fuel.solid": {
            "pt": " − CH4 e N2O do substituto ({name}), que ficam no escopo 1: {energy} TJ × "
            "({per_tj}) = {added} t CO2e × parcela {share} ({source}) + CH4 e N2O das linhas "
            "na fração substituída: {credited} t CO2e × parcela",
            "en": " − the substitute's ({name}) CH4 and N2O, which stay in Scope 1: {energy} TJ "
            "× ({per_tj}) = {added} t CO2e × share {share} ({source}) + the rows' CH4 and N2O "
            "in the fraction replaced: {credited} t CO2e × share",
        },
        "fuel.head": {
            "pt": "Escopo 1: CO2 fóssil das linhas ({fossil} t)",
            "en": "Scope 1: the rows' fossil CO2 ({fossil} t)",
        },
        "fuel.ratio": {
            "pt": "{head} × {ratio} × parcela substituída {share}",
            "en": "{head} × {ratio} × share replaced {share}",
        },
        "fuel.all_fossil": {
            "pt": "{head} × parcela substituída {share}: o {name} remove todo o CO2 fóssil da "
            "fração substituída",
            "en": "{head} × share replaced {share}: {name} removes all of the replaced "
            "fraction's fossil CO2",
        },
        "fuel.total": {
            "pt": " = {cut} t CO2e/ano. ",
            "en": " = {cut} t CO2e/yr. ",
        },
        "fuel.biogenic": {
            "pt": "CO2 biogênico do substituto, relatado fora dos escopos: {energy} TJ "
            "({fossil} t ÷ {factor} t CO2/TJ) × {bio_factor} t CO2/TJ × {share} = {biogenic} t "
            "(IPCC 2006, v. 2, cap. 1, tabela 1.4). ",
            "en": "The substitute's biogenic CO2, reported apart from the scopes: {energy} TJ "
            "({fossil} t ÷ {factor} t CO2/TJ) × {bio_factor} t CO2/TJ × {share} = {biogenic} t "
            "(IPCC 2006, vol. 2, ch. 1, table 1.4). ",
        },
        "fuel.unidentified": {
            "pt": "Em linhas de combustível não identificado, o CO2 biogênico não foi estimado. ",
            "en": "For rows whose fuel is not identified, biogenic CO2 was not estimated. ",
        },
        "fuel.same_molecule": {
            "pt": "{name}: o fator de CO2 por TJ é o de {substitute}, a mesma molécula. ",
            "en": "{name}: its CO2 per TJ is {substitute}'s, the same molecule. ",
        },
        "fuel.life_cycle": {
            "pt": "A faixa de ciclo de vida do catálogo ({measure_span}) não entra no escopo 1.",
            "en": "The catalogue's life-cycle range ({measure_span}) does not enter Scope 1.",
        },
        "fuel.kpi": {
            "pt": "% do consumo de {fuel} substituído por {name}{unit}",
            "en": "% of {fuel} consumption replaced by {name}{unit}",
        },
    },
)


def as_dict(text: Both) -> dict[str, str]:
    """A rule's basis or KPI as an Action stores it: one entry per language."""
    return {lang: text[lang] for lang in LANGS}
