"""The deployment in docs/deploy.md is the one in deploy/compose.yaml, and it configures the
app through settings the app reads: two app processes in worker mode, one worker, a MongoDB
replica set (change streams need one), a load balancer, and no secret in the file."""

import re
from pathlib import Path

import pytest
import yaml  # PyYAML, installed with langchain-core (never skipped: CI must read the file)

from settings import load_settings

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = ROOT / "deploy" / "compose.yaml"
DOC = ROOT / "docs" / "deploy.md"


@pytest.fixture(scope="module")
def services() -> dict:
    return yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))["services"]


class _Recording(dict):
    """An environment that remembers which names were looked up."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: set[str] = set()

    def get(self, name, default=None):
        self.asked.add(name)
        return super().get(name, default)


def _names_settings_read() -> set[str]:
    environ = _Recording()
    load_settings({}, environ)
    return environ.asked


def test_the_doc_shows_the_compose_file_as_it_is():
    [block] = re.findall(r"```yaml\n(# Aeko Studio behind a load balancer.*?)```", DOC.read_text(),
                         flags=re.S)  # fmt: skip
    assert block == COMPOSE.read_text(encoding="utf-8")


def test_two_app_processes_enqueue_for_one_worker(services):
    apps = [name for name, service in services.items() if "streamlit" in service.get("command", [])]
    assert sorted(apps) == ["app-1", "app-2"]
    for name in apps:
        command = services[name]["command"]
        assert command[:3] == ["streamlit", "run", "app.py"]
        # .streamlit/config.toml binds to 127.0.0.1: a replica behind a balancer must not.
        assert command[command.index("--server.address") + 1] == "0.0.0.0"
        assert services[name]["environment"]["AEKO_RUNS"] == "worker"
    workers = [name for name, s in services.items() if s.get("command") == ["python", "worker.py"]]
    assert workers == ["worker"]
    # The worker's grace (20 s, then hand back) must fit before docker's SIGKILL.
    grace = services["worker"]["stop_grace_period"]
    assert grace.endswith("s") and int(grace[:-1]) > 20


def test_every_process_reaches_one_replica_set(services):
    members = [name for name, s in services.items() if s.get("image", "").startswith("mongo:")]
    mongods = [name for name in members if services[name]["command"][0] == "mongod"]
    assert len(mongods) >= 1
    for name in mongods:
        command = services[name]["command"]
        assert command[command.index("--replSet") + 1] == "rs0"
    uris = {
        s["environment"]["MONGODB_URI"] for s in services.values() if "MONGODB_URI" in s.get(
            "environment", {})
    }  # fmt: skip
    assert len(uris) == 1
    [uri] = uris
    assert "replicaSet=rs0" in uri
    assert {host.split(":")[0] for host in uri.split("//")[1].split("/")[0].split(",")} == set(
        mongods
    )


def test_each_process_keeps_its_spill_on_a_volume_of_its_own(services):
    runners = ["app-1", "app-2", "worker"]
    data = [
        next(v.split(":")[0] for v in services[name]["volumes"] if v.split(":")[1] == "/data")
        for name in runners
    ]
    assert len(set(data)) == len(runners)  # outbox.jsonl is per process


def test_the_balancer_keeps_a_tab_on_its_replica():
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    assert re.search(r"upstream aeko \{\s*hash \$aeko_affinity consistent;", conf)
    assert "server app-1:8501" in conf and "server app-2:8501" in conf
    assert "proxy_set_header Upgrade $http_upgrade;" in conf  # Streamlit's websocket


def test_every_variable_it_sets_is_one_the_app_reads(services):
    read = _names_settings_read()
    for name, service in services.items():
        for variable in service.get("environment", {}):
            assert variable in read, f"{name} sets {variable}, which settings.py never reads"
    example = (ROOT / "deploy" / "model.env.example").read_text()
    for variable in re.findall(r"^#? ?([A-Z][A-Z0-9_]+)=", example, flags=re.M):
        assert variable in read, f"model.env.example names {variable}, never read"


def test_no_secret_is_in_the_compose_file_and_secrets_are_mounted(services):
    text = COMPOSE.read_text()
    for secret in ("GEMINI_API_KEY", "client_secret", "cookie_secret", "password"):
        assert secret not in text
    for name in ("app-1", "app-2"):
        assert any(
            v.endswith(":/app/.streamlit/secrets.toml:ro") for v in services[name]["volumes"]
        )
    ignored = (ROOT / "deploy" / "Dockerfile.dockerignore").read_text().split()
    assert ".streamlit/secrets.toml" in ignored and "deploy/secrets" in ignored
