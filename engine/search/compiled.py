"""A*, compiled by numba for any domain that gives its hooks (``engine.search.domain.CompiledDomain``).

``best_first_kernel(children, h)`` builds, from a domain's two hooks, a kernel that is the readable ``astar_search``
(``engine.search.algorithms.astar``) over numbered states: a binary heap ordered by f = g + h, then the larger g, then
insertion order; a child is pushed when it reaches its state with a smaller g (a dense array of g and of parents, one
entry per state); a popped entry whose g is above its state's best is stale and dropped; the goal test is made when a
node is taken from the heap. So the expanded and generated counts, the peak frontier and the path are the readable
search's, which the domains' tests check (``tests/engine/search/test_new_domain.py`` on the pancake puzzle,
``tests/engine/domains/test_grid.py`` on grids).

The kernel is resumable: its whole state lives in the arrays it is given; it returns after ``quota`` expansions
(``PAUSED``: the driver checks the budget and cancel, reports progress, and calls again) or when its heap might
overflow (``FULL``: the driver doubles the heap while the memory bound allows). ``compiled_astar`` is that driver.
At the goal, ``trace_path`` (compiled too) follows the parents back to the start, and the domain's ``decode_path``
turns the numbers into states and moves at once, so a query's path costs little beside its search (on a grid,
rebuilding it move by move in Python took ten times the search); the result's ``seconds`` include it.
"""

from __future__ import annotations

import functools
from types import FunctionType

import numpy as np
from numba import njit

from engine.core.errors import PuzzleError
from engine.core.result import Budget, SolveResult, Watch
from engine.core.status import Status
from engine.search.domain import Domain, actions_between
from engine.search.view import drawing_of

FOUND, EMPTY, PAUSED, FULL = 1, 2, 3, 4
# The fields of the scalar array ``st`` a kernel reads on entry and writes on return.
FRONTIER, COUNTER, EXPANDED, GENERATED, PEAK = range(5)
U = np.uint64  # an index known not to be negative: numba then skips its negative-index wraparound
SLICE = 200_000  # expansions between returns to Python: well under a second on any domain here
MAX_BYTES = 1 << 30  # the default memory bound: g and parent per state, the heap's entries
_STATE_BYTES, _ENTRY_BYTES = 16, 32

#: a hook's decorator: numba inlines hooks into the kernel
hook = njit(inline="always", nogil=True)

#: What ``_run`` calls; every kernel ``best_first_kernel`` makes binds its domain's hooks in their place.
children = h = None


F, G, ORDER, STATE = range(4)  # the columns of a heap entry (ORDER: when it was pushed)


@hook
def _precedes(f, g, order, other_f, other_g, other_order):
    """Whether entry (f, g, order) leaves the frontier before the other: the lesser f, then the greater g, then the
    earlier push. Bitwise, not short-circuit, so the comparison compiles without branches: a heap's comparisons are
    a coin toss for the branch predictor."""
    return (f < other_f) | ((f == other_f) & ((g > other_g) | ((g == other_g) & (order < other_order))))


@hook
def _leaves_before(heap, a, f, g, order):
    """Whether heap entry a leaves before the entry (f, g, order) held in registers."""
    return _precedes(heap[U(a), F], heap[U(a), G], heap[U(a), ORDER], f, g, order)


@hook
def before_expanding(state, goal, expanded, stop_at, full):
    """Why a kernel returns instead of expanding ``state``: FOUND at the goal, PAUSED when its slice's quota is
    spent, FULL when its arrays have no room for the children; 0 to go on."""
    if state == goal:
        return FOUND
    if expanded >= stop_at:
        return PAUSED
    if full:
        return FULL
    return 0


@hook
def _copy(heap, to, row):
    for column in range(4):
        heap[U(to), column] = heap[U(row), column]


@hook
def _place(heap, i, f, g, order, state):
    heap[U(i), F], heap[U(i), G], heap[U(i), ORDER], heap[U(i), STATE] = f, g, order, state


@hook
def _end_mark(heap, row):
    """Marks the row after a heap's last entry as leaving after every entry (even one whose f is infinite), so
    picking the lesser of two children needs no bounds check."""
    heap[U(row), F], heap[U(row), G] = np.inf, -np.inf


@hook
def _replace_root(heap, size, f, g, order, state):
    """Puts (f, g, order, state) in the root's place and sifts it down a heap of ``size`` entries, held in registers
    on the way; the row after the last entry carries the end mark."""
    i = 0
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        child += np.int64(_leaves_before(heap, child + 1, heap[U(child), F], heap[U(child), G], heap[U(child), ORDER]))
        if not _leaves_before(heap, child, f, g, order):
            break
        _copy(heap, i, child)
        i = child
    _place(heap, i, f, g, order, state)


@hook
def _pop(heap, size):
    """Removes the root; returns the new size."""
    size -= 1
    f, g, order, state = heap[U(size), F], heap[U(size), G], heap[U(size), ORDER], heap[U(size), STATE]
    _end_mark(heap, size)
    _replace_root(heap, size, f, g, order, state)
    return size


@hook
def _push(heap, size, f, g, order, state):
    """Adds an entry, sifting it up; returns the new size."""
    i = size
    while i > 0:
        up = (i - 1) >> 1
        if _leaves_before(heap, up, f, g, order):
            break
        _copy(heap, i, up)
        i = up
    _place(heap, i, f, g, order, state)
    return size + 1


def _run(aux, g, parent, heap, st, goal, child_states, child_costs, child_f, quota):
    """The body of every kernel ``best_first_kernel`` makes. ``heap`` holds one entry per row (f, g, order, state);
    its last row is scratch for the end mark. Order and state are whole numbers below 2^53, exact as floats.

    The expanded entry stays at the root while its children are made; the child that leaves first takes its place
    (on a map it is usually the next one expanded: the same f, a greater g, so it stays at the root) and the others
    are pushed: that halves the heap's work against a pop followed by pushes, and takes entries in the same order,
    as no two entries tie."""
    size = st[FRONTIER]
    counter = st[COUNTER]
    expanded = st[EXPANDED]
    generated = st[GENERATED]
    peak = st[PEAK]
    stop_at = expanded + quota
    scratch = heap.shape[0] - 1
    widest = child_states.shape[0]
    outcome = EMPTY
    while size > 0:
        state = np.int64(heap[0, STATE])
        state_g = heap[0, G]
        if state_g > g[U(state)]:  # a cheaper path to this state was pushed after this entry
            size = _pop(heap, size)
            continue
        stop = before_expanding(state, goal, expanded, stop_at, size - 1 + widest > scratch)
        if stop:
            outcome = stop
            break
        expanded += 1
        count = children(aux, state, child_states, child_costs)
        generated += count
        # the children that reach their state with a smaller g, compacted in place: state, g and f
        improved = 0
        first = -1
        for k in range(count):
            successor = child_states[k]
            successor_g = state_g + child_costs[k]
            if successor_g < g[U(successor)]:
                g[U(successor)] = successor_g
                parent[U(successor)] = state
                child_states[improved] = successor
                child_costs[improved] = successor_g
                child_f[improved] = successor_g + h(aux, successor)
                if first < 0 or _precedes(child_f[improved], successor_g, improved,
                                          child_f[first], child_costs[first], first):
                    first = improved
                improved += 1
        if improved == 0:
            size = _pop(heap, size)
        else:
            _end_mark(heap, size)
            _replace_root(heap, size, child_f[first], child_costs[first], np.float64(counter + first),
                          np.float64(child_states[first]))
            for k in range(improved):
                if k != first:
                    size = _push(heap, size, child_f[k], child_costs[k], np.float64(counter + k),
                                 np.float64(child_states[k]))
            counter += improved
        if size > peak:
            peak = size
    st[FRONTIER] = size
    st[COUNTER] = counter
    st[EXPANDED] = expanded
    st[GENERATED] = generated
    st[PEAK] = peak
    return outcome


@njit(cache=True, nogil=True)
def trace_path(parent, start, goal):
    """The numbers of the states from ``start`` to ``goal``, following ``parent`` back from the goal."""
    length = 1
    state = goal
    while state != start:
        state = parent[U(state)]
        length += 1
    path = np.empty(length, dtype=np.int64)
    state = goal
    for i in range(length - 1, -1, -1):
        path[i] = state
        state = parent[U(state)] if i else state
    return path


def specialise(template: FunctionType, name: str, children_hook, h_hook):
    """``template`` compiled with a domain's hooks in place of its globals ``children`` and ``h``."""
    # The hooks are the template's globals, not closure variables: numba's cache key pickles a kernel's closure and
    # would compile again in every process (as in ``engine.domains.tiles.specialising.specialised``).
    run = FunctionType(template.__code__, {**template.__globals__, "children": children_hook, "h": h_hook}, "run")
    # one cache index per kernel name, so loading one kernel never unpickles another's signatures
    run.__qualname__ = f"{name}[{children_hook.__module__}.{children_hook.__qualname__},{h_hook.__qualname__}]"
    # _nrt=False (no reference counting in the kernel) is numba's own option, which its type stubs leave out
    return njit(cache=True, nogil=True, _nrt=False)(run)  # type: ignore[call-overload]


def best_first_kernel(children_hook, h_hook):
    """The compiled A* of a domain's hooks (``CompiledDomain`` says what they compute)."""
    return specialise(_run, "best_first_kernel", children_hook, h_hook)


@functools.cache
def astar_kernel(children_hook, h_hook):
    """The compiled A* of a pair of hooks, built once per process (with ``trace_path``, loaded beside it so that
    ``load_compiled`` counts it in the load, not in the first answer's seconds)."""
    trace_path(np.zeros(1, dtype=np.int64), 0, 0)
    return best_first_kernel(children_hook, h_hook)


def compiled_astar(problem: Domain, budget: Budget | None = None, watch: Watch | None = None,
                   max_bytes: int = MAX_BYTES) -> SolveResult:
    """A* by the problem's compiled hooks; the result's ``extra`` holds the ``path`` (states, start to goal, as JSON)
    and its ``cost``. Stops at the budget (nodes, seconds), at cancel, and at ``max_bytes`` of memory."""
    watch = watch or Watch(budget)
    compiled = compiled_hooks(problem)
    kernel = astar_kernel(compiled.children, compiled.h)
    n = compiled.states
    if n * _STATE_BYTES > max_bytes:
        raise PuzzleError(f"this problem has {n:,} states; the compiled search keeps {_STATE_BYTES} bytes per state, "
                          f"more than its memory bound of {max_bytes:,} bytes")
    g = np.full(n, np.inf)
    parent = np.empty(n, dtype=np.int64)  # read only along the path found, where every entry was written
    capacity = max(64, 2 * compiled.max_children)
    heap = np.zeros((capacity + 1, 4))
    g[compiled.start] = 0.0
    heap[0] = (0.0 + problem.h(problem.initial), 0.0, 0, compiled.start)
    st = np.zeros(5, dtype=np.int64)
    st[FRONTIER], st[COUNTER] = 1, 1
    child_states = np.zeros(compiled.max_children, dtype=np.int64)
    child_costs = np.zeros(compiled.max_children)
    child_f = np.zeros(compiled.max_children)
    if reason := watch.stop_reason(0):  # cancelled, or out of time, before the first slice
        return _stopped(problem, reason, (0, 0, 1), watch.stop_message(reason, 0), watch)
    while True:
        quota = min(SLICE, watch.budget.max_nodes - int(st[EXPANDED]))
        outcome = kernel(compiled.aux, g, parent, heap, st, compiled.goal, child_states, child_costs, child_f,
                         max(quota, 0))
        counts = (int(st[EXPANDED]), int(st[GENERATED]), int(st[PEAK]))
        if outcome == FOUND:
            return _found(problem, compiled, parent, g, counts, watch)
        if outcome == EMPTY:
            return _stopped(problem, Status.UNSOLVABLE, counts, "the goal is not reachable", watch)
        if outcome == FULL:
            capacity *= 2
            if n * _STATE_BYTES + capacity * _ENTRY_BYTES > max_bytes:
                return _stopped(problem, Status.BUDGET_EXHAUSTED, counts, f"stopped after {counts[0]:,} nodes: "
                                f"the frontier would pass the memory bound of {max_bytes:,} bytes", watch)
            heap = np.concatenate([heap[:-1], np.zeros((capacity - heap.shape[0] + 2, 4))])
            continue
        if reason := watch.stop_reason(counts[0]):
            return _stopped(problem, reason, counts, watch.stop_message(reason, counts[0]), watch)
        watch.report(None, {"nodes": counts[0], "text": f"{counts[0]:,} nodes expanded"})


def compiled_hooks(problem: Domain):
    """The problem's ``CompiledDomain``; a clear error for a domain without one."""
    compiled = problem.compiled()
    if compiled is None:
        raise PuzzleError(f"the {problem.name} domain has no compiled search")
    return compiled


def stopped_result(problem: Domain, solver: str, status: Status, counts: tuple[int, int, int], message: str,
                   watch: Watch) -> SolveResult:
    """A compiled search's result without a path; ``counts``: expanded, generated, peak frontier."""
    return SolveResult(status, "", False, *counts, watch.elapsed, solver, problem.heuristic_name, message)


def found_result(problem: Domain, solver: str, states: list, cost: float, counts: tuple[int, int, int],
                 seconds: float) -> SolveResult:
    """A compiled search's answer: the path of ``states``, start to goal, and its ``cost`` in ``extra``; ``seconds``
    the search's own, taken before the path was decoded."""
    actions = actions_between(problem, states)
    return SolveResult(Status.SOLVED, problem.format_path(actions), True, *counts, seconds, solver,
                       problem.heuristic_name, actions=actions,
                       extra={"path": [drawing_of(problem).encode(s) for s in states], "cost": cost})


def _stopped(problem: Domain, status: Status, counts: tuple[int, int, int], message: str, watch: Watch) -> SolveResult:
    return stopped_result(problem, "astar-compiled", status, counts, message, watch)


def _found(problem: Domain, compiled, parent: np.ndarray, g: np.ndarray, counts: tuple[int, int, int],
           watch: Watch) -> SolveResult:
    """The answer; its ``seconds`` are the whole query's, the path's decoding included."""
    numbers = trace_path(parent, compiled.start, compiled.goal)
    cost = float(g[compiled.goal])
    if compiled.decode_path is None:
        result = found_result(problem, "astar-compiled", [compiled.decode(int(n)) for n in numbers], cost, counts, 0.0)
    else:
        path, actions = compiled.decode_path(numbers)
        result = SolveResult(Status.SOLVED, problem.format_path(actions), True, *counts, 0.0, "astar-compiled",
                             problem.heuristic_name, actions=actions, extra={"path": path, "cost": cost})
    result.seconds = watch.elapsed
    return result
