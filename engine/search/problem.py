"""The search problem interface (after aima-python) and its sliding-tile instance."""

from __future__ import annotations

from typing import Hashable, Iterable, Protocol

from engine.tiles.board import Board
from engine.tiles.heuristics import heuristic_function


class Problem(Protocol):
    """What a search needs to know about a puzzle. Every action costs 1."""

    initial: Hashable

    def actions(self, state: Hashable) -> Iterable[str]: ...

    def result(self, state: Hashable, action: str) -> Hashable: ...

    def is_goal(self, state: Hashable) -> bool: ...

    def h(self, state: Hashable) -> int: ...


class SlidingTileProblem:
    """States are Boards; actions are blank moves in U D L R order (the kernels use the same order)."""

    def __init__(self, initial: Board, goal: Board, heuristic: str = "manhattan"):
        self.initial = initial
        self.goal = goal
        self.heuristic_name = heuristic
        self._h = heuristic_function(heuristic, goal)

    def actions(self, state: Board) -> str:
        return state.legal_moves()

    def result(self, state: Board, action: str) -> Board:
        return state.move(action)

    def is_goal(self, state: Board) -> bool:
        return state.cells == self.goal.cells

    def h(self, state: Board) -> int:
        return self._h(state)
