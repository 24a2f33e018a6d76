"""numba kernels of breadth-first search over whole sliding-tile state spaces (boards of up to 12 cells), by
permutation rank. The driver is ``engine/tiles/fast.py``; the readable search is ``engine/search/algorithms.py``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.tiles.ranking import permutation_rank, permutation_unrank


@njit(cache=True, nogil=True)
def blank_cell(cells):
    for c in range(cells.shape[0]):
        if cells[c] == 0:
            return c
    return -1


@njit(cache=True, nogil=True)
def bfs_expand(frontier, distance, depth, neighbors, n, out, goal_rank):
    """Expand every rank in ``frontier`` (all at ``depth``), writing unseen neighbours to ``out`` at depth + 1.

    Returns (number written, generated count, whether the goal was reached). ``out`` must hold 4·len(frontier).
    """
    cells = np.empty(n, dtype=np.int64)
    written = 0
    generated = 0
    found = False
    for i in range(frontier.shape[0]):
        permutation_unrank(frontier[i], n, cells)
        blank = blank_cell(cells)
        for d in range(4):
            target = neighbors[blank, d]
            if target < 0:
                continue
            cells[blank] = cells[target]
            cells[target] = 0
            rank = permutation_rank(cells)
            cells[target] = cells[blank]
            cells[blank] = 0
            generated += 1
            if distance[rank] == 255:
                distance[rank] = depth + 1
                out[written] = rank
                written += 1
                if rank == goal_rank:
                    found = True
    return written, generated, found
