"""A grid map: its cells (walls and weights), its moves and their costs, its heuristics, and Moving AI's formats.

Cells are (x, y): x the column, y the row, (0, 0) at the top left, as in Moving AI's files. A cell is a wall or
open with a weight (a positive number, 1 unless drawn heavier). Moves: 4-connected N E S W; 8-connected also NE SE
SW NW. The cost rule: a move costs its length (1 straight, √2 diagonal) times the weight of the cell it enters. A
diagonal move needs both cells beside it open (it never cuts a blocked corner), as in Moving AI's benchmarks.

Heuristics, with dx, dy the distances to the goal in columns and rows and w the least weight of an open cell (no
move costs less than its length × w): ``manhattan`` w·(dx + dy) (4-connected only: a diagonal move covers both in
√2); ``octile`` w·(max + (√2 − 1)·min), the cost with no walls when 8-connected, below Manhattan when 4-connected;
``euclidean`` w·√(dx² + dy²); ``zero``. Each is admissible and consistent for the connectivities it is offered on.

Text forms: a request's ``rows`` ("." open, "#" or "@" or "T" a wall, a digit 1-9 an open cell of that weight) and
Moving AI's ``.map`` (``type octile``; "." and "G" open, "@", "O" and "T" walls) and ``.scen`` (version 1).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from engine.core.errors import PuzzleError

SQRT2 = math.sqrt(2.0)
#: (name, dx, dy) in the order searches generate children; the first four are the 4-connected moves
MOVES = (("N", 0, -1), ("E", 1, 0), ("S", 0, 1), ("W", -1, 0), ("NE", 1, -1), ("SE", 1, 1), ("SW", -1, 1),
         ("NW", -1, -1))
INVERSE = {"N": "S", "S": "N", "E": "W", "W": "E", "NE": "SW", "SW": "NE", "SE": "NW", "NW": "SE"}
#: every heuristic a grid offers, with its name for people: the one list of them (the kind, the request's choices, the
#: step-through's menu and the CLI read it)
HEURISTIC_LABELS = {"manhattan": "Manhattan (4 directions only)", "octile": "octile", "euclidean": "Euclidean",
                    "zero": "none (h = 0)"}
#: those a grid of each connectivity offers: Manhattan distance overestimates a diagonal move
HEURISTICS = {4: tuple(HEURISTIC_LABELS), 8: tuple(name for name in HEURISTIC_LABELS if name != "manhattan")}
MAX_SIDE = 4096
MAX_CELLS = 1 << 22  # a 2048×2048 map: the compiled search keeps about 30 bytes per cell
WALLS = "#@TO"


@dataclass(frozen=True, eq=False)  # compared (and cached) by identity: its arrays have no hash
class Grid:
    open: np.ndarray  # bool (height, width)
    weight: np.ndarray  # float64 (height, width), 1 where not drawn heavier (walls too, never read)
    connect: int = 8

    @property
    def width(self) -> int:
        return self.open.shape[1]

    @property
    def height(self) -> int:
        return self.open.shape[0]

    @functools.cached_property
    def least(self) -> float:
        """The least weight of an open cell (1 when none is open)."""
        return float(self.weight[self.open].min()) if self.open.any() else 1.0

    @functools.cached_property
    def most(self) -> float:
        """The greatest weight of an open cell (1 when none is open)."""
        return float(self.weight[self.open].max()) if self.open.any() else 1.0

    def is_open(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height and bool(self.open[y, x])

    def moves(self, x: int, y: int) -> list[tuple[str, int, int, float]]:
        """The moves from (x, y): (name, x', y', cost), in ``MOVES`` order."""
        found = []
        for name, dx, dy in MOVES[:self.connect]:
            tx, ty = x + dx, y + dy
            if not self.is_open(tx, ty) or (dx and dy and not (self.is_open(tx, y) and self.is_open(x, ty))):
                continue
            found.append((name, tx, ty, (SQRT2 if dx and dy else 1.0) * float(self.weight[ty, tx])))
        return found

    def rows(self) -> list[str]:
        """The request's text form of the cells."""
        return ["".join("#" if not self.open[y, x] else ("." if self.weight[y, x] == 1 else f"{self.weight[y, x]:g}")
                        for x in range(self.width)) for y in range(self.height)]


def heuristic_value(name: str, dx: int, dy: int, least_weight: float) -> float:
    """The estimate from a cell dx columns and dy rows from the goal (the module docstring says which is which)."""
    if name == "manhattan":
        return least_weight * (dx + dy)
    if name == "octile":
        return least_weight * (max(dx, dy) + (SQRT2 - 1.0) * min(dx, dy))
    if name == "euclidean":
        return least_weight * math.sqrt(dx * dx + dy * dy)
    return 0.0


def check_heuristic(name: object, connect: int) -> str:
    if name not in HEURISTICS[connect]:
        raise PuzzleError(f"a {connect}-connected grid offers the heuristics {', '.join(HEURISTICS[connect])} "
                          f"(not {name!r}): Manhattan distance overestimates where diagonal moves are allowed")
    return name


def _check_size(width: int, height: int) -> None:
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE) or width * height > MAX_CELLS:
        raise PuzzleError(f"a grid must be 1 to {MAX_SIDE} cells wide and high and have at most {MAX_CELLS:,} "
                          f"cells (got {width}×{height})")


def grid_from_rows(rows: object, connect: object = 8, max_cells: int = MAX_CELLS) -> Grid:
    """A grid from a request's rows ("." open, "#" a wall, "1"-"9" an open cell of that weight)."""
    if connect not in (4, 8):
        raise PuzzleError("connect must be 4 or 8")
    if not isinstance(rows, list) or not rows or not all(isinstance(r, str) for r in rows):
        raise PuzzleError('the grid must be a list of rows of text, such as ["..#", "5.."]')
    height, width = len(rows), len(rows[0]) if isinstance(rows[0], str) else 0
    _check_size(width, height)
    if width * height > max_cells:
        raise PuzzleError(f"this grid has {width * height:,} cells; here at most {max_cells:,}")
    if any(len(row) != width for row in rows):
        raise PuzzleError(f"every row of the grid must be {width} cells long")
    text = "".join(rows)
    unknown = set(text) - set(".123456789" + WALLS)
    if unknown:
        raise PuzzleError(f"a grid's cells are '.', '#' or a weight 1-9 (not {''.join(sorted(unknown))!r})")
    cells = np.frombuffer(text.encode(), dtype=np.uint8).reshape(height, width)
    digits = (cells >= ord("1")) & (cells <= ord("9"))
    weight = np.where(digits, cells.astype(np.float64) - ord("0"), 1.0)
    return Grid((cells == ord(".")) | digits, weight, int(connect))


def read_map(text: str) -> Grid:
    """A Moving AI ``.map`` file (``type octile``), 8-connected."""
    lines = text.splitlines()
    header: dict[str, str] = {}
    for i, line in enumerate(lines):
        if line.strip() == "map":
            body = lines[i + 1:]
            break
        key, _, value = line.strip().partition(" ")
        header[key] = value.strip()
    else:
        raise PuzzleError("a .map file has a header (type, height, width) and then a line 'map'")
    if header.get("type") != "octile":
        raise PuzzleError(f"only 'type octile' maps are read (this one is {header.get('type')!r})")
    try:
        height, width = int(header["height"]), int(header["width"])
    except (KeyError, ValueError):
        raise PuzzleError("a .map file's header gives its height and width as whole numbers") from None
    _check_size(width, height)
    body = [row.rstrip("\r") for row in body[:height]]
    if len(body) != height or any(len(row) != width for row in body):
        raise PuzzleError(f"the map must have {height} rows of {width} cells")
    cells = np.frombuffer("".join(body).encode("latin-1"), dtype=np.uint8).reshape(height, width)
    known = np.isin(cells, np.frombuffer(b".G@OT", dtype=np.uint8))
    if not known.all():
        y, x = map(int, np.argwhere(~known)[0])
        raise PuzzleError(f"terrain {chr(cells[y, x])!r} at ({x}, {y}) is not read: open cells are '.' or 'G', "
                          "walls '@', 'O' or 'T' (swamp and water are not supported)")
    return Grid((cells == ord(".")) | (cells == ord("G")), np.ones((height, width)), 8)


@dataclass(frozen=True)
class Scenario:
    start: tuple[int, int]
    goal: tuple[int, int]
    listed: float  # the optimal cost the file gives


MAX_SCENARIOS = 100_000


def read_scenarios(text: str) -> list[Scenario]:
    """A Moving AI ``.scen`` file, version 1: per line bucket, map, width, height, start x, y, goal x, y, cost."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines or lines[0].split() != ["version", "1"]:
        raise PuzzleError("a .scen file starts with 'version 1'")
    if len(lines) > MAX_SCENARIOS + 1:
        raise PuzzleError(f"at most {MAX_SCENARIOS:,} scenarios per file")
    found = []
    for number, line in enumerate(lines[1:], start=2):
        fields = line.split("\t") if "\t" in line else line.split()
        try:
            sx, sy, gx, gy = (int(f) for f in fields[4:8])
            found.append(Scenario((sx, sy), (gx, gy), float(fields[8])))
        except (IndexError, ValueError):
            raise PuzzleError(f"line {number} of the .scen file is not 'bucket map width height sx sy gx gy cost'"
                              ) from None
    return found
