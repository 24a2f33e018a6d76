"""Per-goal lookup arrays shared by the numba kernels: the blank's neighbours, each tile's Manhattan distance per
cell, its goal row and column (plain NumPy arrays, built once per goal and kept in memory). The pattern databases,
large tables on disk, are ``engine.tiles.pdb`` and ``engine.tiles.pdb_catalogue``."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from engine.tiles.board import INVERSE, MOVES, STEP, Board

#: Index of the move that undoes each move, in ``MOVES`` order (U D L R): ``board.INVERSE`` for the kernels.
INVERSE_INDEX = np.array([MOVES.index(INVERSE[move]) for move in MOVES], dtype=np.int64)


@dataclass(frozen=True)
class GoalTables:
    rows: int
    cols: int
    neighbors: np.ndarray  # (cells, 4): the blank's cell after each move, -1 where it would leave the board
    manhattan: np.ndarray  # (tiles, cells): Manhattan distance of a tile in a cell from its goal cell; 0 for the blank
    goal_row: np.ndarray  # (tiles,)
    goal_col: np.ndarray  # (tiles,)


def neighbor_table(rows: int, cols: int) -> np.ndarray:
    """(cells, 4): the blank's cell after each move in ``MOVES`` order, -1 where it would leave the board. Any size
    (the 2×n sub-problem goes past the largest playable board)."""
    table = np.full((rows * cols, 4), -1, dtype=np.int64)
    for cell in range(rows * cols):
        r, c = divmod(cell, cols)
        for d, move in enumerate(MOVES):
            dr, dc = STEP[move]
            if 0 <= r + dr < rows and 0 <= c + dc < cols:
                table[cell, d] = (r + dr) * cols + c + dc
    return table


@lru_cache(maxsize=64)
def goal_tables(goal: Board) -> GoalTables:
    size = goal.size
    neighbors = neighbor_table(goal.rows, goal.cols)
    goal_row = np.zeros(size, dtype=np.int64)
    goal_col = np.zeros(size, dtype=np.int64)
    for cell, tile in enumerate(goal.cells):
        goal_row[tile], goal_col[tile] = divmod(cell, goal.cols)
    manhattan = np.zeros((size, size), dtype=np.int64)
    for tile in range(1, size):
        for cell in range(size):
            r, c = divmod(cell, goal.cols)
            manhattan[tile, cell] = abs(r - goal_row[tile]) + abs(c - goal_col[tile])
    for array in (neighbors, manhattan, goal_row, goal_col):
        array.setflags(write=False)
    return GoalTables(goal.rows, goal.cols, neighbors, manhattan, goal_row, goal_col)
