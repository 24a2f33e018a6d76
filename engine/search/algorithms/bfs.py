"""Breadth-first search."""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable

from engine.core.result import Budget, SolveResult, Watch
from engine.core.status import Status
from engine.search.algorithms.common import STATE_BYTES, Path, Trace, stopped, unreachable
from engine.search.domain import Domain
from engine.search.record import Algorithm, register


def breadth_first_search(problem: Domain, budget: Budget | None = None, trace: Trace | None = None,
                         watch: Watch | None = None) -> SolveResult:
    """Expand the shallowest node first; the first time the goal is generated, its path is a shortest one."""
    watch = watch or Watch(budget)
    start = problem.initial
    if problem.is_goal(start):
        if trace:
            trace("goal", {"state": start, "path": (), "expanded": 0, "generated": 0, "frontier": 0})
        return SolveResult(Status.SOLVED, "", True, seconds=watch.elapsed, solver="bfs")
    frontier: deque[tuple[Hashable, Path]] = deque([(start, ())])
    reached = {start}
    expanded = generated = peak = 0
    while frontier:
        if reason := watch.stop_reason(expanded, STATE_BYTES * (len(reached) + len(frontier))):
            return stopped(watch, reason, expanded, generated, peak, "bfs")
        state, path = frontier.popleft()
        expanded += 1
        if trace:
            trace("expand", {"state": state, "path": path, "expanded": expanded, "generated": generated,
                             "frontier": len(frontier)})
        for action in problem.actions(state):
            child, child_path = problem.result(state, action), path + (action,)
            generated += 1
            counts = {"expanded": expanded, "generated": generated}
            if child in reached:
                if trace:
                    trace("duplicate", {"state": child, "path": child_path, **counts, "frontier": len(frontier)})
                continue
            reached.add(child)
            if problem.is_goal(child):
                if trace:
                    trace("goal", {"state": child, "path": child_path, **counts, "frontier": len(frontier)})
                return SolveResult(Status.SOLVED, problem.format_path(child_path), True, expanded, generated, peak,
                                   watch.elapsed, "bfs", actions=child_path)
            frontier.append((child, child_path))
            if trace:
                trace("generate", {"state": child, "path": child_path, **counts, "frontier": len(frontier)})
        peak = max(peak, len(frontier))
    return unreachable(expanded, generated, peak, watch, "bfs")


register(Algorithm("bfs", "Breadth-first search", lambda problem, watch, trace, limit: breadth_first_search(
    problem, trace=trace, watch=watch), (
    ("if start is a goal: return it", None),
    ("frontier ← FIFO queue holding start; reached ← {start}", "start"),
    ("while frontier is not empty:", None),
    ("  node ← pop the front of frontier; expand it:", "expand"),
    ("  for each child of node:", None),
    ("    if child's state is in reached: skip it", "duplicate"),
    ("    if child is a goal: return its path", "goal"),
    ("    add child to reached and to the back of frontier", "generate"),
    ("return failure", None),
), frontier="queue", optimal=True, place=10))
