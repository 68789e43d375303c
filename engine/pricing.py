"""What a model call cost, priced with genai-prices on that call's own usage.

Calls are priced one by one and then summed: tiered prices make pricing summed tokens
wrong. A model genai-prices does not know costs "unknown" (None), never a silent 0; the
offline analyst runs on this machine and costs nothing, unless it is *priced as* a named
model (``offline_priced_name``): then each of its calls costs what that model would charge for
the same usage, for a demo of what a run would cost there, or a test of a cost cap.

A cost cap cannot wait for a price nobody knows: against caps, an unknown call counts at
``estimated_call_cost``, a deliberately high fallback rate (US$ 15 per million input tokens,
US$ 75 per million output tokens: the dearest list prices of the major providers' flagship
models in 2025), so a cap is reached early rather than never. The estimate is only for caps
and totals flagged "estimated"; the call's own cost stays None.
"""

from __future__ import annotations

import logging
import math
from functools import lru_cache
from typing import Any

from genai_prices import Usage, calc_price, data_snapshot
from genai_prices.types import ModelPrice, TieredPrices

from engine.constants import OFFLINE_MODEL_NAME

log = logging.getLogger(__name__)
_UNPRICED: set[str] = set()  # the models genai-prices has no price for, each told once
FREE_MODELS = frozenset({OFFLINE_MODEL_NAME})
# The conservative fallback rate for a model with no known price, USD per token.
FALLBACK_INPUT_USD_PER_TOKEN = 15.0 / 1_000_000
FALLBACK_OUTPUT_USD_PER_TOKEN = 75.0 / 1_000_000
# The offline analyst priced as a named model answers as "aeko-offline-analyst@<model>": the
# name a call records still says no provider answered it, and the suffix says whose price.
PRICED_AS_SEPARATOR = "@"


def offline_priced_name(priced_as: str | None) -> str:
    """The offline analyst's model name, priced as ``priced_as`` (None or blank: free)."""
    model = (priced_as or "").strip()
    return f"{OFFLINE_MODEL_NAME}{PRICED_AS_SEPARATOR}{model}" if model else OFFLINE_MODEL_NAME


def is_offline(model: str) -> bool:
    """Whether ``model`` names the offline analyst, priced as a named model or not."""
    return model == OFFLINE_MODEL_NAME or model.startswith(OFFLINE_MODEL_NAME + PRICED_AS_SEPARATOR)


def call_cost(
    model: str,
    input_tokens: int,
    output_tokens: int,
    *,
    cache_read_tokens: int = 0,
    reasoning_tokens: int = 0,
) -> float | None:
    """USD for one call, or None when the price of ``model`` is unknown.

    ``cache_read_tokens`` are part of ``input_tokens`` and ``reasoning_tokens`` part of
    ``output_tokens``, as LangChain reports them and genai-prices reads them: cache reads
    are priced at their own (lower) rate, and reasoning at the model's reasoning rate, which
    for Gemini is its output rate. Neither is ever counted twice.
    """
    if model in FREE_MODELS:
        return 0.0
    ref = model.removeprefix(OFFLINE_MODEL_NAME + PRICED_AS_SEPARATOR).removeprefix("models/")
    # A part larger than its whole is a provider's inconsistency: genai-prices refuses it.
    cache_read = min(max(cache_read_tokens, 0), input_tokens)
    reasoning = min(max(reasoning_tokens, 0), output_tokens)
    counts = (input_tokens, output_tokens, cache_read, reasoning)
    rates = _flat_rates(ref)
    if rates is not None:
        return sum(rate * count for rate, count in zip(rates, counts, strict=True))
    if ref in _UNPRICED:  # the price data do not change while the process runs
        return None
    try:
        return _library_price(ref, *counts)
    except LookupError:
        _UNPRICED.add(ref)
        log.warning("No price known for model %r: its cost is reported as unknown.", ref)
        return None


def _library_price(ref: str, input_: int, output: int, cache_read: int, reasoning: int) -> float:
    usage = Usage(input_tokens=input_, output_tokens=output)
    if cache_read:
        usage.cache_read_tokens = cache_read
    if reasoning:
        usage.output_reasoning_tokens = reasoning
    return float(calc_price(usage, model_ref=ref).total_price)


# genai-prices prices a call in some 150 µs, as long as five agents' whole turn of engine
# work. Most models' prices are flat: a rate per token of each kind, the same at any count
# and at any date. For those, the rates are read from genai-prices once (the price of a
# million tokens of each kind) and a call costs their sum; a model whose price has tiers,
# or changes with the date or the hour, is priced by genai-prices every call. The rates
# must give genai-prices' own price on probe calls of every kind, or they are not used.
_PROBES = ((123_457, 6_543, 0, 0), (98_765, 4_321, 54_321, 0), (7_654, 32_109, 0, 1_234),
           (555_555, 77_777, 111_111, 22_222))  # fmt: skip


@lru_cache(maxsize=64)
def _flat_rates(ref: str) -> tuple[float, float, float, float] | None:
    """USD per input, output, cache-read and reasoning token of ``ref``, when flat."""
    try:
        _, info = data_snapshot.get_snapshot().find_provider_model(ref, None, None, None)
    except LookupError:
        return None
    prices = info.prices
    if not isinstance(prices, ModelPrice) or any(
        isinstance(value, TieredPrices) for value in vars(prices).values()
    ):
        return None
    million = 1_000_000
    per_input = _library_price(ref, million, 0, 0, 0) / million
    per_output = _library_price(ref, 0, million, 0, 0) / million
    per_cache_read = _library_price(ref, million, 0, million, 0) / million - per_input
    per_reasoning = _library_price(ref, 0, million, 0, million) / million - per_output
    rates = (per_input, per_output, per_cache_read, per_reasoning)
    for probe in _PROBES:
        flat = sum(rate * count for rate, count in zip(rates, probe, strict=True))
        if not math.isclose(flat, _library_price(ref, *probe), rel_tol=1e-9, abs_tol=1e-12):
            return None
    return rates


def estimated_call_cost(input_tokens: int, output_tokens: int) -> float:
    """The fallback estimate of a call whose model has no known price (see the module)."""
    return (
        input_tokens * FALLBACK_INPUT_USD_PER_TOKEN + output_tokens * FALLBACK_OUTPUT_USD_PER_TOKEN
    )


def cap_cost(cost_usd: float | None, input_tokens: int, output_tokens: int) -> float:
    """What a call (or a run) counts against a cost cap: its price, or the estimate."""
    if cost_usd is not None:
        return cost_usd
    return estimated_call_cost(input_tokens, output_tokens)


def usage_cap_cost(usage: Any) -> float:
    """An AekoUsage's cost against a cap, summed call by call (known prices, else estimates)."""
    return sum(
        cap_cost(call.cost_usd, call.input_tokens, call.output_tokens)
        for call in getattr(usage, "calls", ())
    )


def usage_is_estimated(usage: Any) -> bool:
    """True when some call of an AekoUsage has no known price (its cap cost is an estimate)."""
    return any(call.cost_usd is None for call in getattr(usage, "calls", ()))
