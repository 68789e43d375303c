"""What a question asks of the attached inventory, read against that inventory's own values.

A question names its subject in the user's words ("our refrigerants", "methane from
effluents", "the Criciúma plant", "sem o escopo 3"); the inventory names its rows in the
workbook's. The words are matched to the fields whose values hold them, so a filter is one
the inventory can answer, and a subject it has no row of is said to be missing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.gases.gwp import BIOGENIC_CO2, canonical_gas, is_montreal, split_blend
from engine.inventory import fields as F
from engine.inventory.query import NOT_GIVEN, Field, in_category
from engine.offline.regulation import is_sbce_question
from engine.protocol import fold
from engine.texts import Texts

if TYPE_CHECKING:
    from engine.inventory import Inventory


@dataclass(frozen=True)
class Ask:
    kind: str = "figures"
    group_by: Field | None = "scope"
    filters: dict[str, str] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)  # how the answer names a filter
    top_n: int = 10
    top_asked: bool = False
    biogenic: bool = False
    refrigerants: bool = False
    gwp_sets: tuple[str, ...] = ()
    gases: tuple[str, ...] = ()  # several gases named: each one's figure and their sum
    # A family named as one ("the F-gases", "HFCs"): its kind and the inventory's members,
    # whose sum the answer gives beside each member's figure.
    family: tuple[str, tuple[str, ...]] | None = None
    each: tuple[tuple[Field, str, str], ...] = ()  # subjects of one field, summed
    year_lacking: tuple[str, ...] = ()
    scope3_asked: str = ""
    missing_topic: str = ""
    missing_field: Field | None = None
    costs: bool = False
    scopes: tuple[str, ...] = ()  # every scope named ("escopo 1 e escopo 2"), in order
    each_facility: bool = False  # "per installation": one figure for each
    scope2_why: bool = False  # why the market-based figure differs from the location-based


def _cue(*stems: str) -> re.Pattern[str]:
    """Stems that open a word: 'efluent' finds 'efluentes', never 'refluente'."""
    return re.compile(r"(?<![a-z0-9])(?:" + "|".join(stems) + ")")


_SCOPE = re.compile(r"(?<![a-z])(?:escopo|scope)s?\s*([123])(?![0-9])")
_YEAR = re.compile(r"(?<![0-9.,])((?:19|20)\d\d)(?![0-9.,])")
_TOP = re.compile(
    r"(?<![a-z])(?:top\s*(\d{1,2})|(\d{1,2}|dois|duas|tres|quatro|cinco|two|three|four|five|ten"
    r"|dez)\s+(?:maiores|principais|largest|biggest|main|top))"
)
_COUNT_WORDS = {"dois": 2, "duas": 2, "tres": 3, "quatro": 4, "cinco": 5, "dez": 10, "two": 2,
                "three": 3, "four": 4, "five": 5, "ten": 10}  # fmt: skip
_DIMENSIONS: tuple[tuple[Field, re.Pattern[str]], ...] = (
    ("fuel", _cue("combustive", "fuels?\\b", "insumo")),
    ("facility", _cue("unidades?\\b", "fabricas?", "plantas?\\b", "sites?\\b", "facilit",
                      "plants?\\b", "filia", "instalac", "installation", "estabelecimento")),
    ("source", _cue("fontes?\\b", "sources?\\b", "equipamento", "equipment", "maior emissor",
                    "largest emitter", "emite mais", "emits most", "mais emite", "maiores linhas",
                    "largest rows", "rows?\\b", "linhas?\\b")),
    ("category", _cue("categoria", "categor")),
    ("year", _cue("por ano", "evolu", "year over year", "each year", "per year", "ano a ano",
                  "by year")),
    ("gas", _cue("gases", "poluente", "pollutant", "por gas", "by gas", "per gas", "cada gas",
                 "each gas")),
)  # fmt: skip
_FUGITIVE = _cue("vazament", "leak", "fugitiv")
_REFRIGERANT = _cue("refrigera", "fluido refrigerante", "hfcs?\\b", "gases? refrigerantes",
                    "ar.condicionado", "air.condition", "chiller")  # fmt: skip
_PROCESS = _cue("descarbonat", "decarbonat", "calcinac", "calcination", "carbonato", "carbonate")
_BIOGENIC = _cue("biogenic", "biogenico")
_WITHOUT_SCOPE3 = re.compile(
    r"(?<![a-z])(?:sem|exclu\w*|exceto|tira\w*|retira\w*|remov\w*|desconsider\w*|deixa\w* de fora|"
    r"fora|without|excluding|except|ex|drop\w*|leav\w* out|tak\w* out|minus)\s+(?:o\s+|a\s+|"
    r"the\s+)?(?:escopo|scope)\s*3|(?:escopos?|scopes?|s)\s*1\s*(?:e|and|\+|,|plus|mais|com|with)"
    r"\s*(?:(?:o\s+|a\s+|the\s+)?(?:escopo|scope|s)\s*)?2(?![0-9])(?!\s*(?:e|and|,|\+)\s*"
    r"(?:(?:escopo|scope|s)\s*)?3)"
)
_EACH_FACILITY = re.compile(
    r"(?<![a-z])(?:por|cada|per|each|by|every|de cada|for each)\s+(?:(?:of\s+)?(?:our|the|nossas?|"
    r"as|os|uma|um)\s+)?(?:unidades?|"
    r"plantas?|fabricas?|filia(?:l|is)|instalac(?:ao|oes)|sites?|plants?|facilit(?:y|ies)|"
    r"installations?|estabelecimentos?)(?![a-z])"
)
_SCOPE_ANY = re.compile(r"(?<![a-z])(?:escopos?|scopes?|s)\s*([123])(?![0-9])")
_ESTIMATED = _cue("estimad", "estimated", "estimates\\b", "medidos?\\b", "measured",
                  "dados? primari", "primary data", "proxy", "qualidade do dado",
                  "tipo de dado")  # fmt: skip
_ELECTRICITY = _cue(
    "eletricidade",
    "electricity",
    "energia eletrica",
    "electric power",
    "grid electricity",
    "purchased electricity",
    "energia comprada",
)
_MARKET_TALK = _cue("mercado", "market", "escolha de compra", "localizac", "location")
_WHY = _cue("por que", "porque", "why", "explain", "explique", "diferen", "differ", "motivo",
            "razao", "reason", "menor", "lower", "maior", "higher", "zero")  # fmt: skip
_GWP_SET = re.compile(r"(?<![a-z0-9])(ar ?[456]|sar)(?![a-z0-9])")
_GWP_TALK = _cue("gwp", "ar ?[456]\\b", "potencial de aquecimento", "warming potential")
_QUALITY = _cue("qualidade", "quality", "apontamento", "finding", "erros?\\b", "errors?\\b",
                "celulas?", "cells?\\b", "inconsisten", "problemas", "problems", "issues",
                "falhas", "duplicad", "duplicat", "negativ", "faltando", "lacunas", "gaps",
                "#ref", "#div", "#n/a", "#valor", "#value")  # fmt: skip
_RECONCILE = _cue("concilia", "reconcil", "confer", "verifica", "verified", "verify", "checad",
                  "checked", "consisten", "bate\\b", "batem", "confiav", "reliab",
                  "trust")  # fmt: skip
_SHEETS = _cue("abas?\\b", "sheets?\\b", "tabs?\\b", "worksheets?", "planilhas\\b")
_LEVERS = _cue("alavanca", "levers?\\b", "onde reduzir", "where to (?:cut|reduce)", "reduzir",
               "reduc", "reduce", "reducing", "cortar", "cut\\b", "priori", "oportunidade",
               "opportunit", "mitiga", "descarboniz", "decarboni", "abater", "abate",
               "acoes", "actions", "medidas", "measures", "focar", "focus", "atacar",
               "tackle")  # fmt: skip
_COSTS = _cue("custos?\\b", "costs?\\b", "costing", "preco", "prices?\\b", "r\\$", "capex", "opex",
              "investiment", "investment", "payback", "orcamento", "budget", "gasto",
              "spend", "quanto custa", "how much would it cost")  # fmt: skip
_SCOPE3_NUMBER = re.compile(r"(?<![a-z])(?:categoria|category|cat\.?)\s*(\d{1,2})(?![0-9])")
# The GHG Protocol's fifteen Scope 3 categories, by number, as the ingestion names them.
SCOPE3_CATEGORIES = {
    1: "Bens e serviços comprados", 2: "Bens de capital",
    3: "Atividades relacionadas a combustível e energia",
    4: "Transporte e distribuição (upstream)", 5: "Resíduos gerados nas operações",
    6: "Viagens a negócios", 7: "Deslocamento de funcionários", 8: "Bens arrendados (upstream)",
    9: "Transporte e distribuição (downstream)", 10: "Processamento de produtos vendidos",
    11: "Uso de bens e serviços vendidos", 12: "Tratamento de fim de vida dos produtos vendidos",
    13: "Bens arrendados (downstream)", 14: "Franquias", 15: "Investimentos",
}  # fmt: skip
_SCOPE3_WORDS = (
    (1, ("bens e servicos comprados", "purchased goods", "compras", "purchases")),
    (2, ("bens de capital", "capital goods")),
    (4, ("transporte upstream", "upstream transport", "frete", "freight", "inbound")),
    (5, ("residuos", "waste")),
    (6, ("viagens", "viagem", "business travel", "voos", "flights", "air travel")),
    (7, ("deslocamento", "commuting", "commute")),
    (9, ("downstream", "distribuicao")),
    (11, ("uso dos produtos", "use of sold")),
    (12, ("fim de vida", "end of life", "end-of-life")),
    (15, ("investimentos", "investments")),
)
# A subject in the user's words and the stems the workbook may write it with.
_TOPICS: tuple[tuple[str, re.Pattern[str], tuple[str, ...]], ...] = (
    ("efluentes", _cue("efluente", "effluent", "wastewater", "waste water", "esgoto", "sewage",
                       "ete\\b", "aguas residuais", "tratamento de agua"),
     ("efluent", "effluent", "wastewater", "esgoto", "sewage", "ete", "residuais", "etar")),
    ("caldeiras", _cue("caldeira", "boiler"), ("caldeira", "boiler")),
    ("fornos", _cue("fornos?\\b", "kilns?", "furnace"), ("forno", "kiln", "furnace")),
    ("frota", _cue("frota", "fleet", "veiculo", "vehicle", "caminh", "trucks?"),
     ("frota", "fleet", "veicul", "vehicle", "caminh", "truck", "carro")),
    ("geradores", _cue("gerador", "generator"), ("gerador", "generator")),
    ("empilhadeiras", _cue("empilhadeira", "forklift"), ("empilhadeira", "forklift")),
    ("eletricidade", _cue("eletricidade", "electricity", "energia eletrica", "electric power",
                          "grid"), ("eletric", "electric", "energia", "rede", "grid")),
    ("aterro", _cue("aterro", "landfill"), ("aterro", "landfill")),
    ("resíduos", _cue("residuo", "waste\\b"), ("residuo", "waste")),
    ("viagens", _cue("viage", "travel", "voos?\\b", "flights?"), ("viage", "travel", "voo",
                                                                 "flight")),
    ("gás natural", _cue("gas natural", "natural gas"), ("gas natural", "natural gas")),
    ("diesel", _cue("diesel"), ("diesel",)),
    ("GLP", _cue("glp\\b", "lpg\\b", "gas liquefeito"), ("glp", "lpg")),
    ("gasolina", _cue("gasolina", "gasoline", "petrol"), ("gasolina", "gasoline")),
    ("etanol", _cue("etanol", "ethanol"), ("etanol", "ethanol")),
    ("biomassa", _cue("biomassa", "biomass", "cavaco", "lenha", "wood chips", "firewood"),
     ("cavaco", "lenha", "biomass", "madeira", "wood")),
    ("carvão", _cue("carvao", "coal\\b"), ("carvao", "coal")),
    ("fertilizantes", _cue("fertiliz"), ("fertiliz",)),
)  # fmt: skip
# Words of a workbook's names that say nothing about which row: never a filter by themselves.
_GENERIC = frozenset(
    "fabrica unidade planta filial sede site plant facility escritorio office total emissoes "
    "emissions consumo combustao combustion estacionaria stationary movel mobile energia fonte "
    "source escopo scope outros others geral general empresa company dados data inventario "
    "proprios proprias nacional nacionais ltda industria industrial usina usinas mina loja "
    "centro matriz das dos del the and for com sem por".split()
)
_FIELDS_FOR_TOPICS: tuple[Field, ...] = ("source", "category", "fuel", "facility")


def mentions_sbce(question: str) -> bool:
    return is_sbce_question(question)


def is_refrigerant(gas: object) -> bool:
    """HFCs, PFCs, HFOs and their R- blends, and the Montreal refrigerants (CFC, HCFC: R-22);
    not SF6 (switchgear insulation) nor NF3 (electronics)."""
    name = str(canonical_gas(str(gas)) or gas)
    if gas_family(name) in ("HFC", "PFC"):
        return True
    return bool(re.match(r"(?i)(?:hfc|pfc|hfo|hcfc|cfc|r-?\d)", name))


# The gas groups an inventory reports by (GHG Protocol; Kyoto basket plus NF3), in order.
FAMILIES = ("CO2", "CH4", "N2O", "HFC", "PFC", "SF6", "NF3")
_PFC = re.compile(r"^c?C\d*F\d+$")  # perfluorocarbons: only carbon and fluorine (CF4, C2F6)


def gas_family(gas: object) -> str:
    """'CO2', 'CH4', 'N2O', 'HFC', 'PFC', 'SF6', 'NF3'; 'Montreal' for a CFC or HCFC; 'other'.
    A blend is the family of its Kyoto components (R-404A is HFCs; R-408A's HCFC-22 part is
    the Montreal memo the ingestion already keeps apart)."""
    name = str(canonical_gas(str(gas)) or gas)
    if name in ("CO2", "CH4", "N2O", "SF6", "NF3"):
        return name
    parts = [part for part, _ in split_blend(name)]
    kinds = {_species_family(part) for part in parts}
    kyoto = [k for k in ("HFC", "PFC") if k in kinds]
    if kyoto:
        return kyoto[0]
    return "Montreal" if kinds == {"Montreal"} else "other"


def _species_family(name: str) -> str:
    if is_montreal(name):
        return "Montreal"
    if re.match(r"(?i)hfc", name):
        return "HFC"
    if _PFC.match(name):
        return "PFC"
    return "other"


# Refrigerant numbers (ASHRAE 34) of the pure gases an inventory names most.
_R_NUMBERS = {"HCFC22": "R-22", "HCFC141b": "R-141b", "HCFC142b": "R-142b", "CFC11": "R-11",
              "CFC12": "R-12", "CF4": "PFC-14", "C2F6": "PFC-116", "C3F8": "PFC-218",
              "cC4F8": "PFC-318"}  # fmt: skip


def gas_name(gas: object) -> str:
    """A gas as a reader names it: 'HFC134a' -> 'HFC-134a', 'HCFC22' -> 'HCFC-22 (R-22)'."""
    name = str(gas)
    dashed = re.sub(r"^(HFC|HCFC|CFC|HFO)(\d)", r"\1-\2", name)
    number = _R_NUMBERS.get(name)
    return f"{dashed} ({number})" if number else dashed


def read(question: str, inventory: Inventory) -> Ask:  # noqa: PLR0915 - one reading, in order
    """The ask: its kind, then its filters, breakdown and size, in the inventory's terms."""
    text = " " + " ".join(re.sub(r"[^a-z0-9#/$+.,\- ]+", " ", fold(question)).split()) + " "
    filters: dict[str, str] = {}
    labels: dict[str, str] = {}
    scope = _SCOPE.search(text)
    years = list(dict.fromkeys(_YEAR.findall(text)))
    lacking = tuple(y for y in years if y not in inventory.years)
    present = [y for y in years if y in inventory.years]
    costs = _COSTS.search(text) is not None
    if is_sbce_question(question) and not lacking:
        return Ask(kind="sbce")
    if lacking and not present:
        return Ask(kind="missing_year", year_lacking=lacking)
    if present and len(inventory.years) > 1:
        filters["year"] = present[0]
    facility = _facility_named(text, inventory)
    site = {"facility": facility[0]} if facility else {}
    site_label = {"facility": facility[1]} if facility else {}
    if _ESTIMATED.search(text) and not _GWP_TALK.search(text):
        return Ask(kind="estimated", filters={**_scope_filter(scope), **site}, labels=site_label)
    if _LEVERS.search(text) and not _QUALITY.search(text):
        return Ask(kind="levers", filters=_scope_filter(scope), costs=costs)
    if costs:
        return Ask(kind="costs")
    if _QUALITY.search(text):
        return Ask(kind="quality")
    if _RECONCILE.search(text) or (_SHEETS.search(text) and not _DIMENSIONS[1][1].search(text)):
        return Ask(kind="sheets")
    scopes = tuple(dict.fromkeys(_SCOPE_ANY.findall(text)))
    each_facility = _EACH_FACILITY.search(text) is not None
    if _GWP_TALK.search(text) and (sets := _gwp_sets_named(text)):
        return Ask(kind="gwp_sets", gwp_sets=sets, filters={**filters, **site}, labels=site_label,
                   scopes=scopes, each_facility=each_facility and not site)  # fmt: skip
    if _WITHOUT_SCOPE3.search(text):
        return Ask(kind="without_scope3", filters={**filters, **site}, labels=site_label,
                   each_facility=each_facility and not site)  # fmt: skip
    scope3 = _scope3_category(text)
    held = held_scope3(inventory)
    if scope3 is not None and scope3 not in held:
        return Ask(kind="missing_scope3", scope3_asked=str(scope3))
    if scope3 is not None:
        labels_held = held[scope3]
        filters["category"] = labels_held[0] if len(labels_held) == 1 else SCOPE3_CATEGORIES[scope3]
    elif scope and len(scopes) < 2:
        filters["scope"] = scope.group(1)
    scope2_why = _MARKET_TALK.search(text) is not None and _WHY.search(text) is not None
    if scope2_why and filters.get("scope", "2") == "2" and "category" not in filters:
        filters["scope"] = "2"
    else:
        scope2_why = False
    gases = _gases(question, text)
    leaks = _FUGITIVE.search(text) is not None or "SF6" in gases
    gases, family = _family_members(gases, text, inventory)  # after: a family is no leak
    # Refrigerants alone are the HFC rows; with leaks or SF6 named, the fugitive category.
    refrigerants = _REFRIGERANT.search(text) is not None and not leaks
    category = F.category_of(question)
    named_category = leaks or _PROCESS.search(text) is not None
    if leaks:
        category = ("1", "Emissões fugitivas")
    elif _PROCESS.search(text):
        category = ("1", "Processos industriais")
    if _REFRIGERANT.search(text) and leaks:  # "refrigerant and SF6 leaks": every leak
        gases = []
    if len(gases) == 1:
        filters["gas"] = gases[0]
    missing = ""
    each: tuple[tuple[Field, str, str], ...] = ()
    if not refrigerants:
        found, missing, each = _topics(text, inventory)
        if missing and _ELECTRICITY.search(text) and _has(inventory, F.SCOPE, "2"):
            # Electricity bought is Scope 2, whatever its rows are called (or not called).
            missing = ""
            filters.setdefault("scope", "2")
        # A category the question names and the inventory holds ("mobile combustion: trucks
        # and forklifts", "decarbonation in our kilns") is the subject; its examples are not.
        held = category is not None and _has(inventory, "category", fold(category[1]))
        named_category = named_category or held
        if named_category:
            found.pop("source", None)
            missing, each = "", ()
        named_source = _source_named(text, inventory)
        if named_source and not named_category:  # the row's own name: that source alone
            found["source"] = (fold(named_source), named_source)
        for key, (needle, label) in found.items():
            filters.setdefault(key, needle)
            labels[key] = label
        free = "scope" not in filters and "category" not in filters
        free = free and (named_category or not found)
        if category is not None and free and _has(inventory, "category", fold(category[1])):
            filters["category"] = category[1]
    if facility:
        filters["facility"], labels["facility"] = facility
    top = _TOP.search(text)
    top_n = 10
    if top:
        count = top.group(1) or top.group(2)
        top_n = int(count) if count.isdigit() else _COUNT_WORDS[count]
    group_by = _dimension(text, filters, gases, top is not None)
    if len(gases) > 1:
        group_by = "gas"
    elif len(scopes) > 1 and "scope" not in filters and "category" not in filters:
        group_by = "scope"  # "Scope 1, 2 and 3": each scope named, not the first alone
    return Ask(
        kind="figures", group_by=group_by, filters=filters, labels=labels, top_n=top_n,
        gases=tuple(gases) if len(gases) > 1 else (), each=each,
        family=family if len(gases) > 1 else None,
        top_asked=top is not None, biogenic=_BIOGENIC.search(text) is not None,
        refrigerants=refrigerants, year_lacking=lacking if present else (),
        missing_topic=missing, scope2_why=scope2_why, each_facility=each_facility,
    )  # fmt: skip


def _scope_filter(scope: re.Match[str] | None) -> dict[str, str]:
    return {"scope": scope.group(1)} if scope else {}


def _gwp_sets_named(text: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(m.replace(" ", "").upper() for m in _GWP_SET.findall(text)))


def _scope3_category(text: str) -> int | None:
    if "scope 3" not in text and "escopo 3" not in text:
        return None
    number = _SCOPE3_NUMBER.search(text)
    if number and 1 <= int(number.group(1)) <= 15:
        return int(number.group(1))
    return next((n for n, cues in _SCOPE3_WORDS if any(c in text for c in cues)), None)


_CATEGORY_NUMBER = re.compile(r"(?<![a-z])(?:categoria|category|cat)\.?\s*(\d{1,2})(?![0-9])")
_SCOPE3_BY_NAME = {fold(name): n for n, name in SCOPE3_CATEGORIES.items()}


def scope3_number(label: object) -> int | None:
    """The GHG Protocol number of a Scope 3 category as a workbook writes it ('Categoria 9 –
    Transporte...', 'Cat. 6', 'Viagens a negócios', 'Business travel'), else None."""
    if not isinstance(label, str) or not label.strip():
        return None
    folded = fold(label)
    written = _CATEGORY_NUMBER.search(folded)
    if written and 1 <= int(written.group(1)) <= 15:
        return int(written.group(1))
    named = F.category_of(label)
    if named and named[0] == "3":
        return _SCOPE3_BY_NAME.get(fold(named[1]))
    return next((n for name, n in _SCOPE3_BY_NAME.items() if name in folded), None)


def scope3_number_written(label: str) -> bool:
    """Whether a label writes its category's number ('Categoria 9 – ...', 'Cat. 6')."""
    return _CATEGORY_NUMBER.search(fold(label)) is not None


def held_scope3(inventory: Inventory) -> dict[int, list[str]]:
    """The Scope 3 categories the inventory reports, by number, with the labels it uses."""
    table = inventory.current
    if F.CATEGORY not in table:
        return {}
    rows = table
    if F.SCOPE in table:
        rows = table[table[F.SCOPE].map(lambda v: str(v).strip() in ("3", "3.0"))]
    held: dict[int, list[str]] = {}
    for value in rows[F.CATEGORY].dropna().unique():
        number = scope3_number(str(value))
        if number is not None:
            held.setdefault(number, []).append(str(value))
    return held


def _has(inventory: Inventory, field_name: str, needle: str) -> bool:
    table = inventory.current
    if field_name not in table:
        return False
    if field_name == F.CATEGORY:
        return any(in_category(v, needle) for v in table[field_name].dropna().unique())
    return any(needle in fold(str(v)) for v in table[field_name].dropna().unique())


# A family of gases the question names as one: its members are the inventory's own gases.
_FLUORINATED = re.compile(
    r"(?<![a-z])(?:fluorinated|fluorados?|f[- ]?gas(?:es)?|gases f(?![a-z])|gases fluor)"
)


def _with_families(gases: list[str], text: str, inventory: Inventory) -> list[str]:
    """``gases`` with a family replaced by the inventory's members of it: "HFCs" by its
    HFCs and HFC blends (R-404A), "fluorinated gases" by those and its PFCs, SF6 and NF3;
    Montreal gases (HCFCs) are never a member, being reported apart."""
    return _family_members(gases, text, inventory)[0]


def _family_members(
    gases: list[str], text: str, inventory: Inventory
) -> tuple[list[str], tuple[str, tuple[str, ...]] | None]:
    """``_with_families``, and the family named with its members (None when none is)."""
    fluorinated = _FLUORINATED.search(text) is not None
    if "HFCs" not in gases and not fluorinated:
        return gases, None
    table = inventory.current
    held = [str(g) for g in table[F.GAS].dropna().unique()] if F.GAS in table else []
    members: list[str] = []
    for gas in held:
        if gas in ("CO2", "CH4", "N2O", BIOGENIC_CO2, "HFCs") or is_montreal(gas):
            continue
        parts = [part for part, _ in split_blend(gas)]
        hfc = all(part.upper().startswith("HFC") for part in parts)
        if hfc or (fluorinated and (gas in ("SF6", "NF3") or _PFC.match(gas))):
            members.append(gas)
    if not members:
        return gases, None
    family = ("fluorinated" if fluorinated else "HFCs", tuple(members))
    return [g for g in gases if g != "HFCs"] + [m for m in members if m not in gases], family


def _gases(question: str, text: str) -> list[str]:
    """The gases a question names. "CO2" alone is most often the unit ("t CO2"), so it is a
    gas only as fossil CO2 or in a list of gases ("CO2, CH4, N2O and the F-gases")."""
    every = [g for w in re.findall(r"[\w\-]+", question) if (g := canonical_gas(w))]
    named = [g for g in every if g not in ("CO2", BIOGENIC_CO2)]
    if "CO2" in every and (named or _GAS_WORD.search(text)) and _CO2_LISTED.search(text):
        named.insert(every.index("CO2") - every[: every.index("CO2")].count(BIOGENIC_CO2), "CO2")
    if re.search(r"(?<![a-z])(?:metano|methane)", text):
        named.append("CH4")
    if "oxido nitroso" in text or "nitrous oxide" in text:
        named.append("N2O")
    if re.search(r"(?<![a-z])co2 fossil|fossil co2", text):
        named.append("CO2")
    return list(dict.fromkeys(named))


# CO2 as one gas of a list, not the unit of a figure ("t CO2", "kg de CO2", "CO2e").
_CO2_LISTED = re.compile(r"(?<![a-z0-9])(?<!t )(?<!kg )(?<!de )(?<!of )co2(?![a-z0-9])")
# A gas named by its name, or a family of them, beside CO2 makes CO2 one of the list.
_GAS_WORD = re.compile(
    r"(?<![a-z])(?:metano|methane|oxido nitroso|nitrous oxide|fluorinated|fluorados?|"
    r"f[- ]?gas(?:es)?|gases f(?![a-z])|hfcs?|pfcs?)(?![a-z])"
)


def _topics(
    text: str, inventory: Inventory
) -> tuple[dict[str, tuple[str, str]], str, tuple[tuple[Field, str, str], ...]]:
    """Each subject the question names, as (field, needle) the inventory's values hold; the
    first subject none of its values holds, in the question's words; and the subjects that
    share a field ("trucks and forklifts"), each queried apart and summed."""
    found: dict[str, tuple[str, str]] = {}
    shared: set[str] = set()  # fields two subjects fall in: no one filter holds both
    placed_in: list[tuple[Field, str, str]] = []
    missing = ""
    table = inventory.current
    for label, cue, stems in _TOPICS:
        hit = cue.search(text)
        if hit is None:
            continue
        placed = False
        # The user's own word first: "caminhões" finds the trucks, not "frota" elsewhere.
        word = text[hit.start() :]
        ordered = sorted(stems, key=lambda stem: (not word.startswith(stem), stem not in text))
        for field_name in _FIELDS_FOR_TOPICS:
            if field_name not in table:
                continue
            values = [fold(str(v)) for v in table[field_name].dropna().unique()]
            needle = next(
                (s for s in ordered if any(re.search(rf"(?<![a-z]){s}", v) for v in values)), None
            )
            if needle is None:
                continue
            placed = True
            if field_name in found:
                shared.add(field_name)
            else:
                found[field_name] = (needle, label)
            placed_in.append((field_name, needle, label))
            break
        if not placed and not missing:
            missing = text[hit.start() :].split(maxsplit=1)[0]
    kept = {k: v for k, v in found.items() if k not in shared}
    each = tuple((f, n, label) for f, n, label in placed_in if f in shared)
    return kept, missing, each


def names_what_it_holds(question: str, inventory: Inventory) -> bool:
    """Whether the question names one of the inventory's installations by a word of its own
    ("Patos de Minas") or one of its sources by its whole name: then it is about that
    inventory, in whatever words it asks."""
    text = " " + " ".join(re.sub(r"[^a-z0-9#/$+.,\- ]+", " ", fold(question)).split()) + " "
    named = _facility_named(text, inventory) or _source_named(text, inventory)
    return named is not None


def _source_named(text: str, inventory: Inventory) -> str | None:
    """A source the question names by its whole name in the workbook ("a caldeira a gás"),
    the longest one, so a filter is that row's name and not a stem other rows share."""
    table = inventory.current
    if F.SOURCE not in table:
        return None
    named = [
        str(value)
        for value in table[F.SOURCE].dropna().unique()
        if len(folded := " ".join(re.sub(r"[^a-z0-9]+", " ", fold(str(value))).split())) >= 8
        and len(folded.split()) >= 2
        and f" {folded} " in text
    ]
    return max(named, key=len) if named else None


def _facility_named(text: str, inventory: Inventory) -> tuple[str, str] | None:
    """A facility the question names by a word of its own ("Criciúma")."""
    table = inventory.current
    if F.FACILITY not in table:
        return None
    for value in table[F.FACILITY].dropna().unique():
        for word in re.findall(r"[a-z]{3,}", fold(str(value))):
            if word not in _GENERIC and re.search(rf"(?<![a-z]){word}(?![a-z])", text):
                return word, str(value)
    return None


def _dimension(text: str, filters: dict[str, str], gases: list[str], top: bool) -> Field | None:
    named = [f for f, cue in _DIMENSIONS if cue.search(text)]
    # The breakdown asked for, unless it only names the filter ("a unidade de Criciúma").
    for dimension in named:
        if dimension not in filters:
            return dimension
    if top:
        return "source"
    if gases and "gas" in filters:
        return "source"
    if "category" in filters and filters["category"] == "Emissões fugitivas":
        return "gas"
    if "category" in filters or "fuel" in filters or "source" in filters:
        return "source" if "source" not in filters else "facility"
    if "facility" in filters:
        return "scope" if "scope" not in filters else "source"
    if "scope" in filters:
        return "category"
    return "scope"


# What the figures' answers say; "note.<category>" is what a category's figure means,
# so a lookup also says how it is counted.
TEXTS = Texts(
    "engine.offline.inventory_words",
    {
        "scope": {
            "pt": "Escopo",
            "en": "Scope",
        },
        "heading.scope": {
            "pt": "escopo",
            "en": "scope",
        },
        "heading.gas": {
            "pt": "gás",
            "en": "gas",
        },
        "heading.facility": {
            "pt": "unidade",
            "en": "facility",
        },
        "heading.category": {
            "pt": "categoria",
            "en": "category",
        },
        "heading.fuel": {
            "pt": "combustível ou insumo",
            "en": "fuel or input",
        },
        "heading.year": {
            "pt": "ano",
            "en": "year",
        },
        "heading.source": {
            "pt": "fonte",
            "en": "source",
        },
        "heading_plural.scope": {
            "pt": "escopos",
            "en": "scopes",
        },
        "heading_plural.gas": {
            "pt": "gases",
            "en": "gases",
        },
        "heading_plural.facility": {
            "pt": "unidades",
            "en": "facilities",
        },
        "heading_plural.category": {
            "pt": "categorias",
            "en": "categories",
        },
        "heading_plural.fuel": {
            "pt": "combustíveis",
            "en": "fuels",
        },
        "heading_plural.year": {
            "pt": "anos",
            "en": "years",
        },
        "heading_plural.source": {
            "pt": "fontes",
            "en": "sources",
        },
        "total": {
            "pt": "Total do inventário",
            "en": "Inventory total",
        },
        "of_total": {
            "pt": "do total de",
            "en": "of the total of",
        },
        "by": {
            "pt": "Por",
            "en": "By",
        },
        "top": {
            "pt": " (as {n} maiores)",
            "en": " (the {n} largest)",
        },
        "year_of": {
            "pt": "Ano do inventário",
            "en": "Inventory year",
        },
        "not_given": {
            "pt": NOT_GIVEN,  # the query's own word for a blank field
            "en": "(not given)",
        },
        "rows": {
            "pt": "As {n} maiores linhas",
            "en": "The {n} largest rows",
        },
        "biogenic": {
            "pt": "CO2 biogênico, relatado à parte e fora do total",
            "en": "Biogenic CO2, reported apart and outside the total",
        },
        "gas_mass": {
            "pt": "Massa do gás: {mass} t de {gas}.",
            "en": "Mass of the gas: {mass} t of {gas}.",
        },
        "of_scope": {
            "pt": "É {share}% do Escopo {scope} ({total} t CO2e).",
            "en": "That is {share}% of Scope {scope} ({total} t CO2e).",
        },
        "groups_workbook_set": {
            "pt": "Com o GWP {set} (o dos totais da planilha), por {heading}: {listed} t CO2e.",
            "en": "With {set} GWPs (those of the workbook's totals), by {heading}: {listed} t "
            "CO2e.",
        },
        "workbook_set": {
            "pt": "Com o GWP {set}, o conjunto dos totais da própria planilha: {total} t CO2e.",
            "en": "With {set} GWPs, the set of the workbook's own totals: {total} t CO2e.",
        },
        "none": {
            "pt": "Nenhuma linha do inventário anexado atende a esse filtro.",
            "en": "No row of the attached inventory matches that filter.",
        },
        "there": {
            "pt": "O inventário traz estas {heading}: {values}.",
            "en": "The inventory holds these {heading}: {values}.",
        },
        "no_topic": {
            "pt": "O inventário anexado não tem linhas de {topic}.",
            "en": "The attached inventory has no rows for {topic}.",
        },
        "gases_named": {
            "pt": "{listed}; juntos, {together} t CO2e, {share}% do total de {whole} t CO2e (GWP "
            "{gwp}).",
            "en": "{listed}; together {together} t CO2e, {share}% of the total of {whole} t CO2e "
            "(GWP {gwp}).",
        },
        "gases_absent": {
            "pt": "O inventário não tem linhas de {gases}.",
            "en": "The inventory has no rows of {gases}.",
        },
        "family_name.fluorinated": {
            "pt": "gases fluorados",
            "en": "Fluorinated gases",
        },
        "family_name.HFCs": {
            "pt": "HFCs",
            "en": "HFCs",
        },
        "family_sum": {
            "pt": "{family} ({members}), juntos: {total} t CO2e.",
            "en": "{family} ({members}) together: {total} t CO2e.",
        },
        "gas_there": {
            "pt": "O {gas} que ele traz soma {total} t CO2e, por fonte",
            "en": "The {gas} it holds adds up to {total} t CO2e, by source",
        },
        "no_year": {
            "pt": "O inventário anexado não traz dados de {asked}: ele cobre {years}.",
            "en": "The attached inventory has no data for {asked}: it covers {years}.",
        },
        "no_scope3": {
            "pt": "A categoria {n} do escopo 3 ({name}) não está incluída neste inventário: o "
            "inventário anexado não a relata. As categorias de escopo 3 que ele traz: "
            "{listed}.",
            "en": "Scope 3 category {n} ({name}) is not included in this inventory: the attached "
            "inventory does not report it. The Scope 3 categories it includes: {listed}.",
        },
        "no_scope3_at_all": {
            "pt": "A categoria {n} do escopo 3 ({name}) não está incluída neste inventário, nem "
            "nenhuma outra: o inventário anexado não tem linhas de escopo 3.",
            "en": "Scope 3 category {n} ({name}) is not included in this inventory, nor is any "
            "other: the attached inventory does not report Scope 3.",
        },
        "category_word": {
            "pt": "categoria",
            "en": "category",
        },
        "no_costs": {
            "pt": "O inventário anexado não traz custos, preços nem investimentos: traz emissões, "
            "{total} t CO2e (GWP {gwp}), assim: {listed}. Para custos de redução, peça as "
            "medidas calculadas para este inventário.",
            "en": "The attached inventory holds no costs, prices or investments: it holds "
            "emissions, {total} t CO2e (GWP {gwp}), as follows: {listed}. For reduction "
            "costs, ask for the measures computed for this inventory.",
        },
        "refrigerants": {
            "pt": "Gases refrigerantes (HFC, PFC e misturas como R-404A e R-410A) no inventário: "
            "{total} t CO2e, {share}% do total de {whole} t CO2e (GWP {gwp}). Por gás: "
            "{listed}. O SF6 não entra aqui: é isolante de equipamentos elétricos, não "
            "refrigerante.",
            "en": "Refrigerant gases (HFCs, PFCs and blends such as R-404A and R-410A) in the "
            "inventory: {total} t CO2e, {share}% of the total of {whole} t CO2e (GWP {gwp}). "
            "By gas: {listed}. SF6 is not among them: it insulates electrical switchgear, it "
            "is not a refrigerant.",
        },
        "montreal": {
            "pt": "Gases do Protocolo de Montreal (como o HCFC-22, R-22), relatados à parte e "
            "fora do total, com o CO2e só para informação: {listed}.",
            "en": "Montreal Protocol gases (such as HCFC-22, R-22), reported apart and outside "
            "the total, their CO2e for information only: {listed}.",
        },
        "montreal_part": {
            "pt": "parte do Protocolo de Montreal da mistura",
            "en": "Montreal Protocol part of the blend",
        },
        "montreal_no_mass": {
            "pt": "a planilha traz só t CO2e, sem a massa",
            "en": "the workbook gives t CO2e only, no mass",
        },
        "montreal_rule": {
            "pt": "O {gas} é um gás do Protocolo de Montreal (destrói a camada de ozônio): o GHG "
            "Protocol e o Programa Brasileiro GHG Protocol o relatam à parte, fora dos "
            "escopos e do total, nunca somado.",
            "en": "{gas} is a Montreal Protocol gas (it depletes the ozone layer): the GHG "
            "Protocol and the Brazilian GHG Protocol Program report it apart, outside the "
            "scopes and the total, never added to it.",
        },
        "montreal_absent": {
            "pt": "O inventário anexado não tem linhas de {gas}.",
            "en": "The attached inventory has no {gas} rows.",
        },
        "montreal_held": {
            "pt": "No inventário anexado: {listed} (GWP {gwp}), só para informação; fora do total "
            "de {total} t CO2e.",
            "en": "In the attached inventory: {listed} (GWP {gwp}), for information only; outside "
            "the total of {total} t CO2e.",
        },
        "montreal_where": {
            "pt": "Linhas",
            "en": "Rows",
        },
        "by_gas": {
            "pt": "Por gás, no total de {total} t CO2e (GWP {gwp}): {listed}.",
            "en": "By gas, in the total of {total} t CO2e (GWP {gwp}): {listed}.",
        },
        "family.CO2": {
            "pt": "CO2 fóssil",
            "en": "fossil CO2",
        },
        "family.CH4": {
            "pt": "CH4",
            "en": "CH4",
        },
        "family.N2O": {
            "pt": "N2O",
            "en": "N2O",
        },
        "family.HFC": {
            "pt": "HFCs",
            "en": "HFCs",
        },
        "family.PFC": {
            "pt": "PFCs",
            "en": "PFCs",
        },
        "family.SF6": {
            "pt": "SF6",
            "en": "SF6",
        },
        "family.NF3": {
            "pt": "NF3",
            "en": "NF3",
        },
        "family.other": {
            "pt": "outros gases",
            "en": "other gases",
        },
        "no_gas": {
            "pt": "Sem gás informado (linhas que a planilha traz só em t CO2e, no total): {t} t "
            "CO2e, em {scopes}.",
            "en": "No gas given (rows the workbook gives only in t CO2e, in the total): {t} t "
            "CO2e, in {scopes}.",
        },
        "s2_location": {
            "pt": " (localização)",
            "en": " (location-based)",
        },
        "combined": {
            "pt": "{site}: {parts}; escopos 1 e 2 somados: {without} t CO2e (GWP {gwp}).",
            "en": "{site}: {parts}; Scopes 1 and 2 together: {without} t CO2e (GWP {gwp}).",
        },
        "combined_s3": {
            "pt": "O escopo 3 da unidade, {scope3} t CO2e, fica fora desta soma.",
            "en": "The facility's Scope 3, {scope3} t CO2e, stays out of this sum.",
        },
        "market_beside": {
            "pt": "Escopo 2 pela escolha de compra (market-based): {market} t CO2e, relatado ao "
            "lado, nunca somado.",
            "en": "Scope 2 by the market-based method: {market} t CO2e, reported beside it, never "
            "added.",
        },
        "market_short": {
            "pt": "escopo 2 por escolha de compra",
            "en": "market-based Scope 2",
        },
        "by_facility_s12": {
            "pt": "Escopos 1 e 2 por unidade (escopo 2 por localização), t CO2e (GWP {gwp}):",
            "en": "Scopes 1 and 2 per facility (Scope 2 location-based), t CO2e (GWP {gwp}):",
        },
        "per_facility": {
            "pt": "por unidade",
            "en": "per facility",
        },
        "market_why": {
            "pt": "O método de escolha de compra (market-based) usa os instrumentos contratuais "
            "da energia comprada — certificados de energia renovável (I-REC e outros "
            "certificados de atributo), contratos de fornecimento (PPA, mercado livre) com o "
            "fator do fornecedor — em vez do fator médio da rede (SIN) do método de "
            "localização; por isso os dois diferem, e são relatados lado a lado.",
            "en": "The market-based method counts the contractual instruments of the electricity "
            "bought — renewable energy certificates (I-RECs and other energy attribute "
            "certificates), supply contracts (PPAs, the free market) with the supplier's "
            "factor — instead of the grid average (SIN) of the location-based method; that is "
            "why the two differ, and they are reported side by side.",
        },
        "market_sites": {
            "pt": "Onde diferem",
            "en": "Where they differ",
        },
        "market_site": {
            "pt": "{site}: localização {location}, escolha de compra {market} t CO2e",
            "en": "{site}: location-based {location}, market-based {market} t CO2e",
        },
        "market_shows": {
            "pt": "A planilha mostra: {listed}.",
            "en": "The workbook shows: {listed}.",
        },
        "market_unshown": {
            "pt": "A planilha não diz qual instrumento contratual explica a diferença.",
            "en": "The workbook does not say which contractual instrument explains the difference.",
        },
        "no_quality_column": {
            "pt": "A planilha não tem uma coluna que diga quais linhas são estimadas e quais são "
            "medidas (como “Qualidade do dado” ou “Tipo de dado”).",
            "en": "The workbook has no column saying which rows are estimated and which are "
            "measured (such as “Qualidade do dado” or “Data quality”).",
        },
        "none_estimated": {
            "pt": "Nenhuma linha está marcada como estimada em {columns}.",
            "en": "No row is marked as estimated in {columns}.",
        },
        "estimated": {
            "pt": "Linhas marcadas como estimadas em {columns}: {n}, somando {total} t CO2e, "
            "{share}% do total de {whole} t CO2e (GWP {gwp}):",
            "en": "Rows marked as estimated in {columns}: {n}, adding up to {total} t CO2e, "
            "{share}% of the total of {whole} t CO2e (GWP {gwp}):",
        },
        "estimated_montreal": {
            "pt": "{gas}, Protocolo de Montreal, fora do total",
            "en": "{gas}, Montreal Protocol, outside the total",
        },
        "more_rows": {
            "pt": "…e mais {n} linhas.",
            "en": "…and {n} more rows.",
        },
        "no_refrigerant": {
            "pt": "O inventário anexado não tem linhas de gases refrigerantes (HFC, PFC ou "
            "misturas R-).",
            "en": "The attached inventory has no refrigerant gas rows (HFC, PFC or R- blends).",
        },
        "without_scope3": {
            "pt": "Sem o escopo 3, o inventário soma {without} t CO2e ({parts}), {share}% do "
            "total de {total} t CO2e (GWP {gwp}); o escopo 3 soma {scope3} t CO2e.",
            "en": "Without Scope 3 the inventory adds up to {without} t CO2e ({parts}), {share}% "
            "of the total of {total} t CO2e (GWP {gwp}); Scope 3 adds up to {scope3} t CO2e.",
        },
        "own": {
            "pt": " (o do inventário)",
            "en": " (the inventory's)",
        },
        "gwp_gap": {
            "pt": "De {b} para {a}, a cifra muda {gap} t CO2e ({change}%): as mesmas massas com "
            "os GWP do {a} (CH4, N2O, HFCs, SF6 de cada relatório do IPCC).",
            "en": "From {b} to {a} the figure changes by {gap} t CO2e ({change}%): the same "
            "masses with {a}'s GWPs (CH4, N2O, HFCs, SF6 of each IPCC report).",
        },
        "gwp_note": {
            "pt": "Mesmas massas de gás × GWP de cada conjunto (IPCC, 100 anos); uma linha que a "
            "planilha traz só em t CO2e de um gás nomeado é refeita pela razão entre o GWP do "
            "conjunto e o do inventário, e uma sem gás entra igual em todos os conjuntos.",
            "en": "The same gas masses × each set's GWPs (IPCC, 100 years); a row the workbook "
            "gives only in t CO2e of one named gas is rescaled by the ratio of the set's GWP "
            "to the inventory's, and one with no gas counts the same under every set.",
        },
        "no_masses": {
            "pt": "A planilha traz só t CO2e, sem massa por gás: o total não pode ser refeito em "
            "outro conjunto de GWP.",
            "en": "The workbook gives only t CO2e, no mass per gas: the total cannot be "
            "recomputed under another GWP set.",
        },
        "gwp_fixed": {
            "pt": "{subject}: {t} t CO2e em qualquer conjunto de GWP — a planilha traz essas "
            "linhas só em t CO2e, sem massa por gás, e elas entram iguais em AR4, AR5 e AR6.",
            "en": "{subject}: {t} t CO2e under any GWP set — the workbook gives these rows in t "
            "CO2e only, with no mass per gas, so they count the same under AR4, AR5 and AR6.",
        },
        "sbce_rule": {
            "pt": "Pela Lei nº 15.042/2024, os limites do SBCE valem por instalação, sobre as "
            "emissões de cada uma (escopo 1), não pelo total da empresa: acima de {low} t "
            "CO2e por ano, plano de monitoramento e relato anual; acima de {high} t CO2e, "
            "também a conciliação periódica de obrigações (entrega de cotas). No inventário "
            "anexado:",
            "en": "Under Law 15,042/2024 the SBCE thresholds apply per installation, to each "
            "one's emissions (Scope 1), not to the company's total: above {low} t CO2e a "
            "year, a monitoring plan and an annual report; above {high} t CO2e, also the "
            "periodic reconciliation of obligations (surrendering allowances). In the "
            "attached inventory:",
        },
        "scope1": {
            "pt": "no escopo 1",
            "en": "in Scope 1",
        },
        "sbce_allowances": {
            "pt": "acima do limite de conciliação: monitorar, relatar e entregar cotas (CBE) ou "
            "certificados (CRVE).",
            "en": "above the reconciliation threshold: monitor, report and surrender allowances "
            "(CBE) or certificates (CRVE).",
        },
        "sbce_reporting": {
            "pt": "acima do limite de relato: plano de monitoramento e relato anual, sem entrega "
            "de cotas.",
            "en": "above the reporting threshold: monitoring plan and annual report, no "
            "allowances to surrender.",
        },
        "sbce_below": {
            "pt": "abaixo dos limites: sem obrigação no SBCE.",
            "en": "below the thresholds: no SBCE obligation.",
        },
        "sbce_caveat": {
            "pt": "O órgão gestor pode elevar os limites na regulamentação, e a produção primária "
            "agropecuária fica fora das obrigações.",
            "en": "The regulator may raise the thresholds, and primary agricultural production is "
            "excluded from the obligations.",
        },
        "sbce_none": {
            "pt": "O inventário anexado não traz unidades (instalações) para aplicar os limites "
            "do SBCE.",
            "en": "The attached inventory names no facilities (installations) to apply the SBCE "
            "thresholds to.",
        },
        "source": {
            "pt": "Fonte",
            "en": "Source",
        },
        "overall": {
            "pt": "Situação da conferência do inventário: {status}.",
            "en": "Reconciliation status of the inventory: {status}.",
        },
        "status.reconciled": {
            "pt": "conferido",
            "en": "reconciled",
        },
        "status.unverified": {
            "pt": "sem totais para conferir",
            "en": "no totals to check against",
        },
        "status.ambiguous": {
            "pt": "unidade não provada (ambígua)",
            "en": "unit not proven (ambiguous)",
        },
        "status.conflict": {
            "pt": "não confere",
            "en": "does not reconcile",
        },
        "findings": {
            "pt": "Apontamentos de qualidade dos dados: {n}.",
            "en": "Data-quality findings: {n}.",
        },
        "not_verification": {
            "pt": "Conferido quer dizer que os números da planilha batem com os próprios totais "
            "dela; não é verificação por terceira parte (ISO 14064-3 ou asseguração): nada do "
            "que li a atesta, então trate o inventário como não verificado até haver uma "
            "declaração de verificação.",
            "en": "Reconciled means the workbook's figures agree with its own totals; it is not "
            "third-party verification (ISO 14064-3 or an assurance engagement): nothing I "
            "read attests one, so treat the inventory as not verified until a verification "
            "statement says otherwise.",
        },
        "no_findings": {
            "pt": "Qualidade dos dados: nenhum problema encontrado.",
            "en": "Data quality: no problem found.",
        },
        "more": {
            "pt": "…e mais {n} apontamentos.",
            "en": "…and {n} more findings.",
        },
        "general": {
            "pt": "geral",
            "en": "general",
        },
        "no_sheets": {
            "pt": "Nenhuma aba conferida.",
            "en": "No sheet was checked.",
        },
        "data_rows": {
            "pt": "{n} linhas de dados",
            "en": "{n} data rows",
        },
        "levers": {
            "pt": "Onde reduzir pesa mais: as {n} maiores fontes do inventário — {listed} — somam "
            "{summed} t CO2e, {share}% do total de {total} t CO2e. As reduções calculadas "
            "pelas regras do GHG Protocol para elas seguem.",
            "en": "Where a reduction weighs most: the inventory's {n} largest sources — {listed} "
            "— add up to {summed} t CO2e, {share}% of the total of {total} t CO2e. The "
            "reductions computed for them under GHG Protocol rules follow.",
        },
        "levers_costs": {
            "pt": "O inventário não traz custos; as faixas de custo, quando houver, vêm das "
            "medidas calculadas.",
            "en": "The inventory holds no costs; cost ranges, where there are any, come from the "
            "computed measures.",
        },
        "location": {
            "pt": "Escopo 2 pelo método de localização (location-based, fator médio do SIN)",
            "en": "Scope 2 by the location-based method (Brazilian grid average)",
        },
        "market": {
            "pt": "pelo método de escolha de compra (market-based)",
            "en": "by the market-based method",
        },
        "side_by_side": {
            "pt": "os dois são relatados lado a lado, nunca somados",
            "en": "the two are reported side by side, never added together",
        },
        "no_market": {
            "pt": "o inventário não traz o método de escolha de compra (market-based); os dois "
            "métodos são relatados lado a lado, nunca somados",
            "en": "the inventory has no market-based figure; the two methods are reported side by "
            "side, never added up",
        },
        "note.Processos industriais": {
            "pt": "São emissões de processo, fora da combustão: o CO2 liberado na descarbonatação "
            "(calcinação) de carbonatos como calcita e dolomita, relatado no escopo 1.",
            "en": "These are process emissions, not combustion: the CO2 released when carbonates "
            "such as calcite and dolomite are decarbonated (calcination), reported in scope 1.",
        },
        "note.Emissões fugitivas": {
            "pt": "São vazamentos de gases (refrigerantes HFC e SF6 de equipamentos elétricos), "
            "relatados no escopo 1; gases do Protocolo de Montreal, como o R-22, ficam fora "
            "do total.",
            "en": "These are gas leaks (HFC refrigerants and SF6 from electrical equipment), "
            "reported in scope 1; Montreal Protocol gases such as R-22 stay out of the total.",
        },
        "fossil_co2": {"pt": "CO2 fóssil", "en": "fossil CO2"},
        # The subjects' names: the Portuguese one is the label the question was read by.
        "topic.efluentes": {"pt": "efluentes", "en": "effluents"},
        "topic.caldeiras": {"pt": "caldeiras", "en": "boilers"},
        "topic.fornos": {"pt": "fornos", "en": "kilns"},
        "topic.frota": {"pt": "frota", "en": "fleet"},
        "topic.geradores": {"pt": "geradores", "en": "generators"},
        "topic.empilhadeiras": {"pt": "empilhadeiras", "en": "forklifts"},
        "topic.eletricidade": {"pt": "eletricidade", "en": "electricity"},
        "topic.aterro": {"pt": "aterro", "en": "landfill"},
        "topic.resíduos": {"pt": "resíduos", "en": "waste"},
        "topic.viagens": {"pt": "viagens", "en": "travel"},
        "topic.gás natural": {"pt": "gás natural", "en": "natural gas"},
        "topic.diesel": {"pt": "diesel", "en": "diesel"},
        "topic.GLP": {"pt": "GLP", "en": "LPG"},
        "topic.gasolina": {"pt": "gasolina", "en": "gasoline"},
        "topic.etanol": {"pt": "etanol", "en": "ethanol"},
        "topic.biomassa": {"pt": "biomassa", "en": "biomass"},
        "topic.carvão": {"pt": "carvão", "en": "coal"},
        "topic.fertilizantes": {"pt": "fertilizantes", "en": "fertilisers"},
        # The GHG Protocol's names of the Scope 3 categories; Portuguese as ingested.
        "scope3.1": {"pt": SCOPE3_CATEGORIES[1], "en": "Purchased goods and services"},
        "scope3.2": {"pt": SCOPE3_CATEGORIES[2], "en": "Capital goods"},
        "scope3.3": {"pt": SCOPE3_CATEGORIES[3], "en": "Fuel- and energy-related activities"},
        "scope3.4": {"pt": SCOPE3_CATEGORIES[4], "en": "Upstream transportation and distribution"},
        "scope3.5": {"pt": SCOPE3_CATEGORIES[5], "en": "Waste generated in operations"},
        "scope3.6": {"pt": SCOPE3_CATEGORIES[6], "en": "Business travel"},
        "scope3.7": {"pt": SCOPE3_CATEGORIES[7], "en": "Employee commuting"},
        "scope3.8": {"pt": SCOPE3_CATEGORIES[8], "en": "Upstream leased assets"},
        "scope3.9": {
            "pt": SCOPE3_CATEGORIES[9],
            "en": "Downstream transportation and distribution",
        },
        "scope3.10": {"pt": SCOPE3_CATEGORIES[10], "en": "Processing of sold products"},
        "scope3.11": {"pt": SCOPE3_CATEGORIES[11], "en": "Use of sold products"},
        "scope3.12": {"pt": SCOPE3_CATEGORIES[12], "en": "End-of-life treatment of sold products"},
        "scope3.13": {"pt": SCOPE3_CATEGORIES[13], "en": "Downstream leased assets"},
        "scope3.14": {"pt": SCOPE3_CATEGORIES[14], "en": "Franchises"},
        "scope3.15": {"pt": SCOPE3_CATEGORIES[15], "en": "Investments"},
    },
)


def topic_name(label: str, lang: str) -> str:
    """A subject the question named, in the answer's language (as read when none is known)."""
    key = f"topic.{label}"
    return TEXTS(key, lang) if key in TEXTS else label


def scope3_name(number: int, lang: str) -> str:
    """The GHG Protocol's name of Scope 3 category ``number``."""
    return TEXTS(f"scope3.{number}", lang)
