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
tiles of lower slots in lower cells; ``engine.tiles.ranking.rank_of_positions``), a bijection onto 16!/(16-k)! entries.

The build (``build_database``) is a level-by-level search over every (arrangement, blank region) pair, on all cores: a
blank region is the set of cells the blank reaches without moving a group tile (those moves cost 0), so one pair stands
for all its blank cells. Each arrangement keeps 2 bits per blank cell: 0 = not reached, 3 = expanded, and 1 and 2
taking turns as "reached at the level being expanded" and "reached at the next level" (2 GB for the 8 group, plus
the 519 MB table). Two threads may reach the same arrangement at once, so the bits are set with an atomic OR.

Tables live in the store (``engine.store``) as one ``.npy`` per grouping and goal, memory-mapped when used; a solve
never builds one (``resolve`` falls back and says so; ``engine.tiles.tables_catalogue`` builds them).
"""

from __future__ import annotations

import math
import resource
import threading
import time
from dataclasses import dataclass
from typing import Callable

import numpy as np
from numba import njit, prange
from numba.core import cgutils, types
from numba.extending import intrinsic

from engine import store
from engine.errors import PuzzleError
from engine.parallel import PARALLEL_LOCK
from engine.tiles.board import MOVES, Board
from engine.tiles.ranking import lexicographic_radix, moved_rank, partial_rank, unrank_positions
from engine.tiles.tables import goal_tables

UNSEEN = 255
#: The build's 2-bit code of a (arrangement, blank cell) pair already expanded; 0 is not reached yet, and 1 and 2
#: take turns as "reached at the level being expanded" and "reached at the next level".
DONE = 3
#: Ranks per block of the build's activity flags.
BLOCK = 4096
#: Named databases, strongest first: ``pdb`` means the first of these that is built.
GROUPINGS = ("pdb-78", "pdb-663")
#: The heuristic names that read a pattern database.
PDB_HEURISTICS = ("pdb",) + GROUPINGS
LABELS = {"pdb-78": "7-8 additive pattern database with reflection",
          "pdb-663": "6-6-3 additive pattern database with reflection"}


def groups_of(grouping: str, goal: Board) -> tuple[tuple[int, ...], ...]:
    """The tiles of each group (largest group first), chosen by goal cell as the module docstring describes."""
    if (goal.rows, goal.cols) != (4, 4):
        raise PuzzleError("pattern databases are built for the 4x4 puzzle only; use manhattan or linear-conflict")
    blank_row = goal.blank // 4
    if grouping == "pdb-78":
        half = {blank_row // 2 * 2, blank_row // 2 * 2 + 1}
        sets = [[c for c in range(16) if c // 4 not in half], [c for c in range(16) if c // 4 in half]]
    elif grouping == "pdb-663":
        sets = [[c for c in range(16) if c // 4 != blank_row and c % 4 < 2],
                [c for c in range(16) if c // 4 != blank_row and c % 4 >= 2],
                [c for c in range(16) if c // 4 == blank_row]]
    else:
        raise PuzzleError(f"unknown pattern database {grouping!r}: choose one of {', '.join(GROUPINGS)}")
    return tuple(tuple(goal.cells[c] for c in cells if goal.cells[c] != 0) for cells in sets)


def transpose_cell(cell: int) -> int:
    return (cell % 4) * 4 + cell // 4


def mirror_tiles(goal: Board) -> list[int] | None:
    """Tile → the tile whose goal cell is the transpose of its own; None when the blank's goal is off the diagonal."""
    mirror = [0] * 16
    for cell, tile in enumerate(goal.cells):
        mirror[tile] = goal.cells[transpose_cell(cell)]
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
        where = {tile: cell for cell, tile in enumerate(board.cells)}
        direct = [int(self.tables[self.offsets[g] + partial_rank([where[t] for t in group])])
                  for g, group in enumerate(self.groups)]
        mirror = mirror_tiles(self.goal)
        if mirror is None:
            return direct, None
        # In the mirror image, tile mirror[t] stands on the transpose of t's cell.
        where_mirrored = {mirror[tile]: transpose_cell(cell) for tile, cell in where.items()}
        mirrored = [int(self.tables[self.offsets[g] + partial_rank([where_mirrored[t] for t in group])])
                    for g, group in enumerate(self.groups)]
        return direct, mirrored

    def value(self, board: Board) -> int:
        """h of a position: max(direct sum, mirrored sum) (the number the IDA* kernel computes)."""
        direct, mirrored = self.group_values(board)
        return max(sum(direct), sum(mirrored) if mirrored else 0)

    def kernel_arrays(self) -> dict:
        """The arrays ``ida_kernels.ida_pdb_run`` reads: per tile its group and slot (direct and mirrored)."""
        k = max(len(g) for g in self.groups)
        radix = np.zeros((len(self.groups), k), dtype=np.int64)
        sizes = np.array([len(g) for g in self.groups], dtype=np.int64)
        group_of = np.full(16, -1, dtype=np.int64)
        slot_of = np.zeros(16, dtype=np.int64)
        for g, group in enumerate(self.groups):
            radix[g, :len(group)] = lexicographic_radix(len(group), 16)
            for slot, tile in enumerate(group):
                group_of[tile], slot_of[tile] = g, slot
        mirror = mirror_tiles(self.goal)
        ref_group = np.full(16, -1, dtype=np.int64)
        ref_slot = np.zeros(16, dtype=np.int64)
        if mirror is not None:
            for tile in range(1, 16):
                ref_group[tile], ref_slot[tile] = group_of[mirror[tile]], slot_of[mirror[tile]]
        ref_cell = np.array([transpose_cell(c) for c in range(16)], dtype=np.int64)
        return dict(tables=self.tables, offsets=self.offsets, radix=radix, sizes=sizes, group_of=group_of,
                    slot_of=slot_of, ref_cell=ref_cell, ref_group=ref_group, ref_slot=ref_slot,
                    mirrored=mirror is not None)


def artefact(grouping: str, goal: Board) -> str:
    return store.artefact_name(grouping, goal.cells, groups_of(grouping, goal))


_loaded: dict[tuple[str, Board], PatternDatabase] = {}
_loaded_lock = threading.Lock()


def is_built(grouping: str, goal: Board) -> bool:
    return (grouping, goal) in _loaded or store.exists(artefact(grouping, goal))


def load(grouping: str, goal: Board) -> PatternDatabase | None:
    """The database if it is built (memory-mapped, kept for the process), else None. Never builds."""
    key = (grouping, goal)
    with _loaded_lock:
        if key in _loaded:
            return _loaded[key]
    groups = groups_of(grouping, goal)
    tables = store.load(artefact(grouping, goal), mmap=True)
    if tables is None:
        return None
    sizes = [math.perm(16, len(g)) for g in groups]
    if tables.shape != (sum(sizes),):
        return None  # a file of another layout: treated as missing, rebuilt by ``tables build``
    offsets = np.cumsum([0] + sizes[:-1]).astype(np.int64)
    with _loaded_lock:
        return _loaded.setdefault(key, PatternDatabase(goal, grouping, groups, tables, offsets))


def forget(grouping: str, goal: Board) -> None:
    with _loaded_lock:
        _loaded.pop((grouping, goal), None)


def is_ready(goal: Board) -> bool:
    """True when ``pdb`` would use a pattern database for ``goal`` without building anything."""
    return (goal.rows, goal.cols) == (4, 4) and any(is_built(g, goal) for g in GROUPINGS)


def resolve(heuristic: str, goal: Board) -> tuple[PatternDatabase | None, str]:
    """The database a pattern-database heuristic uses now, and a note when it is not the one asked for.

    ``pdb`` takes the strongest built database; ``pdb-78`` falls back to ``pdb-663``; when none is built the caller
    falls back to linear conflict (the database is None). A missing table is never built here: building takes
    minutes and must not count against a solve's budget (``python -m engine tables build`` builds them).
    """
    wanted = GROUPINGS if heuristic in ("pdb", "pdb-78") else (heuristic,)
    for grouping in wanted:
        database = load(grouping, goal)
        if database is not None:
            if heuristic not in ("pdb", grouping):
                return database, (f"the {LABELS[heuristic]} is not built yet (python -m engine tables build); "
                                  f"used {grouping}")
            return database, ""
    return None, ("no pattern database is built yet for this goal (python -m engine tables build); "
                  "used linear-conflict")


# ---------------------------------------------------------------------------------------------------------------
# The build.

@intrinsic
def atomic_or(typingctx, array, index, value):
    """``array[index] |= value`` as one atomic instruction (the build's threads may hit the same entry at once)."""
    def codegen(context, builder, signature, args):
        array_type = signature.args[0]
        data = context.make_array(array_type)(context, builder, args[0])
        pointer = cgutils.get_item_pointer(context, builder, array_type, data, [args[1]])
        operand = context.cast(builder, args[2], signature.args[2], array_type.dtype)
        return builder.atomic_rmw("or", pointer, operand, "monotonic")

    if not isinstance(array, types.Array) or not isinstance(index, types.Integer):
        return None
    return array.dtype(array, index, value), codegen


@njit(cache=True, nogil=True)
def spread(mask):
    """Bit i of a 16-bit mask → bit 2i (the 2-bit field of cell i)."""
    x = mask & 0xFFFF
    x = (x | (x << 8)) & 0x00FF00FF
    x = (x | (x << 4)) & 0x0F0F0F0F
    x = (x | (x << 2)) & 0x33333333
    x = (x | (x << 1)) & 0x55555555
    return x


@njit(cache=True, nogil=True)
def cells_with_code(word, code):
    """The 16-bit mask of cells whose 2-bit field in ``word`` equals ``code``."""
    t = word ^ (code * 0x55555555)
    x = ~(t | (t >> 1)) & 0x55555555
    x = (x | (x >> 1)) & 0x33333333
    x = (x | (x >> 2)) & 0x0F0F0F0F
    x = (x | (x >> 4)) & 0x00FF00FF
    return (x | (x >> 8)) & 0xFFFF


@njit(cache=True, nogil=True)
def region_of(cell, free, not_first_col, not_last_col):
    """The cells of ``free`` (a 16-bit mask) the blank reaches from ``cell`` without leaving ``free``."""
    region = 1 << cell
    while True:
        grow = region | ((region & not_last_col) << 1) | ((region & not_first_col) >> 1) | (region << 4) | (
            region >> 4)
        grow &= free
        if grow == region:
            return region
        region = grow


@njit(cache=True, nogil=True, parallel=True)
def pdb_level(codes, table, level, begin, end, k, radix, neighbors, not_first_col, not_last_col, active, marked,
              pushed):
    """Expand every (arrangement, blank region) at ``level`` among ranks [begin, end); mark what they reach at
    ``level + 1`` in ``codes`` (2 bits per blank cell) and ``table``. Only blocks of ``BLOCK`` ranks flagged in
    ``active`` are read; blocks that receive a pair are flagged in ``marked`` (the next level's ``active``), so the
    sparse first and last levels skip most of the 2 GB. ``pushed[block]`` counts new pairs and newly reached
    arrangements (a race may count one twice: they feed the progress line only). ``begin`` is a multiple of BLOCK."""
    code = 1 + (level & 1)
    following = 2 - (level & 1)
    chunk = BLOCK
    chunks = (end - begin + chunk - 1) // chunk
    for c in prange(chunks):
        if not active[begin // chunk + c]:
            continue
        where = np.empty(k, dtype=np.int64)
        # a region's children are gathered first and their codes read in one go: independent loads overlap,
        # which matters because nearly every read misses the cache (the codes of the 8 group are 2 GB)
        child_rank = np.empty(4 * k, dtype=np.int64)
        child_from = np.empty(4 * k, dtype=np.int64)
        child_to = np.empty(4 * k, dtype=np.int64)
        child_word = np.empty(4 * k, dtype=np.int64)
        count = 0
        first = 0
        for rank in range(begin + c * chunk, min(end, begin + (c + 1) * chunk)):
            word = np.int64(codes[rank])
            if word == 0:
                continue
            todo = cells_with_code(word, code)
            if todo == 0:
                continue
            unrank_positions(rank, radix, where)
            occupied = 0
            for s in range(k):
                occupied |= 1 << where[s]
            free = 0xFFFF & ~occupied
            while todo:
                start = 0
                while not (todo >> start) & 1:
                    start += 1
                region = region_of(start, free, not_first_col, not_last_col)
                todo &= ~region
                atomic_or(codes, rank, spread(region) * DONE)
                n = 0
                for s in range(k):
                    x = where[s]
                    for d in range(4):
                        target = neighbors[x, d]
                        if target >= 0 and (region >> target) & 1:
                            # the blank at ``target`` swaps with tile s: s moves there, the blank to x
                            child_rank[n] = moved_rank(rank, where, s, target, radix)
                            child_from[n] = x
                            child_to[n] = target
                            n += 1
                for i in range(n):
                    child_word[i] = codes[child_rank[i]]
                for i in range(n):
                    x = child_from[i]
                    if (child_word[i] >> (2 * x)) & 3:
                        continue
                    child = child_rank[i]
                    child_region = region_of(x, (free | (1 << x)) & ~(1 << child_to[i]), not_first_col,
                                             not_last_col)
                    # the value before the OR says whether the arrangement was reached before at all: no read of
                    # ``table`` (a second cache miss) is needed to know whether this level is its value
                    if atomic_or(codes, child, spread(child_region) * following) == 0:
                        table[child] = level + 1
                        first += 1
                    marked[child // chunk] = 1
                    count += 1
        pushed[c, 0] = count
        pushed[c, 1] = first


def build_group_table(goal: Board, group: tuple[int, ...], progress: Callable[[float | None, dict], None] | None = None,
                      cancelled: Callable[[], bool] | None = None, label: str = "") -> np.ndarray:
    """The table of one group: fewest moves of its tiles to bring each arrangement home (uint8, by rank)."""
    k = len(group)
    size = math.perm(16, k)
    radix = lexicographic_radix(k, 16)
    neighbors = goal_tables(goal).neighbors
    not_first_col = sum(1 << c for c in range(16) if c % 4 != 0)
    not_last_col = sum(1 << c for c in range(16) if c % 4 != 3)
    codes = np.zeros(size, dtype=np.uint32)
    table = np.full(size, UNSEEN, dtype=np.uint8)
    home = [goal.position_of(t) for t in group]
    start = partial_rank(home)
    free = 0xFFFF & ~sum(1 << c for c in home)
    codes[start] = int(spread(region_of(goal.blank, free, not_first_col, not_last_col)))  # code 1: level 0
    table[start] = 0
    active = np.zeros((size + BLOCK - 1) // BLOCK, dtype=np.uint8)
    active[start // BLOCK] = 1
    piece = 4096 * BLOCK  # ranks per kernel call: back in Python about once a second for progress and cancel
    level, arrangements, started = 0, 1, time.perf_counter()
    while True:
        new = 0
        marked = np.zeros_like(active)
        for begin in range(0, size, piece):
            end = min(size, begin + piece)
            pushed = np.zeros(((end - begin + BLOCK - 1) // BLOCK, 2), dtype=np.int64)
            with PARALLEL_LOCK:
                pdb_level(codes, table, level, begin, end, k, radix, neighbors, not_first_col, not_last_col, active,
                          marked, pushed)
            new += int(pushed[:, 0].sum())
            arrangements += int(pushed[:, 1].sum())
            if cancelled is not None and cancelled():
                raise PuzzleError("pattern database build cancelled")
            if progress is not None:
                progress(min(1.0, arrangements / size), {
                    "level": level, "text": f"{label}group of {k} tiles: level {level}, {min(arrangements, size):,} "
                    f"of {size:,} arrangements, {time.perf_counter() - started:.0f} s"})
        if new == 0:
            break
        active = marked
        level += 1
    del codes
    return table


def group_table_reference(goal: Board, group: tuple[int, ...]) -> np.ndarray:
    """``build_group_table`` in plain Python (a 0-1 breadth-first search over (group cells, blank cell)): the
    readable reference the tests compare the kernel with, on groups small enough for Python."""
    from collections import deque

    n, k = 16, len(group)
    table = np.full(math.perm(n, k), UNSEEN, dtype=np.uint8)
    start = (tuple(goal.position_of(t) for t in group), goal.blank)
    distance = {start: 0}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        where, blank = state
        level = distance[state]
        rank = partial_rank(list(where))
        table[rank] = min(table[rank], level)
        for move in MOVES:
            target = goal.neighbor(blank, move)
            if target is None:
                continue
            cost = 1 if target in where else 0
            child = (tuple(blank if c == target else c for c in where), target)
            if distance.get(child, 1 << 30) > level + cost:
                distance[child] = level + cost
                (queue.append if cost else queue.appendleft)(child)
    return table


_build_lock = threading.Lock()


def build_database(grouping: str, goal: Board, progress: Callable[[float | None, dict], None] | None = None,
                   cancelled: Callable[[], bool] | None = None) -> PatternDatabase:
    """Build every group's table (largest first: the peak is the largest group's search alone), store them as one
    ``.npy`` with the build time and peak memory beside it, and return the database, memory-mapped. One build at a
    time per process: each uses every core."""
    groups = groups_of(grouping, goal)
    with _build_lock:
        database = load(grouping, goal)
        if database is not None:
            return database
        started = time.perf_counter()
        sizes = [math.perm(16, len(g)) for g in groups]
        done = 0
        parts = []
        for group, size in zip(groups, sizes):
            def report(fraction, info, done=done, size=size):
                if progress is not None:
                    progress((done + (fraction or 0.0) * size) / sum(sizes), info)

            parts.append(build_group_table(goal, group, report, cancelled, label=f"{grouping}: "))
            done += size
        tables = np.concatenate(parts)
        del parts
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        store.save(artefact(grouping, goal), tables, {
            "grouping": grouping, "goal": list(goal.cells), "groups": [list(g) for g in groups],
            "build_seconds": round(time.perf_counter() - started, 1), "peak_bytes": peak, "built": time.time()})
        del tables
        forget(grouping, goal)
        return load(grouping, goal)
