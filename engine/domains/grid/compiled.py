"""A grid's hooks for the compiled A* (``engine.search.compiled``): dense arrays per cell, a cell numbered
y × width + x. They compute exactly what ``model.Grid.moves`` and ``model.heuristic_value`` compute (the same
moves in the same order, the same floating-point operations), so the compiled A* expands what the readable one
does; ``tests/engine/domains/test_grid.py`` holds them equal."""

from __future__ import annotations

import functools
import math
import weakref

import numpy as np

from engine.domains.grid.model import MOVES, Grid
from engine.search.compiled import hook
from engine.search.domain import CompiledDomain

SQRT2 = math.sqrt(2.0)
U = np.uint64  # an index known not to be negative: numba then skips its negative-index wraparound
GOAL_X, GOAL_Y = range(2)  # aux[3], the whole numbers


@hook
def grid_children(aux, state, out_states, out_costs):
    """The grid is padded with a ring of walls, so no move needs a bounds check; ``moves[0, k]`` is move k's step
    in cell numbers, ``moves[1, k]`` and ``moves[2, k]`` the two cells a diagonal move passes (0 for a straight
    one)."""
    open_cells, weight, moves = aux[0], aux[1], aux[2]
    count = 0
    for k in range(moves.shape[1]):
        target = state + moves[0, k]
        if open_cells[U(target)] == 0:
            continue
        if moves[1, k] != 0:
            if open_cells[U(state + moves[1, k])] == 0 or open_cells[U(state + moves[2, k])] == 0:
                continue
            out_costs[count] = SQRT2 * weight[U(target)]
        else:
            out_costs[count] = 1.0 * weight[U(target)]
        out_states[count] = target
        count += 1
    return count


@hook
def _offsets(aux, state):
    """|dx|, |dy| from the goal, read from the cells' column and row (a division per child cost a quarter of the
    time)."""
    ints = aux[3]
    return abs(aux[5][U(state)] - ints[GOAL_X]), abs(aux[6][U(state)] - ints[GOAL_Y])


@hook
def manhattan_h(aux, state):
    dx, dy = _offsets(aux, state)
    return aux[4][0] * (dx + dy)


@hook
def octile_h(aux, state):
    dx, dy = _offsets(aux, state)
    return aux[4][0] * (max(dx, dy) + (SQRT2 - 1.0) * min(dx, dy))


@hook
def euclidean_h(aux, state):
    dx, dy = _offsets(aux, state)
    return aux[4][0] * math.sqrt(dx * dx + dy * dy)


@hook
def zero_h(aux, state):
    return 0.0


HOOKS = {"manhattan": manhattan_h, "octile": octile_h, "euclidean": euclidean_h, "zero": zero_h}


#: each live grid's padded cells (``padded``), dropped with the grid
_padded: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def padded(grid: Grid) -> tuple[np.ndarray, ...]:
    """The grid's cells padded with a ring of walls, as flat arrays: open, weight, column and row (x and y of the
    unpadded grid). Made once per grid and kept while the grid lives, so every query on a map shares them (as a
    map's graph is built once for SciPy or libtcod)."""
    found = _padded.get(grid)
    if found is None:
        height, width = grid.height + 2, grid.width + 2
        open_cells = np.zeros((height, width), dtype=np.uint8)
        open_cells[1:-1, 1:-1] = grid.open
        weight = np.empty((height, width))
        weight[1:-1, 1:-1] = grid.weight
        weight[0], weight[-1], weight[:, 0], weight[:, -1] = 1.0, 1.0, 1.0, 1.0
        columns = np.tile(np.arange(-1, width - 1, dtype=np.int32), height)
        rows = np.repeat(np.arange(-1, height - 1, dtype=np.int32), width)
        found = _padded[grid] = (open_cells.ravel(), weight.ravel(), columns, rows)
    return found


@functools.lru_cache(maxsize=16)
def _moves(width: int, connect: int) -> np.ndarray:
    """The moves' steps in cell numbers (``grid_children``'s ``moves``)."""
    return np.array([[dy * width + dx, dx if dx and dy else 0, dy * width if dx and dy else 0]
                     for _, dx, dy in MOVES[:connect]], dtype=np.int64).T.copy()


#: a move's name by (dy + 1) × 3 + dx + 1
_NAMES = np.array([next((name for name, x, y in MOVES if (x, y) == (dx, dy)), "") for dy in (-1, 0, 1)
                   for dx in (-1, 0, 1)], dtype=object)


def compiled_grid(problem) -> CompiledDomain:
    """Cell (x, y) is number (y + 1) × (width + 2) + x + 1 of the grid padded with walls."""
    grid = problem.grid
    width = grid.width + 2
    open_cells, weight, columns, rows = padded(grid)
    moves = _moves(width, grid.connect)
    aux = (open_cells, weight, moves, np.array(problem.goal, dtype=np.int64), np.array([grid.least]),
           columns, rows)

    def number(cell: tuple[int, int]) -> int:
        return (cell[1] + 1) * width + cell[0] + 1

    def decode_path(numbers: np.ndarray) -> tuple[list, tuple]:
        ys, xs = np.divmod(numbers, width)  # in the padded grid: one more than the cell's own
        steps = (ys[1:] - ys[:-1]) * 3 + (xs[1:] - xs[:-1]) + 4
        return np.stack((xs - 1, ys - 1), axis=1).tolist(), tuple(_NAMES[steps].tolist())

    return CompiledDomain(grid_children, HOOKS[problem.heuristic_name], aux, open_cells.size, number(problem.initial),
                          number(problem.goal), grid.connect, lambda n: (n % width - 1, n // width - 1), decode_path)
