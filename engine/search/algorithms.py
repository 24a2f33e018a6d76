"""Breadth-first, depth-first, iterative-deepening, uniform-cost, greedy best-first, A*, IDA* and bidirectional
breadth-first search, written to read like their pseudocode.

Each returns a SolveResult. A path is a tuple of actions; ``problem.format_path`` turns it into the result's move
string. ``trace``, if given, is called as ``trace(event, data)``; the step-through views replay these events:

* ``expand``: a node is taken from the frontier (state, g, h, path);
* ``generate``: a child joins the frontier (state, g, h, path);
* ``duplicate``: a child is dropped because its state was already reached by a path at least as short (the
  depth-first family: because its state is already on the path to it);
* ``stale``: a best-first search pops a frontier entry that a cheaper path to its state has replaced, and drops it;
* ``prune``: a child is cut off, by the depth limit (DFS, IDS) or because f = g + h exceeds the bound (IDA*);
* ``bound``: IDS or IDA* starts an iteration (bound, previous bound, and for IDA* the least f cut off, which is why
  the new bound is what it is);
* ``goal``: the search ends with a path.

Every event also carries the search's own counters at that moment (``expanded``, ``generated`` and, where there is
one, ``frontier``), so a view shows the engine's numbers rather than recounting them.

g is the cost of the path (``problem.cost`` per action: 1 for a tile move, an edge's cost on a graph) for the
searches that order by it (uniform-cost, greedy, A*, IDA*); the breadth-first and depth-first families count
actions, which is why on a graph with costs they find the fewest edges rather than the cheapest path. Move order and
pruning match the numba kernels (children in the problem's action order; the depth-first family never undoes the
action that led to a node, using ``problem.inverse``), so IDA*'s node counts agree exactly with its kernel, which
the tests check. Depth-first and iterative-deepening search also skip a child whose state is already on the path to
it, so the path they return never visits a state twice (on a graph a cycle longer than one edge would otherwise be
walked round and round).

Each search registers its ``Algorithm`` record (``engine.search.record``) beside it: title, pseudocode, frontier and
whether it is optimal. The step-through reads nothing else.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections import deque
from collections.abc import Callable, Hashable

from engine.core.errors import PuzzleError
from engine.core.result import Budget, SolveResult, Watch
from engine.core.status import Status
from engine.search.domain import Domain
from engine.search.record import Algorithm, register

Trace = Callable[[str, dict], None]
Path = tuple


#: Bytes a readable search holds per state it keeps (its reached set or best-g entry, and its frontier entry with the
#: path): measured with tracemalloc on 4×4 boards (about 300 per node generated). An estimate, so the memory budget
#: is honoured without measuring the heap at every step.
STATE_BYTES = 250


def _stopped(watch: Watch, reason: str, expanded: int, generated: int, peak: int, solver: str) -> SolveResult:
    return SolveResult(reason, nodes_expanded=expanded, nodes_generated=generated, peak_frontier=peak,
                       seconds=watch.elapsed, solver=solver, message=watch.stop_message(reason, expanded))


def _unreachable(expanded: int, generated: int, peak: int, watch: Watch, solver: str) -> SolveResult:
    return SolveResult(Status.UNSOLVABLE, nodes_expanded=expanded, nodes_generated=generated, peak_frontier=peak,
                       seconds=watch.elapsed, solver=solver, message="the goal is not reachable")


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
            return _stopped(watch, reason, expanded, generated, peak, "bfs")
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
    return _unreachable(expanded, generated, peak, watch, "bfs")


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
), frontier="queue", optimal=True))


class _Stop(Exception):
    def __init__(self, reason: str):
        self.reason = reason


def depth_limited_search(problem: Domain, limit: int, watch: Watch, trace: Trace | None = None,
                         counts: list[int] | None = None) -> Path | None:
    """Depth-first search to ``limit`` actions, never undoing the previous action nor entering a state already on
    the path to it. Returns a path, or None.

    ``counts`` accumulates [expanded, generated] over calls (IDS calls this once per limit); raises _Stop when the
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
            raise _Stop(reason)
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


_DLS = (
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
    except _Stop as stop:
        return _stopped(watch, stop.reason, counts[0], counts[1], 0, "dfs")
    if path is None:
        return SolveResult(Status.NOT_SOLVED, nodes_expanded=counts[0], nodes_generated=counts[1],
                           seconds=watch.elapsed, solver="dfs", message=f"no solution within {limit} moves")
    return SolveResult(Status.SOLVED, problem.format_path(path), False, counts[0], counts[1], limit, watch.elapsed,
                       "dfs", actions=path)


register(Algorithm("dfs", "Depth-first search (depth-limited)", lambda problem, watch, trace, limit:
                   depth_first_search(problem, limit, trace=trace, watch=watch),
                   (("return DLS(start, limit)", "start"),) + _DLS, frontier="stack", optimal=False, cutoff="depth"))


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
    except _Stop as stop:
        return _stopped(watch, stop.reason, counts[0], counts[1], 0, "ids")
    return _stopped(watch, Status.BUDGET_EXHAUSTED, counts[0], counts[1], 0, "ids")


register(Algorithm("ids", "Iterative deepening", lambda problem, watch, trace, limit: iterative_deepening_search(
    problem, trace=trace, watch=watch), (
    ("for limit ← 0, 1, 2, …:", "bound"),
    ("  result ← DLS(start, limit)", "start"),
    ("  if result is a path: return it", None),
) + _DLS, frontier="stack", optimal=True, cutoff="depth"))


#: How often a best-first search reports progress (``watch.report``), in expansions.
PROGRESS_EVERY = 10
#: How often IDA* reports progress, in expansions (it reports at each bound too).
IDA_PROGRESS_EVERY = 10_000


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
    frontier = [(order(0, problem.h(start), next(counter)), 0, start, ())]
    best_g = {start: 0}
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
            return _stopped(watch, reason, expanded, generated, peak, solver)
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
    return _unreachable(expanded, generated, peak, watch, solver)


_BEST_FIRST = (
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


def _best_first(name: str, title: str, key: str, optimal: bool, search) -> Algorithm:
    return register(Algorithm(
        name, title, lambda problem, watch, trace, limit: search(problem, trace=trace, watch=watch),
        tuple((line.format(key=key, formula=_FORMULA[key]), event) for line, event in _BEST_FIRST),
        frontier="priority", optimal=optimal, priority=key, uses_h=key != "g", cheapest=optimal))


def astar_search(problem: Domain, budget: Budget | None = None, trace: Trace | None = None,
                 watch: Watch | None = None) -> SolveResult:
    """Best-first search on f = g + h; with an admissible, consistent h the first goal expanded is optimal."""
    return best_first_search(problem, lambda g, h: g + h, "astar", budget, trace, watch, ASTAR.optimal)


def uniform_cost_search(problem: Domain, budget: Budget | None = None, trace: Trace | None = None,
                        watch: Watch | None = None) -> SolveResult:
    """Best-first search on g alone (Dijkstra's order): optimal for any non-negative costs; with every action
    costing 1 it finds BFS's lengths, but tests the goal only when a node is expanded."""
    return best_first_search(problem, lambda g, h: g, "ucs", budget, trace, watch, UNIFORM_COST.optimal)


def greedy_best_first_search(problem: Domain, budget: Budget | None = None, trace: Trace | None = None,
                             watch: Watch | None = None) -> SolveResult:
    """Best-first search on h alone: heads straight for what looks closest, so it is fast but not optimal."""
    return best_first_search(problem, lambda g, h: h, "greedy", budget, trace, watch, GREEDY.optimal)


UNIFORM_COST = _best_first("ucs", "Uniform-cost search", "g", True, uniform_cost_search)
GREEDY = _best_first("greedy", "Greedy best-first search", "h", False, greedy_best_first_search)
ASTAR = _best_first("astar", "A*", "f", True, astar_search)


def idastar_search(problem: Domain, budget: Budget | None = None, trace: Trace | None = None,
                   max_bound: float = math.inf, order_by: Callable[[Hashable, int], object] | None = None,
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

    def note(event: str, state: Hashable, path: Path, h: int) -> None:
        if trace:
            trace(event, {"state": state, "path": path, "h": h, "expanded": counts[0], "generated": counts[1]})

    def search(state: Hashable, path: Path, g: float, h: float, bound: float, back) -> tuple[Path | None, float]:
        """(path to a goal, or None; the least f above ``bound`` seen below this node)."""
        if problem.is_goal(state):
            note("goal", state, path, h)
            return path, bound
        if reason := watch.stop_reason(counts[0]):
            raise _Stop(reason)
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
                return _unreachable(counts[0], counts[1], 0, watch, "idastar")
            bound, previous = bound_next, bound
    except _Stop as stop:
        return _stopped(watch, stop.reason, counts[0], counts[1], 0, "idastar")
    return _stopped(watch, Status.BUDGET_EXHAUSTED, counts[0], counts[1], 0, "idastar")


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
), frontier="stack", optimal=True, cutoff="f", uses_h=True, cheapest=True))


def bidirectional_search(problem: Domain, budget: Budget | None = None, trace: Trace | None = None,
                         watch: Watch | None = None) -> SolveResult:
    """Breadth-first from the start and from the goal at once, a whole layer of the smaller side at a time, until
    the two meet. Needs a single goal state (``problem.goal``) and reversible actions: the backward search walks
    from a state to its neighbours and ``problem.inverse`` turns each backward step into the forward action.

    The meeting found first is not always on a shortest path, so the layer in which the sides first meet is finished
    and the shortest joined path among its meetings is returned; that one is a shortest path.
    Trace events carry ``side`` ("forward" or "backward"); a backward path is written from the goal.
    """
    if not problem.reversible or problem.goal is None:
        raise PuzzleError("bidirectional search needs one goal state and moves that can be undone at the same cost "
                          "(this problem has one-way moves)")
    watch = watch or Watch(budget)
    start, goal = problem.initial, problem.goal
    if problem.is_goal(start):
        if trace:
            trace("goal", {"state": start, "path": (), "side": "forward", "other": (), "expanded": 0,
                           "generated": 0, "frontier": 0})
        return SolveResult(Status.SOLVED, "", True, seconds=watch.elapsed, solver="bidirectional")
    # paths[side][state]: the actions from that side's root to the state (backward: the actions walked from the goal)
    paths = {"forward": {start: ()}, "backward": {goal: ()}}
    frontiers = {"forward": deque([start]), "backward": deque([goal])}
    expanded = generated = peak = 0

    def forward_path(meet: Hashable) -> Path:
        """Start → meet, then meet → goal by undoing the backward walk in reverse."""
        walk, state, back = paths["backward"][meet], goal, []
        for action in walk:  # replay the backward walk to learn each step's inverse
            back.append(problem.inverse(state, action))
            state = problem.result(state, action)
        return paths["forward"][meet] + tuple(reversed(back))

    while frontiers["forward"] and frontiers["backward"]:
        side = "forward" if len(frontiers["forward"]) <= len(frontiers["backward"]) else "backward"
        other = "backward" if side == "forward" else "forward"
        mine, theirs, queue = paths[side], paths[other], frontiers[side]
        best: Path | None = None
        meeting = None
        for _ in range(len(queue)):  # one whole layer
            if reason := watch.stop_reason(expanded, STATE_BYTES * (len(mine) + len(theirs))):
                return _stopped(watch, reason, expanded, generated, peak, "bidirectional")
            state = queue.popleft()
            expanded += 1
            if trace:
                trace("expand", {"state": state, "path": mine[state], "side": side, "expanded": expanded,
                                 "generated": generated, "frontier": len(frontiers["forward"]) +
                                 len(frontiers["backward"])})
            for action in problem.actions(state):
                child = problem.result(state, action)
                generated += 1
                data = {"state": child, "path": mine[state] + (action,), "side": side, "expanded": expanded,
                        "generated": generated}
                if child in mine:
                    if trace:
                        trace("duplicate", {**data, "frontier": len(frontiers["forward"]) +
                                            len(frontiers["backward"])})
                    continue
                mine[child] = mine[state] + (action,)
                queue.append(child)
                if trace:
                    trace("generate", {**data, "frontier": len(frontiers["forward"]) + len(frontiers["backward"])})
                if child in theirs:
                    joined = forward_path(child)
                    if best is None or len(joined) < len(best):
                        best, meeting = joined, child
            peak = max(peak, len(frontiers["forward"]) + len(frontiers["backward"]))
        if best is not None:
            if trace:
                trace("goal", {"state": meeting, "path": paths[side][meeting], "side": side,
                               "other": paths[other][meeting], "expanded": expanded, "generated": generated,
                               "frontier": len(frontiers["forward"]) + len(frontiers["backward"])})
            return SolveResult(Status.SOLVED, problem.format_path(best), True, expanded, generated, peak, watch.elapsed,
                               "bidirectional", actions=best)
    return _unreachable(expanded, generated, peak, watch, "bidirectional")


register(Algorithm("bidirectional", "Bidirectional breadth-first search", lambda problem, watch, trace, limit:
                   bidirectional_search(problem, trace=trace, watch=watch), (
    ("forward frontier ← [start]; backward frontier ← [goal]", "start"),
    ("while both frontiers are non-empty:", None),
    ("  take the smaller frontier; for each node of its whole layer:", None),
    ("    pop node; expand it:", "expand"),
    ("    for each neighbour: if this side reached it already: skip", "duplicate"),
    ("      else add it to this side's frontier", "generate"),
    ("  if the sides met in this layer: return the shortest joined path", "goal"),
    ("return failure", None),
), frontier="two-queues", optimal=True))


__all__ = ["astar_search", "best_first_search", "bidirectional_search", "breadth_first_search",
           "depth_first_search", "depth_limited_search", "greedy_best_first_search", "idastar_search",
           "iterative_deepening_search", "uniform_cost_search"]
