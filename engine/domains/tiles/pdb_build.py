"""Building the pattern databases of ``engine.domains.tiles.pdb`` (numba, every core).

The build (``build_database``) is a level-by-level search over every (arrangement, blank region) pair, on all cores: a
blank region is the set of cells the blank reaches without moving a group tile (those moves cost 0), so one pair stands
for all its blank cells. Each arrangement keeps 2 bits per blank cell: 0 = not reached, 3 = expanded, and 1 and 2
taking turns as "reached at the level being expanded" and "reached at the next level" (2 GB for the 8 group, plus
the 519 MB table). Two threads may reach the same arrangement at once, so the bits are set with an atomic OR. A word
holds ``CELLS_PER_WORD`` cells; a board of more cells (6×6) keeps ``words_for(cells)`` words per arrangement, a row
of a 2-D array.

A build takes seconds (6-6-3) to minutes (7-8) and is never part of a solve: ``engine.domains.tiles.pdb_catalogue`` runs
it as a job or from the command line.
"""

from __future__ import annotations

import math
import resource
import threading
import time
from collections.abc import Callable

import numpy as np
from numba import njit, prange
from numba.core import cgutils, types
from numba.extending import intrinsic, overload

from engine.core.errors import PuzzleError
from engine.domains.tiles.board import MOVES, Board
from engine.domains.tiles.goal_arrays import goal_tables
from engine.domains.tiles.pdb import PatternDatabase, artefact, forget, groups_of, load
from engine.domains.tiles.ranking import lexicographic_radix, partial_rank
from engine.domains.tiles.ranking_kernels import moved_rank, unrank_positions
from engine.serving import store
from engine.serving.parallel import PARALLEL_LOCK

UNSEEN = 255
#: The build's 2-bit code of a (arrangement, blank cell) pair already expanded; 0 is not reached yet, and 1 and 2
#: take turns as "reached at the level being expanded" and "reached at the next level".
DONE = 3
#: Ranks per block of the build's activity flags.
BLOCK = 4096
#: Cells whose 2-bit codes one 64-bit word holds (31, not 32: the bit tricks below stay within a signed word).
CELLS_PER_WORD = 31


def words_for(cells: int) -> int:
    """Code words per arrangement on a board of ``cells`` cells."""
    return (cells + CELLS_PER_WORD - 1) // CELLS_PER_WORD


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
    """Bit i of a mask of at most 31 cells → bit 2i (the 2-bit field of cell i)."""
    x = mask & 0x7FFFFFFF
    x = (x | (x << 16)) & 0x0000FFFF0000FFFF
    x = (x | (x << 8)) & 0x00FF00FF00FF00FF
    x = (x | (x << 4)) & 0x0F0F0F0F0F0F0F0F
    x = (x | (x << 2)) & 0x3333333333333333
    x = (x | (x << 1)) & 0x5555555555555555
    return x


@njit(cache=True, nogil=True)
def cells_with_code(word, code, cells):
    """The mask of the first ``cells`` cells whose 2-bit field in ``word`` equals ``code``."""
    t = word ^ (code * 0x1555555555555555)
    x = ~(t | (t >> 1)) & 0x1555555555555555
    x = (x | (x >> 1)) & 0x3333333333333333
    x = (x | (x >> 2)) & 0x0F0F0F0F0F0F0F0F
    x = (x | (x >> 4)) & 0x00FF00FF00FF00FF
    x = (x | (x >> 8)) & 0x0000FFFF0000FFFF
    return (x | (x >> 16)) & ((1 << cells) - 1)


def cells_at_code(codes, rank, code, cells):
    """The mask of the cells of arrangement ``rank`` whose 2-bit code equals ``code``. ``codes`` is one word per
    arrangement (1-D) or several (2-D, a row per arrangement); the compiled form is chosen by that shape, so the
    one-word build pays nothing for the other (``_cells_at_code``)."""
    raise TypeError("cells_at_code runs compiled only")


def code_at(codes, rank, cell):
    """The 2-bit code of arrangement ``rank`` with the blank at ``cell`` (compiled only, as ``cells_at_code``)."""
    raise TypeError("code_at runs compiled only")


def mark(codes, rank, region, code):
    """OR ``code`` into the fields of the cells of ``region``; True when the arrangement had no code before (reached
    for the first time). Two threads marking a new arrangement at one level may both see True: both then write the
    same level. Compiled only, as ``cells_at_code``."""
    raise TypeError("mark runs compiled only")


@overload(cells_at_code)
def _cells_at_code(codes, rank, code, cells):
    if codes.ndim == 1:
        def one_word(codes, rank, code, cells):
            word = np.int64(codes[rank])
            return cells_with_code(word, code, cells) if word != 0 else 0
        return one_word

    def words(codes, rank, code, cells):
        found = 0
        for w in range(codes.shape[1]):
            word = np.int64(codes[rank, w])
            if word != 0:
                found |= cells_with_code(word, code, min(CELLS_PER_WORD, cells - w * CELLS_PER_WORD)) << (
                    w * CELLS_PER_WORD)
        return found
    return words


@overload(code_at)
def _code_at(codes, rank, cell):
    if codes.ndim == 1:
        return lambda codes, rank, cell: (np.int64(codes[rank]) >> (2 * cell)) & 3

    def words(codes, rank, cell):
        w = cell // CELLS_PER_WORD
        return (np.int64(codes[rank, w]) >> (2 * (cell - w * CELLS_PER_WORD))) & 3
    return words


@overload(mark)
def _mark(codes, rank, region, code):
    if codes.ndim == 1:
        return lambda codes, rank, region, code: atomic_or(codes, rank, spread(region) * code) == 0

    def words(codes, rank, region, code):
        fresh = True
        for w in range(codes.shape[1]):
            part = (region >> (w * CELLS_PER_WORD)) & ((1 << CELLS_PER_WORD) - 1)
            before = atomic_or(codes[rank], w, spread(part) * code) if part else codes[rank, w]
            if before != 0:
                fresh = False
        return fresh
    return words


@njit(cache=True, nogil=True)
def mark_start(codes, rank, region):
    """The goal arrangement with the blank's region at level 0 (code 1)."""
    mark(codes, rank, region, 1)


@njit(cache=True, nogil=True)
def region_of(cell, free, cols, not_first_col, not_last_col):
    """The cells of ``free`` (a mask of cells) the blank reaches from ``cell`` without leaving ``free``."""
    region = 1 << cell
    while True:
        grow = region | ((region & not_last_col) << 1) | ((region & not_first_col) >> 1) | (region << cols) | (
            region >> cols)
        grow &= free
        if grow == region:
            return region
        region = grow


@njit(cache=True, nogil=True, parallel=True)
def pdb_level(codes, table, level, begin, end, k, radix, neighbors, cols, not_first_col, not_last_col, active,
              marked, pushed):
    """Expand every (arrangement, blank region) at ``level`` among ranks [begin, end); mark what they reach at
    ``level + 1`` in ``codes`` (2 bits per blank cell) and ``table``. Only blocks of ``BLOCK`` ranks flagged in
    ``active`` are read; blocks that receive a pair are flagged in ``marked`` (the next level's ``active``), so the
    sparse first and last levels skip most of the 2 GB. ``pushed[block]`` counts new pairs and newly reached
    arrangements (a race may count one twice: they feed the progress line only). ``begin`` is a multiple of BLOCK."""
    cells = neighbors.shape[0]
    everywhere = (1 << cells) - 1
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
        child_code = np.empty(4 * k, dtype=np.int64)
        count = 0
        first = 0
        for rank in range(begin + c * chunk, min(end, begin + (c + 1) * chunk)):
            todo = cells_at_code(codes, rank, code, cells)
            if todo == 0:
                continue
            unrank_positions(rank, radix, where)
            occupied = 0
            for s in range(k):
                occupied |= 1 << where[s]
            free = everywhere & ~occupied
            while todo:
                start = 0
                while not (todo >> start) & 1:
                    start += 1
                region = region_of(start, free, cols, not_first_col, not_last_col)
                todo &= ~region
                mark(codes, rank, region, DONE)
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
                    child_code[i] = code_at(codes, child_rank[i], child_from[i])
                for i in range(n):
                    x = child_from[i]
                    if child_code[i]:
                        continue
                    child = child_rank[i]
                    child_region = region_of(x, (free | (1 << x)) & ~(1 << child_to[i]), cols, not_first_col,
                                             not_last_col)
                    # the value before the OR says whether the arrangement was reached before at all: no read of
                    # ``table`` (a second cache miss) is needed to know whether this level is its value
                    if mark(codes, child, child_region, following):
                        table[child] = level + 1
                        first += 1
                    marked[child // chunk] = 1
                    count += 1
        pushed[c, 0] = count
        pushed[c, 1] = first


def build_group_table(goal: Board, group: tuple[int, ...], progress: Callable[[float | None, dict], None] | None = None,
                      cancelled: Callable[[], bool] | None = None, label: str = "") -> np.ndarray:
    """The table of one group: fewest moves of its tiles to bring each arrangement home (uint8, by rank)."""
    n, cols, k = goal.size, goal.cols, len(group)
    size = math.perm(n, k)
    radix = lexicographic_radix(k, n)
    neighbors = goal_tables(goal).neighbors
    not_first_col = sum(1 << c for c in range(n) if c % cols != 0)
    not_last_col = sum(1 << c for c in range(n) if c % cols != cols - 1)
    # 2 bits per blank cell: a 4x4 board's fit in 32 bits (2 GB for the 8 group rather than 4)
    words = words_for(n)
    codes = np.zeros(size if words == 1 else (size, words), dtype=np.uint32 if n <= 16 else np.uint64)
    table = np.full(size, UNSEEN, dtype=np.uint8)
    home = [goal.position_of(t) for t in group]
    start = partial_rank(home, n)
    free = (1 << n) - 1 & ~sum(1 << c for c in home)
    mark_start(codes, start, region_of(goal.blank, free, cols, not_first_col, not_last_col))
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
                pdb_level(codes, table, level, begin, end, k, radix, neighbors, cols, not_first_col, not_last_col,
                          active, marked, pushed)
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

    n, k = goal.size, len(group)
    table = np.full(math.perm(n, k), UNSEEN, dtype=np.uint8)
    start = (tuple(goal.position_of(t) for t in group), goal.blank)
    distance = {start: 0}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        where, blank = state
        level = distance[state]
        rank = partial_rank(list(where), n)
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
        sizes = [math.perm(goal.size, len(g)) for g in groups]
        done = 0
        parts = []
        for group, size in zip(groups, sizes, strict=True):
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
