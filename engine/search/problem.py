"""The search problem interface (after aima-python) and its sliding-tile instance."""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable
from typing import Protocol

from engine.tiles.board import INVERSE, Board
from engine.tiles.heuristics import heuristic_function


class Problem(Protocol):
    """What a search needs to know about a puzzle. Every action costs 1.

    ``inverse(state, action)`` is the action that leads from ``result(state, action)`` back to ``state`` (None if
    there is none): the depth-first family uses it never to undo the previous action, bidirectional search to turn
    its backward walk into forward actions. ``format_path`` writes a tuple of actions as the result's move string.
    """

    initial: Hashable
    goal: Hashable

    def actions(self, state: Hashable) -> Iterable[str]: ...

    def result(self, state: Hashable, action: str) -> Hashable: ...

    def is_goal(self, state: Hashable) -> bool: ...

    def h(self, state: Hashable) -> int: ...

    def inverse(self, state: Hashable, action) -> object | None: ...

    def format_path(self, path: tuple) -> str: ...


class SlidingTileProblem:
    """States are Boards; actions are blank moves in U D L R order (the kernels use the same order)."""

    def __init__(self, initial: Board, goal: Board, heuristic: str = "manhattan", options: dict | None = None):
        """``heuristic`` is a name in the registry (``engine.tiles.heuristics``); ``options`` are the solve's own
        (``{"table": name}`` picks a learned table)."""
        self.initial = initial
        self.goal = goal
        self.heuristic_name = heuristic
        self._h = heuristic_function(heuristic, goal, options)

    def actions(self, state: Board) -> str:
        return state.legal_moves()

    def result(self, state: Board, action: str) -> Board:
        return state.move(action)

    def is_goal(self, state: Board) -> bool:
        return state.cells == self.goal.cells

    def h(self, state: Board) -> int:
        return self._h(state)

    def inverse(self, state: Board, action: str) -> str:
        return INVERSE[action]

    def format_path(self, path: tuple) -> str:
        return "".join(path)


class GraphProblem:
    """Path finding on an undirected graph with unit edge costs, for the step-through view.

    States are node numbers and an action is the neighbour to go to, so any number of nodes works; the result's move
    string lists the nodes after the start ("2 4 6" from 0 is the path 0 2 4 6).

    h: with unit costs, a straight line is only a lower bound once it is measured in edges. With drawn positions,
    ``h = floor(distance to the goal / longest edge)``: no edge covers more than the longest edge's length, so at
    least that many edges remain (admissible), and one edge changes it by at most 1 (consistent). Without positions
    (or with ``straight_line=False``) h is 0, which makes A* a uniform-cost search.
    """

    def __init__(self, adjacency, start: int, goal: int, positions=(), straight_line: bool = True):
        self.adjacency = adjacency
        self.initial = start
        self.goal = goal
        self.heuristic_name = "zero"
        self._h: list[int] = [0] * len(adjacency)
        lengths = [math.dist(positions[a], positions[b]) for a in range(len(adjacency)) for b in adjacency[a]
                   ] if positions else []
        if straight_line and lengths and max(lengths) > 0:
            self.heuristic_name = "straight-line"
            longest = max(lengths)
            self._h = [math.floor(math.dist(p, positions[goal]) / longest + 1e-9) for p in positions]

    def actions(self, state: int) -> tuple[int, ...]:
        return tuple(self.adjacency[state])

    def result(self, state: int, action: int) -> int:
        return action

    def is_goal(self, state: int) -> bool:
        return state == self.goal

    def h(self, state: int) -> int:
        return self._h[state]

    def inverse(self, state: int, action: int) -> int:
        return state

    def format_path(self, path: tuple) -> str:
        return " ".join(map(str, path))
