"""The m×n sliding-tile model: boards, goals, moves, solvability, random positions and heuristics."""

from engine.domains.tiles.board import (
    MAX_CELLS,
    MOVES,
    Board,
    goal_board,
    parse_board,
    parse_goal,
    parse_size,
    parse_tiles,
)
from engine.domains.tiles.random import random_solvable, scramble
from engine.domains.tiles.solvability import Solvability, check_solvable, is_solvable, require_solvable

#: the modules that register entries when imported, for ``engine.core.registry.load_all``:
#: the tile solvers; the tile kind (its solvers and its reading of the solve and compare jobs); the tables-build job
REGISTERS = ("solvers", "kind", "pdb_catalogue")

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
