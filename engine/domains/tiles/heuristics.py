"""The tile heuristics: one record each (``Heuristic``) in one registry, and the plain-Python functions that are the
readable references of the numba kernels (tests/engine/domains/tiles/test_kernels.py checks they agree).

The built-in heuristics register here; a subject registers its own from its package
(``engine.subjects.learned.heuristic`` registers ``learned``), and ``engine.core.registry.load_all()`` imports every
such module, so a lookup of a name not yet registered loads them first. The solvers (which heuristics A* and IDA* take,
which are admissible), the pages' choices, the step-through's list and the CLI's help all read this registry.

Adding a heuristic: its plain-Python function and a ``register_heuristic(Heuristic(...))``; for the compiled IDA* and
A* also a module holding its ``KernelHeuristic`` (its hooks, the function that builds its inputs and its h of a whole
board, see ``engine.domains.tiles.ida_kernels``), named by the record's ``kernel``. ARCHITECTURE.md works an example
through.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.core import registry
from engine.core.errors import PuzzleError
from engine.domains.tiles import pdb
from engine.domains.tiles.board import Board, goal_board

if TYPE_CHECKING:
    from engine.domains.tiles.ida_kernels import KernelHeuristic

#: Builds h for a goal; ``options`` are the solve's own (``{"table": name}`` picks a learned table).
HeuristicBuilder = Callable[[Board, dict], Callable[[Board], int]]
#: (the heuristic used, the compiled IDA*'s table arguments, a note when it is not the one asked for).
KernelInputs = tuple[str, dict, str]


@dataclass(frozen=True)
class Heuristic:
    name: str
    label: str
    description: str
    #: never overestimates, so A* and IDA* answers found with it are optimal
    admissible: bool
    function: HeuristicBuilder
    #: the one board shape it is made for; None: every board
    shape: tuple[int, int] | None = None
    #: where its compiled searches are (IDA*, and A* when it gives h of a whole board), ``"module:NAME"`` (a
    #: ``KernelHeuristic``), imported when a search first runs it (so listing heuristics loads no compiler); None: only
    #: the readable searches use it, the solvers do not offer it
    kernel: str | None = None
    #: loads what the kernel reads (a pattern database, a trained table), possibly another heuristic's when this one's
    #: table is missing; None: nothing to load
    kernel_inputs: Callable[[Board, dict], KernelInputs] | None = None
    #: whether it can be offered now for a board (e.g. a table has been trained); None: whenever the shape fits
    available: Callable[[Board], bool] | None = None
    #: cheap per node and loading nothing, so the web process tries a small solve with it itself, under a node cap
    #: (``solve_cost.quick_nodes``); a quick heuristic has both compiled searches, IDA* and A*
    quick: bool = False

    def fits(self, board: Board) -> bool:
        return self.shape is None or (board.rows, board.cols) == self.shape

    def offered_for(self, board: Board) -> bool:
        return self.fits(board) and (self.available is None or self.available(board))

    def inputs(self, goal: Board, options: dict) -> KernelInputs:
        return self.kernel_inputs(goal, options) if self.kernel_inputs is not None else (self.name, {}, "")

    def compiled(self) -> KernelHeuristic:
        """Its compiled IDA* (the kernel and the builder of its inputs)."""
        if self.kernel is None:
            raise PuzzleError(f"the {self.label} heuristic has no compiled search; the readable searches take it")
        module, _, name = self.kernel.partition(":")
        return getattr(importlib.import_module(module), name)


HEURISTICS: registry.Registry[Heuristic] = registry.Registry("heuristic")
register_heuristic = HEURISTICS.add


def heuristics() -> dict[str, Heuristic]:
    """Every registered heuristic, in registration order (the built-in ones first)."""
    return HEURISTICS.all()


def heuristic(name: str) -> Heuristic:
    return HEURISTICS.named(name)


def search_heuristics() -> tuple[str, ...]:
    """The heuristics A* and IDA* take: those with a compiled IDA* (the compiled A* takes those of them whose kernel
    gives h of a whole board; the readable A* the others)."""
    return tuple(name for name, record in heuristics().items() if record.kernel is not None)


def heuristic_function(name: str, goal: Board, options: dict | None = None) -> Callable[[Board], int]:
    return heuristic(name).function(goal, options or {})


def manhattan_distance(board: Board, goal: Board) -> int:
    """Sum over tiles (not the blank) of the row and column distance to the tile's goal cell."""
    where = {tile: divmod(cell, goal.cols) for cell, tile in enumerate(goal.cells)}
    total = 0
    for cell, tile in enumerate(board.cells):
        if tile:
            r, c = divmod(cell, board.cols)
            gr, gc = where[tile]
            total += abs(r - gr) + abs(c - gc)
    return total


def longest_increasing_run(values: list[int]) -> int:
    best = [1] * len(values)
    for i in range(len(values)):
        for j in range(i):
            if values[j] < values[i]:
                best[i] = max(best[i], best[j] + 1)
    return max(best, default=0)


def linear_conflicts(board: Board, goal: Board) -> int:
    """Tiles that must leave their line: for each row and column, the tiles already in their goal line minus the
    longest run of them already in goal order. Each such tile costs two moves beyond Manhattan distance."""
    where = {tile: divmod(cell, goal.cols) for cell, tile in enumerate(goal.cells)}
    total = 0
    for r in range(board.rows):
        row = [board.cells[r * board.cols + c] for c in range(board.cols)]
        places = [where[t][1] for t in row if t and where[t][0] == r]
        total += len(places) - longest_increasing_run(places)
    for c in range(board.cols):
        col = [board.cells[r * board.cols + c] for r in range(board.rows)]
        places = [where[t][0] for t in col if t and where[t][1] == c]
        total += len(places) - longest_increasing_run(places)
    return total


def linear_conflict_distance(board: Board, goal: Board) -> int:
    return manhattan_distance(board, goal) + 2 * linear_conflicts(board, goal)


def misplaced_tiles(board: Board, goal: Board) -> int:
    """The number of tiles not on their goal cell: admissible (each needs a move) but weaker than Manhattan distance.
    Only the step-through offers it, to show what a better-informed h saves."""
    return sum(1 for tile, want in zip(board.cells, goal.cells, strict=True) if tile and tile != want)


PDB_KERNEL = "engine.domains.tiles.pdb_kernel:PATTERN_DATABASE"


def _database_function(name: str) -> HeuristicBuilder:
    def build(goal: Board, options: dict) -> Callable[[Board], int]:
        database = pdb.resolve(name, goal)[0] if name == "pdb" else pdb.load(name, goal)
        if database is None:
            made_for = (name,) if name in pdb.SHAPES else pdb.groupings_for(goal)
            if not made_for:
                raise PuzzleError(f"no pattern database is made for a {goal.rows}x{goal.cols} board")
            raise PuzzleError(f"the {name} pattern database is not built yet: {pdb.build_command(made_for[0])}")
        return database.value
    return build


def _database_inputs(name: str) -> Callable[[Board, dict], KernelInputs]:
    """The database the name resolves to now; linear conflict, with a note, when none is built (never built here)."""
    def inputs(goal: Board, options: dict) -> KernelInputs:
        database, note = pdb.resolve(name, goal)
        if database is None:
            return "linear-conflict", {}, note
        return database.name, pdb.kernel_inputs(database), note
    return inputs


register_heuristic(Heuristic(
    "manhattan", "Manhattan distance", "Each tile's row and column distance to its goal cell, summed.", True,
    lambda goal, options: lambda board: manhattan_distance(board, goal),
    kernel="engine.domains.tiles.ida_kernels:MANHATTAN", quick=True))
register_heuristic(Heuristic(
    "linear-conflict", "linear conflict", "Manhattan distance plus two moves for each tile that must leave its row or "
    "column to let another pass.", True,
    lambda goal, options: lambda board: linear_conflict_distance(board, goal),
    kernel="engine.domains.tiles.ida_kernels:LINEAR_CONFLICT", quick=True))
register_heuristic(Heuristic(
    "pdb", "pattern database", "The strongest pattern database built for the goal (7-8, else 6-6-3).", True,
    _database_function("pdb"), shape=(4, 4), kernel=PDB_KERNEL, kernel_inputs=_database_inputs("pdb")))
# The 6×6 database serves ``near-optimal`` only: an optimal 35-puzzle solve is out of reach with any of them.
for _grouping in (g for g in pdb.GROUPINGS if pdb.SHAPES[g] != (6, 6)):
    register_heuristic(Heuristic(
        _grouping, pdb.LABELS[_grouping], f"The {pdb.LABELS[_grouping]} (Korf & Felner).", True,
        _database_function(_grouping), shape=pdb.SHAPES[_grouping], kernel=PDB_KERNEL,
        kernel_inputs=_database_inputs(_grouping),
        # on 5×5, linear conflict in its place would search for hours: offered once the database is built
        available=None if pdb.SHAPES[_grouping] == (4, 4) else (lambda board, g=_grouping: pdb.is_built(
            g, goal_board(board.rows, board.cols, "blank-first")))))
register_heuristic(Heuristic(
    "misplaced", "misplaced tiles", "The number of tiles off their goal cell.", True,
    lambda goal, options: lambda board: misplaced_tiles(board, goal)))
register_heuristic(Heuristic(
    "zero", "none (h = 0)", "No estimate: A* becomes uniform-cost search.", True,
    lambda goal, options: lambda board: 0))
