"""Additive (disjoint) pattern databases for the 4×4 puzzle, after Korf & Felner (2002), with reflection.

Two groupings, both defined by the tiles' *goal cells*, so they work for any 4×4 goal:

* ``pdb-78``: the two rows holding the blank's goal cell (7 tiles) and the other two rows (8 tiles). Korf & Felner's
  7-8 split; 16!/8! = 518,918,400 entries for the 8 group, 16!/9! = 57,657,600 for the 7 group (577 MB on disk).
* ``pdb-663``: the row holding the blank's goal cell (3 tiles), and the other three rows cut into a left and a right
  half (6 tiles each). 5,765,760 entries per 6 group; builds in seconds.

Why these splits: the mirror lookup (the same tables applied to the transposed position, tiles renamed through the
goal's transpose) only prunes when the transpose maps the groups onto a *different* split. Groups above/below/on the
diagonal map onto themselves, so their mirrored sum always equals the direct one; rows map onto columns, so here the
two sums often differ (on 54 of Korf's 100 instances with 7-8) and h = max(direct sum, mirrored sum), still
admissible, prunes more than either (bench/korf100.py: 19,473 mean nodes with 7-8, 633,314 with 6-6-3). The mirror
needs the blank's goal cell on the diagonal (both standard goals); for other goals only the direct sum is used.

For each group a breadth-first search in the space of (its tiles' cells, the blank's cell) counts only moves of the
group's own tiles; the table keeps, per arrangement of the group, the fewest such moves over all blank cells. Moves of
different groups are disjoint, so the group values add up to an admissible heuristic.

Index: the group's cells as a partial permutation ranked in mixed radix (slot s's digit is its cell minus the group
tiles of lower slots in lower cells; ``engine.domains.tiles.ranking``), a bijection onto 16!/(16-k)! entries.

Tables live in the store (``engine.serving.store``) as one ``.npy`` per grouping and goal, memory-mapped when used; a
solve never builds one (``resolve`` falls back and says so; ``engine.domains.tiles.pdb_build`` builds them, for
``engine.domains.tiles.pdb_catalogue``). This module reads tables and needs no compiler: listing the tables imports no
numba.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.core.errors import PuzzleError
from engine.domains.tiles.board import Board, half_turn
from engine.domains.tiles.ranking import lexicographic_radix, partial_rank
from engine.serving import store

#: Named databases, strongest first: ``pdb`` means the first of these built for the board's shape.
GROUPINGS = ("pdb-78", "pdb-663", "pdb-6666", "pdb-5555555")
LABELS = {"pdb-78": "7-8 additive pattern database with reflection",
          "pdb-663": "6-6-3 additive pattern database with reflection",
          "pdb-6666": "6-6-6-6 additive pattern database with reflection",
          "pdb-5555555": "7 × 5-tile additive pattern database with reflection"}
#: The board shape each grouping is made for.
SHAPES = {"pdb-78": (4, 4), "pdb-663": (4, 4), "pdb-6666": (5, 5), "pdb-5555555": (6, 6)}
#: Korf & Felner's 6-6-6-6 split of the 5×5 puzzle, as cells of a goal with the blank in cell 0: the top-left block
#: and its neighbours to the right, below and in the bottom-right corner. Its transpose is another split (the groups
#: are not symmetric about the diagonal), so the mirror lookup prunes.
CELLS_6666 = ((1, 2, 5, 6, 7, 12), (3, 4, 8, 9, 13, 14), (10, 11, 15, 16, 20, 21), (17, 18, 19, 22, 23, 24))
#: A split of the 6×6 puzzle into seven compact 5-cell groups (2×2 blocks with one cell more, and one L), as cells of
#: a goal with the blank in cell 0. Groups of 6 would need 36!/30! = 1.4 billion entries each; groups of 5 need 45
#: million. Not symmetric about the diagonal, so the mirror lookup prunes.
CELLS_5555555 = ((1, 2, 6, 7, 8), (3, 4, 5, 9, 10), (11, 16, 17, 22, 23), (12, 13, 18, 19, 24), (14, 15, 20, 21, 26),
                 (25, 30, 31, 32, 33), (27, 28, 29, 34, 35))
#: The corner splits, by grouping: each is given for the blank's goal in cell 0 and turned for the other corner.
CORNER_SPLITS = {"pdb-6666": CELLS_6666, "pdb-5555555": CELLS_5555555}


def built_by_default(grouping: str) -> bool:
    """Whether a plain ``tables build`` builds ``grouping``: the 15-puzzle's databases (minutes), not the bigger
    boards' (as many minutes more; ``tables build --all``). The app's start-up job builds every one."""
    return SHAPES[grouping] == (4, 4)


def build_command(grouping: str) -> str:
    """The command that builds ``grouping``."""
    return "python -m engine tables build" + ("" if built_by_default(grouping) else " --all")


def groupings_for(board: Board) -> tuple[str, ...]:
    """The groupings made for ``board``'s shape, strongest first."""
    return tuple(g for g in GROUPINGS if SHAPES[g] == (board.rows, board.cols))


def groups_of(grouping: str, goal: Board) -> tuple[tuple[int, ...], ...]:
    """The tiles of each group (largest group first), chosen by goal cell as the module docstring describes."""
    if grouping not in SHAPES:
        raise PuzzleError(f"unknown pattern database {grouping!r}: choose one of {', '.join(GROUPINGS)}")
    if (goal.rows, goal.cols) != SHAPES[grouping]:
        rows, cols = SHAPES[grouping]
        raise PuzzleError(f"the {grouping} pattern database is built for the {rows}x{cols} puzzle only; "
                          "use manhattan or linear-conflict")
    if grouping in CORNER_SPLITS:
        # the blank's goal in a corner: the split turned so that its first block sits beside the blank
        if goal.blank not in (0, goal.size - 1):
            raise PuzzleError(f"the {LABELS[grouping]} needs the blank's goal in the top-left or bottom-right "
                              "corner; use manhattan or linear-conflict")
        turn = (lambda c: c) if goal.blank == 0 else (lambda c: goal.size - 1 - c)
        sets = [[turn(c) for c in cells] for cells in CORNER_SPLITS[grouping]]
    elif grouping == "pdb-78":
        half = {goal.blank // 4 // 2 * 2, goal.blank // 4 // 2 * 2 + 1}
        sets = [[c for c in range(16) if c // 4 not in half], [c for c in range(16) if c // 4 in half]]
    else:
        blank_row = goal.blank // 4
        sets = [[c for c in range(16) if c // 4 != blank_row and c % 4 < 2],
                [c for c in range(16) if c // 4 != blank_row and c % 4 >= 2],
                [c for c in range(16) if c // 4 == blank_row]]
    return tuple(tuple(goal.cells[c] for c in cells if goal.cells[c] != 0) for cells in sets)


def transpose_cell(cell: int, side: int = 4) -> int:
    return (cell % side) * side + cell // side


def mirror_tiles(goal: Board) -> list[int] | None:
    """Tile → the tile whose goal cell is the transpose of its own; None when the blank's goal is off the diagonal
    (or the board is not square)."""
    if goal.rows != goal.cols:
        return None
    mirror = [0] * goal.size
    for cell, tile in enumerate(goal.cells):
        mirror[tile] = goal.cells[transpose_cell(cell, goal.cols)]
    return mirror if mirror[0] == 0 else None


@dataclass(frozen=True)
class PatternDatabase:
    goal: Board
    name: str
    groups: tuple[tuple[int, ...], ...]
    tables: np.ndarray  # every group's table, concatenated (memory-mapped)
    offsets: np.ndarray  # where each group's table starts in ``tables``

    def group_values(self, board: Board) -> tuple[list[int], list[int] | None]:
        """Each group's value for the position and for its mirror image (None without a mirror), in plain Python:
        the readable reference of the IDA* kernel."""
        n = self.goal.size
        where = {tile: cell for cell, tile in enumerate(board.cells)}
        direct = [int(self.tables[self.offsets[g] + partial_rank([where[t] for t in group], n)])
                  for g, group in enumerate(self.groups)]
        mirror = mirror_tiles(self.goal)
        if mirror is None:
            return direct, None
        # In the mirror image, tile mirror[t] stands on the transpose of t's cell.
        where_mirrored = {mirror[tile]: transpose_cell(cell, self.goal.cols) for tile, cell in where.items()}
        mirrored = [int(self.tables[self.offsets[g] + partial_rank([where_mirrored[t] for t in group], n)])
                    for g, group in enumerate(self.groups)]
        return direct, mirrored

    def value(self, board: Board) -> int:
        """h of a position: max(direct sum, mirrored sum) (the number the IDA* kernel computes)."""
        direct, mirrored = self.group_values(board)
        return max(sum(direct), sum(mirrored) if mirrored else 0)

    def kernel_arrays(self) -> dict:
        """The arrays ``pdb_kernel.PATTERN_DATABASE`` reads: per tile its group and slot (direct and mirrored)."""
        n = self.goal.size
        k = max(len(g) for g in self.groups)
        radix = np.zeros((len(self.groups), k), dtype=np.int64)
        sizes = np.array([len(g) for g in self.groups], dtype=np.int64)
        group_of = np.full(n, -1, dtype=np.int64)
        slot_of = np.zeros(n, dtype=np.int64)
        for g, group in enumerate(self.groups):
            radix[g, :len(group)] = lexicographic_radix(len(group), n)
            for slot, tile in enumerate(group):
                group_of[tile], slot_of[tile] = g, slot
        mirror = mirror_tiles(self.goal)
        ref_group = np.full(n, -1, dtype=np.int64)
        ref_slot = np.zeros(n, dtype=np.int64)
        if mirror is not None:
            for tile in range(1, n):
                ref_group[tile], ref_slot[tile] = group_of[mirror[tile]], slot_of[mirror[tile]]
        ref_cell = np.array([transpose_cell(c, self.goal.cols) for c in range(n)], dtype=np.int64)
        return dict(tables=self.tables, offsets=self.offsets, radix=radix, sizes=sizes, group_of=group_of,
                    slot_of=slot_of, ref_cell=ref_cell, ref_group=ref_group, ref_slot=ref_slot,
                    mirrored=mirror is not None)


@dataclass(frozen=True)
class HalfTurned:
    """A database read through the half-turn (``board.half_turn``): it serves ``goal`` with the tables built for
    the half-turn of ``goal`` (``stored``), so one build serves the blank-first and the blank-last goal. A position's
    values are those of its half-turn; group g holds the half-turns of the stored group g's tiles. A search with
    it searches the half-turned position against ``stored`` (``kernel_drivers.idastar`` does, told by
    ``kernel_inputs``) and turns the moves back."""

    stored: PatternDatabase

    @property
    def goal(self) -> Board:
        return half_turn(self.stored.goal)

    @property
    def name(self) -> str:
        return self.stored.name

    @property
    def groups(self) -> tuple[tuple[int, ...], ...]:
        n = self.stored.goal.size
        return tuple(tuple(n - tile for tile in group) for group in self.stored.groups)

    def group_values(self, board: Board) -> tuple[list[int], list[int] | None]:
        return self.stored.group_values(half_turn(board))

    def value(self, board: Board) -> int:
        return self.stored.value(half_turn(board))

    def kernel_inputs(self) -> dict:
        return {"database": self.stored, "half_turn": True}


def kernel_inputs(database: PatternDatabase | HalfTurned) -> dict:
    """What the compiled IDA* is given for a database (``loaded`` of ``kernel_drivers.idastar``)."""
    return database.kernel_inputs() if isinstance(database, HalfTurned) else {"database": database}


def artefact(grouping: str, goal: Board) -> str:
    return store.artefact_name(grouping, goal.cells, groups_of(grouping, goal))


#: Loaded databases by their file, so a process that points the store elsewhere (an app with a data folder of its
#: own) never sees a database of another folder.
_loaded: dict[Path, PatternDatabase] = {}
_loaded_lock = threading.Lock()


def _key(grouping: str, goal: Board) -> Path:
    return store.path_of(artefact(grouping, goal))


def _stored_here(grouping: str, goal: Board) -> bool:
    try:
        return _key(grouping, goal) in _loaded or store.exists(artefact(grouping, goal))
    except PuzzleError:  # made for another shape or goal
        return False


def is_built(grouping: str, goal: Board) -> bool:
    """True when the database for ``goal`` can be read: built for it, or for its half-turn."""
    return _stored_here(grouping, goal) or _stored_here(grouping, half_turn(goal))


def _load_stored(grouping: str, goal: Board) -> PatternDatabase | None:
    key = _key(grouping, goal)
    with _loaded_lock:
        cached = _loaded.get(key)
    if cached is not None:
        if store.check(artefact(grouping, goal)):  # a stat, unless the file changed under the mapping
            return cached
        forget(grouping, goal)
        return None
    groups = groups_of(grouping, goal)
    tables = store.load(artefact(grouping, goal), mmap=True)
    if tables is None:
        return None
    sizes = [math.perm(goal.size, len(g)) for g in groups]
    if tables.shape != (sum(sizes),):
        return None  # a file of another layout: treated as missing, rebuilt by ``tables build``
    offsets = np.cumsum([0] + sizes[:-1]).astype(np.int64)
    with _loaded_lock:
        return _loaded.setdefault(key, PatternDatabase(goal, grouping, groups, tables, offsets))


def load(grouping: str, goal: Board) -> PatternDatabase | HalfTurned | None:
    """The database for ``goal`` if it is built (memory-mapped, kept for the process): the one built for the goal,
    else the one built for its half-turn, read through the half-turn; else None. Never builds."""
    if _stored_here(grouping, goal):
        return _load_stored(grouping, goal)
    if _stored_here(grouping, half_turn(goal)):
        stored = _load_stored(grouping, half_turn(goal))
        return HalfTurned(stored) if stored is not None else None
    return None


def forget(grouping: str, goal: Board) -> None:
    with _loaded_lock:
        _loaded.pop(_key(grouping, goal), None)


def is_ready(goal: Board) -> bool:
    """True when ``pdb`` would use a pattern database for ``goal`` without building anything."""
    return any(is_built(g, goal) for g in groupings_for(goal))


def resolve(heuristic: str, goal: Board) -> tuple[PatternDatabase | HalfTurned | None, str]:
    """The database a pattern-database heuristic uses now, and a note when it is not the one asked for.

    ``pdb`` takes the strongest built database; ``pdb-78`` falls back to ``pdb-663``; when none is built the caller
    falls back to linear conflict (the database is None). A missing table is never built here: building takes
    minutes and must not count against a solve's budget (``build_command`` says what builds them).
    """
    wanted = {"pdb": groupings_for(goal), "pdb-78": ("pdb-78", "pdb-663")}.get(heuristic, (heuristic,))
    for grouping in wanted:
        database = load(grouping, goal)
        if database is not None:
            if heuristic not in ("pdb", grouping):
                return database, (f"the {LABELS[heuristic]} is not built yet ({build_command(heuristic)}); "
                                  f"used {grouping}")
            return database, ""
    command = build_command(wanted[0]) if wanted else "python -m engine tables build"
    for grouping in wanted:
        why = next(filter(None, (store.refused(artefact(grouping, g)) for g in (goal, half_turn(goal)))), None)
        if why:
            return None, (f"the {LABELS[grouping]} failed its check ({why}) and was deleted without being read; the "
                          f"server rebuilds it ({command}); used linear-conflict")
    return None, f"no pattern database is built yet for this goal ({command}); used linear-conflict"
