"""A* for tile boards of at most 16 cells, compiled by numba: the ``astar`` solver.

The same search as the readable ``engine.search.astar_search`` (which stays for the step-through views): the same
frontier order (f, then larger g, then insertion order), the same stale-entry skip, goal test when a node is taken
from the frontier, children in U D L R order, so the expanded and generated counts and the path are identical; the
tests check this node for node. A position is packed into one integer, 4 bits per cell.

The kernel is resumable: it keeps every structure in arrays it is given and returns after ``quota`` expansions, or
when its arrays are full (the driver doubles them and calls again), so budgets, progress and cancel work as in IDA*.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.result import SolveResult, Watch
from engine.status import Status
from engine.tiles.bfs_kernels import blank_cell
from engine.tiles.board import MOVES, Board
from engine.tiles.goal_arrays import goal_tables
from engine.tiles.heuristic_kernels import MODE_LINEAR_CONFLICT, MODE_MANHATTAN, linear_conflict_sum, manhattan_sum

MAX_CELLS = 16
HEURISTICS = ("manhattan", "linear-conflict")
FOUND, EMPTY, PAUSED, FULL = 1, 2, 3, 4
# The fields of the state array ``st`` the kernel reads on entry and writes on return.
NODES = 0       # positions stored (node i is ``keys[i]``)
FRONTIER = 1    # entries in the heap
COUNTER = 2     # entries ever pushed: the last tie-break, so equal (f, g) leave in insertion order
EXPANDED = 3
GENERATED = 4
PEAK = 5        # the largest frontier seen
GOAL_NODE = 6   # the goal's node once found, else -1
CHUNK = 500_000
_G_BITS, _COUNTER_BITS = 12, 38  # priority = f, then (4095 - g), then the insertion counter


def supports(goal: Board, heuristic: str) -> bool:
    return goal.size <= MAX_CELLS and heuristic in HEURISTICS


@njit(cache=True, nogil=True)
def pack(cells):
    key = np.uint64(0)
    for i in range(cells.shape[0]):
        key |= np.uint64(cells[i]) << np.uint64(4 * i)
    return key


@njit(cache=True, nogil=True)
def unpack(key, out):
    for i in range(out.shape[0]):
        out[i] = np.int64((key >> np.uint64(4 * i)) & np.uint64(15))


@njit(cache=True, nogil=True)
def _slot(table, keys, key):
    """The hash slot of ``key``: where it is stored, or the empty slot where it belongs (-1 marks empty)."""
    mask = table.shape[0] - 1
    i = np.int64((key * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(40)) & mask
    while table[i] >= 0 and keys[table[i]] != key:
        i = (i + 1) & mask
    return i


@njit(cache=True, nogil=True)
def rehash(table, keys, count):
    table[:] = -1
    for node in range(count):
        table[_slot(table, keys, keys[node])] = node


@njit(cache=True, nogil=True)
def _push(heap_key, heap_node, size, priority, node):
    i = size
    while i > 0:
        parent = (i - 1) >> 1
        if heap_key[parent] <= priority:
            break
        heap_key[i] = heap_key[parent]
        heap_node[i] = heap_node[parent]
        i = parent
    heap_key[i] = priority
    heap_node[i] = node


@njit(cache=True, nogil=True)
def _pop(heap_key, heap_node, size):
    """Remove the root of a heap of ``size`` entries; the caller has read it."""
    last_key = heap_key[size - 1]
    last_node = heap_node[size - 1]
    size -= 1
    i = 0
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        if child + 1 < size and heap_key[child + 1] < heap_key[child]:
            child += 1
        if heap_key[child] >= last_key:
            break
        heap_key[i] = heap_key[child]
        heap_node[i] = heap_node[child]
        i = child
    if size > 0:
        heap_key[i] = last_key
        heap_node[i] = last_node


@njit(cache=True, nogil=True)
def heuristic(cells, mode, manhattan, rows, cols, goal_row, goal_col):
    h = manhattan_sum(cells, manhattan)
    if mode == MODE_LINEAR_CONFLICT:
        h += 2 * linear_conflict_sum(cells, rows, cols, goal_row, goal_col)
    return h


@njit(cache=True, nogil=True)
def astar_run(st, keys, best_g, parent, move, table, heap_key, heap_node, goal_key, neighbors, manhattan, rows,
              cols, goal_row, goal_col, mode, quota):
    """Resumable A*. ``st`` holds the scalars (NODES, FRONTIER, COUNTER, EXPANDED, GENERATED, PEAK, GOAL_NODE).
    Node i is the position ``keys[i]`` with its best g, parent node and the move from it. Returns FOUND, EMPTY (the
    frontier ran dry), PAUSED after ``quota`` expansions, or FULL (grow the arrays and call again)."""
    cells = np.empty(rows * cols, dtype=np.int64)
    g_mask = (1 << _G_BITS) - 1
    counter_mask = (1 << _COUNTER_BITS) - 1
    stop_at = st[EXPANDED] + quota
    while st[FRONTIER] > 0:
        nodes = st[NODES]
        if nodes + 4 > keys.shape[0] or 2 * (nodes + 4) > table.shape[0] or st[FRONTIER] + 4 > heap_key.shape[0]:
            return FULL
        priority = heap_key[0]
        node = heap_node[0]
        _pop(heap_key, heap_node, st[FRONTIER])
        st[FRONTIER] -= 1
        g = g_mask - ((priority >> _COUNTER_BITS) & g_mask)
        if g > best_g[node]:
            continue  # a cheaper path to this position was found after this entry was queued
        if keys[node] == goal_key:
            st[GOAL_NODE] = node
            return FOUND
        st[EXPANDED] += 1
        unpack(keys[node], cells)
        blank = blank_cell(cells)
        for d in range(4):
            target = neighbors[blank, d]
            if target < 0:
                continue
            st[GENERATED] += 1
            cells[blank] = cells[target]
            cells[target] = 0
            key = pack(cells)
            slot = _slot(table, keys, key)
            child = table[slot]
            if child < 0 or g + 1 < best_g[child]:
                if child < 0:
                    child = st[NODES]
                    st[NODES] += 1
                    keys[child] = key
                    table[slot] = child
                best_g[child] = g + 1
                parent[child] = node
                move[child] = d
                f = g + 1 + heuristic(cells, mode, manhattan, rows, cols, goal_row, goal_col)
                entry = ((f << (_G_BITS + _COUNTER_BITS)) | ((g_mask - g - 1) << _COUNTER_BITS)
                         | (st[COUNTER] & counter_mask))
                st[COUNTER] += 1
                _push(heap_key, heap_node, st[FRONTIER], entry, child)
                st[FRONTIER] += 1
            cells[target] = cells[blank]
            cells[blank] = 0
        if st[FRONTIER] > st[PEAK]:
            st[PEAK] = st[FRONTIER]
        if st[EXPANDED] >= stop_at:
            return PAUSED
    return EMPTY


def astar_fast(board: Board, goal: Board, heuristic_name: str, watch: Watch) -> SolveResult:
    tables = goal_tables(goal)
    mode = MODE_LINEAR_CONFLICT if heuristic_name == "linear-conflict" else MODE_MANHATTAN
    capacity = 1 << 12
    keys = np.zeros(capacity, dtype=np.uint64)
    best_g = np.zeros(capacity, dtype=np.int64)
    parent = np.zeros(capacity, dtype=np.int64)
    move = np.zeros(capacity, dtype=np.int64)
    table = np.full(4 * capacity, -1, dtype=np.int64)
    heap_key = np.zeros(capacity, dtype=np.int64)
    heap_node = np.zeros(capacity, dtype=np.int64)
    start = np.array(board.cells, dtype=np.int64)
    keys[0] = pack(start)
    table[_slot(table, keys, keys[0])] = 0
    parent[0] = -1
    h0 = int(heuristic(start, mode, tables.manhattan, goal.rows, goal.cols, tables.goal_row, tables.goal_col))
    heap_key[0] = (h0 << (_G_BITS + _COUNTER_BITS)) | (((1 << _G_BITS) - 1) << _COUNTER_BITS)
    heap_node[0] = 0
    st = np.zeros(7, dtype=np.int64)
    st[NODES] = st[FRONTIER] = st[COUNTER] = 1  # the start, stored and queued
    st[GOAL_NODE] = -1
    goal_key = np.uint64(pack(np.array(goal.cells, dtype=np.int64)))  # numba hands back a Python int

    def stats(status: str, moves: str = "", message: str = "") -> SolveResult:
        return SolveResult(status, moves, status == Status.SOLVED, int(st[EXPANDED]), int(st[GENERATED]),
                           int(st[PEAK]), watch.elapsed, "astar", heuristic_name, message)

    while True:
        code = astar_run(st, keys, best_g, parent, move, table, heap_key, heap_node, goal_key, tables.neighbors,
                         tables.manhattan, goal.rows, goal.cols, tables.goal_row, tables.goal_col, mode,
                         max(1, min(CHUNK, watch.budget.max_nodes - int(st[EXPANDED]))))
        if code == FOUND:
            path, node = [], int(st[GOAL_NODE])
            while parent[node] >= 0:
                path.append(MOVES[move[node]])
                node = int(parent[node])
            return stats(Status.SOLVED, "".join(reversed(path)))
        if code == EMPTY:
            return stats(Status.UNSOLVABLE, message="the goal is not reachable")
        if code == FULL:
            keys, best_g, parent, move = (np.concatenate([a, np.zeros_like(a)]) for a in (keys, best_g, parent, move))
            heap_key, heap_node = (np.concatenate([a, np.zeros_like(a)]) for a in (heap_key, heap_node))
            table = np.empty(2 * table.shape[0], dtype=np.int64)
            rehash(table, keys, int(st[NODES]))
            continue
        watch.report(None, {"nodes": int(st[EXPANDED]), "text": f"A*: {int(st[EXPANDED]):,} nodes expanded, "
                                                                f"{int(st[FRONTIER]):,} in the frontier"})
        if reason := watch.stop_reason(int(st[EXPANDED])):
            return stats(reason, message=watch.stop_message(reason, int(st[EXPANDED])))
