"""Lookup tables for a board shape and goal, shared by the numba kernels (plain NumPy arrays, built once per goal)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from engine.tiles.board import INVERSE, MOVES, Board

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


@lru_cache(maxsize=64)
def goal_tables(goal: Board) -> GoalTables:
    size = goal.size
    neighbors = np.full((size, 4), -1, dtype=np.int64)
    for cell in range(size):
        for d, move in enumerate(MOVES):
            target = goal.neighbor(cell, move)
            neighbors[cell, d] = -1 if target is None else target
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
