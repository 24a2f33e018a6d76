"""Greedy best-first search: best-first search on h alone."""

from __future__ import annotations

from engine.core.result import Budget, SolveResult, Watch
from engine.search.algorithms.best_first import best_first_record, best_first_search
from engine.search.algorithms.common import Trace
from engine.search.domain import Domain


def greedy_best_first_search(problem: Domain, budget: Budget | None = None, trace: Trace | None = None,
                             watch: Watch | None = None) -> SolveResult:
    """Best-first search on h alone: heads straight for what looks closest, so it is fast but not optimal."""
    return best_first_search(problem, lambda g, h: h, "greedy", budget, trace, watch, GREEDY.optimal)


GREEDY = best_first_record("greedy", "Greedy best-first search", "h", False, greedy_best_first_search, 50)
