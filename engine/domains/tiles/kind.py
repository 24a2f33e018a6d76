"""The sliding tiles as a domain kind: a board's problem from a request (``tile_problem``), the kind's own solvers
(``engine.domains.tiles.solving``) beside the generic searches, and its reading of the solve and compare jobs
(``engine.domains.tiles.jobs``). It is the default kind: a request that names no ``problem`` is a board's, as every
request was before the other domains came.

Its JSON is the request's own fields: ``tiles`` (the start's cells, a list or ``"8,1,3,4,0,2,7,6,5"``, or its rows,
``[[1,2,3,4],[5,6,7,0]]`` or ``"1 2 3 4/5 6 7 0"``), ``size`` (``"2x4"``; left out, the rows' shape or a square's),
``goal`` (``blank-last``, the default, ``blank-first`` or the cells) and ``heuristic`` (a registered one's name;
without it each solver's own default); ``tiles`` may also be an object of ``size``, ``tiles`` and ``goal``.
"""

from __future__ import annotations

from engine.core.errors import PuzzleError
from engine.core.params import text
from engine.domains.tiles.board import goal_board
from engine.domains.tiles.heuristics import HEURISTICS
from engine.domains.tiles.jobs import TILE_JOBS, board_position
from engine.domains.tiles.problem import SlidingTileProblem
from engine.domains.tiles.random import scramble
from engine.domains.tiles.solvability import require_solvable
from engine.domains.tiles.solving import solvers
from engine.domains.tiles.view import DEFAULT, TILE_VIEW, TileDrawing
from engine.search.domain import DomainKind, register_domain


def tile_problem(data: dict) -> SlidingTileProblem:
    """A board's problem from a request's fields (the module's docstring names them); refuses a position that cannot
    reach its goal."""
    board, goal = board_position(data)
    require_solvable(board, goal)
    heuristic = text(data, "heuristic", 40, "") or None
    if heuristic is not None and heuristic not in HEURISTICS and heuristic != "perfect":
        raise PuzzleError(f"unknown heuristic {heuristic!r}: choose one of {', '.join(HEURISTICS)}")
    return SlidingTileProblem(board, goal, heuristic)


#: 8-puzzles each search ends on at once: first the step-through's own opening board (its view's default, the goal
#: scrambled), then one three moves from the goal under linear conflict
EXAMPLES = ({"size": DEFAULT["size"], "goal": DEFAULT["goal"],
             "tiles": list(scramble(goal_board(3, 3), DEFAULT["scramble"], DEFAULT["seed"])[0].cells)},
            {"tiles": [1, 2, 3, 0, 4, 6, 7, 5, 8], "heuristic": "linear-conflict"})

#: the heuristics made for every board (the pattern databases and a trained table fit one shape each)
HEURISTICS_ANY_BOARD = ("manhattan", "linear-conflict", "misplaced", "zero")

KIND = register_domain(DomainKind("tiles", "Sliding tiles", tile_problem, HEURISTICS_ANY_BOARD, EXAMPLES,
                                  solvers=solvers, jobs=TILE_JOBS, view=TILE_VIEW, drawing=TileDrawing,
                                  default=True))
