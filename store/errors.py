"""What the store raises: short, bilingual, with the host and never the credentials."""

from __future__ import annotations

from engine.errors import LocalizedError


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
        if embedded:
            hint_pt = (
                "O servidor embutido (SecantusDB) não respondeu; o app o reinicia sozinho. "
                "Se persistir, verifique se a pasta de dados é gravável e reinicie o app."
            )
            hint_en = (
                "The embedded server (SecantusDB) did not answer; the app restarts it by "
                "itself. If it persists, check that the data folder is writable and restart "
                "the app."
            )
        else:
            hint_pt = "Verifique MONGODB_URI, a rede e se o servidor está no ar."
            hint_en = "Check MONGODB_URI, the network and that the server is up."
        super().__init__(
            f"Banco de dados indisponível ({target}). {hint_pt}",
            f"Database unavailable ({target}). {hint_en}",
        )


class NotFoundError(StoreError):
    def __init__(self, what: str) -> None:
        super().__init__(f"{what}: não encontrado.", f"{what}: not found.")
