"""A* for tile boards of at most 16 cells, compiled by numba: the tile kind's own ``astar`` solver (in place of the
readable A* the generic solvers offer; ``engine.search.compiled.astar_kernel`` is the compiled A* of a domain whose
states are numbered, which a board's 16!/2 positions are not).

One kernel per heuristic, generated (``board_astar_kernel``) from the hook its compiled record gives, its h of a whole
board (``ida_kernels.KernelHeuristic.board_h``, the reference IDA*'s too): any registered heuristic with that hook
runs here, with the inputs its record builds; one without (a pattern database, whose kernel follows its groups move
by move) runs in the readable A*.

The same search as the readable ``engine.search.astar_search`` (which stays for the step-through views): the same
frontier order (f, then larger g, then insertion order), the same stale-entry skip, goal test when a node is taken
from the frontier, children in U D L R order, so the expanded and generated counts and the path are identical; the
tests check this node for node. A position is packed into one integer, 4 bits per cell.

The kernel is resumable: it keeps every structure in arrays it is given and returns after ``quota`` expansions, or
when its arrays are full, so budgets, progress and cancel work as in IDA*. The driver sizes each call to a fraction
of a second from the rate it measures (``engine.core.result.Slices``), and grows the arrays only while they fit the
budget's bytes: what A* holds (every position reached, and the frontier) is its memory, so a search that would
outgrow its budget stops with ``budget_exhausted`` and ``extra["budget"] == "memory"`` instead of growing the process.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np
from numba import njit

from engine.core.result import Slices, SolveResult, Watch
from engine.core.status import Status
from engine.domains.tiles.bfs_kernels import blank_cell
from engine.domains.tiles.board import MOVES, Board
from engine.domains.tiles.goal_arrays import goal_tables
from engine.domains.tiles.heuristic_kernels import manhattan_sum
from engine.domains.tiles.heuristics import heuristic
from engine.domains.tiles.specialising import hook_name, specialised

MAX_CELLS = 16
FOUND, EMPTY, PAUSED, FULL = 1, 2, 3, 4
# The fields of the state array ``st`` the kernel reads on entry and writes on return.
NODES = 0       # positions stored (node i is ``keys[i]``)
FRONTIER = 1    # entries in the heap
COUNTER = 2     # entries ever pushed: the last tie-break, so equal (f, g) leave in insertion order
EXPANDED = 3
GENERATED = 4
PEAK = 5        # the largest frontier seen
GOAL_NODE = 6   # the goal's node once found, else -1
_G_BITS, _COUNTER_BITS = 12, 38  # priority = f, then (4095 - g), then the insertion counter


def supports(goal: Board, heuristic_name: str) -> bool:
    """Whether the compiled A* takes ``goal`` (a position fits one integer) and the heuristic (its compiled record
    gives its h of a whole board)."""
    if goal.size > MAX_CELLS:
        return False
    record = heuristic(heuristic_name)
    return record.kernel is not None and record.compiled().board_h is not None


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
    # mixed so the low bits depend on every cell: the table may hold far more than 2**24 slots
    h = key * np.uint64(0x9E3779B97F4A7C15)
    h ^= h >> np.uint64(29)
    h *= np.uint64(0xBF58476D1CE4E5B9)
    h ^= h >> np.uint64(32)
    i = np.int64(h & np.uint64(mask))
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


#: What ``_astar_run`` calls; every kernel ``board_astar_kernel`` makes binds its heuristic's in its place.
board_h = None


def _astar_run(st, keys, best_g, parent, move, table, heap_key, heap_node, goal_key, neighbors, manhattan, aux,
               quota):
    """Resumable A*. ``st`` holds the scalars (NODES, FRONTIER, COUNTER, EXPANDED, GENERATED, PEAK, GOAL_NODE).
    Node i is the position ``keys[i]`` with its best g, parent node and the move from it; h is the heuristic's
    ``board_h(aux, cells, md)``. Returns FOUND, EMPTY (the frontier ran dry), PAUSED after ``quota`` expansions, or
    FULL (grow the arrays and call again)."""
    cells = np.empty(neighbors.shape[0], dtype=np.int64)
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
                f = g + 1 + board_h(aux, cells, manhattan_sum(cells, manhattan))
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


@functools.cache
def board_astar_kernel(board_h: Callable) -> Callable:
    """The compiled A* (``_astar_run``) of the heuristic whose h of a whole board is ``board_h(aux, cells, md)``."""
    return specialised(_astar_run, {"board_h": board_h}, f"board_astar_kernel[{hook_name(board_h)}]")


#: The arrays of one node slot: its key, best g, parent, move, two hash slots (the table keeps at most half full), and
#: one frontier entry (priority and node).
_KEY, _G, _PARENT, _MOVE, _TABLE, _HEAP_KEY, _HEAP_NODE = (np.uint64, np.int16, np.int32, np.int8, np.int32, np.int64,
                                                          np.int32)
BYTES_PER_SLOT = sum(np.dtype(t).itemsize for t in (_KEY, _G, _PARENT, _MOVE, _HEAP_KEY, _HEAP_NODE)) + \
    4 * np.dtype(_TABLE).itemsize


class _Arrays:
    """The search's growing tables, ``capacity`` nodes and frontier entries each."""

    def __init__(self, capacity: int):
        self.keys = np.zeros(capacity, dtype=_KEY)
        self.best_g = np.zeros(capacity, dtype=_G)
        self.parent = np.zeros(capacity, dtype=_PARENT)
        self.move = np.zeros(capacity, dtype=_MOVE)
        self.table = np.full(4 * capacity, -1, dtype=_TABLE)
        self.heap_key = np.zeros(capacity, dtype=_HEAP_KEY)
        self.heap_node = np.zeros(capacity, dtype=_HEAP_NODE)

    @property
    def capacity(self) -> int:
        return self.keys.shape[0]

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for a in vars(self).values())

    def grow(self, capacity: int, nodes: int) -> None:
        """Room for ``capacity``, the first ``nodes`` nodes and the heap kept, the hash table rebuilt. One array is
        copied at a time and the old one dropped, so the peak is the new arrays and one old one (``growth_bytes``)."""
        for name in [name for name in vars(self) if name != "table"]:
            old = getattr(self, name)
            copy = np.zeros(capacity, dtype=old.dtype)
            copy[:old.shape[0]] = old
            setattr(self, name, copy)
            del old
        self.table = None
        self.table = np.empty(4 * capacity, dtype=_TABLE)
        rehash(self.table, self.keys, nodes)

    def growth_bytes(self, capacity: int) -> int:
        """The most held while growing to ``capacity``."""
        return capacity * BYTES_PER_SLOT + self.capacity * max(np.dtype(_HEAP_KEY).itemsize,
                                                               np.dtype(_KEY).itemsize)


def astar_fast(board: Board, goal: Board, heuristic_name: str, watch: Watch,
               loaded: dict | None = None) -> SolveResult:
    """A* by the compiled kernel of the heuristic ``heuristic_name`` (``supports`` says which); ``loaded`` is what
    its ``kernel_inputs`` loaded (a trained table)."""
    tables = goal_tables(goal)
    compiled = heuristic(heuristic_name).compiled()
    run = board_astar_kernel(compiled.board_h)
    aux, h0 = compiled.inputs(board, goal, loaded or {}, 1)  # A* reads no arrays per depth: one depth
    max_bytes = watch.budget.max_bytes
    arrays = _Arrays(max(16, min(1 << 12, max_bytes // BYTES_PER_SLOT)))
    start = np.array(board.cells, dtype=np.int64)
    arrays.keys[0] = pack(start)
    arrays.table[_slot(arrays.table, arrays.keys, arrays.keys[0])] = 0
    arrays.parent[0] = -1
    arrays.heap_key[0] = (h0 << (_G_BITS + _COUNTER_BITS)) | (((1 << _G_BITS) - 1) << _COUNTER_BITS)
    arrays.heap_node[0] = 0
    st = np.zeros(7, dtype=np.int64)
    st[NODES] = st[FRONTIER] = st[COUNTER] = 1  # the start, stored and queued
    st[GOAL_NODE] = -1
    goal_key = np.uint64(pack(np.array(goal.cells, dtype=np.int64)))  # numba hands back a Python int

    def stats(status: str, moves: str = "", message: str = "") -> SolveResult:
        return SolveResult(status, moves, status == Status.SOLVED, int(st[EXPANDED]), int(st[GENERATED]),
                           int(st[PEAK]), watch.elapsed, "astar", heuristic_name, message,
                           extra={"table_megabytes": round(arrays.nbytes / 2**20, 1)})

    slices = Slices()
    while True:
        began, expanded = watch.elapsed, int(st[EXPANDED])
        a = arrays
        quota = max(1, min(slices.quota, watch.budget.max_nodes - expanded))
        code = run(st, a.keys, a.best_g, a.parent, a.move, a.table, a.heap_key, a.heap_node, goal_key,
                   tables.neighbors, tables.manhattan, aux, quota)
        slices.ran(int(st[EXPANDED]) - expanded, watch.elapsed - began)
        if code == FOUND:
            path, node = [], int(st[GOAL_NODE])
            while arrays.parent[node] >= 0:
                path.append(MOVES[arrays.move[node]])
                node = int(arrays.parent[node])
            return stats(Status.SOLVED, "".join(reversed(path)))
        if code == EMPTY:
            return stats(Status.UNSOLVABLE, message="the goal is not reachable")
        watch.report(None, {"nodes": int(st[EXPANDED]), "text": f"A*: {int(st[EXPANDED]):,} nodes expanded, "
                                                                f"{int(st[FRONTIER]):,} in the frontier"})
        held = arrays.nbytes
        if code == FULL:
            capacity = 2 * arrays.capacity
            while capacity > arrays.capacity and arrays.growth_bytes(capacity) > max_bytes:
                capacity = arrays.capacity + (capacity - arrays.capacity) // 2
            if capacity - arrays.capacity < arrays.capacity // 16:
                held = max_bytes + 1  # no room left to grow: the memory budget ends the search
        if reason := watch.stop_reason(int(st[EXPANDED]), held):
            return stats(reason, message=watch.stop_message(reason, int(st[EXPANDED])))
        if code == FULL:
            arrays.grow(capacity, int(st[NODES]))
