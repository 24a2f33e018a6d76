"""Grid maps: walls and weighted cells, 4- or 8-connected, and Moving AI's benchmark formats.

``model``: cells, moves, costs, heuristics and the file formats; ``problem``: a path on a grid as a problem of the
domain contract; ``compiled``: its hooks for the compiled best-first search (imported when a search runs).
"""

from engine.domains.grid.model import HEURISTIC_LABELS, Grid, grid_from_rows, read_map, read_scenarios
from engine.domains.grid.problem import GridDomain, GridDrawing, grid_problem
from engine.search.domain import DomainKind, register_domain
from engine.search.view import JsonView

#: a wall to go round with its corners uncut, and weighted cells that make the longer way cheaper (4-connected)
EXAMPLE_REQUESTS = (
    {"grid": {"rows": ["....", ".##.", "..#.", "...."], "start": [0, 0], "goal": [3, 2], "connect": 8}},
    {"grid": {"rows": [".9..", ".9#.", "...."], "start": [0, 0], "goal": [3, 0], "connect": 4},
     "heuristic": "manhattan"},
)
#: painted in the step-through, cell by cell (js/step/grid.js binds the editor)
VIEW = JsonView("grid", "Grid map: draw walls and weights", "step/grid_editor.html")
KIND = register_domain(DomainKind("grid", "A grid map", grid_problem, tuple(HEURISTIC_LABELS), EXAMPLE_REQUESTS,
                                  HEURISTIC_LABELS, view=VIEW, drawing=GridDrawing))

__all__ = ["KIND", "Grid", "GridDomain", "grid_from_rows", "grid_problem", "read_map", "read_scenarios"]
