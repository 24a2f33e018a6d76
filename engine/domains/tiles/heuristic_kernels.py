"""numba kernels of the sliding-tile heuristics: Manhattan distance and linear conflict.

The readable versions are in ``engine/domains/tiles/heuristics.py``; ``tests/engine/domains/tiles/test_kernels.py``
checks that both agree. A heuristic that a subject brings computes its own in its package (seed 002's learned table:
``engine/subjects/learned/ida_kernel.py``).
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def manhattan_sum(cells, manhattan):
    total = 0
    for cell in range(cells.shape[0]):
        total += manhattan[cells[cell], cell]
    return total


@njit(cache=True, nogil=True, inline="always")  # no call (and no array reference counting) per node
def line_conflicts_in(cells, first, stride, length, line, goal_line, goal_place, places, longest):
    """Tiles to remove from one row (or column) so the rest of its goal-line tiles are in goal order.

    That is the line's length in goal-line tiles minus the longest increasing run of their goal places; linear
    conflict adds two moves for each such tile on top of Manhattan distance. ``places`` and ``longest`` are scratch
    arrays of at least ``length`` entries, so a search can reuse them instead of allocating at every node.
    """
    k = 0
    for i in range(length):
        tile = cells[first + i * stride]
        if tile != 0 and goal_line[tile] == line:
            places[k] = goal_place[tile]
            k += 1
    best = 0
    for i in range(k):
        longest[i] = 1
        for j in range(i):
            if places[j] < places[i] and longest[j] + 1 > longest[i]:
                longest[i] = longest[j] + 1
        if longest[i] > best:
            best = longest[i]
    return k - best


@njit(cache=True, nogil=True, inline="always")  # no call (and no array reference counting) per node
def own_goal_line(a, b, tile, rows, cols, goal_row, goal_col):
    """The one line (rows 0…rows-1, then the columns) whose conflicts can change when ``tile`` slides between the
    neighbouring cells ``a`` and ``b``, or -1 for none.

    A line's conflicts are among the tiles whose goal line it is. Along a row the tile keeps its place among that
    row's tiles and changes column: only its goal column's count can change, and only if the move leaves or enters
    it; along a column, likewise its goal row. A search keeps the sum of all lines and recounts this one line."""
    if a // cols == b // cols:
        own = goal_col[tile]
        return rows + own if own == a % cols or own == b % cols else -1
    own = goal_row[tile]
    return own if own == a // cols or own == b // cols else -1


@njit(cache=True, nogil=True, inline="always")
def line_conflicts_at(cells, line, rows, cols, goal_row, goal_col, places, longest):
    """Linear conflict's count in one line, numbered as in ``own_goal_line``."""
    if line < rows:
        return line_conflicts_in(cells, line * cols, 1, cols, line, goal_row, goal_col, places, longest)
    col = line - rows
    return line_conflicts_in(cells, col, cols, rows, col, goal_col, goal_row, places, longest)


@njit(cache=True, nogil=True, inline="always")
def linear_conflict_lines(cells, rows, cols, goal_row, goal_col, places, longest):
    """Linear conflict's count over every row and column, with the scratch lines ``places`` and ``longest`` (at
    least ``max(rows, cols)`` entries) given, so a search allocates nothing per node."""
    total = 0
    for line in range(rows + cols):
        total += line_conflicts_at(cells, line, rows, cols, goal_row, goal_col, places, longest)
    return total


@njit(cache=True, nogil=True)
def linear_conflict_sum(cells, rows, cols, goal_row, goal_col):
    """Linear conflict's count over every row and column."""
    places = np.empty(max(rows, cols), dtype=np.int64)
    longest = np.empty(max(rows, cols), dtype=np.int64)
    return linear_conflict_lines(cells, rows, cols, goal_row, goal_col, places, longest)
