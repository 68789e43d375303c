"""The offline analyst priced as a named model (AEKO_OFFLINE_PRICED_AS): its calls cost what
that model's list price charges for the same usage, and still say the offline analyst
answered them."""

import pytest
from genai_prices import Usage, calc_price

from components.engine_setup import configure_engine
from engine import Aeko, AekoMessenger, AekoSession, AekoUser
from engine.constants import OFFLINE_MODEL_NAME
from engine.offline import OfflineAnalyst
from engine.pricing import call_cost, is_offline, offline_priced_name
from settings import load_settings

USER = AekoUser(id_external_user=1, role="Analista ESG")


def _list_price(model: str, input_tokens: int, output_tokens: int) -> float:
    usage = Usage(input_tokens=input_tokens, output_tokens=output_tokens)
    return float(calc_price(usage, model_ref=model).total_price)


def test_a_call_priced_as_a_named_model_costs_that_models_list_price():
    name = offline_priced_name("gemini-2.5-flash")
    assert call_cost(name, 1200, 300) == pytest.approx(_list_price("gemini-2.5-flash", 1200, 300))
    assert call_cost(name, 1200, 300) > 0
    dearer = offline_priced_name("gemini-2.5-pro")
    assert call_cost(dearer, 1200, 300) == pytest.approx(_list_price("gemini-2.5-pro", 1200, 300))


def test_the_plain_offline_analyst_stays_free_and_an_unknown_named_model_is_unknown():
    assert offline_priced_name(None) == offline_priced_name("  ") == OFFLINE_MODEL_NAME
    assert call_cost(OFFLINE_MODEL_NAME, 1200, 300) == 0.0
    assert call_cost(offline_priced_name("um-modelo-sem-preco-7"), 1200, 300) is None


def test_the_name_a_priced_call_records_still_says_the_offline_analyst_answered():
    name = offline_priced_name("gemini-2.5-flash")
    assert name.startswith(OFFLINE_MODEL_NAME) and name.endswith("gemini-2.5-flash")
    assert is_offline(name) and is_offline(OFFLINE_MODEL_NAME)
    assert not is_offline("gemini-2.5-flash")


def test_a_turn_on_the_priced_analyst_costs_each_calls_list_price():
    analyst = OfflineAnalyst(priced_as="gemini-2.5-flash")
    Aeko.config(fast_model=analyst, slow_model=analyst)
    usage = AekoMessenger(USER).send_message("O que é escopo 1?", AekoSession()).usage
    assert usage.calls and {c.model for c in usage.calls} == {
        f"{OFFLINE_MODEL_NAME}@gemini-2.5-flash"
    }
    expected = sum(
        _list_price("gemini-2.5-flash", c.input_tokens, c.output_tokens) for c in usage.calls
    )
    assert usage.cost_usd == pytest.approx(expected) and usage.cost_usd > 0


def test_the_setting_reaches_the_offline_analyst_the_app_configures():
    settings = load_settings({}, {"AEKO_OFFLINE_PRICED_AS": " gemini-2.5-flash "})
    assert settings.offline_priced_as == "gemini-2.5-flash"
    assert load_settings({}, {}).offline_priced_as is None
    status = configure_engine(settings)
    assert status.offline  # the sidebar still says no provider answers
    assert status.fast_model == f"{OFFLINE_MODEL_NAME}@gemini-2.5-flash"
