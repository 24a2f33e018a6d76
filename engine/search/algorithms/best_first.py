"""Best-first search, of which uniform-cost search, greedy best-first search and A* are three priorities, and the
pseudocode the three share."""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Callable, Hashable

from engine.core.result import Budget, SolveResult, Watch
from engine.core.status import Status
from engine.search.algorithms.common import STATE_BYTES, Path, Trace, stopped, unreachable
from engine.search.domain import Domain
from engine.search.record import Algorithm, register

PROGRESS_EVERY = 10
#: How often IDA* reports progress, in expansions (it reports at each bound too).


def best_first_search(problem: Domain, priority: Callable[[float, float], float], solver: str,
                      budget: Budget | None = None, trace: Trace | None = None,
                      watch: Watch | None = None, optimal: bool = True,
                      order: Callable[[float, float, int], tuple] | None = None) -> SolveResult:
    """Expand the frontier node with the least ``priority(g, h)``; the goal test is made when a node is expanded.

    A child is queued when it reaches its state with a smaller g than before (a stale queue entry is skipped when
    popped). Ties on priority prefer the larger g (deeper nodes reach the goal sooner), then insertion order.
    Uniform-cost search, greedy best-first search and A* are this with priority g, h and g + h; ``optimal`` is what
    the result claims about its path (the caller's record knows whether its priority guarantees it).

    ``order(g, h, n)``, if given, is the whole sort key of the n-th node queued instead (Rectangle-out's weighted A*:
    f, then the smaller h, then the newest). Every ``PROGRESS_EVERY`` expansions the search reports to ``watch``.
    """
    watch = watch or Watch(budget)
    order = order or (lambda g, h, n: (priority(g, h), -g, n))
    start = problem.initial
    counter = itertools.count()
    frontier: list[tuple[tuple, float, Hashable, Path]] = [(order(0, problem.h(start), next(counter)), 0, start, ())]
    best_g: dict[Hashable, float] = {start: 0}
    expanded = generated = peak = 0
    reported = -1
    while frontier:
        if expanded % PROGRESS_EVERY == 0 and expanded != reported:
            reported = expanded
            watch.report(min(1.0, expanded / watch.budget.max_nodes),  # the share of the node budget used
                         {"nodes": expanded, "text": f"{expanded:,} nodes expanded, {len(frontier):,} waiting"})
        _, g, state, path = heapq.heappop(frontier)
        if g > best_g[state]:  # a cheaper path to this state was queued after this entry: drop it
            if trace:
                trace("stale", {"state": state, "path": path, "expanded": expanded, "generated": generated,
                                "frontier": len(frontier)})
            continue
        counts = {"expanded": expanded, "generated": generated, "frontier": len(frontier)}
        if problem.is_goal(state):
            if trace:
                trace("goal", {"state": state, "path": path, **counts})
            return SolveResult(Status.SOLVED, problem.format_path(path), optimal, expanded, generated, peak,
                               watch.elapsed, solver, actions=path)
        if reason := watch.stop_reason(expanded, STATE_BYTES * (len(best_g) + len(frontier))):
            return stopped(watch, reason, expanded, generated, peak, solver)
        expanded += 1
        if trace:
            trace("expand", {"state": state, "path": path, "h": problem.h(state), **counts, "expanded": expanded})
        for action in problem.actions(state):
            child, child_path = problem.result(state, action), path + (action,)
            child_g = g + problem.cost(state, action)
            generated += 1
            event = "duplicate"
            h = problem.h(child)
            if child_g < best_g.get(child, math.inf):
                best_g[child] = child_g
                heapq.heappush(frontier, (order(child_g, h, next(counter)), child_g, child, child_path))
                event = "generate"
            if trace:
                trace(event, {"state": child, "path": child_path, "h": h, "expanded": expanded,
                              "generated": generated, "frontier": len(frontier)})
        peak = max(peak, len(frontier))
    return unreachable(expanded, generated, peak, watch, solver)


PSEUDOCODE = (
    ("frontier ← priority queue on {key}, holding start", "start"),
    ("while frontier is not empty:", None),
    ("  node ← pop the node with the least {key}", None),
    ("  if a cheaper path to node's state was pushed since: drop node", "stale"),
    ("  if node is a goal: return its path", "goal"),
    ("  expand node: for each child of node:", "expand"),
    ("    if child's state was reached with g ≤ child.g: skip it", "duplicate"),
    ("    else: push child, ordered by {formula}", "generate"),
    ("return failure", None),
)
_FORMULA = {"g": "g(child) = g(node) + cost(node, child)", "h": "h(child)", "f": "f(child) = g(child) + h(child)"}


def best_first_record(name: str, title: str, key: str, optimal: bool, search, place: int) -> Algorithm:
    """The record of a best-first search ordered by ``key`` ("g", "h" or "f"), registered."""
    return register(Algorithm(
        name, title, lambda problem, watch, trace, limit: search(problem, trace=trace, watch=watch),
        tuple((line.format(key=key, formula=_FORMULA[key]), event) for line, event in PSEUDOCODE),
        frontier="priority", optimal=optimal, priority=key, uses_h=key != "g", cheapest=optimal,
        place=place))
