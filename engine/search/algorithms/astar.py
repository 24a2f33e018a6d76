"""A*: best-first search on f = g + h."""

from __future__ import annotations

from engine.core.result import Budget, SolveResult, Watch
from engine.search.algorithms.best_first import best_first_record, best_first_search
from engine.search.algorithms.common import Trace
from engine.search.domain import Domain


def astar_search(problem: Domain, budget: Budget | None = None, trace: Trace | None = None,
                 watch: Watch | None = None) -> SolveResult:
    """Best-first search on f = g + h; with an admissible, consistent h the first goal expanded is optimal."""
    return best_first_search(problem, lambda g, h: g + h, "astar", budget, trace, watch, ASTAR.optimal)


ASTAR = best_first_record("astar", "A*", "f", True, astar_search, 60)
