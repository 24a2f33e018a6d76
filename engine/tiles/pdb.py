"""Additive (disjoint) pattern databases for the 4×4 puzzle, after Korf & Felner (2002).

The 15 tiles are split into three groups by their *goal* cell: above the main diagonal (6 tiles), below it (6) and on
it (3 when the blank's goal cell is on the diagonal, as in both standard goals). For each group a breadth-first search
in the space of (its tiles' cells, the blank's cell) counts only moves of the group's own tiles; the table keeps, for
each arrangement of the group, the fewest such moves over all blank cells. Moves of different groups are disjoint, so
the three values add up to an admissible heuristic.

Why this partition: transposing the board maps the upper group onto the lower one and the diagonal onto itself, so the
mirror lookup of Korf & Felner (the same databases applied to the transposed position) needs no extra tables, and
h = max(direct sum, mirrored sum) is still admissible. A 7-8 split would prune more but needs a 519-million-entry
table for the 8 group; 6-6-3 builds in under a minute.

Table index: the group's tiles' cells as base-16 digits (16^6 entries for a 6-group, most unused; a lookup is a few
multiply-adds, no ranking).
"""

from __future__ import annotations

from dataclasses import dataclass
import threading
from typing import Callable

import numpy as np
from numba import njit

from engine.errors import PuzzleError
from engine.store import artefact_name, exists, load_or_build
from engine.tiles.board import Board
from engine.tiles.tables import goal_tables

UNSEEN = 255


@dataclass(frozen=True)
class PatternDatabase:
    goal: Board
    groups: tuple[tuple[int, ...], ...]
    tables: np.ndarray  # all groups' tables, concatenated
    offsets: np.ndarray  # where each group's table starts in ``tables``
    group_of: np.ndarray  # tile → group, -1 for the blank
    weight: np.ndarray  # tile → 16^slot within its group
    ref_cell: np.ndarray  # cell → transposed cell
    ref_group: np.ndarray  # tile → group of its mirror tile
    ref_weight: np.ndarray  # tile → weight of its mirror tile

    def value(self, board: Board) -> int:
        """h of a position (the same number the IDA* kernel computes), for tests and display."""
        from engine.tiles.kernels import pdb_indices, pdb_sum

        cells = np.array(board.cells, dtype=np.int64)
        direct = np.zeros(len(self.groups), dtype=np.int64)
        pdb_indices(cells, self.group_of, self.weight, direct)
        mirrored = np.zeros(len(self.groups), dtype=np.int64)
        for cell, tile in enumerate(board.cells):
            if self.ref_group[tile] >= 0:
                mirrored[self.ref_group[tile]] += self.ref_cell[cell] * self.ref_weight[tile]
        return int(max(pdb_sum(self.tables, self.offsets, direct), pdb_sum(self.tables, self.offsets, mirrored)))


def partition(goal: Board) -> tuple[tuple[int, ...], ...]:
    """Group tiles by goal cell: above the diagonal, below it, on it (see the module docstring)."""
    upper, lower, diagonal = [], [], []
    for cell, tile in enumerate(goal.cells):
        if tile == 0:
            continue
        r, c = divmod(cell, goal.cols)
        (upper if r < c else lower if r > c else diagonal).append(tile)
    return tuple(tuple(g) for g in (upper, lower, diagonal) if g)


@njit(cache=True, nogil=True)
def _decode(index, k, cells):
    for i in range(k + 1):
        cells[i] = index % 16
        index //= 16


@njit(cache=True, nogil=True)
def pdb_bfs_run(distance, current, cur_state, following, neighbors, k, quota):
    """Resumable 0-1 breadth-first search over (group tiles' cells, blank cell).

    ``cur_state`` = [level, position in ``current``, length of ``current``, length of ``following``, states settled].
    Moves of the blank onto a non-group cell cost 0 and extend the current level; moves of a group tile cost 1 and go
    to the following level. Returns 1 when the search is complete, 0 when paused after ``quota`` states.
    """
    cells = np.empty(k + 1, dtype=np.int64)
    level = cur_state[0]
    done = 0
    while True:
        if cur_state[1] == cur_state[2]:
            if cur_state[3] == 0:
                return 1
            # The following level becomes current.
            n = cur_state[3]
            for i in range(n):
                current[i] = following[i]
            cur_state[1] = 0
            cur_state[2] = n
            cur_state[3] = 0
            level += 1
            cur_state[0] = level
        index = current[cur_state[1]]
        cur_state[1] += 1
        if distance[index] != level:
            continue  # reached more cheaply after it was queued
        cur_state[4] += 1
        _decode(index, k, cells)
        blank = cells[k]
        blank_weight = 16 ** k
        for d in range(4):
            target = neighbors[blank, d]
            if target < 0:
                continue
            moved = -1
            for i in range(k):
                if cells[i] == target:
                    moved = i
            if moved < 0:
                child = index + (target - blank) * blank_weight
                if distance[child] > level:
                    distance[child] = level
                    current[cur_state[2]] = child
                    cur_state[2] += 1
            else:
                child = index + (target - blank) * blank_weight + (blank - target) * (16 ** moved)
                if distance[child] > level + 1:
                    distance[child] = level + 1
                    following[cur_state[3]] = child
                    cur_state[3] += 1
        done += 1
        if done >= quota:
            return 0


@njit(cache=True, nogil=True)
def collapse_blank(distance, k, out):
    """The group table: for each arrangement of the group's tiles, the least distance over blank cells."""
    size = 16 ** k
    for index in range(distance.shape[0]):
        value = distance[index]
        if value < out[index % size]:
            out[index % size] = value


def build_group_table(goal: Board, group: tuple[int, ...],
                      progress: Callable[[float | None, dict], None] | None = None,
                      cancelled: Callable[[], bool] | None = None) -> np.ndarray:
    k = len(group)
    tables = goal_tables(goal)
    total_states = 1
    for i in range(k + 1):
        total_states *= 16 - i
    distance = np.full(16 ** (k + 1), UNSEEN, dtype=np.uint8)
    start = sum(goal.position_of(tile) * 16 ** i for i, tile in enumerate(group)) + goal.blank * 16 ** k
    # Each state enters a queue at most once per improvement; a level never holds more than every state.
    current = np.empty(total_states + 16, dtype=np.int32)
    following = np.empty(total_states + 16, dtype=np.int32)
    distance[start] = 0
    current[0] = start
    state = np.array([0, 0, 1, 0, 0], dtype=np.int64)
    while not pdb_bfs_run(distance, current, state, following, tables.neighbors, k, 2_000_000):
        if cancelled is not None and cancelled():
            raise PuzzleError("pattern database build cancelled")
        if progress is not None:
            progress(state[4] / total_states, {"nodes": int(state[4]), "text": f"building the pattern database: "
                     f"group {group}, {state[4]:,} of {total_states:,} states"})
    table = np.full(16 ** k, UNSEEN, dtype=np.uint8)
    collapse_blank(distance, k, table)
    return table


_databases: dict[Board, PatternDatabase] = {}
_databases_lock = threading.Lock()


def pattern_database(goal: Board, progress: Callable[[float | None, dict], None] | None = None,
                     cancelled: Callable[[], bool] | None = None) -> PatternDatabase:
    """The 6-6-3 database for ``goal`` (4×4 only), loaded from disk or built (about 40 s) and saved; kept in memory."""
    with _databases_lock:
        if goal in _databases:
            return _databases[goal]
    database = _load_or_build(goal, progress, cancelled)
    with _databases_lock:
        return _databases.setdefault(goal, database)


def is_ready(goal: Board) -> bool:
    """True when the database for ``goal`` can be had without building it."""
    return goal in _databases or all(exists(artefact_name("pdb", goal.cells, g)) for g in partition(goal))


def _load_or_build(goal: Board, progress, cancelled) -> PatternDatabase:
    if (goal.rows, goal.cols) != (4, 4):
        raise PuzzleError("pattern databases are built for the 4x4 puzzle only; use manhattan or linear-conflict")
    groups = partition(goal)
    parts = []
    for number, group in enumerate(groups):
        def report(fraction: float | None, info: dict, number: int = number) -> None:
            if progress is not None:
                progress((number + fraction) / len(groups), info)

        name = artefact_name("pdb", goal.cells, group)
        parts.append(load_or_build(name, lambda g=group: build_group_table(goal, g, report, cancelled)))
    offsets = np.cumsum([0] + [len(p) for p in parts[:-1]]).astype(np.int64)
    size = goal.size
    group_of = np.full(size, -1, dtype=np.int64)
    weight = np.zeros(size, dtype=np.int64)
    for g, group in enumerate(groups):
        for slot, tile in enumerate(group):
            group_of[tile] = g
            weight[tile] = 16 ** slot
    ref_cell = np.array([(c % 4) * 4 + c // 4 for c in range(size)], dtype=np.int64)
    # The mirror of tile t is the tile whose goal cell is the transpose of t's goal cell.
    mirror = np.zeros(size, dtype=np.int64)
    for cell, tile in enumerate(goal.cells):
        mirror[tile] = goal.cells[ref_cell[cell]]
    if mirror[0] != 0:  # the blank's goal is off the diagonal: the mirror is not a symmetry of this goal
        ref_group = np.full(size, -1, dtype=np.int64)
        ref_weight = np.zeros(size, dtype=np.int64)
    else:
        ref_group = group_of[mirror]
        ref_weight = weight[mirror]
    return PatternDatabase(goal, groups, np.concatenate(parts), offsets, group_of, weight, ref_cell, ref_group,
                           ref_weight)
