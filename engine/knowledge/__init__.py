"""Aeko's knowledge base of GHG-accounting concepts: ``search`` finds its entries, ``tool``
lets an agent consult it.

Nothing is re-exported here, so ``engine.knowledge.search`` stays the module (its function
of the same name would otherwise shadow it) and importing the package loads no index.
"""
