"""``calcular_emissoes``: the analysts' calculator, so a number in an answer is computed, not
recalled. It returns the whole computation (quantity × factor (source) = result), which the
analyst cites.

A run may carry the user's own factors in its config (``configurable["emission_factors"]``,
a FactorLibrary already overlaid on the defaults): one tool serves concurrent runs.
"""

from __future__ import annotations

from langchain_core.runnables import RunnableConfig
from langchain_core.tools import tool

from engine.dto import AekoSource
from engine.emissions.calculator import estimate
from engine.emissions.errors import EmissionsError
from engine.emissions.explain import num
from engine.emissions.factors import FactorLibrary
from engine.emissions.results import Estimate, FactorUse
from engine.emissions.units import unit_label
from engine.errors import LocalizedError
from engine.formatting import read_number
from engine.texts import LANGS, Both, Texts

_TEXTS = Texts(
    "engine.emissions.tool",
    {
        # The model reads both languages, each on its line, and answers in the user's.
        "error": {"pt": "Erro: {message}", "en": "Error: {message}"},
        "unreadable_quantity": {
            "pt": "quantidade ilegível: '{quantity}'. Informe um número (ex.: 1000).",
            "en": "unreadable quantity: '{quantity}'. Give a number (e.g. 1000).",
        },
        "bio_share": {
            "pt": "teor_bio {share} fora de 0–100 (é o % de biocombustível: B14 -> 14).",
            "en": "teor_bio {share} outside 0–100 (the biofuel %: B14 -> 14).",
        },
        "users_factor": {"pt": " (fator do usuário)", "en": " (user's factor)"},
    },
)


def _both_lines(message: Both) -> str:
    error = _TEXTS.both("error", message=message)
    return f"{error.pt}\n{error.en}"


TOOL_NAME = "calcular_emissoes"
FACTORS_KEY = "emission_factors"
_MAX_OUTPUT_CHARS = 4_000


@tool(TOOL_NAME, response_format="content_and_artifact")
def calculate_emissions(  # noqa: PLR0917 - each argument is a parameter the model fills
    config: RunnableConfig,
    atividade: str,
    quantidade: float | str,
    unidade: str,
    data_ou_ano: str | int,
    conjunto_gwp: str = "AR5",
    teor_bio: float | None = None,
) -> tuple[str, list[AekoSource]]:
    """Calcula as emissões de GEE de um dado de atividade com a biblioteca de fatores do
    Aeko (IPCC 2006, MCTI, misturas brasileiras). atividade: ex. 'óleo diesel', 'diesel
    B0' (sem biodiesel), 'gás natural', 'energia elétrica', 'R-410A', 'dolomita', ou a massa
    de um gás emitido diretamente: 'N2O', 'metano fóssil', 'gas:CH4_non_fossil', 'SF6';
    quantidade: número; unidade: L, m³, kg, t, kWh, MWh, GJ; data_ou_ano: 2024, '2024-06' ou
    '2024-06-15' ("ano passado" é o ano civil anterior); conjunto_gwp: AR4, AR5 ou AR6;
    teor_bio: só quando a pergunta nomeia a mistura, o % de biocombustível dela (diesel B14
    -> 14, gasolina E30 -> 30); sem ele vale o teor obrigatório do período.
    Devolve a conta com cada fator e sua fonte."""
    factors = (config.get("configurable") or {}).get(FACTORS_KEY)
    if teor_bio is not None and not 0 <= teor_bio <= 100:
        return _both_lines(_TEXTS.both("bio_share", share=teor_bio)), []
    try:
        result = estimate(
            atividade,
            read_number(quantidade),
            unidade,
            date_or_year=data_ou_ano,
            gwp_set=conjunto_gwp,
            factors=factors if isinstance(factors, FactorLibrary) else None,
            bio_share=None if teor_bio is None else float(teor_bio) / 100,
        )
    except (EmissionsError, LocalizedError) as error:
        return _both_lines(Both(*(error.message(lang) for lang in LANGS))), []
    except ValueError:
        return _both_lines(_TEXTS.both("unreadable_quantity", quantity=quantidade)), []
    text = result.explain("pt")
    text = text if len(text) <= _MAX_OUTPUT_CHARS else text[:_MAX_OUTPUT_CHARS] + "\n…"
    return text, factor_sources(result)


def factor_sources(result: Estimate) -> list[AekoSource]:
    """Each factor the computation used, with the publication it comes from, in Portuguese
    and English: what it is and its value as people write it ('teor de biodiesel: 14%',
    'fator CH4: 3,9 kg CH4/TJ'), never the library's key."""
    return [
        AekoSource(
            kind="factor",
            ref=f"{used.key}:{used.gas}:{used.role}:{used.period}",
            label=_factor_label(result, used, "pt"),
            citation=used.source_in("pt") + (_TEXTS("users_factor", "pt") if used.user else ""),
            label_en=_factor_label(result, used, "en"),
            citation_en=used.source_in("en") + (_TEXTS("users_factor", "en") if used.user else ""),
        )
        for used in result.factors
    ]


def _factor_label(result: Estimate, used: FactorUse, lang: str) -> str:
    value = used.value * 100 if used.unit.strip() == "fraction" else used.value
    unit = unit_label(used.unit, used.gas, lang)
    shown = f"{num(value, lang, digits=10)}{'' if unit == '%' else ' '}{unit}".strip()
    return f"{result.name[lang]} — {used.label(lang)}: {shown}"
