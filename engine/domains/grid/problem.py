"""A path on a grid map from one cell to another, as a problem of the domain contract (``engine.search.domain``).

States are cells (x, y); a move is a compass direction (``model.MOVES``), its inverse the opposite one. Costs are not
symmetric on a weighted grid (a move pays for the cell it enters), so bidirectional search, which counts moves, is
offered but its answer's cost is summed along the forward path. The scene is the map and its ends; a state's
picture is its cell (``GridDrawing``).
"""

from __future__ import annotations

import functools

from engine.core.errors import PuzzleError
from engine.core.params import choice
from engine.domains.grid.model import (
    HEURISTIC_LABELS,
    INVERSE,
    MOVES,
    Grid,
    check_heuristic,
    grid_from_rows,
    heuristic_value,
)
from engine.search.domain import Domain
from engine.search.view import Drawing

STEP_MAX_CELLS = 64 * 64  # a request's grid for the step-through: one the page can draw and a person can read
_STEPS = {name: (dx, dy) for name, dx, dy in MOVES}


class GridDomain(Domain):
    name = "grid"
    reversible = True  # every move can be undone by the opposite one (at the cost of the cell it re-enters)

    def __init__(self, grid: Grid, start: tuple[int, int], goal: tuple[int, int], heuristic: str = "octile"):
        for end, (x, y) in (("start", start), ("goal", goal)):
            if not grid.is_open(x, y):
                raise PuzzleError(f"the {end} ({x}, {y}) must be an open cell of the {grid.width}×{grid.height} grid")
        self.grid = grid
        self.initial, self.goal = tuple(start), tuple(goal)
        self.heuristic_name = check_heuristic(heuristic, grid.connect)
        self.unit_costs = grid.connect == 4 and grid.least == grid.most == 1
        self._least = grid.least
        self._moves: dict[tuple[int, int], dict[str, tuple[tuple[int, int], float]]] = {}

    def _from(self, state: tuple[int, int]) -> dict[str, tuple[tuple[int, int], float]]:
        if state not in self._moves:
            self._moves[state] = {name: ((x, y), cost) for name, x, y, cost in self.grid.moves(*state)}
        return self._moves[state]

    def actions(self, state: tuple[int, int]) -> tuple[str, ...]:
        return tuple(self._from(state))

    def result(self, state: tuple[int, int], action: str) -> tuple[int, int]:
        dx, dy = _STEPS[action]
        return state[0] + dx, state[1] + dy

    def is_goal(self, state: tuple[int, int]) -> bool:
        return state == self.goal

    def h(self, state: tuple[int, int]) -> float:
        return heuristic_value(self.heuristic_name, abs(state[0] - self.goal[0]), abs(state[1] - self.goal[1]),
                               self._least)

    def cost(self, state: tuple[int, int], action: str) -> float:
        return self._from(state)[action][1]

    def inverse(self, state: tuple[int, int], action: str) -> str:
        return INVERSE[action]

    def format_path(self, path: tuple) -> str:
        return " ".join(path)

    @functools.cached_property
    def _compiled(self):
        from engine.domains.grid.compiled import compiled_grid

        return compiled_grid(self)

    def compiled(self):
        """The hooks, made once per problem (a solve asks for them as it loads its kernel and again as it runs)."""
        return self._compiled


class GridDrawing(Drawing):
    """A grid map's page: the map with its two ends, a state as its cell [x, y]."""

    problem: GridDomain

    def encode(self, state: tuple[int, int]) -> list[int]:
        return list(state)

    def picture(self, state: tuple[int, int]) -> dict:
        return {"cell": list(state)}

    def scene(self) -> dict:
        grid = self.problem.grid
        return {"width": grid.width, "height": grid.height, "rows": grid.rows(), "connect": grid.connect,
                "start": list(self.problem.initial), "goal": list(self.problem.goal)}


def _cell(value: object, what: str) -> tuple[int, int]:
    if not (isinstance(value, list) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise PuzzleError(f"the {what} must be a cell [x, y] (x the column, y the row)")
    return value[0], value[1]


def grid_problem(data: dict) -> GridDomain:
    """The problem a request names: ``{"grid": {"rows": [...], "connect": 8, "start": [x, y], "goal": [x, y]},
    "heuristic": "octile"}``."""
    spec = data.get("grid")
    if not isinstance(spec, dict):
        raise PuzzleError('the grid must be an object such as {"rows": ["...", ".#."], "start": [0, 0], '
                          '"goal": [2, 2], "connect": 8}')
    grid = grid_from_rows(spec.get("rows"), spec.get("connect", 8), STEP_MAX_CELLS)
    heuristic = choice(data, "heuristic", tuple(HEURISTIC_LABELS),
                       "octile" if grid.connect == 8 else "manhattan")
    return GridDomain(grid, _cell(spec.get("start"), "start"), _cell(spec.get("goal"), "goal"), heuristic)
