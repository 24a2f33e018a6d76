"""Breadth-first, depth-limited, iterative-deepening, A* and IDA* search, written to read like their pseudocode.

Each returns a SolveResult. ``trace``, if given, is called as ``trace(event, data)`` with events ``expand`` (a node
is taken from the frontier: state, g, h, path), ``generate`` (a child is added: state, g, h, parent path),
``prune`` (IDA* cuts a child off: f > bound), ``bound`` (IDA* and IDS start a new iteration) and ``goal``; the
step-through views replay these. Move order and
pruning match the numba kernels (children in U D L R order; IDA* and depth-limited search never undo the move that
led to a node), so their node counts agree exactly, which the tests check.
"""

from __future__ import annotations

import heapq
import itertools
from collections import deque
from typing import Callable, Hashable

from engine.result import BUDGET_EXHAUSTED, CANCELLED, SOLVED, Budget, SolveResult, Watch
from engine.search.problem import Problem

Trace = Callable[[str, dict], None]
INVERSE = {"U": "D", "D": "U", "L": "R", "R": "L"}


def _stopped(watch: Watch, reason: str, expanded: int, generated: int, peak: int, solver: str) -> SolveResult:
    return SolveResult(reason, nodes_expanded=expanded, nodes_generated=generated, peak_frontier=peak,
                       seconds=watch.elapsed, solver=solver, message=watch.stop_message(reason, expanded))


def breadth_first_search(problem: Problem, budget: Budget | None = None, trace: Trace | None = None,
                         watch: Watch | None = None) -> SolveResult:
    """Expand the shallowest node first; the first time the goal is generated, its path is a shortest one."""
    watch = watch or Watch(budget)
    start = problem.initial
    if problem.is_goal(start):
        return SolveResult(SOLVED, "", True, seconds=watch.elapsed, solver="bfs")
    frontier: deque[tuple[Hashable, str]] = deque([(start, "")])
    reached = {start}
    expanded = generated = peak = 0
    while frontier:
        if reason := watch.stop_reason(expanded):
            return _stopped(watch, reason, expanded, generated, peak, "bfs")
        state, path = frontier.popleft()
        expanded += 1
        if trace:
            trace("expand", {"state": state, "g": len(path), "path": path, "frontier": len(frontier)})
        for action in problem.actions(state):
            child = problem.result(state, action)
            generated += 1
            if child in reached:
                continue
            reached.add(child)
            if trace:
                trace("generate", {"state": child, "g": len(path) + 1, "path": path + action})
            if problem.is_goal(child):
                if trace:
                    trace("goal", {"state": child, "path": path + action})
                return SolveResult(SOLVED, path + action, True, expanded, generated, peak, watch.elapsed, "bfs")
            frontier.append((child, path + action))
        peak = max(peak, len(frontier))
    return SolveResult("unsolvable", nodes_expanded=expanded, nodes_generated=generated, peak_frontier=peak,
                       seconds=watch.elapsed, solver="bfs", message="the goal is not reachable")


def depth_limited_search(problem: Problem, limit: int, watch: Watch, trace: Trace | None = None,
                         counts: list[int] | None = None) -> str | None:
    """Depth-first search to ``limit`` moves, never undoing the previous move. Returns a path, or None.

    ``counts`` accumulates [expanded, generated]; raises _Stop when the budget runs out.
    """
    counts = counts if counts is not None else [0, 0]

    def recurse(state: Hashable, path: str) -> str | None:
        if problem.is_goal(state):
            if trace:
                trace("goal", {"state": state, "path": path})
            return path
        if len(path) == limit:
            return None
        if reason := watch.stop_reason(counts[0]):
            raise _Stop(reason)
        counts[0] += 1
        if trace:
            trace("expand", {"state": state, "g": len(path), "path": path})
        for action in problem.actions(state):
            if path and INVERSE.get(action) == path[-1]:
                continue
            counts[1] += 1
            found = recurse(problem.result(state, action), path + action)
            if found is not None:
                return found
        return None

    return recurse(problem.initial, "")


def depth_first_search(problem: Problem, limit: int, budget: Budget | None = None,
                       trace: Trace | None = None) -> SolveResult:
    """Depth-first search to a fixed depth limit: finds *a* path, not a shortest one (the contrast with IDS)."""
    watch = Watch(budget)
    counts = [0, 0]
    try:
        path = depth_limited_search(problem, limit, watch, trace, counts)
    except _Stop as stop:
        return _stopped(watch, stop.reason, counts[0], counts[1], 0, "dfs")
    if path is None:
        return SolveResult("not_found", nodes_expanded=counts[0], nodes_generated=counts[1], seconds=watch.elapsed,
                           solver="dfs", message=f"no solution within {limit} moves")
    return SolveResult(SOLVED, path, False, counts[0], counts[1], limit, watch.elapsed, "dfs")


class _Stop(Exception):
    def __init__(self, reason: str):
        self.reason = reason


def iterative_deepening_search(problem: Problem, budget: Budget | None = None, trace: Trace | None = None,
                               max_depth: int = 80) -> SolveResult:
    """Depth-limited search with limits 0, 1, 2, …: the first solution found is a shortest one."""
    watch = Watch(budget)
    counts = [0, 0]
    try:
        for limit in range(max_depth + 1):
            if trace:
                trace("bound", {"bound": limit})
            path = depth_limited_search(problem, limit, watch, trace, counts)
            if path is not None:
                return SolveResult(SOLVED, path, True, counts[0], counts[1], limit, watch.elapsed, "ids")
    except _Stop as stop:
        return _stopped(watch, stop.reason, counts[0], counts[1], 0, "ids")
    return _stopped(watch, BUDGET_EXHAUSTED, counts[0], counts[1], 0, "ids")


def astar_search(problem: Problem, budget: Budget | None = None, trace: Trace | None = None,
                 watch: Watch | None = None) -> SolveResult:
    """Best-first search on f = g + h; with an admissible, consistent h the first goal expanded is optimal.

    Ties on f prefer the larger g (deeper nodes reach the goal sooner), then insertion order.
    """
    watch = watch or Watch(budget)
    start = problem.initial
    counter = itertools.count()
    h0 = problem.h(start)
    frontier = [(h0, 0, next(counter), start)]
    best_g = {start: 0}
    parent: dict[Hashable, tuple[Hashable, str] | None] = {start: None}
    expanded = generated = peak = 0
    while frontier:
        f, negative_g, _, state = heapq.heappop(frontier)
        g = -negative_g
        if g > best_g[state]:
            continue  # a cheaper path to this state was found after this entry was queued
        if problem.is_goal(state):
            path = _path_to(parent, state)
            if trace:
                trace("goal", {"state": state, "path": path})
            return SolveResult(SOLVED, path, True, expanded, generated, peak, watch.elapsed, "astar")
        if reason := watch.stop_reason(expanded):
            return _stopped(watch, reason, expanded, generated, peak, "astar")
        expanded += 1
        if trace:
            trace("expand", {"state": state, "g": g, "h": f - g, "path": _path_to(parent, state),
                             "frontier": len(frontier)})
        for action in problem.actions(state):
            child = problem.result(state, action)
            generated += 1
            if g + 1 < best_g.get(child, 1 << 60):
                best_g[child] = g + 1
                parent[child] = (state, action)
                h = problem.h(child)
                heapq.heappush(frontier, (g + 1 + h, -(g + 1), next(counter), child))
                if trace:
                    trace("generate", {"state": child, "g": g + 1, "h": h, "path": _path_to(parent, child)})
        peak = max(peak, len(frontier))
    return SolveResult("unsolvable", nodes_expanded=expanded, nodes_generated=generated, seconds=watch.elapsed,
                       solver="astar", message="the goal is not reachable")


def _path_to(parent: dict, state: Hashable) -> str:
    moves = []
    while parent[state] is not None:
        state, action = parent[state]
        moves.append(action)
    return "".join(reversed(moves))


def idastar_search(problem: Problem, budget: Budget | None = None, trace: Trace | None = None,
                   max_bound: int = 200) -> SolveResult:
    """Iterative-deepening A*: depth-first search cut off where f = g + h exceeds a bound; the next bound is the
    least f that was cut off. Never undoes the previous move (the only duplicate check)."""
    watch = Watch(budget)
    counts = [0, 0]

    def search(state: Hashable, path: str, h: int, bound: int) -> tuple[str | None, int]:
        """(path to a goal, or None; the least f above ``bound`` seen below this node)."""
        if problem.is_goal(state):
            if trace:
                trace("goal", {"state": state, "path": path})
            return path, bound
        if reason := watch.stop_reason(counts[0]):
            raise _Stop(reason)
        counts[0] += 1
        if trace:
            trace("expand", {"state": state, "g": len(path), "h": h, "path": path})
        least = 1 << 30
        for action in problem.actions(state):
            if path and INVERSE.get(action) == path[-1]:
                continue
            child = problem.result(state, action)
            counts[1] += 1
            child_h = problem.h(child)
            f = len(path) + 1 + child_h
            if f > bound:
                least = min(least, f)
                if trace:
                    trace("prune", {"state": child, "g": len(path) + 1, "h": child_h, "path": path + action})
                continue
            found, child_least = search(child, path + action, child_h, bound)
            if found is not None:
                return found, bound
            least = min(least, child_least)
        return None, least

    h0 = problem.h(problem.initial)
    bound = h0
    try:
        while bound <= max_bound:
            if trace:
                trace("bound", {"bound": bound})
            found, bound_next = search(problem.initial, "", h0, bound)
            if found is not None:
                return SolveResult(SOLVED, found, True, counts[0], counts[1], len(found), watch.elapsed, "idastar")
            bound = bound_next
    except _Stop as stop:
        return _stopped(watch, stop.reason, counts[0], counts[1], 0, "idastar")
    return _stopped(watch, BUDGET_EXHAUSTED, counts[0], counts[1], 0, "idastar")


__all__ = ["astar_search", "breadth_first_search", "depth_first_search", "depth_limited_search", "idastar_search",
           "iterative_deepening_search", "CANCELLED"]
