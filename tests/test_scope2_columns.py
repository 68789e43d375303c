"""Scope 2 written as two emission columns, one per method, on each row (GHG Protocol Scope 2
Guidance: report both, never sum them). "Mercado" beside emissions is the market-based
method; "Mercado livre (ACL)" is how the energy was contracted."""

import io

import pandas as pd
import pytest

from engine.formatting import number
from engine.inventory import load_inventory

ROWS = [  # facility, contracting, MWh, location t, market t
    ("Unidade A", "Mercado livre (ACL)", 41_200, 2_245.4, 0.0),
    ("Unidade B", "Mercado livre (ACL)", 15_800, 861.1, 425.1),
    ("CD C", "Cativo (ACR)", 5_900, 321.55, 321.55),
]


def _workbook(location_header: str, market_header: str) -> bytes:
    columns = ["Instalação", "Ambiente de contratação", "Consumo (MWh)"]
    frame = pd.DataFrame(
        [list(r) for r in ROWS], columns=[*columns, location_header, market_header]
    )
    total = ["TOTAL ESCOPO 2", None, sum(r[2] for r in ROWS),
             sum(r[3] for r in ROWS), sum(r[4] for r in ROWS)]  # fmt: skip
    frame.loc[len(frame)] = total
    buffer = io.BytesIO()
    with pd.ExcelWriter(buffer) as writer:
        frame.to_excel(writer, sheet_name="Escopo 2", index=False)
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("location", "market"),
    [
        ("Emissões – localização (tCO2e)", "Emissões – mercado (tCO2e)"),
        ("Emissões por localização (tCO2e)", "Emissões por escolha de compra (tCO2e)"),
        ("Location-based emissions (tCO2e)", "Market-based emissions (tCO2e)"),
    ],
)
def test_the_location_column_is_the_total_and_the_market_column_stands_beside_it(location, market):
    inventory = load_inventory(_workbook(location, market), filename="escopo2.xlsx")
    location_total = 2_245.4 + 861.1 + 321.55  # 3,428.05 t, by hand from the rows
    market_total = 0.0 + 425.1 + 321.55  # 746.65 t
    assert inventory.total_tco2e == pytest.approx(location_total)
    digest = inventory.digest()
    assert number(location_total) in digest and number(market_total) in digest
    assert number(location_total + market_total) not in digest  # never added together
