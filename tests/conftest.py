import os
from collections.abc import Iterator
from uuid import uuid4

import pytest

from engine import Aeko, AekoSession, AekoUser, AekoUserMemory
from engine.models.scripted import ScriptedChatModel
from engine.offline import OfflineAnalyst
from tests import browser_app


@pytest.fixture(autouse=True)
def _fresh_runtime() -> Iterator[None]:
    Aeko.reset()
    yield
    Aeko.reset()


@pytest.fixture
def fast() -> ScriptedChatModel:
    return ScriptedChatModel(model_name="fake-fast")


@pytest.fixture
def slow() -> ScriptedChatModel:
    return ScriptedChatModel(model_name="fake-slow")


@pytest.fixture
def configured(fast: ScriptedChatModel, slow: ScriptedChatModel) -> None:
    Aeko.config(fast_model=fast, slow_model=slow)


@pytest.fixture
def offline() -> OfflineAnalyst:
    """The engine on the offline analyst, the default with no API key."""
    model = OfflineAnalyst()
    Aeko.config(fast_model=model, slow_model=model)
    return model


@pytest.fixture
def analyst() -> AekoUser:
    return AekoUser(id_external_user=1, role="Analista ESG", usecase="Inventário 2024")


@pytest.fixture
def user() -> AekoUser:
    return AekoUser(
        _id="64b8f0a1c9e1a2b3c4d5e6f1",
        id_external_user=1001,
        role="Analista ESG",
        usecase="Acompanha a substituição de gás da frota de caldeiras.",
    )


@pytest.fixture
def memories() -> list[AekoUserMemory]:
    return [
        AekoUserMemory(
            _id="64b8f0a1c9e1a2b3c4d5e6f9",
            id_user="64b8f0a1c9e1a2b3c4d5e6f1",
            field="idioma",
            description="Prefere respostas em português",
        )
    ]


@pytest.fixture
def session() -> AekoSession:
    return AekoSession(
        _id="64b8f0a1c9e1a2b3c4d5e6f3",
        id_user="64b8f0a1c9e1a2b3c4d5e6f1",
        name="Revisão do escopo 1",
    )


@pytest.fixture(scope="session")
def mongo(tmp_path_factory):
    """A real wire-protocol server for the whole run: MONGODB_URI when set, else the embedded
    SecantusDB server on a temporary folder, started by the store's own code."""
    from store import StoreConfig, connect

    config = StoreConfig(
        uri=os.environ.get("MONGODB_URI") or None,
        data_dir=tmp_path_factory.mktemp("mongo"),
    )
    store = connect(config, timeout_ms=20_000)
    yield store
    store.close()


@pytest.fixture
def db_store(mongo):
    """A fresh database on that server for one test."""
    from store.client import Store
    from store.indexes import ensure_indexes

    name = f"aeko_test_{uuid4().hex[:12]}"
    database = mongo.client[name]
    ensure_indexes(database)
    yield Store(mongo.client, database, mongo.target)
    mongo.client.drop_database(name)


@pytest.fixture
def app_env(mongo, monkeypatch, tmp_path):
    """The app (AppTest) pointed at the test server, in a database of its own, offline."""
    uri = os.environ.get("MONGODB_URI") or mongo.server.uri
    name = f"aeko_app_{uuid4().hex[:10]}"
    monkeypatch.setenv("MONGODB_URI", uri)
    monkeypatch.setenv("MONGODB_DB", name)
    monkeypatch.setenv("AEKO_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    yield mongo.client[name]
    mongo.client.drop_database(name)


# The browser tests' Chromium and pages (tests/browser_app.py starts the app itself).


@pytest.fixture(scope="module")
def browser():
    browser_app.require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=browser_app.CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync"],
        )  # fmt: skip
        yield launched
        launched.close()


@pytest.fixture
def page(browser):
    browser_app.ARTIFACTS.mkdir(exist_ok=True)
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="pt-BR")
    page = context.new_page()
    page.set_default_timeout(browser_app.WAIT_MS)
    yield page
    context.close()
