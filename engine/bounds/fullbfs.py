"""Breadth-first search over a whole state space of up to 12 cells: the diameter, the number of positions at each
distance, and the hardest positions.

Memory: one byte per permutation rank (12! = 479,001,600 bytes for 2×6 or 3×4), nothing else that grows with the
space. Each level scans the ranks in chunks; a chunk is expanded in parallel on every core (threads only ever write
"level + 1" into unreached entries, so racing writes agree). Between chunks the driver reports progress and honours
cancel. The goal is the paper's: blank first, tiles in row-major order.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

from engine.errors import PuzzleError
from engine.parallel import PARALLEL_LOCK
from engine.result import Watch
from engine.status import Status
from engine.tiles.bfs_kernels import board_children
from engine.tiles.board import Board
from engine.tiles.ranking import lexicographic_radix
from engine.tiles.ranking_kernels import board_rank, unrank_positions
from engine.tiles.tables import goal_tables

UNREACHED = 255
MAX_CELLS = 12
CHUNK = 8_000_000
HARDEST_SAMPLE = 50


@njit(cache=True, nogil=True, parallel=True)
def expand_level(distance, level, lo, hi, neighbors, radix, blocks):
    """Expand every rank in [lo, hi) at ``level``; unreached neighbours get level + 1. Returns the count expanded."""
    span = hi - lo
    per_block = (span + blocks - 1) // blocks
    counts = np.zeros(blocks, dtype=np.int64)
    for b in prange(blocks):
        cells = np.empty(radix.shape[0], dtype=np.int64)
        children = np.empty(4, dtype=np.int64)
        start = lo + b * per_block
        stop = min(hi, start + per_block)
        for rank in range(start, stop):
            if distance[rank] != level:
                continue
            counts[b] += 1
            for c in range(board_children(rank, radix, neighbors, cells, children)):
                if distance[children[c]] == UNREACHED:
                    distance[children[c]] = level + 1
    return counts.sum()


@njit(cache=True, nogil=True, parallel=True)
def count_level(distance, level, blocks):
    per_block = (distance.shape[0] + blocks - 1) // blocks
    counts = np.zeros(blocks, dtype=np.int64)
    for b in prange(blocks):
        for i in range(b * per_block, min(distance.shape[0], (b + 1) * per_block)):
            if distance[i] == level:
                counts[b] += 1
    return counts.sum()


def full_bfs(rows: int, cols: int, watch: Watch | None = None, goal: Board | None = None) -> dict:
    """Diameter, distance histogram and hardest positions of the rows×cols puzzle (goal blank-first by default)."""
    if rows * cols > MAX_CELLS:
        raise PuzzleError(f"a full breadth-first search is offered for at most {MAX_CELLS} cells "
                          f"({rows}x{cols} has {rows * cols}: {math.factorial(rows * cols) // 2:,} positions)")
    if rows < 1 or cols < 1:
        raise PuzzleError("rows and columns must be at least 1")
    watch = watch or Watch()
    goal = goal or Board(rows, cols, tuple(range(rows * cols)))  # blank first, row-major (the paper's goal)
    n = rows * cols
    total = max(1, math.factorial(n) // 2)
    neighbors = goal_tables(goal).neighbors
    distance = np.full(math.factorial(n), UNREACHED, dtype=np.uint8)
    distance[board_rank(goal.cells)] = 0
    radix = lexicographic_radix(n, n)
    histogram = [1]
    reached = 1
    level = 0
    blocks = 64
    while histogram[-1] > 0:
        for lo in range(0, distance.size, CHUNK):
            with PARALLEL_LOCK:
                expand_level(distance, level, lo, min(distance.size, lo + CHUNK), neighbors, radix, blocks)
            fraction = min(1.0, (reached + (lo / distance.size) * histogram[-1]) / total)
            watch.report(fraction, {"nodes": reached, "depth": level + 1,
                                    "text": f"distance {level + 1}: {reached:,} of {total:,} positions reached"})
            if watch.cancel is not None and watch.cancel.is_set():
                return {"status": Status.CANCELLED, "rows": rows, "cols": cols}
        with PARALLEL_LOCK:
            new = int(count_level(distance, level + 1, blocks))
        histogram.append(new)
        reached += new
        level += 1
    histogram.pop()
    diameter = len(histogram) - 1
    hardest_ranks = np.flatnonzero(distance == diameter)
    cells = np.empty(n, dtype=np.int64)
    hardest = []
    for rank in hardest_ranks[:HARDEST_SAMPLE]:
        unrank_positions(int(rank), radix, cells)
        hardest.append([int(c) for c in cells])
    return {"status": Status.DONE, "rows": rows, "cols": cols, "goal": list(goal.cells), "diameter": diameter,
            "histogram": histogram, "positions": reached, "hardest_count": int(hardest_ranks.size),
            "hardest": hardest, "seconds": watch.elapsed}
