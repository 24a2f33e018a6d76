"""Random positions, reproducible from a seed."""

from __future__ import annotations

import random as _random

from engine.core.errors import PuzzleError
from engine.domains.tiles.board import MOVES, Board
from engine.domains.tiles.solvability import is_solvable


def random_solvable(goal: Board, seed: int | None = None) -> Board:
    """A position drawn uniformly from the solvable half.

    Shuffle all cells uniformly; if the result is unsolvable, swap the first two tiles (not the blank). That swap
    flips the parity and is a bijection between the two halves, so the solvable half stays uniform.
    """
    rng = _random.Random(seed)
    cells = list(goal.cells)
    rng.shuffle(cells)
    board = Board(goal.rows, goal.cols, tuple(cells))
    if not is_solvable(board, goal):
        i, j = [k for k, t in enumerate(cells) if t != 0][:2]
        cells[i], cells[j] = cells[j], cells[i]
        board = Board(goal.rows, goal.cols, tuple(cells))
    return board


#: The longest scramble offered; longer walks on small boards trap themselves and restart for a long time, and a
#: random position (``random_solvable``) is the better tool beyond this.
MAX_SCRAMBLE = 500
#: Blank moves tried over all restarts before giving up (a bound on the time one request can take).
MAX_SCRAMBLE_STEPS = 200_000


def scramble(goal: Board, moves: int, seed: int | None = None, max_restarts: int = 1000) -> tuple[Board, str]:
    """Seed 001's generator: ``moves`` random blank moves from the goal, never entering a position already visited
    in this scramble. Returns the position and the scramble's move string (its optimum can be shorter).

    A walk can trap itself (every neighbour visited); it is then restarted from the goal with the same generator,
    so the result stays reproducible from the seed.
    """
    if moves < 0:
        raise PuzzleError("a scramble needs a non-negative number of moves")
    if moves > MAX_SCRAMBLE:
        raise PuzzleError(f"a scramble of more than {MAX_SCRAMBLE} moves is not offered; use a random position instead")
    rng = _random.Random(seed)
    steps = 0
    for _ in range(max_restarts):
        if steps > MAX_SCRAMBLE_STEPS:
            break
        board, path, visited = goal, [], {goal.cells}
        while len(path) < moves:
            options = [m for m in MOVES
                       if board.neighbor(board.blank, m) is not None and board.move(m).cells not in visited]
            if not options:
                break
            move = rng.choice(options)
            board = board.move(move)
            visited.add(board.cells)
            path.append(move)
        steps += len(path)
        if len(path) == moves:
            return board, "".join(path)
    raise PuzzleError(f"could not make a {moves}-move scramble without revisiting a position")
