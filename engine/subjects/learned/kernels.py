"""Algorithm 1 of seed 002 with numba: the walks that train the learned table, and their plain-Python reference.

M walks of N random blank moves start at the goal. Along a walk the step count n is kept; at each state p with key
k(p) (the compressed pattern):

* k not yet stored: store n (line 12);
* stored count larger than n: lower it to n (line 8);
* stored count smaller than n: lower the walk's n to it (line 10), so later states count from there.

Before the first walk the goal's own pattern is stored with count 0 and value 0: the paper's DB(p0) = 0
(「p0をゴール状態としたとき…DB(p0) = 0が出力される」). Every walk that comes back to the goal pattern then counts from 0
again (line 10), and V(goal) = MD + 0 = 0, so IDA* accepts the goal at its bound.

Two tables side by side: STEPS (the stored count) and VALUE, what the heuristic reads. The paper stores |s − MD(p)|
instead of s and keeps "the smallest" when a state comes back (「そのうちの最小値で更新する」):

* ``value_rule="min-diff"`` (default): VALUE = the least |n − MD(p)| over every visit, the plain reading of that
  sentence once |s − MD| is what is stored;
* ``value_rule="at-min-steps"``: VALUE = |s − MD(p)| of the visit that set or lowered the stored count, i.e. the
  minimum is taken over s and the value comes from whichever arrangement of tiles 1–9 that visit had. Kept to show
  the difference: the Learned page and ``bench/learned.py --variants`` measure both.

Whether a walk may undo its last move is also open: ``allow_undo=False`` (default) never steps straight back, so no
step of a walk is wasted on returning to the state it just left.

One table, one thread, deterministic from the seed. Every walk reads and updates the same table, as line 10 needs.
Speed comes from memory-level parallelism instead of a second core: the table (57.7 M keys × 2 bytes) is far larger
than the caches, so a step is bound by one random memory access. ``train_walks`` therefore runs LANES walks in
lockstep: it moves every lane one step and prefetches its table line, then updates the lanes in order, by which time
the lines have arrived. Step j of walk w is applied after step j of walks w−1, w−2, … of its batch and before their
step j+1: the paper's strictly sequential order differs only inside a batch of LANES walks out of M.
The memory bound and what lanes and prefetch recover are measured by ``bench/learned.py --bound``;
``docs/research.md`` gives the figures with their machine and load.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from engine.core.fastrandom import generator, next_random
from engine.domains.tiles.board import Board
from engine.domains.tiles.goal_arrays import goal_tables
from engine.domains.tiles.ranking_kernels import rank_of_positions
from engine.subjects.learned.pattern import Pattern, rank_reference

if TYPE_CHECKING:
    from engine.subjects.learned.catalogue import TrainingParams

EMPTY = 255  # a key no walk has reached
LANES = 32


@njit(cache=True, nogil=True)
def update_entry(entries, key, n, md, min_diff):
    """Algorithm 1 at one state: update the stored count ``entries[key, 0]`` and value ``entries[key, 1]``; return
    the walk's count (lowered to the stored one when that is smaller)."""
    diff = n - md if n >= md else md - n
    if diff > 254:
        diff = 254
    stored = entries[key, 0]
    if stored == EMPTY:
        entries[key, 0] = n
        entries[key, 1] = diff
    elif n < stored:
        entries[key, 0] = n
        if not min_diff or diff < entries[key, 1]:
            entries[key, 1] = diff
    else:
        if stored < n:
            n = stored
            diff = n - md if n >= md else md - n
        if min_diff and diff < entries[key, 1]:
            entries[key, 1] = diff
    return n


@intrinsic
def _prefetch_row(typingctx, array, row):
    """Ask the CPU to start loading ``array[row, 0]``'s cache line (LLVM's prefetch: a read, kept in all levels)."""
    def codegen(context, builder, signature, args):
        array_type = signature.args[0]
        handle = context.make_array(array_type)(context, builder, args[0])
        pointer = cgutils.get_item_pointer(context, builder, array_type, handle,
                                           [args[1], context.get_constant(types.intp, 0)])
        byte_pointer = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        function = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [byte_pointer, i32, i32, i32]), "llvm.prefetch.p0i8")
        builder.call(function, [builder.bitcast(pointer, byte_pointer), ir.Constant(i32, 0), ir.Constant(i32, 3),
                                ir.Constant(i32, 1)])
        return context.get_dummy_value()
    return types.void(array, row), codegen


@njit(cache=True, nogil=True)
def pick_move(rng, neighbors, blank, came_from, allow_undo):
    """One uniformly random slide of the blank (never straight back unless ``allow_undo``): the target cell."""
    options = 0
    for d in range(4):
        t = neighbors[blank, d]
        if t >= 0 and (allow_undo or t != came_from):
            options += 1
    pick = int(next_random(rng) * options)
    for d in range(4):
        t = neighbors[blank, d]
        if t >= 0 and (allow_undo or t != came_from):
            if pick == 0:
                return t
            pick -= 1
    return -1


@njit(cache=True, nogil=True)
def train_walks(entries, walks, length, rng, goal_cells, goal_blank, neighbors, manhattan, key_slot, key_radix,
                allow_undo, min_diff, work, where, lane):
    """``walks`` random walks of ``length`` moves from the goal, each state updating ``entries`` (Algorithm 1), run
    ``work.shape[0]`` at a time in lockstep (module docstring). Per lane: ``work`` the board, ``where`` the key
    items' cells (so a step re-ranks 7 cells, not the board), ``lane`` = blank, previous blank, MD, n, key."""
    lanes = work.shape[0]
    done = 0
    while done < walks:
        active = min(lanes, walks - done)
        for w in range(active):
            for i in range(goal_cells.shape[0]):
                work[w, i] = goal_cells[i]
                if key_slot[goal_cells[i]] >= 0:
                    where[w, key_slot[goal_cells[i]]] = i
            lane[w, 0], lane[w, 1], lane[w, 2], lane[w, 3] = goal_blank, -1, 0, 0
        for _ in range(length):
            for w in range(active):
                blank = lane[w, 0]
                target = pick_move(rng, neighbors, blank, lane[w, 1], allow_undo)
                tile = work[w, target]
                lane[w, 2] += manhattan[tile, blank] - manhattan[tile, target]
                work[w, blank] = tile
                work[w, target] = 0
                if key_slot[tile] >= 0:
                    where[w, key_slot[tile]] = blank
                where[w, 0] = target
                lane[w, 1] = blank
                lane[w, 0] = target
                key = rank_of_positions(where[w], key_radix)
                lane[w, 4] = key
                _prefetch_row(entries, key)
            for w in range(active):
                lane[w, 3] = update_entry(entries, lane[w, 4], lane[w, 3] + 1, lane[w, 2], min_diff)
        done += active


def new_entries(pattern: Pattern, goal: Board) -> np.ndarray:
    """The empty table, one (count, value) byte pair per key side by side (a step costs one cache miss, not two),
    with the goal's pattern stored as count 0, value 0: DB(p0) = 0."""
    entries = np.full((pattern.size, 2), EMPTY, dtype=np.uint8)
    entries[rank_reference(goal.cells, pattern)] = 0
    return entries


def train_reference(goal: Board, params: TrainingParams, lanes: int = LANES) -> np.ndarray:
    """Algorithm 1 in plain Python, walk by walk and state by state in the kernel's order and from the same random
    stream: the (count, value) table ``train_walks`` must reproduce (tests, small M only)."""
    pattern = Pattern(16, params.tiles)
    tables = goal_tables(goal)
    entries = new_entries(pattern, goal)
    rng = generator(params.seed)
    done = 0
    while done < params.walks:
        batch = [[list(goal.cells), goal.blank, -1, 0, 0] for _ in range(min(lanes, params.walks - done))]
        for _ in range(params.length):
            keys = []
            for walk in batch:
                cells, blank, came_from = walk[0], walk[1], walk[2]
                target = int(pick_move(rng, tables.neighbors, blank, came_from, params.allow_undo))
                cells[blank], cells[target] = cells[target], 0
                walk[1], walk[2] = target, blank
                walk[3] = sum(int(tables.manhattan[tile, cell]) for cell, tile in enumerate(cells))
                keys.append(rank_reference(tuple(cells), pattern))
            for walk, key in zip(batch, keys, strict=True):
                walk[4] = record_state(entries, key, walk[4] + 1, walk[3], params.value_rule)
        done += len(batch)
    return entries


def record_state(entries: np.ndarray, key: int, n: int, md: int, value_rule: str) -> int:
    """``update_entry`` in plain Python: Algorithm 1's lines 7–12 at one state, and the value rule."""
    diff = min(abs(n - md), 254)
    stored = int(entries[key, 0])
    if stored == EMPTY:
        entries[key] = (n, diff)
    elif n < stored:
        entries[key, 0] = n
        if value_rule == "at-min-steps" or diff < entries[key, 1]:
            entries[key, 1] = diff
    else:
        n = min(n, stored)
        diff = abs(n - md)
        if value_rule == "min-diff" and diff < entries[key, 1]:
            entries[key, 1] = diff
    return n
