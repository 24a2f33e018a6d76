"""The IDA* kernels of the sliding-tile solvers: the family a heuristic's kernel belongs to, and the record that makes a
heuristic one of them.

A heuristic's IDA* kernel is ``ida_kernel`` of its hooks (the child's h, and what to undo, commit and restore as the
search cuts, descends and backs up): a compiled copy of one template, ``ida_iteration.iteration_template``, with those
hooks inlined (``specialising`` says how and why). ``reference_kernel`` compiles the plain search of
``ida_iteration.reference_template`` from a heuristic's h of a whole board (``board_h``), the hook the compiled A*
(``engine/domains/tiles/astar.py``) computes too: the reference its incremental kernel is held to. ``whole_kernel``
compiles ``whole_search.whole_template``: every iteration of one board in one call, for a batch. A ``KernelHeuristic``
pairs such kernels with the function that builds their inputs; a heuristic's registry record
(``engine.domains.tiles.heuristics.Heuristic.kernel``) names where its ``KernelHeuristic`` lives, so the driver
(``engine/domains/tiles/kernel_drivers.py``) has no branch per heuristic. Which moves a node may make is the kernel's
child lists' business (``goal_arrays.ChildLists``, keyed by the blank's cell and the state of a move automaton,
``move_automaton``: never undo the last move, or the learned duplicate strings on 5×5 and larger), the same for every
heuristic; the reference kernel applies the same automaton. Manhattan distance and linear conflict are here; the
pattern databases' in ``pdb_kernel.py``; a subject's heuristic in its own package (seed 002's learned table:
``engine/subjects/learned/ida_kernel.py``).

``tests/engine/domains/tiles/test_kernels.py`` runs the Manhattan and linear-conflict kernels against their reference
kernels node for node, pausing and resuming included, and against the readable IDA* of
``engine/search/algorithms/idastar.py`` (``tests/engine/subjects/learned/`` does the same for the learned table's);
``tests/engine/domains/tiles/test_pdb.py`` holds the pattern-database kernel to the readable IDA* with
``PatternDatabase.value``. numba caches the compiled copies by their template's file (``ida_iteration.py``,
``whole_search.py``): after editing a hook, touch it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from engine.domains.tiles import ida_iteration, whole_search
from engine.domains.tiles.goal_arrays import goal_tables
from engine.domains.tiles.heuristic_kernels import (
    line_conflicts_at,
    linear_conflict_lines,
    linear_conflict_sum,
    manhattan_sum,
    own_goal_line,
)
from engine.domains.tiles.specialising import hook, hook_name, specialised

if TYPE_CHECKING:
    from engine.domains.tiles.board import Board


def ida_kernel(child_h, on_cut, on_enter, on_leave, ordered=False, look_ahead=None):
    """One IDA* iteration below ``bound``, resumable, for the heuristic given by its hooks: the template
    ``ida_iteration.iteration_template`` compiled with them inlined (``specialising``), ``run(cells, st, stack,
    children, aux, bound, quota)``. The hooks:

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
    return specialised(ida_iteration.iteration_template, hooks, f"ida_kernel[{hook_name(child_h)}]", _nrt=False)


@functools.cache
def reference_kernel(board_h: Callable) -> Callable:
    """The plain IDA* iteration (``ida_iteration.reference_template``) of the heuristic whose h of a whole board is
    ``board_h(aux, cells, md)`` (``KernelHeuristic.board_h``): ``run(cells, st, path, trial, md_stack, neighbors,
    manhattan, automaton, states, aux, bound, quota)``."""
    return specialised(ida_iteration.reference_template, {"board_h": board_h},
                       f"reference_kernel[{hook_name(board_h)}]")


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
    return specialised(whole_search.whole_template, hooks, f"whole_kernel[{hook_name(kernel.reset)}]")


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
