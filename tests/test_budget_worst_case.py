"""A run's cost cap holds before each call, at that call's worst case: what the run spent
never passes its cap, not even by its last call (a run's cap is its reservation of the
user's daily cap, shared by every app process)."""

import pytest
from genai_prices import Usage, calc_price

from engine import Aeko, AekoMessenger, AekoSession, AekoUser
from engine.agents.catalog import FAQ, ROUTER
from engine.budget import BudgetTracker, RunBudget
from engine.dto import AekoModelCall
from engine.errors import AekoBudgetExceededError
from engine.models.scripted import ScriptedChatModel
from engine.pricing import FALLBACK_INPUT_USD_PER_TOKEN, FALLBACK_OUTPUT_USD_PER_TOKEN

USER = AekoUser(id_external_user=1, role="Analista ESG")
MODEL = "gemini-2.5-flash"
LONG_ANSWER = "Escopo 1 são as emissões diretas da organização. " * 60  # ~750 tokens
FAQ_PATH = {ROUTER: ["Next agent: FAQ"], FAQ: [LONG_ANSWER + "\nNext agent: Nenhum"]}


def _price(input_tokens: int, output_tokens: int, model: str = MODEL) -> float:
    usage = Usage(input_tokens=input_tokens, output_tokens=output_tokens)
    return float(calc_price(usage, model_ref=model).total_price)


def _ask(model: ScriptedChatModel, budget: RunBudget | None = None):
    return AekoMessenger(USER).send_message("O que é escopo 1?", AekoSession(), budget=budget)


def _calls_of_a_free_run(max_tokens: int) -> list[AekoModelCall]:
    """The turn's calls with no cap: what each one spent, on the same script."""
    model = ScriptedChatModel(model_name=MODEL, script=FAQ_PATH)
    Aeko.config(fast_model=model, slow_model=model, max_tokens=max_tokens)
    return _ask(model).usage.calls


def test_a_run_whose_last_call_would_pass_its_cap_stops_before_that_call():
    router, faq = _calls_of_a_free_run(max_tokens=1024)[:2]
    assert (router.agent, faq.agent) == (ROUTER, FAQ)
    router_cost = _price(router.input_tokens, router.output_tokens)
    # Room for the router's call and half the answer: once the router spent, the cap was not
    # yet reached, and an answer that cost twice what was left would have passed it.
    cap = router_cost + _price(faq.input_tokens, faq.output_tokens) / 2
    model = ScriptedChatModel(model_name=MODEL, script=FAQ_PATH)
    Aeko.config(fast_model=model, slow_model=model, max_tokens=1024)
    with pytest.raises(AekoBudgetExceededError) as caught:
        _ask(model, RunBudget(max_cost_usd=cap))
    spent = sum(_price(c.input_tokens, c.output_tokens) for c in caught.value.usage.calls)
    assert caught.value.limit == "cost_usd" and spent <= cap
    assert model.calls_for(FAQ) == []  # the answer that could pass the cap was never asked


def test_a_call_counts_its_whole_output_allowance_at_its_models_price():
    router = _calls_of_a_free_run(max_tokens=2000)[0]
    worst = _price(router.input_tokens, 2000)  # the router could write its whole allowance
    model = ScriptedChatModel(model_name=MODEL, script=FAQ_PATH)
    Aeko.config(fast_model=model, slow_model=model, max_tokens=2000)
    with pytest.raises(AekoBudgetExceededError) as caught:
        _ask(model, RunBudget(max_cost_usd=worst * 0.99))
    assert model.calls == [] and caught.value.usage.calls == []
    # Room for the router's worst case: it is asked; the answer's worst case is not there.
    with pytest.raises(AekoBudgetExceededError) as caught:
        _ask(model, RunBudget(max_cost_usd=worst * 1.01))
    assert [c.agent for c in model.calls] == [ROUTER]
    assert [c.agent for c in caught.value.usage.calls] == [ROUTER]


def test_a_model_built_with_a_smaller_output_cap_is_counted_at_that_cap():
    class Capped(ScriptedChatModel):
        max_tokens: int = 50  # what a provider model built with max_tokens=50 states

    router = _calls_of_a_free_run(max_tokens=4000)[0]
    model = Capped(model_name=MODEL, script={ROUTER: ["Next agent: FAQ"], FAQ: ["Diretas."]})
    Aeko.config(fast_model=model, slow_model=model, max_tokens=4000)
    cap = _price(router.input_tokens, 50) * 1.01  # far below the router at 4000 tokens
    with pytest.raises(AekoBudgetExceededError):
        _ask(model, RunBudget(max_cost_usd=cap))
    assert [c.agent for c in model.calls] == [ROUTER]


def test_an_unpriced_models_worst_case_is_at_the_fallback_rate():
    model = ScriptedChatModel(model_name="a-model-nobody-prices", script=FAQ_PATH)
    Aeko.config(fast_model=model, slow_model=model, max_tokens=1024)
    _ask(model)
    router = model.calls_for(ROUTER)[0]
    input_tokens = router.prompt_chars // 4 + 1  # the engine's estimate, as it accounts
    worst = input_tokens * FALLBACK_INPUT_USD_PER_TOKEN + 1024 * FALLBACK_OUTPUT_USD_PER_TOKEN
    fresh = ScriptedChatModel(model_name="a-model-nobody-prices", script=FAQ_PATH)
    Aeko.config(fast_model=fresh, slow_model=fresh, max_tokens=1024)
    with pytest.raises(AekoBudgetExceededError):
        _ask(fresh, RunBudget(max_cost_usd=worst * 0.99))
    assert fresh.calls == []


def test_calls_in_flight_hold_their_worst_case_until_they_are_recorded():
    # The inventory flow's two analysts call at once, on one tracker.
    tracker = BudgetTracker(RunBudget(max_cost_usd=1.0))
    tracker.before_call("A", 0.6)
    with pytest.raises(AekoBudgetExceededError) as caught:
        tracker.before_call("B", 0.6)  # both at their worst would spend 1.2 of 1.0
    assert caught.value.limit == "cost_usd"
    answered = AekoModelCall(agent="A", model=MODEL, input_tokens=1, output_tokens=1, cost_usd=0.1)
    tracker.record(answered, 0.6)
    tracker.before_call("B", 0.6)  # 0.1 spent + 0.6 at worst: within the cap
    with pytest.raises(AekoBudgetExceededError):
        tracker.before_call("C", 0.4)  # 0.1 + 0.6 in flight + 0.4 would pass it


def test_without_a_cost_cap_nothing_is_refused_for_its_worst_case():
    model = ScriptedChatModel(model_name=MODEL, script=FAQ_PATH)
    Aeko.config(fast_model=model, slow_model=model, max_tokens=100_000)
    assert _ask(model, RunBudget(max_model_calls=10)).message.output.startswith("Escopo 1")
