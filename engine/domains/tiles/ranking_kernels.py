"""numba kernels of the ranking in ``ranking`` (its module docstring defines the order): one rank, one unrank, the
rank after one item moves, and the whole-board form the learned table reads.

Users: breadth-first search over whole boards (``bfs_kernels``, ``bounds/fullbfs_kernels.py``), the 2×n sub-problem
(``bounds/subproblem.py``), the pattern databases (``pdb_build.py``, ``pdb_kernel.py``) and the learned
table (``engine/subjects/learned``). ``tests/engine/domains/tiles/test_pdb.py`` and
``tests/engine/domains/tiles/test_kernels.py`` hold the kernels to ``ranking.partial_rank``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.domains.tiles.ranking import lexicographic_radix


@njit(cache=True, nogil=True)
def rank_of_positions(where, key_radix):
    """The dense key from the items' cells (slot order): the same index as ``pattern_rank`` of the whole board."""
    rank = 0
    for slot in range(where.shape[0]):
        cell = where[slot]
        digit = cell
        for lower in range(slot):
            if where[lower] < cell:
                digit -= 1
        rank += digit * key_radix[slot]
    return rank


@njit(cache=True, nogil=True)
def unrank_positions(rank, key_radix, out):
    """Inverse of ``rank_of_positions``: the numbers for a rank, written to ``out`` (no allocation: whole-space
    searches call it for every state). Each slot first gets its digit; then, from the last slot back, every later
    number at or above an earlier one moves up by one, which turns digits into the numbers they count."""
    m = out.shape[0]
    for slot in range(m):
        digit = rank // key_radix[slot]
        rank -= digit * key_radix[slot]
        out[slot] = digit
    for slot in range(m - 2, -1, -1):
        for later in range(slot + 1, m):
            if out[later] >= out[slot]:
                out[later] += 1


@njit(cache=True, nogil=True)
def moved_rank(rank, where, slot, cell, radix):
    """``rank_of_positions`` after item ``slot`` moves to the free ``cell``, from the rank before: only the digits of
    that slot and of the items whose cells lie between the old and the new cell change."""
    old = where[slot]
    low, high, sign = (old, cell, 1) if cell > old else (cell, old, -1)
    change = (high - low) * radix[slot]
    for other in range(where.shape[0]):
        if low < where[other] < high:
            change -= radix[slot] if other < slot else -radix[other]
    return rank + sign * change


@njit(cache=True, nogil=True)
def pattern_rank(cells, key_slot, key_radix):
    """Seed 002's compressed pattern as a dense index: the cells of the key tiles (blank first), ranked as a partial
    permutation. Slot s's digit is its cell minus the key tiles of lower slots in lower cells, so it lies in
    [0, n − s); the index is the mixed-radix number of the digits, a bijection onto n·(n−1)·…·(n−k+1) keys."""
    rank = 0
    seen = 0
    for cell in range(cells.shape[0]):
        slot = key_slot[cells[cell]]
        if slot >= 0:
            before = 0
            for lower in range(slot):
                before += (seen >> lower) & 1
            rank += (cell - before) * key_radix[slot]
            seen |= 1 << slot
    return rank


def board_rank(cells) -> int:
    """The rank of a whole board (the tiles of its cells, m = n): how the breadth-first searches number positions."""
    return int(rank_of_positions(np.asarray(cells, dtype=np.int64), lexicographic_radix(len(cells), len(cells))))
