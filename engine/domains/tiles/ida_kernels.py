"""numba kernels of IDA* for the sliding-tile solvers, and the record that makes a heuristic one of them.

Each kernel is small, typed by its arrays and free of Python objects. Long searches are resumable: a kernel works
until a node quota is used up, keeps its whole state in the arrays it was given and returns, so the Python caller
(``engine/domains/tiles/kernel_drivers.py``) can report progress, honour a cancel and stop at the budget between chunks,
at least once a second.

The kernels the solvers run are generated from one definition, ``ida_kernel``, by a heuristic's hooks (the child's h,
and what to undo, commit and restore as the search cuts, descends and backs up); numba compiles each variant on its
own and inlines its hooks, so the counters stay in registers and there is no branch per heuristic
(bench/engine_speed.py). ``reference_kernel`` generates the plain search from a heuristic's h of a whole board
(``board_h``), the hook the compiled A* (``engine/domains/tiles/astar.py``) computes too: the reference its incremental
kernel is held to. A ``KernelHeuristic`` pairs such kernels with the function that builds their inputs; a heuristic's
registry record (``engine.domains.tiles.heuristics.Heuristic.kernel``) names where its ``KernelHeuristic`` lives, so
the driver has no branch per heuristic. Which moves a node may make is the kernel's child lists' business
(``goal_arrays.ChildLists``, keyed by the blank's cell and the state of a move automaton, ``move_automaton``: never
undo the last move, or the learned duplicate strings on 5×5 and larger), the same for every heuristic; the reference
kernel applies the same automaton. Manhattan distance and linear conflict are here; the pattern databases' in
``pdb_kernel.py``; a subject's heuristic in its own package (seed 002's learned table:
``engine/subjects/learned/ida_kernel.py``).

``tests/engine/domains/tiles/test_kernels.py`` runs the Manhattan and linear-conflict kernels against their reference
kernels node for node, pausing and resuming included, and against the readable IDA* of
``engine/search/algorithms/idastar.py`` (``tests/engine/subjects/learned/`` does the same for the learned table's);
``tests/engine/domains/tiles/test_pdb.py`` holds the pattern-database kernel to the readable IDA* with
``PatternDatabase.value``. The hooks are compiled into ``ida_kernel``'s ``run``, whose cache numba keys by this file:
after editing a hook elsewhere, touch this file.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from types import FunctionType
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
from numba import njit

from engine.domains.tiles.goal_arrays import INVERSE_INDEX, goal_tables
from engine.domains.tiles.heuristic_kernels import (
    line_conflicts_at,
    linear_conflict_lines,
    linear_conflict_sum,
    manhattan_sum,
    own_goal_line,
)

if TYPE_CHECKING:
    from engine.domains.tiles.board import Board

# Return codes of the IDA* kernels.
FOUND = 1
ITERATION_DONE = 2
PAUSED = 3

# The fields of the state array ``st`` every IDA* kernel reads on entry and writes on return.
DEPTH = 0        # the depth of the node being expanded (the path's length)
BLANK = 1        # the blank's cell there
NEXT_BOUND = 2   # the least f above the bound seen so far: the next iteration's bound
EXPANDED = 3     # nodes expanded so far
GENERATED = 4    # nodes generated so far
CAME = 5         # the move automaton's state at the root (``goal_arrays.ChildLists``; parent-only: the move that
                 # led there, 4: none), which says what the root's children leave out
STATE_FIELDS = 6
NO_BOUND = 1 << 40  # NEXT_BOUND before any node was cut: nothing lies beyond this bound
U = np.uint64  # an index known not to be negative (see ``ida_kernel``)


#: The decorator of a heuristic's hooks: numba inlines them into the kernel in its own IR, where the loads they share
#: with the loop are merged (compiled apart and called, a pattern-database node took 70 ns instead of 45 with a table
#: in the cache; ``register_jitable(inline="always")`` took 260).
hook = njit(inline="always", nogil=True)


class SearchStack(NamedTuple):
    """An IDA* kernel's arrays per depth d (kept between the calls of a paused search)."""
    path: np.ndarray  # the move taken at d
    trial: np.ndarray  # the next child to try at d
    order: np.ndarray  # (depths, 9): an ordered kernel's children at d (``ida_kernel``)
    md_stack: np.ndarray  # the Manhattan distance at d
    key_at: np.ndarray  # the child-list key of the node at d (``goal_arrays.ChildLists``)
    came_from: np.ndarray  # the blank's cell one move before d


def new_stack(depths: int, md: int) -> SearchStack:
    """The arrays of a search that may reach ``depths`` - 1 moves, from a root at Manhattan distance ``md``."""
    stack = SearchStack(*(np.zeros(depths, dtype=np.int64) for _ in range(2)), np.zeros((depths, 9), dtype=np.int64),
                        *(np.zeros(depths + 1, dtype=np.int64) for _ in range(3)))
    stack.md_stack[0] = md
    return stack


def start_state(blank: int, came: int = 4) -> np.ndarray:
    """The state array of a new iteration from the root, the blank on ``blank``; ``came``: the move automaton's
    state there (``move_automaton.MoveAutomaton``): its ``start`` for a whole search, the state a larger search
    reached the root in for a search inside it (``parallel_ida``). 4 is the parent-only automaton's start."""
    state = np.zeros(STATE_FIELDS, dtype=np.int64)
    state[BLANK] = blank
    state[NEXT_BOUND] = NO_BOUND
    state[CAME] = came
    return state


#: What ``_reference_run`` calls; every kernel ``reference_kernel`` makes binds its heuristic's in its place.
board_h = None


def _reference_run(cells, st, path, trial, md_stack, neighbors, manhattan, automaton, states, aux, bound, quota):
    """Depth-first search below ``bound`` (one IDA* iteration), resumable, the board's h computed whole at each child.

    ``st`` holds the scalars (DEPTH, BLANK, NEXT_BOUND, EXPANDED, GENERATED, CAME: the root's state in
    ``automaton``). ``trial[d]`` is the next move to try at depth d, ``path[d]`` the move taken, ``states[d]`` the
    state of the move automaton (``move_automaton.MoveAutomaton.next``) at d; a move it forbids is not made. Returns
    FOUND (the path is ``path[:st[DEPTH]]``), ITERATION_DONE, or PAUSED after ``quota`` expansions.
    """
    depth = st[DEPTH]
    blank = st[BLANK]
    if depth == 0:
        states[0] = st[CAME]
    stop_at = st[EXPANDED] + quota
    while True:
        if trial[depth] == 4:
            if depth == 0:
                st[DEPTH] = depth
                st[BLANK] = blank
                return ITERATION_DONE
            depth -= 1
            back = neighbors[blank, INVERSE_INDEX[path[depth]]]
            tile = cells[back]
            cells[blank] = tile
            cells[back] = 0
            blank = back
            continue
        d = trial[depth]
        trial[depth] += 1
        target = neighbors[blank, d]
        if target < 0 or automaton[states[depth], d] < 0:
            continue
        st[GENERATED] += 1
        tile = cells[target]
        md = md_stack[depth] + manhattan[tile, blank] - manhattan[tile, target]
        cells[blank] = tile
        cells[target] = 0
        f = depth + 1 + board_h(aux, cells, md)
        if f > bound:
            if f < st[NEXT_BOUND]:
                st[NEXT_BOUND] = f
            cells[target] = tile
            cells[blank] = 0
            continue
        path[depth] = d
        states[depth + 1] = automaton[states[depth], d]
        depth += 1
        blank = target
        md_stack[depth] = md
        if md == 0:
            st[DEPTH] = depth
            st[BLANK] = blank
            return FOUND
        trial[depth] = 0
        st[EXPANDED] += 1
        if st[EXPANDED] >= stop_at:
            st[DEPTH] = depth
            st[BLANK] = blank
            return PAUSED


def specialised(template: FunctionType, hooks: dict[str, Callable], name: str, **options) -> Callable:
    """``template`` compiled by numba with ``hooks`` in place of its module's globals of those names (numba inlines
    them), cached under ``name``.

    The hooks are the template's globals, not closure variables: numba's cache key pickles a kernel's closure, and a
    dispatcher pickles differently in every process (each would compile the kernel again); globals are constants to
    numba and outside the key. numba keeps one cache index per function name: named after its heuristic, each
    kernel has its own, so loading one never unpickles the others' signatures (which would import their modules, a
    test's too), and two processes compiling different heuristics never overwrite each other's entries."""
    run = FunctionType(template.__code__, {**template.__globals__, **hooks}, "run")
    run.__qualname__ = name
    return njit(cache=True, nogil=True, **options)(run)


def hook_name(function: Callable) -> str:
    return f"{function.__module__}.{function.__qualname__}"


@functools.cache
def reference_kernel(board_h: Callable) -> Callable:
    """The plain IDA* iteration (``_reference_run``) of the heuristic whose h of a whole board is
    ``board_h(aux, cells, md)`` (``KernelHeuristic.board_h``): ``run(cells, st, path, trial, md_stack, neighbors,
    manhattan, automaton, states, aux, bound, quota)``."""
    return specialised(_reference_run, {"board_h": board_h}, f"reference_kernel[{hook_name(board_h)}]")


#: What ``_run`` calls; every kernel ``ida_kernel`` makes binds its own heuristic's hooks in their place.
child_h = look_ahead = on_cut = on_enter = on_leave = None
ordered = False


def _run(cells, st, stack, children, aux, bound, quota):
    """The body of every kernel ``ida_kernel`` makes (its docstring says what each argument holds)."""
    n = cells.shape[0]
    path, trial, order, md_stack, key_at, came_from = stack
    child_count, child, _, _, _, delta, neighbors, blank_distance, automaton = children
    states = automaton.shape[0]
    depth = st[DEPTH]
    blank = st[BLANK]
    least = st[NEXT_BOUND]
    expanded = st[EXPANDED]
    generated = st[GENERATED]
    stop_at = expanded + quota
    cell = blank
    for i in range(depth, 0, -1):
        cell = neighbors[cell, INVERSE_INDEX[path[i - 1]]]
        came_from[i] = cell
    state = st[CAME]
    key_at[0] = cell * states + state
    for i in range(1, depth + 1):
        state = automaton[state, path[i - 1]]
        key_at[i] = (came_from[i + 1] if i < depth else blank) * states + state
    # The hot loop indexes through U (unsigned): numba then skips its negative-index wraparound, a third of the
    # time per node (bench/vs_burns.py).
    while True:
        row = key_at[U(depth)] * 4
        moves = child_count[U(row >> 2)]
        base = md_stack[U(depth)]
        limit = bound - depth - 1  # a child is inside the bound when its h is at most this
        chosen = False
        next_trial = 0
        if ordered:
            if trial[U(depth)] == 0:
                # Every child is generated once, here; those inside the bound are kept in increasing h, then
                # Manhattan distance, then the blank's distance from its goal cell, then move order:
                # order[d, :4] their indices, order[d, 4:8] their keys, order[d, 8] how many. Each child is
                # looked ahead at first, so that the heuristic can request all of their table entries at once.
                for k in range(moves):
                    target = child[U(row + k)] & 63
                    tile = cells[U(target)]
                    look_ahead(aux, cells, depth, blank, target, tile, base + delta[U((blank * n + target) * n + tile)],
                               bound, least)
                kept = 0
                for k in range(moves):
                    target = child[U(row + k)] & 63
                    tile = cells[U(target)]
                    generated += 1
                    md = base + delta[U((blank * n + target) * n + tile)]
                    h = child_h(aux, cells, depth, blank, target, tile, md, bound, least)
                    on_cut(aux, blank, target, tile)
                    if h > limit:
                        if h + depth + 1 < least:
                            least = h + depth + 1
                        continue
                    slot = kept
                    key = (h << 20) + (md << 10) + blank_distance[U(target)]  # md < 1024 up to 8×8
                    while slot > 0 and order[U(depth), U(3 + slot)] > key:
                        order[U(depth), U(slot)] = order[U(depth), U(slot - 1)]
                        order[U(depth), U(4 + slot)] = order[U(depth), U(3 + slot)]
                        slot -= 1
                    order[U(depth), U(slot)] = k
                    order[U(depth), U(4 + slot)] = key
                    kept += 1
                order[U(depth), 8] = kept
                trial[U(depth)] = 1
            position = trial[U(depth)] - 1  # trial is 1 + the position of the next kept child
            if position < order[U(depth), 8]:
                i = order[U(depth), U(position)] + 1
                target = child[U(row + i - 1)] & 63
                tile = cells[U(target)]
                md = base + delta[U((blank * n + target) * n + tile)]
                next_trial = position + 2
                chosen = True
        else:
            i = trial[U(depth)]
            while i < moves:
                target = child[U(row + i)] & 63
                tile = cells[U(target)]
                md = base + delta[U((blank * n + target) * n + tile)]
                i += 1
                generated += 1
                h = child_h(aux, cells, depth, blank, target, tile, md, bound, least)
                if h > limit:
                    if h + depth + 1 < least:
                        least = h + depth + 1
                    on_cut(aux, blank, target, tile)
                    continue
                next_trial = i
                chosen = True
                break
        if not chosen:
            if depth == 0:
                st[DEPTH], st[BLANK], st[NEXT_BOUND], st[EXPANDED], st[GENERATED] = (
                    depth, blank, least, expanded, generated)
                return ITERATION_DONE
            parent = came_from[U(depth)]
            depth -= 1
            tile = cells[U(parent)]
            cells[U(blank)] = tile
            cells[U(parent)] = 0
            on_leave(aux, blank, parent, tile)
            blank = parent
            continue
        trial[U(depth)] = next_trial
        on_enter(aux, depth, blank, target, tile)
        cells[U(blank)] = tile
        cells[U(target)] = 0
        entry = child[U(row + i - 1)]
        move = (entry >> 6) & 3
        path[U(depth)] = move
        depth += 1
        came_from[U(depth)] = blank
        key_at[U(depth)] = entry >> 8
        blank = target
        md_stack[U(depth)] = md
        if md == 0:
            st[DEPTH], st[BLANK], st[NEXT_BOUND], st[EXPANDED], st[GENERATED] = (
                depth, blank, least, expanded, generated)
            return FOUND
        trial[U(depth)] = 0
        expanded += 1
        if expanded >= stop_at:
            st[DEPTH], st[BLANK], st[NEXT_BOUND], st[EXPANDED], st[GENERATED] = (
                depth, blank, least, expanded, generated)
            return PAUSED


def ida_kernel(child_h, on_cut, on_enter, on_leave, ordered=False, look_ahead=None):
    """One IDA* iteration below ``bound``, resumable, for the heuristic given by its hooks (numba inlines them):

    * ``child_h(aux, cells, depth, blank, target, tile, md, bound, least)``: h of the child reached by moving
      ``tile`` from ``target`` into the blank at ``blank`` (the board is not changed yet; ``md`` is the child's
      Manhattan distance); it may prepare ``aux`` for the child;
    * ``on_cut(aux, blank, target, tile)``: the child is above the bound: undo what ``child_h`` prepared;
    * ``on_enter(aux, depth, blank, target, tile)``: the search descends into the child (at ``depth`` + 1), the last
      child ``child_h`` saw, or in an ordered kernel any child of the node;
    * ``on_leave(aux, blank, parent, tile)``: the search backs up from the blank at ``blank`` to ``parent``;
    * ``look_ahead`` (optional; arguments as ``child_h``'s, no result; ordered kernels only): called for each of a
      node's children before the first ``child_h``, so a heuristic can start the memory reads of all of them
      (``pdb_kernel``). The unordered kernel does not call it: even a call that does nothing, inlined, cost the
      Manhattan kernel about 5 % (bench/vs_burns.py).

    ``st`` holds the scalars (DEPTH, BLANK, NEXT_BOUND, EXPANDED, GENERATED, CAME); ``stack.trial[d]`` is the index
    of the next child to try in the node's child list at depth d; ``stack.path[d]`` the move taken. ``children``
    (``goal_arrays.ChildLists``) lists a node's moves by its blank's cell and its move automaton's state (the root's:
    ``st[CAME]``): the moves the automaton allows there (parent-only pruning: all but the one back; the learned
    machine of ``move_automaton``: also those that would complete a known duplicate string). The kernel carries the
    state along its path as part of each depth's key (``key_at``), which costs it one load per child.

    ``ordered``: a node generates all its children first and descends into those inside the bound in increasing h,
    ties by the lower Manhattan distance, then by the blank's distance from its goal cell (``order`` keeps them per
    depth), as ``idastar_search`` with ``order_by=(h, Manhattan distance, the blank's distance)``. Every iteration
    but the last expands the same nodes in any order; the last reaches the goal sooner. Over Korf's 100 with the
    7-8 database, nodes generated on average: 40,712 unordered; by h 38,411; by h, Manhattan distance 37,192; by h,
    Manhattan distance, the blank's distance 36,657 (h, then the higher Manhattan distance: 40,360; h, then the
    Manhattan distance counting the blank: 36,852). The other kernels stay unordered: the Manhattan
    one is compared bound by bound with Burns et al.'s unordered C++ (bench/vs_burns.py).

    The kernel runs without numba's reference counting (``_nrt=False``): reading an array out of ``aux`` would
    otherwise count a reference in and out at every read, most of a pattern-database node's time. So it allocates
    nothing: ``stack`` (``new_stack``) holds its arrays per depth, ``children`` (``goal_tables(goal).children``) the
    child lists of the goal's board.
    """
    if look_ahead is not None and not ordered:
        raise ValueError("look_ahead is called by ordered kernels only")
    hooks = {"child_h": child_h, "look_ahead": look_ahead or nothing_ahead, "on_cut": on_cut, "on_enter": on_enter,
             "on_leave": on_leave, "ordered": ordered}
    return specialised(_run, hooks, f"ida_kernel[{hook_name(child_h)}]", _nrt=False)


#: Builds a kernel's ``aux`` for a search from ``board`` to ``goal`` and the h of ``board``:
#: ``(board, goal, loaded, stack)``, where ``loaded`` holds what the heuristic's ``kernel_inputs`` loaded (a pattern
#: database, a trained table) and ``stack`` is the number of depths the search may reach (arrays per depth).
InputsBuilder = Callable[["Board", "Board", dict, int], tuple[object, int]]


@dataclass(frozen=True)
class KernelHeuristic:
    """A heuristic as the compiled IDA* computes it: the kernel made by ``ida_kernel`` from its hooks, and the
    function that builds the kernel's inputs, and its h of a whole board. The driver (``kernel_drivers.idastar``)
    reads nothing else."""
    run: Callable
    inputs: InputsBuilder
    #: ``board_h(aux, cells, md)``: h of the whole board ``cells`` whose Manhattan distance is ``md``, read from the
    #: same ``aux`` (a ``hook``); the compiled A* (``astar.board_astar_kernel``) and the reference IDA*
    #: (``reference_kernel``) compute it. None: the compiled A* does not take the heuristic (the readable A* does)
    board_h: Callable | None = None
    #: ``reset(aux, cells, md) -> h``: writes into ``aux`` (as ``inputs`` built it, for any board) the root's entries
    #: for the board ``cells`` (Manhattan distance ``md``) and returns its h, as ``inputs`` would for that board (a
    #: ``hook``): what lets ``whole_kernel`` search board after board with one ``aux``. None: it has no whole kernel
    reset: Callable | None = None


def is_ordered(kernel: KernelHeuristic) -> bool:
    """Whether the kernel descends into a node's children by h (``ida_kernel``'s ``ordered``), else in move order."""
    return bool(kernel.run.py_func.__globals__.get("ordered"))


# The fields of ``whole_kernel``'s array ``sv``: a whole search's, across its iterations.
W_STARTED = 0    # 1 once the root's h is computed
W_BOUND = 1      # the bound of the iteration under way, or of the next one
W_FRESH = 2      # 1: the next call starts an iteration at W_BOUND
W_EXPANDED = 3   # nodes expanded by the iterations done and the roots of every iteration begun
W_GENERATED = 4  # nodes generated by the iterations done
W_ITERATIONS = 5  # iterations done (rows of ``bounds``)
W_FIELDS = 6
# ``whole_kernel``'s return codes besides FOUND and PAUSED.
AT_GOAL = 4      # the board is the goal: nothing searched
NO_SOLUTION = 5  # no path within ``max_bound`` moves


#: What ``_whole`` calls; every kernel ``whole_kernel`` makes binds its heuristic's ``ida_kernel`` and ``reset``.
run_iteration = reset_root = None


def _whole(cells, blank, came, st, sv, stack, children, aux, manhattan, bounds, max_bound, max_nodes, quota):
    """The body of every kernel ``whole_kernel`` makes (its docstring says what each argument holds)."""
    if sv[W_STARTED] == 0:
        md = 0
        for cell in range(cells.shape[0]):
            md += manhattan[cells[cell], cell]
        sv[W_STARTED] = 1
        stack.md_stack[0] = md
        if md == 0:
            return AT_GOAL
        sv[W_BOUND] = reset_root(aux, cells, md)
        sv[W_FRESH] = 1
    left = quota
    while True:
        if sv[W_FRESH] == 1:
            if sv[W_BOUND] > max_bound:
                return NO_SOLUTION
            if left <= 0:
                return PAUSED
            st[DEPTH] = 0
            st[BLANK] = blank
            st[NEXT_BOUND] = NO_BOUND
            st[EXPANDED] = 0
            st[GENERATED] = 0
            st[CAME] = came
            stack.trial[0] = 0
            sv[W_EXPANDED] += 1  # the root, expanded once per iteration
            sv[W_FRESH] = 0
        before = st[EXPANDED]
        step = max_nodes - sv[W_EXPANDED] - before  # within the node budget, as ``kernel_drivers.idastar``
        if step < 1:
            step = 1
        if step > left:
            step = left
        code = run_iteration(cells, st, stack, children, aux, sv[W_BOUND], step)
        left -= st[EXPANDED] - before
        if code == PAUSED:
            return PAUSED
        sv[W_EXPANDED] += st[EXPANDED]
        sv[W_GENERATED] += st[GENERATED]
        done = sv[W_ITERATIONS]
        bounds[done, 0] = sv[W_BOUND]
        bounds[done, 1] = sv[W_EXPANDED]
        sv[W_ITERATIONS] = done + 1
        if code == FOUND:
            return FOUND
        if st[NEXT_BOUND] >= NO_BOUND:
            return NO_SOLUTION
        sv[W_BOUND] = st[NEXT_BOUND]
        sv[W_FRESH] = 1
        if sv[W_EXPANDED] >= max_nodes:
            return PAUSED


@functools.cache
def whole_kernel(kernel: KernelHeuristic) -> Callable:
    """A whole IDA* search of one board by ``kernel`` (a ``KernelHeuristic`` with ``reset``) in as few calls as its
    budget allows: the root's h from the board itself (``reset``), then every iteration, bound after bound, each by
    ``kernel.run``, without returning between them. ``run(cells, blank, came, st, sv, stack, children, aux,
    manhattan, bounds, max_bound, max_nodes, quota)``: the board ``cells`` with its blank on ``blank``, the move
    automaton's start ``came``; ``st`` the iteration's state (``start_state``'s fields, written here), ``sv`` the
    search's (the ``W_`` fields; zeros for a new board), ``stack`` (``new_stack``), ``children`` and ``aux`` as
    ``ida_kernel``'s (``aux`` from ``kernel.inputs`` for any board of the goal); ``manhattan`` the goal's
    (``goal_tables``); ``bounds[i]`` gets the i-th iteration's bound and the nodes expanded after it. It expands at
    most ``quota`` nodes a call and ``max_nodes`` in all; returns FOUND (the path is ``stack.path[:st[DEPTH]]``),
    AT_GOAL, NO_SOLUTION (no path within ``max_bound``; the iterations ran out or the bound passed it) or PAUSED
    (call again with the same arrays to go on; past ``max_nodes`` it stays PAUSED).

    What a batch of small searches (Korf's 100 with the 7-8 database: 3 ms each) runs: the per-bound driver
    (``kernel_drivers.idastar``) pays Python's setup, the heuristic's inputs and a call per bound under the GIL for
    each board, which two threads then take turns at. ``kernel_drivers.WholeSearch`` drives it;
    ``tests/engine/domains/tiles/test_whole_ida.py`` holds it to ``kernel_drivers.idastar`` node for node."""
    if kernel.reset is None:
        raise ValueError("a whole kernel needs the heuristic's reset hook")
    hooks = {"run_iteration": kernel.run, "reset_root": kernel.reset}
    return specialised(_whole, hooks, f"whole_kernel[{hook_name(kernel.reset)}]")


@hook
def nothing_ahead(aux, cells, depth, blank, target, tile, md, bound, least):
    pass


@hook
def nothing_cut(aux, blank, target, tile):
    pass


@hook
def nothing_enter(aux, depth, blank, target, tile):
    pass


@hook
def nothing_leave(aux, blank, parent, tile):
    pass


# Manhattan distance: aux is unused (an empty array).
@hook
def _manhattan_h(aux, cells, depth, blank, target, tile, md, bound, least):
    return md


def _manhattan_inputs(board: Board, goal: Board, loaded: dict, stack: int) -> tuple[object, int]:
    cells = np.array(board.cells, dtype=np.int64)
    return np.zeros(0, dtype=np.int64), int(manhattan_sum(cells, goal_tables(goal).manhattan))


@hook
def _manhattan_board_h(aux, cells, md):
    return md


@hook
def _manhattan_reset(aux, cells, md):
    return md


MANHATTAN = KernelHeuristic(ida_kernel(_manhattan_h, nothing_cut, nothing_enter, nothing_leave), _manhattan_inputs,
                            _manhattan_board_h, _manhattan_reset)


class ConflictArrays(NamedTuple):
    """Linear conflict's aux. ``lc_stack[d]`` is the conflict count of the board at depth d: a child updates its
    parent's by the one line its move can change (``own_goal_line``; instead of scanning every row and column), and
    writes it at d + 1,
    where a cut child's value is overwritten by the next one. ``places`` and ``longest`` are scratch lines."""
    rows: int
    cols: int
    goal_row: np.ndarray
    goal_col: np.ndarray
    lc_stack: np.ndarray
    places: np.ndarray
    longest: np.ndarray


@hook
def _linear_conflict_h(aux, cells, depth, blank, target, tile, md, bound, least):
    lc = aux.lc_stack[depth]
    line = own_goal_line(blank, target, tile, aux.rows, aux.cols, aux.goal_row, aux.goal_col)
    if line >= 0:
        lc -= line_conflicts_at(cells, line, aux.rows, aux.cols, aux.goal_row, aux.goal_col, aux.places, aux.longest)
        cells[blank] = tile
        cells[target] = 0
        lc += line_conflicts_at(cells, line, aux.rows, aux.cols, aux.goal_row, aux.goal_col, aux.places, aux.longest)
        cells[target] = tile
        cells[blank] = 0
    aux.lc_stack[depth + 1] = lc
    return md + 2 * lc


def _linear_conflict_inputs(board: Board, goal: Board, loaded: dict, stack: int) -> tuple[object, int]:
    tables = goal_tables(goal)
    cells = np.array(board.cells, dtype=np.int64)
    lc_stack = np.zeros(stack, dtype=np.int64)
    lc_stack[0] = linear_conflict_sum(cells, goal.rows, goal.cols, tables.goal_row, tables.goal_col)
    line = max(goal.rows, goal.cols)
    aux = ConflictArrays(goal.rows, goal.cols, tables.goal_row, tables.goal_col, lc_stack,
                         np.zeros(line, dtype=np.int64), np.zeros(line, dtype=np.int64))
    return aux, int(manhattan_sum(cells, tables.manhattan)) + 2 * int(lc_stack[0])


@hook
def _linear_conflict_board_h(aux, cells, md):
    return md + 2 * linear_conflict_lines(cells, aux.rows, aux.cols, aux.goal_row, aux.goal_col, aux.places,
                                          aux.longest)


@hook
def _linear_conflict_reset(aux, cells, md):
    aux.lc_stack[0] = linear_conflict_lines(cells, aux.rows, aux.cols, aux.goal_row, aux.goal_col, aux.places,
                                            aux.longest)
    return md + 2 * aux.lc_stack[0]


LINEAR_CONFLICT = KernelHeuristic(ida_kernel(_linear_conflict_h, nothing_cut, nothing_enter, nothing_leave),
                                  _linear_conflict_inputs, _linear_conflict_board_h, _linear_conflict_reset)
