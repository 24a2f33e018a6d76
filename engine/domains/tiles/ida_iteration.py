"""One IDA* iteration of the sliding tiles, as numba templates: the arrays it keeps its state in, the template every
heuristic's kernel is compiled from (``iteration_template``), and the plain search it is held to
(``reference_template``).

A template calls its heuristic through this module's globals ``child_h``, ``look_ahead``, ``on_cut``, ``on_enter``,
``on_leave``, ``ordered`` and ``board_h``, which hold None here: ``ida_kernels.ida_kernel`` and
``ida_kernels.reference_kernel`` compile a copy of a template with one heuristic's hooks in their place
(``specialising.specialised`` says why). The named steps of ``iteration_template`` are hook-free helpers numba inlines
(``inline="always"``: the kernel runs as fast as written out, bench/engine_speed.py); a helper cannot call a hook,
since it is compiled with this module's globals, not the copy's.

A call works until a node quota is used up, keeps its whole state in the arrays it was given and returns, so the
Python caller (``kernel_drivers``) can report progress, honour a cancel and stop at the budget between calls.
``tests/engine/domains/tiles/test_kernels.py::test_the_generated_kernels_are_the_reference_kernel_node_for_node``
(through ``tests/support/ida.py``) holds every generated kernel to the reference node for node, pausing and resuming
included. numba caches the compiled copies by this file: after editing a hook kept elsewhere, touch it.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from engine.domains.tiles.goal_arrays import INVERSE_INDEX

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
U = np.uint64  # an index known not to be negative (see ``iteration_template``)


class SearchStack(NamedTuple):
    """An IDA* kernel's arrays per depth d (kept between the calls of a paused search)."""
    path: np.ndarray  # the move taken at d
    trial: np.ndarray  # the next child to try at d
    order: np.ndarray  # (depths, 9): an ordered kernel's children at d (``ida_kernels.ida_kernel``)
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


#: What the templates call; every copy ``ida_kernels`` compiles binds its heuristic's hooks in their place.
child_h = look_ahead = on_cut = on_enter = on_leave = board_h = None
ordered = False


@njit(inline="always", nogil=True)
def _rebuild_path(st, blank, path, key_at, came_from, neighbors, automaton, states):
    """``came_from`` and ``key_at`` along the path to the node at ``st[DEPTH]``, from the moves in ``path`` (a call
    that resumes a search, or starts one inside a larger search, is given the path only)."""
    depth = st[DEPTH]
    cell = blank
    for i in range(depth, 0, -1):
        cell = neighbors[cell, INVERSE_INDEX[path[i - 1]]]
        came_from[i] = cell
    state = st[CAME]
    key_at[0] = cell * states + state
    for i in range(1, depth + 1):
        state = automaton[state, path[i - 1]]
        key_at[i] = (came_from[i + 1] if i < depth else blank) * states + state


@njit(inline="always", nogil=True)
def _save(st, depth, blank, least, expanded, generated):
    """The scalars the loop keeps in registers, written back into ``st`` as the kernel returns."""
    st[DEPTH], st[BLANK], st[NEXT_BOUND], st[EXPANDED], st[GENERATED] = depth, blank, least, expanded, generated


@njit(inline="always", nogil=True)
def _child(child, cells, delta, row, k, blank, base, n):
    """The k-th child in the list at ``row``: the cell its tile comes from, the tile, its Manhattan distance."""
    target = child[U(row + k)] & 63
    tile = cells[U(target)]
    return target, tile, base + delta[U((blank * n + target) * n + tile)]


@njit(inline="always", nogil=True)
def _keep_in_order(order, depth, kept, k, key):
    """Child ``k``, with sort ``key``, inserted among the ``kept`` children of ``order[depth]`` so far: ``[:4]``
    their indices in increasing key, ``[4:8]`` their keys."""
    slot = kept
    while slot > 0 and order[U(depth), U(3 + slot)] > key:
        order[U(depth), U(slot)] = order[U(depth), U(slot - 1)]
        order[U(depth), U(4 + slot)] = order[U(depth), U(3 + slot)]
        slot -= 1
    order[U(depth), U(slot)] = k
    order[U(depth), U(4 + slot)] = key


@njit(inline="always", nogil=True)
def _descend(cells, path, key_at, came_from, md_stack, depth, blank, target, tile, entry, md):
    """Moves ``tile`` from ``target`` into the blank and records the step to depth + 1 (``entry``: the child's
    entry in its list: move in bits 6-7, the child's key from bit 8)."""
    cells[U(blank)] = tile
    cells[U(target)] = 0
    path[U(depth)] = (entry >> 6) & 3
    came_from[U(depth + 1)] = blank
    key_at[U(depth + 1)] = entry >> 8
    md_stack[U(depth + 1)] = md


@njit(inline="always", nogil=True)
def _back_up(cells, came_from, depth, blank):
    """Moves the tile back from the parent's blank cell (the cell the blank came from at ``depth``): the parent's
    blank cell and the tile."""
    parent = came_from[U(depth)]
    tile = cells[U(parent)]
    cells[U(blank)] = tile
    cells[U(parent)] = 0
    return parent, tile


def iteration_template(cells, st, stack, children, aux, bound, quota):
    """The body of every kernel ``ida_kernels.ida_kernel`` compiles (its docstring says what each argument holds):
    expand the node at ``st[DEPTH]``'s next child inside the bound, or back up when it has none, until the goal,
    the end of the iteration or the quota."""
    n = cells.shape[0]
    path, trial, order, md_stack, key_at, came_from = stack
    child_count, child, _, _, _, delta, neighbors, blank_distance, automaton = children
    depth = st[DEPTH]
    blank = st[BLANK]
    least = st[NEXT_BOUND]
    expanded = st[EXPANDED]
    generated = st[GENERATED]
    stop_at = expanded + quota
    _rebuild_path(st, blank, path, key_at, came_from, neighbors, automaton, automaton.shape[0])
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
                    target, tile, md = _child(child, cells, delta, row, k, blank, base, n)
                    look_ahead(aux, cells, depth, blank, target, tile, md, bound, least)
                kept = 0
                for k in range(moves):
                    target, tile, md = _child(child, cells, delta, row, k, blank, base, n)
                    generated += 1
                    h = child_h(aux, cells, depth, blank, target, tile, md, bound, least)
                    on_cut(aux, blank, target, tile)
                    if h > limit:
                        if h + depth + 1 < least:
                            least = h + depth + 1
                        continue
                    key = (h << 20) + (md << 10) + blank_distance[U(target)]  # md < 1024 up to 8×8
                    _keep_in_order(order, depth, kept, k, key)
                    kept += 1
                order[U(depth), 8] = kept
                trial[U(depth)] = 1
            position = trial[U(depth)] - 1  # trial is 1 + the position of the next kept child
            if position < order[U(depth), 8]:
                i = order[U(depth), U(position)] + 1
                target, tile, md = _child(child, cells, delta, row, i - 1, blank, base, n)
                next_trial = position + 2
                chosen = True
        else:
            i = trial[U(depth)]
            while i < moves:
                target, tile, md = _child(child, cells, delta, row, i, blank, base, n)
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
                _save(st, depth, blank, least, expanded, generated)
                return ITERATION_DONE
            parent, tile = _back_up(cells, came_from, depth, blank)
            depth -= 1
            on_leave(aux, blank, parent, tile)
            blank = parent
            continue
        trial[U(depth)] = next_trial
        on_enter(aux, depth, blank, target, tile)
        _descend(cells, path, key_at, came_from, md_stack, depth, blank, target, tile, child[U(row + i - 1)], md)
        depth += 1
        blank = target
        if md == 0:
            _save(st, depth, blank, least, expanded, generated)
            return FOUND
        trial[U(depth)] = 0
        expanded += 1
        if expanded >= stop_at:
            _save(st, depth, blank, least, expanded, generated)
            return PAUSED


def reference_template(cells, st, path, trial, md_stack, neighbors, manhattan, automaton, states, aux, bound, quota):
    """The body of every kernel ``ida_kernels.reference_kernel`` compiles: the plain search ``iteration_template``
    is held to. Depth-first search below ``bound`` (one IDA* iteration), resumable, the board's h computed whole at
    each child (``board_h(aux, cells, md)``).

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
