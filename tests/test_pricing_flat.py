"""A model with flat prices is priced from its per-token rates, read from genai-prices once;
whatever the path, a call costs what genai-prices itself says it costs."""

from __future__ import annotations

from genai_prices import Usage, calc_price, data_snapshot
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.pricing import _flat_rates, call_cost

_SNAPSHOT = data_snapshot.get_snapshot()
# Every model genai-prices lists, named as a caller names it (its id), whichever provider.
_MODELS = sorted({model.id for provider in _SNAPSHOT.providers for model in provider.models})


def _library(ref: str, input_: int, output: int, cache_read: int, reasoning: int) -> float:
    usage = Usage(input_tokens=input_, output_tokens=output)
    if cache_read:
        usage.cache_read_tokens = cache_read
    if reasoning:
        usage.output_reasoning_tokens = reasoning
    return float(calc_price(usage, model_ref=ref).total_price)


@settings(max_examples=400, deadline=None)
@given(
    ref=st.sampled_from(_MODELS),
    input_=st.integers(0, 2_000_000),
    output=st.integers(0, 300_000),
    cached=st.floats(0, 1),
    thinking=st.floats(0, 1),
)
def test_every_listed_model_costs_what_genai_prices_says(ref, input_, output, cached, thinking):
    cache_read, reasoning = int(input_ * cached), int(output * thinking)
    try:
        expected = _library(ref, input_, output, cache_read, reasoning)
    except LookupError:  # a listed id that resolves to no model with prices
        assert call_cost(ref, input_, output, cache_read_tokens=cache_read) is None
        return
    except ValueError:  # genai-prices refuses this usage for this model (units it lacks)
        return
    got = call_cost(ref, input_, output, cache_read_tokens=cache_read, reasoning_tokens=reasoning)
    assert got is not None
    assert abs(got - expected) <= 1e-9 * max(1.0, abs(expected)), (ref, got, expected)


def test_tiered_and_dated_prices_are_left_to_genai_prices():
    # Gemini 2.5 Pro charges more above 200k prompt tokens; Gemini 3 Pro's price is dated.
    assert _flat_rates("gemini-2.5-pro") is None
    assert _flat_rates("gemini-3-pro-preview") is None
    assert _flat_rates("gemini-2.5-flash") is not None
    assert call_cost("gemini-2.5-pro", 300_000, 1_000) == _library(
        "gemini-2.5-pro", 300_000, 1_000, 0, 0
    )
