"""The sliding-tile problem and the numbered graph the drawing page sends, as the searches read them (the domain
contract, ``engine.search.domain``)."""

from __future__ import annotations

import math

from engine.domains.tiles.board import INVERSE, Board
from engine.domains.tiles.heuristics import heuristic_function
from engine.search.domain import Domain

#: aima-python's name for what every search reads: the domain contract (``engine.search.domain``).
Problem = Domain


class SlidingTileProblem:
    """States are Boards; actions are blank moves in U D L R order (the kernels use the same order)."""

    unit_costs = True
    reversible = True

    def __init__(self, initial: Board, goal: Board, heuristic: str = "manhattan", options: dict | None = None):
        """``heuristic`` is a name in the registry (``engine.domains.tiles.heuristics``); ``options`` are the solve's
        own (``{"table": name}`` picks a learned table)."""
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

    def cost(self, state: Board, action: str) -> int:
        return 1

    def inverse(self, state: Board, action: str) -> str:
        return INVERSE[action]

    def format_path(self, path: tuple) -> str:
        return "".join(path)

    def encode(self, state: Board) -> list[int]:
        return list(state.cells)

    def scene(self) -> dict:
        return {"rows": self.goal.rows, "cols": self.goal.cols, "goal": list(self.goal.cells)}

    def picture(self, state: Board) -> dict:
        return {"cells": list(state.cells)}


class GraphProblem:
    """Path finding on an undirected graph with whole-number edge costs (1 unless ``costs`` says otherwise, keyed by
    (smaller node, larger node)), for the step-through view.

    States are node numbers and an action is the neighbour to go to, so any number of nodes works; the result's move
    string lists the nodes after the start ("2 4 6" from 0 is the path 0 2 4 6).

    h: a drawn distance is only a lower bound once it is measured in cost. With drawn positions, every edge costs at
    least ``rate`` = min(cost / drawn length) per unit of length, so ``h = floor(rate × distance to the goal)`` never
    overestimates what is left (admissible), and with whole-number costs one edge of cost c changes it by at most c
    (consistent). With unit costs rate is 1 / the longest edge. Without positions (or with ``straight_line=False``)
    h is 0, which makes A* a uniform-cost search.
    """

    def __init__(self, adjacency, start: int, goal: int, positions=(), straight_line: bool = True,
                 costs: dict | None = None):
        self.adjacency = adjacency
        self.initial = start
        self.goal = goal
        self.costs = costs or {}
        self.unit_costs = all(c == 1 for c in self.costs.values())
        self.reversible = True
        self.heuristic_name = "zero"
        self._h: list[int] = [0] * len(adjacency)
        drawn = [(self.cost(a, b), math.dist(positions[a], positions[b]))
                 for a in range(len(adjacency)) for b in adjacency[a]] if positions else []
        rates = [cost / length for cost, length in drawn if length > 0]  # two nodes drawn on one spot bound nothing
        if straight_line and rates:
            self.heuristic_name = "straight-line"
            rate = min(rates)
            self._h = [math.floor(rate * math.dist(p, positions[goal]) + 1e-9) for p in positions]

    def actions(self, state: int) -> tuple[int, ...]:
        return tuple(self.adjacency[state])

    def result(self, state: int, action: int) -> int:
        return action

    def is_goal(self, state: int) -> bool:
        return state == self.goal

    def h(self, state: int) -> int:
        return self._h[state]

    def cost(self, state: int, action: int) -> int:
        return self.costs.get((min(state, action), max(state, action)), 1)

    def inverse(self, state: int, action: int) -> int:
        return state

    def format_path(self, path: tuple) -> str:
        return " ".join(map(str, path))
