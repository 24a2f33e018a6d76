"""Dense indices of permutations and partial permutations, for tables indexed by position (numba kernels).

``permutation_rank`` numbers whole boards (breadth-first search over every position of up to 12 cells);
``rank_of_positions`` numbers the cells of a few items (pattern databases, the learned table), slot 0 most
significant. Both are the lexicographic rank of a sequence of distinct numbers.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def permutation_rank(cells):
    """Lexicographic rank of a permutation of 0..n-1 (its Lehmer code read as a factorial-base number)."""
    n = cells.shape[0]
    rank = 0
    for i in range(n):
        smaller = 0
        for j in range(i + 1, n):
            if cells[j] < cells[i]:
                smaller += 1
        rank = rank * (n - i) + smaller
    return rank


@njit(cache=True, nogil=True)
def permutation_unrank(rank, n, out):
    """Inverse of ``permutation_rank``: writes the permutation into ``out``."""
    digits = np.empty(n, dtype=np.int64)
    for i in range(n - 1, -1, -1):
        base = n - i
        digits[i] = rank % base
        rank //= base
    used = np.zeros(n, dtype=np.bool_)
    for i in range(n):
        k = digits[i]
        for v in range(n):
            if not used[v]:
                if k == 0:
                    out[i] = v
                    used[v] = True
                    break
                k -= 1


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
    """Inverse of ``rank_of_positions``: the items' cells for a rank (no allocation: the pattern database build calls
    it for every arrangement)."""
    used = 0
    for slot in range(out.shape[0]):
        digit = rank // key_radix[slot]
        rank -= digit * key_radix[slot]
        cell = 0
        while True:
            if not (used >> cell) & 1:
                if digit == 0:
                    break
                digit -= 1
            cell += 1
        out[slot] = cell
        used |= 1 << cell


@njit(cache=True, nogil=True)
def group_rank(where, g, size, radix):
    """``rank_of_positions`` of group g's row of ``where`` (its tiles' cells, slot order)."""
    rank = 0
    for slot in range(size):
        cell = where[g, slot]
        digit = cell
        for lower in range(slot):
            if where[g, lower] < cell:
                digit -= 1
        rank += digit * radix[g, slot]
    return rank


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
