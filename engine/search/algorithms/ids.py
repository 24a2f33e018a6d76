"""Iterative deepening: depth-limited search with limits 0, 1, 2, …"""

from __future__ import annotations

from engine.core.result import Budget, SolveResult, Watch
from engine.core.status import Status
from engine.search.algorithms.common import Stop, Trace, stopped
from engine.search.algorithms.dfs import DLS, depth_limited_search
from engine.search.domain import Domain
from engine.search.record import Algorithm, register


def iterative_deepening_search(problem: Domain, budget: Budget | None = None, trace: Trace | None = None,
                               max_depth: int = 80, watch: Watch | None = None) -> SolveResult:
    """Depth-limited search with limits 0, 1, 2, …: the first solution found is a shortest one."""
    watch = watch or Watch(budget)
    counts = [0, 0]
    try:
        for limit in range(max_depth + 1):
            if trace:
                trace("bound", {"bound": limit, "previous": limit - 1 if limit else None,
                                "expanded": counts[0], "generated": counts[1]})
            watch.report(None, {"nodes": counts[0], "text": f"depth limit {limit}, {counts[0]:,} nodes expanded"})
            path = depth_limited_search(problem, limit, watch, trace, counts)
            if path is not None:
                return SolveResult(Status.SOLVED, problem.format_path(path), True, counts[0], counts[1], limit,
                                   watch.elapsed, "ids", actions=path)
    except Stop as stop:
        return stopped(watch, stop.reason, counts[0], counts[1], 0, "ids")
    return stopped(watch, Status.BUDGET_EXHAUSTED, counts[0], counts[1], 0, "ids")


register(Algorithm("ids", "Iterative deepening", lambda problem, watch, trace, limit: iterative_deepening_search(
    problem, trace=trace, watch=watch), (
    ("for limit ← 0, 1, 2, …:", "bound"),
    ("  result ← DLS(start, limit)", "start"),
    ("  if result is a path: return it", None),
) + DLS, frontier="stack", optimal=True, cutoff="depth", place=30))
