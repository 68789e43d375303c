"""The app's settings, read once at start-up from Streamlit secrets or the environment.

Secrets take precedence over the environment. Nothing else in the project reads either: the
engine and the store receive what they need from here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
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
    # The person using the single-user local mode. With sign-in on, each identity is its own
    # user instead (components/auth.py).
    user_external_id: int = 1
    # Sign-in (OIDC) is on when secrets hold Streamlit's ``[auth]`` section.
    auth_enabled: bool = False
    max_calls_per_run: int | None = None
    max_tokens_per_run: int | None = None
    daily_cost_cap_usd: float | None = None
    run_log: Path | None = None  # a JSON-lines log of every run's events
    # Whether the run log keeps questions, answers and tool arguments (off: lengths only).
    run_log_include_text: bool = False
    run_deadline_s: float | None = None  # None: the engine's default (180 s)
    # AEKO_OFFLINE_PACE_S: seconds each offline answer waits (demos and tests of long runs).
    offline_pace_s: float = 0.0
    # AEKO_OFFLINE_PRICED_AS: a model (e.g. "gemini-2.5-flash") whose prices the offline
    # analyst's calls are charged at: what a run would cost there, and a cost cap that bites
    # without a key. Its calls still name the offline analyst. Unset: they cost nothing.
    offline_priced_as: str | None = None
    # AEKO_DEBUG: debug logging, with the providers' own error messages.
    debug: bool = False
    # AEKO_RUNS=worker: pages enqueue chat turns and a worker process runs them
    # (application/worker.py; ./dev.sh app starts one). Unset: they run in the page process.
    runs_in_worker: bool = False
    # AEKO_WORKER_RUNS: how many runs one worker process drives at once (they mostly wait on
    # the model's answers, so more than the machine's cores).
    worker_runs: int = 4
    # Models: a Gemini id or "provider:model"; fallbacks are ordered, comma-separated.
    fast_model: str | None = None
    slow_model: str | None = None
    fast_fallbacks: tuple[str, ...] | None = None
    slow_fallbacks: tuple[str, ...] | None = None
    provider_keys: dict[str, str] = field(default_factory=dict, repr=False)
    # AEKO_ADMINS: e-mails (comma-separated) of who runs the app, the ones shown where its
    # database lives and how its key and sign-in are set. Without sign-in, whoever uses the
    # app runs it.
    admins: frozenset[str] = frozenset()

    def is_admin(self, email: str | None) -> bool:
        return not self.auth_enabled or (bool(email) and email.strip().lower() in self.admins)

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
        auth_enabled=auth_configured(secrets),
        max_calls_per_run=_int(read("AEKO_MAX_CALLS_PER_RUN")),
        max_tokens_per_run=_int(read("AEKO_MAX_TOKENS_PER_RUN")),
        daily_cost_cap_usd=float(cap) if (cap := read("AEKO_DAILY_COST_CAP_USD")) else None,
        admins=frozenset(
            e.strip().lower() for e in (read("AEKO_ADMINS") or "").split(",") if e.strip()
        ),
        run_log=Path(log) if (log := read("AEKO_RUN_LOG")) else None,
        run_log_include_text=_flag(read("AEKO_RUN_LOG_TEXT")),
        run_deadline_s=float(limit) if (limit := read("AEKO_RUN_DEADLINE_S")) else None,
        offline_pace_s=float(read("AEKO_OFFLINE_PACE_S") or 0),
        offline_priced_as=read("AEKO_OFFLINE_PRICED_AS"),
        debug=_flag(read("AEKO_DEBUG")),
        runs_in_worker=(read("AEKO_RUNS") or "").lower() == "worker",
        worker_runs=max(1, _int(read("AEKO_WORKER_RUNS")) or 4),
        fast_model=read("AEKO_FAST_MODEL"),
        slow_model=read("AEKO_SLOW_MODEL"),
        fast_fallbacks=_list(read("AEKO_FAST_FALLBACKS")),
        slow_fallbacks=_list(read("AEKO_SLOW_FALLBACKS")),
        provider_keys={
            provider: key for provider, name in _PROVIDER_KEYS.items() if (key := read(name))
        },
    )


def auth_configured(secrets: Mapping[str, Any]) -> bool:
    """Whether secrets configure Streamlit's sign-in: an ``[auth]`` section with the cookie
    secret and the redirect URI ``st.login`` needs (the provider keys are checked by it)."""
    section = secrets.get("auth") if "auth" in secrets else None
    return isinstance(section, Mapping) and all(
        section.get(key) for key in ("redirect_uri", "cookie_secret")
    )


_PROVIDER_KEYS = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}


def _list(value: str | None) -> tuple[str, ...] | None:
    return tuple(item.strip() for item in value.split(",") if item.strip()) if value else None


def _int(value: str | None) -> int | None:
    return int(value) if value else None


def _flag(value: str | None) -> bool:
    return (value or "").lower() in {"1", "true", "yes", "on"}


def secrets_problem(paths: Iterable[str]) -> str | None:
    """Why a secrets file cannot be read, or None when every one that exists parses.

    The answer names the file and the parser's message, which gives the line and column and
    never the text there: no secret value reaches the page. A missing file is no problem
    (the environment and the defaults apply); a broken one must not pass for missing.
    """
    import tomllib

    for path in map(Path, paths):
        if path.suffix != ".toml" or not path.is_file():
            continue
        try:
            tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as error:
            return f"{path}: {error}"
        except UnicodeDecodeError as error:
            return f"{path}: not UTF-8 (byte {error.start})"
        except OSError as error:
            return f"{path}: {error.strerror or type(error).__name__}"
    return None
