"""What a model call cost, priced with genai-prices on that call's own usage.

Calls are priced one by one and then summed: tiered prices make pricing summed tokens
wrong. A model genai-prices does not know costs "unknown" (None), never a silent 0; the
offline analyst runs on this machine and costs nothing.
"""

from __future__ import annotations

import logging
from functools import cache

from genai_prices import Usage, calc_price

from engine.constants import OFFLINE_MODEL_NAME

log = logging.getLogger(__name__)
FREE_MODELS = frozenset({OFFLINE_MODEL_NAME})


def call_cost(model: str, input_tokens: int, output_tokens: int) -> float | None:
    """USD for one call, or None when the price of ``model`` is unknown."""
    if model in FREE_MODELS:
        return 0.0
    ref = model.removeprefix("models/")
    try:
        price = calc_price(Usage(input_tokens=input_tokens, output_tokens=output_tokens),
                           model_ref=ref)  # fmt: skip
    except LookupError:
        _unknown(ref)
        return None
    return float(price.total_price)


@cache
def _unknown(model: str) -> None:
    log.warning("No price known for model %r: its cost is reported as unknown.", model)
