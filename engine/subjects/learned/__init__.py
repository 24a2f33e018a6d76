"""Seed 002's learned heuristic: a table trained on random walks out of the goal, used by IDA* as V = MD + DB."""

#: the module that registers the learned heuristic, for ``engine.core.registry.load_all`` (its ``jobs`` module, the
#: training, evaluation and the M curve, is found by its name)
REGISTERS = ("heuristic",)
