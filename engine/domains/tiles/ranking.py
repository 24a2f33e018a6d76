"""Dense indices of partial permutations, for tables indexed by position, in plain Python (no numba: reading a table
needs no compiler). The numba kernels are in ``ranking_kernels``.

A sequence of m distinct numbers from 0..n-1 (the cells of m items, or the tiles of a whole board's cells, m = n)
has the digits "the number minus the earlier numbers below it", digit s in [0, n - s); its rank is the mixed-radix
number of the digits, slot 0 most significant (the place values are ``lexicographic_radix(m, n)``). That is the
lexicographic order, a bijection onto 0 .. n!/(n-m)! - 1.
"""

from __future__ import annotations

import math

import numpy as np


def lexicographic_radix(m: int, n: int) -> np.ndarray:
    """Place values of the rank of m distinct numbers out of n (slot 0 most significant)."""
    return np.array([math.perm(n - s - 1, m - s - 1) for s in range(m)], dtype=np.int64)


def partial_rank(where: list[int], n: int = 16) -> int:
    """The rank of distinct numbers ``where`` out of n: the reference of ``ranking_kernels.rank_of_positions``."""
    rank = 0
    for slot, cell in enumerate(where):
        rank = rank * (n - slot) + cell - sum(1 for other in where[:slot] if other < cell)
    return rank


def partial_unrank(rank: int, m: int, n: int = 16) -> list[int]:
    """The m distinct numbers out of n whose rank is ``rank``: the inverse of ``partial_rank``."""
    digits = []
    for slot in range(m - 1, -1, -1):
        rank, digit = divmod(rank, n - slot)
        digits.append(digit)
    unused = list(range(n))
    return [unused.pop(digit) for digit in reversed(digits)]
