"""Where the data lives. Read once by the app (secrets or environment) and passed in."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pymongo.uri_parser import parse_uri

DEFAULT_DB = "aeko"
DEFAULT_DATA_DIR = Path(".aeko-data")


@dataclass(frozen=True)
class StoreConfig:
    uri: str | None = field(default=None, repr=False)  # None: start the embedded server
    db: str = DEFAULT_DB
    data_dir: Path = DEFAULT_DATA_DIR  # the embedded server's files

    @property
    def embedded(self) -> bool:
        return not self.uri


def describe_target(uri: str | None) -> str:
    """Hosts only: a URI's user name and password never reach a log or the page."""
    if not uri:
        return "embedded server"
    try:
        nodes = parse_uri(uri, validate=False, warn=True)["nodelist"]
    except Exception:
        return "(unreadable MongoDB URI)"
    return ", ".join(f"{host}:{port}" for host, port in nodes) or "(no host)"
