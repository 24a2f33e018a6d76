"""Seed 002's learned heuristic: a table trained on random walks out of the goal, used by IDA* as V = MD + DB."""
