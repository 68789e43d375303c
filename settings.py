"""The app's settings, read once at start-up from Streamlit secrets or the environment.

Secrets take precedence over the environment. Nothing else in the project reads either: the
engine and the store receive what they need from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from store.config import DEFAULT_DATA_DIR, DEFAULT_DB, StoreConfig


@dataclass(frozen=True)
class Settings:
    mongodb_uri: str | None = field(default=None, repr=False)
    mongodb_db: str = DEFAULT_DB
    data_dir: Path = DEFAULT_DATA_DIR
    gemini_api_key: str | None = field(default=None, repr=False)
    # The person using this deployment. Single-user for now; a sign-in would set it.
    user_external_id: int = 1

    @property
    def store(self) -> StoreConfig:
        return StoreConfig(uri=self.mongodb_uri, db=self.mongodb_db, data_dir=self.data_dir)


def load_settings(secrets: Mapping[str, Any], environ: Mapping[str, str]) -> Settings:
    def read(name: str) -> str | None:
        value = secrets.get(name) if name in secrets else environ.get(name)
        return str(value).strip() or None if value is not None else None

    return Settings(
        mongodb_uri=read("MONGODB_URI"),
        mongodb_db=read("MONGODB_DB") or DEFAULT_DB,
        data_dir=Path(read("AEKO_DATA_DIR") or DEFAULT_DATA_DIR),
        gemini_api_key=read("GEMINI_API_KEY") or read("GOOGLE_API_KEY"),
        user_external_id=int(read("AEKO_USER_ID") or 1),
    )
