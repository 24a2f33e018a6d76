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

    def __init__(self, initial: Board, goal: Board, heuristic: str = "manhattan", database=None):
        self.initial = initial
        self.goal = goal
        self.heuristic_name = heuristic
        self._h = database.value if database is not None else heuristic_function(heuristic, goal)

    def actions(self, state: Board) -> str:
        return state.legal_moves()

    def result(self, state: Board, action: str) -> Board:
        return state.move(action)

    def is_goal(self, state: Board) -> bool:
        return state.cells == self.goal.cells

    def h(self, state: Board) -> int:
        return self._h(state)


class GraphProblem:
    """Path finding on an undirected graph with unit edge costs, for the step-through view.

    States are node numbers; an action is the neighbour to go to, written as one base-36 digit ("0"–"9", "a"–"z"), so
    that a path is a string like the tile puzzles' move strings and the same algorithms run unchanged ("246" from 0 is
    the path 0 2 4 6). The digits never collide with the tiles' U D L R, so no move is taken for an undo. h is 0: with
    unit costs and no coordinates that mean anything, it is the only heuristic known to be admissible, which makes A*
    a uniform-cost search here.
    """

    def __init__(self, adjacency, start: int, goal: int):
        self.adjacency = adjacency
        self.initial = start
        self.goal = goal

    def actions(self, state: int) -> list[str]:
        return [node_label(n) for n in self.adjacency[state]]

    def result(self, state: int, action: str) -> int:
        return int(action, 36)

    def is_goal(self, state: int) -> bool:
        return state == self.goal

    def h(self, state: int) -> int:
        return 0


def node_label(node: int) -> str:
    return "0123456789abcdefghijklmnopqrstuvwxyz"[node]
