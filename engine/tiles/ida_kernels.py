"""numba kernels of IDA* for the sliding-tile solvers.

Each kernel is small, typed by its arrays and free of Python objects. Long searches are resumable: a kernel works
until a node quota is used up, keeps its whole state in the arrays it was given and returns, so the Python caller
(``engine/tiles/fast.py``) can report progress, honour a cancel and stop at the budget between chunks, at least once
a second.

``ida_run`` handles the Manhattan, linear-conflict and learned modes and is the reference; ``ida_manhattan_run`` and
``ida_learned_run`` are the same search with one mode each, written out so that numba keeps the counters in registers
and drops the mode switch (bench/engine_speed.py); the tests run each of them against ``ida_run`` node for node,
pausing and resuming included. ``ida_pdb_run`` (the pattern databases) is checked node for node against the readable
IDA* of ``engine/search`` with ``PatternDatabase.value`` (tests/engine/tiles/test_pdb.py). The readable IDA* is
``engine/search/algorithms.py``; ``tests/engine/tiles/test_kernels.py`` holds the kernels to it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.tiles.heuristic_kernels import (
    MODE_LEARNED,
    MODE_LINEAR_CONFLICT,
    heuristic_value,
    learned_value,
    linear_conflict_sum,
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


@njit(cache=True, nogil=True)
def ida_manhattan_run(cells, st, path, trial, md_stack, neighbors, manhattan, bound, quota):
    """``ida_run`` for Manhattan distance alone: the same search, state layout (``trial`` aside), node counts and
    return codes; the tests check that both agree. What makes it fast (bench/engine_speed.py): the counters live in
    locals, each cell has its list of legal moves (no off-board tests), the parent is pruned by comparing cells, and
    a move's change of Manhattan distance is one table lookup. ``trial[d]`` is an index into the blank's move list.
    """
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
        # the children of the node at ``depth``, in a tight loop until one is inside the bound
        i = trial[depth]
        moves = count[blank]
        parent = came_from[depth]
        base = md_stack[depth]
        limit = bound - depth - 1  # a child is inside the bound when its distance is at most this
        while i < moves:
            target = move_to[blank, i]
            i += 1
            if target == parent:
                continue
            generated += 1
            tile = cells[target]
            md = base + delta[tile, blank, i - 1]
            if md > limit:
                if md + depth + 1 < least:
                    least = md + depth + 1
                continue
            break
        else:
            if depth == 0:
                trial[depth] = i
                st[0], st[1], st[2], st[3], st[4] = depth, blank, least, expanded, generated
                return ITERATION_DONE
            depth -= 1
            cells[blank] = cells[parent]
            cells[parent] = 0
            blank = parent
            continue
        trial[depth] = i
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


@njit(cache=True, nogil=True)
def ida_learned_run(cells, st, path, trial, md_stack, neighbors, manhattan, key_slot, key_radix, where, table, bound,
                    quota):
    """``ida_run`` for seed 002's V = MD + DB: the key items' cells are kept in ``where`` as the blank moves, so a
    node re-ranks 7 cells instead of scanning the board. Same state layout, counts and return codes."""
    depth = st[0]
    blank = st[1]
    least = st[2]
    expanded = st[3]
    generated = st[4]
    stop_at = expanded + quota
    while True:
        d = trial[depth]
        if d == 4:
            if depth == 0:
                st[0], st[1], st[2], st[3], st[4] = depth, blank, least, expanded, generated
                return ITERATION_DONE
            depth -= 1
            back = neighbors[blank, INVERSE_INDEX[path[depth]]]
            tile = cells[back]
            cells[blank] = tile
            cells[back] = 0
            if key_slot[tile] >= 0:
                where[key_slot[tile]] = blank
            where[0] = back
            blank = back
            continue
        trial[depth] = d + 1
        target = neighbors[blank, d]
        if target < 0 or (depth > 0 and d == INVERSE_INDEX[path[depth - 1]]):
            continue
        generated += 1
        tile = cells[target]
        md = md_stack[depth] + manhattan[tile, blank] - manhattan[tile, target]
        slot = key_slot[tile]
        if slot >= 0:
            where[slot] = blank
        where[0] = target
        f = depth + 1 + md + table[rank_of_positions(where, key_radix)]
        if f > bound:
            if slot >= 0:
                where[slot] = target
            where[0] = blank
            if f < least:
                least = f
            continue
        cells[blank] = tile
        cells[target] = 0
        path[depth] = d
        depth += 1
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


@njit(cache=True, nogil=True)
def ida_pdb_run(cells, st, path, trial, md_stack, values, neighbors, manhattan, tables, offsets, radix, sizes,
                group_of, slot_of, where, ref_cell, ref_group, ref_slot, ref_where, mirrored, bound, quota):
    """One IDA* iteration with additive pattern databases: h = max(MD, direct sum, mirrored sum). Same state layout,
    counts and return codes as ``ida_run``.

    ``where[g, s]`` is the cell of group g's tile s; ``ref_where`` the same for the mirror image (transposed cells,
    tiles renamed). ``values[depth]`` holds every group's value at that depth, direct groups then mirrored ones, so
    a move re-ranks only the moved tile's group (twice with the mirror). The readable reference is
    ``PatternDatabase.value`` under ``engine.search.idastar_search``; the tests match them node for node.
    """
    groups = sizes.shape[0]
    depth = st[0]
    blank = st[1]
    least = st[2]
    expanded = st[3]
    generated = st[4]
    stop_at = expanded + quota
    while True:
        d = trial[depth]
        if d == 4:
            if depth == 0:
                st[0], st[1], st[2], st[3], st[4] = depth, blank, least, expanded, generated
                return ITERATION_DONE
            depth -= 1
            back = neighbors[blank, INVERSE_INDEX[path[depth]]]
            tile = cells[back]
            cells[blank] = tile
            cells[back] = 0
            where[group_of[tile], slot_of[tile]] = blank
            if mirrored:
                ref_where[ref_group[tile], ref_slot[tile]] = ref_cell[blank]
            blank = back
            continue
        trial[depth] = d + 1
        target = neighbors[blank, d]
        if target < 0 or (depth > 0 and d == INVERSE_INDEX[path[depth - 1]]):
            continue
        generated += 1
        tile = cells[target]
        md = md_stack[depth] + manhattan[tile, blank] - manhattan[tile, target]
        # A child whose f is already above the bound by Manhattan distance (or by the direct sum) and not below
        # the least f cut off so far is cut off whatever the rest of h says: its table reads (random reads in a
        # 577 MB table) are skipped. The counts, the cut and the next bound are those of the full h.
        if md + depth + 1 > bound and md + depth + 1 >= least:
            continue
        g = group_of[tile]
        where[g, slot_of[tile]] = blank
        value = np.int64(tables[offsets[g] + group_rank(where, g, sizes[g], radix)])
        h = value - values[depth, g]
        for j in range(groups):
            h += values[depth, j]
        if md > h:
            h = md
        rg = 0
        ref_value = np.int64(0)
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
        f = depth + 1 + h
        if f > bound:
            if f < least:
                least = f
            where[g, slot_of[tile]] = target
            continue
        if mirrored:
            ref_where[rg, ref_slot[tile]] = ref_cell[blank]
        cells[blank] = tile
        cells[target] = 0
        path[depth] = d
        for j in range(2 * groups):
            values[depth + 1, j] = values[depth, j]
        values[depth + 1, g] = value
        if mirrored:
            values[depth + 1, groups + rg] = ref_value
        depth += 1
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
