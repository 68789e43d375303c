"""Files the app ships: the sample inventory a first-time user can load with one click.

Only the asset's path and name live here; ``scripts/sample_inventory.py`` builds it.
"""

from pathlib import Path

SAMPLE_PATH = Path(__file__).with_name("sample_inventory.xlsx")
SAMPLE_NAME = "cerâmica_vale_verde_inventario_2024.xlsx"
# The sample company's own (fictional, illustrative) supplier quotes per measure.
SAMPLE_COSTS_PATH = Path(__file__).with_name("sample_measure_costs.csv")

__all__ = ["SAMPLE_COSTS_PATH", "SAMPLE_NAME", "SAMPLE_PATH"]
