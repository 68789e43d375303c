"""Greenhouse gases: their names, their blends and their GWPs in each IPCC assessment report.

A package of its own, reading only engine.errors, engine.formatting and engine.protocol, so
that both ``engine.emissions`` and ``engine.inventory`` (which reads ``engine.emissions``)
import it at module level without a cycle. Callers import ``engine.gases.gwp``: the function
``gwp`` shares its name with that submodule.
"""
