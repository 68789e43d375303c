import pytest
from langchain_google_genai import ChatGoogleGenerativeAI

from engine import (
    DEFAULT_FAST_MODEL,
    DEFAULT_MAX_TOKENS,
    DEFAULT_REPORT_MAX_TOKENS,
    DEFAULT_SLOW_MODEL,
    GUARD_RAIL_MAX_RETRIES,
    PLAN_FORMAT_MAX_RETRIES,
    SESSION_HISTORY_USAGE,
    Aeko,
    AekoMessenger,
    AekoNotConfiguredError,
)
from engine.models.factory import ModelSettings, build_tier_chains
from engine.models.scripted import ScriptedChatModel
from engine.runtime import RUNTIME


def test_reference_defaults_and_limits():
    assert (DEFAULT_FAST_MODEL, DEFAULT_SLOW_MODEL) == ("gemini-3.1-flash-lite", "gemini-3.5-flash")
    assert (DEFAULT_MAX_TOKENS, DEFAULT_REPORT_MAX_TOKENS) == (1024, 8192)
    assert (GUARD_RAIL_MAX_RETRIES, PLAN_FORMAT_MAX_RETRIES, SESSION_HISTORY_USAGE) == (3, 4, 10)


def test_not_configured_until_config_is_called():
    assert not Aeko.is_configured()
    with pytest.raises(AekoNotConfiguredError):
        RUNTIME.graph("chat")


@pytest.mark.parametrize("key", [None, "", "   ", 42])
def test_model_id_strings_need_a_key(key):
    with pytest.raises(AekoNotConfiguredError):
        Aeko.config(key)
    assert not Aeko.is_configured()


def test_one_string_model_still_needs_a_key():
    with pytest.raises(AekoNotConfiguredError):
        Aeko.config(fast_model=ScriptedChatModel(), slow_model="gemini-3.5-flash")


def test_two_model_instances_need_no_key():
    Aeko.config(fast_model=ScriptedChatModel(), slow_model=ScriptedChatModel())
    assert Aeko.is_configured()


def test_rejects_what_is_neither_a_model_id_nor_a_chat_model():
    with pytest.raises(AekoNotConfiguredError):
        Aeko.config(fast_model=object(), slow_model=ScriptedChatModel())
    with pytest.raises(AekoNotConfiguredError):
        Aeko.config("k", max_tokens=0)


def test_model_ids_build_gemini_with_timeout_and_cap_and_leave_retries_to_the_engine():
    settings = ModelSettings(
        api_key="test-key",
        fast_model="gemini-3.1-flash-lite",
        slow_model="gemini-3.5-flash",
        max_tokens=1024,
        report_max_tokens=8192,
        request_timeout=30.0,
    )
    models = {tier: chain[0] for tier, chain in build_tier_chains(settings, 8192).items()}
    assert all(isinstance(model, ChatGoogleGenerativeAI) for model in models.values())
    assert models["fast"].model.endswith("gemini-3.1-flash-lite")
    assert models["slow"].model.endswith("gemini-3.5-flash")
    for model in models.values():
        # The client does not retry: the engine does, with backoff, and reports each retry;
        # for Gemini that is max_retries=1 (one attempt): 0 means the Google SDK default.
        assert (model.timeout, model.max_retries, model.max_output_tokens) == (30.0, 1, 8192)
        assert model.google_api_key.get_secret_value() == "test-key"


def test_any_write_drops_the_built_graphs_and_reset_clears_tools():
    Aeko.config(fast_model=ScriptedChatModel(), slow_model=ScriptedChatModel())
    first = RUNTIME.graph("chat")
    assert RUNTIME.graph("chat") is first
    AekoMessenger.set_tools({})
    second = RUNTIME.graph("chat")
    assert second is not first
    Aeko.config(fast_model=ScriptedChatModel(), slow_model=ScriptedChatModel())
    assert RUNTIME.graph("chat") is not second
    AekoMessenger.set_tools({"FAQ": []})
    Aeko.reset()
    assert not Aeko.is_configured() and RUNTIME.tools == {}


def test_the_key_is_never_in_the_settings_repr():
    Aeko.config("super-secret-key", fast_model=ScriptedChatModel(), slow_model="gemini-3.5-flash")
    assert "super-secret-key" not in repr(RUNTIME.settings)


def test_the_run_deadline_is_configured_with_the_engine():
    from engine.budget import DEFAULT_RUN_DEADLINE_S, BudgetTracker, RunBudget
    from engine.models.scripted import ScriptedChatModel
    from engine.runtime import RUNTIME

    model = ScriptedChatModel(model_name="m")
    Aeko.config(fast_model=model, slow_model=model, run_deadline_s=42)
    assert RUNTIME.tracker(None).deadline_s == 42
    assert RUNTIME.tracker(RunBudget(max_cost_usd=1.0)).deadline_s == 42
    assert BudgetTracker(RunBudget(deadline_s=7)).deadline_s == 7
    Aeko.config(fast_model=model, slow_model=model, run_deadline_s=None)
    assert RUNTIME.tracker(None).deadline_s is None
    Aeko.reset()
    assert BudgetTracker(RunBudget()).deadline_s == DEFAULT_RUN_DEADLINE_S


def test_the_app_settings_read_the_new_switches():
    from settings import load_settings

    settings = load_settings(
        {}, {"AEKO_DEBUG": "1", "AEKO_RUN_DEADLINE_S": "90", "AEKO_RUN_LOG_TEXT": "true"}
    )
    assert settings.debug and settings.run_deadline_s == 90 and settings.run_log_include_text
    assert not load_settings({}, {}).debug
