"""Sign-in (issue #15): identities become users of their own, each sees only its own data,
and without ``[auth]`` the app says it runs in the single-user local mode."""

import pytest
from bson import ObjectId
from streamlit.testing.v1 import AppTest

from settings import auth_configured, load_settings
from store.errors import NotFoundError
from tests.app_pages import ROOT, TIMEOUT

ISSUER = "https://login.example.org/realms/aeko"
AUTH = {
    "redirect_uri": "http://localhost:8501/oauth2callback",
    "cookie_secret": "a-long-random-string-for-the-tests",
    "client_id": "aeko-studio",
    "client_secret": "not-a-real-secret",
    "server_metadata_url": f"{ISSUER}/.well-known/openid-configuration",
}


# Settings


def test_sign_in_is_on_only_with_an_auth_section_that_streamlit_can_use():
    assert auth_configured({"auth": AUTH})
    assert load_settings({"auth": AUTH}, {}).auth_enabled
    assert not load_settings({}, {}).auth_enabled
    assert not auth_configured({"auth": {"client_id": "x"}})  # no cookie secret, no redirect
    assert not auth_configured({"auth": "yes"})
    assert not auth_configured({"AUTH_ENABLED": "1"})


def test_the_app_s_own_settings_are_shown_to_its_admins_only():
    signed = load_settings({"auth": AUTH}, {"AEKO_ADMINS": " Ana@Empresa.com.br, ops@x.org "})
    assert signed.is_admin("ana@empresa.com.br") and signed.is_admin("OPS@x.org")
    assert not signed.is_admin("eve@x.org") and not signed.is_admin(None)
    assert not load_settings({"auth": AUTH}, {}).is_admin("ana@empresa.com.br")
    # without sign-in the one using the app is the one running it
    assert load_settings({}, {}).is_admin(None)


# The store


def test_each_identity_is_a_user_of_its_own_and_comes_back_as_the_same_user(db_store):
    alice = db_store.users.get_or_create_by_identity(ISSUER, "alice-sub", email="a@example.org")
    bob = db_store.users.get_or_create_by_identity(ISSUER, "bob-sub")
    again = db_store.users.get_or_create_by_identity(ISSUER, "alice-sub")
    assert again.id == alice.id and again.id_external_user == alice.id_external_user
    assert bob.id != alice.id
    # The same subject at another provider is someone else.
    other = db_store.users.get_or_create_by_identity("https://accounts.google.com", "alice-sub")
    assert other.id not in (alice.id, bob.id)
    numbers = [alice.id_external_user, bob.id_external_user, other.id_external_user]
    assert len(set(numbers)) == 3 and min(numbers) > 1  # 1 stays the local mode's user
    raw = db_store.db.user.find_one({"_id": ObjectId(alice.id)})
    assert (raw["auth_issuer"], raw["auth_subject"], raw["email"]) == (
        ISSUER,
        "alice-sub",
        "a@example.org",
    )


def test_new_numbers_never_reuse_one_a_local_user_holds(db_store):
    local = db_store.users.get_or_create(7)
    first = db_store.users.get_or_create_by_identity(ISSUER, "carol")
    assert first.id_external_user == 8
    db_store.users.get_or_create(20)  # made meanwhile in the local mode
    second = db_store.users.get_or_create_by_identity(ISSUER, "dave")
    assert second.id_external_user == 21
    assert db_store.users.get_or_create(7).id == local.id  # the local user is untouched


def test_many_local_users_fit_beside_the_unique_identity_index(db_store):
    for number in (1, 2, 3):
        db_store.users.get_or_create(number)
    db_store.users.get_or_create_by_identity(ISSUER, "erin")
    assert db_store.db.user.count_documents({}) == 4


def test_an_identity_needs_both_issuer_and_subject(db_store):
    with pytest.raises(ValueError):
        db_store.users.get_or_create_by_identity(ISSUER, "")
    with pytest.raises(ValueError):
        db_store.users.get_or_create_by_identity("", "frank")


def test_one_identity_cannot_open_another_s_conversation(db_store):
    alice = db_store.users.get_or_create_by_identity(ISSUER, "alice-sub")
    bob = db_store.users.get_or_create_by_identity(ISSUER, "bob-sub")
    session = db_store.sessions(alice.id).create("Escopo 1 da Alice")
    assert [s.id for s in db_store.sessions(bob.id).list()] == []
    with pytest.raises(NotFoundError):
        db_store.sessions(bob.id).get(session.id)


# The app


def _app(user: dict | None, *, auth: bool = True, **params) -> AppTest:
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
    if auth:
        app.secrets["auth"] = AUTH
    if user is not None:
        app.user = user
    for key, value in params.items():
        app.query_params[key] = value
    app.run()
    assert not app.exception, app.exception
    return app


def _signed_in(subject: str) -> dict:
    return {"is_logged_in": True, "iss": ISSUER, "sub": subject, "email": f"{subject}@x.org"}


def _text(app: AppTest) -> str:
    return "\n".join(
        [str(e.value) for e in app.markdown]
        + [str(e.value) for e in app.caption]
        + [str(e.value) for e in app.title]
    )


def test_a_visitor_who_has_not_signed_in_sees_only_the_sign_in_page(app_env):
    app = _app({"is_logged_in": False})
    assert [b.label for b in app.button] == ["Entrar"]
    assert "Entrar no Aeko Studio" in _text(app)
    assert not app.chat_input
    assert app_env.user.count_documents({}) == 0  # nobody became user 1


def test_signed_in_identities_see_only_their_own_conversations(app_env):
    store_user = app_env.user
    alice = _app(_signed_in("alice"))
    assert "Conectado como alice@x.org" in _text(alice)
    assert "Sair" in [b.label for b in alice.sidebar.button]
    alice.chat_input[0].set_value("O que é escopo 2?").run()
    assert not alice.exception, alice.exception
    session_id = alice.query_params["session"]
    stored = app_env.session.find_one({"_id": ObjectId(session_id)})
    owner = store_user.find_one({"_id": stored["id_user"]})
    assert (owner["auth_issuer"], owner["auth_subject"]) == (ISSUER, "alice")

    # Bob opens Alice's conversation by its address: it is not found, and nothing of it shows.
    bob = _app(_signed_in("bob"), session=session_id)
    assert "session" not in bob.query_params
    assert "O que é escopo 2?" not in _text(bob)
    assert not bob.chat_message
    assert store_user.count_documents({}) == 2

    # Alice, back, still has hers.
    again = _app(_signed_in("alice"), session=session_id)
    assert "O que é escopo 2?" in _text(again)


def test_without_auth_the_app_says_it_is_the_single_user_local_mode(app_env):
    app = _app(None, auth=False)
    assert "Modo local de um só usuário" in _text(app)
    assert not [b for b in app.sidebar.button if b.label == "Sair"]
    assert app_env.user.find_one({})["id_external_user"] == 1


def test_the_sign_in_queries_are_served_by_an_index(db_store):
    from store.indexes import USER_BY_EXTERNAL_ID, USER_BY_IDENTITY

    db_store.users.get_or_create_by_identity(ISSUER, "gina")
    explains = [
        {"find": "user", "filter": {"auth_issuer": ISSUER, "auth_subject": "gina"},
         "hint": dict(USER_BY_IDENTITY)},
        {"find": "user", "filter": {}, "sort": {"id_external_user": -1},
         "hint": dict(USER_BY_EXTERNAL_ID)},
        {"find": "counter", "filter": {"_id": "user"}},
    ]  # fmt: skip
    for explain in explains:
        plan = db_store.db.command({"explain": explain, "verbosity": "queryPlanner"})
        stages = str(plan["queryPlanner"]["winningPlan"])
        assert "COLLSCAN" not in stages, (explain, stages)
        assert any(s in stages for s in ("IXSCAN", "IDHACK", "EXPRESS")), (explain, stages)
