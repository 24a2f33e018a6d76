"""numba kernels of breadth-first search over whole sliding-tile state spaces (boards of up to 12 cells), by rank.

A position is numbered by ``ranking_kernels.rank_of_positions`` of its cells' tiles with ``lexicographic_radix(n, n)``.
``board_children`` is the one expansion by rank; ``bfs_expand`` (the frontier-list search of
``kernel_drivers.py``) calls it.
Seed 000's searches of a whole space, up to 14 cells, number positions by partition instead (``bounds/fullbfs.py``).
The readable breadth-first search is ``engine/search/algorithms/bfs.py``; ``tests/engine/test_solvers.py`` checks
the BFS solver against the other optimal solvers.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.domains.tiles.ranking_kernels import rank_of_positions, unrank_positions


@njit(cache=True, nogil=True)
def blank_cell(cells):
    for c in range(cells.shape[0]):
        if cells[c] == 0:
            return c
    return -1


@njit(cache=True, nogil=True)
def board_children(rank, radix, neighbors, cells, children):
    """The ranks of the positions one move away from the position ``rank``, in U D L R order, written to
    ``children``; returns how many. ``cells`` is scratch space of the board's size."""
    unrank_positions(rank, radix, cells)
    blank = blank_cell(cells)
    count = 0
    for d in range(4):
        target = neighbors[blank, d]
        if target < 0:
            continue
        cells[blank] = cells[target]
        cells[target] = 0
        children[count] = rank_of_positions(cells, radix)
        cells[target] = cells[blank]
        cells[blank] = 0
        count += 1
    return count


@njit(cache=True, nogil=True)
def bfs_expand(frontier, distance, depth, neighbors, radix, out, goal_rank):
    """Expand every rank in ``frontier`` (all at ``depth``), writing unseen neighbours to ``out`` at depth + 1.

    Returns (number written, generated count, whether the goal was reached). ``out`` must hold 4·len(frontier).
    """
    cells = np.empty(radix.shape[0], dtype=np.int64)
    children = np.empty(4, dtype=np.int64)
    written = 0
    generated = 0
    found = False
    for i in range(frontier.shape[0]):
        count = board_children(frontier[i], radix, neighbors, cells, children)
        generated += count
        for c in range(count):
            rank = children[c]
            if distance[rank] == 255:
                distance[rank] = depth + 1
                out[written] = rank
                written += 1
                if rank == goal_rank:
                    found = True
    return written, generated, found
