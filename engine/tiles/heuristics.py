"""Plain-Python heuristics for any goal: the readable references of the numba kernels (tests check they agree)."""

from __future__ import annotations

from typing import Callable

from engine.errors import PuzzleError
from engine.tiles.board import Board

HEURISTICS = ("manhattan", "linear-conflict", "pdb", "pdb-78", "pdb-663", "learned", "zero")


def manhattan_distance(board: Board, goal: Board) -> int:
    """Sum over tiles (not the blank) of the row and column distance to the tile's goal cell."""
    where = {tile: divmod(cell, goal.cols) for cell, tile in enumerate(goal.cells)}
    total = 0
    for cell, tile in enumerate(board.cells):
        if tile:
            r, c = divmod(cell, board.cols)
            gr, gc = where[tile]
            total += abs(r - gr) + abs(c - gc)
    return total


def longest_increasing_run(values: list[int]) -> int:
    best = [1] * len(values)
    for i in range(len(values)):
        for j in range(i):
            if values[j] < values[i]:
                best[i] = max(best[i], best[j] + 1)
    return max(best, default=0)


def linear_conflicts(board: Board, goal: Board) -> int:
    """Tiles that must leave their line: for each row and column, the tiles already in their goal line minus the
    longest run of them already in goal order. Each such tile costs two moves beyond Manhattan distance."""
    where = {tile: divmod(cell, goal.cols) for cell, tile in enumerate(goal.cells)}
    total = 0
    for r in range(board.rows):
        row = [board.cells[r * board.cols + c] for c in range(board.cols)]
        places = [where[t][1] for t in row if t and where[t][0] == r]
        total += len(places) - longest_increasing_run(places)
    for c in range(board.cols):
        col = [board.cells[r * board.cols + c] for r in range(board.rows)]
        places = [where[t][0] for t in col if t and where[t][1] == c]
        total += len(places) - longest_increasing_run(places)
    return total


def linear_conflict_distance(board: Board, goal: Board) -> int:
    return manhattan_distance(board, goal) + 2 * linear_conflicts(board, goal)


def heuristic_function(name: str, goal: Board) -> Callable[[Board], int]:
    if name == "manhattan":
        return lambda board: manhattan_distance(board, goal)
    if name == "linear-conflict":
        return lambda board: linear_conflict_distance(board, goal)
    if name == "zero":
        return lambda board: 0
    if name in ("pdb", "pdb-78", "pdb-663"):
        from engine.tiles.pdb import load, resolve

        database = resolve(name, goal)[0] if name == "pdb" else load(name, goal)
        if database is None:
            raise PuzzleError(f"the {name} pattern database is not built yet: python -m engine tables build")
        return database.value
    if name == "learned":  # seed 002's V = MD + DB: not admissible
        from engine.learned.train import table_for

        table = table_for(goal)
        return lambda board: manhattan_distance(board, goal) + table.value(board)
    raise PuzzleError(f"unknown heuristic {name!r}: choose one of {', '.join(HEURISTICS)}")
