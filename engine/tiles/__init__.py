"""The m×n sliding-tile model: boards, goals, moves, solvability, random positions and heuristics."""

from engine.tiles.board import (
    MAX_CELLS,
    MOVES,
    Board,
    goal_board,
    parse_board,
    parse_goal,
    parse_size,
    parse_tiles,
)
from engine.tiles.random import random_solvable, scramble
from engine.tiles.solvability import Solvability, check_solvable, is_solvable, require_solvable

__all__ = [
    "MAX_CELLS",
    "MOVES",
    "Board",
    "Solvability",
    "check_solvable",
    "goal_board",
    "is_solvable",
    "parse_board",
    "parse_goal",
    "parse_size",
    "parse_tiles",
    "random_solvable",
    "require_solvable",
    "scramble",
]
