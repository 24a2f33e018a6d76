"""Metaheuristic solvers of seed 001: a binary particle swarm (DPSO) and a genetic algorithm over bit strings that
always decode to legal blank moves."""

#: the modules that register entries when imported, for ``engine.core.registry.load_all``:
#: dpso and ga; the experiment job
REGISTERS = ("solvers", "jobs")
