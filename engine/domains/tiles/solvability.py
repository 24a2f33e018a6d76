"""Which positions can reach which goals, and why (seed 000, Thm 2.1).

The argument, for any board and any goal: every move swaps the blank with a neighbouring tile, so it is one
transposition of the cells' contents. Walk the blank to its goal cell by the shortest route (its Manhattan distance d,
d transpositions). The position is solvable exactly when what is then left, the permutation that carries the tiles to
their goal cells with the blank fixed, is even. Equivalently: the parity of the whole permutation (position → goal,
blank included) equals the parity of d. Exactly half of all arrangements are solvable.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.errors import PuzzleError
from engine.domains.tiles.board import Board


@dataclass(frozen=True)
class Solvability:
    solvable: bool
    permutation_parity: int  # 0 even, 1 odd: the permutation carrying each tile from its cell to its goal cell
    blank_distance: int  # Manhattan distance of the blank from its goal cell
    explanation: str


def permutation_parity(perm: list[int]) -> int:
    """Parity (0 even, 1 odd) of a permutation of 0..n-1, from its cycle decomposition: n minus the number of cycles."""
    seen = [False] * len(perm)
    cycles = 0
    for start in range(len(perm)):
        if not seen[start]:
            cycles += 1
            i = start
            while not seen[i]:
                seen[i] = True
                i = perm[i]
    return (len(perm) - cycles) % 2


def check_solvable(board: Board, goal: Board) -> Solvability:
    if (board.rows, board.cols) != (goal.rows, goal.cols):
        raise PuzzleError(f"the position is {board.size_name} but the goal is {goal.size_name}")
    goal_cell = {tile: cell for cell, tile in enumerate(goal.cells)}
    perm = [goal_cell[tile] for tile in board.cells]  # cell → the cell its tile must reach
    parity = permutation_parity(perm)
    br, bc = divmod(board.blank, board.cols)
    gr, gc = divmod(goal.blank, goal.cols)
    distance = abs(br - gr) + abs(bc - gc)
    solvable = parity == distance % 2
    word = ("even", "odd")
    explanation = (
        f"Each move swaps the blank with a tile, so it changes the parity of the arrangement. "
        f"The blank is {distance} move{'s' if distance != 1 else ''} ({word[distance % 2]}) from its goal cell, and "
        f"the permutation that carries every cell's content to its goal cell is {word[parity]}. "
        + ("They agree, so once the blank is home the remaining permutation is even: the position is solvable."
           if solvable else
           "They disagree, so once the blank is home an odd permutation of the tiles remains, and no sequence of "
           "moves can undo an odd permutation with the blank back home: the position is unsolvable.")
    )
    return Solvability(solvable, parity, distance, explanation)


def is_solvable(board: Board, goal: Board) -> bool:
    return check_solvable(board, goal).solvable


def require_solvable(board: Board, goal: Board) -> None:
    """Raise PuzzleError with the parity explanation if ``board`` cannot reach ``goal``."""
    verdict = check_solvable(board, goal)
    if not verdict.solvable:
        raise PuzzleError(f"this position is unsolvable. {verdict.explanation}")
