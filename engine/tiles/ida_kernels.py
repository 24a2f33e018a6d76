"""numba kernels of IDA* for the sliding-tile solvers.

Each kernel is small, typed by its arrays and free of Python objects. Long searches are resumable: a kernel works
until a node quota is used up, keeps its whole state in the arrays it was given and returns, so the Python caller
(``engine/tiles/fast.py``) can report progress, honour a cancel and stop at the budget between chunks, at least once
a second.

``ida_run`` is the reference kernel: the plain search, every heuristic mode behind one switch. The kernels the
solvers run are generated from one definition, ``ida_kernel``, by a heuristic's four hooks (the child's h, and what
to undo, commit and restore as the search cuts, descends and backs up); numba compiles each variant on its own and
inlines its hooks, so the counters stay in registers and there is no mode switch (bench/engine_speed.py). The
definition keeps, per cell, the list of legal moves, prunes the parent by comparing cells, and takes a move's change
of Manhattan distance from one table. ``tests/engine/tiles/test_kernels.py`` runs the Manhattan, linear-conflict and
learned kernels against ``ida_run`` node for node, pausing and resuming included, and against the readable IDA* of
``engine/search/algorithms.py``; ``tests/engine/tiles/test_pdb.py`` holds ``ida_pdb_run`` to the readable IDA* with
``PatternDatabase.value``.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.extending import register_jitable

from engine.tiles.heuristic_kernels import (
    MODE_LEARNED,
    MODE_LINEAR_CONFLICT,
    heuristic_value,
    learned_value,
    linear_conflict_sum,
    moved_lines_conflicts,
)
from engine.tiles.ranking_kernels import group_rank, rank_of_positions
from engine.tiles.tables import INVERSE_INDEX

# Return codes of the IDA* kernels.
FOUND = 1
ITERATION_DONE = 2
PAUSED = 3


@njit(cache=True, nogil=True)
def ida_run(cells, st, path, trial, md_stack, neighbors, manhattan, rows, cols, goal_row, goal_col,
            mode, key_slot, key_radix, learned_table, bound, quota):
    """Depth-first search below ``bound`` (one IDA* iteration), resumable.

    ``st`` holds the scalars: [0] depth, [1] blank cell, [2] smallest f above the bound seen so far, [3] nodes
    expanded, [4] nodes generated. ``trial[d]`` is the next move to try at depth d, ``path[d]`` the move taken.
    Returns FOUND (the path is ``path[:st[0]]``), ITERATION_DONE, or PAUSED after ``quota`` expansions.
    """
    depth = st[0]
    blank = st[1]
    stop_at = st[3] + quota
    while True:
        if trial[depth] == 4:
            if depth == 0:
                st[0] = depth
                st[1] = blank
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
        if target < 0 or (depth > 0 and d == INVERSE_INDEX[path[depth - 1]]):
            continue
        st[4] += 1
        tile = cells[target]
        md = md_stack[depth] + manhattan[tile, blank] - manhattan[tile, target]
        cells[blank] = tile
        cells[target] = 0
        lc = 0
        learned = 0
        if mode == MODE_LINEAR_CONFLICT:
            lc = linear_conflict_sum(cells, rows, cols, goal_row, goal_col)
        elif mode == MODE_LEARNED:
            learned = learned_value(cells, key_slot, key_radix, learned_table)
        h = heuristic_value(mode, md, lc, learned)
        f = depth + 1 + h
        if f > bound:
            if f < st[2]:
                st[2] = f
            cells[target] = tile
            cells[blank] = 0
            continue
        path[depth] = d
        depth += 1
        blank = target
        md_stack[depth] = md
        if md == 0:
            st[0] = depth
            st[1] = blank
            return FOUND
        trial[depth] = 0
        st[3] += 1
        if st[3] >= stop_at:
            st[0] = depth
            st[1] = blank
            return PAUSED


def ida_kernel(child_h, on_cut, on_enter, on_leave):
    """One IDA* iteration below ``bound``, resumable, for the heuristic given by four hooks (numba inlines them):

    * ``child_h(aux, cells, depth, blank, target, tile, md, bound, least)``: h of the child reached by moving
      ``tile`` from ``target`` into the blank at ``blank`` (the board is not changed yet; ``md`` is the child's
      Manhattan distance); it may prepare ``aux`` for the child;
    * ``on_cut(aux, blank, target, tile)``: the child is above the bound: undo what ``child_h`` prepared;
    * ``on_enter(aux, depth, blank, target, tile)``: the search descends into the child (at ``depth`` + 1);
    * ``on_leave(aux, blank, parent, tile)``: the search backs up from the blank at ``blank`` to ``parent``.

    State layout: ``st`` = [depth, blank cell, least f above the bound, expanded, generated]; ``trial[d]`` is the
    index of the next move to try in the blank's move list at depth d; ``path[d]`` the move taken.
    """

    @njit(cache=True, nogil=True)
    def run(cells, st, path, trial, md_stack, neighbors, manhattan, aux, bound, quota):
        n = cells.shape[0]
        count = np.zeros(n, dtype=np.int64)
        move_to = np.zeros((n, 4), dtype=np.int64)
        move_dir = np.zeros((n, 4), dtype=np.int64)
        delta = np.zeros((n, n, 4), dtype=np.int64)  # [tile, blank cell, move] → change of the distance
        for cell in range(n):
            for d in range(4):
                target = neighbors[cell, d]
                if target >= 0:
                    i = count[cell]
                    move_to[cell, i] = target
                    move_dir[cell, i] = d
                    for tile in range(1, n):
                        delta[tile, cell, i] = manhattan[tile, cell] - manhattan[tile, target]
                    count[cell] = i + 1
        depth = st[0]
        blank = st[1]
        least = st[2]
        expanded = st[3]
        generated = st[4]
        stop_at = expanded + quota
        came_from = np.empty(path.shape[0] + 1, dtype=np.int64)  # the blank's cell one move earlier, -1 at the root
        came_from[0] = -1
        cell = blank
        for i in range(depth, 0, -1):
            cell = neighbors[cell, INVERSE_INDEX[path[i - 1]]]
            came_from[i] = cell
        while True:
            i = trial[depth]
            moves = count[blank]
            parent = came_from[depth]
            base = md_stack[depth]
            limit = bound - depth - 1  # a child is inside the bound when its h is at most this
            while i < moves:
                target = move_to[blank, i]
                i += 1
                if target == parent:
                    continue
                generated += 1
                tile = cells[target]
                md = base + delta[tile, blank, i - 1]
                h = child_h(aux, cells, depth, blank, target, tile, md, bound, least)
                if h > limit:
                    if h + depth + 1 < least:
                        least = h + depth + 1
                    on_cut(aux, blank, target, tile)
                    continue
                break
            else:
                if depth == 0:
                    trial[depth] = i
                    st[0], st[1], st[2], st[3], st[4] = depth, blank, least, expanded, generated
                    return ITERATION_DONE
                depth -= 1
                tile = cells[parent]
                cells[blank] = tile
                cells[parent] = 0
                on_leave(aux, blank, parent, tile)
                blank = parent
                continue
            trial[depth] = i
            on_enter(aux, depth, blank, target, tile)
            cells[blank] = tile
            cells[target] = 0
            path[depth] = move_dir[blank, i - 1]
            depth += 1
            came_from[depth] = blank
            blank = target
            md_stack[depth] = md
            if md == 0:
                st[0], st[1], st[2], st[3], st[4] = depth, blank, least, expanded, generated
                return FOUND
            trial[depth] = 0
            expanded += 1
            if expanded >= stop_at:
                st[0], st[1], st[2], st[3], st[4] = depth, blank, least, expanded, generated
                return PAUSED

    return run


@register_jitable
def _nothing_cut(aux, blank, target, tile):
    pass


@register_jitable
def _nothing_enter(aux, depth, blank, target, tile):
    pass


@register_jitable
def _nothing_leave(aux, blank, parent, tile):
    pass


# Manhattan distance: aux is unused (an empty array).
@register_jitable
def _manhattan_h(aux, cells, depth, blank, target, tile, md, bound, least):
    return md


ida_manhattan_run = ida_kernel(_manhattan_h, _nothing_cut, _nothing_enter, _nothing_leave)


# Linear conflict: aux = (rows, cols, goal_row, goal_col, lc_stack, places, longest). ``lc_stack[d]`` is the
# conflict count of the board at depth d: a child updates its parent's by the two lines its move changes (instead of
# scanning every row and column), and writes it at d + 1, where a cut child's value is overwritten by the next one.
@register_jitable
def _linear_conflict_h(aux, cells, depth, blank, target, tile, md, bound, least):
    rows, cols, goal_row, goal_col, lc_stack, places, longest = aux
    before = moved_lines_conflicts(cells, blank, target, rows, cols, goal_row, goal_col, places, longest)
    cells[blank] = tile
    cells[target] = 0
    after = moved_lines_conflicts(cells, blank, target, rows, cols, goal_row, goal_col, places, longest)
    cells[target] = tile
    cells[blank] = 0
    lc = lc_stack[depth] + after - before
    lc_stack[depth + 1] = lc
    return md + 2 * lc


ida_linear_conflict_run = ida_kernel(_linear_conflict_h, _nothing_cut, _nothing_enter, _nothing_leave)


# Seed 002's learned table, V = MD + DB: aux = (key_slot, key_radix, where, table); ``where`` follows the key items'
# cells (slot 0 the blank), so a child re-ranks 7 cells instead of scanning the board.
@register_jitable
def _learned_h(aux, cells, depth, blank, target, tile, md, bound, least):
    key_slot, key_radix, where, table = aux
    slot = key_slot[tile]
    if slot >= 0:
        where[slot] = blank
    where[0] = target
    return md + table[rank_of_positions(where, key_radix)]


@register_jitable
def _learned_cut(aux, blank, target, tile):
    key_slot, key_radix, where, table = aux
    slot = key_slot[tile]
    if slot >= 0:
        where[slot] = target
    where[0] = blank


@register_jitable
def _learned_leave(aux, blank, parent, tile):
    key_slot, key_radix, where, table = aux
    slot = key_slot[tile]
    if slot >= 0:
        where[slot] = blank
    where[0] = parent


ida_learned_run = ida_kernel(_learned_h, _learned_cut, _nothing_enter, _learned_leave)


# Additive pattern databases, h = max(MD, direct sum, mirrored sum): aux = (values, tables, offsets, radix, sizes,
# group_of, slot_of, where, ref_cell, ref_group, ref_slot, ref_where, mirrored, pending).
@register_jitable
def _pdb_h(aux, cells, depth, blank, target, tile, md, bound, least):
    (values, tables, offsets, radix, sizes, group_of, slot_of, where, ref_cell, ref_group, ref_slot, ref_where,
     mirrored, pending) = aux
    # A child whose f is already above the bound by Manhattan distance (or by the direct sum) and not below the
    # least f cut off so far is cut off whatever the rest of h says: its table reads (random reads in a 577 MB
    # table) are skipped. The counts, the cut and the next bound are those of the full h.
    if md + depth + 1 > bound and md + depth + 1 >= least:
        return md
    groups = sizes.shape[0]
    g = group_of[tile]
    where[g, slot_of[tile]] = blank
    value = np.int64(tables[offsets[g] + group_rank(where, g, sizes[g], radix)])
    h = value - values[depth, g]
    for j in range(groups):
        h += values[depth, j]
    if md > h:
        h = md
    pending[0] = value
    if mirrored and not (h + depth + 1 > bound and h + depth + 1 >= least):
        rg = ref_group[tile]
        ref_where[rg, ref_slot[tile]] = ref_cell[blank]
        ref_value = np.int64(tables[offsets[rg] + group_rank(ref_where, rg, sizes[rg], radix)])
        r = ref_value - values[depth, groups + rg]
        for j in range(groups):
            r += values[depth, groups + j]
        ref_where[rg, ref_slot[tile]] = ref_cell[target]
        if r > h:
            h = r
        pending[1] = ref_value
    return h


@register_jitable
def _pdb_cut(aux, blank, target, tile):
    (values, tables, offsets, radix, sizes, group_of, slot_of, where, ref_cell, ref_group, ref_slot, ref_where,
     mirrored, pending) = aux
    where[group_of[tile], slot_of[tile]] = target


@register_jitable
def _pdb_enter(aux, depth, blank, target, tile):
    (values, tables, offsets, radix, sizes, group_of, slot_of, where, ref_cell, ref_group, ref_slot, ref_where,
     mirrored, pending) = aux
    groups = sizes.shape[0]
    for j in range(2 * groups):
        values[depth + 1, j] = values[depth, j]
    values[depth + 1, group_of[tile]] = pending[0]
    if mirrored:
        rg = ref_group[tile]
        ref_where[rg, ref_slot[tile]] = ref_cell[blank]
        values[depth + 1, groups + rg] = pending[1]


@register_jitable
def _pdb_leave(aux, blank, parent, tile):
    (values, tables, offsets, radix, sizes, group_of, slot_of, where, ref_cell, ref_group, ref_slot, ref_where,
     mirrored, pending) = aux
    where[group_of[tile], slot_of[tile]] = blank
    if mirrored:
        ref_where[ref_group[tile], ref_slot[tile]] = ref_cell[blank]


ida_pdb_run = ida_kernel(_pdb_h, _pdb_cut, _pdb_enter, _pdb_leave)
