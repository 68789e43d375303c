"""What the store raises: short, bilingual, with the host and never the credentials."""

from __future__ import annotations

from engine.errors import LocalizedError
from engine.texts import Texts

_TEXTS = Texts(
    "store.errors",
    {
        "unavailable": {
            "pt": "Banco de dados indisponível ({target}). {hint}",
            "en": "Database unavailable ({target}). {hint}",
        },
        "hint.embedded": {
            "pt": "O servidor embutido (SecantusDB) não respondeu; o app o reinicia sozinho. "
            "Se persistir, verifique se a pasta de dados é gravável e reinicie o app.",
            "en": "The embedded server (SecantusDB) did not answer; the app restarts it by "
            "itself. If it persists, check that the data folder is writable and restart "
            "the app.",
        },
        "hint.server": {
            "pt": "Verifique MONGODB_URI, a rede e se o servidor está no ar.",
            "en": "Check MONGODB_URI, the network and that the server is up.",
        },
        "not_found": {"pt": "{what}: não encontrado.", "en": "{what}: not found."},
    },
)


class Target(str):
    """What a message names as the database ("host:port", or the embedded server and its
    folder), and whether it is the embedded server, so every error names the right fix."""

    embedded: bool

    def __new__(cls, text: str, *, embedded: bool = False) -> Target:
        target = super().__new__(cls, text)
        target.embedded = embedded
        return target


class StoreError(LocalizedError):
    """Base class of the store's errors."""


class StoreUnavailableError(StoreError):
    def __init__(self, target: str, *, embedded: bool | None = None) -> None:
        self.target = target
        if embedded is None:  # a repository's lost connection: its target knows
            embedded = bool(getattr(target, "embedded", False))
        self.embedded = embedded
        hint = _TEXTS.both("hint.embedded" if embedded else "hint.server")
        super().__init__(_TEXTS.both("unavailable", target=target, hint=hint))


class NotFoundError(StoreError):
    def __init__(self, what: str) -> None:
        super().__init__(_TEXTS.both("not_found", what=what))
