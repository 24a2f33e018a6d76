"""IDA*: depth-first search cut off where f = g + h exceeds a bound that grows to the least f cut off."""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable

from engine.core.result import Budget, SolveResult, Watch
from engine.core.status import Status
from engine.search.algorithms.common import Path, Stop, Trace, stopped, unreachable
from engine.search.domain import Domain
from engine.search.record import Algorithm, register

#: How often IDA* reports progress, in expansions (it reports at each bound too).
IDA_PROGRESS_EVERY = 10_000


def idastar_search(problem: Domain, budget: Budget | None = None, trace: Trace | None = None,
                   max_bound: float = math.inf, order_by: Callable[[Hashable, float], tuple] | None = None,
                   watch: Watch | None = None) -> SolveResult:
    """Iterative-deepening A*: depth-first search cut off where f = g + h exceeds a bound; the next bound is the
    least f that was cut off (g is the path's cost, so on a graph with decimal costs the bounds are decimals too).
    Never undoes the previous action (the only duplicate check). When an iteration cuts nothing off, no path is
    left to try: the goal is unreachable.

    ``order_by(child, h)``: a node generates all its children before it descends, into those inside the bound in
    increasing key (ties in action order), so the last iteration reaches the goal sooner; the others expand the
    same nodes in any order. Progress (its fraction unknown) is reported at each bound and every
    ``IDA_PROGRESS_EVERY`` expansions."""
    watch = watch or Watch(budget)
    counts = [0, 0]

    def note(event: str, state: Hashable, path: Path, h: float) -> None:
        if trace:
            trace(event, {"state": state, "path": path, "h": h, "expanded": counts[0], "generated": counts[1]})

    def search(state: Hashable, path: Path, g: float, h: float, bound: float, back) -> tuple[Path | None, float]:
        """(path to a goal, or None; the least f above ``bound`` seen below this node)."""
        if problem.is_goal(state):
            note("goal", state, path, h)
            return path, bound
        if reason := watch.stop_reason(counts[0]):
            raise Stop(reason)
        counts[0] += 1
        if counts[0] % IDA_PROGRESS_EVERY == 0:
            watch.report(None, {"nodes": counts[0], "bound": bound,
                                "text": f"bound {bound:g}, {counts[0]:,} nodes expanded"})
        note("expand", state, path, h)
        least = math.inf

        def inside_bound():
            nonlocal least
            for action in problem.actions(state):
                if action == back:
                    continue
                child = problem.result(state, action)
                counts[1] += 1
                child_h = problem.h(child)
                child_g = g + problem.cost(state, action)
                f = child_g + child_h
                if f > bound:
                    least = min(least, f)
                    note("prune", child, path + (action,), child_h)
                    continue
                yield action, child, child_g, child_h

        children = sorted(inside_bound(), key=lambda c: order_by(c[1], c[3])) if order_by else inside_bound()
        for action, child, child_g, child_h in children:
            found, child_least = search(child, path + (action,), child_g, child_h, bound,
                                        problem.inverse(state, action))
            if found is not None:
                return found, bound
            least = min(least, child_least)
        return None, least

    h0 = problem.h(problem.initial)
    bound, previous = h0, None
    try:
        while bound <= max_bound:
            if trace:
                trace("bound", {"bound": bound, "previous": previous, "h": h0, "expanded": counts[0],
                                "generated": counts[1]})
            watch.report(None, {"nodes": counts[0], "bound": bound,
                                "text": f"bound {bound:g}, {counts[0]:,} nodes expanded"})
            found, bound_next = search(problem.initial, (), 0, h0, bound, None)
            if found is not None:
                return SolveResult(Status.SOLVED, problem.format_path(found), True, counts[0], counts[1], len(found),
                                   watch.elapsed, "idastar", actions=found)
            if bound_next == math.inf:
                return unreachable(counts[0], counts[1], 0, watch, "idastar")
            bound, previous = bound_next, bound
    except Stop as stop:
        return stopped(watch, stop.reason, counts[0], counts[1], 0, "idastar")
    return stopped(watch, Status.BUDGET_EXHAUSTED, counts[0], counts[1], 0, "idastar")


register(Algorithm("idastar", "IDA*", lambda problem, watch, trace, limit: idastar_search(problem, trace=trace,
                                                                                             watch=watch), (
    ("bound ← h(start)", "start"),
    ("loop: t ← SEARCH(start, 0, bound)", "bound"),
    ("  if t = FOUND: return the path; else bound ← t (least f cut off)", None),
    ("function SEARCH(node, g, bound):", None),
    ("  if node is a goal: return FOUND", "goal"),
    ("  expand node: for each child (never straight back to its parent):", "expand"),
    ("    f ← g + cost + h(child); if f > bound: cut off, min ← min(min, f)", "prune"),
    ("    else: t ← SEARCH(child, g + cost, bound); if FOUND return it; min ← min(min, t)", None),
    ("  return min", None),
), frontier="stack", optimal=True, cutoff="f", uses_h=True, cheapest=True, place=70))
