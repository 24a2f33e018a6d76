"""Uniform-cost search: best-first search on g alone (Dijkstra's order)."""

from __future__ import annotations

from engine.core.result import Budget, SolveResult, Watch
from engine.search.algorithms.best_first import best_first_record, best_first_search
from engine.search.algorithms.common import Trace
from engine.search.domain import Domain


def uniform_cost_search(problem: Domain, budget: Budget | None = None, trace: Trace | None = None,
                        watch: Watch | None = None) -> SolveResult:
    """Best-first search on g alone (Dijkstra's order): optimal for any non-negative costs; with every action
    costing 1 it finds BFS's lengths, but tests the goal only when a node is expanded."""
    return best_first_search(problem, lambda g, h: g, "ucs", budget, trace, watch, UNIFORM_COST.optimal)


UNIFORM_COST = best_first_record("ucs", "Uniform-cost search", "g", True, uniform_cost_search, 40)
