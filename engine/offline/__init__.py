"""The offline analyst: the whole product with no API key, with grounded answers."""

from engine.constants import OFFLINE_MODEL_NAME
from engine.offline.model import OfflineAnalyst

__all__ = ["OFFLINE_MODEL_NAME", "OfflineAnalyst"]
