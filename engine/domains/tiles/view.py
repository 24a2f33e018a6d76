"""The tile kind's view in the step-through (``DomainKind.view``): how ``/step``'s query names a board and how the
step-through builds and shows it; and its drawing (``DomainKind.drawing``): a board as its cells.

Query fields: ``size`` (``3x3``, ``2x4``, …), ``tiles`` (the start, ``8,1,3,4,0,2,7,6,5``; without it a no-revisit
scramble of ``scramble`` moves with random seed ``seed``, which ``resolved`` writes as the tiles it gives), ``goal``
(``blank-last`` or ``blank-first``), ``heuristic`` (a registered heuristic made for every board); ``data`` (the
board's rows, or a square board's cells, as JSON, as any kind's view takes its JSON) stands for ``tiles``. The view's
data is a dict of these.
"""

from __future__ import annotations

from engine.core.errors import PuzzleError
from engine.core.params import choice, integer, json_value, text
from engine.domains.tiles.board import Board, board_shape, parse_goal, parse_size, parse_tiles
from engine.domains.tiles.heuristics import heuristics
from engine.domains.tiles.problem import SlidingTileProblem
from engine.domains.tiles.random import scramble
from engine.domains.tiles.solvability import check_solvable
from engine.search.view import Drawing

STEP_MAX_CELLS = 12  # the step-through records every node; larger boards make trees nobody can read
STEP_BOARDS = ("3x3", "2x3", "2x4", "2x5", "2x6")
DEFAULT = {"size": "3x3", "scramble": 4, "seed": 1, "goal": "blank-last"}


class TileDrawing(Drawing):
    """A board's page: its size and goal shared, a state as its cells row by row."""

    problem: SlidingTileProblem

    def encode(self, state: Board) -> list[int]:
        return list(state.cells)

    def scene(self) -> dict:
        goal = self.problem.goal
        return {"rows": goal.rows, "cols": goal.cols, "goal": list(goal.cells)}

    def picture(self, state: Board) -> dict:
        return {"cells": list(state.cells)}


def heuristic_labels() -> dict[str, str]:
    """The heuristics the step-through offers on a board: those made for every board (name → label)."""
    return {name: record.label for name, record in heuristics().items() if record.shape is None}


class TileView:
    """The step-through's codec of a board (the module's docstring names its fields)."""

    boards = STEP_BOARDS
    default_heuristic = "manhattan"
    label = "Sliding tiles"  # its option in /step's Problem menu
    #: the board's editor in /step's form (app/templates/; app/static/js/step/tiles.js binds it)
    editor = "step/tiles_editor.html"

    def heuristics(self) -> dict[str, str]:
        return heuristic_labels()

    def read(self, args) -> dict:
        """The view's data from a query (``request.args`` or any mapping of field to text)."""
        size = text(args, "size", 10, "3x3")
        rows, cols = parse_size(size)
        cells = text(args, "tiles", 400, "").strip()
        if not cells and args.get("data"):
            cells = json_value(text(args, "data", 400, ""), "data (the tiles)")
            if isinstance(cells, list) and args.get("size") is None:
                size = board_shape(cells)
                rows, cols = parse_size(size)
        data = {"size": size, "goal": choice(args, "goal", ("blank-last", "blank-first"), "blank-last")}
        if cells:
            data["tiles"] = list(parse_tiles(cells, rows, cols))
        else:
            data.update(scramble=integer(args, "scramble", 0, 30, 4), seed=integer(args, "seed", 0, 2**31 - 1, 1))
        return data

    def write(self, data: dict | None) -> dict:
        """The query fields of the view's data, in a fixed order."""
        data = data or DEFAULT
        fields = {"size": data["size"]}
        if data.get("tiles") is None:
            fields.update(scramble=data["scramble"], seed=data["seed"])
        else:
            fields["tiles"] = ",".join(map(str, data["tiles"]))
        fields["goal"] = data["goal"]
        return fields

    def form(self, data: dict | None) -> dict:
        """What the page's tile editor shows."""
        return {**DEFAULT, **(data or {})}

    def request(self, data: dict | None) -> dict:
        """The ``/api/step`` request's fields for the view's data."""
        return dict(data or DEFAULT)

    def problem(self, data: dict) -> SlidingTileProblem:
        """The step-through's problem from a request: a board of at most ``STEP_MAX_CELLS`` cells, its tiles or a
        scramble of its goal, which must reach the goal."""
        rows, cols = parse_size(str(data.get("size", "3x3")))
        if rows * cols > STEP_MAX_CELLS:
            raise PuzzleError(f"the step-through is offered for boards of at most {STEP_MAX_CELLS} cells "
                              f"({rows}x{cols} has {rows * cols}); solve larger boards on the Play page")
        goal = parse_goal(data.get("goal", "blank-last"), rows, cols)
        if data.get("tiles") not in (None, ""):
            board = Board(rows, cols, parse_tiles(data["tiles"], rows, cols))
        else:  # no position given: a no-revisit scramble of the goal (default 4 moves, small enough to read)
            moves = integer(data, "scramble", 0, 30, 4)
            seed = data.get("seed")
            board = scramble(goal, moves, seed if isinstance(seed, int) else None)[0]
        verdict = check_solvable(board, goal)
        if not verdict.solvable:
            raise PuzzleError(f"this position cannot reach the goal. {verdict.explanation}")
        heuristic = choice(data, "heuristic", tuple(heuristic_labels()), self.default_heuristic)
        return SlidingTileProblem(board, goal, heuristic)

    def resolved(self, data: dict | None, problem: SlidingTileProblem) -> dict:
        """The view's data with a scramble replaced by the position it gives, so its link shows that board for good."""
        data = dict(data or DEFAULT)
        if data.get("tiles") is None:
            data = {"size": data.get("size", "3x3"), "tiles": list(problem.initial.cells),
                    "goal": data.get("goal", "blank-last")}
        return data

    def answer(self, problem: SlidingTileProblem) -> dict:
        """What the page draws the board with, beside the traces."""
        return {"rows": problem.initial.rows, "cols": problem.initial.cols, "start": list(problem.initial.cells),
                "goal": list(problem.goal.cells)}


TILE_VIEW = TileView()
