"""``calcular_emissoes``: the analysts' calculator, so a number in an answer is computed, not
recalled. It returns the whole computation (quantity × factor (source) = result), which the
analyst cites.

A run may carry the user's own factors in its config (``configurable["emission_factors"]``,
a FactorLibrary already overlaid on the defaults): one tool serves concurrent runs.
"""

from __future__ import annotations

from langchain_core.runnables import RunnableConfig
from langchain_core.tools import tool

from engine.emissions.calculator import estimate
from engine.emissions.errors import EmissionsError
from engine.emissions.factors import FactorLibrary
from engine.errors import LocalizedError
from engine.formatting import read_number

TOOL_NAME = "calcular_emissoes"
FACTORS_KEY = "emission_factors"
_MAX_OUTPUT_CHARS = 4_000


@tool(TOOL_NAME)
def calculate_emissions(  # noqa: PLR0917 - each argument is a parameter the model fills
    config: RunnableConfig,
    atividade: str,
    quantidade: float | str,
    unidade: str,
    data_ou_ano: str | int,
    conjunto_gwp: str = "AR5",
) -> str:
    """Calcula as emissões de GEE de um dado de atividade com a biblioteca de fatores do
    Aeko (IPCC 2006, MCTI, misturas brasileiras). atividade: ex. 'óleo diesel', 'gás
    natural', 'energia elétrica', 'R-410A', 'dolomita'; quantidade: número; unidade: L, m³,
    kg, t, kWh, MWh, GJ; data_ou_ano: 2024, '2024-06' ou '2024-06-15'; conjunto_gwp: AR4,
    AR5 ou AR6. Devolve a conta com cada fator e sua fonte."""
    factors = (config.get("configurable") or {}).get(FACTORS_KEY)
    try:
        result = estimate(
            atividade,
            read_number(quantidade),
            unidade,
            date_or_year=data_ou_ano,
            gwp_set=conjunto_gwp,
            factors=factors if isinstance(factors, FactorLibrary) else None,
        )
    except (EmissionsError, LocalizedError) as error:
        return f"Erro: {error.message('pt')}\nError: {error.message('en')}"
    except ValueError:
        return (
            f"Erro: quantidade ilegível: '{quantidade}'. Informe um número (ex.: 1000).\n"
            f"Error: unreadable quantity: '{quantidade}'. Give a number (e.g. 1000)."
        )
    text = result.explain("pt")
    return text if len(text) <= _MAX_OUTPUT_CHARS else text[:_MAX_OUTPUT_CHARS] + "\n…"
