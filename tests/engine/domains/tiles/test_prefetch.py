import numpy as np
from numba import njit

from engine.domains.tiles.prefetch import prefetch


@njit(cache=True)
def _gather_sum(table, indices):
    total = 0
    for i in range(indices.shape[0]):
        prefetch(table, indices[i])
    for i in range(indices.shape[0]):
        total += table[indices[i]]
    return total


def test_a_prefetching_kernel_reads_what_numpy_reads():
    rng = np.random.default_rng(3)
    table = rng.integers(0, 200, 1 << 20, dtype=np.uint8)
    table.setflags(write=False)  # the type of a memory-mapped pattern database
    indices = rng.integers(0, table.size, 5_000)
    assert _gather_sum(table, indices) == int(table[indices].astype(np.int64).sum())


@njit(cache=True)
def _gather_two(bytes_table, words_table, indices):
    """Prefetches from arrays of two element types in one function (one LLVM declaration serves both)."""
    total = 0
    for i in range(indices.shape[0]):
        prefetch(bytes_table, indices[i])
        prefetch(words_table, indices[i])
    for i in range(indices.shape[0]):
        total += bytes_table[indices[i]] + words_table[indices[i]]
    return total


def test_one_kernel_prefetches_from_tables_of_different_types():
    rng = np.random.default_rng(4)
    small = rng.integers(0, 200, 1 << 16, dtype=np.uint8)
    wide = rng.integers(-(1 << 40), 1 << 40, 1 << 16, dtype=np.int64)
    indices = rng.integers(0, small.size, 3_000)
    assert _gather_two(small, wide, indices) == int(small[indices].astype(np.int64).sum() + wide[indices].sum())
