"""What a correct answer on replacing the HFC-134a of a chiller may name, from the domain and
not from any answer the analyst happens to give: a test about chillers accepts any of these.

- Lower-GWP refrigerants used in chillers: the HFOs R-1234ze(E) and R-1233zd(E), the HFO/HFC
  blends R-513A, R-515B and R-450A, the HFO blend R-514A, and, in some chiller ranges,
  ammonia (R-717), propane (R-290), propylene (R-1270) and CO2 (R-744). UNEP Refrigeration,
  Air Conditioning and Heat Pumps Technical Options Committee (RTOC), 2022 Assessment Report,
  chapter on chillers; ASHRAE Standard 34 (designations and compositions).
- Keeping the gas in: containment and leak repair cut the fugitive emissions of the charge
  in place. 2006 IPCC Guidelines, v. 3, ch. 7, section 7.5 (emissions over the equipment's
  life); GHG Protocol, HFC tool guidance (leaks are Scope 1).

R-1234yf is not among them: it is the refrigerant of new vehicle air conditioning, and an
answer moving a chiller to it is wrong (tests/test_knowledge_content.py).
"""

from __future__ import annotations

import re

REFRIGERANTS = (
    "R-1234ze", "R-1233zd", "R-513A", "R-515B", "R-450A", "R-514A",
    "R-717", "R-290", "R-1270", "R-744",
)  # fmt: skip
CONTAINMENT = ("vazamento", "estanqueidade", "contenção", "leak", "containment")

# "R-1234ze(E)", "R1234ze" and "R 513A" are the same designation.
PATTERN = re.compile(
    "|".join(
        [r"\bR[- ]?" + re.escape(name[2:]) + r"(?![0-9])" for name in REFRIGERANTS]
        + [re.escape(word) for word in CONTAINMENT]
    ),
    re.IGNORECASE,
)


def names_a_chiller_option(text: str) -> bool:
    """Whether ``text`` names at least one correct option for a chiller's HFC-134a."""
    return PATTERN.search(text) is not None
