"""Seed 002's learned heuristic: a table trained on random walks out of the goal, used by IDA* as V = MD + DB."""

#: the modules that register entries when imported, for ``engine.core.registry.load_all``:
#: the learned heuristic; training, evaluation and the M curve
REGISTERS = ("heuristic", "jobs")
