"""What the store raises: short, bilingual, with the host and never the credentials."""

from __future__ import annotations

from engine.errors import LocalizedError


class StoreError(LocalizedError):
    """Base class of the store's errors."""


class StoreUnavailableError(StoreError):
    def __init__(self, target: str, *, embedded: bool = False) -> None:
        self.target = target
        if embedded:
            hint_pt = "Verifique se a pasta de dados é gravável e reinicie o app."
            hint_en = "Check that the data folder is writable and restart the app."
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
