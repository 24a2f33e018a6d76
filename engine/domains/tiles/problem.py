"""The sliding-tile board as a problem of the domain contract (``engine.search.domain``): what the readable searches,
the step-through and the kernels' reference tests read."""

from __future__ import annotations

from engine.domains.tiles.board import INVERSE, Board
from engine.domains.tiles.heuristics import heuristic_function
from engine.search.domain import Domain


class SlidingTileProblem(Domain):
    """States are Boards; actions are blank moves in U D L R order (the kernels use the same order)."""

    name = "tiles"
    unit_costs = True
    reversible = True
    initial: Board
    goal: Board

    def __init__(self, initial: Board, goal: Board, heuristic: str | None = "manhattan", options: dict | None = None):
        """``heuristic`` is a name in the registry (``engine.domains.tiles.heuristics``), or None: a tile solver's
        own default (the readable searches then use Manhattan distance); ``options`` are the solve's own
        (``{"table": name}`` picks a learned table, ``{"params": {...}}`` DPSO's)."""
        self.initial = initial
        self.goal = goal
        #: what the request named (None: each solver's default), and the h the readable searches use
        self.asked_heuristic = heuristic
        self.heuristic_name = heuristic or "manhattan"
        self.options = options or {}
        self._h = None  # built when a readable search first asks: a tile kernel's solve never needs it

    def actions(self, state: Board) -> str:
        return state.legal_moves()

    def result(self, state: Board, action: str) -> Board:
        return state.move(action)

    def is_goal(self, state: Board) -> bool:
        return state.cells == self.goal.cells

    def h(self, state: Board) -> int:
        if self._h is None:
            self._h = heuristic_function(self.heuristic_name, self.goal, self.options)
        return self._h(state)

    def cost(self, state: Board, action: str) -> int:
        return 1

    def inverse(self, state: Board, action: str) -> str:
        return INVERSE[action]

    def format_path(self, path: tuple) -> str:
        return "".join(path)
