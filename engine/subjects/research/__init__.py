"""Seed 000, the 2×n puzzle's diameter: full-space BFS, the Manhattan lower bound, the k-column sub-problem and the
upper bounds built from it."""

#: the modules that register entries when imported, for ``engine.core.registry.load_all``:
#: the research jobs
REGISTERS = ("jobs",)
