"""Depth-limited search (DLS), the depth-first search the step-through shows, and the pseudocode iterative deepening
shares with it."""

from __future__ import annotations

from collections.abc import Hashable

from engine.core.result import Budget, SolveResult, Watch
from engine.core.status import Status
from engine.search.algorithms.common import Path, Stop, Trace, stopped
from engine.search.domain import Domain
from engine.search.record import Algorithm, register


def depth_limited_search(problem: Domain, limit: int, watch: Watch, trace: Trace | None = None,
                         counts: list[int] | None = None) -> Path | None:
    """Depth-first search to ``limit`` actions, never undoing the previous action nor entering a state already on
    the path to it. Returns a path, or None.

    ``counts`` accumulates [expanded, generated] over calls (IDS calls this once per limit); raises Stop when the
    budget runs out.
    """
    counts = counts if counts is not None else [0, 0]
    on_path: set[Hashable] = set()

    def note(event: str, state: Hashable, path: Path) -> None:
        if trace:
            trace(event, {"state": state, "path": path, "expanded": counts[0], "generated": counts[1]})

    def recurse(state: Hashable, path: Path, back) -> Path | None:
        if problem.is_goal(state):
            note("goal", state, path)
            return path
        if len(path) == limit:
            note("prune", state, path)
            return None
        if reason := watch.stop_reason(counts[0]):
            raise Stop(reason)
        counts[0] += 1
        note("expand", state, path)
        on_path.add(state)
        for action in problem.actions(state):
            if action == back:
                continue
            counts[1] += 1
            child = problem.result(state, action)
            if child in on_path:
                note("duplicate", child, path + (action,))
                continue
            found = recurse(child, path + (action,), problem.inverse(state, action))
            if found is not None:
                return found
        on_path.discard(state)
        return None

    return recurse(problem.initial, (), None)


DLS = (
    ("function DLS(node, limit):", None),
    ("  if node is a goal: return its path", "goal"),
    ("  if depth(node) = limit: cut off, return", "prune"),
    ("  expand node: for each child (never straight back to its parent):", "expand"),
    ("    if child's state is on the path to node: skip it", "duplicate"),
    ("    result ← DLS(child, limit)", None),
    ("    if result is a path: return it", None),
    ("  return failure", None),
)


def depth_first_search(problem: Domain, limit: int, budget: Budget | None = None,
                       trace: Trace | None = None, watch: Watch | None = None) -> SolveResult:
    """Depth-first search to a fixed depth limit: finds *a* path, not a shortest one (the contrast with IDS)."""
    watch = watch or Watch(budget)
    counts = [0, 0]
    try:
        path = depth_limited_search(problem, limit, watch, trace, counts)
    except Stop as stop:
        return stopped(watch, stop.reason, counts[0], counts[1], 0, "dfs")
    if path is None:
        return SolveResult(Status.NOT_SOLVED, nodes_expanded=counts[0], nodes_generated=counts[1],
                           seconds=watch.elapsed, solver="dfs", message=f"no solution within {limit} moves")
    return SolveResult(Status.SOLVED, problem.format_path(path), False, counts[0], counts[1], limit, watch.elapsed,
                       "dfs", actions=path)


register(Algorithm("dfs", "Depth-first search (depth-limited)", lambda problem, watch, trace, limit:
                   depth_first_search(problem, limit, trace=trace, watch=watch),
                   (("return DLS(start, limit)", "start"),) + DLS, frontier="stack", optimal=False, cutoff="depth",
                   place=20))
