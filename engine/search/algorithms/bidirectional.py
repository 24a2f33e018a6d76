"""Bidirectional breadth-first search."""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable

from engine.core.errors import PuzzleError
from engine.core.result import Budget, SolveResult, Watch
from engine.core.status import Status
from engine.search.algorithms.common import STATE_BYTES, Path, Trace, stopped, unreachable
from engine.search.domain import Domain
from engine.search.record import Algorithm, register


def refusal(problem: Domain) -> str | None:
    """Why bidirectional search cannot run on ``problem`` (a sentence for the person who asked), or None when it can.

    The backward half needs a state to start from and a way to step back: one goal state (``goal``, not only a goal
    test) and moves that can all be undone at the same cost (``reversible``, with ``inverse``). Walking back over
    one-way moves would need each state's predecessors, which the domain contract does not ask a domain for."""
    if problem.goal is None:
        return ("bidirectional search needs one goal state to search back from, and this problem's goal is a test "
                "that several states may pass")
    if not problem.reversible:
        return ("bidirectional search needs moves that can be undone at the same cost to search back from the goal, "
                "and this problem has one-way moves")
    return None


def bidirectional_search(problem: Domain, budget: Budget | None = None, trace: Trace | None = None,
                         watch: Watch | None = None) -> SolveResult:
    """Breadth-first from the start and from the goal at once, a whole layer of the smaller side at a time, until
    the two meet. Needs a single goal state (``problem.goal``) and reversible actions: the backward search walks
    from a state to its neighbours and ``problem.inverse`` turns each backward step into the forward action.

    The meeting found first is not always on a shortest path, so the layer in which the sides first meet is finished
    and the shortest joined path among its meetings is returned; that one is a shortest path.
    Trace events carry ``side`` ("forward" or "backward"); a backward path is written from the goal.
    """
    if reason := refusal(problem):
        raise PuzzleError(reason)
    watch = watch or Watch(budget)
    start, goal = problem.initial, problem.goal
    if problem.is_goal(start):
        if trace:
            trace("goal", {"state": start, "path": (), "side": "forward", "other": (), "expanded": 0,
                           "generated": 0, "frontier": 0})
        return SolveResult(Status.SOLVED, "", True, seconds=watch.elapsed, solver="bidirectional")
    # paths[side][state]: the actions from that side's root to the state (backward: the actions walked from the goal)
    paths: dict[str, dict[Hashable, Path]] = {"forward": {start: ()}, "backward": {goal: ()}}
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
                return stopped(watch, reason, expanded, generated, peak, "bidirectional")
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
    return unreachable(expanded, generated, peak, watch, "bidirectional")


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
), frontier="two-queues", optimal=True, place=80))
