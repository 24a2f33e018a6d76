"""An immutable sliding-tile board and everything needed to read, write and move it.

Notation (docs/SPEC.md): tiles are 1..mn-1, 0 is the blank, cells are numbered row-major from 0, and a move is named by
the direction the *blank* travels: ``U`` (up), ``D`` (down), ``L`` (left), ``R`` (right).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from math import isqrt

from engine.core.errors import PuzzleError
from engine.core.params import json_value

#: Largest board offered for play (6×6); solvers state their own, smaller, practical limits.
MAX_CELLS = 36
#: Boards whose whole state space fits the rank-indexed BFS (12! ranks is 479 MB of one byte each).
BFS_MAX_CELLS = 12
#: Boards whose distance table (one full BFS from the goal) is kept on disk for the ``table`` solver.
PERFECT_MAX_CELLS = 10
MOVES = "UDLR"
#: (row step, column step) of the blank for each move letter.
STEP = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
INVERSE = {"U": "D", "D": "U", "L": "R", "R": "L"}

GOAL_CONVENTIONS = ("blank-first", "blank-last")


@dataclass(frozen=True)
class Board:
    """A position: ``cells[i]`` is the tile in cell ``i`` (row-major), 0 the blank."""

    rows: int
    cols: int
    cells: tuple[int, ...]

    def __post_init__(self) -> None:
        check_size(self.rows, self.cols, min_side=1)
        validate_cells(self.cells, self.rows * self.cols)

    @property
    def size(self) -> int:
        return self.rows * self.cols

    @cached_property
    def blank(self) -> int:
        return self.cells.index(0)

    def position_of(self, tile: int) -> int:
        return self.cells.index(tile)

    def neighbor(self, cell: int, move: str) -> int | None:
        """The cell the blank reaches from ``cell`` by ``move``, or None if that leaves the board."""
        dr, dc = STEP[move]
        r, c = divmod(cell, self.cols)
        r, c = r + dr, c + dc
        if 0 <= r < self.rows and 0 <= c < self.cols:
            return r * self.cols + c
        return None

    def legal_moves(self) -> str:
        return "".join(m for m in MOVES if self.neighbor(self.blank, m) is not None)

    def move(self, move: str) -> Board:
        target = self.neighbor(self.blank, move) if move in STEP else None
        if target is None:
            raise PuzzleError(f"move {move!r} is not possible here: the blank is at row {self.blank // self.cols + 1}, "
                              f"column {self.blank % self.cols + 1}")
        cells = list(self.cells)
        cells[self.blank], cells[target] = cells[target], 0
        return Board(self.rows, self.cols, tuple(cells))

    def apply(self, moves: str) -> Board:
        """Play a move string; an illegal move raises PuzzleError naming its 0-based index."""
        board = self
        for index, move in enumerate(moves.upper()):
            target = board.neighbor(board.blank, move) if move in STEP else None
            if target is None:
                reason = "is not one of U, D, L, R" if move not in STEP else "would move the blank off the board"
                raise PuzzleError(f"move {index} ({move!r}) {reason}")
            board = board.move(move)
        return board

    def grid(self) -> list[list[int]]:
        return [list(self.cells[r * self.cols:(r + 1) * self.cols]) for r in range(self.rows)]

    def text(self) -> str:
        """The compact text form, rows separated by '/': ``"8 6 7/2 5 4/3 0 1"``."""
        return "/".join(" ".join(str(t) for t in row) for row in self.grid())

    def pretty(self) -> str:
        width = len(str(self.size - 1))
        return "\n".join(" ".join(("." if t == 0 else str(t)).rjust(width) for t in row) for row in self.grid())

    @property
    def size_name(self) -> str:
        return f"{self.rows}x{self.cols}"

    def __str__(self) -> str:
        return self.text()


def half_turn(board: Board) -> Board:
    """The board turned by 180° with tile t renamed n - t (the blank stays 0): the blank-first goal becomes the
    blank-last one and back, and a position's distance to a goal equals its half-turn's distance to the goal's
    half-turn (each move of the blank turns into the opposite move). So a table built for one of the two goals
    serves the other: a position is searched as its half-turn (``engine.domains.tiles.pdb``)."""
    n = board.size
    return Board(board.rows, board.cols, tuple((n - tile) % n for tile in reversed(board.cells)))


def half_turn_moves(moves: str) -> str:
    """The moves that replay, on a board, what ``moves`` do on its half-turn."""
    return moves.translate(str.maketrans("UDLR", "DURL"))


def check_size(rows: int, cols: int, min_side: int = 2) -> None:
    if rows < min_side or cols < min_side:
        raise PuzzleError(f"a board needs at least {min_side} rows and {min_side} columns (got {rows}x{cols})")
    if rows * cols > MAX_CELLS:
        raise PuzzleError(f"{rows}x{cols} has {rows * cols} cells; the playground allows at most {MAX_CELLS} (6x6)")


def parse_size(text: str) -> tuple[int, int]:
    """``"3x3"`` → (3, 3). Accepts x, X, × or * between the numbers."""
    match = re.fullmatch(r"\s*([0-9]{1,4})\s*[xX×*]\s*([0-9]{1,4})\s*", text) if isinstance(text, str) else None
    if not match:
        shown = repr(text) if isinstance(text, str) and len(text) <= 20 else "this"
        raise PuzzleError(f"size {shown} is not of the form RxC, for example 3x3 or 2x5")
    rows, cols = int(match.group(1)), int(match.group(2))
    check_size(rows, cols)
    return rows, cols


def validate_cells(cells: tuple[int, ...], size: int) -> None:
    """Check that ``cells`` holds each of 0..size-1 exactly once; the message names the first problem found (too
    many numbers first: 16 numbers typed for a 3×3 board are a 15-puzzle, not a tile out of range)."""
    if len(cells) > size:
        raise PuzzleError(f"expected {size} numbers (tiles 1..{size - 1} and 0 for the blank), got {len(cells)}: "
                          "choose the board size that has that many cells")
    for tile in cells:
        if not 0 <= tile < size:
            raise PuzzleError(f"tile {tile} is out of range: use 1..{size - 1} and 0 for the blank")
    counts: dict[int, int] = {}
    for tile in cells:
        counts[tile] = counts.get(tile, 0) + 1
    twice = [t for t, n in counts.items() if n > 1]
    missing = [t for t in range(size) if t not in counts]
    name = lambda t: "the blank (0)" if t == 0 else f"tile {t}"  # noqa: E731
    if twice:
        extra = f"; {name(missing[0])} is missing" if missing else ""
        raise PuzzleError(f"{name(twice[0])} appears twice{extra}")
    if len(cells) != size:
        extra = f": {name(missing[0])} is missing" if missing else ""
        raise PuzzleError(f"expected {size} numbers (tiles 1..{size - 1} and 0 for the blank), "
                          f"got {len(cells)}{extra}")


def cell_words(text: str) -> list[str]:
    """The numbers of a text of cells, between spaces, commas or semicolons (rows split at ``/`` first)."""
    return [word for word in re.split(r"[\s,;]+", text.strip()) if word]


def parse_tiles(value: object, rows: int, cols: int) -> tuple[int, ...]:
    """Read tiles from text (``"8 6 7/2 5 4/3 0 1"``, commas or spaces), a JSON list, or a Python sequence."""
    size = rows * cols
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("["):
            try:
                value = json_value(text, "the text")
            except PuzzleError as error:
                raise PuzzleError(f"the tiles do not parse: {error}") from None
        else:
            value = cell_words(text.replace("/", " "))
    if not isinstance(value, (list, tuple)):
        raise PuzzleError("tiles must be a list of numbers or a text such as '8 6 7/2 5 4/3 0 1'")
    flat: list[object] = []
    for item in value:  # a grid (list of rows) is accepted too
        flat.extend(item if isinstance(item, (list, tuple)) else [item])
    tiles = []
    for item in flat:
        # ASCII digits only: str.isdigit() accepts "¹" and "٣", which int() then refuses or misreads
        if isinstance(item, bool) or not (isinstance(item, int) or (isinstance(item, str)
                                                                     and re.fullmatch(r"[0-9]{1,4}", item))):
            shown = repr(item) if len(repr(item)) <= 20 else f"{repr(item)[:20]}…"
            raise PuzzleError(f"{shown} is not a tile number")
        tiles.append(int(item))
    validate_cells(tuple(tiles), size)
    return tuple(tiles)


def goal_board(rows: int, cols: int, convention: str = "blank-last") -> Board:
    """The goal for a named convention: ``blank-first`` (0 1 2 …, seeds 000 and 002) or ``blank-last`` (1 2 … 0)."""
    size = rows * cols
    if convention == "blank-first":
        return Board(rows, cols, tuple(range(size)))
    if convention == "blank-last":
        return Board(rows, cols, tuple(range(1, size)) + (0,))
    raise PuzzleError(f"unknown goal {convention!r}: use blank-first, blank-last or a list of tiles")


def parse_goal(spec: object, rows: int, cols: int) -> Board:
    """A goal is a convention name or any arrangement of the tiles."""
    if isinstance(spec, str) and spec.strip() in GOAL_CONVENTIONS:
        return goal_board(rows, cols, spec.strip())
    if spec is None or spec == "":
        return goal_board(rows, cols, "blank-last")
    if isinstance(spec, str) and not any(ch.isdigit() for ch in spec):
        raise PuzzleError(f"unknown goal {spec!r}: use blank-first, blank-last or a list of tiles")
    try:
        return Board(rows, cols, parse_tiles(spec, rows, cols))
    except PuzzleError as exc:
        raise PuzzleError(f"goal: {exc}") from None


def parse_board(size: str, tiles: object) -> Board:
    rows, cols = parse_size(size)
    return Board(rows, cols, parse_tiles(tiles, rows, cols))


def board_shape(tiles: object) -> str:
    """The size (``"2x4"``) of a board given by its cells alone: its rows (a list of lists, or a text with ``/``
    between rows, ``"1 2 3 4/5 6 7 0"``) or a square board's cells (a list, or a text of numbers)."""
    if isinstance(tiles, str) and "/" in tiles:
        rows: list = [cell_words(row) for row in tiles.strip().split("/")]
    elif isinstance(tiles, list) and tiles and all(isinstance(row, list) for row in tiles):
        rows = tiles
    elif isinstance(tiles, list) and any(isinstance(row, list) for row in tiles):
        raise PuzzleError("tiles must be the board's rows (each a list of numbers) or its cells, not a mix of both")
    else:
        count = len(tiles) if isinstance(tiles, list) else len(cell_words(tiles)) if isinstance(tiles, str) else 0
        side = isqrt(count)
        if count < 4 or side * side != count:
            raise PuzzleError(f"missing field 'size': {count} cells are not a square board, so give its size (for "
                              "example \"2x4\") or its rows ([[1,2,3,4],[5,6,7,0]] or \"1 2 3 4/5 6 7 0\")")
        return f"{side}x{side}"
    if len({len(row) for row in rows}) != 1:
        raise PuzzleError(f"the board's rows are of different lengths ({', '.join(str(len(row)) for row in rows)}): "
                          "every row of a board has as many cells")
    return f"{len(rows)}x{len(rows[0])}"


def position_from(params: dict, tiles_key: str = "tiles") -> tuple[Board, Board]:
    """(position, goal) from a request-like dict with ``size``, ``goal`` and ``tiles``; clear messages if missing."""
    if not isinstance(params, dict):
        raise PuzzleError("expected a JSON object with size, goal and tiles")
    if "size" not in params:
        raise PuzzleError("missing field 'size' (for example \"3x3\")")
    rows, cols = parse_size(params["size"])
    goal = parse_goal(params.get("goal", "blank-last"), rows, cols)
    if tiles_key not in params or params[tiles_key] in (None, ""):
        raise PuzzleError(f"missing field '{tiles_key}' (the position, for example [8,6,7,2,5,4,3,0,1])")
    return Board(rows, cols, parse_tiles(params[tiles_key], rows, cols)), goal
