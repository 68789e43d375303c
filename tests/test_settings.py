from pathlib import Path

from settings import load_settings


def test_secrets_win_over_the_environment_and_blanks_mean_unset():
    settings = load_settings(
        {"MONGODB_URI": "mongodb://a:b@db.example:27017/", "GEMINI_API_KEY": "  "},
        {"MONGODB_URI": "mongodb://env:27017/", "MONGODB_DB": "prod", "GEMINI_API_KEY": "k",
         "AEKO_DATA_DIR": "/var/aeko"},
    )  # fmt: skip
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
