"""What a player asks of the engine: the strongest solver ready for a board, a hint (a next move on a shortest path
and how far from solved the position is), and a position a chosen number of moves from solved.

* ``strongest_solver(board, goal)`` reads the solver registry and what tables are built, and answers the first of a
  ranked list that the registry offers for the board: the exact distance table (boards of at most 10 cells: the
  answer is read off), IDA* with a pattern database once one is built for the goal (4×4), IDA* with linear conflict
  (up to 16 cells), and beyond 16 cells the near-optimal beam search (an optimal 24-puzzle solve can search for
  hours; the beam answers in about a second, a few per cent longer). The Play page's default and ``/api/hint`` both
  read it.
* ``hint(board, goal)`` solves with that solver within ``HINT_BUDGET``; an optimal answer gives the distance d and a
  move to a position at d − 1. When no optimal answer fits the budget (a 4×4 before its databases are built, any
  larger board) the hint is the first move of the near-optimal solver's answer, marked ``optimal=False`` with a
  sentence that says the length is an upper bound, never the distance.
* ``position_at_distance(goal, distance, seed)`` draws a position exactly ``distance`` moves from solved: on boards
  with a distance table, uniformly among the positions at that distance; on the other boards of at most 16 cells by
  a walk away from the goal in which every step is checked by an optimal solve (each step goes one further), within
  ``DISTANCE_BUDGET``; bigger boards are refused (no optimal solve is cheap there).
"""

from __future__ import annotations

import random
import time
from dataclasses import asdict, dataclass

from engine.core.errors import PuzzleError
from engine.core.result import Budget
from engine.core.status import Status
from engine.domains.tiles import pdb
from engine.domains.tiles.board import PERFECT_MAX_CELLS, Board
from engine.domains.tiles.ranking import partial_unrank
from engine.domains.tiles.solving import solve_board, solvers

#: Boards up to this many cells get an optimal solver by default (and distances); beyond, the near-optimal one.
OPTIMAL_CELLS = 16
#: What one hint may search before it settles for a near-optimal move: a few hundred milliseconds of IDA* with the
#: 7-8 database answers nearly every 15-puzzle; the seconds bound a loaded machine.
HINT_BUDGET = Budget(max_nodes=5_000_000, max_seconds=2.0)
#: What drawing one position at a chosen distance may search in all (every step of the walk is an optimal solve).
DISTANCE_BUDGET = Budget(max_nodes=20_000_000, max_seconds=8.0)
#: The tile slides the other way from the blank: a blank move "R" slides the tile on its right to the left.
SLIDES = {"U": "down", "D": "up", "L": "right", "R": "left"}


def _ranked(board: Board, goal: Board) -> list[tuple[str, str, str]]:
    """(solver, heuristic, why) strongest first; ``strongest_solver`` takes the first the registry offers."""
    ranked = []
    if board.size <= OPTIMAL_CELLS:
        ranked.append(("table", "perfect", "the exact distance table: the shortest answer is read off"))
        if pdb.is_ready(goal):
            ranked.append(("idastar", "pdb", "IDA* with the strongest pattern database built"))
        ranked.append(("idastar", "linear-conflict", "IDA* with linear conflict (no pattern database is built)"))
    ranked.append(("near-optimal", "", "no optimal search is quick on a board this size: the beam search answers in "
                                       "about a second, a few per cent longer than the shortest"))
    ranked.append(("fast", "", "the row and column reduction"))
    return ranked


def strongest_solver(board: Board, goal: Board) -> tuple[str, str, str]:
    """The strongest solver ready for ``board`` now: (solver, heuristic, why), as the registry offers it."""
    offered = {(info.name, h) for info in solvers().values() if info.supports(board)
               for h in info.heuristics_for(board)}
    for solver, heuristic, why in _ranked(board, goal):
        if (solver, heuristic) in offered:
            return solver, heuristic, why
    raise PuzzleError(f"no solver is offered for a {board.size_name} board")


@dataclass
class Hint:
    #: the blank's move (U D L R), None on a solved board
    move: str | None
    #: the tile that slides, and where it goes (``SLIDES``)
    tile: int
    direction: str
    #: the distance from solved before and after the move: exact when ``optimal``, else the length of the solution
    #: found (an upper bound)
    before: int
    after: int
    optimal: bool
    solver: str
    heuristic: str
    #: the sentence a player reads
    text: str
    seconds: float

    def as_dict(self) -> dict:
        return asdict(self)


def _hint_from(board: Board, moves: str, optimal: bool, solver: str, heuristic: str, started: float,
               note: str = "") -> Hint:
    move = moves[0]
    tile = board.cells[board.neighbor(board.blank, move)]
    before, after = len(moves), len(moves) - 1
    if optimal:
        text = (f"Slide {tile} {SLIDES[move]}: this move lowers the distance from {before} to {after} "
                f"(the shortest solution from here has {before} moves).")
    else:
        text = (f"Slide {tile} {SLIDES[move]}: the first move of a {before}-move solution, not proven shortest "
                f"({note}); the position is at most {before} moves from solved.")
    return Hint(move, tile, SLIDES[move], before, after, optimal, solver, heuristic, text,
                time.perf_counter() - started)


def hint(board: Board, goal: Board, budget: Budget = HINT_BUDGET) -> Hint:
    """A next move on a shortest path from ``board`` and the distances before and after it (see the module's
    docstring for when it is only near-optimal). An unsolvable position raises PuzzleError with the parity reason."""
    started = time.perf_counter()
    if board == goal:
        return Hint(None, 0, "", 0, 0, True, "", "", "Solved: no move is needed.", 0.0)
    solver, heuristic, _ = strongest_solver(board, goal)
    result = solve_board(board, goal, solver, heuristic, budget)
    if result.status is Status.UNSOLVABLE:
        raise PuzzleError(result.message)
    if result.status is Status.SOLVED and result.optimal:
        return _hint_from(board, result.moves, True, solver, result.heuristic, started)
    reason = ("no optimal search answers quickly on a board this size" if board.size > OPTIMAL_CELLS
              else f"an optimal search did not finish within {budget.max_seconds:g} s")
    if result.status is not Status.SOLVED:
        result = solve_board(board, goal, "near-optimal", "", Budget(max_seconds=budget.max_seconds))
        if result.status is not Status.SOLVED:
            raise PuzzleError(f"no hint: {result.message or result.status}")
    return _hint_from(board, result.moves, False, result.solver, result.heuristic, started, reason)


#: The distances offered: 80 moves is the 15-puzzle's diameter, and no board of at most 16 cells is farther; the walk
#: on boards without a distance table checks every step by an optimal solve, so far positions cost seconds each.
MAX_DISTANCE = {True: 80, False: 60}


def distance_range(goal: Board) -> tuple[int, int] | None:
    """The distances ``position_at_distance`` takes for ``goal``'s board (whether one exists there is its answer),
    None when it takes none. Cheap: it reads no table."""
    if goal.size > OPTIMAL_CELLS:
        return None
    return 1, MAX_DISTANCE[goal.size <= PERFECT_MAX_CELLS]


def position_at_distance(goal: Board, distance: int, seed: int | None = None,
                         budget: Budget = DISTANCE_BUDGET) -> Board:
    """A position exactly ``distance`` moves from ``goal`` (shortest solution), reproducible from ``seed``."""
    offered = distance_range(goal)
    if offered is None:
        raise PuzzleError(f"a position at a chosen distance is offered up to {OPTIMAL_CELLS} cells, where an optimal "
                          f"solve is quick; {goal.size_name} has {goal.size}: use a scramble instead")
    low, high = offered
    if not low <= distance <= high:
        raise PuzzleError(f"the distance must be between {low} and {high} moves on {goal.size_name}")
    rng = random.Random(seed)
    if goal.size <= PERFECT_MAX_CELLS:
        import numpy as np

        from engine.domains.tiles.kernel_drivers import goal_distance_table

        table = goal_distance_table(goal)
        ranks = np.flatnonzero(table == distance)
        if ranks.size == 0:
            raise PuzzleError(f"no position is {distance} moves from solved on {goal.size_name}: the farthest are "
                              f"{int(table[table != 255].max())} moves away")
        rank = int(ranks[rng.randrange(ranks.size)])
        return Board(goal.rows, goal.cols, tuple(partial_unrank(rank, goal.size, goal.size)))
    return _walk_outward(goal, distance, rng, budget)


def _walk_outward(goal: Board, distance: int, rng: random.Random, budget: Budget) -> Board:
    """Step away from the goal, each step to a neighbour one move further (an optimal solve says so); a step with no
    such neighbour goes back one and tries another. The neighbours of a position at d are at d − 1 or d + 1."""
    solver, heuristic, _ = strongest_solver(goal, goal)
    deadline = time.perf_counter() + budget.max_seconds
    known: dict[Board, int] = {goal: 0}

    def distance_of(board: Board) -> int:
        if board not in known:
            left = deadline - time.perf_counter()
            result = solve_board(board, goal, solver, heuristic, Budget(budget.max_nodes, max(0.0, left)))
            if result.status is not Status.SOLVED or not result.optimal:
                raise PuzzleError(f"no position {distance} moves from solved could be checked within "
                                  f"{budget.max_seconds:g} s (optimal solves with {result.heuristic or heuristic}); "
                                  "try a smaller distance, or a scramble")
            known[board] = result.length
        return known[board]

    path = [goal]
    tried: list[set[Board]] = [set()]
    while len(path) - 1 < distance:
        here = path[-1]
        options = [here.move(m) for m in here.legal_moves()]
        rng.shuffle(options)
        step = next((child for child in options if child not in tried[-1] and child not in path
                     and distance_of(child) == len(path)), None)
        if step is None:
            path.pop()
            tried.pop()
            if not path:
                raise PuzzleError(f"no position {distance} moves from solved was found")
            continue
        tried[-1].add(step)
        path.append(step)
        tried.append(set())
    return path[-1]
