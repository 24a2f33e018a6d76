"""IDA*, compiled by numba for any domain that gives its hooks (``engine.search.domain.CompiledDomain``).

``depth_first_kernel(children, h)`` builds, from the same two hooks as the compiled A* (``engine.search.compiled``),
a kernel that is the readable ``idastar_search`` (``engine.search.algorithms.idastar``) over numbered states, with its
recursion kept in arrays: per depth the node's state, its g, its children (written by the ``children`` hook when the
node is expanded), the next child to look at and the least f cut off below it. As in the readable search the goal
test is made when a node is entered; a child that is the node's parent is skipped (the one move that undoes the last
one: the contract lists no child twice); a child is generated, its h computed and cut off or entered one at a time,
so a search that finds the goal generates what the readable one does, no more. An iteration that cuts nothing off
means the goal is unreachable; the next bound is the least f cut off.

The kernel is resumable: it returns after ``quota`` expansions (``PAUSED``), when the stack is full (``FULL``: the
driver doubles it while the memory bound allows), at the end of an iteration (``DONE``: the driver starts the next
bound) or at the goal (``FOUND``); ``compiled_idastar`` is that driver.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from engine.core.errors import PuzzleError
from engine.core.result import Budget, SolveResult, Watch
from engine.core.status import Status
from engine.search.compiled import (
    FOUND,
    FULL,
    MAX_BYTES,
    SLICE,
    U,
    before_expanding,
    compiled_hooks,
    found_result,
    specialise,
    stopped_result,
)
from engine.search.domain import Domain

DONE = 2  # the iteration is over (FOUND, PAUSED and FULL as the compiled A*'s)
# The fields of the integer array ``st``: the top of the stack, whether its node is still to be entered, the counts.
DEPTH, PENDING, EXPANDED, GENERATED = range(4)
_DEPTH_BYTES = 32  # state, g, next child, least: one entry per depth, besides the children's rows

#: What ``_run`` calls; every kernel ``depth_first_kernel`` makes binds its domain's hooks in their place.
children = h = None


def _run(aux, states, g, next_child, count, least, child_states, child_costs, st, bound, goal, quota):
    """The body of every kernel ``depth_first_kernel`` makes: one iteration of IDA* under ``bound``, resumed from
    the stack in the arrays. ``least[0]`` ends as the least f cut off in the iteration (inf: nothing was)."""
    depth = st[DEPTH]
    expanded = st[EXPANDED]
    generated = st[GENERATED]
    stop_at = expanded + quota
    deepest = states.shape[0] - 1
    outcome = DONE
    while True:
        if st[PENDING] == 1:  # enter the node on top of the stack
            state = states[U(depth)]
            stop = before_expanding(state, goal, expanded, stop_at, depth == deepest)
            if stop:
                outcome = stop
                break
            st[PENDING] = 0
            expanded += 1
            count[U(depth)] = children(aux, state, child_states[U(depth)], child_costs[U(depth)])
            next_child[U(depth)] = 0
            least[U(depth)] = np.inf
        k = next_child[U(depth)]
        if k < count[U(depth)]:
            next_child[U(depth)] = k + 1
            child = child_states[U(depth), U(k)]
            if depth > 0 and child == states[U(depth - 1)]:  # undoing the last move
                continue
            generated += 1
            child_g = g[U(depth)] + child_costs[U(depth), U(k)]
            f = child_g + h(aux, child)
            if f > bound:
                if f < least[U(depth)]:
                    least[U(depth)] = f
                continue
            depth += 1
            states[U(depth)] = child
            g[U(depth)] = child_g
            st[PENDING] = 1
            continue
        if depth == 0:  # the iteration is over
            break
        depth -= 1
        if least[U(depth + 1)] < least[U(depth)]:
            least[U(depth)] = least[U(depth + 1)]
    st[DEPTH] = depth
    st[EXPANDED] = expanded
    st[GENERATED] = generated
    return outcome


def depth_first_kernel(children_hook, h_hook):
    """The compiled IDA* iteration of a domain's hooks (``CompiledDomain`` says what they compute)."""
    return specialise(_run, "depth_first_kernel", children_hook, h_hook)


@functools.cache
def idastar_kernel(children_hook, h_hook):
    """The compiled IDA* of a pair of hooks, built once per process."""
    return depth_first_kernel(children_hook, h_hook)


class _Stack:
    """The kernel's stack: ``depth`` entries, each with room for a node's children."""

    def __init__(self, depth: int, widest: int):
        self.states = np.zeros(depth, dtype=np.int64)
        self.g = np.zeros(depth)
        self.next_child = np.zeros(depth, dtype=np.int64)
        self.count = np.zeros(depth, dtype=np.int64)
        self.least = np.zeros(depth)
        self.child_states = np.zeros((depth, widest), dtype=np.int64)
        self.child_costs = np.zeros((depth, widest))

    @staticmethod
    def bytes_for(depth: int, widest: int) -> int:
        return depth * (_DEPTH_BYTES + 16 * widest)

    def grown(self) -> _Stack:
        bigger = _Stack(2 * self.states.shape[0], self.child_states.shape[1])
        for name in ("states", "g", "next_child", "count", "least", "child_states", "child_costs"):
            getattr(bigger, name)[:self.states.shape[0]] = getattr(self, name)
        return bigger

    def arrays(self) -> tuple:
        return self.states, self.g, self.next_child, self.count, self.least, self.child_states, self.child_costs


def compiled_idastar(problem: Domain, budget: Budget | None = None, watch: Watch | None = None,
                     max_bytes: int = MAX_BYTES) -> SolveResult:
    """IDA* by the problem's compiled hooks: the readable ``idastar_search``'s counts and path (``extra``: the
    ``path`` of states as JSON and its ``cost``). Stops at the budget (nodes, seconds), at cancel, and where its stack
    would pass ``max_bytes``. Progress is reported at each bound and after each slice (its fraction unknown, as
    for any IDA*)."""
    watch = watch or Watch(budget)
    compiled = compiled_hooks(problem)
    kernel = idastar_kernel(compiled.children, compiled.h)
    widest = max(1, compiled.max_children)
    if _Stack.bytes_for(64, widest) > max_bytes:
        raise PuzzleError(f"a state has {widest:,} children: the compiled IDA*'s stack passes its memory bound")
    stack = _Stack(64, widest)
    st = np.zeros(4, dtype=np.int64)
    h0 = float(problem.h(problem.initial))
    bound = h0
    while True:  # one iteration per bound
        st[DEPTH], st[PENDING] = 0, 1
        stack.states[0], stack.g[0] = compiled.start, 0.0
        _report(watch, bound, int(st[EXPANDED]))
        while True:  # its slices
            counts = (int(st[EXPANDED]), int(st[GENERATED]))
            if reason := watch.stop_reason(counts[0], _Stack.bytes_for(stack.states.shape[0], widest)):
                return _result(problem, reason, counts, watch, watch.stop_message(reason, counts[0]))
            quota = max(0, min(SLICE, watch.budget.max_nodes - counts[0]))
            outcome = kernel(compiled.aux, *stack.arrays(), st, bound, compiled.goal, quota)
            if outcome == FOUND:
                depth = int(st[DEPTH])
                states = [compiled.decode(int(n)) for n in stack.states[:depth + 1]]
                return _result(problem, Status.SOLVED, (int(st[EXPANDED]), int(st[GENERATED])), watch,
                               states=states, cost=float(stack.g[depth]))
            if outcome == FULL:
                if _Stack.bytes_for(2 * stack.states.shape[0], widest) > max_bytes:
                    return _result(problem, Status.BUDGET_EXHAUSTED, (int(st[EXPANDED]), int(st[GENERATED])), watch,
                                   f"stopped after {int(st[EXPANDED]):,} nodes: the path would pass the memory bound "
                                   f"of {max_bytes:,} bytes")
                stack = stack.grown()
                continue
            if outcome == DONE:
                break
            _report(watch, bound, int(st[EXPANDED]))
        if stack.least[0] == math.inf:
            return _result(problem, Status.UNSOLVABLE, (int(st[EXPANDED]), int(st[GENERATED])), watch,
                           "the goal is not reachable")
        bound = float(stack.least[0])


def _report(watch: Watch, bound: float, expanded: int) -> None:
    watch.report(None, {"nodes": expanded, "bound": bound, "text": f"bound {bound:g}, {expanded:,} nodes expanded"})


def _result(problem: Domain, status: Status, counts: tuple[int, int], watch: Watch, message: str = "",
            states: list | None = None, cost: float = 0.0) -> SolveResult:
    """``counts``: expanded and generated; the peak frontier of an IDA* is its path's length."""
    if states is None:
        return stopped_result(problem, "idastar-compiled", status, (*counts, 0), message, watch)
    return found_result(problem, "idastar-compiled", states, cost, (*counts, len(states) - 1), watch.elapsed)
