from pathlib import Path

from settings import load_settings


def test_secrets_win_over_the_environment_and_blanks_mean_unset():
    settings = load_settings(
        {"MONGODB_URI": "mongodb://a:b@db.example:27017/", "GEMINI_API_KEY": "  "},
        {
            "MONGODB_URI": "mongodb://env:27017/",
            "MONGODB_DB": "prod",
            "GEMINI_API_KEY": "k",
            "AEKO_DATA_DIR": "/var/aeko",
        },
    )
    assert settings.mongodb_uri == "mongodb://a:b@db.example:27017/"
    assert settings.mongodb_db == "prod"
    assert settings.gemini_api_key is None  # a blank secret is no key, whatever the env says
    assert settings.data_dir == Path("/var/aeko")
    assert not settings.store.embedded


def test_defaults_start_the_embedded_server_and_secrets_stay_out_of_reprs():
    settings = load_settings({}, {"GOOGLE_API_KEY": "secret-key"})
    assert settings.store.embedded and settings.mongodb_db == "aeko"
    assert settings.gemini_api_key == "secret-key"
    assert "secret-key" not in repr(settings)


def test_models_fallback_chains_limits_and_provider_keys():
    settings = load_settings(
        {"OPENAI_API_KEY": "sk-1"},
        {
            "AEKO_FAST_MODEL": "openai:gpt-4.1-mini",
            "AEKO_FAST_FALLBACKS": "gemini-3.1-flash-lite, anthropic:claude-haiku-4-5",
            "AEKO_MAX_CALLS_PER_RUN": "12",
            "AEKO_DAILY_COST_CAP_USD": "2.5",
            "AEKO_RUN_LOG": "/tmp/runs.jsonl",
        },
    )
    assert settings.fast_model == "openai:gpt-4.1-mini"
    assert settings.fast_fallbacks == ("gemini-3.1-flash-lite", "anthropic:claude-haiku-4-5")
    assert settings.slow_fallbacks is None
    assert (settings.max_calls_per_run, settings.daily_cost_cap_usd) == (12, 2.5)
    assert settings.provider_keys == {"openai": "sk-1"} and "sk-1" not in repr(settings)
