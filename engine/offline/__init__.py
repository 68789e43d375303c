"""The offline analyst: the whole product with no API key, with grounded answers."""

from engine.offline.model import OFFLINE_MODEL_NAME, OfflineAnalyst

__all__ = ["OFFLINE_MODEL_NAME", "OfflineAnalyst"]
