"""The reference tables an answer may quote without a tool call, as grounding texts.

An analyst may state a gas's GWP (IPCC AR4/AR5/AR6) or a catalogued measure's reduction range
straight from the tables its prompt carries; those figures are sourced even though no tool
returned them. Only the rows the text names are offered, so a made-up number does not find
support by chance in a table of hundreds.
"""

from __future__ import annotations

import re
from functools import lru_cache

from engine.dto import AekoSource
from engine.grounding import Backing

_WORD = re.compile(r"[\w\-₂().]+")
GWP_SETS = ("AR4", "AR5", "AR6")


@lru_cache(maxsize=64)  # a chat turn backs the same answer three times (engine.graph.context)
def reference_backing(text: str) -> tuple[Backing, ...]:
    return (*_gwp_backing(text), *_measure_backing(text))


def _gwp_backing(text: str) -> list[Backing]:
    # Imported here: the GWP tables live in the inventory package, which pulls pandas, and
    # the chat path should not pay for it unless a gas is named.
    from engine.gases.gwp import canonical_gas, gwp

    words = dict.fromkeys(_WORD.findall(text))  # a gas named ten times is one gas
    gases = dict.fromkeys(g for word in words if (g := canonical_gas(word)))
    lines = []
    for gas in gases:
        values = [f"{s} {value:g}" for s in GWP_SETS if (value := gwp(gas, s)) is not None]
        if values:
            lines.append(f"GWP-100 (horizonte de 100 anos) {gas}: " + ", ".join(values))
    if not lines:
        return []
    source = AekoSource(
        kind="factor",
        ref="ipcc-gwp:" + ",".join(gases),
        label=f"GWP-100 ({', '.join(gases)})",
        citation="IPCC AR4 (2007), AR5 (2013), AR6 (2021), WG1",  # read in either language
    )
    return [Backing("\n".join(lines), (source,))]


def _measure_backing(text: str) -> list[Backing]:
    from engine.measures import alternatives_for

    return [
        Backing(
            option.line("pt"),
            (
                AekoSource(
                    kind="knowledge",
                    ref=f"measure:{option.key}",
                    label=f"{option.source['pt']} → {option.alternative['pt']}",
                    citation=option.reference,
                ),
            ),
        )
        for option in alternatives_for(text)
    ]
